//! A fourth game costs what ARCHITECTURE.md's "Adding a game" says: a throwaway game —
//! *Relais*, two to four players adding 1 or 2 to a count in turn, whoever reaches 12 wins —
//! written here in a few lines, registered once in the host's registry and once in the
//! client's, hosted by `serve`'s own code, played over QUIC by a bot of the client's registry
//! against the host's bot, then verified and narrated from its journal through the registry.
//! Nothing of the table, the room, the network layer, the client core or the wire envelope
//! knows of it.

use bolide_client::bot::{BotGame, Plan};
use bolide_client::game::ClientGame;
use bolide_client::live::LiveOf;
use bolide_client::ui::face::{AtTable, Screen};
use bolide_host::games::{Served, SimulateAsk};
use bolide_host::room::LobbyOf;
use bolide_host::serve::ServeArgs;
use bolide_table::wire::ServerMsgOf;
use bolide_table::{BotLevel, Game, Seat, Standing, Step, TableRefusal, Words};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The count that wins.
const GOAL: u8 = 12;

/// Relais's words on the wire.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Relais;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
struct Add(u8);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Added {
    seat: Seat,
    by: u8,
    count: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct View {
    players: u8,
    count: u8,
    turn: Seat,
    viewer: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Refusal {
    Table(TableRefusal),
    NotYourTurn,
    OneOrTwo,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Table(t) => write!(f, "{t}"),
            Refusal::NotYourTurn => f.write_str("R-1: not your turn"),
            Refusal::OneOrTwo => f.write_str("R-2: add 1 or 2"),
        }
    }
}

impl std::error::Error for Refusal {}

impl From<TableRefusal> for Refusal {
    fn from(t: TableRefusal) -> Refusal {
        Refusal::Table(t)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Lobby {
    bots: u8,
    bot_level: BotLevel,
}

impl bolide_table::Lobby for Lobby {
    type Game = ();

    fn bots(&self) -> u8 {
        self.bots
    }

    fn bot_level(&self) -> BotLevel {
        self.bot_level
    }

    fn game(&self) {}
}

impl Words for Relais {
    type Action = Add;
    type Event = Added;
    type View = View;
    type Refusal = Refusal;
    type Lobby = Lobby;
    type Twin = ();
    const NAME: &'static str = "relais";
    const TITLE: &'static str = "Relais";
}

/// Relais's engine.
#[derive(Debug, Clone)]
struct Count {
    players: u8,
    count: u8,
    turn: Seat,
}

impl Game for Count {
    type Words = Relais;
    type Action = Add;
    type Event = Added;
    type View = View;
    type Settings = ();
    type Refusal = Refusal;
    const PLAYERS: (u8, u8) = (2, 4);

    fn check_settings(_: &(), players: u8) -> Result<(), String> {
        (2..=4).contains(&players).then_some(()).ok_or_else(|| format!("Relais seats 2 to 4, not {players}"))
    }

    fn start(_: &(), players: u8, _seed: u64, _: &mut Vec<Added>) -> Result<Count, String> {
        Count::check_settings(&(), players)?;
        Ok(Count { players, count: 0, turn: Seat(0) })
    }

    fn check(&self, seat: Seat, Add(by): Add) -> Result<(), Refusal> {
        if self.count >= GOAL {
            return Err(TableRefusal::Over.into());
        }
        if seat != self.turn {
            return Err(Refusal::NotYourTurn);
        }
        if !(1..=2).contains(&by) {
            return Err(Refusal::OneOrTwo);
        }
        Ok(())
    }

    fn apply(&mut self, seat: Seat, action: Add, events: &mut Vec<Added>) -> Result<(), Refusal> {
        self.check(seat, action)?;
        self.count += action.0;
        events.push(Added { seat, by: action.0, count: self.count });
        if self.count < GOAL {
            self.turn = Seat((seat.0 + 1) % self.players);
        }
        Ok(())
    }

    fn legal(&self, seat: Seat, out: &mut Vec<Add>) {
        out.extend([Add(1), Add(2)].into_iter().filter(|a| self.check(seat, *a).is_ok()));
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        View { players: self.players, count: self.count, turn: self.turn, viewer }
    }

    fn step(&self) -> Step {
        match self.count >= GOAL {
            true => Step::Over,
            false => Step::Sequential { seats: bolide_table::Seats::one(self.turn) },
        }
    }

    fn time_is_up(&mut self, _: &mut Vec<Added>) -> Result<(), Refusal> {
        Ok(())
    }

    fn bot(&self, seat: Seat, _: BotLevel, rng: &mut ChaCha8Rng, scratch: &mut Vec<Add>) -> Option<Add> {
        scratch.clear();
        self.legal(seat, scratch);
        scratch.get(rng.random_range(0..scratch.len().max(1))).copied()
    }

    fn standings(&self) -> Option<Vec<Standing>> {
        (self.count >= GOAL).then(|| {
            let seats = (0..self.players).map(Seat);
            bolide_table::rank(seats.map(|s| (s, u32::from(s == self.turn), u8::from(s == self.turn))))
        })
    }
}

/// Relais as the host serves it: the host's registry's one line is `.with::<Count>()`.
impl Served for Count {
    const TIMED: bool = false;

    fn lobby(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>> {
        Ok(Lobby { bots: args.bots, bot_level: args.bot_level })
    }

    fn lobby_for_switch(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>> {
        Self::lobby(args)
    }

    fn narrate(text: &str, _: &bolide_words::lang::Words) -> anyhow::Result<String> {
        let mut out = String::new();
        bolide_table::journal::replay::<Count>(text, |_, events| {
            for e in events {
                out.push_str(&format!("seat {} adds {}: {}\n", e.seat.number(), e.by, e.count));
            }
        })?;
        Ok(out)
    }

    fn simulate(_: &SimulateAsk) -> anyhow::Result<serde_json::Value> {
        anyhow::bail!("Relais has no simulation")
    }
}

/// Relais's half of the client core and of its bots.
impl ClientGame for Relais {
    type Watch = ();
    type Twins = ();
    const SEATS: usize = 4;

    fn check(msg: &mut ServerMsgOf<Relais>) -> Result<(), String> {
        match msg {
            ServerMsgOf::Update { view, .. } if view.players > 4 || view.turn.0 >= view.players => {
                Err("a seat that is not at the table".into())
            }
            _ => Ok(()),
        }
    }

    fn viewer(view: &View) -> Option<Seat> {
        view.viewer
    }

    fn seats(view: &View, seat: Seat) -> bool {
        seat.0 < view.players
    }

    fn watch(_: &mut (), _: &ServerMsgOf<Relais>) {}
}

impl BotGame for Relais {
    fn decision(view: &View, legal: &[Add]) -> String {
        format!("{} {:?} {legal:?}", view.count, view.turn)
    }

    /// Reaches the goal when it can, else adds 1.
    fn decide(view: &View, legal: &[Add], _: BotLevel, _: &mut ChaCha8Rng) -> Option<Add> {
        legal.iter().copied().find(|a| view.count + a.0 >= GOAL).or(legal.first().copied())
    }
}

/// Relais in the window: the client's registry's one line is `.with::<Relais, Board>()`.
#[derive(Default)]
struct Board;

impl Screen<Relais> for Board {
    type Game = Count;

    fn show(&mut self, ui: &mut egui::Ui, live: &LiveOf<Relais>, _: &mut AtTable) {
        let count = live.state().mirror.view.as_ref().map_or(0, |v| v.count);
        egui::CentralPanel::default().show(ui, |ui| ui.label(format!("{count} / {GOAL}")));
    }

    fn title(_: &LiveOf<Relais>) -> &'static str {
        "Bolide — Relais"
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fourth_game_registered_once_on_each_side_is_hosted_played_by_bots_verified_and_narrated() {
    let host_games = bolide_host::games::Registry::standard().with::<Count>();
    let client_games = bolide_client::games::Registry::standard().with::<Relais, Board>();
    let dir = tempfile_dir("relais");
    let words = ["--game", "relais", "--bots", "1", "--bind", "127.0.0.1:0", "--no-mdns", "--bot-delay-ms", "0"];
    let mut args = ServeArgs::parse_words(words.map(String::from)).unwrap();
    args.data_dir = Some(dir.clone());
    let hosting = bolide_host::serve::start_in(&host_games, args).await.unwrap();
    assert_eq!((hosting.game, hosting.title), ("relais", "Relais"));
    let addr = hosting.server.local_addr();
    let plan = Plan::new(BotLevel::Strategic, Duration::ZERO, 7);
    let played = tokio::time::timeout(Duration::from_secs(30), client_games.play(addr, &hosting.code, "Ada", plan))
        .await
        .expect("the game ends within 30 s")
        .expect("the client's bot plays Relais to its end");
    assert_eq!(played.game, "relais");
    assert_eq!(played.standings.len(), 2, "Ada and the host's bot: {:?}", played.standings);
    assert!(played.of::<Relais>().is_some_and(|p| p.events.last().is_some_and(|e| e.count >= GOAL)));
    // The window's face of it is one entry away.
    assert!(client_games.get("relais").is_some() && bolide_client::games::Registry::standard().get("relais").is_none());
    hosting.stop().await;

    // The journal replays to its end and is narrated through the host's registry.
    let text = std::fs::read_to_string(dir.join("championship.journal")).unwrap();
    let game = host_games.of_journal(&text).unwrap();
    assert_eq!(game.name, "relais");
    let verdict = (game.verify)(&text, None).unwrap();
    assert!(verdict.holds && verdict.lines.iter().any(|l| l.contains("game over")), "{:?}", verdict.lines);
    let told = (game.narrate)(&text, &bolide_words::lang::EN).unwrap();
    assert!(told.lines().last().is_some_and(|l| l.ends_with(&format!(": {GOAL}")) || l.ends_with(": 13")), "{told}");
    // A house without it says which games it has.
    let e = bolide_host::games::Registry::standard().of_journal(&text).err().unwrap().to_string();
    assert!(e.contains("`relais` is not a game here: bolide, mille-bornes, entenrallye"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bolide-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
