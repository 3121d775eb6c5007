//! The whole system over real QUIC on 127.0.0.1: host, client core and bots as a game night
//! uses them.

use bolide::bots::BotLevel;
use bolide::view::PhaseView;
use bolide::{Action, FirstPlayer, RuleError, Seat};
use bolide::{ClientMsg, ServerMsg};
use bolide_client::bot;
use bolide_client::games::bolide::Session;
use bolide_client::net::ClientError;
use bolide_table::wire::{PROTOCOL_VERSION, close};
use bolide_tests::{host, quick_room, until_closed};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// Reads messages until `pred` holds for one; fails after `LIMIT`.
async fn until(session: &mut Session, mut pred: impl FnMut(&ServerMsg, &Session) -> bool) -> ServerMsg {
    tokio::time::timeout(LIMIT, async {
        loop {
            let msg = session.next().await.expect("connection alive");
            if pred(&msg, session) {
                return msg;
            }
        }
    })
    .await
    .expect("within the time limit")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_championship_of_bots() {
    // One host bot: the championship waits for both remote bots (3 seats at least).
    let (server, code) = host("full", quick_room("FULL", 1, 2));
    let addr = server.local_addr();
    let a = tokio::spawn({
        let code = code.clone();
        async move { bot::play(addr, &code, "Ana", BotLevel::Strategic, Duration::ZERO, 1, &mut bot::quiet).await }
    });
    let b = tokio::spawn(async move {
        bot::play(addr, &code, "Ben", BotLevel::Random, Duration::ZERO, 2, &mut bot::quiet).await
    });
    let (a, b) = tokio::time::timeout(LIMIT, async { (a.await.unwrap(), b.await.unwrap()) }).await.unwrap();
    let (a, b) = (a.unwrap(), b.unwrap());
    // Every grab ends with the same public photo finish at every seat (B-4.3).
    assert!(!a.photo_finishes().is_empty(), "no photo finish seen");
    assert_eq!(a.photo_finishes(), b.photo_finishes(), "everyone sees the same photo finishes");
    // Provably fair dice: each bot checked every draw it saw against the revealed seed.
    for played in [&a, &b] {
        let report = played.dice.verdict().expect("the seed is revealed at the end").as_ref().unwrap();
        assert!(report.rounds > 0 && report.accelerators > 0, "nothing was checked: {report}");
    }
    assert_eq!(a.dice.commitment(), b.dice.commitment(), "one commitment for everyone");
    let (a, b) = (a.standings, b.standings);
    assert_eq!(a, b, "everyone sees the same final standings");
    assert_eq!(a.len(), 3);
    assert!(a.windows(2).all(|w| w[0].rank <= w[1].rank));
    assert!(a.iter().any(|l| l.name == "Ana") && a.iter().any(|l| l.name == "Bot 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_room_code_is_refused() {
    let (server, code) = host("code", quick_room("GARE", 2, 1));
    let fingerprint = bolide_host::net::split_code(&code).unwrap().1;
    let err = Session::connect(server.local_addr(), &format!("NOPE-{fingerprint}"), "Eve", None).await.err().unwrap();
    // The laptop finds it out itself: the host's proof of the word does not hold for its word.
    match err {
        ClientError::NotTheHost(_) => assert!(err.to_string().contains("check the word on the host's screen")),
        other => panic!("expected the wrong word to be found out, got {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_with_another_certificate_is_refused_by_the_client() {
    let (server, _) = host("cert", quick_room("GARE", 2, 1));
    let err = Session::connect(server.local_addr(), "GARE-0000-0000-0000-0000", "Ana", None).await.err().unwrap();
    assert!(err.to_string().contains("not the host you were told about"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_protocol_version_is_refused_with_its_message() {
    let (server, code) = host("version", quick_room("GARE", 2, 1));
    let err = Session::connect_speaking(server.local_addr(), &code, "Old", None, 0).await.err().unwrap();
    match err {
        ClientError::Refused(reason) => {
            assert!(
                reason.contains(&format!("protocol version {PROTOCOL_VERSION}")) && reason.contains("speaks 0"),
                "{reason}"
            )
        }
        other => panic!("expected a refusal, got {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_and_out_of_turn_actions_are_refused_with_the_rule_and_change_nothing() {
    let mut config = quick_room("GARE", 2, 1);
    config.settings.options.first_player = FirstPlayer::Seat(Seat(1));
    config.countdown_ms = 1_500;
    config.bot_delay_ms = 1_500;
    let (server, code) = host("illegal", config);
    let mut ana = Session::connect(server.local_addr(), &code, "Ana", None).await.unwrap();
    assert_eq!(ana.state().mirror.seat, Some(Seat(0)));
    ana.send(&ClientMsg::Ready(true)).await.unwrap();
    until(&mut ana, |m, _| matches!(m, ServerMsg::Update { view, .. } if view.phase == PhaseView::CupDown)).await;
    let before = ana.state().mirror.view.clone().unwrap();
    // Under the cup: no roll, no lift by a client, no move.
    let roll = ana.act(Action::Roll).await.unwrap();
    let lift = ana.act(Action::Lift).await.unwrap();
    for expected in [(roll, "B-3"), (lift, "B-4.2")] {
        let msg = until(&mut ana, |m, _| matches!(m, ServerMsg::ActRefused { .. } | ServerMsg::Update { .. })).await;
        match msg {
            ServerMsg::ActRefused { seq, error } => assert_eq!((seq, error.rule().as_str()), expected),
            other => panic!("a refused action changed something: {other:?}"),
        }
    }
    assert_eq!(ana.state().mirror.view.as_ref(), Some(&before));
    // In the movement, seat 1 (a bot, thinking 1.5 s) plays first: Ana is out of turn.
    until(&mut ana, |_, s| s.state().mirror.legal.iter().any(|a| matches!(a, Action::TakePawn { .. }))).await;
    let take = ana.state().mirror.legal.iter().find(|a| matches!(a, Action::TakePawn { .. })).copied().unwrap();
    // A grab without its timings would be judged by its arrival: refused, the pawn still free.
    let seq = ana.act(take).await.unwrap();
    let msg = until(&mut ana, |m, _| matches!(m, ServerMsg::ActRefused { .. })).await;
    assert_eq!(msg, ServerMsg::ActRefused { seq, error: RuleError::Untimed });
    let Action::TakePawn { pawn } = take else { unreachable!() };
    let now = ana.now_us();
    ana.grab(pawn, now, now).await.unwrap();
    until(&mut ana, |_, s| s.state().mirror.view.as_ref().is_some_and(|v| v.phase == PhaseView::Movement)).await;
    let seq = ana.act(Action::Roll).await.unwrap();
    let msg = until(&mut ana, |m, _| matches!(m, ServerMsg::ActRefused { .. })).await;
    // Seat 1's turn, or seat 2's if a loaded machine held this test up for seat 1's whole turn
    // (its decisions, 1.5 s each, took it past 3.5 s): either way a bot's, never Ana's, and
    // the refusal names whose it is. Ana's own turn would need seat 2's to pass as well.
    match msg {
        ServerMsg::ActRefused { seq: refused, error: RuleError::NotYourTurn { active } } => {
            assert_eq!(refused, seq);
            assert!(active == Seat(1) || active == Seat(2), "the turn of {active:?}, a bot's");
        }
        other => panic!("an out-of-turn roll must be refused as such, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_client_comes_back_to_its_seat() {
    let (server, code) = host("reconnect", quick_room("GARE", 2, 1));
    let addr = server.local_addr();
    let mut ana = Session::connect(addr, &code, "Ana", None).await.unwrap();
    let (seat, token) = {
        let state = ana.state();
        (state.mirror.seat.unwrap(), state.token.unwrap())
    };
    ana.send(&ClientMsg::Ready(true)).await.unwrap();
    // Ana plays nothing herself: bots play for her once her time limits pass. Wait for round 2.
    until(&mut ana, |_, s| s.state().mirror.view.as_ref().is_some_and(|v| v.round >= 2)).await;
    let seen = ana.state().mirror.view.clone().unwrap();
    ana.drop_abruptly();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut back = Session::connect(addr, &code, "Ana", Some(token)).await.unwrap();
    assert_eq!(back.state().mirror.seat, Some(seat), "back to the same seat");
    let msg = until(&mut back, |m, _| matches!(m, ServerMsg::Update { .. })).await;
    let ServerMsg::Update { view, .. } = msg else { unreachable!() };
    assert_eq!(view.viewer, Some(seat));
    assert!((view.race, view.round) >= (seen.race, seen.round));
    assert!(view.cars.iter().zip(&seen.cars).all(|(now, then)| now.position >= then.position || view.race > seen.race));
    // And the game goes on to its end with Ana connected again.
    until(&mut back, |m, _| matches!(m, ServerMsg::Finished { .. })).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_and_oversized_frames_close_only_that_connection() {
    let (server, code) = host("garbage", quick_room("GARE", 2, 1));
    let addr = server.local_addr();
    let mut watcher = Session::connect(addr, &code, "Watcher", None).await.unwrap();
    watcher.send(&ClientMsg::Ready(true)).await.unwrap();
    // A frame of garbage.
    let mut rogue = Session::connect(addr, &code, "Rogue", None).await.unwrap();
    rogue.send_raw(&[5, 0, 0, 0, 0xff, 0xfe, 0xfd, 0xfc, 0xfb]).await.unwrap();
    let err = until_closed(&mut rogue).await;
    match err {
        ClientError::Closed { code, reason } => {
            assert_eq!(code, u64::from(close::BAD_FRAME));
            assert!(reason.contains("undecodable"), "{reason}");
        }
        other => panic!("expected a close, got {other}"),
    }
    // A frame that announces 1 MB.
    let mut big = Session::connect(addr, &code, "Big", None).await.unwrap();
    big.send_raw(&(1u32 << 20).to_le_bytes()).await.unwrap();
    let err = until_closed(&mut big).await;
    assert!(err.to_string().contains("over the 65536-byte limit"), "{err}");
    // The game was not disturbed: the watcher plays on to the end.
    let msg = until(&mut watcher, |m, _| matches!(m, ServerMsg::Finished { .. })).await;
    assert!(matches!(msg, ServerMsg::Finished { standings } if standings.len() == 3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timing_probes_travel_as_datagrams() {
    let (server, code) = host("probe", quick_room("GARE", 2, 1));
    let mut session = Session::connect(server.local_addr(), &code, "Ana", None).await.unwrap();
    // The host's clock probes come as datagrams (they have no other path) and are answered:
    // its first-second burst is 20 probes, 50 ms apart.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while session.probes_answered() < 10 {
        assert!(tokio::time::Instant::now() < deadline, "{} probes answered in 5 s", session.probes_answered());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // And this client's own ping comes back as a datagram echo.
    let rtt = session.ping().await.unwrap();
    assert!(rtt < Duration::from_secs(1), "{rtt:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairness_5_a_game_night_host_hears_steady_beats_from_its_first_laptops_only() {
    use bolide_host::net::server::Limits;
    use bolide_host::net::{Identity, Journal, Server};
    let identity = Identity::load_or_create(&bolide_tests::scratch("steady").join("identity")).unwrap();
    let limits = Limits { steady_beats: 1, ..Limits::default() };
    let server = Server::bind_with("127.0.0.1:0".parse().unwrap(), &identity, limits).unwrap();
    let code = server.add_room::<bolide::game::Championship>(quick_room("GARE", 1, 1), Journal::None, None).unwrap();
    let addr = server.local_addr();
    let mut ana = Session::connect(addr, &code, "Ana", None).await.unwrap();
    let ben = Session::connect(addr, &code, "Ben", None).await.unwrap();
    assert!(ana.state().beat_due().is_some(), "the first laptop is asked to beat from the lobby on");
    assert_eq!(ben.state().beat_due(), None, "past the host's count, a laptop in the lobby is quiet");
    // Ana's session beats while it waits on the host (the lobby has little to say).
    let _ = tokio::time::timeout(Duration::from_millis(500), async {
        loop {
            ana.next().await.expect("connection alive");
        }
    })
    .await;
    // Every 10 ms: 50 in half a second. A loaded machine stretches the gaps (19 heard with four
    // busy loops on two cores), so the floor only says it beats steadily, not on request (0);
    // the ceiling, that it beats no faster than it is asked to.
    let heard = server.stats.heartbeats.load(std::sync::atomic::Ordering::Relaxed);
    assert!((10..=60).contains(&heard), "{heard} beats heard in half a second (one laptop, every 10 ms)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairness_2_a_laptop_holding_a_moment_back_until_its_instant_keeps_beating() {
    // A moment leaves early and is shown at its scheduled instant (the Échange window: twice
    // the slowest path plus 150 ms ahead). A face waiting for that instant must not fall
    // silent: the host reads a seated laptop's silences as its path going quiet, and would
    // believe its claims (a liar's too) further back for a minute.
    use bolide_host::net::{Identity, Journal, Server};
    let identity = Identity::load_or_create(&bolide_tests::scratch("hold").join("identity")).unwrap();
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), &identity).unwrap();
    let code = server.add_room::<bolide::game::Championship>(quick_room("HOLD", 1, 1), Journal::None, None).unwrap();
    let mut ana = Session::connect(server.local_addr(), &code, "Ana", None).await.unwrap();
    let heard = || server.stats.heartbeats.load(std::sync::atomic::Ordering::Relaxed);
    let before = heard();
    let instant = ana.now_us() + 500_000;
    ana.wait_until_us(instant).await.unwrap();
    assert!(ana.now_us() >= instant, "waits until the instant");
    // Give the last beats time to land on loopback.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let beats = heard() - before;
    assert!((20..=60).contains(&beats), "{beats} beats heard while the laptop waited half a second");
}
