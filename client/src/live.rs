//! The window's link to a host: a tokio task runs the client core ([`Session`]) and keeps a
//! [`Table`] — everything the window shows — that the window reads each frame; the window
//! asks for things with [`Command`]s. The task owns the connection (the session answers the
//! host's clock probes and beats while it matters), stamps grabs with the instants the window
//! measured, and comes back to the seat with its token when the connection drops.

use crate::net::{ClientError, Clock, ConnectOptions, MonotonicClock, Session, Unsent};
use bolide_protocol::dice::DiceWatch;
use bolide_protocol::wire::{ClientMsg, ServerMsg, Settings, Shown, close};
use bolide_protocol::{Action, Colour, Event, Seat};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc;

/// What the window asks of the host.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Ready(bool),
    PickColour(Colour),
    /// The first pilot's championship settings.
    Configure(Settings),
    /// A game action, taken by the pilot at `at_us` on this laptop's clock (a Klaxon call is
    /// ordered by it, B-4.6).
    Act {
        action: Action,
        at_us: u64,
    },
    /// An action of a timed moment: a grab (B-4.3) or an Échange declaration (B-4.7); the
    /// input event arrived at `input_us`.
    Timed {
        action: Action,
        input_us: u64,
    },
    /// The frame that first drew a timed moment (the reservoirs, the Échange window) went to
    /// the screen at `at_us`.
    Shown(Shown),
    /// Leave for good: the seat goes to a bot.
    Leave,
}

/// The state of the connection, as a banner shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    Connecting,
    Connected,
    /// The connection dropped; coming back to the seat with its token.
    Reconnecting {
        attempt: u32,
        why: String,
    },
    /// Over for good, with what to tell the pilot.
    Ended(String),
}

/// Everything the window shows of a table: one owner (the link's task) writes it, the window
/// reads a copy of what it needs each frame.
#[derive(Debug, Clone)]
pub struct Table {
    pub link: Link,
    /// The full room code, as typed or given.
    pub code: String,
    pub seat: Option<Seat>,
    pub lobby: Option<bolide_protocol::wire::LobbyState>,
    pub view: Option<bolide_protocol::PlayerView>,
    pub legal: Vec<Action>,
    /// When a bot plays for this seat, on this laptop's clock (µs).
    pub deadline_us: Option<u64>,
    /// Every event received, in order.
    pub events: Vec<Event>,
    /// The timed moment last opened, and the instant the host scheduled for showing it (µs on
    /// this clock).
    pub show_at: Option<Shown>,
    /// The last refusal, in words.
    pub refusal: Option<String>,
    pub finished: Option<Vec<bolide_protocol::wire::StandingLine>>,
    /// Every draw seen, checked against the seed once the host reveals it (the podium).
    pub dice: DiceWatch,
}

impl Table {
    fn new(code: &str) -> Table {
        Table {
            link: Link::Connecting,
            code: code.to_string(),
            seat: None,
            lobby: None,
            view: None,
            legal: Vec::new(),
            deadline_us: None,
            events: Vec::new(),
            show_at: None,
            refusal: None,
            finished: None,
            dice: DiceWatch::default(),
        }
    }

    /// The name of a seat, from the lobby (bots included once the championship starts).
    pub fn name(&self, seat: Seat) -> String {
        self.lobby
            .as_ref()
            .and_then(|l| l.seats.iter().find(|s| s.seat == seat))
            .map_or_else(|| format!("Pilot {}", seat.0 + 1), |s| s.name.clone())
    }

    /// The colour of a seat (and of the pawn and reservoir with its number, B-1.2).
    pub fn colour(&self, seat: Seat) -> Colour {
        self.lobby
            .as_ref()
            .and_then(|l| l.seats.iter().find(|s| s.seat == seat))
            .map_or(Colour::ALL[seat.index() % Colour::ALL.len()], |s| s.colour)
    }

    /// Applies one message from the host; `now_us` is this laptop's clock.
    pub fn apply(&mut self, msg: &ServerMsg, now_us: u64) {
        self.dice.observe(msg);
        match msg {
            ServerMsg::Lobby(lobby) => self.lobby = Some(lobby.clone()),
            ServerMsg::Update { events, view, legal, deadline_ms, .. } => {
                crate::state::keep_events(&mut self.events, events);
                if let Some(moment) = crate::beat::opened(msg, now_us) {
                    self.show_at = Some(moment);
                }
                self.view = Some((**view).clone());
                self.legal = legal.clone();
                self.deadline_us = deadline_ms.map(|ms| now_us + u64::from(ms) * 1000);
                self.refusal = None;
            }
            ServerMsg::ActRefused { error, .. } => self.refusal = Some(error.to_string()),
            ServerMsg::LobbyRefused { reason } => self.refusal = Some(reason.clone()),
            ServerMsg::Finished { standings } => self.finished = Some(standings.clone()),
            ServerMsg::Welcome { seat, .. } => self.seat = *seat,
            ServerMsg::Refused { reason } => self.link = Link::Ended(format!("The host refused: {reason}")),
        }
    }
}

/// The window's handle on a table.
#[derive(Clone)]
pub struct Live {
    table: Arc<Mutex<Table>>,
    commands: mpsc::UnboundedSender<Command>,
    pub clock: Arc<MonotonicClock>,
    unsent: Unsent,
}

impl Live {
    /// Starts the link's task on `runtime`; `repaint` is called whenever the table changes.
    pub fn connect(
        runtime: &tokio::runtime::Handle,
        addr: SocketAddr,
        code: &str,
        name: &str,
        colour: Option<Colour>,
        repaint: Arc<dyn Fn() + Send + Sync>,
    ) -> Live {
        let (live, commands) = Live::detached(code);
        let link = Target { addr, code: code.to_string(), name: name.to_string(), colour };
        let options =
            ConnectOptions { clock: live.clock.clone(), unsent: live.unsent.clone(), ..ConnectOptions::default() };
        runtime.spawn(drive(link, live.table.clone(), commands, options, repaint));
        live
    }

    /// A handle with no task behind it: the window's tests feed the table themselves and
    /// read the commands the window sent.
    pub fn detached(code: &str) -> (Live, mpsc::UnboundedReceiver<Command>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let table = Arc::new(Mutex::new(Table::new(code)));
        (Live { table, commands: tx, clock: Arc::default(), unsent: Unsent::default() }, rx)
    }

    pub fn send(&self, command: Command) {
        // Stamped here, on the window's thread: no beat may tell a time past it until the
        // link's task has sent it.
        if let Command::Act { at_us, .. } | Command::Timed { input_us: at_us, .. } = command {
            self.unsent.stamp(at_us);
        }
        let _ = self.commands.send(command);
    }

    /// The table, locked for reading (or, in tests, for feeding).
    pub fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn now_us(&self) -> u64 {
        self.clock.now_us()
    }
}

/// Where the link goes, and as whom.
struct Target {
    addr: SocketAddr,
    code: String,
    name: String,
    colour: Option<Colour>,
}

/// Comebacks attempted after a drop before the window gives up, a second more apart each time.
const COMEBACKS: u32 = 8;

async fn drive(
    link: Target,
    table: Arc<Mutex<Table>>,
    mut commands: mpsc::UnboundedReceiver<Command>,
    options: ConnectOptions,
    repaint: Arc<dyn Fn() + Send + Sync>,
) {
    let set = |f: &dyn Fn(&mut Table)| {
        if let Ok(mut t) = table.lock() {
            f(&mut t);
        }
        repaint();
    };
    let mut token = None;
    let mut attempt = 0;
    loop {
        let result = match Session::connect_with(link.addr, &link.code, &link.name, token, options.clone()).await {
            Ok(mut session) => {
                attempt = 0;
                let first = token.is_none();
                token = token.or(session.state.token);
                let seat = session.state.seat;
                set(&|t| {
                    t.link = Link::Connected;
                    t.seat = seat;
                });
                if first && let Some(colour) = link.colour {
                    let _ = session.send(&ClientMsg::PickColour(colour)).await;
                }
                play(&mut session, &table, &mut commands, &options.clock, &repaint).await
            }
            Err(e) => Err(e),
        };
        let ended = match result {
            Ok(()) => return set(&|t| t.link = Link::Ended("You left the table.".into())),
            Err(ClientError::Lost(why)) if attempt < COMEBACKS => why,
            Err(e @ ClientError::Connect { .. }) if token.is_some() && attempt < COMEBACKS => e.to_string(),
            Err(e) => {
                let over = table.lock().map(|t| t.finished.is_some()).unwrap_or(false);
                let message = if over { "The championship is over.".to_string() } else { explain(&e) };
                return set(&|t| t.link = Link::Ended(message.clone()));
            }
        };
        attempt += 1;
        set(&|t| t.link = Link::Reconnecting { attempt, why: ended.clone() });
        tokio::time::sleep(Duration::from_secs(u64::from(attempt.min(5)))).await;
    }
}

/// What to tell a pilot whose table is gone for good.
pub fn explain(e: &ClientError) -> String {
    match e {
        ClientError::BadCode(_) => e.to_string(),
        ClientError::Refused(reason) => format!("The host refused: {reason}"),
        ClientError::Connect { reason, .. } if reason.contains("fingerprint") => format!(
            "This is not the host of that code: its certificate does not match the code's fingerprint. \
             Check the code on the host's screen. ({reason})"
        ),
        ClientError::Connect { addr, reason } => {
            format!("No host answers at {addr}: {reason}. Check the address on the host's screen.")
        }
        ClientError::Closed { code, reason } if *code == u64::from(close::VERSION_MISMATCH) => {
            format!("Different versions: {reason}")
        }
        ClientError::Closed { code, .. } if *code == u64::from(close::SHUTDOWN) => {
            "The host has closed the table.".into()
        }
        ClientError::Closed { reason, .. } => format!("The host closed the connection: {reason}"),
        ClientError::Lost(why) => format!("The host is gone: {why}"),
        ClientError::Frame(f) => format!("The host sent something this version cannot read: {f}"),
        ClientError::View(_) => e.to_string(),
    }
}

/// Plays one connection: messages in, commands out (the session beats meanwhile).
async fn play(
    session: &mut Session,
    table: &Arc<Mutex<Table>>,
    commands: &mut mpsc::UnboundedReceiver<Command>,
    clock: &Arc<dyn Clock>,
    repaint: &Arc<dyn Fn() + Send + Sync>,
) -> Result<(), ClientError> {
    loop {
        tokio::select! {
            msg = session.next() => {
                let msg = msg?;
                let now = clock.now_us();
                if let Ok(mut t) = table.lock() {
                    t.apply(&msg, now);
                }
                repaint();
            }
            command = commands.recv() => {
                let Some(command) = command else { return Ok(()) };
                match command {
                    Command::Ready(r) => session.send(&ClientMsg::Ready(r)).await?,
                    Command::PickColour(c) => session.send(&ClientMsg::PickColour(c)).await?,
                    Command::Configure(s) => session.send(&ClientMsg::Configure(s)).await?,
                    Command::Act { action, at_us } => {
                        session.act_at(action, at_us).await?;
                    }
                    Command::Timed { action, input_us } => {
                        // The frame that drew the moment, or else its scheduled instant.
                        let shown_us = session.state.shown_for(input_us);
                        session.timed(action, shown_us, input_us).await?;
                    }
                    Command::Shown(moment) => session.state.show(moment),
                    Command::Leave => {
                        session.send(&ClientMsg::Leave).await?;
                        return Ok(());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::MAX_EVENTS;

    #[test]
    fn the_event_log_is_bounded() {
        let view = bolide_host::sim::random_race(3, 1).view_for(Seat(0));
        let mut t = Table::new("GARAGE-ABCDEF");
        let flood = vec![Event::KlaxonCalled { seat: Seat(0), order: 0 }; 7_000];
        for _ in 0..5 {
            let msg = ServerMsg::Update {
                events: flood.clone(),
                view: Box::new(view.clone()),
                legal: vec![],
                deadline_ms: None,
                show_at_us: None,
                lift_at_us: None,
            };
            t.apply(&msg, 0);
        }
        assert_eq!(t.events.len(), MAX_EVENTS);
    }
}
