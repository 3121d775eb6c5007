//! Every rule id of `rules/bolide.md`, `rules/mille-bornes.md` and `rules/entenrallye.md` has at least one test named
//! after it (`B-5.13` → a test function whose name starts with `b_5_13_`), somewhere in the
//! workspace.
//!
//! The rules live in `shared/rules/bolide.md` beside the repository; `docs/rules/bolide.md`
//! is a copy so a clone alone still checks. When both are there they must be identical.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.ends_with("target") {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Rule ids: every `- X-x.y` bullet, and every `## X-x` section that has no bullets of its
/// own (`X` is the game's letter: `B` for Bolide, `M` for 1000 Bornes, `E` for Entenrallye).
fn rule_ids(rules: &str, letter: char) -> Vec<String> {
    let bullet = format!("- {letter}-");
    let section = format!("## {letter}-");
    let mut ids: Vec<String> = rules
        .lines()
        .filter_map(|l| l.strip_prefix(bullet.as_str()))
        .map(|rest| format!("{letter}-{}", rest.split_whitespace().next().unwrap()))
        .collect();
    for sec in rules.lines().filter_map(|l| l.strip_prefix(section.as_str())) {
        let n = sec.split_whitespace().next().unwrap();
        if !ids.iter().any(|id| id.starts_with(&format!("{letter}-{n}."))) {
            ids.push(format!("{letter}-{n}"));
        }
    }
    ids
}

/// The rule ids of `rules/NAME` that no test (that asserts something) is named after. The
/// project's copy in `docs/rules/` must match `shared/rules/` when both are there.
fn untested(name: &str, letter: char, at_least: usize) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let copy = std::fs::read_to_string(root.join("docs/rules").join(name)).expect("docs/rules copy");
    if let Ok(shared) = std::fs::read_to_string(root.join("../shared/rules").join(name)) {
        assert_eq!(copy, shared, "docs/rules/{name} is out of date: copy shared/rules/{name} over it");
    }
    let ids = rule_ids(&copy, letter);
    assert!(ids.len() >= at_least, "found only {} rule ids in {name}: {ids:?}", ids.len());
    let mut files = Vec::new();
    // Every member of the workspace, as its manifest lists them: a new game's tests count.
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    let members = manifest.split("members = [").nth(1).and_then(|m| m.split(']').next()).unwrap_or("");
    for dir in members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()) {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "the workspace's sources were not found: {} files", files.len());
    let sources: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
    ids.into_iter()
        .filter(|id| {
            let prefix = format!("fn {}_", id.to_lowercase().replace(['-', '.'], "_"));
            !sources.match_indices(&prefix).any(|(at, _)| is_a_test_that_asserts(&sources, at))
        })
        .collect()
}

#[test]
fn every_rule_id_has_a_test_named_after_it() {
    let missing = untested("bolide.md", 'B', 40);
    assert!(missing.is_empty(), "rules without a test (that asserts something) named after them: {missing:?}");
}

#[test]
fn every_1000_bornes_rule_id_has_a_test() {
    let missing = untested("mille-bornes.md", 'M', 80);
    assert!(missing.is_empty(), "rules without a test (that asserts something) named after them: {missing:?}");
}

#[test]
fn every_entenrallye_rule_id_has_a_test() {
    let missing = untested("entenrallye.md", 'E', 70);
    assert!(missing.is_empty(), "rules without a test (that asserts something) named after them: {missing:?}");
}

/// Whether the function starting at `at` (`fn name…`) is a test — `#[test]` or `#[tokio::test]`
/// among the lines just above it — whose body asserts something (`assert…`, `prop_assert…`,
/// or a helper named `assert_…`). An empty function named after a rule does not count.
fn is_a_test_that_asserts(sources: &str, at: usize) -> bool {
    let above: Vec<&str> = sources[..at].lines().rev().take(4).collect();
    let attributed = above.iter().any(|l| l.trim_start().starts_with("#[test]") || l.contains("#[tokio::test"));
    attributed && body(&sources[at..]).is_some_and(|b| b.contains("assert"))
}

/// The text between a function's opening brace and its matching closing brace.
fn body(function: &str) -> Option<&str> {
    let open = function.find('{')?;
    let mut depth = 0usize;
    for (i, c) in function[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&function[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

#[test]
fn an_empty_function_named_after_a_rule_does_not_count() {
    let empty = "#[test]\nfn b_9_9_nothing() {}\n";
    let untested = "fn b_9_9_helper() { assert!(true) }\n";
    let real = "#[test]\nfn b_9_9_real() {\n    let x = { 1 };\n    assert_eq!(x, 1);\n}\n";
    for (text, counts) in [(empty, false), (untested, false), (real, true)] {
        let at = text.find("fn b_9_9").unwrap();
        assert_eq!(is_a_test_that_asserts(text, at), counts, "{text}");
    }
}

/// The fairness design the code cites (`fairness.md §…`) is in the repository, and matches
/// the team's copy when both are there.
#[test]
fn the_fairness_design_the_code_cites_is_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let copy = std::fs::read_to_string(root.join("docs/fairness.md")).expect("docs/fairness.md");
    assert!(copy.contains("## "), "docs/fairness.md has its sections");
    if let Ok(shared) = std::fs::read_to_string(root.join("../shared/design/fairness.md")) {
        assert_eq!(copy, shared, "docs/fairness.md is out of date: copy shared/design/fairness.md over it");
    }
}
