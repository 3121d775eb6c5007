//! Bolide as this host serves it: its lobby from the flags (`--races`, `--circuit`…), its
//! narration, every die checked against the seed, its scenarios and its races of bots.

use super::{ScenarioReport, Served, SimulateAsk, Verdict};
use crate::flags::ServeArgs;
use crate::room::LobbyOf;
use bolide::circuits::CircuitChoice;
use bolide::game::Championship;
use bolide::model::MAX_PILOTS;
use bolide::options::Settings;
use bolide::{Action, FirstPlayer, Seat, TableOptions};
use bolide_table::Game;
use bolide_table::seal::Commitment;
use bolide_words::lang::Words;
use std::path::Path;

/// Bolide's room and what it speaks, by their plain names (the host's tests, fuzzers and
/// nights of bots drive Bolide's room by them).
pub type Room = crate::room::RoomOf<Championship>;
pub type RoomConfig = crate::room::RoomConfigOf<Settings>;
pub type Output = crate::room::OutputOf<bolide::Bolide>;
pub type JournalEntry = crate::room::JournalEntryOf<bolide::Bolide>;

impl Served for Championship {
    const TIMED: bool = true;

    fn lobby(args: &ServeArgs) -> anyhow::Result<Settings> {
        anyhow::ensure!(
            args.options.is_empty(),
            "--option sets 1000 Bornes' and Entenrallye's table options; Bolide's have flags of their own (--races, --circuit…)"
        );
        let first_player = match args.first_player.as_str() {
            "random" => FirstPlayer::Random,
            n => match n.parse::<u8>() {
                Ok(n) if (n as usize) < MAX_PILOTS => FirstPlayer::Seat(Seat(n)),
                _ => anyhow::bail!("--first-player: `random` or a seat number from 0 to {}", MAX_PILOTS - 1),
            },
        };
        // A file is read here, on the host's own command line, and travels on as its tiles: the
        // room and the wire never name a file.
        let circuit = match CircuitChoice::from_arg(&args.circuit) {
            CircuitChoice::File(path) => {
                crate::files::read_circuit(&path).map_err(|e| anyhow::anyhow!("--circuit: {e}"))?.to_string()
            }
            _ => args.circuit.clone(),
        };
        Ok(Settings {
            options: TableOptions { first_player, races: args.races, echange_drill: args.echange_drill },
            circuit,
            bots: args.bots,
            bot_level: args.bot_level,
        })
    }

    /// Bolide's flags are the table's own (`--races`, `--circuit`…), whichever game it serves.
    fn lobby_for_switch(args: &ServeArgs) -> anyhow::Result<LobbyOf<Self>> {
        let most_bots = Championship::PLAYERS.1 - 1;
        Self::lobby(&ServeArgs { options: Vec::new(), bots: args.bots.min(most_bots), ..args.clone() })
    }

    /// Two requests of one Bolide moment that compete: for the same pawn in the grab (B-4.3),
    /// or two declarations of one Échange window (B-4.7).
    fn contested(a: &Action, b: &Action) -> Option<&'static str> {
        match (a, b) {
            (Action::TakePawn { pawn: x }, Action::TakePawn { pawn: y }) => (x == y).then_some("grab"),
            (Action::TakePawn { .. }, _) | (_, Action::TakePawn { .. }) => None,
            _ => Some("échange"),
        }
    }

    fn narrate(text: &str, w: &Words) -> anyhow::Result<String> {
        narrate_championship(text, w)
    }

    fn verify(text: &str, expected: Option<Commitment>) -> anyhow::Result<Verdict> {
        let verified = match crate::verify::journal(text, expected) {
            Ok(verified) => verified,
            Err(crate::verify::VerifyError::Dice(mismatch)) => {
                return Ok(Verdict { lines: vec![format!("dice       DO NOT MATCH: {mismatch}")], holds: false });
            }
            Err(e) => return Err(e.into()),
        };
        let mut lines = vec![
            format!("commitment {}", verified.commitment),
            format!("seed       {}", verified.seed),
            format!(
                "replayed   {} actions, {} race{}{}",
                verified.actions,
                verified.races,
                if verified.races == 1 { "" } else { "s" },
                if verified.over {
                    ", championship over"
                } else {
                    " (not over: the pilots have not seen the seed yet)"
                }
            ),
        ];
        for line in &verified.standings {
            lines.push(format!(
                "standing   {}. seat {}: {} points, {} race wins",
                line.rank, line.seat.0, line.points, line.wins
            ));
        }
        let against = if expected.is_some() { "the commitment given" } else { "its commitment" };
        lines.push(format!("dice       all match the seed and {against}: {}", verified.report));
        Ok(Verdict { lines, holds: true })
    }

    fn simulate(ask: &SimulateAsk) -> anyhow::Result<serde_json::Value> {
        let players = ask.players;
        anyhow::ensure!((3..=6).contains(&players), "Bolide plays 3 to 6 pilots (B-1.1), not {players}");
        // Timed here, at the binary's edge: the engine reads no clock.
        let start = std::time::Instant::now();
        let report = bolide::sim::simulate(ask.races, players, ask.seed, &ask.levels)?;
        let elapsed = start.elapsed().as_secs_f64();
        let mut json = serde_json::to_value(&report)?;
        if let Some(fields) = json.as_object_mut() {
            fields.insert("races_per_second".into(), (f64::from(ask.races) / elapsed.max(1e-9)).into());
            fields.insert("elapsed_s".into(), elapsed.into());
        }
        Ok(json)
    }

    /// A Bolide scenario; a circuit file it names is read relative to `base`.
    fn scenario(json: serde_json::Value, base: Option<&Path>) -> anyhow::Result<ScenarioReport> {
        let report = crate::scenario::run_bolide(serde_json::from_value(json)?, base)?;
        Ok(ScenarioReport { output: serde_json::to_value(&report.output)?, failure: report.failure })
    }
}

/// A Bolide championship narrated: every event, the board after each round, the standings.
fn narrate_championship(text: &str, w: &Words) -> anyhow::Result<String> {
    use std::fmt::Write;
    let names: Vec<String> = JournalEntry::parse_all(text)?
        .first()
        .map(|e| match e {
            JournalEntry::Started { seats, .. } => seats.iter().map(|s| s.name.clone()).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    let mut out = String::new();
    let (champ, _) = bolide_table::journal::replay::<Championship>(text, |champ, events| {
        for line in events.iter().filter_map(|e| bolide_words::text::describe(e, &names, w)) {
            let _ = writeln!(out, "{line}");
        }
        let round_over =
            events.iter().any(|e| matches!(e, bolide::Event::RoundEnded { .. } | bolide::Event::RaceEnded { .. }));
        if round_over {
            out.push_str(&bolide_words::text::board(&champ.spectator_view(), &names, w));
        }
    })?;
    if champ.is_over() {
        let _ = writeln!(out, "{}", w.championship_over);
        for s in champ.standings() {
            let name = names.get(s.seat.index()).map_or("?", String::as_str);
            let _ = writeln!(out, "  {}", (w.standing_full)(s.rank, name, s.points, s.wins));
        }
    }
    Ok(out)
}
