//! The game's half of the client core. The table's half ([`crate::state`], [`crate::beat`],
//! [`crate::net`]) numbers the actions, beats, takes each datagram twin once and keeps the
//! inputs not yet sent, for any game; what it asks a game is here: what to check of a message
//! before anything of it is applied, which timed moment a view is in, whether this seat
//! competes in it, and what a twin stands for. A new game implements [`ClientGame`] for its
//! words in a module of [`crate::games`]; nothing else in the client core changes.

use bolide_table::wire::ServerMsgOf;
use bolide_table::{Seat, Words};
use std::fmt::Debug;

/// What a datagram twin stands for: the view with the moment open, its events, and what this
/// seat may do in it.
pub type TwinUpdate<W> = (<W as Words>::View, Vec<<W as Words>::Event>, Vec<<W as Words>::Action>);

/// Where a view stands, for the beats ([`crate::beat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// A countdown the host ends at an instant it announced (Bolide's cup): one beat just past
    /// that instant settles what was called before it.
    Countdown,
    /// A timed moment: a competing seat beats while it acts.
    Moment,
    /// A secret moment opens as soon as another seat is done (Bolide's Klaxon picks: the
    /// others see the reservoirs once the callers have chosen). On a host that asked for a
    /// steady schedule the laptop beats densely, so that a Wi-Fi radio in power save — which
    /// dozes 100 ms after it last sent — is awake when the reveal comes: a dozing one gets it
    /// at the access point's next beacon, up to 102 ms later than its path allows.
    Imminent,
    /// Anything else.
    Other,
}

/// What the client core needs of a game, beyond its words on the wire. A game that times
/// nothing (Entenrallye) writes only what to check, whose view it is, its seats and what it
/// watches: the rest defaults to "no countdown, no moment, no twin".
pub trait ClientGame: Words {
    /// What a laptop watches all night to check the host's luck against its commitment
    /// (Bolide's dice); `()` for a game that has nothing to check yet.
    type Watch: Debug + Clone + Default + Send + 'static;
    /// What the core remembers of the twins it took, so that neither the twin nor the
    /// stream's update shows a moment twice.
    type Twins: Debug + Clone + Default + Send + 'static;
    /// The most seats at one of its tables: a seat past it names nothing.
    const SEATS: usize;

    /// Checks a message from the host before anything of it is applied, and cleans what it
    /// shows of the game's own (the table cleans names and reasons): a view that names what
    /// does not exist is refused, in words.
    fn check(msg: &mut ServerMsgOf<Self>) -> Result<(), String>;
    /// The seat a view is from.
    fn viewer(view: &Self::View) -> Option<Seat>;
    /// Whether the view has a place for `seat` (a seat it lacks drops the view until the host
    /// sends that seat's own).
    fn seats(view: &Self::View, seat: Seat) -> bool;
    /// Where the view stands, for the beats.
    fn stage(_view: &Self::View) -> Stage {
        Stage::Other
    }
    /// The timed moment the view is in, as the host names it (`Shown::moment`).
    fn moment(_view: &Self::View) -> Option<u64> {
        None
    }
    /// The timed moment an update with these events opens.
    fn opened(_events: &[Self::Event], _view: &Self::View) -> Option<u64> {
        None
    }
    /// Whether `seat` still acts in the timed moment the view is in. Nothing that only this
    /// laptop knows (its hand) may change it: the beats it drives are on the wire.
    fn competing(_view: &Self::View, _seat: Option<Seat>, _legal: &[Self::Action]) -> bool {
        false
    }
    /// Whether `action` belongs to a timed moment: it goes with its times, and copies.
    fn timed(_action: &Self::Action) -> bool {
        false
    }
    /// Takes out of the stream's update what a twin already showed.
    fn dedupe(_twins: &mut Self::Twins, _events: &mut Vec<Self::Event>, _view: &Self::View) {}
    /// The update a twin stands for, against the view the mirror has, if it is news: the
    /// view with the moment open, its events and what this seat may do in it.
    fn twin(
        _twins: &mut Self::Twins,
        _view: &Self::View,
        _seat: Option<Seat>,
        _twin: Self::Twin,
    ) -> Option<TwinUpdate<Self>> {
        None
    }
    /// Watches a message for [`ClientGame::Watch`].
    fn watch(watch: &mut Self::Watch, msg: &ServerMsgOf<Self>);
}
