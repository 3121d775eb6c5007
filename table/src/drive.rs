//! A whole game between bots through the seam, with no clock: what `simulate` and the tests
//! run for every game. A timed moment's order is a uniform draw among its contenders,
//! standing in for the arbiter (which needs clocks); a countdown asks each caller's bot once,
//! in a random order, then its time is up.

use crate::{BotLevel, Game, Seat, Seats, Step};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Why a game between bots did not reach its end.
#[derive(Debug, Clone, PartialEq)]
pub enum Stuck<R> {
    /// The engine refused what its own bot chose from the legal actions: an engine bug.
    Refused { seat: Seat, refusal: R },
    /// Nobody the step names has anything to do, and no time ends it.
    NoMove,
    /// Still going after this many steps.
    TooLong(u32),
}

/// Plays `game` to its end, `levels[seat]` playing each seat; returns the actions applied.
pub fn play<G: Game>(
    game: &mut G,
    levels: &[BotLevel],
    rng: &mut ChaCha8Rng,
    events: &mut Vec<G::Event>,
    max_steps: u32,
) -> Result<u32, Stuck<G::Refusal>> {
    let mut scratch = Vec::with_capacity(32);
    let mut applied = 0;
    for _ in 0..max_steps {
        match step(game, levels, rng, events, &mut scratch)? {
            Some(n) => applied += n,
            None => return Ok(applied),
        }
    }
    Err(Stuck::TooLong(max_steps))
}

/// One step of the game: `None` once it is over, else the actions applied.
pub fn step<G: Game>(
    game: &mut G,
    levels: &[BotLevel],
    rng: &mut ChaCha8Rng,
    events: &mut Vec<G::Event>,
    scratch: &mut Vec<G::Action>,
) -> Result<Option<u32>, Stuck<G::Refusal>> {
    let level = |seat: Seat| levels.get(seat.index()).copied().unwrap_or_default();
    let mut act = |game: &mut G, seat: Seat, action| {
        game.apply(seat, action, events).map_err(|refusal| Stuck::Refused { seat, refusal })
    };
    match game.step() {
        Step::Over => Ok(None),
        Step::Sequential { seats } => {
            let seat = seats.iter().next().ok_or(Stuck::NoMove)?;
            let action = game.bot(seat, level(seat), rng, scratch).ok_or(Stuck::NoMove)?;
            act(game, seat, action)?;
            Ok(Some(1))
        }
        Step::Countdown { callers } => {
            let mut applied = 0;
            for seat in shuffled(callers, rng) {
                if let Some(call) = game.bot(seat, level(seat), rng, scratch) {
                    act(game, seat, call)?;
                    applied += 1;
                }
            }
            game.time_is_up(events).map_err(|refusal| Stuck::Refused { seat: Seat(0), refusal })?;
            Ok(Some(applied))
        }
        Step::Timed { contenders, window_us, .. } => {
            // The fastest hand: a uniform draw among the contenders with something to do.
            for seat in shuffled(contenders, rng) {
                if let Some(action) = game.bot(seat, level(seat), rng, scratch) {
                    act(game, seat, action)?;
                    return Ok(Some(1));
                }
            }
            if window_us.is_none() {
                return Err(Stuck::NoMove);
            }
            game.time_is_up(events).map_err(|refusal| Stuck::Refused { seat: Seat(0), refusal })?;
            Ok(Some(0))
        }
    }
}

/// The seats of `seats` in a random order, without allocating.
fn shuffled(seats: Seats, rng: &mut ChaCha8Rng) -> impl Iterator<Item = Seat> + use<> {
    let mut order = [0u8; 16];
    let mut n = 0;
    for seat in seats.iter() {
        order[n] = seat.0;
        n += 1;
    }
    for i in (1..n).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    order.into_iter().take(n).map(Seat)
}
