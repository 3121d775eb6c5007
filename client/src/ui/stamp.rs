//! When a frame reached the screen (fairness.md §2), and when a button was pressed: the stamps
//! every face that times a person uses — the race's reveal and Échange, 1000 Bornes' attack,
//! the warm-up.
//!
//! `shown` is the instant the frame that drew the moment was on screen. egui offers no hook
//! after the swap, but eframe swaps a frame's buffers before it starts the next one on the
//! same thread: so the stamp is taken when the next frame starts (asked for at once,
//! [`frame_started`]), with the instant the X server reports the window's pixels changed
//! ([`crate::platform::display_time`]) — or, without that report, the instant the next frame starts. Not
//! when the frame was built, nor when its draw calls were queued, nor when they were drawn: a
//! software rasteriser draws a whole 1280×800 frame and copies it to the display in between,
//! which would count against the pilot. Without a GL painter (the headless tests) there is no
//! swap, and it is stamped in the pass itself. An input is stamped with the instant the X
//! server took the press in ([`input_us`]), or that of the pass that read it.
//! `scripts/window-timing.sh` measures both stamps against what the display showed and when
//! XTest sent the key or the click.

use crate::net::{Clock, MonotonicClock};
pub(crate) use crate::platform::display_time::Trigger;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Set when this process draws with the GL painter (the real window): frames are swapped.
pub(crate) static GL_PAINTER: AtomicBool = AtomicBool::new(false);

/// A stamp waiting for the frame it was asked in to be on screen.
struct Waiting {
    frame: u64,
    /// Called with the instant the display server put the frame up, when it told.
    stamp: Box<dyn FnOnce(Option<crate::platform::rt::Instant>) + Send>,
}

/// At most a few at once (a reveal, an Échange); a bound all the same.
const MOST_WAITING: usize = 16;
static WAITING: Mutex<Vec<Waiting>> = Mutex::new(Vec::new());

fn waiting() -> MutexGuard<'static, Vec<Waiting>> {
    WAITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Calls `then` once with the instant, on `clock`, the frame this pass builds is on screen.
pub(crate) fn on_screen(ui: &egui::Ui, clock: &Arc<MonotonicClock>, then: impl FnOnce(u64) + Send + 'static) {
    if !GL_PAINTER.load(Ordering::Relaxed) {
        then(clock.now_us());
        return;
    }
    let clock = clock.clone();
    let mut waiting = waiting();
    if waiting.len() == MOST_WAITING {
        waiting.remove(0);
    }
    // A page's frame may be up at a refresh still to come ([`crate::platform::display_time`]).
    let stamp =
        move |up: Option<crate::platform::rt::Instant>| then(up.map_or_else(|| clock.now_us(), |at| clock.at_us(at)));
    waiting.push(Waiting { frame: ui.ctx().cumulative_frame_nr(), stamp: Box::new(stamp) });
    ui.ctx().request_repaint();
}

/// Whether the frame this pass builds is the one to show a moment the host scheduled for
/// `at_us` (fairness.md §2): the first that goes up at or after it. A page's frame goes up
/// a refresh after its pass began, so that pass draws it, not the one after — which would
/// put it up a refresh or two late, and an honest `shown` that late past its bound is
/// clamped. When not yet, asks for the pass that is.
pub(crate) fn shows_now(ui: &egui::Ui, now_us: u64, at_us: u64) -> bool {
    let (ahead, lead_in) = crate::platform::display_time::window().map_or((0, 0), |d| {
        let d = d.lock();
        (d.ahead().as_micros() as u64, d.lead_in().as_micros() as u64)
    });
    let drawn_at = at_us.saturating_sub(ahead);
    if now_us >= drawn_at {
        return true;
    }
    // On a coarse clock, every refresh's time in the lead-in is read: they fit the grid the
    // moment's frame goes up on (`platform::refresh_grid`).
    let wake = drawn_at.saturating_sub(lead_in);
    if now_us >= wake {
        if let Some(d) = crate::platform::display_time::window() {
            d.lock().read_frames_for(std::time::Duration::from_micros(drawn_at - now_us));
        }
        ui.ctx().request_repaint_after(std::time::Duration::from_micros(drawn_at - now_us));
    } else {
        ui.ctx().request_repaint_after(std::time::Duration::from_micros(wake - now_us));
    }
    false
}

/// First thing in every pass: the frames before this one were swapped, so the stamps asked
/// in them are taken now, with the instant the display server put them up; and the presses
/// this pass reads are matched to the instants the display server saw them
/// ([`crate::platform::display_time`]).
pub(crate) fn frame_started(ctx: &egui::Context) {
    let up = crate::platform::display_time::window().and_then(|d| ctx.input(|i| d.lock().pass_started(&i.events)));
    let frame = ctx.cumulative_frame_nr();
    let due: Vec<Waiting> = {
        let mut waiting = waiting();
        let (due, later) = std::mem::take(&mut *waiting).into_iter().partition(|w| w.frame < frame);
        *waiting = later;
        due
    };
    for w in due {
        (w.stamp)(up);
    }
}

/// Last thing in every pass: the presses it read have been stamped.
pub(crate) fn frame_ended() {
    if let Some(display) = crate::platform::display_time::window() {
        display.lock().pass_ended();
    }
}

/// The instant, on `clock`, of the press of `trigger` this pass read: when the display server
/// saw it where it tells ([`crate::platform::display_time`]), else `now_us`, the pass's own instant.
pub(crate) fn input_us(trigger: Trigger, clock: &MonotonicClock, now_us: u64) -> u64 {
    let seen = crate::platform::display_time::window().and_then(|d| d.lock().instant(trigger));
    if seen.is_none() {
        tracing::debug!(?trigger, "a press stamped with the pass that read it: the display server did not tell it");
    }
    seen.map_or(now_us, |at| clock.at_us(at).min(now_us))
}

/// A button pressed in this pass, or its key: which one, for [`input_us`].
pub(crate) fn press(response: &egui::Response, key: Option<egui::Key>) -> Option<Trigger> {
    if pressed(response) {
        return Some(Trigger::Primary);
    }
    key.filter(|k| response.ctx.input(|i| i.key_pressed(*k))).map(Trigger::Key)
}

/// A button pressed in this pass. A click counts when the button goes down, as a key does:
/// egui's `clicked` waits for the release, which would count the finger's hold (60–110 ms in
/// `scripts/window-timing.sh`) against a pilot who clicks rather than types. A press and its
/// release read in the same pass count once, here.
pub(crate) fn pressed(response: &egui::Response) -> bool {
    response.ctx.input(|i| i.pointer.primary_pressed()) && (response.is_pointer_button_down_on() || response.clicked())
}

/// Asks Linux for a short time slice for this thread — the window's, which reads the keys and
/// starts the frames that take `shown`. On a busy laptop a thread woken by a key otherwise waits
/// for a spinning neighbour's slice to end (3 ms by default under EEVDF) before its stamp,
/// which `scripts/window-timing.sh` measured. The thread gets no more CPU, only sooner; no
/// privilege is needed. Linux 6.12 and later honour it; elsewhere nothing changes.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn short_slice() {
    #[cfg(target_os = "linux")]
    {
        /// The kernel's `struct sched_attr` (the fields up to `sched_period`).
        #[repr(C)]
        struct SchedAttr {
            size: u32,
            policy: u32,
            flags: u64,
            nice: i32,
            priority: u32,
            runtime: u64,
            deadline: u64,
            period: u64,
        }
        /// 0.3 ms: a key is read and a frame begun well within it.
        const SLICE_NS: u64 = 300_000;
        // The nice value stays as the user set it (errno aside, getpriority returns it).
        // SAFETY: getpriority takes no pointers.
        let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let attr = SchedAttr {
            size: std::mem::size_of::<SchedAttr>() as u32,
            policy: libc::SCHED_OTHER as u32,
            flags: 0,
            nice,
            priority: 0,
            runtime: SLICE_NS,
            deadline: 0,
            period: 0,
        };
        // SAFETY: the kernel reads `attr.size` bytes of a struct this frame owns.
        let done = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &attr as *const SchedAttr, 0u32) };
        if done != 0 {
            tracing::debug!("no short time slice for the window's thread: {}", std::io::Error::last_os_error());
        }
    }
}

/// Reports when the frame that first drew a timed moment reached the screen (fairness.md §2,
/// [`on_screen`]).
pub(crate) fn shown<W: crate::game::ClientGame>(ui: &egui::Ui, live: &crate::live::LiveOf<W>, moment: u64) {
    let link = live.clone();
    on_screen(ui, &live.clock, move |at_us| {
        link.send(crate::live::CommandOf::Shown(bolide_table::wire::Shown { moment, at_us }));
        tracing::debug!(moment, at_us, "a timed moment reached the screen");
    });
}
