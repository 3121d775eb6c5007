//! A bot over the wire: joins a host with the client core, readies up, and plays what the
//! host says is legal, deciding with its game's engine-level bot on its own view — in Bolide
//! its `PlayerView`, in 1000 Bornes its `View` — and nothing else.

use crate::beat;
use crate::game::ClientGame;
use crate::game::Stage;
use crate::net::{Admitted, ClientError, ConnectOptionsOf, SessionOf};
use crate::platform::rt::Instant;
use crate::state::MirrorOf;
use bolide::bots::BotLevel;
use bolide::event::PhotoFinish;
use bolide::{Bolide, Event};
use bolide_table::wire::{ClientMsgOf, FieldCall, FieldLine, FieldTruth, ServerMsgOf, Shown, StandingLine};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Final standings, best first.
pub type Standings = Vec<StandingLine>;

/// A game a bot plays over the wire.
pub trait BotGame: ClientGame {
    /// What identifies one decision point, so the bot answers it once even though every other
    /// seat's action brings a fresh update.
    fn decision(view: &Self::View, legal: &[Self::Action]) -> String;
    /// What the bot picks among `legal` (never empty), seeing `view`; `None` lets it pass.
    fn decide(view: &Self::View, legal: &[Self::Action], level: BotLevel, rng: &mut ChaCha8Rng)
    -> Option<Self::Action>;
    /// In a fairness field run, what every laptop's bot asks in a timed moment so that they
    /// contend (the fairness lab's bots do the same); `None`: what [`BotGame::decide`] picks.
    fn contend(_view: &Self::View, _legal: &[Self::Action]) -> Option<Self::Action> {
        None
    }
}

/// Called with each message the host sent and the mirror it left (the terminal race narrates
/// from it); [`quiet`] for none.
pub type WatchOf<'a, W> = &'a mut (dyn FnMut(&ServerMsgOf<W>, &MirrorOf<W>) + Send);
pub type Watch<'a> = WatchOf<'a, Bolide>;

/// A [`Watch`] that looks at nothing.
pub fn quiet<W: ClientGame>(_: &ServerMsgOf<W>, _: &MirrorOf<W>) {}

/// How a bot's game went.
#[derive(Debug, Clone)]
pub struct PlayedOf<W: ClientGame> {
    pub standings: Standings,
    /// Every event this bot saw (the latest `state::MAX_EVENTS`).
    pub events: Vec<W::Event>,
    /// What it checked of the host's luck (Bolide: every draw seen, checked against the seed
    /// the host revealed at the end).
    pub dice: W::Watch,
    /// Times the bot joined again after losing a connection (with its seat token once it had
    /// one).
    pub reconnects: u32,
}

pub type Played = PlayedOf<Bolide>;

impl PlayedOf<Bolide> {
    /// The photo finish of every grab this bot saw, in order (B-4.3).
    pub fn photo_finishes(&self) -> Vec<PhotoFinish> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::PhotoFinish(photo) => Some(photo.clone()),
                _ => None,
            })
            .collect()
    }
}

/// A game played by a bot that joined whatever the host plays: its standings and comebacks,
/// and the game's own record ([`PlayedOf`]) for whoever knows the game.
#[derive(Debug)]
pub struct PlayedAny {
    /// The game's name.
    pub game: &'static str,
    pub standings: Standings,
    pub reconnects: u32,
    played: Box<dyn std::any::Any + Send>,
}

impl PlayedAny {
    pub fn new<W: ClientGame>(played: PlayedOf<W>) -> PlayedAny {
        PlayedAny {
            game: W::NAME,
            standings: played.standings.clone(),
            reconnects: played.reconnects,
            played: Box::new(played),
        }
    }

    pub fn standings(&self) -> &Standings {
        &self.standings
    }

    /// The game's own record, when it was a game of `W`.
    pub fn of<W: ClientGame>(&self) -> Option<&PlayedOf<W>> {
        self.played.downcast_ref()
    }
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

/// Joins a Bolide table and plays until the championship ends ([`play_as`]).
pub async fn play(
    addr: SocketAddr,
    code: &str,
    name: &str,
    level: BotLevel,
    think: Duration,
    seed: u64,
    watch: Watch<'_>,
) -> Result<Played, ClientError> {
    play_as::<Bolide>(None, addr, code, name, Plan::new(level, think, seed), watch).await
}

/// How a bot plays: its level, its thinking time, its seed, the game it picks in the lobby
/// when it is seated first (`None`: whatever the table plays), and whether it takes part in a
/// fairness field run.
#[derive(Debug, Clone, Copy)]
pub struct Plan<'a> {
    pub level: BotLevel,
    pub think: Duration,
    pub seed: u64,
    pub choose: Option<&'a str>,
    pub field: Option<FieldTest>,
    /// By QUIC, or the host's browser door as a browser's page would come.
    pub via: crate::net::Via,
    /// The address its packets leave from ([`ConnectOptionsOf::from`]); `None`: the system's.
    pub from: Option<std::net::IpAddr>,
}

impl Plan<'_> {
    pub fn new(level: BotLevel, think: Duration, seed: u64) -> Plan<'static> {
        Plan { level, think, seed, choose: None, field: None, via: crate::net::Via::Quic, from: None }
    }
}

impl<'a> Plan<'a> {
    /// The same plan, knocking by `via`.
    pub fn by(self, via: crate::net::Via) -> Plan<'a> {
        Plan { via, ..self }
    }

    /// The same plan, its packets leaving from `ip` (a device of its own on loopback).
    pub fn from_address(self, ip: std::net::IpAddr) -> Plan<'a> {
        Plan { from: Some(ip), ..self }
    }

    /// How this bot knocks: by its door, from its address, for a seat with this protocol's
    /// version.
    pub fn dial(&self) -> crate::net::Dial {
        crate::net::Dial {
            via: self.via,
            version: bolide_table::wire::PROTOCOL_VERSION,
            from: self.from,
            ..crate::net::Dial::default()
        }
    }
}

/// A fairness field run (`bolide-bot --fairness-test`): in each timed moment the bot acts a
/// drawn reaction after it showed the moment (close calls by default, so the host has pairs to
/// order), records what it did on its own clock, and hands the record to the host once the
/// championship is over (`ClientMsg::FieldRecord`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldTest {
    /// Reactions are drawn around this (ms) ...
    pub reaction_ms: f64,
    /// ... this far at most (ms), the distance log-uniform from 10 µs: every gap bucket gets
    /// pairs, as in the lab.
    pub spread_ms: f64,
}

impl Default for FieldTest {
    fn default() -> Self {
        FieldTest { reaction_ms: 250.0, spread_ms: 2.0 }
    }
}

impl FieldTest {
    /// A reaction, µs.
    fn draw(&self, rng: &mut ChaCha8Rng) -> u64 {
        let spread = (self.spread_ms.max(0.02) * 1000.0).log10();
        let magnitude = 10f64.powf(rng.random_range(1.0f64..spread.max(1.0 + f64::EPSILON)));
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        (self.reaction_ms * 1000.0 + sign * magnitude).max(1_000.0) as u64
    }
}

/// How long before the end of a countdown a field run's bot calls (µs): close calls, all
/// before the end of the shortest countdown a host allows for a field run.
const CALL_LEAD_US: std::ops::Range<u64> = 20_000..120_000;

/// How long a bot waits for the host to take its field record and close.
const FIELD_HANDOVER: Duration = Duration::from_secs(30);

/// Joins (or goes on from `admitted`, a connection already past the door) and plays until the
/// game ends. A connection lost once the handshake has checked the host's certificate (so the
/// host is the right one) is taken up again, with the seat token once there is one (the host's
/// stand-in plays meanwhile); a host that cannot be reached at all is an error at once (a
/// wrong address should not make anyone wait).
pub async fn play_as<W: BotGame>(
    mut admitted: Option<Admitted>,
    addr: SocketAddr,
    code: &str,
    name: &str,
    plan: Plan<'_>,
    watch: WatchOf<'_, W>,
) -> Result<PlayedOf<W>, ClientError> {
    let mut token = None;
    let mut reconnects = 0;
    // One client core across the comebacks: what the bot knows of the table, and the draws it
    // saw, go on.
    let options = ConnectOptionsOf::<W> { via: plan.via, from: plan.from, ..ConnectOptionsOf::default() };
    loop {
        let session = match admitted.take() {
            Some(admitted) => admitted.session(options.clone()),
            None => SessionOf::connect_with(addr, code, name, token, options.clone()).await,
        };
        let result = match session {
            Ok(session) => {
                token = token.or(session.state().token);
                play_session(session, plan, &mut *watch).await
            }
            Err(e) => Err(e),
        };
        match result {
            Ok(standings) => {
                let state = options.state.lock();
                let mirror = &state.mirror;
                return Ok(PlayedOf {
                    standings,
                    events: mirror.events.clone(),
                    dice: mirror.dice.clone(),
                    reconnects,
                });
            }
            Err(e @ ClientError::Lost(_)) if reconnects < RECONNECTS => {
                tracing::warn!(%name, %e, reconnects, "connection lost: joining again");
            }
            Err(e @ ClientError::Connect { .. }) if token.is_some() && reconnects < RECONNECTS => {
                tracing::warn!(%name, %e, reconnects, "no way back to the seat yet");
            }
            // Back through the door with the seat token, in the other game's words.
            Err(ClientError::GameChanged { game, .. }) => return Err(ClientError::GameChanged { game, token }),
            Err(e) => return Err(e),
        }
        reconnects += 1;
        COMEBACKS.fetch_add(1, Ordering::Relaxed);
        crate::platform::rt::sleep(Duration::from_secs(u64::from(reconnects))).await;
    }
}

/// Plays an open session to the end of the game.
pub async fn play_session<W: BotGame>(
    mut session: SessionOf<W>,
    plan: Plan<'_>,
    watch: WatchOf<'_, W>,
) -> Result<Standings, ClientError> {
    let Plan { level, think, seed, choose, field, .. } = plan;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // A field run's reactions differ between laptops that run the same bots: drawn from the
    // OS's randomness, not the seat's seed.
    let mut reactions = ChaCha8Rng::seed_from_u64(bolide_link::secret::u64().unwrap_or(seed));
    // The reaction drawn for the moment now open, and the record of the requests made.
    let mut drawn: Option<(u64, u64)> = None;
    let mut record = FieldTruth::default();
    // The end of the countdown now running, as this laptop was told it (its own clock).
    let mut end_us: Option<u64> = None;
    let mut ready_sent = false;
    let mut answered = None;
    // A decision taken, and the timed moment it was taken in, sent once its thinking time is
    // over (heartbeats go on meanwhile).
    let mut pending: Option<(Instant, W::Action, Option<u64>)> = None;
    // After a refusal, the next decision waits until then.
    let mut calm_until = Instant::now();
    loop {
        let msg = tokio::select! {
            msg = session.next() => msg?,
            _ = sleep_until(pending.map(|p| p.0)) => {
                let Some((_, action, moment)) = pending.take() else { continue };
                let now_us = session.now_us();
                let shown = session.state().shown(now_us);
                let legal = session.state().mirror.legal.contains(&action);
                // In the moment it was decided in, a timed request goes even if what it asks
                // went meanwhile: the host's arbiter says who was faster.
                match shown.filter(|s| W::timed(&action) && Some(s.moment) == moment) {
                    Some(shown) => {
                        let shown_us = shown.at_us.min(now_us);
                        let seq = session.timed(action, shown_us, now_us).await?;
                        if field.is_some() {
                            record.request(FieldLine { seq, moment: shown.moment, shown_us, input_us: now_us });
                        }
                    }
                    None if legal => {
                        let seq = session.act_at(action, now_us).await?;
                        // A call under a countdown: the host orders it by how long before the
                        // end this laptop called.
                        let counting_down = session.state().mirror.view.as_ref().map(W::stage) == Some(Stage::Countdown);
                        if let Some(end_us) = end_us.filter(|_| field.is_some() && counting_down) {
                            record.call(FieldCall { seq, end_us, at_us: now_us });
                        }
                    }
                    // The moment passed while thinking: decide again on what is known now.
                    None => answered = None,
                }
                continue;
            }
        };
        watch(&msg, &session.state().mirror);
        if let ServerMsgOf::Update { countdown_end_us, .. } = &msg {
            end_us = *countdown_end_us;
        }
        match &msg {
            // Seated first in the lobby of another game than the one it came to play: it picks
            // its game (the host closes every connection, and `games::Registry::play` joins the new lobby).
            ServerMsgOf::Lobby(lobby)
                if !lobby.started
                    && !ready_sent
                    && lobby.you == Some(bolide_table::Seat(0))
                    && choose.is_some_and(|g| g != <W as bolide_table::Words>::NAME) =>
            {
                session.send(&ClientMsgOf::ChooseGame(choose.unwrap_or_default().to_string())).await?;
                ready_sent = true;
            }
            ServerMsgOf::Lobby(lobby) if !lobby.started && !ready_sent && session.state().mirror.seat.is_some() => {
                session.send(&ClientMsgOf::Ready(true)).await?;
                ready_sent = true;
            }
            ServerMsgOf::Finished { standings } => {
                let standings = standings.clone();
                if field.is_some() {
                    // The truth goes to the host only now: nothing of it was known during play.
                    session.send(&ClientMsgOf::FieldRecord(std::mem::take(&mut record))).await?;
                    hand_over(&mut session).await;
                }
                session.close().await;
                return Ok(standings);
            }
            // A refusal (a pawn someone was faster to): decide again on what is known now.
            ServerMsgOf::ActRefused { .. } => {
                answered = None;
                // Not at once: a refusal that comes again would otherwise loop as fast as the
                // link goes (and the host closes a client over 50 messages a second).
                calm_until = Instant::now() + REFUSAL_PAUSE;
            }
            ServerMsgOf::Update { .. } => {
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
        let key = W::decision(view, legal);
        if answered.as_ref() == Some(&key) {
            continue;
        }
        answered = Some(key);
        let contended = field.and_then(|_| W::contend(view, legal));
        let counting_down = W::stage(view) == Stage::Countdown;
        let Some(action) = contended.or_else(|| W::decide(view, legal, level, &mut rng)) else { continue };
        // A new decision point while still thinking about the last one (a grab where a pawn
        // just went): the new choice keeps the thinking already done.
        let moment = W::moment(view);
        drop(state);
        let mut at = pending.map_or_else(|| (Instant::now() + think).max(calm_until), |p| p.0);
        // A field run acts in a timed moment its drawn reaction after showing it.
        if let (Some(field), Some(moment)) = (field, moment.filter(|_| W::timed(&action))) {
            let now_us = session.now_us();
            if let Some(shown) = session.state().shown(now_us).filter(|s| s.moment == moment) {
                let reaction = match drawn {
                    Some((m, r)) if m == moment => r,
                    _ => drawn.insert((moment, field.draw(&mut reactions))).1,
                };
                let until = shown.at_us.saturating_add(reaction).saturating_sub(now_us);
                at = Instant::now() + Duration::from_micros(until);
            }
        }
        // And calls under a countdown a drawn time before its end, on this laptop's countdown.
        if let (Some(_), Some(end_us), true) = (field, end_us, counting_down) {
            let lead = reactions.random_range(CALL_LEAD_US);
            let until = end_us.saturating_sub(lead).saturating_sub(session.now_us());
            at = Instant::now() + Duration::from_micros(until);
        }
        pending = Some((at, action, moment));
    }
}

/// After handing in its field record, a bot waits for the host to close the connection (it
/// does once it has every laptop's record, or has waited long enough), so that the record is
/// not lost with a close of its own.
async fn hand_over<W: ClientGame>(session: &mut SessionOf<W>) {
    let _ = crate::platform::rt::timeout(FIELD_HANDOVER, async {
        while let Ok(msg) = session.next().await {
            if let ServerMsgOf::LobbyRefused { reason } = msg {
                tracing::warn!(%reason, "the host did not take the field record");
                return;
            }
        }
    })
    .await;
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => crate::platform::rt::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
