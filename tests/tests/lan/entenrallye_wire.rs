//! Entenrallye over QUIC on the real `bolide-host serve --game entenrallye`: a laptop's bot
//! (the client core every face uses) and three host bots play a year; the host is killed with
//! SIGKILL mid-year and resumed from its journal, the laptop comes back to its seat with its
//! token, and the standings it was told are the ones the journal replays to. Nothing of the
//! table was written for this game.

use bolide_client::net::ConnectOptionsOf;
use bolide_tests::{Reaped, play_through_kills, scratch, spawn_host, workspace_bin};
use entenrallye::Entenrallye;
use std::process::Command;
use std::time::Duration;

fn start_host(data: &std::path::Path, bind: &str, resume: bool) -> (Reaped, serde_json::Value) {
    let mut cmd = Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--game", "entenrallye", "--bind", bind, "--data-dir"]).arg(data);
    cmd.args(["--code", "ENTE", "--json", "--no-mdns", "--bots", "3", "--seed", "5", "--bot-delay-ms", "5"]);
    cmd.args(["--turn-timeout-s", "5", "--option", "first_player=Random"]);
    if resume {
        cmd.arg("--resume");
    }
    spawn_host(cmd, data)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_13_1_a_year_over_quic_survives_kill_9_and_ends_with_the_standings_its_journal_gives() {
    const KILLS: usize = 3;
    const LONGEST: Duration = Duration::from_secs(120);
    let data = scratch("entenrallye-wire");
    let journal = data.join("championship.journal");
    let (host, info) = start_host(&data, "127.0.0.1:0", false);
    assert_eq!(info["game"], "entenrallye");
    let addr: std::net::SocketAddr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();
    let windows: Vec<Duration> = (0..KILLS as u64).map(|k| Duration::from_millis(150 + 100 * k)).collect();
    let connect = ConnectOptionsOf::<Entenrallye>::default();
    let restart = || start_host(&data, &addr.to_string(), true).0;
    let (standings, kills) = play_through_kills(addr, &code, connect, &windows, LONGEST, (host, restart)).await;
    assert_eq!(kills, KILLS, "the year ended after {kills} kills: make it longer");
    let text = std::fs::read_to_string(&journal).unwrap();
    let replayed = bolide_table::journal::replay_game::<entenrallye::Rallye>(&text).expect("the journal replays");
    let from_journal: Vec<_> =
        replayed.standings.expect("over").iter().map(|l| (l.seat, l.points, l.wins, l.rank)).collect();
    let told: Vec<_> = standings.iter().map(|l| (l.seat, l.points, l.wins, l.rank)).collect();
    assert_eq!(told, from_journal, "the standings Anne was told are the journal's");
    assert_eq!(told.len(), 4);
    // `bolide-host replay` tells the year from the same journal, to its places.
    let out = Command::new(workspace_bin("bolide-host")).arg("replay").arg(&journal).output().unwrap();
    let narrated = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(narrated.contains("December is over: the year ends"), "{narrated}");
    assert!(narrated.contains("1. "), "{narrated}");
}

/// What does not fit Entenrallye is refused on the command line, in words.
#[test]
fn serve_refuses_what_entenrallye_does_not_have() {
    let data = scratch("entenrallye-flags");
    for (flags, says) in [
        (vec!["--fairness-test"], "Entenrallye times nothing"),
        (vec!["--option", "window_ms=2000"], "window_ms"),
        (vec!["--bots", "6"], "a table of 6"),
    ] {
        let out = Command::new(workspace_bin("bolide-host"))
            .args(["serve", "--game", "entenrallye", "--bind", "127.0.0.1:0", "--no-mdns", "--data-dir"])
            .arg(&data)
            .args(&flags)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(says), "{flags:?}: {err}");
    }
}
