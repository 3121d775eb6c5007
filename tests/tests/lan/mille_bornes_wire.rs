//! 1000 Bornes over QUIC on the real `bolide-host serve --game mille-bornes`: a laptop's bot
//! (the client core every face uses) and three host bots play a game; the host is killed with
//! SIGKILL mid-game several times and resumed from its journal, the laptop comes back to its
//! seat with its token, and the standings it was told are the ones the journal replays to.

use bolide::bots::BotLevel;
use bolide_client::bot;
use bolide_client::net::{ConnectOptionsOf, SessionOf};
use bolide_tests::{Reaped, play_through_kills, scratch, spawn_host, workspace_bin};
use mille_bornes::MilleBornes;
use rand::{RngExt, SeedableRng};
use std::process::Command;
use std::time::Duration;

/// A host for one game of 1000 Bornes: one seat for the laptop, three host bots; `options`
/// are its table options (`--option`).
fn start_host(data: &std::path::Path, bind: &str, resume: bool, options: &[&str]) -> (Reaped, serde_json::Value) {
    let mut cmd = Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--game", "mille-bornes", "--bind", bind, "--data-dir"]).arg(data);
    // The bots think 20 ms a play, so the game (≈ 10 s) outlasts the five kill windows
    // (≤ 3 s together) by far, however fast the machine: at 5 ms it once ended after four.
    cmd.args(["--code", "GARE", "--json", "--no-mdns", "--bots", "3", "--seed", "5", "--bot-delay-ms", "20"]);
    cmd.args(["--turn-timeout-s", "5", "--grab-timeout-s", "2"]);
    for option in options {
        cmd.args(["--option", option]);
    }
    if resume {
        cmd.arg("--resume");
    }
    spawn_host(cmd, data)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn m_13_2_a_game_to_5000_over_quic_survives_kill_9_and_ends_with_the_standings_its_journal_gives() {
    const KILLS: usize = 5;
    const LONGEST: Duration = Duration::from_secs(90);
    let data = scratch("mille-bornes-wire");
    let journal = data.join("championship.journal");
    // A whole game to 5 000 (M-13.2), the Coup-Fourré laid by the host at once (M-15.13) so
    // that a hand takes a second, not the windows' minutes: the windows over QUIC have a test
    // of their own.
    let options = ["coup_fourre=Automatic"];
    let (host, info) = start_host(&data, "127.0.0.1:0", false, &options);
    assert_eq!(info["game"], "mille-bornes");
    let addr: std::net::SocketAddr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    let windows: Vec<Duration> = (0..KILLS).map(|_| Duration::from_millis(rng.random_range(100..600))).collect();
    let connect = ConnectOptionsOf::<MilleBornes>::default();
    let restart = || start_host(&data, &addr.to_string(), true, &[]).0;
    let (standings, kills) = play_through_kills(addr, &code, connect.clone(), &windows, LONGEST, (host, restart)).await;
    assert_eq!(kills, KILLS, "the game ended after {kills} kills: make it longer");
    let text = std::fs::read_to_string(&journal).unwrap();
    let replayed = bolide_table::journal::replay_game::<mille_bornes::Partie>(&text).expect("the journal replays");
    let from_journal: Vec<_> =
        replayed.standings.expect("over").iter().map(|l| (l.seat, l.points, l.wins, l.rank)).collect();
    let told: Vec<_> = standings.iter().map(|l| (l.seat, l.points, l.wins, l.rank)).collect();
    assert_eq!(told, from_journal, "the standings Anne was told are the journal's");
    assert_eq!(told.len(), 4);
    // M-3.2: every card Anne saw, across the kills, is the seed's deal; a hand a kill cut
    // into (her laptop missed draws) is left unchecked, never wrongly failed.
    let seen = connect.state.lock();
    let watch = &seen.mirror.dice;
    assert_eq!(watch.commitment(), Some(replayed.commitment), "the commitment Anne was shown binds the seed");
    let report = watch.verdict().expect("the seed is revealed at the end").clone().expect("the deal matches");
    assert!(report.hands >= 1, "{report:?}");
    assert!(standings.iter().any(|l| l.name == "Anne"));
}

#[test]
fn serve_refuses_a_table_option_it_does_not_have_and_names_those_it_has() {
    let data = scratch("mille-bornes-options");
    let out = Command::new(workspace_bin("bolide-host"))
        .args(["serve", "--game", "mille-bornes", "--no-mdns", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&data)
        .args(["--option", "window_ms=4000"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("M-15.3"), "names the rule: {err}");
    let out = Command::new(workspace_bin("bolide-host"))
        .args(["serve", "--game", "mille-bornes", "--no-mdns", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(&data)
        .args(["--option", "colour=blue"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no option `colour`") && err.contains("target_km"), "names the options: {err}");
}

/// The lobby's first pilot picks the game (issue: "the lobby and the host pick the game"): a
/// host started for Bolide, Anne seated first and Bob's bot second; Anne asks for 1000 Bornes,
/// both laptops are sent to its lobby and come back to their own seats with their tokens, Anne
/// sets a one-hand game, and the two play it with the host's two bots to its standings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_pilot_switches_the_table_to_1000_bornes_and_everyone_plays_it() {
    use bolide_table::wire::{ClientMsgOf, ServerMsgOf};
    let data = scratch("choose-game");
    let mut cmd = Command::new(workspace_bin("bolide-host"));
    cmd.args(["serve", "--bind", "127.0.0.1:0", "--data-dir"]).arg(&data);
    cmd.args(["--code", "GARE", "--json", "--no-mdns", "--bots", "2", "--seed", "5", "--bot-delay-ms", "5"]);
    let (_host, info) = spawn_host(cmd, &data);
    assert_eq!(info["game"], "bolide");
    let addr: std::net::SocketAddr = info["addresses"][0].as_str().unwrap().parse().unwrap();
    let code = info["code"].as_str().unwrap().to_string();

    let mut anne = SessionOf::<bolide::Bolide>::connect(addr, &code, "Anne", None).await.expect("seated");
    let token = anne.state().token;
    let bob = {
        let code = code.clone();
        tokio::spawn(async move {
            bolide_client::games::Registry::standard()
                .play(addr, &code, "Bob", bot::Plan::new(BotLevel::Strategic, Duration::ZERO, 3))
                .await
        })
    };
    // Bob is seated second in the Bolide lobby; then Anne picks 1000 Bornes.
    let seated = async {
        loop {
            if let ServerMsgOf::Lobby(lobby) = anne.next().await.expect("the lobby")
                && lobby.seats.len() == 2
            {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), seated).await.expect("Bob seated within 20 s");
    anne.send(&ClientMsgOf::ChooseGame("mille-bornes".into())).await.unwrap();
    let closed = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if let Err(e) = anne.next().await {
                break e;
            }
        }
    })
    .await
    .expect("the switch within 20 s");
    assert!(
        matches!(&closed, bolide_client::net::ClientError::GameChanged { game, .. } if game == "mille-bornes"),
        "{closed}"
    );

    // Anne knocks again with her token: the table plays 1000 Bornes, her seat is hers.
    let admitted =
        bolide_client::net::knock(addr, &code, "Anne", token, bolide_table::wire::PROTOCOL_VERSION, None, false)
            .await
            .expect("back through the door");
    assert_eq!(admitted.game, "mille-bornes");
    let mut anne = admitted.session(ConnectOptionsOf::<MilleBornes>::default()).expect("in 1000 Bornes' words");
    assert_eq!(anne.state().mirror.seat, Some(bolide_table::Seat(0)), "the same seat");
    let one_hand = mille_bornes::Lobby {
        game: mille_bornes::Settings {
            mode: mille_bornes::options::GameMode::Hands { hands: 1 },
            coup_fourre: mille_bornes::options::CoupFourreMode::Automatic,
            ..Default::default()
        },
        bots: 2,
        bot_level: BotLevel::Strategic,
        places: Vec::new(),
    };
    anne.send(&ClientMsgOf::Configure(one_hand)).await.unwrap();
    let mut quiet = bot::quiet;
    let play = bot::play_session(anne, bot::Plan::new(BotLevel::Strategic, Duration::ZERO, 9), &mut quiet);
    let standings = tokio::time::timeout(Duration::from_secs(60), play).await.expect("a hand within a minute").unwrap();
    let bob =
        tokio::time::timeout(Duration::from_secs(20), bob).await.expect("Bob's end").unwrap().expect("Bob played");
    let Some(bob) = bob.of::<mille_bornes::MilleBornes>() else { panic!("Bob played {}", bob.game) };
    assert_eq!(bob.standings, standings, "one game, one set of standings");
    assert_eq!(standings.len(), 4, "Anne, Bob and the host's two bots");
    let names: Vec<&str> = standings.iter().map(|l| l.name.as_str()).collect();
    assert!(names.contains(&"Anne") && names.contains(&"Bob"), "{names:?}");
    // The journal the host kept is the game played: `--resume` and `verify` read 1000 Bornes.
    let text = std::fs::read_to_string(data.join("championship.journal")).unwrap();
    assert_eq!(bolide_host::room::game_of(&text).as_deref(), Some("mille-bornes"));
    let replayed = bolide_table::journal::replay_game::<mille_bornes::Partie>(&text).expect("the journal replays");
    let from_journal: Vec<_> = replayed.standings.expect("over").iter().map(|l| (l.seat, l.points)).collect();
    assert_eq!(standings.iter().map(|l| (l.seat, l.points)).collect::<Vec<_>>(), from_journal);
}
