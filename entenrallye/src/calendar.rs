//! The calendar (E-3): a month and a step 1…N, N the number of players, kept as one integer.

use serde::{Deserialize, Serialize};

/// E-3.4: `time` 0 is "not started"; `time` ≥ 1 is month ⌈T/N⌉, step T − (month − 1)·N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Calendar {
    pub players: u8,
    pub time: u16,
}

/// What one time step did (E-3.3, E-3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tick {
    /// The calendar moved on within the year.
    Moved,
    /// The calendar entered this month (May or November: a round-up, E-12.6).
    Entered(u8),
    /// The step taken from December/N: the game is over (E-13.1).
    YearOver,
}

impl Calendar {
    pub fn new(players: u8) -> Calendar {
        Calendar { players: players.max(1), time: 0 }
    }

    fn n(self) -> u16 {
        u16::from(self.players.max(1))
    }

    /// 0 before January (E-3.2: not started counts as earlier than January), else 1–12.
    pub fn month(self) -> u8 {
        if self.time == 0 { 0 } else { ((self.time - 1) / self.n() + 1).min(12) as u8 }
    }

    /// 0 before January, else 1…N.
    pub fn step(self) -> u8 {
        if self.time == 0 { 0 } else { ((self.time - 1) % self.n() + 1) as u8 }
    }

    /// E-3.3: one time step.
    pub fn tick(&mut self) -> Tick {
        if self.time >= 12 * self.n() {
            return Tick::YearOver;
        }
        let month = self.month();
        self.time += 1;
        if self.month() != month && matches!(self.month(), 5 | 11) { Tick::Entered(self.month()) } else { Tick::Moved }
    }

    /// The calendar at `month`/`step` (for tests and scenarios).
    pub fn at(players: u8, month: u8, step: u8) -> Calendar {
        let n = u16::from(players.max(1));
        Calendar { players: players.max(1), time: (u16::from(month.max(1)) - 1) * n + u16::from(step.max(1)) }
    }
}
