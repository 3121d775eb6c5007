//! When the display server saw each key and button press go down, and each frame go up
//! (fairness.md §2): a pilot's input is stamped with the instant the press reached the X
//! server, and a moment's `shown` with the instant its frame's pixels did — not with the
//! instants the window's thread came to learn of them.
//!
//! On a laptop whose cores are all busy, the window's thread can wait several milliseconds for
//! the CPU between a key going down and the pass that reads it, and between a frame's swap and
//! the next pass (`scripts/window-timing.sh` measured p99 4.8 ms for both, busy). The X server
//! stamps every input event as it takes it in, and every change to a window's pixels, in
//! milliseconds of CLOCK_MONOTONIC (the clock Rust's `Instant` reads on Linux). A second
//! connection to the display asks for XInput2's raw key and button presses and for the
//! window's damage reports (both carry that stamp); a pass that reads a press from egui takes
//! the server's instant of the same key or button, and the frame a pass drew is on screen at
//! the last change of the window's pixels before the next pass.
//!
//! Honesty rules:
//! - the server's clock is used only after checking it is this machine's CLOCK_MONOTONIC (a
//!   display over the network, or a server on another clock, keeps the pass's own instants);
//! - a server millisecond holds the event somewhere inside it: the stamp is its middle, so the
//!   error is within ±0.5 ms; it is never later than the pass that learnt of it, and a frame
//!   is never on screen before the pass that drew it ended;
//! - a pass takes only presses the server saw after the pass before the previous one ended
//!   ([`DisplayTime::pass_started`]), and each press once: a key pressed early (under the cup)
//!   can never lend its instant to a later press;
//! - a press the window has not read yet holds the link's beats back
//!   ([`DisplayTime::unread_age`]): the client never vouches, in a beat, for a time past an
//!   input it is about to stamp (fairness.md §7).
//!
//! Under a compositing desktop the window's pixels reach the screen when the compositor next
//! draws, as they do for every laptop at the table; Xvfb and a desktop without a compositor
//! show them at once. Everywhere else (no X display, another platform, the headless tests)
//! nothing is read and the window keeps the pass's instants.

// In a browser's page the DOM is the display server ([`dom`]): the X server's half is unused.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use crate::platform::rt::Instant;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// What went down: a key (its X keycode) or a pointer button (1 is the primary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Down {
    Key(u8),
    Button(u32),
}

/// What a face asks the instant of: a key egui read, or the primary button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger {
    Key(egui::Key),
    Primary,
}

/// What the server tells, with its instant.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Noticed {
    Pressed(Down, Instant),
    /// The window's pixels changed.
    Drawn(Instant),
}

/// One press as the server saw it.
#[derive(Debug, Clone, Copy)]
struct Seen {
    down: Down,
    at: Instant,
    /// When the first pass after this side learnt of it started (at once from the X server's
    /// reader thread; in a page, when the page's thread ran the event's listener): that pass
    /// read it, unless it is another window's or a key egui reports no press of.
    passed: Option<Instant>,
    /// Matched to a press egui read in a pass still running: the face may be stamping it.
    matched: bool,
}

/// Presses remembered at most: a few per pass are read; past that they are another window's.
const KEPT: usize = 64;
/// A press that the first pass after it was learnt of did not read, and no pass within this
/// long after, is taken as another window's (or a modifier egui reports no press of): it no
/// longer holds the beats back. Counted from that pass, not from when it was learnt of: a page
/// whose frames are held up (its browser's GPU process starved) runs its listeners and its
/// beats' timers, but no pass, for 100 ms and more, and a press it learnt of meanwhile is
/// still to be read and stamped.
pub(crate) const UNREAD_HOLD: Duration = Duration::from_millis(50);
/// A press older than this when drained is never matched.
const STALE: Duration = Duration::from_secs(1);
/// Slack on the bound below which a pass matches nothing: the server's millisecond and the
/// moment it flushes the event.
const SLACK: Duration = Duration::from_millis(2);

/// What the display server saw, and the instants this pass's presses and the previous pass's
/// frame get.
#[derive(Default)]
pub(crate) struct DisplayTime {
    source: Option<Box<dyn Source>>,
    seen: VecDeque<Seen>,
    /// The window's last change since the previous pass started.
    drawn: Option<Instant>,
    /// This pass's presses as egui read them, in order, with the server's instant when known.
    pass: Vec<(Trigger, Instant)>,
    /// When the last two passes ended (the newest last).
    ended: [Option<Instant>; 2],
    /// The newest frame time seen when the previous pass started (a page's: that pass's own
    /// animation frame).
    began: Option<Instant>,
}

/// Where the server's notices come from: the X server, or a test.
pub(crate) trait Source: Send {
    /// What the server sent since the last call, oldest first.
    fn drain(&mut self, into: &mut dyn FnMut(Noticed));
    /// The keycode a key is typed with, when the keyboard has it.
    fn keycode(&mut self, key: egui::Key) -> Option<u8>;
    /// Reports the changes of the X window `id` from now on.
    fn watch(&mut self, _id: std::os::raw::c_ulong) {}
    /// The descriptor to wait on for more, if any.
    fn fd(&self) -> Option<std::os::raw::c_int> {
        None
    }
    /// When a frame whose pass ended at `ended` was up, the window's pixels having last
    /// changed at `drawn`, asked at `now`: a server that reports the change itself knows (the
    /// later of the two, and by `now` it happened); a browser, which tells only when it began
    /// each frame, rounds up to the refresh after the pass ([`dom`]) — which may still be to
    /// come when the pass ran into the next frame —, counted from `began`, the frame time the
    /// pass itself started at, when the next frame began late.
    fn up_at(&self, drawn: Instant, ended: Instant, now: Instant, _began: Option<Instant>) -> Instant {
        drawn.max(ended).min(now)
    }
    /// How long a press may be on its way to this side, stamped but not yet told: none from
    /// the X server's reader thread; in a page, its hop from the browser to the page's thread.
    fn in_flight(&self) -> Duration {
        Duration::ZERO
    }
    /// How long before a frame is up its pass runs: none where a swap shows it at once (the
    /// X server without a compositor); in a page, a refresh — a frame begun at one refresh
    /// goes up at the next.
    fn ahead(&self) -> Duration {
        Duration::ZERO
    }
    /// How long before a moment's frame to read every refresh's time, so that they pin down
    /// the grid it goes up on: none where the instants are fine; in a page on a millisecond
    /// clock, half a second ([`crate::platform::refresh_grid`]).
    fn lead_in(&self) -> Duration {
        Duration::ZERO
    }
    /// Reads every refresh's time from now for `span` (drawing nothing).
    fn read_frames_for(&mut self, _span: Duration) {}
}

impl DisplayTime {
    pub(crate) fn new(source: Box<dyn Source>) -> DisplayTime {
        DisplayTime { source: Some(source), ..DisplayTime::default() }
    }

    fn drain(&mut self) {
        let Some(source) = self.source.as_mut() else { return };
        let (seen, drawn) = (&mut self.seen, &mut self.drawn);
        source.drain(&mut |noticed| match noticed {
            Noticed::Pressed(down, at) => {
                if seen.len() == KEPT {
                    seen.pop_front();
                }
                seen.push_back(Seen { down, at, passed: None, matched: false });
            }
            Noticed::Drawn(at) => *drawn = Some(drawn.map_or(at, |d| d.max(at))),
        });
        let now = Instant::now();
        seen.retain(|s| now.saturating_duration_since(s.at) < STALE);
    }

    /// First thing in a pass: when the previous pass's frame went up, and the instants of the
    /// presses egui read for this one (`events`, in order).
    ///
    /// A frame is on screen at the window's last change since the previous pass started —
    /// after that pass ended, and before this one. A press is the server's press of the same
    /// key or button, the earliest not yet taken that the server saw after the pass before the
    /// previous one ended: events read in this pass were not there for the previous one, which
    /// read its own after that.
    pub(crate) fn pass_started(&mut self, events: &[egui::Event]) -> Option<Instant> {
        self.drain();
        let now = Instant::now();
        // Only a source reports frames: without one `drawn` is never set.
        let newest = self.drawn.take();
        let drawn = newest.zip(self.ended[1]);
        let on_screen =
            self.source.as_deref().zip(drawn).map(|(s, (drawn, ended))| s.up_at(drawn, ended, now, self.began));
        if let Some(newest) = newest {
            self.began = Some(newest);
        }
        self.pass.clear();
        for s in self.seen.iter_mut().filter(|s| s.passed.is_none()) {
            s.passed = Some(now);
        }
        let floor = self.ended[0].and_then(|e| e.checked_sub(SLACK));
        for event in events {
            let (trigger, down) = match event {
                egui::Event::Key { key, physical_key, pressed: true, repeat: false, .. } => {
                    let code = self
                        .source
                        .as_mut()
                        .and_then(|s| s.keycode(*key).or_else(|| physical_key.and_then(|p| s.keycode(p))));
                    (Trigger::Key(*key), code.map(Down::Key))
                }
                egui::Event::PointerButton { button: egui::PointerButton::Primary, pressed: true, .. } => {
                    (Trigger::Primary, Some(Down::Button(1)))
                }
                _ => continue,
            };
            let Some(down) = down else { continue };
            let found = self
                .seen
                .iter_mut()
                .find(|s| !s.matched && s.down == down && s.at <= now && floor.is_none_or(|f| s.at >= f));
            if let Some(s) = found {
                s.matched = true;
                self.pass.push((trigger, s.at));
            }
        }
        on_screen
    }

    /// Last thing in a pass: what it matched has been stamped by now (or was not an input).
    pub(crate) fn pass_ended(&mut self) {
        self.seen.retain(|s| !s.matched);
        self.ended = [self.ended[1], Some(Instant::now())];
    }

    /// The server's instant of the first press of `trigger` this pass read, if it had one.
    pub(crate) fn instant(&self, trigger: Trigger) -> Option<Instant> {
        self.pass.iter().find(|(t, _)| *t == trigger).map(|(_, at)| *at)
    }

    /// How long ago the oldest press the window has not stamped yet went down (one no pass
    /// has passed over for [`UNREAD_HOLD`]): a beat must not vouch for a time past it.
    pub(crate) fn unread_age(&mut self) -> Option<Duration> {
        self.drain();
        let now = Instant::now();
        let in_flight = self.source.as_ref().map_or(Duration::ZERO, |s| s.in_flight());
        self.seen
            .iter()
            .filter(|s| s.passed.is_none_or(|p| now.saturating_duration_since(p) < UNREAD_HOLD))
            .map(|s| now.saturating_duration_since(s.at))
            .chain((!in_flight.is_zero()).then_some(in_flight))
            .max()
    }

    /// How long before a frame is up the pass that draws it runs ([`Source::ahead`]).
    pub(crate) fn ahead(&self) -> Duration {
        self.source.as_ref().map_or(Duration::ZERO, |s| s.ahead())
    }

    /// How long before a moment's frame to read every refresh's time ([`Source::lead_in`]).
    pub(crate) fn lead_in(&self) -> Duration {
        self.source.as_ref().map_or(Duration::ZERO, |s| s.lead_in())
    }

    /// Reads every refresh's time from now for `span` ([`Source::read_frames_for`]).
    pub(crate) fn read_frames_for(&mut self, span: Duration) {
        if let Some(source) = self.source.as_mut() {
            source.read_frames_for(span);
        }
    }

    /// Reports the changes of eframe's window from now on (once it is an X window).
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn watch_frame(&mut self, _frame: &eframe::Frame) {}

    /// Reports the changes of eframe's window from now on (once it is an X window).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn watch_frame(&mut self, frame: &eframe::Frame) {
        use raw_window_handle::{HasWindowHandle, RawWindowHandle};
        let Some(source) = self.source.as_mut() else { return };
        let id = match frame.window_handle().map(|h| h.as_raw()) {
            Ok(RawWindowHandle::Xlib(h)) => h.window,
            Ok(RawWindowHandle::Xcb(h)) => std::os::raw::c_ulong::from(h.window.get()),
            _ => return,
        };
        source.watch(id);
    }
}

/// The window's view of the display server, shared with its link's beats.
#[derive(Clone, Default)]
pub(crate) struct Shared(Arc<Mutex<DisplayTime>>);

impl Shared {
    pub(crate) fn new(display: DisplayTime) -> Shared {
        Shared(Arc::new(Mutex::new(display)))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, DisplayTime> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl crate::net::UnreadInput for Shared {
    fn unread_age(&self) -> Option<Duration> {
        self.lock().unread_age()
    }
}

/// The first refresh at or after `ended`, on the grid of `interval` through `drawn`.
#[cfg(any(test, target_arch = "wasm32"))]
fn up_on_grid(drawn: Instant, ended: Instant, interval: Duration) -> Instant {
    let late = ended.saturating_duration_since(drawn);
    if late.is_zero() || interval.is_zero() {
        return drawn;
    }
    let steps = late.as_nanos().div_ceil(interval.as_nanos()).min(u128::from(u32::MAX));
    drawn + interval * steps as u32
}

/// When a page's frame went up: at the first refresh its pass let it — a refresh after the
/// pass's own animation frame began (`began`), or the first after the pass ended if that is
/// later —, on the grid of `interval` through `drawn`, the newest frame time seen since.
///
/// The newest frame is as a rule the very next refresh, the one the frame went up at. But a
/// page whose thread was held up after the pass (its device busy with another process, or a
/// virtual machine's hypervisor running another guest) begins its next frame late, and the
/// frame it drew went up while it waited: counted from the late frame, `shown` would be late by
/// the hold-up and the reaction short by as much (`scripts/browser-timing.sh`, the cores held
/// 30 % of the time in bursts of 10–120 ms: 16.6 to 67 ms).
#[cfg(any(test, target_arch = "wasm32"))]
fn page_up_at(drawn: Instant, ended: Instant, began: Option<Instant>, interval: Duration) -> Instant {
    let up = up_on_grid(drawn, ended, interval);
    let Some(began) = began.filter(|_| !interval.is_zero()) else { return up };
    let earliest = (began + interval).max(ended);
    // A quarter of a refresh for the clock's rounding of the two frames' times.
    let past = up.saturating_duration_since(earliest) + interval / 4;
    let back = (past.as_nanos() / interval.as_nanos()).min(u128::from(u32::MAX)) as u32;
    up.checked_sub(interval * back).unwrap_or(up)
}

/// The real window's: the X server's once [`install`]ed, none elsewhere.
static WINDOW: std::sync::OnceLock<Shared> = std::sync::OnceLock::new();

/// Reads the browser's instants for the page (once, before its first pass).
#[cfg(target_arch = "wasm32")]
pub(crate) fn install_page() {
    match dom::Page::open() {
        Ok(page) => {
            let _ = WINDOW.set(Shared::new(DisplayTime::new(Box::new(page))));
        }
        Err(why) => tracing::info!("inputs and frames stamped when the page learns of them: {why}"),
    }
}

/// Reads the X server's instants for the real window, when it can (once, before it opens).
pub(crate) fn install() {
    let Some(source) = x_server() else { return };
    let fd = source.fd();
    let shared = Shared::new(DisplayTime::new(source));
    if WINDOW.set(shared.clone()).is_err() {
        return;
    }
    if let Some(fd) = fd {
        read_as_they_come(shared, fd);
    }
}

/// The server sends every press on the machine, to any window: they are read as they come, so
/// that they never pile up in the connection while the window sleeps (no pass, no beat). The
/// thread sleeps in `poll` otherwise; a pass and a beat still drain first themselves.
fn read_as_they_come(shared: Shared, fd: std::os::raw::c_int) {
    #[cfg(target_os = "linux")]
    {
        let reader = std::thread::Builder::new().name("bolide-x-times".into()).spawn(move || {
            loop {
                let mut pfd = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
                // SAFETY: one pollfd we own; the descriptor stays open for the process's life.
                let ready = unsafe { libc::poll(&mut pfd, 1, -1) };
                if ready < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                    return;
                }
                if pfd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0 {
                    return;
                }
                shared.lock().drain();
            }
        });
        if let Err(e) = reader {
            tracing::info!("presses read only at each pass: {e}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (shared, fd);
}

/// The real window's view of the display server, when it has one.
pub(crate) fn window() -> Option<&'static Shared> {
    WINDOW.get()
}

/// What a link of the window's tells its beats: held back by the presses not read yet.
pub fn unsent() -> crate::net::Unsent {
    window().map_or_else(crate::net::Unsent::default, |p| crate::net::Unsent::with_unread(Arc::new(p.clone())))
}

/// The X server, when the window is on an X display whose clock is this machine's.
fn x_server() -> Option<Box<dyn Source>> {
    #[cfg(target_os = "linux")]
    {
        match x11::XServer::open() {
            Ok(x) => return Some(Box::new(x)),
            Err(why) => tracing::info!("inputs and frames stamped when the window learns of them: {why}"),
        }
    }
    None
}

#[cfg(target_arch = "wasm32")]
mod dom {
    //! The browser's instants, on the clock of `performance.now()` (which `Instant` reads in a
    //! page): every key and pointer press carries its own `timeStamp`, the instant the browser
    //! took it from the system — a mouse button, a finger on a phone's glass and a pen alike
    //! (`pointerdown`). Listeners in the capture phase on the window copy them into a queue
    //! the passes drain, as the X server's connection is drained on a laptop.
    //!
    //! A frame's pixels: a page cannot see them reach the screen. Every pass runs in an
    //! animation frame, whose time (`document.timeline.currentTime`, the `requestAnimationFrame`
    //! time) is when the browser began it — at the display's refresh that follows the
    //! previous frame. So a pass reports its own frame's time as the moment the frame before
    //! it was put up (`Noticed::Drawn`), which `DisplayTime::pass_started` never lets be before
    //! that frame's pass ended; on a coarse clock (a page served over plain HTTP), the time on
    //! the refresh grid fitted to the recent frames ([`RefreshGrid`]).
    //! `scripts/browser-timing.sh` measures the error of both stamps against what Chromium's
    //! compositor presented and when the key, click or touch was sent (`PAGE_CLOCK` emulates
    //! Firefox's and Safari's coarser clocks).

    use super::{Down, Noticed, Source};
    use crate::platform::delivery_lag::DeliveryLag;
    use crate::platform::refresh_grid::RefreshGrid;
    use crate::platform::rt::Instant;
    use std::collections::VecDeque;
    use std::sync::Mutex;
    use std::time::Duration;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::Closure;

    /// Presses not drained yet, with their `timeStamp` (ms): a bound, as the X queue has one.
    static PRESSED: Mutex<VecDeque<(Down, f64)>> = Mutex::new(VecDeque::new());
    const MOST_PRESSED: usize = 64;

    /// The times of the animation frames the lead-in read, not drained yet (ms), and until
    /// when it reads them.
    static READ: Mutex<VecDeque<f64>> = Mutex::new(VecDeque::new());
    const MOST_READ: usize = 64;
    static READING: Mutex<Reading> = Mutex::new(Reading { until: f64::NEG_INFINITY, running: false });

    struct Reading {
        until: f64,
        running: bool,
    }

    /// Asks for the next animation frame's time, as long as the lead-in lasts. The callback
    /// draws nothing, so the browser's compositor makes no frame of it.
    fn read_next_frame() {
        let next = Closure::once_into_js(|time: f64| {
            {
                let mut read = READ.lock().unwrap_or_else(|e| e.into_inner());
                if read.len() == MOST_READ {
                    read.pop_front();
                }
                read.push_back(time);
            }
            let mut reading = READING.lock().unwrap_or_else(|e| e.into_inner());
            if time < reading.until {
                drop(reading);
                read_next_frame();
            } else {
                reading.running = false;
            }
        });
        let asked = web_sys::window().is_some_and(|w| w.request_animation_frame(next.unchecked_ref()).is_ok());
        if !asked {
            READING.lock().unwrap_or_else(|e| e.into_inner()).running = false;
        }
    }

    /// How late the browser has lately handed the page its presses, learnt in the listeners.
    static LAG: Mutex<DeliveryLag> = Mutex::new(DeliveryLag::new());

    /// A key or pointer went down or up at `time_stamp`: its listener runs now.
    fn delivered(performance: &web_sys::Performance, time_stamp: f64) {
        let now = performance.now();
        tracing::debug!(target: "vouch", time_stamp, now, "delivered");
        LAG.lock().unwrap_or_else(|e| e.into_inner()).observe(now, time_stamp);
    }

    fn push(down: Down, time_stamp: f64) {
        let mut pressed = PRESSED.lock().unwrap_or_else(|e| e.into_inner());
        if pressed.len() == MOST_PRESSED {
            pressed.pop_front();
        }
        pressed.push_back((down, time_stamp));
    }

    pub(super) struct Page {
        performance: web_sys::Performance,
        document: web_sys::Document,
        /// The newest animation frame's time reported.
        last_frame: f64,
        /// The newest animation frame's time seen (a pass's or the lead-in's).
        last_observed: f64,
        /// The display's refresh interval: the least step seen between two frames' times.
        interval: Duration,
        /// The refresh grid behind the frames' times, where the clock is coarse.
        grid: RefreshGrid,
    }

    // SAFETY: a page runs its client on one thread; the JS handles never leave it.
    unsafe impl Send for Page {}

    impl Page {
        pub(super) fn open() -> Result<Page, String> {
            let window = web_sys::window().ok_or("no window")?;
            let performance = window.performance().ok_or("no performance clock")?;
            let document = window.document().ok_or("no document")?;
            let clock = performance.clone();
            let key = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                delivered(&clock, e.time_stamp());
                if !e.repeat()
                    && let Some(code) = key_code(&e.key()).or_else(|| key_code(physical(&e.code())))
                {
                    push(Down::Key(code), e.time_stamp());
                }
            });
            let clock = performance.clone();
            let pointer = Closure::<dyn FnMut(web_sys::PointerEvent)>::new(move |e: web_sys::PointerEvent| {
                delivered(&clock, e.time_stamp());
                if e.button() == 0 {
                    push(Down::Button(1), e.time_stamp());
                }
            });
            // A key or a finger going up is carried as one going down is: one more delay read.
            let clock = performance.clone();
            let up =
                Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| delivered(&clock, e.time_stamp()));
            for (kind, listener) in [
                ("keydown", key.as_ref().unchecked_ref()),
                ("pointerdown", pointer.as_ref().unchecked_ref()),
                ("keyup", up.as_ref().unchecked_ref()),
                ("pointerup", up.as_ref().unchecked_ref()),
            ] {
                window
                    .add_event_listener_with_callback_and_bool(kind, listener, true)
                    .map_err(|_| format!("no {kind} listener"))?;
            }
            // Listening for the page's whole life.
            key.forget();
            pointer.forget();
            up.forget();
            Ok(Page {
                performance,
                document,
                last_frame: f64::NEG_INFINITY,
                last_observed: f64::NEG_INFINITY,
                interval: REFRESH,
                grid: RefreshGrid::default(),
            })
        }

        /// A time on `performance.now()`'s clock as an `Instant`, when it is in the last second.
        fn instant(&self, ms: f64) -> Option<Instant> {
            // `Instant::now()` reads `performance.now()` too: between two equal readings of a
            // coarse clock it is that reading, not the step after.
            let read = || {
                let before = self.performance.now();
                let (now, now_ms) = (Instant::now(), self.performance.now());
                (before == now_ms, now, now_ms)
            };
            let (mut same, mut now, mut now_ms) = read();
            for _ in 0..2 {
                if same {
                    break;
                }
                (same, now, now_ms) = read();
            }
            let back_ms = now_ms - ms;
            if back_ms.is_nan() || back_ms > 1_000.0 {
                return None;
            }
            Some(now.checked_sub(Duration::from_secs_f64(back_ms.max(0.0) / 1_000.0)).unwrap_or(now))
        }

        /// The time of the animation frame running now (or the last one).
        fn frame(&self) -> Option<f64> {
            self.document.timeline().current_time().filter(|t| t.is_finite())
        }

        /// Takes an animation frame's time (ms), a pass's or the lead-in's; returns the time
        /// to stamp it with ([`RefreshGrid::frame`]).
        fn observe(&mut self, frame: f64) -> f64 {
            if frame > self.last_observed {
                let step = Duration::from_secs_f64((frame - self.last_observed).min(1_000.0) / 1_000.0);
                if step >= FASTEST_REFRESH {
                    self.interval = self.interval.min(step);
                }
                self.last_observed = frame;
            }
            self.grid.frame(frame, self.interval.as_secs_f64() * 1_000.0)
        }

        /// The refresh interval: fitted, or the least step seen.
        fn refresh(&self) -> Duration {
            self.grid.interval().and_then(|ms| Duration::try_from_secs_f64(ms / 1_000.0).ok()).unwrap_or(self.interval)
        }
    }

    impl Source for Page {
        fn drain(&mut self, into: &mut dyn FnMut(Noticed)) {
            let pressed: Vec<_> = PRESSED.lock().unwrap_or_else(|e| e.into_inner()).drain(..).collect();
            for (down, ms) in pressed {
                if let Some(at) = self.instant(ms) {
                    into(Noticed::Pressed(down, at));
                }
            }
            let read: Vec<_> = READ.lock().unwrap_or_else(|e| e.into_inner()).drain(..).collect();
            for frame in read {
                self.observe(frame);
            }
            if let Some(frame) = self.frame().filter(|f| *f > self.last_frame) {
                self.last_frame = frame;
                let on_grid = self.observe(frame);
                if let Some(at) = self.instant(on_grid) {
                    into(Noticed::Drawn(at));
                }
            }
        }

        fn keycode(&mut self, key: egui::Key) -> Option<u8> {
            egui::Key::ALL.iter().position(|k| *k == key).and_then(|i| u8::try_from(i).ok())
        }

        /// The pass that drew the frame may have ended after the next frame began (a busy
        /// page): the frame then goes up at the first refresh after it ended, on the grid the
        /// frames' times lay down — even when the next pass starts before that refresh
        /// (`scripts/browser-timing.sh` saw it put up there; it is never later than a refresh
        /// past the pass's end). And a next frame begun late (the page held up) does not make
        /// it late: [`super::page_up_at`].
        fn up_at(&self, drawn: Instant, ended: Instant, _now: Instant, began: Option<Instant>) -> Instant {
            super::page_up_at(drawn, ended, began, self.refresh())
        }

        fn ahead(&self) -> Duration {
            self.refresh()
        }

        fn lead_in(&self) -> Duration {
            if self.grid.wants_frames() { super::super::refresh_grid::LEAD_IN } else { Duration::ZERO }
        }

        fn read_frames_for(&mut self, span: Duration) {
            let mut reading = READING.lock().unwrap_or_else(|e| e.into_inner());
            reading.until = reading.until.max(self.performance.now() + span.as_secs_f64() * 1_000.0);
            if !reading.running {
                reading.running = true;
                drop(reading);
                read_next_frame();
            }
        }

        /// A press is stamped by the system before the page's thread runs its listener: a
        /// beat never vouches for the time one may still be on its way ([`DeliveryLag`]).
        fn in_flight(&self) -> Duration {
            LAG.lock().unwrap_or_else(|e| e.into_inner()).hold(self.performance.now())
        }
    }

    /// A 60 Hz display's refresh, until a shorter step between two frames is seen.
    const REFRESH: Duration = Duration::from_nanos(16_666_667);
    /// Steps shorter than a 240 Hz display's are two reads of one frame's neighbourhood.
    const FASTEST_REFRESH: Duration = Duration::from_micros(4_100);

    /// The key a DOM `key` names, as [`Source::keycode`] numbers it (egui's own names).
    fn key_code(name: &str) -> Option<u8> {
        let key = egui::Key::from_name(name).or_else(|| match name {
            " " => Some(egui::Key::Space),
            _ => egui::Key::from_name(&name.to_ascii_uppercase()),
        })?;
        egui::Key::ALL.iter().position(|k| *k == key).and_then(|i| u8::try_from(i).ok())
    }

    /// A DOM `code` (`Digit1`, `KeyA`, `Numpad3`) as the key it is on a plain layout.
    fn physical(code: &str) -> &str {
        ["Digit", "Key", "Numpad"].iter().find_map(|p| code.strip_prefix(p)).unwrap_or(code)
    }
}

#[cfg(target_os = "linux")]
mod x11 {
    //! XInput2's raw presses and the Damage extension's reports on a connection of their own
    //! (libX11, libXi and libXdamage, loaded at run time as eframe loads its libraries).

    use super::{Down, Noticed, Source};
    use std::ffi::CString;
    use std::os::raw::{c_int, c_uchar, c_ulong, c_void};
    use std::time::{Duration, Instant};
    use x11_dl::xinput2::{self, XInput2};
    use x11_dl::xlib::{self, Xlib};

    /// libXdamage's two entry points used here.
    type DamageQueryExtension = unsafe extern "C" fn(*mut xlib::Display, *mut c_int, *mut c_int) -> c_int;
    type DamageCreate = unsafe extern "C" fn(*mut xlib::Display, c_ulong, c_int) -> c_ulong;
    /// Every change reported, each with the server's time (`XDamageReportRawRectangles`).
    const REPORT_RAW_RECTANGLES: c_int = 0;

    /// `XDamageNotifyEvent` (Xdamage.h).
    #[repr(C)]
    struct DamageNotify {
        kind: c_int,
        serial: c_ulong,
        send_event: c_int,
        display: *mut xlib::Display,
        drawable: c_ulong,
        damage: c_ulong,
        level: c_int,
        more: c_int,
        timestamp: c_ulong,
    }

    pub(super) struct XServer {
        xlib: Xlib,
        display: *mut xlib::Display,
        /// XInput's major opcode.
        input: c_int,
        /// Damage's first event code and its `XDamageCreate`, when the server and the machine
        /// have it.
        damage: Option<(c_int, DamageCreate)>,
        watched: bool,
    }

    // SAFETY: the connection is used by one thread at a time (behind `Shared`'s mutex) and by
    // nothing else: Xlib needs no more without XInitThreads.
    unsafe impl Send for XServer {}

    impl Drop for XServer {
        fn drop(&mut self) {
            // SAFETY: the display was opened by `open` and is closed once.
            unsafe { (self.xlib.XCloseDisplay)(self.display) };
        }
    }

    /// CLOCK_MONOTONIC now, in ns.
    fn monotonic_ns() -> i128 {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes one timespec we own.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
        ts.tv_sec as i128 * 1_000_000_000 + ts.tv_nsec as i128
    }

    /// How long before `now_ns` (CLOCK_MONOTONIC) the server's millisecond `ms` (its 32 bits)
    /// was, counted from the middle of that millisecond; `None` when it is not in the last
    /// second (not this clock, or wrapped).
    pub(super) fn age(now_ns: i128, ms: u32) -> Option<Duration> {
        let now_ms = (now_ns / 1_000_000) as u32;
        let back_ms = now_ms.wrapping_sub(ms);
        if back_ms > 1_000 {
            return None;
        }
        let at_ns = (now_ns / 1_000_000 - i128::from(back_ms)) * 1_000_000 + 500_000;
        Some(Duration::from_nanos(u64::try_from(now_ns - at_ns).unwrap_or(0)))
    }

    /// The server's millisecond `ms` as an `Instant`, when it is this clock's last second.
    fn instant(ms: c_ulong) -> Option<Instant> {
        let (now, now_ns) = (Instant::now(), monotonic_ns());
        age(now_ns, ms as u32).map(|age| now.checked_sub(age).unwrap_or(now))
    }

    /// libXdamage's entry points, when the library is there (it is loaded once, for good).
    fn damage_library() -> Option<(DamageQueryExtension, DamageCreate)> {
        let name = CString::new("libXdamage.so.1").ok()?;
        // SAFETY: dlopen and dlsym take C strings we own; the symbols have the C signatures
        // of Xdamage.h, and the library is never closed.
        unsafe {
            let lib = libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if lib.is_null() {
                return None;
            }
            let query = libc::dlsym(lib, c"XDamageQueryExtension".as_ptr());
            let create = libc::dlsym(lib, c"XDamageCreate".as_ptr());
            if query.is_null() || create.is_null() {
                return None;
            }
            Some((
                std::mem::transmute::<*mut c_void, DamageQueryExtension>(query),
                std::mem::transmute::<*mut c_void, DamageCreate>(create),
            ))
        }
    }

    impl XServer {
        pub(super) fn open() -> Result<XServer, String> {
            if std::env::var_os("DISPLAY").is_none() {
                return Err("no X display".into());
            }
            let xlib = Xlib::open().map_err(|e| format!("libX11: {e}"))?;
            let xi = XInput2::open().map_err(|e| format!("libXi: {e}"))?;
            // SAFETY: a null name opens $DISPLAY; a null result is checked.
            let display = unsafe { (xlib.XOpenDisplay)(std::ptr::null()) };
            if display.is_null() {
                return Err("the display did not open a second connection".into());
            }
            let mut x = XServer { xlib, display, input: 0, damage: None, watched: false };
            x.input = x.select(&xi)?;
            x.damage = damage_library().and_then(|(query, create)| {
                let (mut event, mut error) = (0, 0);
                // SAFETY: the display is open; the pointers are to locals.
                (unsafe { query(x.display, &mut event, &mut error) } != 0).then_some((event, create))
            });
            if x.damage.is_none() {
                tracing::info!("frames stamped when the next pass starts: no Damage extension");
            }
            Ok(x)
        }

        /// Checks the server's clock, then asks for raw presses; XInput's opcode.
        fn select(&self, xi: &XInput2) -> Result<c_int, String> {
            let (x, d) = (&self.xlib, self.display);
            let (mut opcode, mut event, mut error) = (0, 0, 0);
            // SAFETY: every pointer is to a local; the display is open.
            unsafe {
                if (x.XQueryExtension)(d, c"XInputExtension".as_ptr(), &mut opcode, &mut event, &mut error) == 0 {
                    return Err("the display has no XInput extension".into());
                }
                // 2.2: raw events are delivered whatever grabs are active.
                let (mut major, mut minor) = (2, 2);
                if (xi.XIQueryVersion)(d, &mut major, &mut minor) != 0 || (major, minor) < (2, 1) {
                    return Err(format!("XInput {major}.{minor} has no raw events for every client"));
                }
            }
            self.check_clock()?;
            let mut mask = [0 as c_uchar; 4];
            xinput2::XISetMask(&mut mask, xinput2::XI_RawKeyPress);
            xinput2::XISetMask(&mut mask, xinput2::XI_RawButtonPress);
            let mut masks = xinput2::XIEventMask {
                deviceid: xinput2::XIAllMasterDevices,
                mask_len: mask.len() as c_int,
                mask: mask.as_mut_ptr(),
            };
            // SAFETY: the mask outlives the call; the display is open.
            unsafe {
                (xi.XISelectEvents)(d, (x.XDefaultRootWindow)(d), &mut masks, 1);
                (x.XSync)(d, xlib::False);
            }
            Ok(opcode)
        }

        /// The server's clock is this machine's CLOCK_MONOTONIC in ms: a property changed on a
        /// window of this connection comes back with the server's time, which must fall
        /// between the instants around the round trip.
        fn check_clock(&self) -> Result<(), String> {
            let (x, d) = (&self.xlib, self.display);
            // SAFETY: every pointer is to a local; the display is open; the window is ours
            // and destroyed before returning.
            unsafe {
                let root = (x.XDefaultRootWindow)(d);
                let window = (x.XCreateSimpleWindow)(d, root, 0, 0, 1, 1, 0, 0, 0);
                (x.XSelectInput)(d, window, xlib::PropertyChangeMask);
                let atom = (x.XInternAtom)(d, c"BOLIDE_CLOCK".as_ptr(), xlib::False);
                let before = monotonic_ns();
                (x.XChangeProperty)(d, window, atom, xlib::XA_STRING, 8, xlib::PropModeReplace, [0u8].as_ptr(), 1);
                (x.XSync)(d, xlib::False);
                let after = monotonic_ns();
                let mut event: xlib::XEvent = std::mem::zeroed();
                let found = (x.XCheckTypedWindowEvent)(d, window, xlib::PropertyNotify, &mut event) != 0;
                (x.XDestroyWindow)(d, window);
                (x.XSync)(d, xlib::False);
                if !found {
                    return Err("the display sent no property notice".into());
                }
                let server_ms = event.property.time as u32;
                let (lo, hi) = ((before / 1_000_000) as u32, (after / 1_000_000) as u32);
                if server_ms.wrapping_sub(lo.wrapping_sub(1)) > hi.wrapping_sub(lo).saturating_add(2) {
                    return Err(format!(
                        "the display's clock ({server_ms} ms) is not this machine's monotonic clock ({lo}–{hi} ms)"
                    ));
                }
            }
            Ok(())
        }
    }

    /// Events drained at most per call: the rest wait for the next.
    const MOST_PER_DRAIN: usize = 256;

    impl Source for XServer {
        fn drain(&mut self, into: &mut dyn FnMut(Noticed)) {
            let (x, d) = (&self.xlib, self.display);
            let damage_notify = self.damage.map(|(first, _)| first);
            for _ in 0..MOST_PER_DRAIN {
                // SAFETY: the display is open; the event and its cookie are ours, a damage
                // report is read as the struct the server sent for that event type, and the
                // cookie's data is read only between XGetEventData and XFreeEventData.
                unsafe {
                    if (x.XPending)(d) == 0 {
                        return;
                    }
                    let mut event: xlib::XEvent = std::mem::zeroed();
                    (x.XNextEvent)(d, &mut event);
                    let kind = event.get_type();
                    if Some(kind) == damage_notify {
                        let notify = &*(&event as *const xlib::XEvent as *const DamageNotify);
                        if let Some(at) = instant(notify.timestamp) {
                            into(Noticed::Drawn(at));
                        }
                        continue;
                    }
                    if kind != xlib::GenericEvent {
                        continue;
                    }
                    let mut cookie = event.generic_event_cookie;
                    if cookie.extension != self.input || (x.XGetEventData)(d, &mut cookie) == 0 {
                        continue;
                    }
                    let raw = &*(cookie.data as *const xinput2::XIRawEvent);
                    let down = match cookie.evtype {
                        xinput2::XI_RawKeyPress if raw.flags & xinput2::XIKeyRepeat == 0 => {
                            u8::try_from(raw.detail).ok().map(Down::Key)
                        }
                        xinput2::XI_RawButtonPress => u32::try_from(raw.detail).ok().map(Down::Button),
                        _ => None,
                    };
                    if let Some((down, at)) = down.zip(instant(raw.time)) {
                        into(Noticed::Pressed(down, at));
                    }
                    (x.XFreeEventData)(d, &mut cookie);
                }
            }
        }

        fn keycode(&mut self, key: egui::Key) -> Option<u8> {
            let sym = keysym(key)?;
            // SAFETY: the display is open.
            let code = unsafe { (self.xlib.XKeysymToKeycode)(self.display, sym) };
            (code != 0).then_some(code)
        }

        fn fd(&self) -> Option<c_int> {
            // SAFETY: the display is open.
            Some(unsafe { (self.xlib.XConnectionNumber)(self.display) })
        }

        fn watch(&mut self, window: c_ulong) {
            let Some((_, create)) = self.damage.filter(|_| !self.watched) else { return };
            self.watched = true;
            // SAFETY: the display is open; a window that is gone only makes the server send
            // an error, which Xlib's handler reports.
            unsafe {
                create(self.display, window, REPORT_RAW_RECTANGLES);
                (self.xlib.XFlush)(self.display);
            }
        }
    }

    /// The X keysym egui's key is read from (the keys a face times: digits, letters, space,
    /// enter).
    fn keysym(key: egui::Key) -> Option<xlib::KeySym> {
        use egui::Key;
        let name = key.name();
        let sym = match key {
            Key::Space => 0x20,
            Key::Enter => 0xff0d,
            Key::Escape => 0xff1b,
            _ if name.len() == 1 => {
                let c = name.chars().next()?.to_ascii_lowercase();
                if !c.is_ascii_alphanumeric() {
                    return None;
                }
                u32::from(c)
            }
            _ => return None,
        };
        Some(xlib::KeySym::from(sym))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn fairness_2_a_server_millisecond_counts_from_its_middle() {
            let now_ns = 5_000_700_000; // 5000.7 ms
            assert_eq!(age(now_ns, 5_000), Some(Duration::from_nanos(200_000)));
            assert_eq!(age(now_ns, 4_990), Some(Duration::from_nanos(10_200_000)));
            // The middle of this very millisecond is later than now: no age below zero.
            assert_eq!(age(5_000_100_000, 5_000), Some(Duration::ZERO));
            // Ahead of this clock, or more than a second back: not this clock's.
            assert_eq!(age(now_ns, 5_002), None);
            assert_eq!(age(now_ns, 3_000), None);
            // The server's 32 bits wrap every 49.7 days; the age does not.
            let wrapped_ns = (i128::from(u32::MAX) + 1 + 3) * 1_000_000;
            assert_eq!(age(wrapped_ns, u32::MAX), Some(Duration::from_nanos(3_500_000)));
        }

        #[test]
        fn the_keys_a_face_times_have_keysyms() {
            assert_eq!(keysym(egui::Key::Num1), Some(0x31));
            assert_eq!(keysym(egui::Key::K), Some(0x6b));
            assert_eq!(keysym(egui::Key::Space), Some(0x20));
            assert_eq!(keysym(egui::Key::Enter), Some(0xff0d));
            assert_eq!(keysym(egui::Key::ArrowLeft), None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A browser's frame is up at its own refresh when the pass that drew it ended in time,
    /// else at the first refresh after that pass ended — never between two refreshes.
    #[test]
    fn a_frame_drawn_late_goes_up_at_the_next_refresh_on_the_grid() {
        let t = Instant::now();
        let hz60 = Duration::from_nanos(16_666_667);
        let ms = Duration::from_millis;
        assert_eq!(up_on_grid(t + ms(20), t + ms(5), hz60), t + ms(20), "ended before the refresh");
        assert_eq!(up_on_grid(t, t, hz60), t);
        assert_eq!(up_on_grid(t, t + ms(7), hz60), t + hz60, "ended 7 ms into the frame");
        assert_eq!(up_on_grid(t, t + ms(20), hz60), t + hz60 * 2, "ended in the frame after");
        assert_eq!(up_on_grid(t, t + ms(7), Duration::ZERO), t);
    }

    /// A page whose refreshes come every 16.7 ms from `drawn` (what `dom::Page` tells).
    struct Grid;

    impl Source for Grid {
        fn drain(&mut self, _: &mut dyn FnMut(Noticed)) {}
        fn keycode(&mut self, _: egui::Key) -> Option<u8> {
            None
        }
        fn up_at(&self, drawn: Instant, ended: Instant, _now: Instant, began: Option<Instant>) -> Instant {
            page_up_at(drawn, ended, began, Duration::from_nanos(16_666_667))
        }
    }

    /// A page's pass that ran past the next frame's start: its frame goes up at the refresh
    /// after it ended, though the next pass begins before that refresh (the browser ran it
    /// at the frame it had already begun).
    #[test]
    fn fairness_2_a_page_s_late_frame_is_up_at_the_refresh_after_its_pass_even_one_to_come() {
        let mut d = DisplayTime::new(Box::new(Grid));
        d.pass_started(&[]);
        d.pass_ended();
        // The next frame began 3 ms before the pass that drew it ended.
        let asked = Instant::now();
        let frame = asked - Duration::from_millis(3);
        d.drawn = Some(frame);
        let up = d.pass_started(&[]).expect("a frame");
        assert_eq!(up, frame + Duration::from_nanos(16_666_667));
        // Against the instant the next pass was asked at, not a later read: a stalled test
        // machine must not make it fail.
        assert!(up > asked, "the refresh is still to come");
    }

    /// fairness.md §2: a page whose thread was held up after the pass that drew a moment begins
    /// its next frame late; the frame it drew went up while it waited, at the refresh after its
    /// pass, and is stamped there — not at the late frame, which would shorten the reaction.
    #[test]
    fn fairness_2_a_page_held_up_after_its_pass_is_stamped_at_the_refresh_its_frame_went_up() {
        let refresh = Duration::from_nanos(16_666_667);
        let up_after = |ended_ms: u64, next: u32| {
            let mut d = DisplayTime::new(Box::new(Grid));
            let began = Instant::now() - Duration::from_millis(500);
            d.drawn = Some(began);
            d.pass_started(&[]);
            d.ended = [None, Some(began + Duration::from_millis(ended_ms))];
            d.drawn = Some(began + refresh * next);
            d.pass_started(&[]).expect("a frame") - began
        };
        assert_eq!(up_after(4, 1), refresh, "on time: the next refresh");
        assert_eq!(up_after(4, 5), refresh, "held up for four refreshes after a short pass");
        assert_eq!(up_after(40, 5), refresh * 3, "a pass that ran 40 ms: the refresh after it ended");
        assert_eq!(up_after(40, 2), refresh * 3, "the next frame began before the pass ended");
    }

    /// What a test's server tells, with the keycode of every key being its digit.
    struct Script(Arc<Mutex<Vec<Noticed>>>);

    impl Source for Script {
        fn drain(&mut self, into: &mut dyn FnMut(Noticed)) {
            for noticed in self.0.lock().unwrap().drain(..) {
                into(noticed);
            }
        }
        fn keycode(&mut self, key: egui::Key) -> Option<u8> {
            key.name().parse().ok()
        }
    }

    fn key(key: egui::Key) -> egui::Event {
        egui::Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers: Default::default() }
    }

    fn click() -> egui::Event {
        egui::Event::PointerButton {
            pos: egui::Pos2::ZERO,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: Default::default(),
        }
    }

    fn server() -> (DisplayTime, Arc<Mutex<Vec<Noticed>>>) {
        let script = Arc::new(Mutex::new(Vec::new()));
        (DisplayTime::new(Box::new(Script(script.clone()))), script)
    }

    fn pressed(down: Down, at: Instant) -> Noticed {
        Noticed::Pressed(down, at)
    }

    #[test]
    fn fairness_2_a_press_is_stamped_when_the_server_saw_it() {
        let (mut d, server) = server();
        let t0 = Instant::now();
        d.pass_started(&[]);
        d.pass_ended();
        let at = Instant::now();
        server.lock().unwrap().extend([
            pressed(Down::Key(7), t0),
            pressed(Down::Key(1), at),
            pressed(Down::Button(1), at),
        ]);
        d.pass_started(&[key(egui::Key::Num1), click()]);
        assert_eq!(d.instant(Trigger::Key(egui::Key::Num1)), Some(at));
        assert_eq!(d.instant(Trigger::Primary), Some(at));
        // A key egui did not read this pass has no server instant.
        assert_eq!(d.instant(Trigger::Key(egui::Key::Num2)), None);
    }

    #[test]
    fn fairness_2_an_early_press_never_lends_its_instant_to_a_later_one() {
        let (mut d, server) = server();
        // "1" pressed under the cup: egui reads it, nothing stamps it.
        server.lock().unwrap().push(pressed(Down::Key(1), Instant::now()));
        d.pass_started(&[key(egui::Key::Num1)]);
        d.pass_ended();
        // Then a press the server's record lost (or one from before the previous passes):
        // the pass keeps its own instant rather than take an older one.
        std::thread::sleep(Duration::from_millis(3));
        let old = Instant::now() - Duration::from_millis(500);
        server.lock().unwrap().push(pressed(Down::Key(1), old));
        d.pass_started(&[]);
        d.pass_ended();
        d.pass_started(&[]);
        d.pass_ended();
        d.pass_started(&[key(egui::Key::Num1)]);
        assert_eq!(d.instant(Trigger::Key(egui::Key::Num1)), None);
    }

    #[test]
    fn fairness_2_a_frame_is_on_screen_when_the_window_last_changed_after_its_pass() {
        let (mut d, server) = server();
        assert_eq!(d.pass_started(&[]), None);
        std::thread::sleep(Duration::from_millis(2));
        d.pass_ended();
        let ended = Instant::now();
        // The frame went up in two bands: the whole of it was there at the second.
        std::thread::sleep(Duration::from_millis(2));
        let (first, last) = (Instant::now(), Instant::now() + Duration::from_micros(300));
        server.lock().unwrap().extend([Noticed::Drawn(first), Noticed::Drawn(last)]);
        std::thread::sleep(Duration::from_millis(1));
        assert_eq!(d.pass_started(&[]), Some(last));
        d.pass_ended();
        // A change the server dates before the pass that drew it ended (its millisecond's
        // middle) counts from that end, never before.
        let end = Instant::now();
        server.lock().unwrap().push(Noticed::Drawn(end - Duration::from_micros(400)));
        let on_screen = d.pass_started(&[]).expect("a change");
        assert!(on_screen >= end - Duration::from_micros(50) && on_screen > ended);
        // Nothing changed since: the pass's own instant stands.
        d.pass_ended();
        assert_eq!(d.pass_started(&[]), None);
    }

    #[test]
    fn fairness_7_an_unread_press_holds_the_beats_back_until_read() {
        let (mut d, server) = server();
        assert_eq!(d.unread_age(), None);
        server.lock().unwrap().push(pressed(Down::Key(3), Instant::now() - Duration::from_millis(4)));
        let age = d.unread_age().expect("a press not read yet");
        assert!(age >= Duration::from_millis(4) && age < UNREAD_HOLD);
        // Read in a pass: it holds them back until the pass, which stamps it, has ended.
        d.pass_started(&[key(egui::Key::Num3)]);
        assert!(d.unread_age().is_some());
        d.pass_ended();
        assert_eq!(d.unread_age(), None);
        // A press learnt of late (a busy page runs its listener 100 ms after the press) holds
        // them back from the press on, from when it was learnt of.
        server.lock().unwrap().push(pressed(Down::Key(9), Instant::now() - Duration::from_millis(100)));
        assert!(d.unread_age().is_some_and(|age| age >= Duration::from_millis(100)));
        // However long no pass runs (a page whose frames are held up): it is still to be read.
        std::thread::sleep(UNREAD_HOLD);
        assert!(d.unread_age().is_some_and(|age| age >= Duration::from_millis(100) + UNREAD_HOLD));
        // A press the next pass does not read (another window's) stops holding them a while
        // after that pass.
        d.pass_started(&[]);
        d.pass_ended();
        assert!(d.unread_age().is_some());
        std::thread::sleep(UNREAD_HOLD);
        assert_eq!(d.unread_age(), None);
    }
}
