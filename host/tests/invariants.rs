//! The architecture's invariants (ARCHITECTURE.md, "Invariants"), held by reading the
//! imports and calls of each layer's source:
//! - the table's seam (`table/`) names no game;
//! - the fairness layer (`host/src/fair`) and the room (`host/src/room`) name no game: the
//!   room drives any game through the seam;
//! - the network layer (`host/src/net`) and the client core (`client::state`, `net`, `beat`)
//!   name no game;
//! - a game's crate (`bolide/`, `mille-bornes/`, `entenrallye/`) does no I/O and reads no
//!   clock: every instant is the table's;
//! - the table (`table/`: the seam, the wire envelope, the seal) does no I/O either;
//! - a game crate depends on the table and pure libraries alone, the table on no game, the
//!   client on no host, and every crate of the workspace is placed as a game or a layer (the
//!   manifests).
//!
//! Test code (a `tests.rs`/`props.rs` file, or what follows `#[cfg(test)]` in a file) is not
//! held to them: tests may print and time.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && !matches!(path.file_name().and_then(|n| n.to_str()), Some("tests.rs" | "props.rs"))
        {
            out.push(path);
        }
    }
}

/// Every line of the non-test code under `dirs` (folders or files) that contains one of
/// `forbidden`. A `pub use` of a game's plain names (`pub use crate::games::bolide::{Session}`)
/// is a list of names for the faces, not a use, and is not held.
fn violations(dirs: &[&str], forbidden: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for dir in dirs {
        sources(&root().join(dir), &mut files);
    }
    assert!(!files.is_empty(), "no sources under {dirs:?}");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            let line_code = line.split("//").next().unwrap_or("");
            if line_code.trim_start().starts_with("pub use crate::games::") {
                continue;
            }
            for word in forbidden.iter().filter(|w| line_code.contains(**w)) {
                found.push(format!("{}:{}: `{word}`", file.strip_prefix(root()).unwrap_or(&file).display(), n + 1));
            }
        }
    }
    found
}

/// What reads a clock or does I/O, as Rust code spells it.
const IO_AND_CLOCKS: &[&str] = &[
    "std::fs",
    "std::net",
    "std::env",
    "std::process",
    "std::thread",
    "Instant",
    "SystemTime",
    "tokio",
    "quinn",
    "File::",
    "stdin",
    "stdout",
    "println!",
    "eprintln!",
];

#[test]
fn the_table_names_no_game() {
    let games = ["bolide::", "bolide_host", "bolide_client", "bolide_words", "mille_bornes", "entenrallye"];
    let found = violations(&["table/src"], &games);
    assert!(found.is_empty(), "Architecture Invariant: the table names no game's types:\n{}", found.join("\n"));
}

#[test]
fn the_fairness_layer_names_no_game() {
    let found = violations(&["host/src/fair"], &["Action", "Pawn", "RuleError", "crate::game", "Event"]);
    assert!(found.is_empty(), "Architecture Invariant: the arbiter judges any game's moments:\n{}", found.join("\n"));
}

#[test]
fn the_room_names_no_game() {
    // The room is generic over `bolide_table::Game`: no game's engine, phase, action, event,
    // view or refusal is named in it (Bolide's aliases live in its adapter, `game::table`).
    let games = [
        "Championship",
        "crate::game",
        "Phase",
        ".race()",
        "PlayerView",
        "RuleError",
        "RaceSettings",
        "Pawn",
        "Timed::Grab",
        "Timed::Echange",
        "bolide::Timed",
        "bolide::Action",
        "bolide::Event",
        "mille_bornes",
        "entenrallye",
    ];
    let found = violations(&["host/src/room"], &games);
    assert!(found.is_empty(), "Architecture Invariant: the room names no game:\n{}", found.join("\n"));
}

#[test]
fn the_network_layer_and_the_client_core_name_no_game() {
    // The host's network layer moves bytes for a room of any game; the client core (its
    // state, beats and connection) asks its game through `client::game::ClientGame`.
    let games = [
        "Championship",
        "PlayerView",
        "PhaseView",
        "Pawn",
        "RuleError",
        "DiceWatch",
        "Timed::",
        "bolide::Action",
        "bolide::Event",
        "bolide::Bolide",
        "Bolide>",
        "MilleBornes",
        "mille_bornes",
        "Entenrallye",
        "entenrallye",
    ];
    let layers =
        ["host/src/net", "client/src/state.rs", "client/src/net.rs", "client/src/beat.rs", "client/src/game.rs"];
    let found = violations(&layers, &games);
    assert!(
        found.is_empty(),
        "Architecture Invariant: the network layer and the client core name no game:\n{}",
        found.join("\n")
    );
    // The scan sees a game where one is named.
    assert!(!violations(&["client/src/games/bolide.rs"], &games).is_empty());
}

#[test]
fn no_message_has_a_fixed_array_sized_by_seats() {
    // 1000 Bornes seats 8, Bolide 6: a message sized by a seat count would cap every game at
    // it. Messages carry lists (`Vec`), read with `get` on the other side.
    let found = violations(
        &["table/src/wire.rs", "bolide/src/twin.rs", "bolide/src/view.rs"],
        &["; MAX_PILOTS]", "Seat>; ", "[Seat; "],
    );
    assert!(found.is_empty(), "Architecture Invariant: no fixed seat-sized array in a message:\n{}", found.join("\n"));
}

#[test]
fn a_game_s_engine_does_no_io_and_reads_no_clock() {
    let found = violations(&["bolide/src", "mille-bornes/src", "entenrallye/src"], IO_AND_CLOCKS);
    assert!(found.is_empty(), "Architecture Invariant: engines are pure:\n{}", found.join("\n"));
}

#[test]
fn the_table_does_no_io() {
    let found = violations(&["table/src"], IO_AND_CLOCKS);
    assert!(found.is_empty(), "Architecture Invariant: the table does no I/O:\n{}", found.join("\n"));
}

#[test]
fn the_scan_sees_what_it_looks_for() {
    // The network layer does I/O: a scan that found nothing there would prove nothing above.
    assert!(!violations(&["host/src/net"], IO_AND_CLOCKS).is_empty());
    assert!(!violations(&["bolide/src/game"], &["bolide_table"]).is_empty());
}

/// The names under `[dependencies]` in `dir/Cargo.toml` (not dev-dependencies: tests may
/// print and time).
fn dependencies(dir: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap();
    let section = manifest.split("\n[dependencies]").nth(1).unwrap_or("");
    let section = section.split("\n[").next().unwrap_or("");
    section
        .lines()
        .filter_map(|l| l.split(['.', '=', ' ']).next())
        .map(str::trim)
        .filter(|name| !name.is_empty() && !name.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The game crates: an engine each, beside the table.
const GAMES: &[&str] = &["bolide", "mille-bornes", "entenrallye"];
/// Everything else in the workspace, by the layer it is.
const HOUSE: &[&str] = &["table", "words", "link", "host", "client", "app", "tests"];
/// What an engine may depend on: the table's seam and pure libraries.
const PURE: &[&str] = &["bolide-table", "serde", "thiserror", "rand", "rand_chacha"];

#[test]
fn every_crate_of_the_workspace_has_its_place_in_these_invariants() {
    // A new crate — a fourth game — is held to the engine's rules below as soon as it is named
    // here, and this test fails until it is.
    let root_manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = root_manifest.split("members = [").nth(1).and_then(|m| m.split(']').next()).unwrap_or("");
    let members: Vec<&str> = members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()).collect();
    assert!(members.len() >= GAMES.len() + HOUSE.len(), "no members read: {members:?}");
    for member in &members {
        assert!(
            GAMES.contains(member) || HOUSE.contains(member),
            "Architecture Invariant: `{member}` is neither a game nor a layer this test knows: name it in GAMES or HOUSE"
        );
    }
}

#[test]
fn a_game_depends_on_the_table_alone_and_the_table_on_no_game() {
    for game in GAMES {
        let deps = dependencies(game);
        assert!(deps.iter().any(|d| d == "bolide-table"), "{game} does not build on the table: {deps:?}");
        let others: Vec<&String> = deps.iter().filter(|d| !PURE.contains(&d.as_str())).collect();
        assert!(others.is_empty(), "Architecture Invariant: the engine {game} depends on {others:?}");
    }
    let table = dependencies("table");
    let games: Vec<&String> =
        table.iter().filter(|d| d.starts_with("bolide-") || GAMES.contains(&d.as_str())).collect();
    assert!(games.is_empty(), "Architecture Invariant: the table depends on {games:?}");
    // The reading sees what it looks for: the host does I/O.
    assert!(dependencies("host").iter().any(|d| d == "quinn"), "the manifest reading found nothing");
}

#[test]
fn the_client_depends_on_no_host() {
    // The client's core and faces (the window, the bots over the wire) join tables; hosting
    // one is the native shell's (`app/`), handed to the window as an `embed::Embed`. Tests may
    // drive a real room (dev-dependencies).
    let deps = dependencies("client");
    assert!(deps.iter().any(|d| d == "bolide-table"), "the manifest reading found nothing: {deps:?}");
    assert!(
        !deps.iter().any(|d| d == "bolide-host"),
        "Architecture Invariant: the client depends on the host; embed it from app/ instead"
    );
    assert!(dependencies("app").iter().any(|d| d == "bolide-host"));
}
