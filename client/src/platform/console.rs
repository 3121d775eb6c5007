//! A page's log: what the window writes to its terminal under `RUST_LOG`, a page writes to
//! the browser's console — only the targets its address's query names
//! (`?log=bolide::drill,bolide_client::net`), and nothing when it names none.
//! `scripts/browser-timing.sh` reads the warm-up's trials from it, as `window-timing.sh`
//! reads the window's terminal.

use std::fmt::Write as _;
use tracing::field::{Field, Visit};
use tracing::span;

struct Console {
    targets: Vec<String>,
}

impl tracing::Subscriber for Console {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        self.targets.iter().any(|t| metadata.target().starts_with(t.as_str()))
    }

    // Spans are not followed: a line is its event's fields.
    fn new_span(&self, _: &span::Attributes<'_>) -> span::Id {
        span::Id::from_u64(1)
    }

    fn record(&self, _: &span::Id, _: &span::Record<'_>) {}

    fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        let metadata = event.metadata();
        let mut line = format!("{} {}:", metadata.level(), metadata.target());
        event.record(&mut Line(&mut line));
        web_sys::console::log_1(&line.into());
    }

    fn enter(&self, _: &span::Id) {}

    fn exit(&self, _: &span::Id) {}
}

/// ` name=value` for each field.
struct Line<'a>(&'a mut String);

impl Visit for Line<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

/// Logs to the console the targets the page's query names, if any.
pub fn install(query: &str) {
    let targets = super::query::log_targets(query);
    if !targets.is_empty() {
        let _ = tracing::subscriber::set_global_default(Console { targets });
    }
}
