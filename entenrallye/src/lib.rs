//! *Entenrallye* (Walter Müller, "the 2CV race") as a pure engine: the rules of
//! `docs/rules/entenrallye.md` (ids `E-…`) and nothing else — no I/O, no clock. The table
//! drives it through `bolide_table::Game`: a turn is a roll, a drive that may stop early to
//! buy a part or repair, the special actions, and the calendar moving on.
//!
//! Read `rallye` first (`check` then `perform`), then `board` (the road, read from the rules'
//! own notation) and `part`.

pub mod action;
pub mod board;
pub mod bots;
pub mod calendar;
pub mod dice;
pub mod event;
pub mod options;
pub mod part;
mod printed;
pub mod rallye;
pub mod scenario;
pub mod sim;

pub use action::{Action, RuleError};
pub use board::{Inspection, Kind, Square, board};
pub use calendar::Calendar;
pub use event::{Event, Why};
pub use options::{FirstPlayer, Lobby, Settings, Ties};
pub use part::{Colour, Part, Section};
pub use rallye::{Car, CarView, Check, Phase, Rallye, View};

/// Entenrallye's words on the table's wire (`bolide_table::Words`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Entenrallye;

impl bolide_table::Words for Entenrallye {
    type Action = Action;
    type Event = Event;
    type View = View;
    type Refusal = RuleError;
    type Lobby = Lobby;
    /// No timed moment: nothing to twin.
    type Twin = ();
    const NAME: &'static str = "entenrallye";
    const TITLE: &'static str = "Entenrallye";
}

/// Entenrallye at the table: every decision is one seat's, in turn; nothing is timed.
impl bolide_table::Game for Rallye {
    type Action = Action;
    type Event = Event;
    type View = View;
    type Settings = Settings;
    type Refusal = RuleError;

    type Words = Entenrallye;
    const PLAYERS: (u8, u8) = (2, 6);

    fn check_settings(settings: &Settings, players: u8) -> Result<(), String> {
        settings.check(players)
    }

    fn start(settings: &Settings, players: u8, seed: u64, events: &mut Vec<Event>) -> Result<Rallye, String> {
        Rallye::new(*settings, players, seed, events)
    }

    fn check(&self, seat: bolide_table::Seat, action: Action) -> Result<(), RuleError> {
        Rallye::check(self, seat, action)
    }

    fn apply(&mut self, seat: bolide_table::Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        Rallye::apply(self, seat, action, events)
    }

    fn legal(&self, seat: bolide_table::Seat, out: &mut Vec<Action>) {
        self.legal_into(seat, out);
    }

    fn view(&self, viewer: Option<bolide_table::Seat>) -> View {
        Rallye::view(self, viewer)
    }

    fn event_for(&self, event: &Event, viewer: Option<bolide_table::Seat>) -> Event {
        Rallye::event_for(self, event, viewer)
    }

    fn step(&self) -> bolide_table::Step {
        if self.is_over() {
            bolide_table::Step::Over
        } else {
            bolide_table::Step::Sequential { seats: bolide_table::Seats::one(self.turn()) }
        }
    }

    /// Nothing is timed in Entenrallye: the table never ends a countdown here.
    fn time_is_up(&mut self, _events: &mut Vec<Event>) -> Result<(), RuleError> {
        Err(RuleError::Table(bolide_table::TableRefusal::NoMoment))
    }

    fn bot(
        &self,
        seat: bolide_table::Seat,
        level: bolide_table::BotLevel,
        rng: &mut rand_chacha::ChaCha8Rng,
        scratch: &mut Vec<Action>,
    ) -> Option<Action> {
        scratch.clear();
        self.legal_into(seat, scratch);
        if scratch.is_empty() {
            return None;
        }
        bots::decide(&self.view(Some(seat)), scratch, level, rng)
    }

    fn standings(&self) -> Option<Vec<bolide_table::Standing>> {
        Rallye::standings(self)
    }
}

#[cfg(test)]
mod tests;
