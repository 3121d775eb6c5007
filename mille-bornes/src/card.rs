//! The 106 playing cards (M-1.2) and which card answers which (M-1.3).

use serde::{Deserialize, Serialize};

/// One playing card, by what is printed on it. Identifiers are the box's French names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Card {
    D25,
    D50,
    D75,
    D100,
    D200,
    FeuRouge,
    LimiteDeVitesse,
    PanneDEssence,
    Creve,
    Accident,
    FeuVert,
    FinDeLimite,
    Essence,
    RoueDeSecours,
    Reparations,
    VehiculePrioritaire,
    CiterneDEssence,
    Increvable,
    AsDuVolant,
}

/// The kinds of card, in [`Card`] order.
pub const KINDS: usize = 19;

/// Playing cards in the box (M-1.1).
pub const DECK_SIZE: usize = 106;

/// A card's family (M-1.2), which says where it may be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Family {
    /// Kilometres on one's own distance row.
    Distance(u16),
    /// Onto an opponent's battle or speed pile.
    Attack(Attack),
    /// Onto one's own battle or speed pile, answering an attack (`FeuVert` answers `FeuRouge`
    /// and starts a car).
    Remedy(Attack),
    /// Onto one's own safety area; protects for the rest of the hand.
    Safety(Safety),
}

/// The five attacks (M-1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Attack {
    FeuRouge,
    LimiteDeVitesse,
    PanneDEssence,
    Creve,
    Accident,
}

/// The three attacks that need a remedy *and then* a Feu Vert (M-4.2 `Hazard`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Hazard {
    PanneDEssence,
    Creve,
    Accident,
}

/// The four safeties (bottes), M-9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Safety {
    VehiculePrioritaire,
    CiterneDEssence,
    Increvable,
    AsDuVolant,
}

impl Card {
    /// Every kind, in order (`Card::ALL[c.index()] == c`).
    pub const ALL: [Card; KINDS] = [
        Card::D25,
        Card::D50,
        Card::D75,
        Card::D100,
        Card::D200,
        Card::FeuRouge,
        Card::LimiteDeVitesse,
        Card::PanneDEssence,
        Card::Creve,
        Card::Accident,
        Card::FeuVert,
        Card::FinDeLimite,
        Card::Essence,
        Card::RoueDeSecours,
        Card::Reparations,
        Card::VehiculePrioritaire,
        Card::CiterneDEssence,
        Card::Increvable,
        Card::AsDuVolant,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// M-1.2: how many of this card the box holds.
    pub const fn count(self) -> u8 {
        match self {
            Card::D25 | Card::D50 | Card::D75 => 10,
            Card::D100 => 12,
            Card::D200 => 4,
            Card::FeuRouge => 5,
            Card::LimiteDeVitesse => 4,
            Card::PanneDEssence | Card::Creve | Card::Accident => 3,
            Card::FeuVert => 14,
            Card::FinDeLimite | Card::Essence | Card::RoueDeSecours | Card::Reparations => 6,
            Card::VehiculePrioritaire | Card::CiterneDEssence | Card::Increvable | Card::AsDuVolant => 1,
        }
    }

    pub const fn family(self) -> Family {
        match self {
            Card::D25 => Family::Distance(25),
            Card::D50 => Family::Distance(50),
            Card::D75 => Family::Distance(75),
            Card::D100 => Family::Distance(100),
            Card::D200 => Family::Distance(200),
            Card::FeuRouge => Family::Attack(Attack::FeuRouge),
            Card::LimiteDeVitesse => Family::Attack(Attack::LimiteDeVitesse),
            Card::PanneDEssence => Family::Attack(Attack::PanneDEssence),
            Card::Creve => Family::Attack(Attack::Creve),
            Card::Accident => Family::Attack(Attack::Accident),
            Card::FeuVert => Family::Remedy(Attack::FeuRouge),
            Card::FinDeLimite => Family::Remedy(Attack::LimiteDeVitesse),
            Card::Essence => Family::Remedy(Attack::PanneDEssence),
            Card::RoueDeSecours => Family::Remedy(Attack::Creve),
            Card::Reparations => Family::Remedy(Attack::Accident),
            Card::VehiculePrioritaire => Family::Safety(Safety::VehiculePrioritaire),
            Card::CiterneDEssence => Family::Safety(Safety::CiterneDEssence),
            Card::Increvable => Family::Safety(Safety::Increvable),
            Card::AsDuVolant => Family::Safety(Safety::AsDuVolant),
        }
    }

    /// The name printed on the card, as the box spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Card::D25 => "25 km",
            Card::D50 => "50 km",
            Card::D75 => "75 km",
            Card::D100 => "100 km",
            Card::D200 => "200 km",
            Card::FeuRouge => "Feu Rouge",
            Card::LimiteDeVitesse => "Limite de Vitesse",
            Card::PanneDEssence => "Panne d'Essence",
            Card::Creve => "Crevé",
            Card::Accident => "Accident",
            Card::FeuVert => "Feu Vert",
            Card::FinDeLimite => "Fin de Limite de Vitesse",
            Card::Essence => "Essence",
            Card::RoueDeSecours => "Roue de Secours",
            Card::Reparations => "Réparations",
            Card::VehiculePrioritaire => "Véhicule Prioritaire",
            Card::CiterneDEssence => "Citerne d'Essence",
            Card::Increvable => "Increvable",
            Card::AsDuVolant => "As du Volant",
        }
    }

    /// The kilometres of a distance card.
    pub const fn km(self) -> Option<u16> {
        match self.family() {
            Family::Distance(km) => Some(km),
            _ => None,
        }
    }
}

impl Attack {
    /// M-1.3: the card that is the attack.
    pub const fn card(self) -> Card {
        match self {
            Attack::FeuRouge => Card::FeuRouge,
            Attack::LimiteDeVitesse => Card::LimiteDeVitesse,
            Attack::PanneDEssence => Card::PanneDEssence,
            Attack::Creve => Card::Creve,
            Attack::Accident => Card::Accident,
        }
    }

    /// M-1.3: the safety that answers it (Prioritaire answers Feu Rouge and Limite).
    pub const fn safety(self) -> Safety {
        match self {
            Attack::FeuRouge | Attack::LimiteDeVitesse => Safety::VehiculePrioritaire,
            Attack::PanneDEssence => Safety::CiterneDEssence,
            Attack::Creve => Safety::Increvable,
            Attack::Accident => Safety::AsDuVolant,
        }
    }

    /// The hazard it is, if it needs a remedy then a Feu Vert.
    pub const fn hazard(self) -> Option<Hazard> {
        match self {
            Attack::PanneDEssence => Some(Hazard::PanneDEssence),
            Attack::Creve => Some(Hazard::Creve),
            Attack::Accident => Some(Hazard::Accident),
            Attack::FeuRouge | Attack::LimiteDeVitesse => None,
        }
    }
}

impl Hazard {
    pub const fn attack(self) -> Attack {
        match self {
            Hazard::PanneDEssence => Attack::PanneDEssence,
            Hazard::Creve => Attack::Creve,
            Hazard::Accident => Attack::Accident,
        }
    }

    /// M-1.3: the remedy card.
    pub const fn remedy(self) -> Card {
        match self {
            Hazard::PanneDEssence => Card::Essence,
            Hazard::Creve => Card::RoueDeSecours,
            Hazard::Accident => Card::Reparations,
        }
    }
}

impl Safety {
    pub const ALL: [Safety; 4] =
        [Safety::VehiculePrioritaire, Safety::CiterneDEssence, Safety::Increvable, Safety::AsDuVolant];

    pub fn index(self) -> usize {
        self as usize
    }

    pub const fn card(self) -> Card {
        match self {
            Safety::VehiculePrioritaire => Card::VehiculePrioritaire,
            Safety::CiterneDEssence => Card::CiterneDEssence,
            Safety::Increvable => Card::Increvable,
            Safety::AsDuVolant => Card::AsDuVolant,
        }
    }

    /// M-1.3: whether this safety answers `attack`.
    pub const fn answers(self, attack: Attack) -> bool {
        attack.safety() as u8 == self as u8
    }
}

/// How many of each kind of card a place holds: the deck's bookkeeping without a list
/// (a hand, a pile, the discard), so that every step of the engine allocates nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CardCounts(pub [u8; KINDS]);

impl CardCounts {
    /// M-1.2: the whole box.
    pub fn full_deck() -> CardCounts {
        let mut counts = CardCounts::default();
        for card in Card::ALL {
            counts.0[card.index()] = card.count();
        }
        counts
    }

    pub fn get(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    pub fn add(&mut self, card: Card) {
        self.0[card.index()] = self.0[card.index()].saturating_add(1);
    }

    /// Takes one `card` out; false (and nothing changes) when there is none.
    pub fn take(&mut self, card: Card) -> bool {
        let slot = &mut self.0[card.index()];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    pub fn plus(mut self, other: &CardCounts) -> CardCounts {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a = a.saturating_add(b);
        }
        self
    }

    /// The cards held, each kind as often as it is held, in [`Card`] order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL.into_iter().flat_map(|c| std::iter::repeat_n(c, usize::from(self.get(c))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m_1_2_the_box_holds_106_playing_cards_by_family() {
        let deck = CardCounts::full_deck();
        assert_eq!(deck.total(), DECK_SIZE);
        let family_total = |f: fn(Family) -> bool| -> usize {
            Card::ALL.iter().filter(|c| f(c.family())).map(|c| usize::from(c.count())).sum()
        };
        assert_eq!(family_total(|f| matches!(f, Family::Distance(_))), 46);
        assert_eq!(family_total(|f| matches!(f, Family::Attack(_))), 18);
        assert_eq!(family_total(|f| matches!(f, Family::Remedy(_))), 38);
        assert_eq!(family_total(|f| matches!(f, Family::Safety(_))), 4);
        assert_eq!((Card::FeuRouge.count(), Card::FeuVert.count(), Card::LimiteDeVitesse.count()), (5, 14, 4));
        assert_eq!((Card::D25.count(), Card::D100.count(), Card::D200.count()), (10, 12, 4));
    }

    #[test]
    fn m_1_1_the_four_memo_cards_are_not_in_the_deck() {
        // 110 cards in the box, 4 of them the mémo reference cards, which are never dealt.
        assert_eq!(DECK_SIZE + 4, 110);
        assert!(Card::ALL.iter().all(|c| !c.name().to_lowercase().contains("mémo")));
    }

    #[test]
    fn m_1_3_each_attack_has_its_remedy_and_its_safety() {
        let table = [
            (Card::FeuRouge, Card::FeuVert, Card::VehiculePrioritaire),
            (Card::LimiteDeVitesse, Card::FinDeLimite, Card::VehiculePrioritaire),
            (Card::PanneDEssence, Card::Essence, Card::CiterneDEssence),
            (Card::Creve, Card::RoueDeSecours, Card::Increvable),
            (Card::Accident, Card::Reparations, Card::AsDuVolant),
        ];
        for (attack, remedy, safety) in table {
            let Family::Attack(a) = attack.family() else { panic!("{attack:?} is an attack") };
            assert_eq!(remedy.family(), Family::Remedy(a));
            assert_eq!(a.safety().card(), safety);
            assert!(a.safety().answers(a));
            assert_eq!(a.card(), attack);
        }
        assert!(!Safety::Increvable.answers(Attack::Accident));
        for card in Card::ALL {
            assert_eq!(Card::ALL[card.index()], card);
        }
    }
}
