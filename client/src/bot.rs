//! A bot over the wire: joins a host with the client core, readies up, and plays what the
//! host says is legal with an engine-level bot reading its own `PlayerView`.

use crate::beat;
use crate::net::{ClientError, ConnectOptions, Session};
use crate::state::Mirror;
use bolide_bots::{BotLevel, Decide};
use bolide_protocol::dice::DiceWatch;
use bolide_protocol::event::PhotoFinish;
use bolide_protocol::view::PhaseView;
use bolide_protocol::wire::{ClientMsg, ServerMsg, Shown, StandingLine};
use bolide_protocol::{Action, Event, PlayerView};
use rand::SeedableRng;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// Final standings, best first.
pub type Standings = Vec<StandingLine>;

/// What identifies one decision point, so the bot answers it once even though every other
/// seat's action brings a fresh update.
fn decision_key(view: &PlayerView, legal: &[Action]) -> (u8, u16, String, Vec<Action>) {
    (view.race, view.round, format!("{:?}{:?}", view.phase, view.turn), legal.to_vec())
}

/// Called with each message the host sent and the mirror it left (the terminal race narrates
/// from it); [`quiet`] for none.
pub type Watch<'a> = &'a mut (dyn FnMut(&ServerMsg, &Mirror) + Send);

/// A [`Watch`] that looks at nothing.
pub fn quiet(_: &ServerMsg, _: &Mirror) {}

/// How a bot's championship went.
#[derive(Debug, Clone)]
pub struct Played {
    pub standings: Standings,
    /// The photo finish of every grab this bot saw, in order (B-4.3).
    pub photo_finishes: Vec<PhotoFinish>,
    /// Every draw this bot saw, checked against the seed the host revealed at the end.
    pub dice: DiceWatch,
    /// Times the bot joined again after losing a connection (with its seat token once it had
    /// one).
    pub reconnects: u32,
}

/// How long a bot waits after a refusal before it tries again.
const REFUSAL_PAUSE: Duration = Duration::from_millis(100);

/// Comebacks a bot attempts after losing a connection (a Wi-Fi blip, a host too busy to
/// answer for seconds), one second more apart each time.
const RECONNECTS: u32 = 5;

/// Comebacks made by every bot of this process (for load reports).
static COMEBACKS: AtomicU64 = AtomicU64::new(0);

/// How many times the bots of this process lost a connection and tried again.
pub fn comebacks() -> u64 {
    COMEBACKS.load(Ordering::Relaxed)
}

/// Joins and plays until the championship ends. A connection lost once the handshake has
/// checked the host's certificate (so the host is the right one) is taken up again, with the
/// seat token once there is one (the host's stand-in plays meanwhile); a host that cannot be
/// reached at all is an error at once (a wrong address should not make anyone wait).
pub async fn play(
    addr: SocketAddr,
    code: &str,
    name: &str,
    level: BotLevel,
    think: Duration,
    seed: u64,
    watch: Watch<'_>,
) -> Result<Played, ClientError> {
    let mut token = None;
    let mut reconnects = 0;
    // One client core across the comebacks: what the bot knows of the table, and the draws it
    // saw, go on.
    let options = ConnectOptions::default();
    loop {
        let result = match Session::connect_with(addr, code, name, token, options.clone()).await {
            Ok(session) => {
                token = token.or(session.state().token);
                play_session(session, level, think, seed, &mut *watch).await
            }
            Err(e) => Err(e),
        };
        match result {
            Ok(standings) => {
                let state = options.state.lock();
                let photo_finishes = state
                    .mirror
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        Event::PhotoFinish(photo) => Some(photo.clone()),
                        _ => None,
                    })
                    .collect();
                return Ok(Played { standings, photo_finishes, dice: state.mirror.dice.clone(), reconnects });
            }
            Err(e @ ClientError::Lost(_)) if reconnects < RECONNECTS => {
                tracing::warn!(%name, %e, reconnects, "connection lost: joining again");
            }
            Err(e @ ClientError::Connect { .. }) if token.is_some() && reconnects < RECONNECTS => {
                tracing::warn!(%name, %e, reconnects, "no way back to the seat yet");
            }
            Err(e) => return Err(e),
        }
        reconnects += 1;
        COMEBACKS.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(u64::from(reconnects))).await;
    }
}

/// Plays an open session to the end of the championship.
pub async fn play_session(
    mut session: Session,
    level: BotLevel,
    think: Duration,
    seed: u64,
    watch: Watch<'_>,
) -> Result<Standings, ClientError> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut ready_sent = false;
    let mut answered = None;
    // A decision taken, sent once its thinking time is over (heartbeats go on meanwhile).
    let mut pending: Option<(Instant, Action)> = None;
    // After a refusal, the next decision waits until then.
    let mut calm_until = Instant::now();
    loop {
        let phase = session.state().mirror.view.as_ref().map(|v| v.phase);
        let msg = tokio::select! {
            msg = session.next() => msg?,
            _ = sleep_until(pending.map(|p| p.0)) => {
                let Some((_, action)) = pending.take() else { continue };
                let now_us = session.now_us();
                let shown = session.state().shown(now_us);
                let timed = matches!(
                    (action, phase),
                    (Action::TakePawn { .. }, Some(PhaseView::Grab))
                        | (Action::Echange { .. } | Action::KeepPawn, Some(PhaseView::Echange))
                );
                let legal = session.state().mirror.legal.contains(&action);
                match shown.filter(|_| timed) {
                    Some(shown) if legal || phase == Some(PhaseView::Grab) => {
                        session.timed(action, shown.at_us.min(now_us), now_us).await?;
                    }
                    _ if legal => {
                        session.act(action).await?;
                    }
                    // The moment passed while thinking: decide again on what is known now.
                    _ => answered = None,
                }
                continue;
            }
        };
        watch(&msg, &session.state().mirror);
        match &msg {
            ServerMsg::Lobby(lobby) if !lobby.started && !ready_sent && session.state().mirror.seat.is_some() => {
                session.send(&ClientMsg::Ready(true)).await?;
                ready_sent = true;
            }
            ServerMsg::Finished { standings } => {
                let standings = standings.clone();
                session.close().await;
                return Ok(standings);
            }
            // A refusal (a pawn someone was faster to): decide again on what is known now.
            ServerMsg::ActRefused { .. } => {
                answered = None;
                // Not at once: a refusal that comes again would otherwise loop as fast as the
                // link goes (and the host closes a client over 50 messages a second).
                calm_until = Instant::now() + REFUSAL_PAUSE;
            }
            ServerMsg::Update { .. } => {
                if let Some(moment) = beat::opened(&msg, session.now_us()) {
                    // Show at the scheduled instant (fairness.md §2, §6), or at once if late.
                    session.wait_until_us(moment.at_us).await?;
                    let at_us = session.now_us();
                    session.state().show(Shown { at_us, ..moment });
                }
            }
            _ => {}
        }
        let state = session.state();
        let (Some(view), legal) = (&state.mirror.view, &state.mirror.legal) else { continue };
        if legal.is_empty() {
            continue;
        }
        let key = decision_key(view, legal);
        if answered.as_ref() == Some(&key) {
            continue;
        }
        answered = Some(key);
        let choice = if view.phase == PhaseView::CupDown {
            level.decide(view, &[Action::Klaxon], &mut rng).filter(|_| legal.contains(&Action::Klaxon))
        } else {
            level.decide(view, legal, &mut rng)
        };
        let Some(action) = choice else { continue };
        // A new decision point while still thinking about the last one (a grab where a pawn
        // just went): the new choice keeps the thinking already done.
        let at = pending.map_or_else(|| (Instant::now() + think).max(calm_until), |p| p.0);
        pending = Some((at, action));
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
