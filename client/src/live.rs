//! The window's link to a host: a tokio task drives the client core ([`Session`] over a
//! [`SharedState`]) that the window reads each frame, with the state of the connection
//! ([`Link`]) beside it; the window asks for things with [`Command`]s. The task owns the
//! connection (the session answers the host's clock probes and beats while it matters), stamps
//! grabs with the instants the window measured, and comes back to the seat with its token when
//! the connection drops — the client core, and what it knows of the table, going on.

use crate::net::{ClientError, Clock, ConnectOptions, MonotonicClock, Session, Unsent};
use crate::state::{ClientState, SharedState};
use bolide_protocol::options::Settings;
use bolide_protocol::wire::{ClientMsg, Shown, close};
use bolide_protocol::{Action, Colour};
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

/// The window's handle on a table.
#[derive(Clone)]
pub struct Live {
    /// The full room code, as typed or given.
    pub code: Arc<str>,
    state: SharedState,
    link: Arc<Mutex<Link>>,
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
        watch: bool,
        repaint: Arc<dyn Fn() + Send + Sync>,
    ) -> Live {
        let (live, commands) = Live::detached(code);
        let target = Target { addr, code: code.to_string(), name: name.to_string(), colour };
        let options = ConnectOptions {
            clock: live.clock.clone(),
            unsent: live.unsent.clone(),
            state: live.state.clone(),
            watch,
            ..ConnectOptions::default()
        };
        runtime.spawn(drive(target, live.link.clone(), commands, options, repaint));
        live
    }

    /// A handle with no task behind it: the window's tests feed the client core themselves
    /// and read the commands the window sent.
    pub fn detached(code: &str) -> (Live, mpsc::UnboundedReceiver<Command>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let live = Live {
            code: code.into(),
            state: SharedState::default(),
            link: Arc::new(Mutex::new(Link::Connecting)),
            commands: tx,
            clock: Arc::default(),
            unsent: Unsent::default(),
        };
        (live, rx)
    }

    pub fn send(&self, command: Command) {
        // Stamped here, on the window's thread: no beat may tell a time past it until the
        // link's task has sent it.
        if let Command::Act { at_us, .. } | Command::Timed { input_us: at_us, .. } = command {
            self.unsent.stamp(at_us);
        }
        let _ = self.commands.send(command);
    }

    /// The client core, locked for reading (or, in tests, for feeding). The window holds it
    /// for one frame; the link's task waits for it at most that long.
    pub fn state(&self) -> MutexGuard<'_, ClientState> {
        self.state.lock()
    }

    /// The state of the connection.
    pub fn link(&self) -> Link {
        self.link.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// Tests: sets the state of the connection.
    pub fn set_link(&self, link: Link) {
        *self.link.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = link;
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
    target: Target,
    link: Arc<Mutex<Link>>,
    mut commands: mpsc::UnboundedReceiver<Command>,
    options: ConnectOptions,
    repaint: Arc<dyn Fn() + Send + Sync>,
) {
    let set = |now: Link| {
        *link.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = now;
        repaint();
    };
    let mut token = None;
    let mut attempt = 0;
    loop {
        let result = match Session::connect_with(target.addr, &target.code, &target.name, token, options.clone()).await
        {
            Ok(mut session) => {
                attempt = 0;
                let first = token.is_none();
                token = token.or(session.state().token);
                set(Link::Connected);
                if first && let Some(colour) = target.colour {
                    let _ = session.send(&ClientMsg::PickColour(colour)).await;
                }
                play(&mut session, &mut commands, &repaint).await
            }
            Err(e) => Err(e),
        };
        let ended = match result {
            Ok(()) => return set(Link::Ended("You left the table.".into())),
            Err(ClientError::Lost(why)) if attempt < COMEBACKS => why,
            Err(e @ ClientError::Connect { .. }) if token.is_some() && attempt < COMEBACKS => e.to_string(),
            Err(e) => {
                let over = options.state.lock().mirror.finished.is_some();
                let message = if over { "The championship is over.".to_string() } else { explain(&e) };
                return set(Link::Ended(message));
            }
        };
        attempt += 1;
        set(Link::Reconnecting { attempt, why: ended });
        tokio::time::sleep(Duration::from_secs(u64::from(attempt.min(5)))).await;
    }
}

/// What to tell a pilot whose table is gone for good.
pub fn explain(e: &ClientError) -> String {
    match e {
        ClientError::BadCode(_) | ClientError::NotTheHost(_) => e.to_string(),
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
        ClientError::View(_) | ClientError::OtherGame { .. } => e.to_string(),
        ClientError::GameChanged { game, .. } => format!(
            "The first pilot switched the table to {game}. This window joins Bolide tables only for now: \
             join that one with bolide-bot, or come back once the table plays Bolide."
        ),
    }
}

/// Plays one connection: messages in, commands out (the session beats meanwhile).
async fn play(
    session: &mut Session,
    commands: &mut mpsc::UnboundedReceiver<Command>,
    repaint: &Arc<dyn Fn() + Send + Sync>,
) -> Result<(), ClientError> {
    loop {
        tokio::select! {
            // The session applied it to the client core the window reads.
            msg = session.next() => {
                msg?;
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
                        let shown_us = session.state().shown_for(input_us);
                        session.timed(action, shown_us, input_us).await?;
                    }
                    Command::Shown(moment) => session.state().show(moment),
                    Command::Leave => {
                        session.send(&ClientMsg::Leave).await?;
                        return Ok(());
                    }
                }
            }
        }
    }
}
