//! The rulebook's examples, as scenario files in `docs/scenarios/`, run through the same
//! runner as `bolide-host scenario`; and the runner's error contract on bad input.

use bolide_host::scenario;
use std::path::Path;
use std::process::Command;

fn run_file(name: &str) -> scenario::RunReport {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/scenarios");
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    scenario::run_text(&text, Some(&dir)).unwrap()
}

fn assert_passes(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/scenarios");
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    let report = scenario::run_any_text(&text, Some(&dir)).unwrap();
    assert_eq!(report.failure, None, "{name}");
}

#[test]
fn b_5_3_el_gato_scenario() {
    assert_passes("el-gato.json");
}

#[test]
fn b_5_3_b_5_4_claudia_scenario() {
    assert_passes("claudia.json");
}

#[test]
fn b_5_5_sir_stephen_scenario() {
    assert_passes("sir-stephen.json");
}

#[test]
fn b_5_11_fritz_and_birgitt_scenario() {
    assert_passes("fritz-birgitt-raccourci.json");
}

#[test]
fn b_7_2_championship_points_scenario() {
    let report = run_file("championship-points.json");
    assert_eq!(report.failure, None);
    assert_eq!(report.output.final_state.points, vec![0, 4, 9]);
}

#[test]
fn every_documented_scenario_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".json") {
            assert_passes(&name);
            n += 1;
        }
    }
    assert!(n >= 7);
}

#[test]
fn m_10_5_a_coup_fourre_scenario_skips_the_seat_between() {
    assert_passes("mille-bornes-coup-fourre.json");
}

#[test]
fn m_6_4_an_exact_finish_scenario_and_its_score_sheet() {
    assert_passes("mille-bornes-exact-finish.json");
}

#[test]
fn a_1000_bornes_scenario_names_its_bad_field_or_rule() {
    let run = |text: &str| scenario::run_any_text(text, None).map(|r| r.failure);
    // What `bolide-host scenario` prints: the error and its causes.
    let says = |text: &str| format!("{:#}", run(text).unwrap_err());
    assert!(
        says(r#"{"game":"mille-bornes","seats":["a","b"],"actions":[],"hand":[]}"#).contains("unknown field `hand`")
    );
    assert!(says(r#"{"game":"mille-bornes","seats":["a","b","c","d","e"],"actions":[]}"#).contains("M-2.1"));
    assert!(says(r#"{"game":"mille-bornes","seats":["a","b"],"actions":[{"seat":0}]}"#).contains("`actions` #1"));
    assert!(says(r#"{"game":"chess","seats":["a","b"],"actions":[]}"#).contains("not a game here"));
    let failure = run(r#"{"game":"mille-bornes","seats":["a","b"],"hands":[["D25"]],"turn":0,
        "actions":[{"seat":0,"action":{"Play":{"card":"D25","on":null}}}]}"#)
    .unwrap();
    assert!(failure.unwrap().contains("M-6.1"), "a refusal names its rule");
}

#[test]
fn e_12_3_marit_passes_the_tuv_scenario() {
    assert_passes("entenrallye-marit-tuv.json");
}

#[test]
fn e_12_4_juliane_fails_the_asu_scenario() {
    assert_passes("entenrallye-juliane-asu.json");
}

#[test]
fn e_12_6_e_11_7_a_car_on_m4_stays_there_at_the_round_up_scenario() {
    assert_passes("entenrallye-m4-round-up.json");
}

#[test]
fn an_entenrallye_scenario_names_its_bad_field_or_rule() {
    let run = |text: &str| scenario::run_any_text(text, None).map(|r| r.failure);
    let says = |text: &str| format!("{:#}", run(text).unwrap_err());
    let base = r#""game":"entenrallye","seats":["a","b"],"actions":[]"#;
    assert!(says(&format!(r#"{{{base},"cars":[{{"seat":0,"at":"Z99"}}]}}"#)).contains("`Z99` is no square"));
    assert!(says(&format!(r#"{{{base},"draw":["P49"]}}"#)).contains("`P49` is no part"));
    let twice = says(&format!(r#"{{{base},"cars":[{{"seat":0,"hidden":["P01"]}},{{"seat":1,"fitted":["P01"]}}]}}"#));
    assert!(twice.contains("E-14.7") && twice.contains("P01"), "{twice}");
    assert!(says(&format!(r#"{{{base},"dice":[7]}}"#)).contains("`dice`"));
    assert!(says(&format!(r#"{{{base},"cars":[{{"seat":0,"repair":21}}]}}"#)).contains("E-9.1"));
    assert!(says(r#"{"game":"entenrallye","seats":["a"],"actions":[]}"#).contains("E-1.1"));
    // A refusal the file did not expect names its rule.
    let failure = run(r#"{"game":"entenrallye","seats":["a","b"],"dice":[3],"actions":[{"seat":0,"action":"Roll"},
        {"seat":0,"action":{"Drive":{"to":"A02","squares":2}}}]}"#)
    .unwrap();
    assert!(failure.unwrap().contains("E-4.2"), "the die's 3 is driven, bought or repaired in full");
}

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bolide-host")).args(args).output().unwrap()
}

/// `text` in a file of its own, removed when dropped.
fn temp_file(name: &str, text: &str) -> tempfile::NamedTempFile {
    let file = tempfile::Builder::new().prefix(name).tempfile().unwrap();
    std::fs::write(file.path(), text).unwrap();
    file
}

#[test]
fn cli_prints_final_state_and_rule_tagged_events() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/scenarios/el-gato.json");
    let out = cli(&["scenario", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["final"]["cars"][0]["position"], 2);
    let moved = json["events"].as_array().unwrap().iter().find(|e| e["event"].get("Moved").is_some()).unwrap();
    assert_eq!(moved["rule"], "B-5.3");
}

#[test]
fn cli_illegal_action_exits_non_zero_naming_the_rule() {
    let text = r#"{"seats":["a","b","c"],"first_player":0,"circuit":{"preset":"cannes"},
        "actions":[{"seat":1,"action":"Lift"}]}"#;
    let out = cli(&["scenario", temp_file("illegal.json", text).path().to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("B-4.2"), "{err}");
}

#[test]
fn cli_invalid_scenario_names_the_bad_field() {
    let text = r#"{"seats":["a","b","c"],"circuit":{"preset":"cannes"},"actions":[],"reservoir":[[1]]}"#;
    let out = cli(&["scenario", temp_file("field.json", text).path().to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown field `reservoir`"));
    let text = r#"{"seats":["a","b"],"circuit":{"preset":"cannes"},"actions":[]}"#;
    let out = cli(&["scenario", temp_file("pilots.json", text).path().to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("B-1.1"));
    let text = r#"{"seats":["a","b","c"],"circuit":{"tiles":"S 60 S"},"actions":[]}"#;
    let out = cli(&["scenario", temp_file("circuit.json", text).path().to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("B-2.5"));
}

#[test]
fn cli_failed_expectation_exits_non_zero() {
    let text = r#"{"seats":["a","b","c"],"circuit":{"preset":"cannes"},"actions":[],
        "expect":{"cars":[{"seat":0,"position":5}]}}"#;
    let out = cli(&["scenario", temp_file("expect.json", text).path().to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected a on position 5"));
}

#[test]
fn the_runner_refuses_what_it_cannot_hold_and_names_the_field() {
    let seats = |n: usize| serde_json::to_string(&vec!["p"; n]).unwrap();
    let error = |text: String| {
        let e = scenario::run_text(&text, None).err().expect("refused");
        // The whole chain, as the CLI prints it.
        let mut words = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            words = format!("{words}: {s}");
            source = s.source();
        }
        words
    };
    let base = |more: &str| format!(r#"{{"seats":{},"circuit":{{"preset":"cannes"}},"actions":[]{more}}}"#, seats(3));
    let unknown_in_action = format!(
        r#"{{"seats":{},"circuit":{{"preset":"cannes"}},"actions":[{{"seat":0,"action":{{"TakePawn":{{"pawn":1,"paws":2}}}}}}]}}"#,
        seats(3)
    );
    assert!(error(unknown_in_action).contains("unknown field `paws`"));
    let unknown_in_expect = base(r#","expect":{"events":[{"Crossed":{"seat":2,"place":1,"when":3}}]}"#);
    assert!(error(unknown_in_expect).contains("unknown field `when`"));
    let many = format!(r#"{{"seats":{},"circuit":{{"preset":"cannes"}},"actions":[]}}"#, seats(259));
    assert!(error(many).contains("`seats`: B-1.1: a race has 3 to 6 pilots, not 259"));
    assert!(error(base(r#","races":0"#)).contains("`races`"));
    let finish = base(r#","start":{"cars":[{"seat":0,"position":37}]}"#);
    assert!(error(finish).contains("cannot start at position 37"));
}
