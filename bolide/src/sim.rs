//! Bot races without a network: the same engine entry point, the grab decided by drawing
//! each bot's reaction order (what the arbiter does with real timestamps).

use crate::bots::{BotLevel, Decide, SeatSight};
use crate::circuits;
use crate::game::{Phase, Race, RaceSetup};
use crate::{Action, Event, FirstPlayer, RuleError, Seat};
use rand::{Rng, RngExt};
use serde::Serialize;

/// What one race came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RaceOutcome {
    pub rounds: u16,
    pub winner: Option<Seat>,
    pub tokens: TokenUse,
    pub actions: u32,
}

/// Special tokens played (B-5.7), by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TokenUse {
    pub klaxon: u32,
    pub as_de_la_route: u32,
    pub nitro: u32,
    pub second_chance: u32,
    pub raccourci: u32,
    pub aspiration: u32,
    pub assistance: u32,
    pub huile: u32,
    pub echange: u32,
    pub panne_seche: u32,
}

impl TokenUse {
    fn count(&mut self, event: &Event) {
        match event {
            Event::KlaxonCalled { .. } => self.klaxon += 1,
            Event::AsDeLaRoute { .. } => self.as_de_la_route += 1,
            Event::Nitro { .. } => self.nitro += 1,
            Event::SecondChance { .. } => self.second_chance += 1,
            Event::Raccourci { .. } => self.raccourci += 1,
            Event::Aspiration { .. } => self.aspiration += 1,
            Event::Assistance { .. } => self.assistance += 1,
            Event::Huile { .. } => self.huile += 1,
            Event::Echanged { .. } => self.echange += 1,
            Event::PanneSeche { .. } => self.panne_seche += 1,
            _ => {}
        }
    }

    pub fn add(&mut self, other: &TokenUse) {
        self.klaxon += other.klaxon;
        self.as_de_la_route += other.as_de_la_route;
        self.nitro += other.nitro;
        self.second_chance += other.second_chance;
        self.raccourci += other.raccourci;
        self.aspiration += other.aspiration;
        self.assistance += other.assistance;
        self.huile += other.huile;
        self.echange += other.echange;
        self.panne_seche += other.panne_seche;
    }
}

/// The next actions the bots at this table play, in order, into `out` (cleared first); empty
/// when the race is over. `rng` stands for everything the engine does not decide: who calls
/// Klaxon first, whose hand is fastest in the grab, and the bots' own draws.
pub fn next_actions(
    race: &Race,
    levels: &[BotLevel],
    rng: &mut impl Rng,
    legal: &mut Vec<Action>,
    out: &mut Vec<(Seat, Action)>,
) {
    out.clear();
    let decide =
        |seat: Seat, legal: &[Action], rng: &mut _| levels[seat.index()].decide(&SeatSight { race, seat }, legal, rng);
    let seat = match race.phase() {
        Phase::Over => return,
        Phase::CupDown => {
            // Each bot is asked once, in a random order (the order of the calls), then the
            // first player lifts.
            let n = race.pilots();
            let offset = rng.random_range(0..n);
            for i in 0..n {
                let seat = Seat((offset + i) % n);
                if race.check(seat, Action::Klaxon).is_ok() && decide(seat, &[Action::Klaxon], rng).is_some() {
                    out.push((seat, Action::Klaxon));
                }
            }
            out.push((race.first_player(), Action::Lift));
            return;
        }
        // The fastest hand among those without a pawn: a uniform draw each time.
        Phase::KlaxonPicks | Phase::Grab => match race.klaxon_picker() {
            Some(seat) => seat,
            None => {
                let waiting = race.seats().filter(|s| race.car(*s).pawn.is_none()).count();
                let pick = rng.random_range(0..waiting);
                race.seats().filter(|s| race.car(*s).pawn.is_none()).nth(pick).expect("counted")
            }
        },
        Phase::Echange => race.seats().find(|s| race.check(*s, Action::KeepPawn).is_ok()).expect("window open"),
        Phase::Movement => race.active_seat().expect("a turn"),
    };
    race.legal_actions_into(seat, legal);
    if let Some(action) = decide(seat, legal, rng) {
        out.push((seat, action));
    }
}

/// Plays `race` to its end with one bot per seat.
pub fn play_race(race: &mut Race, levels: &[BotLevel], rng: &mut impl Rng) -> Result<RaceOutcome, RuleError> {
    let mut outcome = RaceOutcome::default();
    let mut legal = Vec::with_capacity(16);
    let mut events = Vec::with_capacity(32);
    let mut batch = Vec::with_capacity(8);
    loop {
        next_actions(race, levels, rng, &mut legal, &mut batch);
        if batch.is_empty() {
            break;
        }
        for &(seat, action) in &batch {
            events.clear();
            // Bots only pick listed legal actions, so a refusal here is an engine bug.
            race.apply_into(seat, action, &mut events)?;
            outcome.actions += 1;
            for event in &events {
                outcome.tokens.count(event);
            }
        }
    }
    outcome.rounds = race.round();
    outcome.winner = race.finish_order().first().copied();
    Ok(outcome)
}

/// A fresh bot race on a seeded random circuit, for simulation and benchmarks.
pub fn random_race(pilots: u8, seed: u64) -> Race {
    let setup = RaceSetup { first_player: FirstPlayer::Random, ..RaceSetup::new(pilots, circuits::random(seed), seed) };
    Race::new(&setup).expect("3 to 6 pilots")
}

/// What `bolide-host simulate` prints (with the time it took: the engine reads no clock).
#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    pub races: u32,
    pub players: u8,
    pub seed: u64,
    pub rounds_per_race: Spread,
    /// Tokens played per race, on average, by kind.
    pub tokens_per_race: std::collections::BTreeMap<&'static str, f64>,
    pub levels: Vec<LevelReport>,
    /// How fast each level's hands grab on a host, by the number of pawns still free.
    pub hands: Vec<bolide_table::hands::HandsReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub min: u16,
    pub max: u16,
}

#[derive(Debug, Clone, Serialize)]
pub struct LevelReport {
    pub level: BotLevel,
    /// Seats played by this level, summed over races.
    pub seat_races: u32,
    pub wins: u32,
    /// `wins / seat_races`: the chance that one bot of this level wins a race. A fair share is
    /// `1 / players`.
    pub win_rate: f64,
}

/// Plays `races` bot races of `players` seats. Seat `i` of race `r` plays
/// `levels[(i + r) % levels.len()]`, so every level sits in every seat equally often.
pub fn simulate(races: u32, players: u8, seed: u64, levels: &[BotLevel]) -> Result<SimReport, RuleError> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut rounds = Vec::with_capacity(races as usize);
    let mut tokens = TokenUse::default();
    let mut seat_races = vec![0u32; levels.len()];
    let mut wins = vec![0u32; levels.len()];
    for r in 0..races {
        let table: Vec<BotLevel> = (0..players as usize).map(|i| levels[(i + r as usize) % levels.len()]).collect();
        let mut race = random_race(players, seed.wrapping_add(u64::from(r)));
        let outcome = play_race(&mut race, &table, &mut rng)?;
        rounds.push(outcome.rounds);
        tokens.add(&outcome.tokens);
        for i in 0..players as usize {
            seat_races[(i + r as usize) % levels.len()] += 1;
        }
        if let Some(winner) = outcome.winner {
            wins[(winner.index() + r as usize) % levels.len()] += 1;
        }
    }
    let n = f64::from(races.max(1));
    let per_race = |x: u32| f64::from(x) / n;
    let tokens_per_race = [
        ("klaxon", tokens.klaxon),
        ("as_de_la_route", tokens.as_de_la_route),
        ("nitro", tokens.nitro),
        ("second_chance", tokens.second_chance),
        ("raccourci", tokens.raccourci),
        ("aspiration", tokens.aspiration),
        ("assistance", tokens.assistance),
        ("huile", tokens.huile),
        ("echange", tokens.echange),
        ("panne_seche", tokens.panne_seche),
    ]
    .into_iter()
    .map(|(k, v)| (k, per_race(v)))
    .collect();
    let mut level_reports: Vec<LevelReport> = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        match level_reports.iter_mut().find(|l| l.level == *level) {
            Some(l) => {
                l.seat_races += seat_races[i];
                l.wins += wins[i];
            }
            None => level_reports.push(LevelReport {
                level: *level,
                seat_races: seat_races[i],
                wins: wins[i],
                win_rate: 0.0,
            }),
        }
    }
    for l in &mut level_reports {
        l.win_rate = f64::from(l.wins) / f64::from(l.seat_races.max(1));
    }
    // The hands of each level on the host (`bots::hands`): what a table plays against.
    let hands = level_reports.iter().map(|l| bolide_table::hands::report(l.level, &mut rng)).collect();
    Ok(SimReport {
        races,
        players,
        seed,
        rounds_per_race: Spread {
            mean: rounds.iter().map(|&r| f64::from(r)).sum::<f64>() / n,
            min: rounds.iter().copied().min().unwrap_or(0),
            max: rounds.iter().copied().max().unwrap_or(0),
        },
        tokens_per_race,
        hands,
        levels: level_reports,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategic_bots_beat_random_ones_clearly() {
        // Deterministic for this seed: a regression in either bot or the engine shows here.
        let report = simulate(300, 4, 7, &[BotLevel::Strategic, BotLevel::Random]).unwrap();
        let rate = |level| report.levels.iter().find(|l| l.level == level).unwrap().win_rate;
        assert!(rate(BotLevel::Strategic) > 0.4, "{report:?}");
        assert!(rate(BotLevel::Random) < 0.05, "{report:?}");
        assert!(report.rounds_per_race.min >= 5 && report.rounds_per_race.max < 40);
        assert!(report.tokens_per_race.values().all(|&v| v > 0.0), "every token kind gets played: {report:?}");
    }

    #[test]
    fn a_simulation_is_replayable_from_its_seed() {
        let a = simulate(20, 5, 3, &[BotLevel::Strategic, BotLevel::Random]).unwrap();
        let b = simulate(20, 5, 3, &[BotLevel::Strategic, BotLevel::Random]).unwrap();
        assert_eq!(a.rounds_per_race.mean, b.rounds_per_race.mean);
        assert_eq!(a.tokens_per_race, b.tokens_per_race);
    }
}
