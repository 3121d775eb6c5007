//! The games this client plays — the client's one list of them, [`Registry::standard`] — and
//! each game's half of the client core ([`crate::game::ClientGame`]) and of its bots
//! ([`crate::bot::BotGame`]), a module per game.
//!
//! An entry gives every face what it needs of a game, typed once: the window a table's
//! screens ([`TableFace`]), a kept night's replay and the rules page; a bot over the wire its
//! play.

pub mod bolide;
pub mod entenrallye;
pub mod mille_bornes;

use crate::bot::{BotGame, Plan, PlayedAny};
use crate::live::{Hooks, LiveOf, Target};
use crate::net::{Admitted, ClientError};
use crate::replay::ReplayError;
use crate::ui::face::{HowTo, Replayed, Screen, Setup, Table, TableFace};
use std::net::SocketAddr;

/// Game switches a bot follows in one lobby before it gives up (a first pilot flipping
/// between games).
const SWITCHES: u32 = 8;

/// Opens a link to a table in one game's words.
pub type Connect = fn(&crate::platform::rt::Runtime, Target, Option<Admitted>, Hooks) -> Box<dyn TableFace>;

/// A bot's game over a connection the door admitted, to its end.
pub type Play = for<'a> fn(
    Admitted,
    SocketAddr,
    &'a str,
    &'a str,
    Plan<'a>,
) -> crate::platform::rt::BoxFuture<'a, Result<PlayedAny, ClientError>>;

/// One game as this client plays it.
#[derive(Clone, Copy)]
pub struct Entry {
    /// Its name: the host's, on the wire, in the advert and in a kept night.
    pub name: &'static str,
    /// Its name on the box.
    pub title: &'static str,
    pub connect: Connect,
    pub play: Play,
    /// A kept night of this game, opened for the replay screen.
    pub replay: fn(&str) -> Result<Box<dyn Replayed>, ReplayError>,
    /// The rules page: its sections, and a note under them.
    pub howto: fn(&crate::lang::Words) -> HowTo,
    /// Its part of the start screen.
    pub setup: fn() -> Box<dyn Setup>,
    /// The most bots a hosted table of it seats (its most players, one person aside).
    pub most_bots: u8,
}

impl Entry {
    /// The entry of the game `W` with the window's screens `S`.
    pub fn of<W: BotGame, S: Screen<W>>() -> Entry {
        Entry {
            name: W::NAME,
            title: W::TITLE,
            connect: |runtime, target, door, hooks| {
                Table::<W, S>::boxed(LiveOf::connect_through(runtime, target, door, hooks))
            },
            play: |admitted, addr, code, name, plan| {
                Box::pin(async move {
                    let mut quiet = crate::bot::quiet::<W>;
                    crate::bot::play_as::<W>(Some(admitted), addr, code, name, plan, &mut quiet)
                        .await
                        .map(PlayedAny::new)
                })
            },
            replay: S::night,
            howto: S::howto,
            setup: S::setup,
            most_bots: <S::Game as bolide_table::Game>::PLAYERS.1.saturating_sub(1),
        }
    }
}

/// The games this client plays, found by name, in the order the window lists them.
#[derive(Clone)]
pub struct Registry(Vec<Entry>);

impl Registry {
    /// Every game of this house: the one list. A new game is one line here.
    pub fn standard() -> Registry {
        Registry(Vec::new())
            .with::<::bolide::Bolide, bolide::table::BolideTableUi>()
            .with::<::mille_bornes::MilleBornes, mille_bornes::table::MbTableUi>()
            .with::<::entenrallye::Entenrallye, entenrallye::table::EnteTableUi>()
    }

    /// Plays `W` too, shown by the screens `S`.
    pub fn with<W: BotGame, S: Screen<W>>(mut self) -> Registry {
        self.0.retain(|e| e.name != W::NAME);
        self.0.push(Entry::of::<W, S>());
        self
    }

    /// The game called `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.0.iter().find(|e| e.name == name)
    }

    /// The first game: what a table typed in by hand is joined as until it says its own.
    pub fn first(&self) -> Option<&Entry> {
        self.0.first()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.0.iter()
    }

    /// Joins the table and plays whichever of these games it plays, to its end; when the
    /// lobby's first pilot switches the table to another game, joins again with its seat
    /// token and plays that one. `plan.choose`: the game this bot, seated first, picks in the
    /// lobby (`ChooseGame`).
    pub async fn play(
        &self,
        addr: SocketAddr,
        code: &str,
        name: &str,
        plan: Plan<'_>,
    ) -> Result<PlayedAny, ClientError> {
        let mut token = None;
        for _ in 0..=SWITCHES {
            let admitted = crate::net::knock_with(addr, code, name, token, &plan.dial()).await?;
            let Some(game) = self.get(&admitted.game) else {
                let host = admitted.game.clone();
                admitted.close().await;
                return Err(ClientError::OtherGame { host, here: self.names() });
            };
            match (game.play)(admitted, addr, code, name, plan).await {
                Err(ClientError::GameChanged { game, token: t }) => {
                    tracing::info!(%name, %game, "the table now plays another game: joining it");
                    token = t;
                }
                played => return played,
            }
        }
        Err(ClientError::Lost(format!("the lobby switched games {SWITCHES} times: join again once it has settled")))
    }

    /// The games' names, for an error that says which there are.
    pub fn names(&self) -> String {
        self.0.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
    }
}
