//! The 1000 Bornes table as its screen reads it, for one frame: the client core's mirror over
//! the wire (Practice's included) or a replay's step, and what the screen asks of the link.
//! Its own module so that the screen (`screen`) and the table's lobby and link
//! (`table`) each read it without reading each other both ways.

use crate::game::ClientGame;
use crate::lang::Words;
use crate::live::{CommandOf, LiveOf};
use crate::state::{ClientStateOf, MirrorOf};
use bolide_table::Seat;
use mille_bornes::partie::window_moment;
use mille_bornes::{Action, Event, MilleBornes, Phase, View};
use std::sync::MutexGuard;

/// What the 1000 Bornes screen reads and asks of its table over the wire (Practice's
/// included), for one frame: the client core's mirror, locked while this lives (the link's
/// task waits at most that frame). The screen never re-derives a rule from it.
pub struct NetTable<'a> {
    live: &'a LiveOf<MilleBornes>,
    seen: Seen<'a>,
}

/// Where the mirror comes from: the link's client core, or a replay's step.
enum Seen<'a> {
    Live(MutexGuard<'a, ClientStateOf<MilleBornes>>),
    Replay(&'a MirrorOf<MilleBornes>),
}

impl<'a> NetTable<'a> {
    pub fn new(live: &'a LiveOf<MilleBornes>) -> NetTable<'a> {
        NetTable { live, seen: Seen::Live(live.state()) }
    }

    /// A replay's table at one step (`crate::replay::Night::at`); what it would send goes
    /// to `live`, a detached link.
    pub fn replayed(live: &'a LiveOf<MilleBornes>, mirror: &'a MirrorOf<MilleBornes>) -> NetTable<'a> {
        NetTable { live, seen: Seen::Replay(mirror) }
    }

    fn mirror(&self) -> &MirrorOf<MilleBornes> {
        match &self.seen {
            Seen::Live(state) => &state.mirror,
            Seen::Replay(mirror) => mirror,
        }
    }

    /// The clock this laptop stamps its inputs on.
    pub fn clock(&self) -> &crate::net::MonotonicClock {
        &self.live.clock
    }

    /// The table as this laptop may see it (`None` before the first deal reached it).
    pub fn view(&self) -> Option<View> {
        self.mirror().view.clone()
    }

    /// What this seat may do now.
    pub fn legal(&self) -> Vec<Action> {
        self.mirror().legal.clone()
    }

    /// Every seat's name, by seat.
    pub fn names(&self) -> Vec<String> {
        let players = self.mirror().view.as_ref().map_or(0, |v| v.players);
        (0..players).map(|s| self.mirror().name(Seat(s))).collect()
    }

    /// This laptop's seat (`None`: it watches).
    pub fn you(&self) -> Option<Seat> {
        self.mirror().seat
    }

    /// The last refusal, in this player's words (M-15.5's told as the box says it).
    pub fn refusal(&self, w: &Words) -> Option<String> {
        match self.mirror().refused {
            Some(mille_bornes::RuleError::SafetyNotHeld { safety }) => Some((w.mb_cf_refused)(safety.card().name())),
            _ => self.mirror().refusal.clone(),
        }
    }

    /// What happened, oldest first (the latest few thousand events).
    pub fn log(&self) -> &[Event] {
        &self.mirror().events
    }

    /// M-15.3: the open Coup-Fourré window on this laptop's clock — shown at the instant the
    /// host scheduled it for this laptop, closing after the length the table set.
    pub fn window(&self) -> Option<(u64, u64)> {
        let view = self.mirror().view.as_ref()?;
        let Phase::Window { .. } = view.phase else { return None };
        let shown = self.mirror().scheduled.filter(|s| s.moment == window_moment(view.hand_number, view.attacks))?;
        Some((shown.at_us, shown.at_us.saturating_add(u64::from(view.settings.window_ms) * 1000)))
    }

    /// M-15.9: the last caller and their reaction, as the host published it.
    pub fn last_call(&self) -> Option<(Seat, Option<u64>)> {
        self.mirror().events.iter().rev().find_map(|e| match e {
            Event::Reaction { seat, reaction_us } => Some((*seat, Some(u64::from(*reaction_us)))),
            Event::CoupFourre { seat, .. } => Some((*seat, None)),
            _ => None,
        })
    }

    /// When a bot plays this seat's turn, on this laptop's clock.
    pub fn deadline(&self) -> Option<u64> {
        self.mirror().deadline_at_us
    }

    /// Whose decision a person's time limit runs for now, and when a bot makes it.
    pub fn awaited(&self) -> Option<(Seat, u64)> {
        self.mirror().awaited
    }

    /// The final places (M-13), one line a side, best first: rank, a seat of the side,
    /// points, hands won.
    pub fn standings(&self) -> Option<Vec<(u8, Seat, u32, u8)>> {
        let sides = self.mirror().view.as_ref().map_or(u8::MAX, |v| v.sides);
        let mut lines: Vec<_> = self.mirror().finished.as_ref()?.iter().filter(|s| s.seat.0 < sides).collect();
        // Within a shared place (M-13.3 counts hands only), the most points first.
        lines.sort_by_key(|s| (s.rank, std::cmp::Reverse(s.points), s.seat));
        Some(lines.iter().map(|s| (s.rank, s.seat, s.points, s.wins)).collect())
    }

    /// M-3.2: the hands whose every card this laptop saw re-dealt from the revealed seed, or
    /// what did not match.
    pub fn cards_checked(&self) -> Option<Result<usize, String>> {
        let mirror = self.mirror();
        let verdict = mirror.dice.verdict().map(|v| v.clone().map(|report| report.hands));
        crate::ui::lobby::left_out(mirror.part_in, verdict)
    }

    /// Plays `action`, taken at `now`: a timed moment's (the Coup-Fourré, M-15.6) goes with its
    /// input instant, judged on this laptop's clock from the frame that drew the attack.
    pub fn act(&mut self, action: Action, now: u64) {
        if MilleBornes::timed(&action) {
            self.live.send(CommandOf::Timed { action, input_us: now });
        } else {
            self.live.send(CommandOf::Act { action, at_us: now });
        }
    }

    /// The frame being built is the first to draw the Coup-Fourré window `moment`.
    pub fn drawn(&mut self, ui: &egui::Ui, moment: u64) {
        crate::ui::stamp::shown(ui, self.live, moment);
    }
}
