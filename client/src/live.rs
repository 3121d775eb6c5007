//! The window's link to a host: a tokio task drives the client core ([`SessionOf`] over a
//! [`SharedStateOf`]) that the window reads each frame, with the state of the connection
//! ([`Link`]) beside it; the window asks for things with [`Command`]s. The task owns the
//! connection (the session answers the host's clock probes and beats while it matters), stamps
//! grabs with the instants the window measured, and comes back to the seat with its token when
//! the connection drops — the client core, and what it knows of the table, going on. It speaks
//! any game ([`LiveOf`]); a table that plays another game than the one it was opened for (or
//! that the lobby's first pilot switched) ends it with [`Link::OtherGame`], and the window
//! opens a link in that game's words with the seat token.

use crate::game::ClientGame;
use crate::net::{self, ClientError, Clock, ConnectOptionsOf, MonotonicClock, SessionOf, Unsent};
use crate::state::{ClientStateOf, SharedStateOf};
use bolide::{Bolide, Colour};
use bolide_table::Words;
use bolide_table::wire::{ClientMsgOf, FieldLine, FieldTruth, SeatToken, ServerMsgOf, Shown, close};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc;

/// What the window asks of the host, in a game's words.
#[derive(Debug, Clone, PartialEq)]
pub enum CommandOf<W: Words> {
    Ready(bool),
    PickColour(Colour),
    /// The first pilot's settings for the game.
    Configure(W::Lobby),
    /// The first pilot's pick of another game for the table (its `Words::NAME`).
    ChooseGame(String),
    /// A game action, taken by the pilot at `at_us` on this laptop's clock (a Klaxon call is
    /// ordered by it, B-4.6).
    Act {
        action: W::Action,
        at_us: u64,
    },
    /// An action of a timed moment: a grab (B-4.3), an Échange declaration (B-4.7), a
    /// Coup-Fourré (M-15.6); the input event arrived at `input_us`.
    Timed {
        action: W::Action,
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
    /// Over for good, with what to tell the player.
    Ended(Ended),
    /// The table plays another game (`Words::NAME`, cleaned): it never played this one, or its
    /// first pilot switched it. The window goes on in that game's words, with the seat token.
    OtherGame {
        game: String,
        token: Option<SeatToken>,
    },
}

/// Why a table's link is over for good, for the window to say in its language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// The player left.
    Left,
    /// The game is over and the host closed the table.
    GameOver,
    /// Anything else, as the error says it.
    Said(String),
}

/// Bolide's command, by its plain name.
pub type Command = CommandOf<Bolide>;
/// Bolide's link, by its plain name.
pub type Live = LiveOf<Bolide>;

/// The window's handle on a table of the game `W`.
pub struct LiveOf<W: ClientGame> {
    /// The full room code, as typed or given.
    pub code: Arc<str>,
    state: SharedStateOf<W>,
    link: Arc<Mutex<Link>>,
    commands: mpsc::UnboundedSender<CommandOf<W>>,
    pub clock: Arc<MonotonicClock>,
    unsent: Unsent,
    /// The connection a knock opened to a table of another game ([`Link::OtherGame`]): the
    /// link in that game's words goes on through it, in the seat it was given.
    door: Arc<Mutex<Option<net::Admitted>>>,
}

impl<W: ClientGame> Clone for LiveOf<W> {
    fn clone(&self) -> Self {
        LiveOf {
            code: self.code.clone(),
            state: self.state.clone(),
            link: self.link.clone(),
            commands: self.commands.clone(),
            clock: self.clock.clone(),
            unsent: self.unsent.clone(),
            door: self.door.clone(),
        }
    }
}

/// Where a link goes, and as whom.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub addr: SocketAddr,
    /// The full room code.
    pub code: String,
    pub name: String,
    /// Asked for once, on the link's first seat (a comeback keeps the seat's own).
    pub colour: Option<Colour>,
    /// Watch rather than take a seat.
    pub watch: bool,
    /// The seat token of a seat this laptop already has (a table that changed game).
    pub token: Option<SeatToken>,
    /// By QUIC (the window) or the host's browser door (a browser's page).
    pub via: net::Via,
    /// A fairness field run (`bolide-host serve --fairness-test`): what this pilot did in
    /// each timed moment is kept on the link's clock and handed to the host once the
    /// championship is over, as `bolide-bot --fairness-test` hands in its own.
    pub field: bool,
}

impl<W: ClientGame> LiveOf<W> {
    /// Starts the link's task on `runtime`; `repaint` is called whenever the table changes.
    pub fn connect(
        runtime: &crate::platform::rt::Runtime,
        target: Target,
        repaint: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        Self::connect_through(runtime, target, None, Hooks::repaint(repaint))
    }

    /// As [`LiveOf::connect`], going on first through `door`: a connection past the host's
    /// door that a link in another game's words opened ([`LiveOf::take_door`]), with the
    /// face's `hooks`.
    pub fn connect_through(
        runtime: &crate::platform::rt::Runtime,
        target: Target,
        door: Option<net::Admitted>,
        hooks: Hooks,
    ) -> Self {
        let Hooks { repaint, unsent, frame_lead_us } = hooks;
        let (mut live, commands) = Self::detached(&target.code);
        live.unsent = unsent;
        let options = ConnectOptionsOf::<W> {
            clock: live.clock.clone(),
            unsent: live.unsent.clone(),
            state: live.state.clone(),
            watch: target.watch,
            via: target.via,
            frame_lead_us,
            ..ConnectOptionsOf::default()
        };
        let ends = Ends { link: live.link.clone(), door: live.door.clone(), repaint };
        runtime.spawn(drive(target, door, commands, options, ends));
        live
    }

    /// The connection to a table of another game this link was admitted through, once it
    /// says [`Link::OtherGame`] (taken once).
    pub fn take_door(&self) -> Option<net::Admitted> {
        self.door.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
    }

    /// A handle with no task behind it: the window's tests feed the client core themselves
    /// and read the commands the window sent.
    pub fn detached(code: &str) -> (Self, mpsc::UnboundedReceiver<CommandOf<W>>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let live = LiveOf {
            code: code.into(),
            state: SharedStateOf::default(),
            link: Arc::new(Mutex::new(Link::Connecting)),
            commands: tx,
            clock: Arc::default(),
            unsent: net::Unsent::default(),
            door: Arc::default(),
        };
        (live, rx)
    }

    pub fn send(&self, command: CommandOf<W>) {
        // Stamped here, on the window's thread: no beat may tell a time past it until the
        // link's task has sent it.
        if let CommandOf::Act { at_us, .. } | CommandOf::Timed { input_us: at_us, .. } = command {
            self.unsent.stamp(at_us);
        }
        let _ = self.commands.send(command);
    }

    /// The client core, locked for reading (or, in tests, for feeding). The window holds it
    /// for one frame; the link's task waits for it at most that long.
    pub fn state(&self) -> MutexGuard<'_, ClientStateOf<W>> {
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

/// What the face that opens a link gives it: a way to wake the face when the table changed,
/// and what keeps its stamped inputs (the window's reads the display's unread input events,
/// `platform::display_time`).
#[derive(Clone)]
pub struct Hooks {
    pub repaint: Arc<dyn Fn() + Send + Sync>,
    pub unsent: net::Unsent,
    /// How long before its frame is up the face's screen draws it
    /// ([`ConnectOptionsOf::frame_lead_us`]).
    pub frame_lead_us: u32,
}

impl Hooks {
    /// Hooks that only repaint.
    pub fn repaint(repaint: Arc<dyn Fn() + Send + Sync>) -> Hooks {
        Hooks { repaint, unsent: net::Unsent::default(), frame_lead_us: 0 }
    }
}

/// Comebacks attempted after a drop before the window gives up, a second more apart each time.
const COMEBACKS: u32 = 8;

/// What a link's task hands back to the window: the state of the link, a connection to a
/// table of another game, and the repaint that tells the window.
struct Ends {
    link: Arc<Mutex<Link>>,
    door: Arc<Mutex<Option<net::Admitted>>>,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

async fn drive<W: ClientGame>(
    target: Target,
    mut door: Option<net::Admitted>,
    mut commands: mpsc::UnboundedReceiver<CommandOf<W>>,
    options: ConnectOptionsOf<W>,
    ends: Ends,
) {
    let repaint = ends.repaint.clone();
    let set = |now: Link| {
        *ends.link.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = now;
        repaint();
    };
    let (mut token, mut colour) = (target.token, target.colour);
    let mut attempt = 0;
    // A field run's record, kept across comebacks.
    let mut record = target.field.then(FieldTruth::default);
    loop {
        let (addr, code, name) = (target.addr, &target.code, &target.name);
        let admitted = match door.take() {
            Some(door) => Ok(door),
            None => net::knock_with(addr, code, name, token, &options.dial()).await,
        };
        let result = match admitted {
            Ok(other) if other.game != W::NAME => {
                // Another game's table: the window goes on through this connection, in the
                // seat it was given (a lobby frees the seat of a laptop that leaves).
                let (game, seat_token) = (other.game.clone(), other.token().or(token));
                *ends.door.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(other);
                return set(Link::OtherGame { game, token: seat_token });
            }
            Ok(door) => door.session(options.clone()),
            Err(e) => Err(e),
        };
        let result = match result {
            Ok(mut session) => {
                attempt = 0;
                token = token.or(session.state().token);
                set(Link::Connected);
                // Once, on this link's first seat: a comeback keeps the seat's own colour.
                if let Some(colour) = colour.take() {
                    let _ = session.send(&ClientMsgOf::PickColour(colour)).await;
                }
                play(&mut session, &mut commands, &ends.repaint, &mut record).await
            }
            Err(e) => Err(e),
        };
        let over = options.state.lock().mirror.finished.is_some();
        let ended = match after(result, Comeback { over, seated: token.is_some(), attempt }) {
            Ok(why) => why,
            Err(Link::OtherGame { game, .. }) => return set(Link::OtherGame { game, token }),
            Err(end) => return set(end),
        };
        attempt += 1;
        set(Link::Reconnecting { attempt, why: ended });
        crate::platform::rt::sleep(Duration::from_secs(u64::from(attempt.min(5)))).await;
    }
}

/// Where a link stands when its session ended: whether the night's standings came, whether
/// this laptop holds a seat (a token), and how many comebacks in a row it has tried.
struct Comeback {
    over: bool,
    seated: bool,
    attempt: u32,
}

/// What follows a session's end: `Ok(why)`, come back (and why the link was lost); `Err`, the
/// link's last state (an [`Link::OtherGame`]'s token is the caller's).
fn after(result: Result<(), ClientError>, c: Comeback) -> Result<String, Link> {
    let again = c.attempt < COMEBACKS;
    match result {
        Ok(()) => Err(Link::Ended(Ended::Left)),
        Err(ClientError::GameChanged { game, .. }) => Err(Link::OtherGame { game, token: None }),
        // The night is over and this laptop has it (standings, seed, the night kept): a link
        // lost now is the host closing its table, and there is no seat left to come back to.
        Err(_) if c.over => Err(Link::Ended(Ended::GameOver)),
        Err(ClientError::Lost(why)) if again => Ok(why),
        Err(e @ ClientError::Connect { .. }) if c.seated && again => Ok(e.to_string()),
        // A busy door (guessing locked it, or this seat came back too often) is waited out
        // while this laptop holds a seat: its seat is not given away.
        Err(ClientError::Wait(why)) if c.seated && again => Ok(why),
        Err(e) => Err(Link::Ended(Ended::Said(explain(&e)))),
    }
}

/// What to tell a pilot whose table is gone for good.
pub fn explain(e: &ClientError) -> String {
    match e {
        ClientError::BadCode(_) | ClientError::NotTheHost(_) => e.to_string(),
        ClientError::Refused(reason) => format!("The host refused: {reason}"),
        ClientError::Wait(reason) => format!("The host's door is busy: {reason}"),
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
        ClientError::GameChanged { game, .. } => format!("The first pilot switched the table to {game}."),
    }
}

/// Plays one connection: messages in, commands out (the session beats meanwhile); keeps a
/// field run's `record` when there is one.
async fn play<W: ClientGame>(
    session: &mut SessionOf<W>,
    commands: &mut mpsc::UnboundedReceiver<CommandOf<W>>,
    repaint: &Arc<dyn Fn() + Send + Sync>,
    record: &mut Option<FieldTruth>,
) -> Result<(), ClientError> {
    loop {
        tokio::select! {
            // The session applied it to the client core the window reads.
            msg = session.next() => {
                let msg = msg?;
                repaint();
                // The truth goes to the host only now: nothing of it was known during play.
                if let (ServerMsgOf::Finished { .. }, Some(record)) = (&msg, record.as_mut()) {
                    session.send(&ClientMsgOf::FieldRecord(std::mem::take(record))).await?;
                }
            }
            command = commands.recv() => {
                let Some(command) = command else { return Ok(()) };
                match command {
                    CommandOf::Ready(r) => session.send(&ClientMsgOf::Ready(r)).await?,
                    CommandOf::PickColour(c) => session.send(&ClientMsgOf::PickColour(c)).await?,
                    CommandOf::Configure(s) => session.send(&ClientMsgOf::Configure(s)).await?,
                    CommandOf::ChooseGame(game) => session.send(&ClientMsgOf::ChooseGame(game)).await?,
                    CommandOf::Act { action, at_us } => {
                        session.act_at(action, at_us).await?;
                    }
                    CommandOf::Timed { action, input_us } => {
                        // The frame that drew the moment, or else its scheduled instant.
                        let (shown_us, moment) = {
                            let state = session.state();
                            (state.shown_for(input_us), state.request_moment())
                        };
                        let seq = session.timed(action, shown_us, input_us).await?;
                        if let (Some(record), Some(moment)) = (record.as_mut(), moment) {
                            tracing::debug!(target: "bolide::field", seq, moment, shown_us, input_us, "timed");
                            record.request(FieldLine { seq, moment, shown_us, input_us });
                        }
                    }
                    CommandOf::Shown(moment) => session.state().show(moment),
                    CommandOf::Leave => {
                        session.send(&ClientMsgOf::Leave).await?;
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

    fn lost() -> Result<(), ClientError> {
        Err(ClientError::Lost("the host ended the link".into()))
    }

    #[test]
    fn a_link_lost_mid_night_comes_back_to_its_seat() {
        assert_eq!(
            after(lost(), Comeback { over: false, seated: true, attempt: 0 }),
            Ok("the host ended the link".into())
        );
        let wait = Err(ClientError::Wait("guessing".into()));
        assert_eq!(after(wait, Comeback { over: false, seated: true, attempt: 3 }), Ok("guessing".into()));
        // Not forever.
        assert!(matches!(
            after(lost(), Comeback { over: false, seated: true, attempt: COMEBACKS }),
            Err(Link::Ended(Ended::Said(_)))
        ));
    }

    #[test]
    fn a_link_lost_once_the_night_is_over_ends_with_the_game_and_does_not_knock_again() {
        // The host closes its table after the podium (a browser's link just ends).
        assert_eq!(after(lost(), Comeback { over: true, seated: true, attempt: 0 }), Err(Link::Ended(Ended::GameOver)));
        let refused = Err(ClientError::Connect { addr: "127.0.0.1:1".parse().unwrap(), reason: "refused".into() });
        assert_eq!(
            after(refused, Comeback { over: true, seated: true, attempt: 1 }),
            Err(Link::Ended(Ended::GameOver))
        );
        assert_eq!(after(Ok(()), Comeback { over: true, seated: true, attempt: 0 }), Err(Link::Ended(Ended::Left)));
    }
}
