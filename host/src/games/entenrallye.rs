//! Entenrallye as this host serves it: its table options through `--option`, its narration
//! and its years of bots. It times nothing, so a field run and the lab have nothing to judge.

use super::{ScenarioReport, Served, SimulateAsk, seat_names, with_options};
use crate::flags::ServeArgs;
use crate::room::LobbyOf;
use bolide_table::Game;
use bolide_words::lang::Words;
use entenrallye::{Entenrallye, Lobby, Rallye, Settings};
use std::path::Path;

impl Served for Rallye {
    const TIMED: bool = false;

    /// Its table options (`first_player`, `ties`) through `--option`, as 1000 Bornes'.
    fn lobby(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>> {
        let settings = with_options(Settings::default(), &args.options)?;
        Ok(Lobby { settings, bots: args.bots, bot_level: args.bot_level })
    }

    fn lobby_for_switch(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>> {
        let bots = args.bots.min(Rallye::PLAYERS.1 - 1);
        Ok(Lobby { settings: Settings::default(), bots, bot_level: args.bot_level })
    }

    /// A year of Entenrallye as a spectator's log told it, then the final places.
    fn narrate(text: &str, w: &Words) -> anyhow::Result<String> {
        use bolide_table::journal::replay;
        use bolide_words::entenrallye::describe;
        use std::fmt::Write;
        let names = seat_names::<Entenrallye>(text)?;
        let mut out = String::new();
        let (game, _) = replay::<Rallye>(text, |game, events| {
            for event in events {
                if let Some(line) = describe(&Game::event_for(game, event, None), game.players(), &names, w) {
                    let _ = writeln!(out, "{line}");
                }
            }
        })?;
        let mut places = Game::standings(&game).unwrap_or_default();
        places.sort_by_key(|s| (s.rank, s.seat));
        for s in places {
            let name = names.get(s.seat.index()).map_or("?", String::as_str);
            let _ = writeln!(out, "  {}", (w.ente_standing)(s.rank, name, s.points));
        }
        Ok(out)
    }

    /// Whole years of strategic bots (the board's figures), then as many with one strategic
    /// bot against random-legal ones.
    fn simulate(ask: &SimulateAsk) -> anyhow::Result<serde_json::Value> {
        let (players, games, seed) = (ask.players, u64::from(ask.games), ask.seed);
        Settings::default().check(players).map_err(anyhow::Error::msg)?;
        let figures = entenrallye::sim::figures(players, games, seed).map_err(anyhow::Error::msg)?;
        let rate = entenrallye::sim::strategic_win_rate(players, games, seed).map_err(anyhow::Error::msg)?;
        Ok(serde_json::json!({ "game": "entenrallye", "figures": figures, "good_bot_win_rate": rate }))
    }

    fn scenario(json: serde_json::Value, _base: Option<&Path>) -> anyhow::Result<ScenarioReport> {
        let scenario: entenrallye::scenario::Scenario = serde_json::from_value(json)?;
        let report = entenrallye::scenario::run(&scenario)?;
        Ok(ScenarioReport { output: serde_json::to_value(&report.output)?, failure: report.failure })
    }
}
