//! The whole game (*partie*, M-13): hands one after another, the deal passing to the left
//! (M-11.5), running totals, and who wins. Its `apply` is what the table and the scenario
//! runner call.

use crate::action::{Action, RuleError};
use crate::deal;
use crate::event::Event;
use crate::manche::{Manche, Phase};
use crate::options::{FirstDealer, GameMode, Settings, SettingsError};
use crate::score::{HandScore, MAX_SIDES};
use bolide_table::Seat;
use serde::{Deserialize, Serialize};

pub use crate::view::{View, window_moment};

/// M-15.11: a bot's Coup-Fourré call comes this long after the window opens, µs, drawn
/// uniformly (the shortest window, 2 s, M-15.3, still holds the longest).
pub const BOT_CALL_US: (u64, u64) = (600_000, 1_500_000);

#[derive(Debug, Clone)]
pub struct Partie {
    seed: u64,
    manche: Manche,
    totals: [u32; MAX_SIDES],
    hands_won: [u8; MAX_SIDES],
    history: Vec<HandScore>,
    over: bool,
    /// The last valid Coup-Fourré: the window it was called in (its name,
    /// [`window_moment`]) and its caller, for the table's photo finish (M-15.9).
    called: Option<(u64, Seat)>,
}

/// One seat's place at the end (M-13.2, M-13.3): partners share their side's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    pub side: u8,
    pub points: u32,
    pub hands_won: u8,
    /// 1 for the winner; shared on a tie.
    pub rank: u8,
}

impl Partie {
    /// M-3: a new game for `players` from `seed`; the first hand is dealt into `events`.
    pub fn new(settings: Settings, players: u8, seed: u64, events: &mut Vec<Event>) -> Result<Partie, SettingsError> {
        settings.check(players)?;
        let dealer = match settings.first_dealer {
            FirstDealer::Random => Seat(deal::first_dealer(seed, players)),
            FirstDealer::Seat(seat) => Seat(seat),
        };
        let manche = Manche::deal(settings, players, seed, 0, dealer, events)?;
        let (totals, hands_won) = ([0; MAX_SIDES], [0; MAX_SIDES]);
        Ok(Partie { seed, manche, totals, hands_won, history: Vec::new(), over: false, called: None })
    }

    pub fn manche(&self) -> &Manche {
        &self.manche
    }

    /// The hand itself, for arranging a situation (tests, the scenario runner): its
    /// `arrange_*` keep the box whole. Nothing a seat sends reaches it.
    pub fn manche_mut(&mut self) -> &mut Manche {
        &mut self.manche
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    pub fn totals(&self) -> &[u32] {
        &self.totals[..usize::from(self.manche.sides())]
    }

    pub fn hands_won(&self) -> &[u8] {
        &self.hands_won[..usize::from(self.manche.sides())]
    }

    pub fn history(&self) -> &[HandScore] {
        &self.history
    }

    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.over {
            return Err(RuleError::GameOver);
        }
        self.manche.check(seat, action)
    }

    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    pub fn apply_into(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.over {
            return Err(RuleError::GameOver);
        }
        let window = window_moment(self.manche.number(), self.manche.attacks());
        self.manche.apply_into(seat, action, events)?;
        if action == Action::CoupFourre {
            self.called = Some((window, seat));
        }
        self.after(events);
        Ok(())
    }

    /// The table closes the open Coup-Fourré window with no valid call.
    pub fn close_window(&mut self, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.over {
            return Err(RuleError::GameOver);
        }
        self.manche.close_window(events)?;
        self.after(events);
        Ok(())
    }

    /// M-11.5, M-13: once a hand is over, add its score and deal the next, or end the game.
    fn after(&mut self, events: &mut Vec<Event>) {
        if self.manche.phase() != Phase::Over {
            return;
        }
        let Some(score) = self.manche.score().copied() else { return };
        for (side, line) in score.lines().iter().enumerate() {
            self.totals[side] = self.totals[side].saturating_add(line.total());
            self.hands_won[side] = self.hands_won[side].saturating_add(u8::from(line.winner()));
        }
        self.history.push(score);
        let played = self.history.len();
        let over = match self.manche.settings().mode {
            GameMode::Points { target } => self.totals().iter().any(|&t| t >= target),
            GameMode::Hands { hands } => played >= usize::from(hands),
        };
        if over || played >= usize::from(u16::MAX) {
            self.over = true;
            events.push(Event::GameOver);
            return;
        }
        let m = &self.manche;
        let (settings, players, number, dealer) = (*m.settings(), m.players(), m.number(), m.next(m.dealer()));
        if let Ok(next) = Manche::deal(settings, players, self.seed, number + 1, dealer, events) {
            self.manche = next;
        }
    }

    pub fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        if !self.over {
            self.manche.legal_actions_into(seat, out);
        }
    }

    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(seat, &mut out);
        out
    }

    /// M-13.2 (points, then hands won) or M-13.3 (hands won): each seat's place, partners
    /// sharing their side's; `None` until the game is over.
    pub fn standings(&self) -> Option<Vec<Standing>> {
        self.over.then(|| self.places())
    }

    /// Each seat's place by the running totals (M-13.2, M-13.3), whether or not the game is
    /// over: what a scenario prints.
    pub fn places(&self) -> Vec<Standing> {
        let key = |side: usize| match self.manche.settings().mode {
            GameMode::Points { .. } => (self.totals[side], self.hands_won[side]),
            GameMode::Hands { .. } => (u32::from(self.hands_won[side]), 0),
        };
        let sides = usize::from(self.manche.sides());
        let rank = |side: usize| 1 + (0..sides).filter(|&other| key(other) > key(side)).count() as u8;
        (0..self.manche.players())
            .map(|s| {
                let side = self.manche.side_of(Seat(s));
                let i = usize::from(side);
                Standing { seat: Seat(s), side, points: self.totals[i], hands_won: self.hands_won[i], rank: rank(i) }
            })
            .collect()
    }

    /// Starts the game from running totals and hands won, one per side (a scenario's
    /// situation): sides past the table's are refused, missing ones stay at 0.
    pub fn arrange_score(&mut self, totals: &[u32], hands_won: &[u8]) -> Result<(), crate::manche::ArrangeError> {
        let sides = usize::from(self.manche.sides());
        if let Some(side) = [totals.len(), hands_won.len()].into_iter().find(|n| *n > sides) {
            return Err(crate::manche::ArrangeError::NoSuchSide { side: u8::try_from(side - 1).unwrap_or(u8::MAX) });
        }
        self.totals[..totals.len()].copy_from_slice(totals);
        self.hands_won[..hands_won.len()].copy_from_slice(hands_won);
        Ok(())
    }

    /// What `viewer` may see now (M-3.4).
    pub fn view(&self, viewer: Option<Seat>) -> View {
        let m = &self.manche;
        let viewer = viewer.filter(|v| v.0 < m.players());
        let cards = |seat: Seat| m.hand(seat).map(|h| h.cards().collect()).unwrap_or_default();
        let (discard, discard_top) = m.discard();
        View {
            viewer,
            players: m.players(),
            sides: m.sides(),
            settings: *m.settings(),
            hand_number: m.number(),
            dealer: m.dealer(),
            phase: m.phase(),
            hand: viewer.map(cards).unwrap_or_default(),
            partner_hands: (0..m.players())
                .map(Seat)
                .filter(|&s| Some(s) != viewer && m.sees_hand(viewer, s))
                .map(|s| (s, cards(s)))
                .collect(),
            hand_sizes: (0..m.players()).map(|s| m.hand(Seat(s)).map_or(0, |h| h.total() as u8)).collect(),
            tableaux: m.tableaux().to_vec(),
            draw_count: m.draw_count(),
            discard_top,
            discard_count: discard.total() as u8,
            discarded: *discard,
            totals: self.totals().to_vec(),
            hands_won: self.hands_won().to_vec(),
            history: self.history.clone(),
            over: self.over,
            attacks: m.attacks(),
        }
    }

    /// `event` as `viewer` may see it: another seat's draw loses its card unless the viewer
    /// may see that seat's hand.
    pub fn event_for(&self, event: Event, viewer: Option<Seat>) -> Event {
        match event {
            Event::Drew { seat, card: Some(_) } if !self.manche.sees_hand(viewer, seat) => {
                Event::Drew { seat, card: None }
            }
            event => event,
        }
    }
}

/// 1000 Bornes at the table: a hand's turns are sequential decisions, and every attack opens
/// a timed moment for the attacked side (M-15: released at once, the news is public) that
/// ends with its window unless a Coup-Fourré ends it first.
impl bolide_table::Game for Partie {
    type Action = Action;
    type Event = Event;
    type View = View;
    type Settings = Settings;
    type Refusal = RuleError;

    type Words = crate::MilleBornes;
    const PLAYERS: (u8, u8) = (2, 8);

    fn check_settings(settings: &Settings, players: u8) -> Result<(), String> {
        settings.check(players).map_err(|e| e.to_string())
    }

    fn start(settings: &Settings, players: u8, seed: u64, events: &mut Vec<Event>) -> Result<Partie, String> {
        Partie::new(*settings, players, seed, events).map_err(|e| e.to_string())
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        Partie::check(self, seat, action)
    }

    fn apply(&mut self, seat: Seat, action: Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        self.apply_into(seat, action, events)
    }

    fn legal(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_actions_into(seat, out);
    }

    /// M-15.5, M-15.7: in a window every seat of the attacked side is offered the call,
    /// holding the safety or not, so that what its laptop is sent says nothing of its hand; a
    /// call without the safety is refused to that laptop alone (`RuleError::SafetyNotHeld`).
    fn offered(&self, seat: Seat, out: &mut Vec<Action>) {
        let m = &self.manche;
        match m.phase() {
            Phase::Window { side, .. } if !self.over && seat.0 < m.players() => {
                if m.side_of(seat) == side {
                    out.push(Action::CoupFourre);
                }
            }
            _ => self.legal_actions_into(seat, out),
        }
    }

    fn view(&self, viewer: Option<Seat>) -> View {
        Partie::view(self, viewer)
    }

    fn event_for(&self, event: &Event, viewer: Option<Seat>) -> Event {
        Partie::event_for(self, *event, viewer)
    }

    fn step(&self) -> bolide_table::Step {
        use bolide_table::{Release, Seats, Step};
        if self.over {
            return Step::Over;
        }
        let m = &self.manche;
        match m.phase() {
            Phase::Turn { seat } => Step::Sequential { seats: Seats::one(seat) },
            Phase::Window { side, .. } => Step::Timed {
                // Every attack is a new moment: the hand and the attack's number in it name it.
                moment: window_moment(m.number(), m.attacks()),
                contenders: m.seats_of(side).collect(),
                release: Release::Public,
                window_us: Some(u64::from(m.settings().window_ms) * 1000),
            },
            Phase::Over => Step::Over,
        }
    }

    fn time_is_up(&mut self, events: &mut Vec<Event>) -> Result<(), RuleError> {
        self.close_window(events)
    }

    /// M-15.9: after a valid call, everyone is told the caller's reaction as the table judged
    /// it — only the caller of this window's applied Coup-Fourré: a request left void, or one
    /// refused for want of the safety, tells nothing of a hand (M-15.10).
    fn photo_finish(&self, moment: u64, asked: &[bolide_table::Asked<Action>]) -> Option<Event> {
        let (_, caller) = self.called.filter(|(window, _)| *window == moment)?;
        let call = asked
            .iter()
            .filter(|a| a.seat == caller && a.action == Action::CoupFourre)
            .min_by_key(|a| a.reaction_us)?;
        Some(Event::Reaction { seat: call.seat, reaction_us: u32::try_from(call.reaction_us).unwrap_or(u32::MAX) })
    }

    /// M-15.1: the attack that opened the window, for a laptop whose stream is held up.
    fn twin(&self, events: &[Event]) -> Option<Event> {
        events.iter().rev().find(|e| matches!(e, Event::WindowOpened { .. })).copied()
    }

    fn bot(
        &self,
        seat: Seat,
        level: bolide_table::BotLevel,
        rng: &mut rand_chacha::ChaCha8Rng,
        scratch: &mut Vec<Action>,
    ) -> Option<Action> {
        if self.over {
            return None;
        }
        crate::bots::decide(&self.manche, seat, level, rng, scratch)
    }

    /// M-15.11: a bot that holds the safety calls after a delay drawn uniformly from 0.6 to
    /// 1.5 s, so that players see the attack before it is cancelled.
    fn bot_reaction_us(&self, _seat: Seat, rng: &mut rand_chacha::ChaCha8Rng) -> Option<u64> {
        use rand::RngExt;
        matches!(self.manche.phase(), Phase::Window { .. }).then(|| rng.random_range(BOT_CALL_US.0..=BOT_CALL_US.1))
    }

    fn standings(&self) -> Option<Vec<bolide_table::Standing>> {
        let lines = Partie::standings(self)?;
        Some(
            lines
                .iter()
                .map(|s| bolide_table::Standing { seat: s.seat, points: s.points, wins: s.hands_won, rank: s.rank })
                .collect(),
        )
    }
}

#[cfg(test)]
impl Partie {
    /// Ends the game with these totals and hands won, for the standings' tests.
    pub(crate) fn force_totals(&mut self, totals: &[u32], hands_won: &[u8]) {
        for (i, (t, w)) in totals.iter().zip(hands_won).enumerate() {
            self.totals[i] = *t;
            self.hands_won[i] = *w;
        }
        self.over = true;
    }
}
