//! The shared language of Bolide: what the host and every client agree on.
//!
//! This crate holds the game model (seats, pawns, tokens, the circuit), the actions a pilot
//! may send, the events the host publishes, the per-seat view, and the pure helpers a client
//! needs to preview a move ([`movement::reach`]). It owns no state and does no I/O: the
//! authoritative rules engine lives in `bolide-host`, and both sides share this one
//! implementation of the speed-limit check so a preview can never disagree with the host.

pub mod action;
pub mod circuit;
pub mod circuits;
pub mod dice;
pub mod error;
pub mod event;
pub mod model;
pub mod movement;
pub mod options;
pub mod twin;
pub mod view;
pub mod wire;

/// Bolide's words on the table's wire (`bolide_table::Words`): what a laptop speaks to play it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bolide;

impl bolide_table::Words for Bolide {
    type Action = Action;
    type Event = Event;
    type View = PlayerView;
    type Refusal = RuleError;
    type Lobby = options::Settings;
    type Twin = twin::Twin;
    const NAME: &'static str = "bolide";
}

pub use action::Action;
pub use circuit::{Circuit, CircuitError, Tile};
pub use error::RuleError;
pub use event::{Event, Timed};
pub use model::{Atout, Atouts, BonusKind, Bonuses, Colour, Pawn, Seat};
pub use options::{BotLevel, FirstPlayer, TableOptions};
pub use view::PlayerView;
