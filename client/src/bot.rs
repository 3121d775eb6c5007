//! A bot over the wire: joins a host with the client core, readies up, and plays what the
//! host says is legal with an engine-level bot reading its own `PlayerView`.

use crate::net::{ClientError, Session};
use bolide_host::bots::BotLevel;
use bolide_protocol::view::PhaseView;
use bolide_protocol::wire::{ClientMsg, ServerMsg, StandingLine};
use bolide_protocol::{Action, Event, PlayerView};
use rand::SeedableRng;
use std::net::SocketAddr;
use std::time::Duration;

/// Final standings, best first.
pub type Standings = Vec<StandingLine>;

/// What identifies one decision point, so the bot answers it once even though every other
/// seat's action brings a fresh update.
fn decision_key(view: &PlayerView, legal: &[Action]) -> (u8, u16, String, Vec<Action>) {
    (view.race, view.round, format!("{:?}{:?}", view.phase, view.turn), legal.to_vec())
}

/// How often a client tells the host its clock during a grab: a commit waits up to one
/// interval for the slowest seat's next heartbeat.
pub const HEARTBEAT: Duration = Duration::from_millis(5);
/// How often while the cup is down: it only settles the Klaxon order after the lift, so
/// a coarser beat keeps a busy host light (a Klaxon order then settles up to 25 ms later).
pub const HEARTBEAT_CUP_DOWN: Duration = Duration::from_millis(25);

/// Joins and plays until the championship ends; returns the final standings.
pub async fn play(
    addr: SocketAddr,
    code: &str,
    name: &str,
    level: BotLevel,
    think: Duration,
    seed: u64,
) -> Result<Standings, ClientError> {
    let session = Session::connect(addr, code, name, None).await?;
    play_session(session, level, think, seed).await
}

/// Plays an open session to the end of the championship.
pub async fn play_session(
    mut session: Session,
    level: BotLevel,
    think: Duration,
    seed: u64,
) -> Result<Standings, ClientError> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut ready_sent = false;
    let mut answered = None;
    // When this client showed the current round's reservoirs (its own clock).
    let mut shown: Option<u64> = None;
    let mut beat = tokio::time::interval(HEARTBEAT);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut last_beat = tokio::time::Instant::now();
    loop {
        let phase = session.mirror.view.as_ref().map(|v| v.phase);
        let holds_pawn = session.mirror.view.as_ref().and_then(|v| session.seat.map(|s| v.car(s).pawn.is_some()));
        // Heartbeats while the cup is down (Klaxon calls) and while this seat still grabs.
        let beating = session.seat.is_some()
            && (phase == Some(PhaseView::CupDown) || (phase == Some(PhaseView::Grab) && holds_pawn == Some(false)));
        let msg = tokio::select! {
            msg = session.next() => msg?,
            _ = beat.tick(), if beating => {
                let every = if phase == Some(PhaseView::Grab) { HEARTBEAT } else { HEARTBEAT_CUP_DOWN };
                if last_beat.elapsed() + Duration::from_millis(1) >= every {
                    last_beat = tokio::time::Instant::now();
                    session.heartbeat(shown.filter(|_| phase == Some(PhaseView::Grab))).await?;
                }
                continue;
            }
        };
        match &msg {
            ServerMsg::Lobby(lobby) if !lobby.started && !ready_sent && session.seat.is_some() => {
                session.send(&ClientMsg::Ready(true)).await?;
                ready_sent = true;
            }
            ServerMsg::Finished { standings } => {
                let standings = standings.clone();
                session.close().await;
                return Ok(standings);
            }
            // A refusal (a pawn someone was faster to): decide again on what is known now.
            ServerMsg::ActRefused { .. } => answered = None,
            ServerMsg::Update { events, show_at_us, .. } => {
                if events.iter().any(|e| matches!(e, Event::RoundStarted { .. })) {
                    shown = None;
                }
                if events.iter().any(|e| matches!(e, Event::ReservoirsRevealed { .. })) {
                    // Show at the scheduled instant (fairness.md §2), or at once if late.
                    if let Some(at) = *show_at_us {
                        let now = session.now_us();
                        if at > now {
                            tokio::time::sleep(Duration::from_micros(at - now)).await;
                        }
                    }
                    shown = Some(session.now_us());
                }
            }
            _ => {}
        }
        let (Some(view), legal) = (&session.mirror.view, &session.mirror.legal) else { continue };
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
        if !think.is_zero() {
            tokio::time::sleep(think).await;
        }
        match (action, view.phase, shown) {
            (Action::TakePawn { pawn }, PhaseView::Grab, Some(shown)) => {
                let input = session.now_us();
                session.grab(pawn, shown, input).await?;
            }
            _ => {
                session.act(action).await?;
            }
        }
    }
}
