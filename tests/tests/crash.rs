//! Kill the real `bolide-host` with SIGKILL mid-championship, start it again with
//! `--resume`, and continue: the same room code, the same seats, nothing completed lost.

use bolide_client::net::Session;
use bolide_protocol::Action;
use bolide_protocol::wire::{ClientMsg, ServerMsg};
use bolide_tests::{scratch, until_closed, workspace_bin};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn start_host(data: &std::path::Path, bind: &str, resume: bool) -> (Child, serde_json::Value) {
    let mut cmd = Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--bind", bind, "--data-dir"]).arg(data);
    cmd.args(["--code", "GARE", "--json", "--no-mdns", "--bots", "2", "--races", "2", "--seed", "5"]);
    cmd.args(["--bot-delay-ms", "5", "--lift-delay-ms", "30", "--turn-timeout-s", "5", "--grab-timeout-s", "2"]);
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
