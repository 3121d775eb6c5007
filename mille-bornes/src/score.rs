//! Scoring a hand, line by line (M-12), and who won it (M-11.4).

use crate::options::{BlockedTie, No200Bonus, Settings, ShutOut};
use crate::tableau::Tableau;
use serde::{Deserialize, Serialize};

/// Most sides at a table (M-2.2: 4 players alone, or 4 teams of 2).
pub const MAX_SIDES: usize = 4;

/// M-12: one side's lines for one hand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideScore {
    /// M-12.1: one point per km laid.
    pub distance: u32,
    /// M-12.2: 100 per safety on the tableau.
    pub safeties: u32,
    /// M-12.3: 300 more per Coup-Fourré.
    pub coup_fourres: u32,
    /// M-12.4: 400 for the hand's winner (each tied winner, M-11.4).
    pub won: u32,
    /// M-12.5: 200 for winning without a 200 km card.
    pub without_200: u32,
    /// M-12.6: 500 for each other side left at 0 km.
    pub shut_out: u32,
}

impl SideScore {
    pub fn total(&self) -> u32 {
        // Saturating: a laptop reads these from a host's history, which may say anything.
        [self.safeties, self.coup_fourres, self.won, self.without_200, self.shut_out]
            .into_iter()
            .fold(self.distance, u32::saturating_add)
    }

    pub fn winner(&self) -> bool {
        self.won > 0
    }
}

/// A hand's score sheet: a line per side (`sides` of them are used).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandScore {
    pub sides: u8,
    pub lines: [SideScore; MAX_SIDES],
}

impl HandScore {
    pub fn lines(&self) -> &[SideScore] {
        &self.lines[..usize::from(self.sides).min(MAX_SIDES)]
    }
}

/// M-11.4 and M-12: scores the tableaux at the end of a hand. `finisher` is the side that
/// laid exactly the target, if one did.
pub fn score_hand(tableaux: &[Tableau], finisher: Option<u8>, settings: &Settings) -> HandScore {
    let sides = tableaux.len().min(MAX_SIDES);
    let mut score = HandScore { sides: sides as u8, lines: [SideScore::default(); MAX_SIDES] };
    let winners = winners(&tableaux[..sides], finisher, settings.blocked_tie);
    let zero_km = tableaux[..sides].iter().filter(|t| t.km == 0).count() as u32;
    for (side, (t, line)) in tableaux.iter().zip(score.lines.iter_mut()).enumerate() {
        line.distance = u32::from(t.km);
        line.safeties = 100 * u32::from(t.safety_count());
        line.coup_fourres = 300 * u32::from(t.coup_fourres());
        if winners[side] {
            line.won = 400;
            let may_earn = settings.no_200_bonus == No200Bonus::AnyWinner || finisher == Some(side as u8);
            if may_earn && t.two_hundreds() == 0 {
                line.without_200 = 200;
            }
        }
        let others_at_zero = zero_km - u32::from(t.km == 0);
        let scores_it = settings.shut_out == ShutOut::Literal || t.km > 0;
        if scores_it {
            line.shut_out = 500 * others_at_zero;
        }
    }
    score
}

/// M-11.4: the hand's winners — the finisher; in a blocked hand the sides with the most km
/// (never at 0 km), each of them or none when several tie.
fn winners(tableaux: &[Tableau], finisher: Option<u8>, tie: BlockedTie) -> [bool; MAX_SIDES] {
    let mut won = [false; MAX_SIDES];
    if let Some(side) = finisher {
        if let Some(w) = won.get_mut(usize::from(side)) {
            *w = true;
        }
        return won;
    }
    let best = tableaux.iter().map(|t| t.km).max().unwrap_or(0);
    if best == 0 {
        return won;
    }
    let leaders = tableaux.iter().filter(|t| t.km == best).count();
    if leaders > 1 && tie == BlockedTie::NobodyWins {
        return won;
    }
    for (w, t) in won.iter_mut().zip(tableaux) {
        *w = t.km == best;
    }
    won
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Card, Safety};
    use crate::tableau::Laid;

    #[test]
    fn m_12_a_total_read_from_a_host_s_history_never_overflows() {
        let line = SideScore { distance: u32::MAX - 50, safeties: 400, shut_out: 500, ..SideScore::default() };
        assert_eq!(line.total(), u32::MAX);
    }

    fn side(km: &[Card], safeties: &[(Safety, Laid)]) -> Tableau {
        let mut t = Tableau::default();
        for &c in km {
            t.lay_distance(c, c.km().unwrap());
        }
        for &(s, how) in safeties {
            t.lay_safety(s, how, false);
        }
        t
    }

    #[test]
    fn m_12_8_the_rulebook_example_at_3_players() {
        use Card::*;
        let a = side(
            &[D200, D100, D100, D100, D100, D100, D100, D100, D100],
            &[(Safety::Increvable, Laid::Normal), (Safety::AsDuVolant, Laid::CoupFourre)],
        );
        assert_eq!(a.km, 1000);
        let b = side(&[D100, D100, D100, D100, D75], &[(Safety::CiterneDEssence, Laid::Normal)]);
        let c = side(&[], &[]);
        let score = score_hand(&[a, b, c], Some(0), &Settings::default());
        let totals: Vec<u32> = score.lines().iter().map(SideScore::total).collect();
        assert_eq!(totals, [2400, 1075, 0]);
        assert_eq!(score.lines[0].without_200, 0, "A laid a 200");
    }

    #[test]
    fn m_12_1_to_m_12_4_distance_safeties_coup_fourres_and_the_winner() {
        let a = side(&[Card::D100; 10], &[(Safety::Increvable, Laid::CoupFourre)]);
        let b = side(&[Card::D25], &[]);
        let s = score_hand(&[a, b], Some(0), &Settings::default());
        let l = s.lines[0];
        assert_eq!((l.distance, l.safeties, l.coup_fourres, l.won, l.without_200), (1000, 100, 300, 400, 200));
        assert_eq!(s.lines[1].total(), 25);
    }

    #[test]
    fn m_12_5_winning_without_a_200_in_a_blocked_hand_depends_on_the_option() {
        let a = side(&[Card::D100; 3], &[]);
        let b = side(&[Card::D50], &[]);
        let any = score_hand(&[a, b], None, &Settings::default());
        assert_eq!((any.lines[0].won, any.lines[0].without_200), (400, 200));
        let settings = Settings { no_200_bonus: No200Bonus::OnlyFinisher, ..Settings::default() };
        let only = score_hand(&[a, b], None, &settings);
        assert_eq!((only.lines[0].won, only.lines[0].without_200), (400, 0));
    }

    #[test]
    fn m_12_6_each_side_at_zero_gives_500_to_every_other_side() {
        let a = side(&[Card::D100], &[]);
        let b = side(&[Card::D50], &[]);
        let (c, d) = (side(&[], &[]), side(&[], &[]));
        let literal = score_hand(&[a, b, c, d], None, &Settings::default());
        let shut: Vec<u32> = literal.lines().iter().map(|l| l.shut_out).collect();
        assert_eq!(shut, [1000, 1000, 500, 500], "stacked, and literally a 0-km side scores the other");
        let settings = Settings { shut_out: ShutOut::OnlySidesWithDistance, ..Settings::default() };
        let strict = score_hand(&[a, b, c, d], None, &settings);
        let shut: Vec<u32> = strict.lines().iter().map(|l| l.shut_out).collect();
        assert_eq!(shut, [1000, 1000, 0, 0]);
    }

    #[test]
    fn m_11_4_a_blocked_hand_goes_to_the_most_km_ties_by_option_and_never_to_zero() {
        let a = side(&[Card::D100], &[]);
        let b = side(&[Card::D100], &[]);
        let c = side(&[Card::D50], &[]);
        let each = score_hand(&[a, b, c], None, &Settings::default());
        assert_eq!(each.lines().iter().map(SideScore::winner).collect::<Vec<_>>(), [true, true, false]);
        let settings = Settings { blocked_tie: BlockedTie::NobodyWins, ..Settings::default() };
        let none = score_hand(&[a, b, c], None, &settings);
        assert!(none.lines().iter().all(|l| !l.winner()));
        let zero = score_hand(&[side(&[], &[]), side(&[], &[])], None, &Settings::default());
        assert!(zero.lines().iter().all(|l| !l.winner()), "a side at 0 km never wins");
    }
}
