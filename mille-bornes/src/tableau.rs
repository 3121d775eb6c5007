//! A side's tableau (M-4): its battle and speed piles, its distance row and its safeties, and
//! what they allow — whether the car rolls, what it may lay, what may be played on it.

use crate::card::{Attack, Card, CardCounts, Hazard, Safety};
use serde::{Deserialize, Serialize};

/// M-4.2: the battle state of a side, kept as a value (M-4.1: after M-9.4 it is not what the
/// top card says).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Battle {
    /// The battle pile is empty.
    NotStarted,
    /// Feu Vert on top (or what Prioritaire left when it cleared a Feu Rouge).
    Go,
    /// Feu Rouge on top.
    Stopped,
    /// Panne d'Essence, Crevé or Accident on top.
    Hazard(Hazard),
    /// Its remedy on top (or a safety laid on it, M-9.4): a Feu Vert is still needed.
    Remedied(Hazard),
}

/// How a safety reached the tableau (M-4.1: a Coup-Fourré lies crosswise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Laid {
    Normal,
    CoupFourre,
}

/// Distance cards by value, in [`DISTANCES`] order.
pub const DISTANCES: [u16; 5] = [25, 50, 75, 100, 200];

/// One side's tableau. Only the two top cards of each pile are kept (the top decides, the one
/// under it shows again when a safety clears the top, M-9.4); `cards` counts every card on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tableau {
    pub battle: Battle,
    pub battle_top: Option<Card>,
    battle_under: Option<Card>,
    pub speed_top: Option<Card>,
    speed_under: Option<Card>,
    /// M-6.1: kilometres laid.
    pub km: u16,
    /// Distance cards laid, per value (`DISTANCES`).
    pub distances: [u8; 5],
    /// M-9: each safety (in `Safety` order) and how it was laid.
    pub safeties: [Option<Laid>; 4],
    /// Every card on this tableau, for the deck's accounting.
    pub cards: CardCounts,
}

impl Default for Tableau {
    fn default() -> Tableau {
        Tableau {
            battle: Battle::NotStarted,
            battle_top: None,
            battle_under: None,
            speed_top: None,
            speed_under: None,
            km: 0,
            distances: [0; 5],
            safeties: [None; 4],
            cards: CardCounts::default(),
        }
    }
}

impl Tableau {
    pub fn has(&self, safety: Safety) -> bool {
        self.safeties[safety.index()].is_some()
    }

    /// M-4.3: a Limite de Vitesse on top of the speed pile.
    pub fn limited(&self) -> bool {
        self.speed_top == Some(Card::LimiteDeVitesse)
    }

    /// M-4.4: the side may lay distance now.
    pub fn rolls(&self) -> bool {
        match self.battle {
            Battle::Go => true,
            Battle::NotStarted | Battle::Remedied(_) => self.has(Safety::VehiculePrioritaire),
            Battle::Stopped | Battle::Hazard(_) => false,
        }
    }

    /// M-4.1: waiting for its Feu Vert (shown so even with a Feu Vert beneath a remedy).
    pub fn needs_feu_vert(&self) -> bool {
        matches!(self.battle, Battle::NotStarted | Battle::Stopped | Battle::Remedied(_))
            && !self.has(Safety::VehiculePrioritaire)
    }

    /// M-6.3: 200 km cards laid this hand.
    pub fn two_hundreds(&self) -> u8 {
        self.distances[4]
    }

    pub fn coup_fourres(&self) -> u8 {
        self.safeties.iter().filter(|s| **s == Some(Laid::CoupFourre)).count() as u8
    }

    pub fn safety_count(&self) -> u8 {
        self.safeties.iter().filter(|s| s.is_some()).count() as u8
    }

    fn push_battle(&mut self, card: Card) {
        self.battle_under = self.battle_top;
        self.battle_top = Some(card);
        self.cards.add(card);
    }

    fn push_speed(&mut self, card: Card) {
        self.speed_under = self.speed_top;
        self.speed_top = Some(card);
        self.cards.add(card);
    }

    /// Takes the top of the battle pile off to the discard (M-9.4).
    fn clear_battle_top(&mut self) -> Option<Card> {
        let top = self.battle_top.take()?;
        self.battle_top = self.battle_under.take();
        self.cards.take(top);
        Some(top)
    }

    fn clear_speed_top(&mut self) -> Option<Card> {
        let top = self.speed_top.take()?;
        self.speed_top = self.speed_under.take();
        self.cards.take(top);
        Some(top)
    }

    /// M-6.1: lays a distance card.
    pub(crate) fn lay_distance(&mut self, card: Card, km: u16) {
        self.km = self.km.saturating_add(km);
        if let Some(slot) = DISTANCES.iter().position(|&d| d == km) {
            self.distances[slot] = self.distances[slot].saturating_add(1);
        }
        self.cards.add(card);
    }

    /// M-7.4: an attack that stands (no Coup-Fourré) lands on this side.
    pub(crate) fn suffer(&mut self, attack: Attack) {
        match attack {
            Attack::LimiteDeVitesse => self.push_speed(Card::LimiteDeVitesse),
            Attack::FeuRouge => {
                self.push_battle(Card::FeuRouge);
                self.battle = Battle::Stopped;
            }
            Attack::PanneDEssence | Attack::Creve | Attack::Accident => {
                self.push_battle(attack.card());
                if let Some(hazard) = attack.hazard() {
                    self.battle = Battle::Hazard(hazard);
                }
            }
        }
    }

    /// M-8: lays a remedy whose conditions `check` has verified.
    pub(crate) fn remedy(&mut self, card: Card) {
        match card {
            Card::FeuVert => {
                self.push_battle(card);
                self.battle = Battle::Go;
            }
            Card::FinDeLimite => self.push_speed(card),
            _ => {
                if let Battle::Hazard(hazard) = self.battle {
                    self.push_battle(card);
                    self.battle = Battle::Remedied(hazard);
                }
            }
        }
    }

    /// M-9.4: lays `safety` (normally, or by Coup-Fourré on the piles as they were before the
    /// attack), clearing what it cancels into `discarded`. Returns the cards cleared.
    pub(crate) fn lay_safety(&mut self, safety: Safety, how: Laid, rolls_at_once: bool) -> [Option<Card>; 2] {
        self.safeties[safety.index()] = Some(how);
        self.cards.add(safety.card());
        let mut cleared = [None, None];
        match safety {
            Safety::VehiculePrioritaire => {
                // Whenever Prioritaire reaches the table, a Feu Rouge and a Limite showing go.
                if self.battle == Battle::Stopped {
                    cleared[0] = self.clear_battle_top();
                    self.battle = Battle::Go;
                }
                if self.limited() {
                    cleared[1] = self.clear_speed_top();
                }
            }
            _ => {
                if let Battle::Hazard(hazard) = self.battle
                    && safety.answers(hazard.attack())
                {
                    cleared[0] = self.clear_battle_top();
                    self.battle = if rolls_at_once { Battle::Go } else { Battle::Remedied(hazard) };
                }
            }
        }
        cleared
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m_4_4_a_side_rolls_on_go_or_with_prioritaire_when_not_attacked() {
        let mut t = Tableau::default();
        assert!(!t.rolls());
        t.remedy(Card::FeuVert);
        assert!(t.rolls());
        t.suffer(Attack::Creve);
        assert!(!t.rolls());
        t.remedy(Card::RoueDeSecours);
        assert_eq!(t.battle, Battle::Remedied(Hazard::Creve));
        assert!(!t.rolls() && t.needs_feu_vert(), "M-4.5: a remedy still needs its Feu Vert");
        let mut p = Tableau::default();
        p.lay_safety(Safety::VehiculePrioritaire, Laid::Normal, false);
        assert!(p.rolls(), "M-4.4 ruling: Prioritaire rolls on an empty pile");
        p.suffer(Attack::Accident);
        assert!(!p.rolls());
        p.remedy(Card::Reparations);
        assert!(p.rolls(), "M-7.4: a Prioritaire side needs only the remedy");
    }

    #[test]
    fn m_4_3_limited_while_a_limite_shows() {
        let mut t = Tableau::default();
        assert!(!t.limited());
        t.suffer(Attack::LimiteDeVitesse);
        assert!(t.limited());
        t.remedy(Card::FinDeLimite);
        assert!(!t.limited());
    }
}
