//! 1000 Bornes as this host serves it: its table options through `--option`, its narration,
//! its scenarios, its bots' win rate and the engine's speed.

use super::{ScenarioReport, Served, SimulateAsk, seat_names, with_options};
use crate::flags::ServeArgs;
use crate::room::LobbyOf;
use bolide_table::Game;
use bolide_words::lang::Words;
use mille_bornes::{Action, Lobby, MilleBornes, Partie, Settings};
use std::path::Path;

impl Served for Partie {
    const TIMED: bool = true;

    /// Every table option through `--option`, read as the lobby's settings are read from the
    /// wire (the same names, the same checks).
    fn lobby(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>> {
        let game = with_options(Settings::default(), &args.options)?;
        Ok(Lobby { game, bots: args.bots, bot_level: args.bot_level, places: Vec::new() })
    }

    fn lobby_for_switch(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>> {
        Ok(Lobby { game: Settings::default(), bots: args.bots, bot_level: args.bot_level, places: Vec::new() })
    }

    /// Two calls of one Coup-Fourré window compete (M-10.4).
    fn contested(a: &Action, b: &Action) -> Option<&'static str> {
        (a == b).then_some("coup-fourré")
    }

    /// A game of 1000 Bornes as a spectator's log told it, then the final places, a line a side.
    fn narrate(text: &str, w: &Words) -> anyhow::Result<String> {
        use bolide_table::journal::replay;
        use bolide_words::mille_bornes::{describe, side_name};
        use std::fmt::Write;
        let names = seat_names::<MilleBornes>(text)?;
        let mut out = String::new();
        let (partie, _) = replay::<Partie>(text, |partie, events| {
            let view = Game::view(partie, None);
            for event in events {
                if let Some(line) = describe(&Game::event_for(partie, event, None), &view, &names, w) {
                    let _ = writeln!(out, "{line}");
                }
            }
        })?;
        if let Some(mut places) = Game::standings(&partie) {
            let view = Game::view(&partie, None);
            places.retain(|s| s.seat.0 < view.sides);
            places.sort_by_key(|s| (s.rank, std::cmp::Reverse(s.points), s.seat));
            for s in places {
                let side = side_name(&view, &names, s.seat.0);
                let _ = writeln!(out, "  {}", (w.mb_standing)(s.rank, &side, s.points, s.wins));
            }
        }
        Ok(out)
    }

    /// The good bot's win rate over whole games, or the engine's speed over hands of
    /// random-legal bots (timed here, at the binary's edge: the engine reads no clock).
    fn simulate(ask: &SimulateAsk) -> anyhow::Result<serde_json::Value> {
        use mille_bornes::{Manche, sim};
        let (players, seed) = (ask.players, ask.seed);
        Settings::default().check(players)?;
        let start = std::time::Instant::now();
        Ok(match ask.hands {
            Some(hands) => {
                let plays = sim::play_hands(players, hands, seed)?;
                let seconds = start.elapsed().as_secs_f64().max(1e-9);
                serde_json::json!({
                    "game": "mille-bornes",
                    "players": players,
                    "hands": hands,
                    "plays": plays,
                    "seconds": seconds,
                    "hands_per_second": (f64::from(hands) / seconds).round(),
                    "plays_per_second": (plays as f64 / seconds).round(),
                    "state_bytes": std::mem::size_of::<Manche>(),
                })
            }
            None => {
                let rate = sim::good_bot_win_rate(players, ask.games, seed)?;
                serde_json::json!({
                    "game": "mille-bornes",
                    "players": players,
                    "games": ask.games,
                    "good_bot_win_rate": rate,
                    "seconds": start.elapsed().as_secs_f64(),
                })
            }
        })
    }

    fn scenario(json: serde_json::Value, _base: Option<&Path>) -> anyhow::Result<ScenarioReport> {
        let scenario: mille_bornes::scenario::Scenario = serde_json::from_value(json)?;
        let report = mille_bornes::scenario::run(&scenario)?;
        Ok(ScenarioReport { output: serde_json::to_value(&report.output)?, failure: report.failure })
    }
}
