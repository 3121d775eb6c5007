//! When a client tells the host its clock (fairness.md §4 and §6), and what it tells: the
//! timed moment it showed and when. A seated client beats every [`BEAT_US`] ("densely"):
//! - in a timed moment (the grab, the Échange window, the Coup-Fourré's), while it still acts
//!   there, its elapsed time since it showed the moment: the host commits a faster hand's
//!   verdict once every competing seat has shown a time past it, so a verdict waits up to one
//!   interval for the slowest competitor;
//! - under a countdown, once just after the countdown's end the host announced (on this client's
//!   clock), so that the calls' order is settled as soon as it can be — then, until the host
//!   ends it, every [`BEAT_US`] or [`CUP_BEAT_US`] (as below);
//! - while a secret moment is about to open ([`Stage::Imminent`]: Bolide's Klaxon picks), on a
//!   steady schedule, so that a Wi-Fi radio in power save is awake when the reveal comes;
//! - and, on a host that asks for it in its welcome ([`BeatSchedule::Steady`]: a game night's
//!   host does), all along from the lobby on: the host's record of this laptop's path. A path
//!   that goes quiet in stretches (Wi-Fi) shows it in the gaps between dense beats, and only
//!   a record kept before the grab shows it there (`fair::slack` on the host). Densely under
//!   a countdown and in every moment; elsewhere (the lobby, a turn, the podium) densely for
//!   [`BURST_US`] of every [`BURST_EVERY_US`] and every [`IDLE_BEAT_US`] between: about four
//!   beats a second where a hundred would keep the laptop's Wi-Fi awake and cost it a few
//!   percent of a core all evening. Otherwise ([`BeatSchedule::WhileActing`], a host serving
//!   many connections) nothing more.
//!
//! Each beat says whether the next one follows within [`BEAT_US`] (`dense`), and keeps its
//! word whatever happens meanwhile: the host counts a silence only in a gap that was promised
//! short.
//!
//! Times are µs on the client's clock.

use crate::game::{ClientGame, Stage};
use bolide_table::wire::{BeatSchedule, ServerMsgOf, Shown};

pub use bolide_table::wire::BEAT_US;
/// Under the countdown past the countdown's end (or without one), when the host asked for beats only
/// while acting.
pub const CUP_BEAT_US: u64 = 25_000;
/// Outside a countdown and a moment, a steady schedule's beat between bursts: the laptop is
/// there, and a sample of how late its messages come.
pub const IDLE_BEAT_US: u64 = 1_000_000;
/// A steady schedule's dense bursts outside a countdown and a moment: this long (30 beats) ...
pub const BURST_US: u64 = 300_000;
/// ... at the start of each stretch this long of the client's clock: a path that goes quiet
/// every few seconds shows it in a few bursts a minute, well within the host's record.
pub const BURST_EVERY_US: u64 = 10_000_000;
/// How long after the announced end the first beat goes, so that it shows a time past
/// the countdown's end even through the host's clock-model error.
pub const COUNTDOWN_SLACK_US: u64 = 1_000;

/// How late past its due a beat finds that this laptop's threads were held up (µs): a beat's
/// timer fires within a millisecond or two on a laptop that runs.
pub const AWAY_US: u64 = 8_000;
/// How long after such a hold-up its beats still vouch for nothing new (µs): two beats at
/// least, ...
pub const SETTLE_US: u64 = 2 * BEAT_US;
/// ... or this many times as long as the hold-up lasted, ...
pub const SETTLE_PER_AWAY: u64 = 4;
/// ... at most this long: a verdict waits for it meanwhile (the host's own cut-off is 250 ms
/// past the winner).
pub const SETTLE_MAX_US: u64 = 150_000;

/// The hold-ups of this laptop's threads, as its beats found them (fairness.md §7).
///
/// A beat vouches that nothing was pressed before its time. A press is stamped by the system
/// (the X server, a browser's process) when it is made, and reaches the face only when the
/// laptop's threads run: a beat that leaves the instant a hold-up ends (a device busy with
/// another process, a virtual machine's hypervisor running another guest) can leave before a
/// press made during it has reached the face, and vouch past it — and the host then bounds that
/// press by the beat (`room::fairness`, `beat_bound`). So a beat that finds it is
/// [`AWAY_US`] late vouches for nothing past what the beat before it did, until the laptop
/// has run long enough since ([`settle_us`]): the verdicts wait that much longer for it, and
/// the press keeps its own time.
///
/// The hand-over after a hold-up takes longer than the hold-up itself: the threads that carry
/// a press to the face (a browser's own process, its compositor) wake with the others and work
/// through what piled up. With the cores taken away in bursts (`scripts/steal.py`), presses
/// made during a 36–81 ms hold-up reached their page 54–122 ms after it ended — later than any
/// press of the minute before, so no delivery record could have held the beats back for them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Away {
    /// The latest time a beat vouched for.
    vouched: u64,
    /// Since when beats vouch for nothing new, and until when.
    held: Option<(u64, u64)>,
}

impl Away {
    /// A beat due at `due_us` leaves at `now_us`.
    pub fn due(&mut self, due_us: u64, now_us: u64) {
        let late = now_us.saturating_sub(due_us);
        if late > AWAY_US {
            let held = self.held.filter(|(_, until)| now_us < *until);
            let since = held.map_or(self.vouched, |(since, _)| since);
            // A shorter hold-up while a long one settles does not cut its settling short.
            let until = now_us.saturating_add(settle_us(late)).max(held.map_or(0, |(_, until)| until));
            self.held = Some((since, until));
        }
    }

    /// The latest time a beat leaving at `now_us` may vouch for, `wanted_us` the most it would;
    /// remembered as vouched.
    pub fn vouch(&mut self, now_us: u64, wanted_us: u64) -> u64 {
        let at = match self.held {
            Some((since, until)) if now_us < until => wanted_us.min(since),
            _ => wanted_us,
        };
        self.vouched = self.vouched.max(at);
        at
    }
}

/// How long a laptop whose threads were held up `late_us` runs before its beats vouch again
/// ([`Away`]).
pub fn settle_us(late_us: u64) -> u64 {
    late_us.saturating_mul(SETTLE_PER_AWAY).clamp(SETTLE_US, SETTLE_MAX_US)
}

/// A client's heartbeat schedule, and the timed moment it showed.
#[derive(Debug, Clone)]
pub struct Heartbeats {
    /// What the host asked for in its welcome.
    schedule: BeatSchedule,
    last_us: Option<u64>,
    /// The last beat said the next one follows within [`BEAT_US`].
    promised: bool,
    countdown_end_us: Option<u64>,
    /// The latest timed moment this client showed, and when (its own clock).
    shown: Option<Shown>,
}

impl Default for Heartbeats {
    fn default() -> Self {
        Heartbeats::new(BeatSchedule::WhileActing)
    }
}

/// The moment an update opens and the instant the host scheduled for showing it (this
/// client's clock; `now_us` when the host gave none): a face shows it then and calls
/// [`Heartbeats::show`] with the instant it really did.
pub fn opened<W: ClientGame>(msg: &ServerMsgOf<W>, now_us: u64) -> Option<Shown> {
    let ServerMsgOf::Update { events, view, show_at_us, .. } = msg else { return None };
    Some(Shown { moment: W::opened(events, view)?, at_us: show_at_us.unwrap_or(now_us) })
}

impl Heartbeats {
    /// A schedule as the host asked in its welcome.
    pub fn new(schedule: BeatSchedule) -> Heartbeats {
        Heartbeats { schedule, last_us: None, promised: false, countdown_end_us: None, shown: None }
    }

    /// Reads what the host announced: the countdown's end of the countdown now running.
    pub fn on_message<W: ClientGame>(&mut self, msg: &ServerMsgOf<W>) {
        if let ServerMsgOf::Update { view, countdown_end_us, .. } = msg {
            self.on_update(W::stage(view), *countdown_end_us);
        }
    }

    /// This client showed `moment` at `moment.at_us`; the first showing of a moment counts.
    pub fn show(&mut self, moment: Shown) {
        if self.shown.is_none_or(|s| s.moment != moment.moment) {
            self.shown = Some(moment);
        }
    }

    /// The last timed moment this client showed.
    pub fn last_moment(&self) -> Option<u64> {
        self.shown.map(|s| s.moment)
    }

    /// When this client showed `moment` (the timed moment now open). Back on a seat in the
    /// middle of one (a reconnect) without having shown it, it shows now (`now_us`).
    pub fn shown(&mut self, moment: u64, now_us: u64) -> Shown {
        match self.shown {
            Some(shown) if shown.moment == moment => shown,
            _ => *self.shown.insert(Shown { moment, at_us: now_us }),
        }
    }

    /// What a beat tells of `moment` (the timed moment now open): the showing, once it
    /// happened.
    pub fn beat_shown(&self, moment: Option<u64>, now_us: u64) -> Option<Shown> {
        let moment = moment?;
        self.shown.filter(|s| s.moment == moment && s.at_us <= now_us)
    }

    /// An update at `stage`, with the countdown's end it announced.
    pub fn on_update(&mut self, stage: Stage, countdown_end_us: Option<u64>) {
        self.countdown_end_us = if stage == Stage::Countdown { countdown_end_us } else { None };
    }

    /// When the next beat of a seated client is due on this client's clock, or `None` when
    /// none is needed. `stage`: `None` in the lobby. `competing`: this seat still acts in the
    /// timed moment now open ([`competing`]).
    pub fn due(&self, stage: Option<Stage>, competing: bool) -> Option<u64> {
        let after = |every: u64| self.last_us.map_or(0, |last| last.saturating_add(every));
        let end = match (stage, self.countdown_end_us) {
            (Some(Stage::Countdown), Some(end)) if self.last_us.is_none_or(|last| last < end + COUNTDOWN_SLACK_US) => {
                Some(end + COUNTDOWN_SLACK_US)
            }
            _ => None,
        };
        let regular = match (self.schedule, stage, self.last_us) {
            // A beat that promised a short gap keeps its word, whatever changed since.
            _ if self.promised => Some(after(BEAT_US)),
            _ if self.dense(stage, competing, after(BEAT_US)) => Some(after(BEAT_US)),
            (BeatSchedule::Steady, _, None) => Some(0),
            (BeatSchedule::Steady, _, Some(last)) => Some(after(IDLE_BEAT_US).min(next_burst(last))),
            // Past the announced end, or none announced (no clock model of this laptop yet).
            (BeatSchedule::WhileActing, Some(Stage::Countdown), _) if end.is_none() => Some(after(CUP_BEAT_US)),
            (BeatSchedule::WhileActing, _, _) => None,
        };
        end.into_iter().chain(regular).min()
    }

    /// Whether this client beats densely at `at_us` (its clock).
    fn dense(&self, stage: Option<Stage>, competing: bool, at_us: u64) -> bool {
        match self.schedule {
            BeatSchedule::Steady => {
                matches!(stage, Some(Stage::Countdown | Stage::Moment | Stage::Imminent))
                    || at_us % BURST_EVERY_US < BURST_US
            }
            BeatSchedule::WhileActing => stage == Some(Stage::Moment) && competing,
        }
    }

    /// A beat leaves at `now_us`: whether it promises the next within [`BEAT_US`] (what the
    /// beat says as `dense`).
    pub fn beaten(&mut self, now_us: u64, stage: Option<Stage>, competing: bool) -> bool {
        self.last_us = Some(now_us);
        self.promised = self.dense(stage, competing, now_us.saturating_add(BEAT_US));
        self.promised
    }
}

/// When the next dense burst after `at_us` starts.
fn next_burst(at_us: u64) -> u64 {
    (at_us / BURST_EVERY_US).saturating_add(1).saturating_mul(BURST_EVERY_US)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide::ServerMsg;
    use bolide::view::PhaseView;
    use bolide::{Event, PlayerView, Seat};

    #[test]
    fn fairness_7_a_beat_that_finds_its_laptop_was_held_up_vouches_for_nothing_new_until_it_settles() {
        let mut away = Away::default();
        away.due(10_000, 10_500);
        assert_eq!(away.vouch(10_500, 10_500), 10_500, "on time: its own time");
        // The laptop's threads were held from about 15 ms to 95 ms: a press made at 40 ms may
        // not have reached the face when the beat due at 20 ms leaves at 95 ms.
        away.due(20_000, 95_000);
        assert_eq!(away.vouch(95_000, 95_000), 10_500, "no further than the beat before it");
        away.due(105_000, 105_200);
        assert_eq!(away.vouch(105_200, 105_200), 10_500, "still settling");
        assert_eq!(away.vouch(110_000, 60_000), 10_500, "nor past a press stamped meanwhile");
        // A 75 ms hold-up: settled after 150 ms (four times as long, at most SETTLE_MAX_US).
        away.due(240_000, 240_100);
        assert_eq!(away.vouch(240_100, 240_100), 10_500, "a press made in the hold-up may still be on its way");
        away.due(250_000, 250_100);
        assert_eq!(away.vouch(250_100, 250_100), 250_100, "settled: its own time again");
        // A second hold-up while the first settles keeps the first one's start.
        away.due(260_000, 275_000);
        away.due(285_000, 294_000);
        assert_eq!(away.vouch(294_000, 294_000), 250_100);
        // ... and a short one does not cut a long one's settling short (15 ms late: 60 ms).
        assert_eq!(away.vouch(334_000, 334_000), 250_100, "the first one's 60 ms");
        assert_eq!(away.vouch(335_100, 335_100), 335_100);
    }

    #[test]
    fn fairness_7_a_laptop_settles_four_times_as_long_as_it_was_held_up_within_bounds() {
        assert_eq!(settle_us(AWAY_US + 1), 4 * (AWAY_US + 1), "a short hold-up: four times as long");
        assert_eq!(settle_us(1_000), SETTLE_US, "never under two beats");
        assert_eq!(settle_us(30_000), 120_000);
        assert_eq!(settle_us(45_000), SETTLE_MAX_US, "a long one: at most SETTLE_MAX_US");
        assert_eq!(settle_us(u64::MAX), SETTLE_MAX_US, "a clock that jumped: the longest settle");
    }

    #[test]
    fn b_4_6_under_the_cup_one_beat_just_after_the_announced_lift() {
        let mut h = Heartbeats::default();
        h.on_update(Stage::Countdown, Some(1_000_000));
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(1_001_000));
        assert!(!h.beaten(1_001_200, Some(Stage::Countdown), true), "a gap of 25 ms: nothing promised");
        // The host has not lifted yet (its model of this clock is a little off): keep telling.
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(1_026_200));
        // On a host that asked for steady beats, the lift's beat comes between two of them.
        let mut steady = Heartbeats::new(BeatSchedule::Steady);
        steady.on_update(Stage::Countdown, Some(1_000_000));
        assert_eq!(steady.due(Some(Stage::Countdown), true), Some(0));
        assert!(steady.beaten(995_000, Some(Stage::Countdown), true));
        assert_eq!(steady.due(Some(Stage::Countdown), true), Some(1_001_000));
        steady.beaten(1_001_200, Some(Stage::Countdown), true);
        assert_eq!(steady.due(Some(Stage::Countdown), true), Some(1_011_200));
    }

    #[test]
    fn under_the_cup_without_an_instant_beats_steadily() {
        let mut h = Heartbeats::default();
        h.on_update(Stage::Countdown, None);
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(0));
        h.beaten(500, Some(Stage::Countdown), true);
        assert_eq!(h.due(Some(Stage::Countdown), true), Some(25_500));
    }

    #[test]
    fn b_4_7_in_the_grab_and_the_echange_window_beats_until_this_seat_is_done() {
        let mut h = Heartbeats::default();
        h.on_update(Stage::Moment, None);
        assert!(h.beaten(10_000, Some(Stage::Moment), true), "the next follows");
        assert_eq!(h.due(Some(Stage::Moment), true), Some(20_000));
        // Done (holds a pawn, or has declared), or the moment closed: the promised beat still
        // comes, then no more.
        assert_eq!(h.due(Some(Stage::Moment), false), Some(20_000));
        assert!(!h.beaten(20_000, Some(Stage::Moment), false));
        assert_eq!(h.due(Some(Stage::Moment), false), None);
        assert_eq!(h.due(Some(Stage::Other), true), None);
    }

    #[test]
    fn fairness_5_on_a_host_that_asks_a_client_beats_densely_near_a_moment_and_in_bursts_elsewhere() {
        // Under the cup, in a moment, and while a reveal is imminent (the radio stays awake).
        for phase in [Stage::Countdown, Stage::Moment, Stage::Imminent] {
            let mut h = Heartbeats::new(BeatSchedule::Steady);
            h.on_update(phase, None);
            // Far from any burst: under the cup and in a moment, whether or not this seat acts.
            assert!(h.beaten(3_000_000, Some(phase), false), "{phase:?}");
            assert_eq!(h.due(Some(phase), false), Some(3_000_000 + BEAT_US), "{phase:?}");
        }
        for phase in [Some(Stage::Other), None] {
            let mut h = Heartbeats::new(BeatSchedule::Steady);
            assert_eq!(h.due(phase, false), Some(0), "the first at once");
            // Dense in the burst at the start of each stretch, and its last beat says so.
            let (mut at, mut last, mut beats, mut promised) = (0, 0, 0, 0);
            while at < 2 * BURST_EVERY_US {
                (last, beats) = (at, beats + 1);
                promised += u64::from(h.beaten(at, phase, false));
                at = h.due(phase, false).expect("steady");
            }
            let last_dense = BURST_US - BEAT_US;
            let sparse = (BURST_EVERY_US - last_dense - 1) / IDLE_BEAT_US;
            assert_eq!(beats, 2 * (BURST_US / BEAT_US + sparse), "{phase:?} (None: the lobby)");
            // The burst's last beat promises nothing; a sparse one promises when a burst follows
            // within a dense beat's gap.
            let before_burst = last_dense + sparse * IDLE_BEAT_US + BEAT_US >= BURST_EVERY_US;
            assert_eq!(promised, 2 * (BURST_US / BEAT_US - 1 + u64::from(before_burst)));
            assert_eq!(at, 2 * BURST_EVERY_US, "the next burst starts on time");
            assert_eq!(at - last, if before_burst { BEAT_US } else { BURST_EVERY_US - last % BURST_EVERY_US });
            // A cup put down between bursts: dense from the next beat on.
            assert!(!h.beaten(3 * BURST_EVERY_US + 1_000_000, phase, false));
            assert_eq!(h.due(phase, false), Some(3 * BURST_EVERY_US + 1_000_000 + IDLE_BEAT_US));
            assert_eq!(h.due(Some(Stage::Countdown), false), Some(3 * BURST_EVERY_US + 1_000_000 + BEAT_US));
        }
    }

    #[test]
    fn a_beat_names_the_moment_it_showed_and_never_an_earlier_one() {
        let (grab_moment, echange) = (bolide::Timed::Grab.name(1, 2), bolide::Timed::Echange.name(1, 2));
        let mut h = Heartbeats::default();
        let grab = Shown { moment: grab_moment, at_us: 5_000 };
        h.show(grab);
        h.show(Shown { at_us: 9_000, ..grab });
        assert_eq!(h.beat_shown(Some(grab_moment), 6_000), Some(grab), "the first showing counts");
        assert_eq!(h.beat_shown(Some(grab_moment), 4_000), None, "not shown yet");
        // The Échange window is open and not shown yet: the grab's showing says nothing of it.
        assert_eq!(h.beat_shown(Some(echange), 20_000), None);
        let shown = h.shown(echange, 21_000);
        assert_eq!((shown.moment, shown.at_us), (echange, 21_000), "shown now, on a comeback");
    }

    #[test]
    fn b_4_6_a_klaxon_pick_that_reveals_and_opens_the_echange_window_shows_the_window() {
        // The last Klaxon pick reveals the reservoirs, hands out the last pawn and opens the
        // Échange window in one update: the race is in the window, so the window is shown.
        let view = bolide::sim::random_race(3, 1).view_for(Seat(0));
        let update = |phase| ServerMsg::Update {
            events: vec![
                Event::ReservoirsRevealed { values: vec![1, 3, 1] },
                Event::EchangeWindow { seats: vec![Seat(0)] },
            ],
            view: Box::new(PlayerView { phase, ..view.clone() }),
            legal: Vec::new(),
            deadline_ms: None,
            awaited: None,
            show_at_us: Some(7_000),
            countdown_end_us: None,
        };
        let shown = opened(&update(PhaseView::Echange), 5_000).expect("the window opens");
        assert_eq!((shown.moment, shown.at_us), (bolide::Timed::Echange.name(view.race, view.round), 7_000));
        // Every pawn handed out and nothing to declare: no moment is open.
        assert_eq!(opened(&update(PhaseView::Movement), 5_000), None);
    }
}
