//! Kill the real `bolide-host` with SIGKILL mid-championship, start it again with
//! `--resume`, and continue: the same room code, the same seats, nothing completed lost.

use bolide_client::bot;
use bolide_client::net::Session;
use bolide_host::bots::BotLevel;
use bolide_protocol::Action;
use bolide_protocol::wire::{ClientMsg, ServerMsg};
use bolide_tests::{scratch, until_closed, workspace_bin};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn start_host(data: &std::path::Path, bind: &str, resume: bool) -> (Child, serde_json::Value) {
    start_host_with_bots_thinking(data, bind, resume, 5)
}

/// As [`start_host`], the host's bots (and stand-ins) thinking `bot_delay_ms` per decision.
fn start_host_with_bots_thinking(
    data: &std::path::Path,
    bind: &str,
    resume: bool,
    bot_delay_ms: u32,
) -> (Child, serde_json::Value) {
    let mut cmd = Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--bind", bind, "--data-dir"]).arg(data);
    cmd.args(["--code", "GARE", "--json", "--no-mdns", "--bots", "2", "--races", "2", "--seed", "5"]);
    cmd.args(["--bot-delay-ms", &bot_delay_ms.to_string(), "--lift-delay-ms", "30"]);
    cmd.args(["--turn-timeout-s", "5", "--grab-timeout-s", "2"]);
    if resume {
        cmd.arg("--resume");
    }
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    (child, serde_json::from_str(&line).unwrap_or_else(|e| panic!("`{line}`: {e}")))
}

/// Plays Ana's decisions (never Klaxon) until `done`.
async fn play_until(ana: &mut Session, done: impl Fn(&ServerMsg, &Session) -> bool) -> ServerMsg {
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let msg = ana.next().await.unwrap();
            if done(&msg, ana) {
                return msg;
            }
            if matches!(msg, ServerMsg::Update { .. })
                && let Some(&action) = ana.mirror.legal.iter().rev().find(|a| **a != Action::Klaxon)
            {
                ana.act(action).await.unwrap();
            }
        }
    })
    .await
    .expect("in time")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_the_host_mid_championship_and_resume() {
    let data = scratch("crash");
    let (mut host, info) = start_host(&data, "127.0.0.1:0", false);
    let addr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();
    let mut ana = Session::connect(addr, &code, "Ana", None).await.unwrap();
    let (seat, token) = (ana.seat.unwrap(), ana.token.unwrap());
    ana.send(&ClientMsg::Ready(true)).await.unwrap();
    play_until(&mut ana, |_, s| s.mirror.view.as_ref().is_some_and(|v| v.round >= 4)).await;
    let seen = ana.mirror.view.clone().unwrap();
    let journal = data.join("championship.journal");
    let lines_before = std::fs::read_to_string(&journal).unwrap().lines().count();

    host.kill().unwrap(); // SIGKILL: no chance to flush anything
    host.wait().unwrap();
    drop(ana);

    let (mut host, info) = start_host(&data, &addr.to_string(), true);
    assert_eq!(info["code"].as_str(), Some(code.as_str()), "same room code after a restart");
    assert_eq!(info["resumed"], true);
    let mut ana = Session::connect(addr, &code, "Ana", Some(token)).await.unwrap();
    assert_eq!(ana.seat, Some(seat));
    let msg = play_until(&mut ana, |m, _| matches!(m, ServerMsg::Update { .. })).await;
    let ServerMsg::Update { view, .. } = msg else { unreachable!() };
    assert!(
        (view.race, view.round) >= (seen.race, seen.round),
        "went back in time: {:?} < {:?}",
        (view.race, view.round),
        (seen.race, seen.round)
    );
    if view.race == seen.race {
        for (now, then) in view.cars.iter().zip(&seen.cars) {
            assert!(now.position >= then.position, "a completed move was lost");
        }
    }
    let msg = play_until(&mut ana, |m, _| matches!(m, ServerMsg::Finished { .. })).await;
    assert!(matches!(msg, ServerMsg::Finished { standings } if standings.len() == 3));
    let lines_after = std::fs::read_to_string(&journal).unwrap().lines().count();
    assert!(lines_after > lines_before);
    let _ = host.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_comes_back_to_its_seat_when_the_host_restarts() {
    // A connection lost after the join (here: the host killed and resumed) is taken up again
    // with the seat token, and the bot plays the championship to its end.
    let data = scratch("comeback");
    let (mut host, info) = start_host(&data, "127.0.0.1:0", false);
    let addr: std::net::SocketAddr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();
    let ana = tokio::spawn({
        let code = code.clone();
        async move { bot::play(addr, &code, "Ana", BotLevel::Strategic, Duration::from_millis(30), 3).await }
    });
    // Early in the first race (a whole championship takes a second or two here).
    let journal = data.join("championship.journal");
    let lines = || std::fs::read_to_string(&journal).map_or(0, |j| j.lines().count());
    tokio::time::timeout(Duration::from_secs(20), async {
        while lines() < 12 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the championship starts");
    host.kill().unwrap();
    host.wait().unwrap();
    assert!(!ana.is_finished(), "the championship ended before the host was killed");
    // A killed host says nothing: the bot notices after the idle timeout (6 s), while a
    // stand-in plays Ana's seat. Bots that think 150 ms leave the championship unfinished by then.
    let (mut host, _) = start_host_with_bots_thinking(&data, &addr.to_string(), true, 150);
    let played = tokio::time::timeout(Duration::from_secs(60), ana).await.expect("in time").unwrap().unwrap();
    assert!(played.reconnects >= 1, "{played:?}");
    assert_eq!(played.standings.len(), 3);
    assert!(played.standings.iter().any(|l| l.name == "Ana"));
    let _ = host.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_closes_connections_with_a_reason_and_exits_cleanly() {
    let data = scratch("ctrlc");
    let (mut host, info) = start_host(&data, "127.0.0.1:0", false);
    let addr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();
    let mut ana = Session::connect(addr, &code, "Ana", None).await.unwrap();
    let interrupted = Command::new("kill").args(["-INT", &host.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    let err = until_closed(&mut ana).await;
    assert!(err.to_string().contains("shutting down"), "{err}");
    let status = host.wait().unwrap();
    assert!(status.success(), "{status}");
}
