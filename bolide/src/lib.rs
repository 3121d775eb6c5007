//! Antoine Bauza's *Bolide* as a game of the table (`bolide_table::Game`): the model (seats,
//! pawns, tokens, the circuit), the actions a pilot may send, the events the host publishes,
//! the per-seat view, the circuits, the engine ([`game`]), the bots ([`bots`]) and the
//! simulation ([`sim`]). Like every game it does no I/O and reads no clock: the table owns
//! every instant. A client previews a move with the same [`movement::reach`] the engine
//! applies, so a preview can never disagree with the host.

pub mod action;
pub mod bots;
pub mod circuit;
pub mod circuits;
pub mod dice;
pub mod error;
pub mod event;
pub mod game;
pub mod model;
pub mod movement;
pub mod options;
pub mod scenario;
pub mod sim;
pub mod twin;
pub mod view;

#[cfg(test)]
mod journal_tests;
#[cfg(test)]
mod wire_tests;

use bolide_table::wire::{ClientMsgOf, DatagramOf, LobbyStateOf, ServerMsgOf};

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
    const TITLE: &'static str = "Bolide";
    const PLAYER: &'static str = "Pilot";
}

/// Bolide's messages on the table's wire.
pub type ClientMsg = ClientMsgOf<Bolide>;
pub type ServerMsg = ServerMsgOf<Bolide>;
pub type LobbyState = LobbyStateOf<Bolide>;
pub type Datagram = DatagramOf<Bolide>;

pub use action::Action;
pub use circuit::{Circuit, CircuitError, Tile};
pub use error::RuleError;
pub use event::{Event, Timed};
pub use model::{Atout, Atouts, BonusKind, Bonuses, Colour, Pawn, Seat};
pub use options::{BotLevel, FirstPlayer, TableOptions};
pub use view::PlayerView;
