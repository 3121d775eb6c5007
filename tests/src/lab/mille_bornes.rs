//! The lab learns the Coup-Fourré (M-15): the real host serving 1000 Bornes and bot laptops
//! over real QUIC on 127.0.0.1, each with the flawed path and clock the lab gives Bolide's
//! (`flawed_laptop`). A bot whose side is attacked and that holds the safety calls after a
//! drawn reaction (M-15.11), measured on this process's clock from the frame that showed the
//! attack (lab hands keep their safeties for it, so that windows meet holders often); the
//! lab compares the reaction the host published with it, counts calls made in
//! time that the host refused, and checks that nothing a window's laptops say or are sent
//! depends on whether anyone at the table holds the safety.

use super::{LabClock, LabConfig, Percentiles, draw_reaction, flawed_laptop, percentiles, spin_to};
use bolide_client::bot::BotGame;
use bolide_client::net::{ConnectOptionsOf, SessionOf};
use bolide_host::net::{Identity, Journal, Server};
use bolide_host::room::RoomConfigOf;
use bolide_table::wire::{self, ClientMsgOf, ServerMsgOf, Shown};
use bolide_table::{BotLevel, Seat};
use mille_bornes::partie::window_moment;
use mille_bornes::{Action, Event, MilleBornes, Partie, Phase};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// M-15.3: the lab's window, the shortest the rules allow (the hardest to call in).
const WINDOW_MS: u16 = 2_000;
/// What a laptop says in a window is compared over its first stretch: before any hand's call
/// (reactions are drawn from 1 ms, but around `--reaction-ms`).
const COMPARED_MS: u64 = 100;

/// One laptop's side of one window, as it saw it.
#[derive(Debug, Clone)]
struct Seen {
    /// The opening update's frame, bytes; and of it, what is not the view (its events, what
    /// may be done, its times): the view differs from window to window with the cards, this
    /// should not.
    opening_bytes: usize,
    envelope_bytes: usize,
    /// Heartbeats it sent in the window's first [`COMPARED_MS`].
    beats: u64,
    /// Whether its seat is on the attacked side.
    attacked: bool,
}

/// A call as it truly happened.
#[derive(Debug, Clone, Copy)]
struct TrueCall {
    seat: u8,
    reaction_us: f64,
    /// The input came within the window on the laptop's own clock.
    in_time: bool,
}

#[derive(Default)]
struct Truth {
    /// The game being played (the lab plays game after game until it has seen enough
    /// windows); windows are named by it and the host's name for them.
    game: u32,
    windows_seen: usize,
    /// window → whether a seat of the table held the safety that answers it.
    held: BTreeMap<(u32, u64), bool>,
    /// window → each laptop's view of it.
    seen: BTreeMap<(u32, u64), Vec<Seen>>,
    /// window → the call made in it.
    calls: BTreeMap<(u32, u64), TrueCall>,
    /// Windows whose call the host refused to its laptop.
    refused: Vec<(u32, u64)>,
}

/// What a population of windows showed on the wire.
#[derive(Debug, Clone, Serialize)]
pub struct Population {
    pub windows: usize,
    /// Laptop observations (one per laptop per window).
    pub seen: usize,
    /// The opening update's size, bytes: its distinct values (by the attacked side and the
    /// rest), and their mean.
    pub opening_bytes_mean: f64,
    /// The opening update's size without its view, bytes: distinct values on the attacked
    /// side, and on the others.
    pub envelope_bytes_attacked: Vec<usize>,
    pub envelope_bytes_others: Vec<usize>,
    /// Heartbeats a laptop of the attacked side sent in the window's first 100 ms, mean; and
    /// of the other sides.
    pub beats_attacked: f64,
    pub beats_others: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct CoupFourreReport {
    pub config: LabConfig,
    pub window_ms: u16,
    pub windows: usize,
    pub calls: usize,
    /// Calls the host judged with the laptop's own timing.
    pub judged: usize,
    /// Published reaction − true reaction, ms (p50, p99, p99.9), and its size's p99.
    pub reaction_error_ms: Option<Percentiles>,
    pub reaction_error_abs_p99_ms: Option<f64>,
    /// Calls made within the window on the caller's clock that the host refused.
    pub in_time_refused: usize,
    /// The leak check: windows where a seat held the safety, and where none did.
    pub held: Population,
    pub not_held: Population,
    pub seconds: f64,
}

/// Runs the Coup-Fourré lab: `config.players` laptops (2, 3, 4, 6 or 8) until `config.rounds`
/// windows have opened.
pub async fn run(config: LabConfig) -> anyhow::Result<CoupFourreReport> {
    let started = Instant::now();
    let truth = Arc::new(Mutex::new(Truth::default()));
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let limit = Instant::now() + Duration::from_secs(60 + config.rounds as u64 * 10);
    let mut errors = Vec::new();
    let mut judged = 0;
    // Game after game (to 20 000, the longest the rules allow) until enough windows opened.
    while truth.lock().expect("truth").windows_seen <= config.rounds && Instant::now() < limit {
        let log = play_game(&config, &mut rng, &truth, limit).await?;
        let mut truth = truth.lock().expect("truth");
        for record in log.iter().filter(|r| r.judged && r.timed) {
            judged += 1;
            if let Some(call) = truth.calls.get(&(truth.game, record.moment)).filter(|c| c.seat == record.seat.0) {
                errors.push((record.reaction_us as f64 - call.reaction_us) / 1000.0);
            }
        }
        truth.game += 1;
    }
    let truth = std::mem::take(&mut *truth.lock().expect("truth"));
    let abs_p99 = (!errors.is_empty()).then(|| percentiles(errors.iter().map(|e| e.abs()).collect()).p99);
    let in_time_refused = truth.refused.iter().filter(|w| truth.calls.get(w).is_some_and(|c| c.in_time)).count();
    let population = |held: bool| {
        let windows: Vec<&Vec<Seen>> = truth
            .seen
            .iter()
            .filter(|(w, _)| truth.held.get(w).copied().unwrap_or(false) == held)
            .map(|(_, s)| s)
            .collect();
        let seen: Vec<&Seen> = windows.iter().flat_map(|s| s.iter()).collect();
        let mean = |v: Vec<f64>| if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 };
        let distinct = |attacked: bool| {
            let mut v: Vec<usize> = seen.iter().filter(|s| s.attacked == attacked).map(|s| s.envelope_bytes).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        Population {
            windows: windows.len(),
            seen: seen.len(),
            envelope_bytes_attacked: distinct(true),
            envelope_bytes_others: distinct(false),
            opening_bytes_mean: mean(seen.iter().map(|s| s.opening_bytes as f64).collect()),
            beats_attacked: mean(seen.iter().filter(|s| s.attacked).map(|s| s.beats as f64).collect()),
            beats_others: mean(seen.iter().filter(|s| !s.attacked).map(|s| s.beats as f64).collect()),
        }
    };
    Ok(CoupFourreReport {
        window_ms: WINDOW_MS,
        windows: truth.seen.len(),
        calls: truth.calls.len(),
        judged,
        reaction_error_ms: (!errors.is_empty()).then(|| percentiles(errors)),
        reaction_error_abs_p99_ms: abs_p99,
        in_time_refused,
        held: population(true),
        not_held: population(false),
        seconds: started.elapsed().as_secs_f64(),
        config,
    })
}

/// One game on a fresh host, until it ends, enough windows opened or `limit`: the host's
/// verdicts.
async fn play_game(
    config: &LabConfig,
    rng: &mut ChaCha8Rng,
    truth: &Arc<Mutex<Truth>>,
    limit: Instant,
) -> anyhow::Result<Vec<bolide_host::room::FairRecord<Action>>> {
    let dir = std::env::temp_dir().join(format!("bolide-lab-mb-{}", std::process::id()));
    let identity = Identity::load_or_create(&dir.join("identity"))?;
    let server = Server::bind("127.0.0.1:0".parse()?, &identity)?;
    let mode = mille_bornes::options::GameMode::Points { target: 20_000 };
    let game = mille_bornes::Settings { window_ms: WINDOW_MS, mode, ..mille_bornes::Settings::default() };
    let lobby = mille_bornes::Lobby { game, bots: 0, bot_level: BotLevel::Strategic, places: Vec::new() };
    let mut room = RoomConfigOf::new("LAB", lobby, rng.random());
    room.turn_timeout_ms = 20_000;
    room.moment_timeout_ms = 5_000;
    let code = server.add_room::<Partie>(room, Journal::None, None)?;
    let addr = server.local_addr();
    let mut sessions = Vec::new();
    for i in 0..config.players {
        let (socket, clock) = flawed_laptop(config, i, rng)?;
        let options =
            ConnectOptionsOf::<MilleBornes> { clock: clock.clone(), socket: Some(socket), ..Default::default() };
        let session = SessionOf::connect_with(addr, &code, &format!("lab{i}"), None, options).await?;
        anyhow::ensure!(session.state().mirror.seat == Some(Seat(i as u8)), "lab laptop {i} got another seat");
        sessions.push((session, clock));
    }
    // Everyone seated, and the host's first probe burst passed, before anyone readies.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let mut tasks = Vec::new();
    for (i, (session, clock)) in sessions.into_iter().enumerate() {
        let (truth, config) = (truth.clone(), config.clone());
        let seed = rng.random();
        tasks.push(tokio::spawn(async move { laptop(i as u8, session, clock, truth, config, seed).await }));
    }
    while truth.lock().expect("truth").windows_seen <= config.rounds && Instant::now() < limit {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if tasks.iter().all(|t| t.is_finished()) {
            break;
        }
    }
    for t in &tasks {
        t.abort();
    }
    let log = server.fair_log.records::<Action>();
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(log)
}

/// The window a laptop showed: its name, when (its clock and this process's), and its beats
/// then.
#[derive(Clone, Copy)]
struct Showing {
    moment: u64,
    at_us: u64,
    at: Instant,
    beats: u64,
}

/// One laptop: plays its turns with the strategic bot at once, and in a window of its side
/// holding the safety calls after a drawn reaction.
async fn laptop(
    me: u8,
    mut session: SessionOf<MilleBornes>,
    clock: Arc<LabClock>,
    truth: Arc<Mutex<Truth>>,
    config: LabConfig,
    seed: u64,
) -> anyhow::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut answered = None;
    let mut showing: Option<Showing> = None;
    // The window's first stretch to count beats over, and the call to make.
    let (mut count_until, mut call_at): (Option<(Instant, usize)>, Option<Instant>) = (None, None);
    let mut call_seq: Option<(u32, u64)> = None;
    let far = Instant::now() + Duration::from_secs(86_400);
    loop {
        let wake = [count_until.map(|c| c.0), call_at].into_iter().flatten().min().unwrap_or(far);
        let msg = tokio::select! {
            msg = session.next() => Some(msg?),
            _ = tokio::time::sleep_until(wake.into()) => None,
        };
        if let (Some((until, index)), Some(show)) = (count_until, showing)
            && Instant::now() >= until
        {
            count_until = None;
            let beats = session.beats_sent() - show.beats;
            let mut truth = truth.lock().expect("truth");
            let game = truth.game;
            if let Some(seen) = truth.seen.get_mut(&(game, show.moment)).and_then(|s| s.get_mut(index)) {
                seen.beats = beats;
            }
        }
        if let (Some(at), Some(show)) = (call_at, showing)
            && Instant::now() + Duration::from_millis(2) >= at
        {
            call_at = None;
            let input_t = spin_to(at);
            let input_us = clock.at(input_t) as u64;
            let reaction_us = input_t.duration_since(show.at).as_micros() as f64;
            let in_time = input_us.saturating_sub(show.at_us) < u64::from(WINDOW_MS) * 1000;
            {
                let mut truth = truth.lock().expect("truth");
                let game = truth.game;
                truth.calls.insert((game, show.moment), TrueCall { seat: me, reaction_us, in_time });
            }
            let seq = session.timed(Action::CoupFourre, show.at_us, input_us).await?;
            call_seq = Some((seq, show.moment));
        }
        let Some(msg) = msg else { continue };
        match &msg {
            ServerMsgOf::Lobby(l)
                if !l.started && l.seats.iter().any(|s| Some(s.seat) == session.state().mirror.seat && !s.ready) =>
            {
                session.send(&ClientMsgOf::Ready(true)).await?
            }
            ServerMsgOf::Finished { .. } => return Ok(()),
            ServerMsgOf::ActRefused { seq, .. } if call_seq.is_some_and(|(s, _)| s == *seq) => {
                if let Some((_, moment)) = call_seq.take() {
                    let mut truth = truth.lock().expect("truth");
                    let game = truth.game;
                    truth.refused.push((game, moment));
                }
            }
            ServerMsgOf::Update { events, view, legal, show_at_us, .. } => {
                if let Some(Event::WindowOpened { side, .. }) =
                    events.iter().find(|e| matches!(e, Event::WindowOpened { .. }))
                {
                    if let Some(at) = show_at_us {
                        session.wait_until_us(*at).await?;
                    }
                    let at = Instant::now();
                    let at_us = clock.at(at) as u64;
                    let moment = window_moment(view.hand_number, view.attacks);
                    session.state().show(Shown { moment, at_us });
                    let show = Showing { moment, at_us, at, beats: session.beats_sent() };
                    showing = Some(show);
                    let attacked = mille_bornes::manche::side_of(Seat(me), view.sides) == *side;
                    // Offered to the whole attacked side (M-15.5): this hand calls if it holds.
                    let holds = match view.phase {
                        Phase::Window { attack, .. } => {
                            legal.contains(&Action::CoupFourre) && view.hand.contains(&attack.safety().card())
                        }
                        _ => false,
                    };
                    let opening_bytes = wire::encode(&msg).len();
                    let envelope_bytes = opening_bytes - wire::encode(&**view).len();
                    let index = {
                        let mut truth = truth.lock().expect("truth");
                        if me == 0 {
                            truth.windows_seen += 1;
                        }
                        let game = truth.game;
                        *truth.held.entry((game, moment)).or_default() |= holds;
                        let seen = truth.seen.entry((game, moment)).or_default();
                        seen.push(Seen { opening_bytes, envelope_bytes, beats: 0, attacked });
                        seen.len() - 1
                    };
                    count_until = Some((at + Duration::from_millis(COMPARED_MS), index));
                    if holds {
                        call_at = Some(at + Duration::from_micros(draw_reaction(&config, &mut rng)));
                    }
                }
                if !matches!(view.phase, Phase::Window { .. }) {
                    call_at = None;
                }
            }
            _ => {}
        }
        // Its turns: the strategic bot, at once.
        let decided = {
            let state = session.state();
            let (Some(v), legal) = (&state.mirror.view, &state.mirror.legal) else { continue };
            if legal.is_empty() || matches!(v.phase, Phase::Window { .. }) {
                continue;
            }
            let key = MilleBornes::decision(v, legal);
            if answered.as_ref() == Some(&key) {
                continue;
            }
            answered = Some(key);
            // A lab hand keeps its safeties for a Coup-Fourré (never laid or discarded while
            // anything else may be done): more windows meet a holder.
            let keeps: Vec<Action> = legal.iter().copied().filter(|a| !lays_a_safety(a)).collect();
            let choices = if keeps.is_empty() { legal } else { &keeps };
            mille_bornes::bots::decide_among(v, Seat(me), BotLevel::Strategic, choices, &mut rng)
        };
        if let Some(action) = decided {
            session.act(action).await?;
        }
    }
}

/// Whether `action` lays or discards a safety.
fn lays_a_safety(action: &Action) -> bool {
    match action {
        Action::Play { card, .. } | Action::Discard { card } => {
            matches!(card.family(), mille_bornes::Family::Safety(_))
        }
        Action::CoupFourre => false,
    }
}

/// The report as a table.
pub fn table(r: &CoupFourreReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Coup-Fourré lab: {} windows of {} ms, {} calls ({} judged on the caller's clock), {:.0} s",
        r.windows, r.window_ms, r.calls, r.judged, r.seconds
    );
    if let (Some(e), Some(abs)) = (&r.reaction_error_ms, r.reaction_error_abs_p99_ms) {
        let _ = writeln!(
            out,
            "published − true reaction: p50 {:+.3} ms, p99 {:+.3} ms, p99.9 {:+.3} ms; |error| p99 {abs:.3} ms (goal ≤ 1 ms)",
            e.p50, e.p99, e.p999
        );
    }
    let _ = writeln!(out, "calls made in time and refused: {} (goal 0)", r.in_time_refused);
    for (name, p) in [("someone holds the safety", &r.held), ("nobody holds it", &r.not_held)] {
        let _ = writeln!(
            out,
            "{name:>25}: {} windows; opening update mean {:.1} B, without its view {:?} B (attacked side) / {:?} B (others); beats in the first {COMPARED_MS} ms {:.2} (attacked) / {:.2} (others)",
            p.windows,
            p.opening_bytes_mean,
            p.envelope_bytes_attacked,
            p.envelope_bytes_others,
            p.beats_attacked,
            p.beats_others
        );
    }
    out
}
