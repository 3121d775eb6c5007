//! `bolide`: the game. Opens the window (start screen: host, join, practice) with a host
//! embedded ([`embed`]); `--text` races bots in the terminal instead, for machines without a
//! display.

mod embed;
mod text_race;

use clap::Parser;
use std::process::ExitCode;
use tracing::Level;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::prelude::*;

#[derive(Parser)]
#[command(name = "bolide", version, about = "Bolide LAN: the racing party game for laptops around a table")]
struct Cli {
    /// Watch a championship of bots in this terminal instead of opening the window.
    #[arg(long)]
    text: bool,
    #[command(flatten)]
    race: text_race::TextArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.text {
        return match text_race::run(cli.race) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    // `RUST_LOG` as targets and levels (`warn,bolide=debug`); a filter without regexes keeps
    // the cold build short.
    let filter = std::env::var("RUST_LOG").ok().and_then(|s| s.parse::<Targets>().ok());
    let filter = filter.unwrap_or_else(|| Targets::new().with_default(Level::WARN).with_target("bolide", Level::INFO));
    // The builder's own ceiling (INFO by default) lifted: the filter alone decides.
    tracing_subscriber::fmt().with_max_level(Level::TRACE).with_writer(std::io::stderr).finish().with(filter).init();
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        eprintln!(
            "bolide: no display to open the window on (DISPLAY is not set); `bolide --text` races bots in this terminal"
        );
        return ExitCode::FAILURE;
    }
    match bolide_client::ui::run_window(Some(std::sync::Arc::new(embed::EmbeddedHost))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bolide: cannot open the window ({e}); `bolide --text` races bots in this terminal");
            ExitCode::FAILURE
        }
    }
}
