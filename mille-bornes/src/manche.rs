//! One hand (*manche*, M-3 to M-12): the deal, the turns, the Coup-Fourré window and the
//! score. `apply` = `check` (pure; the refusal names its rule) then `perform` (cannot fail),
//! as Bolide's `Race` does; `legal_actions` = the candidates that pass `check`.
//! Fixed-size arrays throughout: a play allocates nothing and the state is cheap to clone.

use crate::action::{Action, RuleError};
use crate::card::{Attack, Card, CardCounts, DECK_SIZE, Family, Safety};
use crate::deal;
use crate::event::Event;
use crate::options::{BlockedHand, CoupFourreMode, SafetyOnAttack, Settings, SettingsError, sides_for};
use crate::score::{HandScore, MAX_SIDES, score_hand};
use crate::tableau::{Laid, Tableau};
use bolide_table::Seat;
use serde::{Deserialize, Serialize};

pub use crate::deal::{HAND_SIZE, MAX_PLAYERS};

/// Where a hand stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// M-5.1: `seat` plays; it has drawn already (M-5.5).
    Turn { seat: Seat },
    /// M-15: `attacker`'s `attack` lies pending on `side`'s pile; nothing else happens until
    /// a valid Coup-Fourré or the table closes the window (M-15.2).
    Window { attacker: Seat, side: u8, attack: Attack },
    /// M-11: the hand is over and scored.
    Over,
}

#[derive(Debug, Clone)]
pub struct Manche {
    settings: Settings,
    players: u8,
    sides: u8,
    number: u16,
    dealer: Seat,
    /// The draw pile; its top is `draw[draw_len - 1]`.
    draw: [Card; DECK_SIZE],
    draw_len: u8,
    hands: [CardCounts; MAX_PLAYERS],
    tableaux: [Tableau; MAX_SIDES],
    discard: CardCounts,
    discard_top: Option<Card>,
    phase: Phase,
    /// M-11.3 option: the draw pile's last card has been drawn.
    drew_last: bool,
    /// Attacks played this hand: each opened a window (M-15.1).
    attacks: u16,
    score: Option<HandScore>,
    /// The seats whose hands a situation arranged (`arrange_hand`): the others' dealt cards
    /// may be swapped for what an arrangement asks.
    arranged: u16,
}

impl Manche {
    /// M-3: deals hand `number` (from 0) from the game's `seed`, `dealer` dealing, and starts
    /// the first turn (M-3.1: the dealer's left plays first).
    pub fn deal(
        settings: Settings,
        players: u8,
        seed: u64,
        number: u16,
        dealer: Seat,
        events: &mut Vec<Event>,
    ) -> Result<Manche, SettingsError> {
        settings.check(players)?;
        let dealer = Seat(dealer.0 % players);
        let mut manche = Manche {
            settings,
            players,
            sides: sides_for(players),
            number,
            dealer,
            draw: deal::deck(seed, number),
            draw_len: DECK_SIZE as u8,
            hands: [CardCounts::default(); MAX_PLAYERS],
            tableaux: [Tableau::default(); MAX_SIDES],
            discard: CardCounts::default(),
            discard_top: None,
            phase: Phase::Over,
            drew_last: false,
            attacks: 0,
            score: None,
            arranged: 0,
        };
        let first = manche.next(dealer);
        events.push(Event::Dealt { hand: number, dealer, first });
        // M-3.2: one card at a time, starting on the dealer's left.
        for _ in 0..HAND_SIZE {
            let mut seat = first;
            for _ in 0..players {
                if let Some(card) = manche.pop() {
                    manche.hands[seat.index()].add(card);
                }
                seat = manche.next(seat);
            }
        }
        manche.start_turn(first, events);
        Ok(manche)
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    pub fn sides(&self) -> u8 {
        self.sides
    }

    pub fn number(&self) -> u16 {
        self.number
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn tableaux(&self) -> &[Tableau] {
        &self.tableaux[..usize::from(self.sides)]
    }

    pub fn tableau(&self, side: u8) -> Option<&Tableau> {
        self.tableaux().get(usize::from(side))
    }

    /// A seat's hand (private: only views for that seat, or its partner with open hands, show it).
    pub fn hand(&self, seat: Seat) -> Option<&CardCounts> {
        self.hands.get(seat.index()).filter(|_| seat.0 < self.players)
    }

    pub fn draw_count(&self) -> u8 {
        self.draw_len
    }

    pub fn discard(&self) -> (&CardCounts, Option<Card>) {
        (&self.discard, self.discard_top)
    }

    /// Attacks played so far this hand: the open window is the latest one's.
    pub fn attacks(&self) -> u16 {
        self.attacks
    }

    pub fn score(&self) -> Option<&HandScore> {
        self.score.as_ref()
    }

    pub fn side_of(&self, seat: Seat) -> u8 {
        side_of(seat, self.sides)
    }

    /// M-5.1: the next seat to the left.
    pub fn next(&self, seat: Seat) -> Seat {
        Seat((seat.0 + 1) % self.players)
    }

    /// The seats that drive `side`'s car (one, or two partners).
    pub fn seats_of(&self, side: u8) -> impl Iterator<Item = Seat> + '_ {
        (0..self.players).map(Seat).filter(move |&s| self.side_of(s) == side)
    }

    /// Whether `viewer` may see `seat`'s hand (M-3.4; M-2.4's open-hands option for partners).
    pub fn sees_hand(&self, viewer: Option<Seat>, seat: Seat) -> bool {
        match viewer {
            Some(v) => v == seat || (self.settings.open_hands && self.side_of(v) == self.side_of(seat)),
            None => false,
        }
    }

    /// Every card of the box, wherever it is now: the draw pile, the hands, the discard, the
    /// tableaux and an attack pending in a window. Always the whole box (M-1.2).
    pub fn census(&self) -> CardCounts {
        let mut all = self.discard;
        for card in &self.draw[..usize::from(self.draw_len)] {
            all.add(*card);
        }
        for hand in &self.hands[..usize::from(self.players)] {
            all = all.plus(hand);
        }
        for t in self.tableaux() {
            all = all.plus(&t.cards);
        }
        if let Phase::Window { attack, .. } = self.phase {
            all.add(attack.card());
        }
        all
    }

    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// `check`, then `perform` into `events` (which it does not clear).
    pub fn apply_into(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check(seat, action)?;
        self.perform(seat, action, events);
        Ok(())
    }

    /// Whether `seat` may do `action` now; the refusal names the rule.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if seat.0 >= self.players {
            return Err(RuleError::NoSuchSeat { seat });
        }
        match self.phase {
            Phase::Over => Err(RuleError::HandOver),
            Phase::Window { side, attack, .. } => match action {
                Action::CoupFourre => {
                    if self.side_of(seat) != side {
                        return Err(RuleError::NotAttacked);
                    }
                    let safety = attack.safety();
                    if self.hands[seat.index()].get(safety.card()) == 0 {
                        return Err(RuleError::SafetyNotHeld { safety });
                    }
                    Ok(())
                }
                _ => Err(RuleError::WindowOpen),
            },
            Phase::Turn { seat: active } => {
                if action == Action::CoupFourre {
                    return Err(RuleError::NoWindow);
                }
                if seat != active {
                    return Err(RuleError::NotYourTurn { active });
                }
                match action {
                    Action::Discard { card } => self.holds(seat, card),
                    Action::Play { card, on } => {
                        self.holds(seat, card)?;
                        self.check_play(self.side_of(seat), card, on)
                    }
                    Action::CoupFourre => Err(RuleError::NoWindow),
                }
            }
        }
    }

    fn holds(&self, seat: Seat, card: Card) -> Result<(), RuleError> {
        if self.hands[seat.index()].get(card) == 0 { Err(RuleError::NotHeld { card }) } else { Ok(()) }
    }

    /// M-6 to M-9: whether side `own` may lay `card` (on side `on` for an attack).
    fn check_play(&self, own: u8, card: Card, on: Option<u8>) -> Result<(), RuleError> {
        let mine = &self.tableaux[usize::from(own)];
        // One spelling per action: only an attack names a side.
        let on_own = || if on.is_some() { Err(RuleError::NotOwnSide { card }) } else { Ok(()) };
        match card.family() {
            Family::Distance(km) => {
                on_own()?;
                if !mine.rolls() {
                    return Err(RuleError::NotRolling);
                }
                if mine.limited() && km > 50 {
                    return Err(RuleError::Limited);
                }
                if km == 200 && mine.two_hundreds() >= 2 {
                    return Err(RuleError::TooManyTwoHundreds);
                }
                let would = mine.km.saturating_add(km);
                if would > self.settings.target_km {
                    return Err(RuleError::Overshoot { target: self.settings.target_km, card_km: km, would });
                }
                Ok(())
            }
            Family::Attack(attack) => {
                let side = on.ok_or(RuleError::NoTarget)?;
                let target = self.tableau(side).ok_or(RuleError::NoSuchSide { side })?;
                if side == own {
                    return Err(RuleError::OwnSide);
                }
                let safety = attack.safety();
                if target.has(safety) {
                    return Err(RuleError::TargetProtected { attack, safety });
                }
                match attack {
                    Attack::LimiteDeVitesse if target.limited() => Err(RuleError::AlreadyLimited),
                    Attack::LimiteDeVitesse => Ok(()),
                    _ if !target.rolls() => Err(RuleError::TargetNotRolling { attack }),
                    _ => Ok(()),
                }
            }
            Family::Remedy(attack) => {
                on_own()?;
                match attack {
                    Attack::FeuRouge => {
                        if mine.has(Safety::VehiculePrioritaire) {
                            Err(RuleError::FeuVertUseless)
                        } else if mine.needs_feu_vert() {
                            Ok(())
                        } else {
                            Err(RuleError::FeuVertNotNow)
                        }
                    }
                    Attack::LimiteDeVitesse if mine.limited() => Ok(()),
                    Attack::LimiteDeVitesse => Err(RuleError::NotLimited),
                    _ => match (mine.battle, attack.hazard()) {
                        (crate::tableau::Battle::Hazard(h), Some(needed)) if h == needed => Ok(()),
                        _ => Err(RuleError::NothingToRemedy { remedy: card, attack }),
                    },
                }
            }
            Family::Safety(_) => on_own(),
        }
    }

    /// Applies an action `check` accepted. Cannot fail.
    fn perform(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) {
        let own = self.side_of(seat);
        match action {
            Action::Discard { card } => {
                self.hands[seat.index()].take(card);
                self.discard_card(card);
                events.push(Event::Discarded { seat, card });
                self.end_turn(seat, events);
            }
            Action::Play { card, on } => {
                self.hands[seat.index()].take(card);
                let side = on.unwrap_or(own);
                events.push(Event::Played { seat, card, side });
                match card.family() {
                    Family::Distance(km) => {
                        self.tableaux[usize::from(own)].lay_distance(card, km);
                        if self.tableaux[usize::from(own)].km == self.settings.target_km {
                            // M-6.5, M-11.1: exactly the target ends the hand at once.
                            self.end_hand(Some(own), events);
                        } else {
                            self.end_turn(seat, events);
                        }
                    }
                    Family::Attack(attack) => self.attack(seat, side, attack, events),
                    Family::Remedy(_) => {
                        self.tableaux[usize::from(own)].remedy(card);
                        self.end_turn(seat, events);
                    }
                    Family::Safety(safety) => {
                        self.lay_safety(own, safety, Laid::Normal, events);
                        // M-9.3: play again, after a draw if the pile has one (M-11.2).
                        events.push(Event::PlaysAgain { seat });
                        self.draw_for(seat, events);
                        if self.hands[seat.index()].total() == 0 {
                            self.end_turn(seat, events);
                        }
                    }
                }
            }
            Action::CoupFourre => self.coup_fourre(seat, events),
        }
    }

    /// The table closes the window with no valid call (M-15.7: every seat done, or the
    /// deadline): the attack stands and the next turn starts (M-15.10).
    pub fn close_window(&mut self, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let Phase::Window { attacker, side, attack } = self.phase else {
            return Err(RuleError::NoWindow);
        };
        self.tableaux[usize::from(side)].suffer(attack);
        events.push(Event::AttackStands { side, attack });
        self.end_turn(attacker, events);
        Ok(())
    }

    /// M-7.5, M-15.1: every attack opens the window, whoever holds what — or, in automatic
    /// mode (M-15.13), the host lays the safety for its holder at once.
    fn attack(&mut self, attacker: Seat, side: u8, attack: Attack, events: &mut Vec<Event>) {
        self.phase = Phase::Window { attacker, side, attack };
        self.attacks = self.attacks.saturating_add(1);
        match self.settings.coup_fourre {
            CoupFourreMode::RealTime => {
                events.push(Event::WindowOpened { attacker, side, attack, ms: self.settings.window_ms });
            }
            CoupFourreMode::Automatic => {
                // M-15.8's order: the first holder after the attacker in turn order.
                let card = attack.safety().card();
                let mut seat = self.next(attacker);
                let holder = (0..self.players).find_map(|_| {
                    let found = (self.side_of(seat) == side && self.hands[seat.index()].get(card) > 0).then_some(seat);
                    seat = self.next(seat);
                    found
                });
                match holder {
                    Some(caller) => self.coup_fourre(caller, events),
                    None => {
                        let _ = self.close_window(events);
                    }
                }
            }
        }
    }

    /// M-10.4: the attack goes to the discard, the safety lies crosswise, the caller draws,
    /// then plays as on his own turn; the seats between the attacker and him lose their turn.
    fn coup_fourre(&mut self, caller: Seat, events: &mut Vec<Event>) {
        let Phase::Window { attacker, side, attack } = self.phase else { return };
        let safety = attack.safety();
        self.hands[caller.index()].take(safety.card());
        self.discard_card(attack.card());
        events.push(Event::CoupFourre { seat: caller, safety, attack });
        self.lay_safety(side, safety, Laid::CoupFourre, events);
        let mut lost = self.next(attacker);
        while lost != caller {
            events.push(Event::LostTurn { seat: lost });
            lost = self.next(lost);
        }
        if self.settings.blocked_hand == BlockedHand::EndOnEmptyPile && self.drew_last {
            // M-11.3 option: the last card went in the attacker's turn; the call stands and
            // scores, and the hand ends with the window, with no replay.
            self.end_hand(None, events);
            return;
        }
        self.draw_for(caller, events);
        self.start_turn(caller, events);
    }

    /// M-9.4: lays a safety on `side`, sending what it cancels to the discard.
    fn lay_safety(&mut self, side: u8, safety: Safety, how: Laid, events: &mut Vec<Event>) {
        let rolls_at_once = self.settings.safety_on_attack == SafetyOnAttack::RollsAtOnce;
        let cleared = self.tableaux[usize::from(side)].lay_safety(safety, how, rolls_at_once);
        for card in cleared.into_iter().flatten() {
            self.discard_card(card);
            events.push(Event::Cleared { side, card });
        }
    }

    fn discard_card(&mut self, card: Card) {
        self.discard.add(card);
        self.discard_top = Some(card);
    }

    fn pop(&mut self) -> Option<Card> {
        let top = usize::from(self.draw_len.checked_sub(1)?);
        self.draw_len -= 1;
        if self.draw_len == 0 {
            self.drew_last = true;
        }
        self.draw.get(top).copied()
    }

    /// M-5.5, M-11.2: draws for `seat` if the pile has a card.
    fn draw_for(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if let Some(card) = self.pop() {
            self.hands[seat.index()].add(card);
            events.push(Event::Drew { seat, card: Some(card) });
        }
    }

    /// M-5.1 then M-11.3: the next turn, or the end of a hand whose turn that drew the last
    /// card is over (option), or whose cards are all played out.
    fn end_turn(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if self.settings.blocked_hand == BlockedHand::EndOnEmptyPile && self.drew_last {
            self.end_hand(None, events);
        } else {
            let next = self.next(seat);
            self.start_turn(next, events);
        }
    }

    /// M-5.5: `seat`'s turn starts with its draw; M-11.2: a seat with no card passes; M-11.3:
    /// with the pile and every hand empty, the hand is over.
    fn start_turn(&mut self, mut seat: Seat, events: &mut Vec<Event>) {
        for _ in 0..self.players {
            let cards_left = self.hands[..usize::from(self.players)].iter().any(|h| h.total() > 0);
            if self.draw_len == 0 && !cards_left {
                break;
            }
            events.push(Event::Turn { seat });
            self.draw_for(seat, events);
            if self.hands[seat.index()].total() > 0 {
                self.phase = Phase::Turn { seat };
                return;
            }
            events.push(Event::Passed { seat });
            seat = self.next(seat);
        }
        self.end_hand(None, events);
    }

    /// M-11, M-12: the hand is over; `finisher` laid exactly the target.
    fn end_hand(&mut self, finisher: Option<u8>, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        let score = score_hand(self.tableaux(), finisher, &self.settings);
        self.score = Some(score);
        events.push(Event::HandEnded { hand: self.number, finished: finisher.is_some(), score });
    }

    /// Every action `seat` may take now, into `out` (which it does not clear).
    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if seat.0 >= self.players {
            return;
        }
        match self.phase {
            Phase::Over => {}
            Phase::Window { .. } => {
                if self.check(seat, Action::CoupFourre).is_ok() {
                    out.push(Action::CoupFourre);
                }
            }
            Phase::Turn { seat: active } if active == seat => {
                let own = self.side_of(seat);
                for card in Card::ALL {
                    if self.hands[seat.index()].get(card) == 0 {
                        continue;
                    }
                    if matches!(card.family(), Family::Attack(_)) {
                        for side in (0..self.sides).filter(|&s| s != own) {
                            let play = Action::Play { card, on: Some(side) };
                            if self.check(seat, play).is_ok() {
                                out.push(play);
                            }
                        }
                    } else if self.check(seat, Action::Play { card, on: None }).is_ok() {
                        out.push(Action::Play { card, on: None });
                    }
                    out.push(Action::Discard { card });
                }
            }
            Phase::Turn { .. } => {}
        }
    }

    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }
}

/// Why a situation cannot be arranged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArrangeError {
    #[error("M-1.2: no {} is left in the draw pile to place", card.name())]
    NotInDrawPile { card: Card },
    #[error("M-2.1: there is no seat {} at this table", seat.number())]
    NoSuchSeat { seat: Seat },
    #[error("M-2.2: there is no side {side} at this table")]
    NoSuchSide { side: u8 },
    #[error("M-5.1: a hand holds at most 7 cards")]
    HandTooBig,
    #[error("M-4: {} cannot be laid on that tableau as arranged", card.name())]
    NotLayable { card: Card },
}

/// Arranging a situation, for tests and the scenario runner: cards move between the draw
/// pile and where they are placed, so the box stays whole (`census`).
impl Manche {
    /// Takes `card` out of the draw pile — or, when the deal put every copy left in hands,
    /// out of the hand of a seat the situation leaves as dealt, which gets the draw pile's
    /// bottom card for it: so whether an arrangement can be made never depends on the seed.
    fn take_from_draw(&mut self, card: Card) -> Result<(), ArrangeError> {
        let len = usize::from(self.draw_len);
        if let Some(at) = self.draw[..len].iter().position(|&c| c == card) {
            self.draw.copy_within(at + 1..len, at);
            self.draw_len -= 1;
            return Ok(());
        }
        let dealt = (0..usize::from(self.players))
            .find(|&s| self.arranged & (1 << s) == 0 && self.hands[s].get(card) > 0)
            .ok_or(ArrangeError::NotInDrawPile { card })?;
        let instead = *self.draw[..len].first().ok_or(ArrangeError::NotInDrawPile { card })?;
        self.draw.copy_within(1..len, 0);
        self.draw_len -= 1;
        self.hands[dealt].take(card);
        self.hands[dealt].add(instead);
        Ok(())
    }

    fn put_back(&mut self, card: Card) {
        let len = usize::from(self.draw_len);
        if len < DECK_SIZE {
            // At the bottom, so the next draws are the arranged top.
            self.draw.copy_within(0..len, 1);
            self.draw[0] = card;
            self.draw_len += 1;
        }
    }

    /// Gives `seat` exactly `cards` (its old hand goes back under the draw pile).
    pub fn arrange_hand(&mut self, seat: Seat, cards: &[Card]) -> Result<(), ArrangeError> {
        if seat.0 >= self.players {
            return Err(ArrangeError::NoSuchSeat { seat });
        }
        if cards.len() > 7 {
            return Err(ArrangeError::HandTooBig);
        }
        let old = std::mem::take(&mut self.hands[seat.index()]);
        for card in old.cards() {
            self.put_back(card);
        }
        self.arranged |= 1 << seat.0;
        for &card in cards {
            self.take_from_draw(card)?;
            self.hands[seat.index()].add(card);
        }
        Ok(())
    }

    /// Lays `cards` on `side`'s tableau in order, as plays would (an attack as one that stood),
    /// each taken from the draw pile.
    pub fn arrange_tableau(&mut self, side: u8, cards: &[Card]) -> Result<(), ArrangeError> {
        if side >= self.sides {
            return Err(ArrangeError::NoSuchSide { side });
        }
        for &card in cards {
            self.take_from_draw(card)?;
            let t = &mut self.tableaux[usize::from(side)];
            match card.family() {
                Family::Distance(km) => t.lay_distance(card, km),
                Family::Attack(attack) => t.suffer(attack),
                Family::Remedy(_) => {
                    let before = t.cards.total();
                    t.remedy(card);
                    if t.cards.total() == before {
                        return Err(ArrangeError::NotLayable { card });
                    }
                }
                Family::Safety(safety) => {
                    let mut events = Vec::new();
                    self.lay_safety(side, safety, Laid::Normal, &mut events);
                }
            }
        }
        Ok(())
    }

    /// Puts `cards` on top of the draw pile, the first drawn first.
    pub fn arrange_draw_top(&mut self, cards: &[Card]) -> Result<(), ArrangeError> {
        for &card in cards.iter().rev() {
            self.take_from_draw(card)?;
            let len = usize::from(self.draw_len);
            self.draw[len] = card;
            self.draw_len += 1;
        }
        Ok(())
    }

    /// Leaves only `keep` cards in the draw pile, e.g. to reach the end of a hand: the others
    /// go to the discard from the bottom, so the cards `arrange_draw_top` placed stay on top
    /// (at most `keep` of them, the first drawn first).
    pub fn arrange_draw_count(&mut self, keep: u8) {
        let len = usize::from(self.draw_len);
        let gone = len.saturating_sub(usize::from(keep));
        for at in 0..gone {
            let card = self.draw[at];
            self.discard_card(card);
        }
        self.draw.copy_within(gone..len, 0);
        self.draw_len = keep.min(self.draw_len);
        self.drew_last |= self.draw_len == 0;
    }

    /// Makes it `seat`'s turn (it has drawn: no draw happens now).
    pub fn arrange_turn(&mut self, seat: Seat) -> Result<(), ArrangeError> {
        if seat.0 >= self.players {
            return Err(ArrangeError::NoSuchSeat { seat });
        }
        self.phase = Phase::Turn { seat };
        Ok(())
    }
}

#[cfg(test)]
impl Manche {
    /// Deals again every card `viewer` cannot see (the draw pile and the hands it may not
    /// look at), keeping each hand's size: what a view must not depend on.
    pub(crate) fn redeal_secrets(&mut self, viewer: Option<Seat>, rng: &mut impl rand::Rng) {
        use rand::RngExt;
        let hidden: Vec<Seat> = (0..self.players).map(Seat).filter(|&s| !self.sees_hand(viewer, s)).collect();
        let mut pool: Vec<Card> = self.draw[..usize::from(self.draw_len)].to_vec();
        for &s in &hidden {
            pool.extend(self.hands[s.index()].cards());
        }
        for i in (1..pool.len()).rev() {
            pool.swap(i, rng.random_range(0..=i));
        }
        let mut cards = pool.into_iter();
        for &s in &hidden {
            let n = self.hands[s.index()].total();
            self.hands[s.index()] = CardCounts::default();
            for card in cards.by_ref().take(n) {
                self.hands[s.index()].add(card);
            }
        }
        for (slot, card) in self.draw.iter_mut().zip(cards) {
            *slot = card;
        }
    }
}

/// M-2.2, M-2.3: partners sit opposite, so seat `s` drives car `s mod sides`.
pub fn side_of(seat: Seat, sides: u8) -> u8 {
    seat.0.checked_rem(sides).unwrap_or(0)
}
