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
//!   client on no host; the games are read from the workspace's manifests (a member whose
//!   package is not one of the house's `bolide-*` layers), and the names the layers may not
//!   say from the games' own sources (`game_words`), so a fourth game is held to all of this
//!   the day it is added;
//! - no two modules of a crate import each other, directly or round a loop.
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
            for word in forbidden.iter().filter(|w| says(line_code, w)) {
                found.push(format!("{}:{}: `{word}`", file.strip_prefix(root()).unwrap_or(&file).display(), n + 1));
            }
        }
    }
    found
}

/// Whether `code` says `word`: a name (`Pawn`) as a whole word, anything else (`crate::game`,
/// `.race()`) wherever it stands.
fn says(code: &str, word: &str) -> bool {
    if !word.chars().all(is_name) {
        return code.contains(word);
    }
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}

/// The non-test code of every source under `dir`, comments stripped.
fn code_of(dir: &str) -> Vec<String> {
    let mut files = Vec::new();
    sources(&root().join(dir), &mut files);
    files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            code.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
        })
        .collect()
}

fn is_name(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The names `struct|enum|trait|type NAME` declares in the non-test code under `dir`.
fn declared(dir: &str) -> Vec<String> {
    let mut names = Vec::new();
    for code in code_of(dir) {
        for line in code.lines() {
            let words: Vec<&str> = line.split_whitespace().filter(|w| *w != "pub" && !w.starts_with("pub(")).collect();
            if let [kind, name, ..] = words[..]
                && matches!(kind, "struct" | "enum" | "trait" | "type")
            {
                names.push(name.split(|c: char| !is_name(c)).next().unwrap_or("").to_string());
            }
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// Every name the code under `dir` says.
fn said(dir: &str) -> Vec<String> {
    code_of(dir).iter().flat_map(|c| c.split(|ch: char| !is_name(ch)).map(String::from).collect::<Vec<_>>()).collect()
}

/// Every game's own names, read from the game crates (`Pawn`, `Championship`, `Manche`,
/// `Rallye`…) and their paths (`mille_bornes::`): what a layer that names no game may not
/// say. A name the seam or the wire says too (`Action`, `Timed`, `Kind`: `table/`, `link/`),
/// or that a house layer declares for itself outside its games' folders (`Output`), is the
/// house's word, not a game's.
fn game_words() -> Vec<String> {
    let mut house: Vec<String> = ["table/src", "link/src"].iter().flat_map(|d| said(d)).collect();
    for member in members().iter().filter(|m| !games().contains(m)) {
        let mut files = Vec::new();
        sources(&root().join(member).join("src"), &mut files);
        for file in files.iter().filter(|f| !f.components().any(|c| c.as_os_str() == "games")) {
            house.extend(declared(file.strip_prefix(root()).unwrap().to_str().unwrap()));
        }
    }
    let mut words: Vec<String> =
        games().iter().flat_map(|g| declared(&format!("{g}/src"))).filter(|n| !house.contains(n)).collect();
    words.extend(game_paths());
    words.sort();
    words.dedup();
    words
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
    let mut games = game_words();
    games.extend(["bolide_host", "bolide_client", "bolide_words"].map(String::from));
    let games: Vec<&str> = games.iter().map(String::as_str).collect();
    let found = violations(&["table/src"], &games);
    assert!(found.is_empty(), "Architecture Invariant: the table names no game's types:\n{}", found.join("\n"));
}

#[test]
fn the_fairness_layer_names_no_game() {
    let mut words = game_words();
    words.extend(["Action", "Event", "crate::game"].map(String::from));
    let found = violations(&["host/src/fair"], &words.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(found.is_empty(), "Architecture Invariant: the arbiter judges any game's moments:\n{}", found.join("\n"));
}

#[test]
fn the_room_names_no_game() {
    // The room is generic over `bolide_table::Game`: no game's engine, phase, action, event,
    // view or refusal is named in it (Bolide's aliases live in its adapter, `games::bolide`).
    let words = game_words();
    let games: Vec<&str> = words.iter().map(String::as_str).collect();
    let found = violations(&["host/src/room"], &games);
    assert!(found.is_empty(), "Architecture Invariant: the room names no game:\n{}", found.join("\n"));
}

#[test]
fn the_game_words_are_read_from_the_game_crates() {
    // Each game's own types are among them; the table's and the seam's words are not.
    let words = game_words();
    for name in ["Championship", "Pawn", "PhaseView", "Manche", "Tableau", "Rallye", "CarView", "mille_bornes::"] {
        assert!(words.iter().any(|w| w == name), "{name} not read as a game's word");
    }
    for name in ["Action", "Event", "View", "Settings", "Standing", "Step", "Timed", "Kind"] {
        assert!(!words.iter().any(|w| w == name), "{name} read as a game's word, but the house says it too");
    }
    println!("{} game words: {words:?}", words.len());
    assert!(says("let p: Pawn = x;", "Pawn") && !says("let p: Pawns = x;", "Pawn") && !says("DuePawn", "Pawn"));
}

#[test]
fn the_network_layer_and_the_client_core_name_no_game() {
    // The host's network layer moves bytes for a room of any game; the client core (its
    // state, beats and connection) asks its game through `client::game::ClientGame`.
    let layers = ["host/src/net", "client/src/state.rs", "client/src/net", "client/src/beat.rs", "client/src/game.rs"];
    let words = game_words();
    let games: Vec<&str> = words.iter().map(String::as_str).collect();
    let found = violations(&layers, &games);
    assert!(
        found.is_empty(),
        "Architecture Invariant: the network layer and the client core name no game:\n{}",
        found.join("\n")
    );
    // The scan sees a game where one is named.
    assert!(!violations(&["client/src/games/bolide/mod.rs"], &games).is_empty());
}

#[test]
fn the_room_does_not_know_which_door_a_seat_came_by() {
    // A seat that came by QUIC and one that came by the browser door (a WebSocket) are the same
    // seat to the room, the table and every game: only the drivers in `host/src/net` know.
    let transports = ["quinn", "tungstenite", "WebSocket", "TcpStream", "net::web", "sealed::", "Via::"];
    let found = violations(&["host/src/room", "host/src/games", "table/src"], &transports);
    assert!(
        found.is_empty(),
        "Architecture Invariant: the room does not know which door a seat came by:\n{}",
        found.join("\n")
    );
    // The scan sees a transport where one is named.
    assert!(!violations(&["host/src/net/web.rs"], &transports).is_empty());
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
    let dirs: Vec<String> = games().iter().map(|g| format!("{g}/src")).collect();
    let found = violations(&dirs.iter().map(String::as_str).collect::<Vec<_>>(), IO_AND_CLOCKS);
    assert!(found.is_empty(), "Architecture Invariant: engines are pure:\n{}", found.join("\n"));
}

#[test]
fn the_table_does_no_io() {
    let found = violations(&["table/src"], IO_AND_CLOCKS);
    assert!(found.is_empty(), "Architecture Invariant: the table does no I/O:\n{}", found.join("\n"));
}

#[test]
fn the_client_reads_its_clocks_through_its_platform() {
    // std's clocks panic in a page (wasm32-unknown-unknown has none): the client core and its
    // faces read `platform::rt` (web_time's, the browser's in a page); only the platform's
    // native halves read std's.
    let found: Vec<String> =
        violations(&["client/src"], &["SystemTime", "UNIX_EPOCH", "std::time::Instant", "Instant}"])
            .into_iter()
            .filter(|v| !v.starts_with("client/src/platform/"))
            .collect();
    assert!(found.is_empty(), "Architecture Invariant: the client's clocks are its platform's:\n{}", found.join("\n"));
    assert!(!violations(&["client/src/platform"], &["SystemTime"]).is_empty(), "the scan sees the platform's clock");
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

/// The workspace's members, as the root manifest lists them.
fn members() -> Vec<String> {
    let root_manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = root_manifest.split("members = [").nth(1).and_then(|m| m.split(']').next()).unwrap_or("");
    members.split(',').map(|m| m.trim().trim_matches('"').to_string()).filter(|m| !m.is_empty()).collect()
}

/// The package name in `dir/Cargo.toml`.
fn package(dir: &str) -> String {
    let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap();
    let line = manifest.lines().find(|l| l.trim_start().starts_with("name")).unwrap_or("");
    line.split('"').nth(1).unwrap_or("").to_string()
}

/// The game crates, an engine each beside the table: every member whose package is not one
/// of the house's layers (`bolide-table`, `bolide-host`, …).
fn games() -> Vec<String> {
    members().into_iter().filter(|m| !package(m).starts_with("bolide-")).collect()
}

/// How code names a game's crate (`mille_bornes::`).
fn game_paths() -> Vec<String> {
    games().iter().map(|g| format!("{}::", g.replace('-', "_"))).collect()
}

/// What an engine may depend on: the table's seam and pure libraries.
const PURE: &[&str] = &["bolide-table", "serde", "thiserror", "rand", "rand_chacha"];

#[test]
fn the_games_are_read_from_the_manifests() {
    // The reading sees the three games and the house's layers; a fourth game is a fourth
    // member, held to every rule here as soon as it is one.
    let games = games();
    for game in ["bolide", "mille-bornes", "entenrallye"] {
        assert!(games.iter().any(|g| g == game), "{game} not read as a game: {games:?}");
    }
    let house: Vec<String> = members().into_iter().filter(|m| !games.contains(m)).collect();
    for layer in ["table", "words", "link", "host", "client", "app"] {
        assert!(house.iter().any(|h| h == layer), "{layer} not read as a layer: {house:?}");
    }
    assert_eq!(package("table"), "bolide-table");
}

#[test]
fn a_game_depends_on_the_table_alone_and_the_table_on_no_game() {
    for game in &games() {
        let deps = dependencies(game);
        assert!(deps.iter().any(|d| d == "bolide-table"), "{game} does not build on the table: {deps:?}");
        let others: Vec<&String> = deps.iter().filter(|d| !PURE.contains(&d.as_str())).collect();
        assert!(others.is_empty(), "Architecture Invariant: the engine {game} depends on {others:?}");
    }
    let table = dependencies("table");
    let games: Vec<&String> = table.iter().filter(|d| d.starts_with("bolide-") || games().contains(d)).collect();
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

/// A crate's modules, by path (`games::mille_bornes::table`), and the file each is.
fn modules(src: &Path) -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    sources(src, &mut files);
    files
        .into_iter()
        .filter(|f| !f.components().any(|c| c.as_os_str() == "bin"))
        .map(|f| {
            let rel = f.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into()).collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                parts.pop();
            }
            (parts.join("::"), f)
        })
        .collect()
}

/// Whether module `a` is `b` or holds it.
fn holds(a: &str, b: &str) -> bool {
    a.is_empty() || a == b || b.starts_with(&format!("{a}::"))
}

/// Each module's imports of the crate's other modules (`crate::x::y`, `super::x`, `crate::{x,
/// y}`), a module's own parents and children aside: they always see each other.
fn imports(src: &Path) -> Vec<(String, Vec<String>)> {
    let mods = modules(src);
    let reexported = root_reexports(src);
    // A path's module: its longest prefix that is one, or the module a name the crate's root
    // re-exports comes from (`crate::Event` is `event`'s).
    let known = |path: &[String]| -> Option<String> {
        let module = (1..=path.len()).rev().map(|k| path[..k].join("::")).find(|p| mods.iter().any(|(m, _)| m == p));
        module.or_else(|| {
            path.first().and_then(|name| reexported.iter().find(|(n, _)| n == name)).map(|(_, m)| m.clone())
        })
    };
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    mods.iter()
        .map(|(module, file)| {
            let text = std::fs::read_to_string(file).unwrap();
            let code: String = text
                .split("#[cfg(test)]")
                .next()
                .unwrap_or("")
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            let here: Vec<String> = module.split("::").filter(|p| !p.is_empty()).map(String::from).collect();
            let mut targets = Vec::new();
            let path_after = |rest: &str| -> Vec<String> {
                rest.split(|c: char| !(is_word(c) || c == ':'))
                    .next()
                    .unwrap_or("")
                    .split("::")
                    .filter(|p| !p.is_empty())
                    .map(String::from)
                    .collect()
            };
            for (at, _) in code.match_indices("crate::") {
                let rest = &code[at + 7..];
                if let Some(group) = rest.strip_prefix('{') {
                    for item in group.split('}').next().unwrap_or("").split(',') {
                        targets.extend(known(&path_after(item.trim())));
                    }
                } else {
                    targets.extend(known(&path_after(rest)));
                }
            }
            for (at, _) in code.match_indices("super::") {
                // Count the whole run of `super::` once, at its start.
                if code[..at].ends_with("super::") {
                    continue;
                }
                let mut run = 0;
                while code[at + 7 * run..].starts_with("super::") {
                    run += 1;
                }
                let base = &here[..here.len().saturating_sub(run)];
                let rest = &code[at + 7 * run..];
                let mut path = base.to_vec();
                path.extend(path_after(rest));
                targets.extend(known(&path).filter(|t| t.split("::").count() > base.len()));
            }
            targets.retain(|t| !holds(t, module) && !holds(module, t));
            targets.sort();
            targets.dedup();
            (module.clone(), targets)
        })
        .collect()
}

/// The names the crate's root re-exports from its modules (`pub use event::{Event, Why};`),
/// with the module each comes from.
fn root_reexports(src: &Path) -> Vec<(String, String)> {
    let root = ["lib.rs", "main.rs"].iter().find_map(|f| std::fs::read_to_string(src.join(f)).ok()).unwrap_or_default();
    let mut names = Vec::new();
    for line in root.lines().filter_map(|l| l.trim().strip_prefix("pub use ")) {
        let Some((module, items)) = line.trim_end_matches(';').split_once("::") else { continue };
        let items = items.trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',').map(str::trim).filter(|i| !i.is_empty() && !i.contains("::")) {
            names.push((item.to_string(), module.to_string()));
        }
    }
    names
}

/// The loops among `imports`: each a list of modules that reach one another.
fn loops(imports: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
    let reaches = |from: &str| -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for t in imports.iter().filter(|(n, _)| *n == m).flat_map(|(_, ts)| ts) {
                if !seen.contains(t) {
                    seen.push(t.clone());
                    todo.push(t.clone());
                }
            }
        }
        seen
    };
    let mut found: Vec<Vec<String>> = Vec::new();
    for (module, _) in imports {
        let from = reaches(module);
        if !from.contains(module) || found.iter().any(|l| l.contains(module)) {
            continue;
        }
        let mut knot: Vec<String> = from.into_iter().filter(|m| reaches(m).contains(module)).collect();
        knot.sort();
        found.push(knot);
    }
    found
}

#[test]
fn no_two_modules_import_each_other_directly_or_round_a_loop() {
    let mut found = Vec::new();
    for member in members() {
        for knot in loops(&imports(&root().join(&member).join("src"))) {
            found.push(format!("{member}: {}", knot.join(" → ")));
        }
    }
    assert!(found.is_empty(), "Architecture Invariant: modules that import each other:\n{}", found.join("\n"));
    // The reading sees a loop where there is one, and an import where there is one.
    let looped = [("a".to_string(), vec!["b".to_string()]), ("b".to_string(), vec!["a".to_string()])];
    assert_eq!(loops(&looped), [vec!["a".to_string(), "b".to_string()]]);
    let client = imports(&root().join("client/src"));
    let table_mb =
        client.iter().find(|(m, _)| m == "games::mille_bornes::table").map(|(_, t)| t.clone()).unwrap_or_default();
    assert!(table_mb.contains(&"ui::lobby".to_string()) && table_mb.contains(&"live".to_string()), "{table_mb:?}");
    // A name the root re-exports is its module's: Bolide's strategic bot uses
    // `crate::{Action, Atout, Pawn, Seat}`, the `action` and `model` modules'.
    let engine = imports(&root().join("bolide/src"));
    let bot = engine.iter().find(|(m, _)| m == "bots::strategic").map(|(_, t)| t.clone()).unwrap_or_default();
    assert!(bot.contains(&"action".to_string()) && bot.contains(&"model".to_string()), "{bot:?}");
}
