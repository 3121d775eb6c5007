//! A table as the window holds it, whatever its game: the link in the game's words and the
//! game's screens, behind one trait ([`TableFace`]), the way egui's demo keeps one file per
//! window behind one trait. The games are listed once, in `crate::games::Registry`.
//!
//! A game's screens implement [`Screen`] in their own module; everything else a table does —
//! its link, Leave, Ready, the window's title, the night kept at its end — is written once,
//! here, for every game.

use crate::game::ClientGame;
use crate::live::{CommandOf, Link, LiveOf};
use crate::net::Admitted;
use crate::replay::ReplayError;
use bolide_table::seal::Commitment;
use std::net::SocketAddr;
use std::sync::Arc;

/// A hosted table, as the lobby shows it.
#[derive(Debug, Clone)]
pub struct HostInfo {
    pub code: String,
    pub addresses: Vec<SocketAddr>,
    /// Where browsers join: the lobby shows the first as an address and a QR code.
    pub web: Vec<SocketAddr>,
    /// The host's door: locked after too many wrong room codes (shown in the lobby).
    pub door: Option<crate::embed::Door>,
}

/// What a game's screen is given each frame, beside its link.
pub struct AtTable<'a> {
    pub w: &'static crate::lang::Words,
    /// The host this window runs, when it does (its code and addresses in the lobby).
    pub host: Option<&'a HostInfo>,
    /// The night the table handed over at its end: kept, or why not.
    pub night: Option<&'a Result<(), String>>,
    /// The games this window plays, by name and title (a lobby's first pilot may switch to
    /// any of them).
    pub games: &'a [(&'static str, &'static str)],
    /// Practice before its first Ready, for a screen with a guide ([`Screen::GUIDE`]).
    pub guide: bool,
    /// Set by the screen when the guide is read and Ready sent.
    pub guide_done: bool,
}

/// A game's rules page: its sections (a title and a paragraph each), and a note under them.
pub type HowTo = (&'static [(&'static str, &'static str)], Option<&'static str>);

/// A game's screens at a table: its lobby, its play and its end.
pub trait Screen<W: ClientGame>: Default + 'static {
    /// The engine a night of this game replays through, to check it before it is kept.
    type Game: bolide_table::Game<Words = W>;
    /// Practice's first game waits for this screen's guide before Ready.
    const GUIDE: bool = false;

    fn show(&mut self, ui: &mut egui::Ui, live: &LiveOf<W>, at: &mut AtTable);

    /// The window's title at this table ("Bolide — grab!"): a glance at the task bar, and
    /// what the window's scripts and tests follow screens by.
    fn title(live: &LiveOf<W>) -> &'static str;

    /// A kept night of this game (its journal), opened for the replay screen.
    fn night(_text: &str) -> Result<Box<dyn Replayed>, ReplayError> {
        Err(ReplayError::View(format!("the window has no replay of {} yet", W::NAME)))
    }

    /// The rules page: its sections (a title and a paragraph each), and a note under them.
    fn howto(_w: &crate::lang::Words) -> HowTo {
        (&[], None)
    }

    /// The game's part of the start screen (Host a game, Practice): by default, Practice's
    /// number of players.
    fn setup() -> Box<dyn Setup> {
        Box::new(Players::new(<Self::Game as bolide_table::Game>::PLAYERS))
    }
}

/// A game's part of the start screen: what Host a game and Practice set of it, kept while the
/// window runs.
pub trait Setup {
    /// Host a game: the game's own settings, below the bots.
    fn host(&mut self, _ui: &mut egui::Ui, _w: &crate::lang::Words) {}
    /// Practice: its seats and the game's own settings.
    fn practice(&mut self, ui: &mut egui::Ui, w: &crate::lang::Words);
    /// Fills in what a host of this game is asked beside the table's own settings; for
    /// Practice (`practice`), the bots that fill its seats too.
    fn ask(&self, ask: &mut crate::embed::HostAsk, practice: bool);
}

/// Practice's number of players, you included, the rest bots: every game's, unless it sets
/// more.
pub struct Players {
    pub seats: (u8, u8),
    pub players: u8,
}

impl Players {
    pub fn new(seats: (u8, u8)) -> Players {
        Players { seats, players: 4.clamp(seats.0, seats.1) }
    }

    /// The picker: one button a count, `counts`.
    pub fn picker(ui: &mut egui::Ui, players: &mut u8, counts: impl IntoIterator<Item = u8>, w: &crate::lang::Words) {
        ui.horizontal(|ui| {
            for n in counts {
                ui.selectable_value(players, n, n.to_string());
            }
            ui.label(w.players);
        });
    }
}

impl Setup for Players {
    fn practice(&mut self, ui: &mut egui::Ui, w: &crate::lang::Words) {
        Players::picker(ui, &mut self.players, self.seats.0..=self.seats.1, w);
    }

    fn ask(&self, ask: &mut crate::embed::HostAsk, practice: bool) {
        if practice {
            ask.bots = self.players.saturating_sub(1);
        }
    }
}

/// A table this window sits at, whatever its game.
pub trait TableFace {
    fn link(&self) -> Link;
    /// Ends the link with `message`, which the table's screen shows.
    fn end(&self, message: String);
    /// The connection a link opened to a table of another game.
    fn take_door(&self) -> Option<Admitted>;
    fn leave(&self);
    fn ready(&self);
    fn code(&self) -> Arc<str>;
    /// The window's title at this table (`Screen::title`).
    fn title(&self) -> &'static str;
    /// The game's name on the box: the banner over its table.
    fn game(&self) -> &'static str;
    /// Whether this laptop sits in a lobby that has not started (Practice's Ready goes then).
    fn in_lobby(&self) -> bool;
    /// Whether Practice waits for the screen's guide.
    fn has_guide(&self) -> bool;
    /// The night a finished table handed over, once it is whole: its text and commitment when
    /// it replays to its end from the seed the lobby committed to, else why it is not kept.
    fn checked_night(&self) -> Option<Result<(String, Commitment), String>>;
    fn show(&mut self, ui: &mut egui::Ui, at: &mut AtTable);
}

/// A game's link and its screens: every [`TableFace`] is one of these.
pub struct Table<W: ClientGame, S> {
    live: LiveOf<W>,
    screen: S,
}

impl<W: ClientGame, S: Screen<W>> Table<W, S> {
    pub fn boxed(live: LiveOf<W>) -> Box<dyn TableFace> {
        Box::new(Table { live, screen: S::default() })
    }
}

impl<W: ClientGame, S: Screen<W>> TableFace for Table<W, S> {
    fn link(&self) -> Link {
        self.live.link()
    }

    fn end(&self, message: String) {
        self.live.set_link(Link::Ended(crate::live::Ended::Said(message)));
    }

    fn take_door(&self) -> Option<Admitted> {
        self.live.take_door()
    }

    fn leave(&self) {
        self.live.send(CommandOf::Leave);
    }

    fn ready(&self) {
        self.live.send(CommandOf::Ready(true));
    }

    fn code(&self) -> Arc<str> {
        self.live.code.clone()
    }

    fn title(&self) -> &'static str {
        S::title(&self.live)
    }

    fn game(&self) -> &'static str {
        W::TITLE
    }

    fn in_lobby(&self) -> bool {
        let state = self.live.state();
        let t = &state.mirror;
        t.seat.is_some() && t.lobby.as_ref().is_some_and(|l| !l.started)
    }

    fn has_guide(&self) -> bool {
        S::GUIDE
    }

    fn checked_night(&self) -> Option<Result<(String, Commitment), String>> {
        let state = self.live.state();
        let t = &state.mirror;
        let text = t.night.complete()?;
        let committed = t.lobby.as_ref()?.dice;
        Some(match bolide_table::journal::replay_game::<S::Game>(text) {
            Ok(night) if night.commitment == committed && night.over => Ok((text.to_string(), committed)),
            Ok(_) => Err("it does not replay to its end from the seed the host committed to".into()),
            Err(e) => Err(e.to_string()),
        })
    }

    fn show(&mut self, ui: &mut egui::Ui, at: &mut AtTable) {
        self.screen.show(ui, &self.live, at);
    }
}

/// The replay bar's six moves and where the replay is (`big`, `small`, step, last step), in a
/// game's words.
pub type Nav = (&'static [&'static str; 6], fn(u16, u16, usize, usize) -> String);

/// A game's night on the replay screen.
pub trait Replayed {
    fn steps(&self) -> usize;
    /// Where each step is, as the bar says it: race and round (Bolide), hand and turn round
    /// the table (1000 Bornes), month and turn (Entenrallye).
    fn marks(&self) -> Vec<(u16, u16)>;
    /// The bar's six moves and where the replay is, in the game's words.
    fn nav(&self, w: &'static crate::lang::Words) -> Nav;
    /// Whether the night's statistics have a page (the bar's toggle).
    fn has_stats(&self) -> bool {
        false
    }
    /// Draws step `step` (with the statistics page instead, when asked and there is one).
    fn show(
        &mut self,
        ui: &mut egui::Ui,
        step: usize,
        stats: bool,
        w: &'static crate::lang::Words,
    ) -> Result<(), ReplayError>;
}
