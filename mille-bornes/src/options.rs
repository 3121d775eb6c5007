//! The table options of M-14, each with the rule it changes, and the one check a flag, the
//! lobby and the wire all go through.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// M-2.1: the player counts the box plays.
pub const PLAYER_COUNTS: [u8; 5] = [2, 3, 4, 6, 8];

/// Every option of M-14 (defaults first there, `Default` here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// M-2.3: how the teams are made at 6 and 8 players (the lobby seats partners opposite).
    pub teams: TeamMaking,
    /// M-2.4: partners see each other's hand (for teaching).
    pub open_hands: bool,
    /// M-2.5: the distance of a trip, 1000, or 700 at 4 and 8 players.
    pub target_km: u16,
    /// M-3.1: the first hand's dealer.
    pub first_dealer: FirstDealer,
    /// M-5.7: seconds before a seat's bot plays its turn (0: no timer).
    pub turn_timer_s: u16,
    /// M-9.4: a safety laid normally on its standing attack.
    pub safety_on_attack: SafetyOnAttack,
    /// M-11.3: a hand nobody finishes.
    pub blocked_hand: BlockedHand,
    /// M-11.4: several sides share the most km in a blocked hand.
    pub blocked_tie: BlockedTie,
    /// M-12.5: who may score the bonus for winning without a 200.
    pub no_200_bonus: No200Bonus,
    /// M-12.6: who scores the shut-out.
    pub shut_out: ShutOut,
    /// M-13.1 to M-13.3: points to a target, or a number of hands.
    pub mode: GameMode,
    /// M-15.3: the Coup-Fourré window's length, ms.
    pub window_ms: u16,
    /// M-15.5: the holder's own screen highlights the matching safety.
    pub highlight_safety: bool,
    /// M-15.13: the Coup-Fourré as a real-time window, or laid by the host at once.
    pub coup_fourre: CoupFourreMode,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            teams: TeamMaking::Random,
            open_hands: false,
            target_km: 1000,
            first_dealer: FirstDealer::Random,
            turn_timer_s: 0,
            safety_on_attack: SafetyOnAttack::NeedsFeuVert,
            blocked_hand: BlockedHand::PlayOut,
            blocked_tie: BlockedTie::EachWins,
            no_200_bonus: No200Bonus::AnyWinner,
            shut_out: ShutOut::Literal,
            mode: GameMode::Points { target: 5000 },
            window_ms: 3000,
            highlight_safety: true,
            coup_fourre: CoupFourreMode::RealTime,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TeamMaking {
    Random,
    HostAssigns,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstDealer {
    /// Drawn from the game's seed.
    Random,
    /// The host's pick: a seat number from 0.
    Seat(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SafetyOnAttack {
    /// The side is `Remedied` and needs a Feu Vert.
    NeedsFeuVert,
    /// The side rolls at once.
    RollsAtOnce,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BlockedHand {
    /// Played out until the draw pile and every hand are empty.
    PlayOut,
    /// Ends with the turn that drew the last card.
    EndOnEmptyPile,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BlockedTie {
    EachWins,
    NobodyWins,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum No200Bonus {
    AnyWinner,
    OnlyFinisher,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShutOut {
    Literal,
    OnlySidesWithDistance,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameMode {
    /// M-13.2: the game ends after the first hand that leaves a side at `target` or more.
    Points { target: u32 },
    /// M-13.3: a set number of hands; the most hands won wins.
    Hands { hands: u8 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoupFourreMode {
    RealTime,
    Automatic,
}

/// An option this table cannot play, and what to pick instead.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum SettingsError {
    #[error("M-2.1: 1000 Bornes plays 2, 3, 4, 6 or 8 players, not {players}")]
    Players { players: u8 },
    #[error("M-2.5: the trip is 1000 km, or 700 at 4 and 8 players (not {km} at {players})")]
    TargetKm { km: u16, players: u8 },
    #[error("M-3.1: the first dealer must be a seat from 1 to {players}")]
    FirstDealer { players: u8 },
    #[error("M-5.7: the turn timer is off, 30 s or 60 s (not {seconds} s)")]
    TurnTimer { seconds: u16 },
    #[error("M-13.2: the points target is between 1000 and 20000 (not {target})")]
    PointsTarget { target: u32 },
    #[error("M-13.3: a game of hands plays 1, 3 or 5 (not {hands})")]
    Hands { hands: u8 },
    #[error("M-15.3: the Coup-Fourré window lasts 2, 3, 5 or 8 s (not {ms} ms)")]
    Window { ms: u16 },
}

/// M-2.2: how many sides (cars) `players` make: each player alone up to 4, pairs at 6 and 8.
pub fn sides_for(players: u8) -> u8 {
    if players >= 6 { players / 2 } else { players }
}

impl Settings {
    /// Whether these options can be played by `players`, naming the first that cannot.
    pub fn check(&self, players: u8) -> Result<(), SettingsError> {
        if !PLAYER_COUNTS.contains(&players) {
            return Err(SettingsError::Players { players });
        }
        let km_ok = self.target_km == 1000 || (self.target_km == 700 && matches!(players, 4 | 8));
        if !km_ok {
            return Err(SettingsError::TargetKm { km: self.target_km, players });
        }
        if let FirstDealer::Seat(seat) = self.first_dealer
            && seat >= players
        {
            return Err(SettingsError::FirstDealer { players });
        }
        if !matches!(self.turn_timer_s, 0 | 30 | 60) {
            return Err(SettingsError::TurnTimer { seconds: self.turn_timer_s });
        }
        match self.mode {
            GameMode::Points { target } if !(1000..=20_000).contains(&target) => {
                return Err(SettingsError::PointsTarget { target });
            }
            GameMode::Hands { hands } if !matches!(hands, 1 | 3 | 5) => return Err(SettingsError::Hands { hands }),
            _ => {}
        }
        if !matches!(self.window_ms, 2000 | 3000 | 5000 | 8000) {
            return Err(SettingsError::Window { ms: self.window_ms });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m_2_1_only_2_3_4_6_or_8_players() {
        for players in 0..=12 {
            let ok = Settings::default().check(players).is_ok();
            assert_eq!(ok, matches!(players, 2 | 3 | 4 | 6 | 8), "{players} players");
        }
    }

    #[test]
    fn m_2_2_sides_are_players_up_to_4_and_pairs_at_6_and_8() {
        assert_eq!(PLAYER_COUNTS.map(sides_for), [2, 3, 4, 3, 4]);
    }

    #[test]
    fn m_2_5_a_700_km_trip_only_at_4_and_8_players() {
        let short = Settings { target_km: 700, ..Settings::default() };
        for players in PLAYER_COUNTS {
            assert_eq!(short.check(players).is_ok(), matches!(players, 4 | 8), "{players}");
        }
        let odd = Settings { target_km: 900, ..Settings::default() };
        assert_eq!(odd.check(4), Err(SettingsError::TargetKm { km: 900, players: 4 }));
    }

    #[test]
    fn m_14_every_option_is_checked_with_the_rule_it_breaks() {
        let bad = [
            (Settings { first_dealer: FirstDealer::Seat(4), ..Settings::default() }, "M-3.1"),
            (Settings { turn_timer_s: 45, ..Settings::default() }, "M-5.7"),
            (Settings { mode: GameMode::Points { target: 0 }, ..Settings::default() }, "M-13.2"),
            (Settings { mode: GameMode::Hands { hands: 2 }, ..Settings::default() }, "M-13.3"),
            (Settings { window_ms: 100, ..Settings::default() }, "M-15.3"),
        ];
        for (settings, rule) in bad {
            let err = settings.check(4).unwrap_err();
            assert!(err.to_string().starts_with(rule), "{err}");
        }
        assert_eq!(Settings { first_dealer: FirstDealer::Seat(3), ..Settings::default() }.check(4), Ok(()));
    }
}

/// The lobby of a 1000 Bornes table: the game's settings, the seats the host's bots fill,
/// and where everyone sits when the first pilot places the teams (M-2.3).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Lobby {
    pub game: Settings,
    pub bots: u8,
    pub bot_level: bolide_table::BotLevel,
    /// M-2.3 with `TeamMaking::HostAssigns`: the entrant at each place (the people in the
    /// lobby's order, then the bots); partners sit `players / 2` places apart. Empty, or
    /// not a seating of the table that starts: as they came.
    #[serde(default)]
    pub places: Vec<u8>,
}

impl bolide_table::Lobby for Lobby {
    type Game = Settings;

    fn bots(&self) -> u8 {
        self.bots
    }

    fn bot_level(&self) -> bolide_table::BotLevel {
        self.bot_level
    }

    fn game(&self) -> Settings {
        self.game
    }

    /// M-5.7: 30 or 60 s when the table set a turn timer; off, the table's own time limit
    /// still keeps a laptop that never plays from holding the game.
    fn turn_limit_ms(&self) -> Option<u64> {
        (self.game.turn_timer_s > 0).then(|| u64::from(self.game.turn_timer_s) * 1000)
    }

    fn check(&self) -> Result<(), String> {
        let most = crate::manche::MAX_PLAYERS;
        if self.places.len() > most || self.places.iter().any(|&p| usize::from(p) >= most) {
            return Err(format!("M-2.3: a table seats at most {most} players: places name seats 0 to {}", most - 1));
        }
        Ok(())
    }

    /// M-2.3: at 6 and 8 players the teams are drawn from the OS-seeded room's generator, or
    /// placed by the first pilot; with no teams, everyone sits as they came.
    fn seating(&self, players: u8, rng: &mut rand_chacha::ChaCha8Rng) -> Option<Vec<u8>> {
        use rand::RngExt;
        if sides_for(players) == players {
            return None;
        }
        match self.game.teams {
            TeamMaking::Random => {
                let mut order: Vec<u8> = (0..players).collect();
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.random_range(0..=i));
                }
                Some(order)
            }
            TeamMaking::HostAssigns => {
                bolide_table::is_seating(&self.places, usize::from(players)).then(|| self.places.clone())
            }
        }
    }
}
