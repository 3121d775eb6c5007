//! Games between bots, for `bolide-host simulate --game mille-bornes` and the tests: windows
//! settle at once (a holder calls, M-15.11; otherwise the window closes), as no clock runs.

use crate::action::Action;
use crate::bots;
use crate::event::Event;
use crate::manche::{Manche, Phase};
use crate::options::{GameMode, Settings, SettingsError};
use crate::partie::Partie;
use bolide_table::BotLevel;
use bolide_table::Seat;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays one step of `manche` with bots of `levels[seat]`: a turn, a Coup-Fourré, or a window
/// closing. Returns `false` once the hand is over.
pub fn step(
    manche: &mut Manche,
    levels: &[BotLevel],
    rng: &mut ChaCha8Rng,
    scratch: &mut Vec<Action>,
    events: &mut Vec<Event>,
) -> bool {
    let level = |seat: Seat| levels.get(seat.index()).copied().unwrap_or(BotLevel::Random);
    match manche.phase() {
        Phase::Turn { seat } => {
            if let Some(action) = bots::decide(manche, seat, level(seat), rng, scratch) {
                let _ = manche.apply_into(seat, action, events);
            }
            true
        }
        Phase::Window { side, .. } => {
            let caller = manche.seats_of(side).find(|&s| manche.check(s, Action::CoupFourre).is_ok());
            let _ = match caller {
                Some(seat) => manche.apply_into(seat, Action::CoupFourre, events),
                None => manche.close_window(events),
            };
            true
        }
        Phase::Over => false,
    }
}

/// Plays hand after hand of random bots; returns the plays made. For the speed figure.
pub fn play_hands(players: u8, hands: u32, seed: u64) -> Result<u64, SettingsError> {
    let settings = Settings::default();
    let levels = [BotLevel::Random; 8];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut events, mut scratch) = (Vec::with_capacity(64), Vec::with_capacity(64));
    let mut plays = 0u64;
    for hand in 0..hands {
        events.clear();
        let dealer = Seat((hand % u32::from(players)) as u8);
        let mut manche = Manche::deal(settings, players, seed, hand as u16, dealer, &mut events)?;
        loop {
            events.clear();
            if !step(&mut manche, &levels, &mut rng, &mut scratch, &mut events) {
                break;
            }
            plays += 1;
        }
    }
    Ok(plays)
}

/// A whole game (M-13) between bots of `levels[seat]`, driven through the table's seam as
/// every game is (`bolide_table::drive`).
pub fn play_game(settings: Settings, players: u8, seed: u64, levels: &[BotLevel]) -> Result<Partie, SettingsError> {
    let mut events = Vec::new();
    let mut partie = Partie::new(settings, players, seed, &mut events)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    // A hand is a few hundred steps; a game a handful of hands. An engine bug shows as a game
    // that did not end, which the win rate then counts as lost.
    let _ = bolide_table::drive::play(&mut partie, levels, &mut rng, &mut events, 1_000_000);
    Ok(partie)
}

/// Plays `partie` on with `level`'s bots (drawn from `seed`), every Coup-Fourré window closed
/// as its time would close it, until `stop` holds (true) or the game ends (false): a game
/// brought to a situation, for the window's tests and its frame-time benchmark.
pub fn play_until(partie: &mut Partie, level: BotLevel, seed: u64, mut stop: impl FnMut(&Partie) -> bool) -> bool {
    let (mut events, mut scratch) = (Vec::new(), Vec::new());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !partie.is_over() {
        if stop(partie) {
            return true;
        }
        let played = match partie.manche().phase() {
            Phase::Window { .. } => partie.close_window(&mut events),
            Phase::Turn { seat } => match bots::decide(partie.manche(), seat, level, &mut rng, &mut scratch) {
                Some(action) => partie.apply_into(seat, action, &mut events),
                None => return false,
            },
            Phase::Over => return false,
        };
        if played.is_err() {
            return false;
        }
    }
    false
}

/// How often one strategic bot wins (rank 1, shared or not) against random-legal bots, its
/// seat rotating game after game.
pub fn good_bot_win_rate(players: u8, games: u32, seed: u64) -> Result<f64, SettingsError> {
    let settings = Settings { mode: GameMode::Points { target: 5000 }, ..Settings::default() };
    let mut wins = 0u32;
    for game in 0..games {
        let good = (game % u32::from(players)) as usize;
        let mut levels = [BotLevel::Random; 8];
        levels[good] = BotLevel::Strategic;
        let partie = play_game(settings, players, seed.wrapping_add(u64::from(game)), &levels)?;
        let won = partie.standings().and_then(|s| s.get(good).map(|st| st.rank == 1)).unwrap_or(false);
        wins += u32::from(won);
    }
    Ok(f64::from(wins) / f64::from(games.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strategic_bot_beats_random_legal_bots_in_most_4_player_games() {
        let rate = good_bot_win_rate(4, 200, 1).unwrap();
        assert!(rate >= 0.8, "good_bot_win_rate {rate}");
    }
}
