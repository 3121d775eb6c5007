//! Bots with human hands, for every game's timed moments: how long a host bot takes to act
//! once a moment is released (Bolide's grab when the reservoirs are shown), and how its hand
//! slips. The bot's *choice* is its level's (`Decide`); this is only
//! the hand that carries it out, so a table of people meets bots they can race.
//!
//! The model, per level ([`Hands::of`]):
//! - **Simple reaction, ex-Gaussian.** A Gaussian (`mu`, `sigma`) plus an exponential tail
//!   (`tau`): the standard description of human reaction-time distributions, right-skewed with
//!   a long slow tail (R. D. Luce, *Response Times*, 1986, ch. 6; R. Ratcliff, "Group
//!   reaction time distributions and an analysis of distribution statistics", *Psychological
//!   Bulletin* 86, 1979; R. Whelan, "Effective analysis of reaction time data", *The
//!   Psychological Record* 58, 2008). Simple visual reactions of adults fit around
//!   `mu` 200–300 ms, `sigma` 20–50 ms, `tau` 50–150 ms.
//! - **Choice, Hick–Hyman.** Choosing among `n` equally likely options adds
//!   `b · log2(n)`: about 150 ms per doubling for an unpractised choice, less with practice
//!   (W. E. Hick, "On the rate of gain of information", *Quarterly Journal of Experimental
//!   Psychology* 4, 1952; R. Hyman, "Stimulus information as a determinant of reaction time",
//!   *Journal of Experimental Psychology* 45, 1953). `n` is the number of choices still open
//!   (in Bolide, the pawns still free).
//! - **Fumbles.** Now and then a hand takes another choice than the one meant (another pawn),
//!   or a call meant for before a countdown's release comes after it (Bolide's Klaxon after the
//!   lift: refused, the token is kept, B-4.6).
//!
//! `Random` bots get relaxed hands a newcomer can beat; `Strategic` bots quick ones that push a
//! quick player. `bolide-host simulate` prints both distributions ([`HandsReport`]). A bot is
//! never held to the 100 ms plausibility floor (it is timed on the host's clock), but these
//! hands never react that fast anyway ([`FLOOR_US`]).

use crate::BotLevel;
use rand::{Rng, RngExt};
use serde::Serialize;

/// No hand of this model reacts faster: under 100 ms is anticipation, not reaction.
pub const FLOOR_US: u64 = 120_000;
/// Nor slower: a hand that would is a bot that looked away, and the table waits for no one.
pub const CEILING_US: u64 = 3_000_000;

/// A level's hands; times in ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Hands {
    pub mu_ms: f64,
    pub sigma_ms: f64,
    pub tau_ms: f64,
    /// Hick–Hyman slope: added per doubling of the choices.
    pub hick_ms_per_bit: f64,
    /// Chance that the hand takes another open choice than the one meant.
    pub wrong_choice: f64,
    /// Chance that a call meant for before a countdown's release comes after it.
    pub late_call: f64,
}

impl Hands {
    pub const fn of(level: BotLevel) -> Hands {
        match level {
            // A newcomer's hands: slow to start, a long tail, unpractised choice.
            BotLevel::Random => Hands {
                mu_ms: 290.0,
                sigma_ms: 45.0,
                tau_ms: 130.0,
                hick_ms_per_bit: 150.0,
                wrong_choice: 0.06,
                late_call: 0.25,
            },
            // A quick player's: fast, a short tail, practised choice, few slips.
            BotLevel::Strategic => Hands {
                mu_ms: 215.0,
                sigma_ms: 25.0,
                tau_ms: 55.0,
                hick_ms_per_bit: 90.0,
                wrong_choice: 0.02,
                late_call: 0.08,
            },
        }
    }

    /// One reaction, µs, to a moment with `choices` still open.
    pub fn reaction_us(&self, choices: usize, rng: &mut impl Rng) -> u64 {
        // Box–Muller for the Gaussian, inversion for the exponential.
        let (u1, u2): (f64, f64) = (rng.random_range(f64::EPSILON..1.0), rng.random());
        let gauss = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let tail = -self.tau_ms * rng.random_range(f64::EPSILON..1.0f64).ln();
        let choice = self.hick_ms_per_bit * (choices.max(1) as f64).log2();
        let ms = self.mu_ms + self.sigma_ms * gauss + tail + choice;
        ((ms * 1000.0) as u64).clamp(FLOOR_US, CEILING_US)
    }

    /// Whether this hand slips to another choice than the one meant.
    pub fn slips(&self, rng: &mut impl Rng) -> bool {
        rng.random_bool(self.wrong_choice)
    }

    /// Whether this call comes after the countdown's release it was meant for.
    pub fn calls_late(&self, rng: &mut impl Rng) -> bool {
        rng.random_bool(self.late_call)
    }
}

/// A level's hands as `bolide-host simulate` shows them: the model and its reactions, ms.
#[derive(Debug, Clone, Serialize)]
pub struct HandsReport {
    pub level: BotLevel,
    pub model: Hands,
    /// Per number of open choices (1 to 6): reaction percentiles over [`DRAWS`] draws.
    pub reactions_ms: Vec<ReactionSpread>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReactionSpread {
    pub choices: usize,
    pub p10: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub mean: f64,
}

/// Draws per row of a [`HandsReport`].
pub const DRAWS: usize = 100_000;

pub fn report(level: BotLevel, rng: &mut impl Rng) -> HandsReport {
    let hands = Hands::of(level);
    let reactions_ms = (1..=6)
        .map(|choices| {
            let mut v: Vec<f64> = (0..DRAWS).map(|_| hands.reaction_us(choices, rng) as f64 / 1000.0).collect();
            v.sort_by(f64::total_cmp);
            let at = |p: f64| v[((v.len() - 1) as f64 * p) as usize];
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            ReactionSpread { choices, p10: at(0.1), p50: at(0.5), p90: at(0.9), p99: at(0.99), mean }
        })
        .collect();
    HandsReport { level, model: hands, reactions_ms }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn b_4_3_bot_hands_are_right_skewed_and_slower_with_more_pawns_to_choose_from() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for level in BotLevel::ALL {
            let r = report(level, &mut rng);
            let h = r.model;
            for row in &r.reactions_ms {
                // The exponential tail pulls the mean above the median (right skew).
                assert!(row.mean > row.p50, "{level:?} {row:?}");
                assert!(row.p10 >= FLOOR_US as f64 / 1000.0);
                // Median of an ex-Gaussian is near mu + tau·ln 2, plus the choice.
                let expected = h.mu_ms + h.tau_ms * 2f64.ln() + h.hick_ms_per_bit * (row.choices as f64).log2();
                assert!((row.p50 - expected).abs() < 15.0, "{level:?} {row:?} vs {expected}");
            }
            let (one, six) = (&r.reactions_ms[0], &r.reactions_ms[5]);
            let per_doubling = (six.p50 - one.p50) / 6f64.log2();
            assert!((per_doubling - h.hick_ms_per_bit).abs() < 10.0, "{level:?}: {per_doubling} ms per doubling");
        }
        // A newcomer can beat the relaxed hands; the quick ones are quicker at every count.
        let (relaxed, quick) = (report(BotLevel::Random, &mut rng), report(BotLevel::Strategic, &mut rng));
        for (a, b) in relaxed.reactions_ms.iter().zip(&quick.reactions_ms) {
            assert!(b.p50 + 50.0 < a.p50, "{a:?} {b:?}");
        }
    }
}
