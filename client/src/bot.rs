//! A bot over the wire: joins a host with the client core, readies up, and plays what the
//! host says is legal with an engine-level bot reading its own `PlayerView`.

use crate::net::{ClientError, Session};
use bolide_host::bots::BotLevel;
use bolide_protocol::view::PhaseView;
use bolide_protocol::wire::{ClientMsg, ServerMsg, StandingLine};
use bolide_protocol::{Action, PlayerView};
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

/// Joins and plays until the championship ends; returns the final standings.
pub async fn play(
    addr: SocketAddr,
    code: &str,
    name: &str,
    level: BotLevel,
    think: Duration,
    seed: u64,
) -> Result<Standings, ClientError> {
    let mut session = Session::connect(addr, code, name, None).await?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut ready_sent = false;
    let mut answered = None;
    loop {
        let msg = session.next().await?;
        match msg {
            ServerMsg::Lobby(lobby) if !lobby.started && !ready_sent && session.seat.is_some() => {
                session.send(&ClientMsg::Ready(true)).await?;
                ready_sent = true;
            }
            ServerMsg::Finished { standings } => {
                session.close().await;
                return Ok(standings);
            }
            // A refusal (a pawn someone was faster to): decide again on what is known now.
            ServerMsg::ActRefused { .. } => answered = None,
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
        if let Some(action) = choice {
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
            session.act(action).await?;
        }
    }
}
