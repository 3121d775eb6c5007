//! 1000 Bornes practice on this laptop: the engine with bots in the other seats, driven by the
//! window's clock — bots think, a Coup-Fourré window stays open its length and a bot holding
//! the safety calls after 0.6 to 1.5 s (M-15.11). No host and no network: what may be done
//! still comes from the engine's legal actions, as it will from the host's at a table.

use crate::lang::Words;
use crate::ui::mille_bornes::MbTable;
use bolide_table::{BotLevel, Seat};
use mille_bornes::{Action, Event, Partie, Phase, RuleError, Settings, View};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A bot's thinking time between two turns (µs).
const BOT_THINK_US: u64 = 700_000;

pub struct LocalGame {
    partie: Partie,
    /// The seat this laptop plays.
    pub you: Seat,
    pub names: Vec<String>,
    level: BotLevel,
    rng: ChaCha8Rng,
    /// Every event, as the player may see it (others' draws hidden); the last few thousand.
    pub log: Vec<Event>,
    /// The whole game's events as the player saw them, for the deal check at the end (a
    /// game is a few thousand events).
    full_log: Vec<Event>,
    /// When the next bot acts (µs on the caller's clock), and the window's schedule.
    next_bot_at: Option<u64>,
    window: Option<Window>,
    /// Your last refused action's rule, for the screen (`None` after an accepted one).
    pub refusal: Option<RuleError>,
    /// The last Coup-Fourré: who called, and how long after the attack appeared (µs).
    pub last_call: Option<(Seat, u64)>,
    scratch: Vec<Action>,
}

/// The open Coup-Fourré window, on this laptop's clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    pub opened_at: u64,
    pub closes_at: u64,
    /// When a bot holding the safety calls, if one does.
    bot_call: Option<(Seat, u64)>,
}

impl LocalGame {
    /// A game for `players` (you at seat 0) against bots of `level`, dealt from `seed`.
    pub fn new(
        players: u8,
        level: BotLevel,
        seed: u64,
        names: Vec<String>,
        settings: Settings,
        now: u64,
    ) -> Result<LocalGame, String> {
        let mut events = Vec::new();
        let partie = Partie::new(settings, players, seed, &mut events).map_err(|e| e.to_string())?;
        let mut game = LocalGame {
            partie,
            you: Seat(0),
            names,
            level,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0xb07),
            log: Vec::new(),
            full_log: Vec::new(),
            next_bot_at: None,
            window: None,
            refusal: None,
            last_call: None,
            scratch: Vec::new(),
        };
        game.record(events, now);
        Ok(game)
    }

    pub fn view(&self) -> View {
        self.partie.view(Some(self.you))
    }

    pub fn legal(&self) -> Vec<Action> {
        self.partie.legal_actions(self.you)
    }

    pub fn partie(&self) -> &Partie {
        &self.partie
    }

    /// The window's title: where the player is (a glance at the task bar, and the hook the
    /// window scripts follow).
    pub fn title(&self) -> &'static str {
        crate::ui::mille_bornes::title(Some(&self.view()), Some(self.you))
    }

    /// M-3.2: every card this player saw, re-dealt from the game's seed once it is over (at a
    /// table, the host reveals the seed at the end; here the engine is on this laptop).
    pub fn cards_checked(&self) -> Option<Result<usize, mille_bornes::deal::DealMismatch>> {
        if !self.partie.is_over() {
            return None;
        }
        let mut watch = mille_bornes::deal::DealWatch::default();
        self.full_log.iter().for_each(|e| watch.saw(*e));
        Some(watch.check(self.partie.seed(), self.partie.manche().players()))
    }

    pub fn window(&self) -> Option<Window> {
        self.window
    }

    /// Your action. A Coup-Fourré without the safety is refused to you alone (M-15.5).
    pub fn play(&mut self, action: Action, now: u64) {
        let mut events = Vec::new();
        let opened = self.window.map(|w| w.opened_at);
        match self.partie.apply_into(self.you, action, &mut events) {
            Ok(()) => {
                self.refusal = None;
                if let (Action::CoupFourre, Some(opened)) = (action, opened) {
                    self.last_call = Some((self.you, now.saturating_sub(opened)));
                }
                self.record(events, now);
            }
            Err(e) => self.refusal = Some(e),
        }
    }

    /// Lets the clock run to `now`: bots play, a bot calls, a window closes. Returns when the
    /// caller should look again (µs), if anything is scheduled.
    pub fn run_to(&mut self, now: u64) -> Option<u64> {
        for _ in 0..64 {
            if self.partie.is_over() {
                return None;
            }
            if let Some(w) = self.window {
                if let Some((seat, at)) = w.bot_call.filter(|(_, at)| *at <= now) {
                    let mut events = Vec::new();
                    if self.partie.apply_into(seat, Action::CoupFourre, &mut events).is_ok() {
                        self.last_call = Some((seat, at.saturating_sub(w.opened_at)));
                        self.record(events, now);
                        continue;
                    }
                }
                if w.closes_at <= now {
                    let mut events = Vec::new();
                    if self.partie.close_window(&mut events).is_ok() {
                        self.record(events, now);
                        continue;
                    }
                }
                return Some(w.bot_call.map_or(w.closes_at, |(_, at)| at.min(w.closes_at)));
            }
            let Phase::Turn { seat } = self.partie.manche().phase() else { return None };
            if seat == self.you {
                return None;
            }
            let at = *self.next_bot_at.get_or_insert(now + BOT_THINK_US);
            if at > now {
                return Some(at);
            }
            let level = self.level;
            let m = self.partie.manche();
            let action = mille_bornes::bots::decide(m, seat, level, &mut self.rng, &mut self.scratch)?;
            let mut events = Vec::new();
            if self.partie.apply_into(seat, action, &mut events).is_err() {
                return None;
            }
            self.record(events, now);
        }
        Some(now)
    }

    /// Keeps what happened, as you may see it, and schedules what comes next.
    fn record(&mut self, events: Vec<Event>, now: u64) {
        self.next_bot_at = None;
        for event in events {
            if let Event::WindowOpened { side, ms, .. } = event {
                let closes_at = now + u64::from(ms) * 1000;
                // M-15.11: a bot of the attacked side that holds the safety calls after a
                // delay drawn from 0.6 to 1.5 s, so that everyone sees the attack first.
                let m = self.partie.manche();
                let bot_call = m
                    .seats_of(side)
                    .filter(|s| *s != self.you)
                    .find(|s| m.check(*s, Action::CoupFourre).is_ok())
                    .map(|s| (s, now + self.rng.random_range(600_000..=1_500_000)));
                self.window = Some(Window { opened_at: now, closes_at, bot_call });
            }
            if matches!(event, Event::CoupFourre { .. } | Event::AttackStands { .. } | Event::HandEnded { .. }) {
                self.window = None;
            }
            let seen = self.partie.event_for(event, Some(self.you));
            self.log.push(seen);
            if self.full_log.len() < 200_000 {
                self.full_log.push(seen);
            }
        }
        if self.log.len() > 4000 {
            self.log.drain(..1000);
        }
    }
}

impl MbTable for LocalGame {
    fn view(&self) -> Option<View> {
        Some(LocalGame::view(self))
    }

    fn legal(&self) -> Vec<Action> {
        LocalGame::legal(self)
    }

    fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    fn you(&self) -> Option<Seat> {
        Some(self.you)
    }

    fn refusal(&self, w: &Words) -> Option<String> {
        self.refusal.as_ref().map(|refusal| match refusal {
            RuleError::SafetyNotHeld { safety } => (w.mb_cf_refused)(safety.card().name()),
            other => other.to_string(),
        })
    }

    fn log(&self) -> &[Event] {
        &self.log
    }

    fn window(&self) -> Option<(u64, u64)> {
        self.window.map(|w| (w.opened_at, w.closes_at))
    }

    fn last_call(&self) -> Option<(Seat, Option<u64>)> {
        self.last_call.map(|(seat, us)| (seat, Some(us)))
    }

    fn deadline(&self) -> Option<u64> {
        None
    }

    fn standings(&self) -> Option<Vec<(u8, Seat, u32, u8)>> {
        let mut lines = self.partie.standings()?;
        // Within a shared place (M-13.3 counts hands only), the most points first.
        lines.sort_by_key(|s| (s.rank, std::cmp::Reverse(s.points), s.seat));
        let sides = self.partie.manche().sides();
        Some(lines.iter().filter(|s| s.seat.0 < sides).map(|s| (s.rank, s.seat, s.points, s.hands_won)).collect())
    }

    fn cards_checked(&self) -> Option<Result<usize, String>> {
        LocalGame::cards_checked(self).map(|r| r.map_err(|e| e.to_string()))
    }

    fn act(&mut self, action: Action, now: u64) {
        self.play(action, now);
    }

    fn tick(&mut self, now: u64) -> Option<u64> {
        self.run_to(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["Anne", "Bot 1", "Bot 2", "Bot 3"].map(String::from).to_vec()
    }

    /// Plays the game with the local clock, you discarding whatever you hold or calling when
    /// you may; returns the windows seen.
    #[test]
    fn m_15_11_a_local_game_runs_with_bots_windows_and_their_calls_to_its_end() {
        let mut g = LocalGame::new(4, BotLevel::Strategic, 5, names(), Settings::default(), 0).unwrap();
        let (mut now, mut windows, mut bot_calls) = (0u64, 0, 0);
        for _ in 0..200_000 {
            if g.partie().is_over() {
                break;
            }
            let before = g.log.len();
            let next = g.run_to(now);
            for e in &g.log[before..] {
                match e {
                    Event::WindowOpened { .. } => windows += 1,
                    Event::CoupFourre { seat, .. } if *seat != g.you => bot_calls += 1,
                    _ => {}
                }
            }
            let legal = g.legal();
            if let Some(a) = legal.iter().find(|a| **a == Action::CoupFourre).or(legal.first()) {
                g.play(*a, now);
                continue;
            }
            now = next.unwrap_or(now + 1_000).max(now + 1);
        }
        assert!(g.partie().is_over(), "the game ends");
        assert!(windows > 0, "attacks opened windows");
        assert!(
            g.log.iter().all(|e| !matches!(e, Event::Drew { seat, card: Some(_) } if *seat != g.you)),
            "others' draws stay hidden"
        );
        let _ = bot_calls;
    }

    #[test]
    fn m_15_5_your_call_without_the_safety_is_refused_to_you() {
        let mut g = LocalGame::new(2, BotLevel::Random, 1, names()[..2].to_vec(), Settings::default(), 0).unwrap();
        g.play(Action::CoupFourre, 0);
        assert_eq!(g.refusal, Some(RuleError::NoWindow));
    }
}
