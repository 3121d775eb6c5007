//! The room without sockets: synthetic connections and times.

use super::*;
use crate::games::bolide::{JournalEntry, Output, Room, RoomConfig};
use bolide::event::Contest;
use bolide::game::Phase;
use bolide::options::Settings;
use bolide::twin::Twin;
use bolide::{Action, Event, FirstPlayer, RuleError};
use bolide::{ClientMsg, Datagram, ServerMsg};
use bolide::{Pawn, TableOptions};
use bolide_table::wire::{self, BeatSchedule::Steady};

fn settings(bots: u8, races: u8) -> Settings {
    Settings {
        options: TableOptions { races, ..TableOptions::default() },
        circuit: "cannes".into(),
        bots,
        bot_level: Default::default(),
    }
}

fn room(bots: u8, races: u8) -> Room {
    let mut config = RoomConfig::new("GARE", settings(bots, races), 42);
    config.countdown_ms = 100;
    config.bot_delay_ms = 20;
    config.turn_timeout_ms = 1_000;
    config.moment_timeout_ms = 500;
    Room::new(config, 7)
}

fn hello(name: &str, token: Option<SeatToken>) -> Hello {
    Hello { seat_token: token, ..Hello::new("gare", name) }
}

/// The journal entries a room asked to write, in order.
fn journal_of(out: &[Output]) -> Vec<JournalEntry> {
    out.iter()
        .filter_map(|o| match o {
            Output::Journal(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
}

fn sent_to(out: &[Output], conn: ConnId) -> Vec<&ServerMsg> {
    out.iter()
        .filter_map(|o| match o {
            Output::Send { conn: c, msg } if *c == conn => Some(msg),
            _ => None,
        })
        .collect()
}

fn token_of(out: &[Output], conn: ConnId) -> SeatToken {
    sent_to(out, conn)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Welcome { token: Some(t), .. } => Some(*t),
            _ => None,
        })
        .expect("a welcome with a token")
}

/// A room with Anne joined on connection 1 at time 0.
fn anne_joins(bots: u8, races: u8) -> (Room, Vec<Output>) {
    let mut r = room(bots, races);
    let mut out = Vec::new();
    r.hello(0, 1, hello("Anne", None), Steady, &mut out);
    (r, out)
}

/// Anne and two host bots, the first grab open: the room, its outputs, the reveal instant and
/// a pawn Anne may take.
fn anne_at_the_grab() -> (Room, Vec<Output>, u64, Pawn) {
    let (mut r, mut out) = anne_joins(2, 1);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    run(&mut r, 0, 60_000_000, &mut out, |r| r.game().is_some_and(|c| c.race().phase() == Phase::Grab));
    let reveal = r.fair.open_moment().expect("the grab is open").1;
    let pawn = r.game().unwrap().race().legal_actions(Seat(0)).iter().find_map(|a| match a {
        Action::TakePawn { pawn } => Some(*pawn),
        _ => None,
    });
    (r, out, reveal, pawn.expect("a pawn to take"))
}

/// Runs the room's timers until `done` or `limit` ms; returns the time reached.
fn run(room: &mut Room, mut now: u64, limit: u64, out: &mut Vec<Output>, done: impl Fn(&Room) -> bool) -> u64 {
    while !done(room) {
        let Some(at) = room.next_deadline() else { break };
        now = now.max(at);
        assert!(now <= limit, "not done by {limit} ms");
        room.tick(now, out);
    }
    now
}

#[test]
fn a_wrong_room_code_is_refused_and_closed() {
    let mut r = room(2, 1);
    let mut out = Vec::new();
    r.hello(0, 1, Hello { code: "NOPE".into(), ..hello("Anne", None) }, Steady, &mut out);
    assert!(matches!(sent_to(&out, 1)[0], ServerMsg::Refused { reason, .. } if reason.contains("wrong room code")));
    assert!(out.iter().any(|o| matches!(o, Output::Close { conn: 1, code: close::WRONG_CODE, .. })));
    assert_eq!(r.seats_taken().0, 2, "the refused client took no seat");
}

#[test]
fn nobody_at_the_table_chooses_the_luck_the_host_included() {
    use bolide_table::seal::{Luck, Seal};
    let (mut r, mut out) = anne_joins(1, 1);
    r.hello(0, 2, hello("Bob", None), Steady, &mut out);
    // Each laptop's part, sent once it saw the commitment; a seat's first is kept.
    r.message(0, 1, ClientMsg::Contribute([1; 32]), &mut out);
    r.message(0, 2, ClientMsg::Contribute([2; 32]), &mut out);
    r.message(0, 1, ClientMsg::Contribute([9; 32]), &mut out);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    r.message(0, 2, ClientMsg::Ready(true), &mut out);
    assert!(r.game().is_some());
    // A part sent once the game started changes nothing.
    r.message(0, 2, ClientMsg::Contribute([7; 32]), &mut out);
    let luck = journal_of(&out)
        .into_iter()
        .find_map(|e| match e {
            JournalEntry::Started { luck, .. } => Some(luck),
            _ => None,
        })
        .expect("journaled at the start");
    assert_eq!(luck.parts[..3], [Some([1; 32]), Some([2; 32]), None], "Anne's, Bob's, the host's bot's");
    assert_eq!(luck.given(), 2);
    // The game draws from the committed seed mixed with both parts: neither the host's seed
    // alone nor a seed either laptop could have picked.
    let seed = r.config.seed;
    assert_ne!(luck.seed_with(seed), seed);
    assert_ne!(luck.seed_with(seed), Luck::from_parts([Some([1; 32]), Some([3; 32]), None]).seed_with(seed));
    // Every laptop is shown the parts at the start, and the end's reveal opens to that seed.
    let shown = sent_to(&out, 2).into_iter().rev().find_map(|m| match m {
        ServerMsg::Lobby(lobby) => lobby.luck.clone(),
        _ => None,
    });
    assert_eq!(shown.as_ref(), Some(&luck));
    let mut seal = Seal::default();
    let dice = r.seed_reveal().commitment();
    assert!(seal.lobby(dice, Some(&luck), None).is_none(), "nothing revealed before the end");
    assert_eq!(seal.lobby(dice, Some(&luck), Some(&r.seed_reveal())), Some(Ok(luck.seed_with(seed))));
    // A host that reveals other parts at the end than it showed at the start is not believed.
    let mut forged = r.seed_reveal();
    forged.luck.parts[1] = Some([3; 32]);
    assert!(matches!(seal.lobby(dice, None, Some(&forged)), Some(Err(_))));
}

#[test]
fn lobby_colours_ready_and_start_with_bots() {
    let (mut r, mut out) = anne_joins(2, 1);
    r.hello(0, 2, hello("Bob", None), Steady, &mut out);
    r.message(0, 2, ClientMsg::PickColour(Colour::Rouge), &mut out); // Anne's
    assert!(matches!(sent_to(&out, 2).last(), Some(ServerMsg::LobbyRefused { .. })));
    r.message(0, 2, ClientMsg::PickColour(Colour::Noir), &mut out);
    r.message(0, 2, ClientMsg::Configure(settings(1, 1)), &mut out);
    assert!(
        matches!(sent_to(&out, 2).last(), Some(ServerMsg::LobbyRefused { reason }) if reason.contains("first pilot"))
    );
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    assert!(r.game().is_none(), "Bob is not ready");
    out.clear();
    r.message(0, 2, ClientMsg::Ready(true), &mut out);
    let champ = r.game().expect("started: 2 people + 2 bots");
    assert_eq!(champ.race().pilots(), 4);
    // Write-ahead: the start is journaled before any update goes out.
    let started = out.iter().position(|o| matches!(o, Output::Journal(JournalEntry::Started { .. })));
    let first_update = out.iter().position(|o| matches!(o, Output::Send { msg: ServerMsg::Update { .. }, .. }));
    assert!(started.unwrap() < first_update.unwrap());
    let update = sent_to(&out, 2).into_iter().find_map(|m| match m {
        ServerMsg::Update { view, legal, .. } => Some((view.clone(), legal.clone())),
        _ => None,
    });
    let (view, legal) = update.expect("an update");
    assert_eq!(view.viewer, Some(Seat(1)));
    assert!(!legal.contains(&Action::Lift), "the host lifts, never a client");
}

#[test]
fn absent_pilots_are_played_by_bots_until_the_championship_ends() {
    let (mut r, mut out) = anne_joins(2, 2);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    // Anne never acts: every decision of hers waits for her time limit, then a bot plays.
    let end = run(&mut r, 0, 5_000_000_000, &mut out, Room::is_finished);
    let finished = sent_to(&out, 1).into_iter().find(|m| matches!(m, ServerMsg::Finished { .. }));
    assert!(finished.is_some());
    assert!(end > 1_000_000, "Anne's time limits (1 s) were waited for");
    // The journal replays to the very same championship.
    let entries = journal_of(&out);
    let resumed = Room::resume(r.config.clone(), 1, &entries, end).unwrap();
    assert!(resumed.is_finished());
    assert_eq!(resumed.game().unwrap().race(), r.game().unwrap().race());
    assert_eq!(resumed.game().unwrap().points(), r.game().unwrap().points());
}

/// The night's journal one connection was sent, its parts joined (they come in order, the last
/// says so).
fn night_sent_to(out: &[Output], conn: ConnId) -> Option<String> {
    let mut text = String::new();
    for (i, msg) in sent_to(out, conn).into_iter().filter(|m| matches!(m, ServerMsg::Night { .. })).enumerate() {
        let ServerMsg::Night { part, last, lines } = msg else { continue };
        assert_eq!(usize::from(*part), i, "the parts come in order");
        text.push_str(lines);
        if *last {
            return Some(text);
        }
    }
    None
}

#[test]
fn b_4_3_a_finished_championship_hands_every_laptop_its_night_without_the_code_or_the_tokens() {
    let (mut r, mut out) = anne_joins(2, 2);
    r.hello(0, 2, Hello { watch: true, ..hello("Curious", None) }, Steady, &mut out);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    let end = run(&mut r, 0, 5_000_000_000, &mut out, Room::is_finished);
    let night = night_sent_to(&out, 1).expect("the pilot got the night");
    assert_eq!(night_sent_to(&out, 2).as_ref(), Some(&night), "the spectator too");
    let token = token_of(&out, 1);
    assert!(!night.contains("GARE"), "the room code's word still opens the room");
    assert!(!night.contains(&serde_json::to_string(&token).unwrap()), "a seat token is a seat's key");
    // It is the journal, published photo finishes included, and it proves the same dice.
    let journal = journal_of(&out);
    assert!(journal.iter().any(|e| matches!(e, JournalEntry::Published { event: Event::PhotoFinish(_) })));
    assert_eq!(JournalEntry::parse_all(&night).unwrap(), journal.iter().map(JournalEntry::public).collect::<Vec<_>>());
    let verified = crate::verify::journal(&night, None).unwrap();
    assert!(verified.over);
    // A resumed host still has it, and a laptop that comes back after the end gets it.
    let mut resumed = Room::resume(r.config.clone(), 1, &journal, end).unwrap();
    let mut again = Vec::new();
    resumed.hello(end, 3, hello("Anne", Some(token)), Steady, &mut again);
    assert_eq!(night_sent_to(&again, 3), Some(night));
}

#[test]
fn fairness_33_a_field_record_is_taken_once_after_the_championship_and_only_in_a_field_run() {
    let line = wire::FieldLine { seq: 1, moment: 1, shown_us: 5, input_us: 250_005 };
    let field = |out: &[Output]| {
        out.iter()
            .filter_map(|o| if let OutputOf::FieldRecord(f) = o { Some(f.clone()) } else { None })
            .collect::<Vec<_>>()
    };
    for field_test in [false, true] {
        let (mut r, mut out) = anne_joins(2, 1);
        r.config.field_test = field_test;
        for t in [1_000, 2_000, 3_000] {
            r.probe(1, crate::fair::Sample::from_probe(t, t, t, t));
        }
        r.message(0, 1, ClientMsg::Ready(true), &mut out);
        // During play, nothing of it is taken: it could reach no verdict, but it never goes in.
        r.message(0, 1, ClientMsg::FieldRecord(wire::FieldTruth { lines: vec![line], calls: Vec::new() }), &mut out);
        assert!(field(&out).is_empty());
        assert!(lobby_refusal(&out, 1).is_some_and(|why| why.contains(if field_test {
            "after"
        } else {
            "--fairness-test"
        })));
        let end = run(&mut r, 0, 5_000_000_000, &mut out, Room::is_finished);
        out.clear();
        r.message(
            end,
            1,
            ClientMsg::FieldRecord(wire::FieldTruth {
                lines: vec![line; wire::MAX_FIELD_LINES + 1],
                calls: Vec::new(),
            }),
            &mut out,
        );
        assert!(field(&out).is_empty(), "too long");
        r.message(end, 1, ClientMsg::FieldRecord(wire::FieldTruth { lines: vec![line], calls: Vec::new() }), &mut out);
        r.message(
            end,
            1,
            ClientMsg::FieldRecord(wire::FieldTruth { lines: vec![line, line], calls: Vec::new() }),
            &mut out,
        );
        let taken = field(&out);
        if field_test {
            assert_eq!(taken.len(), 1, "once");
            assert_eq!(
                (taken[0].seat, taken[0].name.as_str(), taken[0].lines.as_slice()),
                (Seat(0), "Anne", &[line][..])
            );
            assert!(taken[0].path.is_some(), "with the path the host measured");
            assert!(lobby_refusal(&out, 1).is_some_and(|why| why.contains("already")));
        } else {
            assert!(taken.is_empty());
        }
    }
}

#[test]
fn illegal_and_out_of_turn_actions_are_refused_with_the_rule_and_change_nothing() {
    let (mut r, mut out) = anne_joins(2, 1);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    let before = r.game().unwrap().race().clone();
    out.clear();
    r.message(5, 1, ClientMsg::Act { seq: 9, action: Action::Roll, at_us: None }, &mut out);
    r.message(5, 1, ClientMsg::Act { seq: 10, action: Action::Lift, at_us: None }, &mut out);
    r.message(5, 1, ClientMsg::Act { seq: 11, action: Action::Move { tiles: 6 }, at_us: None }, &mut out);
    let refusals: Vec<(u32, String)> = sent_to(&out, 1)
        .into_iter()
        .filter_map(|m| match m {
            ServerMsg::ActRefused { seq, error } => Some((*seq, error.rule())),
            _ => None,
        })
        .collect();
    assert_eq!(refusals, vec![(9, "B-3".into()), (10, "B-4.2".into()), (11, "B-3".into())]);
    assert!(!out.iter().any(|o| matches!(o, Output::Journal(_))), "nothing was journaled");
    assert_eq!(r.game().unwrap().race(), &before);
}

#[test]
fn a_dropped_pilot_comes_back_to_its_seat_with_the_whole_view() {
    let (mut r, mut out) = anne_joins(2, 1);
    let token = token_of(&out, 1);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    let now = run(&mut r, 0, 100_000_000, &mut out, |r| r.game().is_some_and(|c| c.race().round() >= 2));
    r.gone(now, 1, &mut out);
    // While away, a bot plays for Anne at bot speed (no time limit waited for).
    let round = r.game().unwrap().race().round();
    let now = run(&mut r, now, now + 2_000_000, &mut out, |r| r.game().unwrap().race().round() > round);
    out.clear();
    r.hello(now, 9, hello("Anne", Some(token)), Steady, &mut out);
    let msgs = sent_to(&out, 9);
    assert!(matches!(msgs[0], ServerMsg::Welcome { seat: Some(Seat(0)), .. }));
    assert!(
        msgs.iter()
            .any(|m| matches!(m, ServerMsg::Update { view, .. } if view.viewer == Some(Seat(0)) && view.round > round))
    );
    // An unknown token is refused with what to do.
    r.hello(now, 10, hello("Eve", Some(SeatToken(5))), Steady, &mut out);
    assert!(out.iter().any(|o| matches!(o, Output::Close { conn: 10, code: close::BAD_TOKEN, .. })));
}

#[test]
fn late_joiners_watch_and_cannot_act() {
    let (mut r, mut out) = anne_joins(2, 1);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    out.clear();
    r.hello(3, 2, hello("Late", None), Steady, &mut out);
    let msgs = sent_to(&out, 2);
    assert!(matches!(msgs[0], ServerMsg::Welcome { seat: None, .. }));
    assert!(
        msgs.iter()
            .any(|m| matches!(m, ServerMsg::Update { view, legal, .. } if view.viewer.is_none() && legal.is_empty()))
    );
    r.message(3, 2, ClientMsg::Act { seq: 1, action: Action::Klaxon, at_us: None }, &mut out);
    assert!(matches!(sent_to(&out, 2).last(), Some(ServerMsg::ActRefused { error: RuleError::Spectator, .. })));
}

#[test]
fn a_pilot_who_acts_in_time_is_never_overridden() {
    let (mut r, mut out) = anne_joins(2, 1);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    // Act for Anne as soon as she may, always well within her time limit.
    let mut now = 0;
    let mut seq = 0;
    let mut acted_in = None;
    while !r.is_finished() {
        let champ = r.game().unwrap();
        let race = champ.race();
        let mut legal = race.legal_actions(Seat(0));
        legal.retain(|a| !matches!(a, Action::Lift | Action::Klaxon));
        // A timed moment waits for the arbiter's verdict: one request in each, then time passes.
        let moment = TimedStep::of(champ.step()).map(|t| t.moment);
        if moment.is_some() && acted_in == moment {
            legal.clear();
        }
        if let Some(&action) = legal.last() {
            seq += 1;
            let before = out.len();
            if moment.is_some() {
                // Its timings travel with it (a plain request would be refused: Untimed).
                acted_in = moment;
                let opens = r.fair.open_moment().unwrap().1;
                now = now.max(opens + 150_000);
                let (shown_us, input_us) = (opens, opens + 140_000);
                let msg = match action {
                    Action::TakePawn { .. } | Action::Echange { .. } | Action::KeepPawn => {
                        ClientMsg::Timed { seq, action, shown_us, input_us }
                    }
                    other => panic!("in a timed moment: {other:?}"),
                };
                r.message(now, 1, msg, &mut out);
            } else {
                r.message(now, 1, ClientMsg::Act { seq, action, at_us: None }, &mut out);
            }
            let refused = sent_to(&out[before..], 1)
                .into_iter()
                .any(|m| matches!(m, ServerMsg::ActRefused { seq: s, .. } if *s == seq));
            assert!(!refused, "{action:?} was refused: {:?}", &out[before..]);
            assert!(!r.seats[0].zombie);
            continue;
        }
        now = r.next_deadline().unwrap().max(now);
        r.tick(now, &mut out);
        assert!(!r.seats[0].zombie, "a bot took over a pilot who was in time");
    }
}

#[test]
fn the_first_pilot_sets_the_championship() {
    let (mut r, mut out) = anne_joins(0, 1);
    let bad = Settings { circuit: "nurburgring".into(), ..settings(3, 2) };
    r.message(0, 1, ClientMsg::Configure(bad), &mut out);
    assert!(
        matches!(sent_to(&out, 1).last(), Some(ServerMsg::LobbyRefused { reason }) if reason.contains("nurburgring"))
    );
    let for_fun = Settings { bot_level: BotLevel::Random, ..settings(3, 2) };
    r.message(0, 1, ClientMsg::Configure(for_fun), &mut out);
    assert!(matches!(sent_to(&out, 1).last(), Some(ServerMsg::Lobby(l))
        if l.settings.bots == 3 && l.settings.options.races == 2 && l.settings.bot_level == BotLevel::Random));
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    let champ = r.game().expect("1 pilot + 3 bots");
    assert_eq!((champ.race().pilots(), champ.races()), (4, 2));
    assert!(r.seats[1..].iter().all(|s| s.bot == Some(BotLevel::Random)), "the bots play at the level set");
}

#[test]
fn b_4_6_under_the_cup_each_client_learns_the_lift_instant_on_its_own_clock() {
    let (mut r, mut out) = anne_joins(2, 1);
    // Anne's clock reads 5 s ahead of the host's, over a path with no delay; her model is warm.
    for t in (1..=fairness::WARM_SAMPLES as u64).map(|i| i * 500) {
        r.probe(1, crate::fair::Sample::from_probe(t, t + 5_000_000, t + 5_000_000, t));
    }
    out.clear();
    r.message(10_000, 1, ClientMsg::Ready(true), &mut out);
    let cup = sent_to(&out, 1)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Update { view, countdown_end_us, deadline_ms, .. }
                if view.phase == bolide::view::PhaseView::CupDown =>
            {
                Some((*countdown_end_us, *deadline_ms))
            }
            _ => None,
        })
        .expect("the race starts under the cup");
    // The lift is `countdown_ms` (100 ms) after the start, and the update says so both ways.
    assert_eq!(cup, (Some(10_000 + 100_000 + 5_000_000), Some(100)));
}

#[test]
fn b_4_3_a_pick_without_timings_during_the_grab_is_refused() {
    // Judged by its arrival, it would go to the nearest laptop: the client must send a `Grab`.
    let (mut r, mut out, reveal, pawn) = anne_at_the_grab();
    let before = r.game().unwrap().race().clone();
    out.clear();
    r.message(reveal + 2_000, 1, ClientMsg::Act { seq: 4, action: Action::TakePawn { pawn }, at_us: None }, &mut out);
    assert_eq!(sent_to(&out, 1), vec![&ServerMsg::ActRefused { seq: 4, error: RuleError::Untimed }]);
    assert!(!out.iter().any(|o| matches!(o, Output::Fair(_))), "nothing arbitrated: {out:?}");
    assert_eq!(r.game().unwrap().race(), &before);
}

#[test]
fn b_4_3_a_grab_counts_once_whichever_copy_arrives_first() {
    // A client sends its grab on the stream and as datagram copies (the same seq): the first
    // copy is the request; the others change nothing and get no answer.
    let (mut r, mut out, reveal, pawn) = anne_at_the_grab();
    let grab = ClientMsg::Timed { seq: 9, action: Action::TakePawn { pawn }, shown_us: 0, input_us: 1_000 };
    out.clear();
    r.message(reveal + 2_000, 1, grab.clone(), &mut out);
    let verdicts = |out: &[Output]| out.iter().filter(|o| matches!(o, Output::Fair(f) if f.seat == Seat(0))).count();
    assert_eq!(verdicts(&out), 1, "the first copy is arbitrated at once (the others are host bots)");
    out.clear();
    r.message(reveal + 3_000, 1, grab.clone(), &mut out);
    r.message(reveal + 40_000, 1, grab, &mut out);
    assert_eq!(verdicts(&out), 0);
    assert!(sent_to(&out, 1).is_empty(), "no answer to a copy: {out:?}");
}

#[test]
fn b_4_6_a_beat_that_overtook_a_klaxon_call_does_not_close_the_calls() {
    // Anne calls Klaxon just before the lift; her next heartbeat (a datagram) overtakes the
    // call on the way. The beat names the call it follows (acts: 1), so the host keeps the
    // calls open until the call itself arrives — and accepts it.
    let (mut r, mut out) = anne_joins(2, 1);
    for t in [1_000, 2_000, 3_000] {
        r.probe(1, crate::fair::Sample::from_probe(t, t, t, t));
    }
    r.message(10_000, 1, ClientMsg::Ready(true), &mut out);
    let lift = r.fair.countdown_end().expect("the cup is down");
    let beat = ClientMsg::Heartbeat { now_us: lift + 1_500, shown: None, acts: 1, dense: true };
    r.message(lift + 2_000, 1, beat, &mut out);
    r.tick(lift + 2_000, &mut out);
    assert!(r.fair.countdown_end().is_some(), "the calls stay open: the beat follows a call not yet here");
    out.clear();
    r.message(lift + 5_000, 1, ClientMsg::Act { seq: 1, action: Action::Klaxon, at_us: Some(lift - 1_000) }, &mut out);
    assert!(
        !sent_to(&out, 1).iter().any(|m| matches!(m, ServerMsg::ActRefused { .. })),
        "the call made before the lift counts: {out:?}"
    );
    let called = sent_to(&out, 1).into_iter().any(|m| {
        matches!(m, ServerMsg::Update { events, .. } if events.iter().any(|e| matches!(e, Event::KlaxonCalled { seat: Seat(0), .. })))
    });
    assert!(called, "Anne's call is applied once the calls close");
}

#[test]
fn b_4_2_the_cup_stays_down_until_every_clock_model_is_warm() {
    let (mut r, mut out) = anne_joins(2, 1);
    r.probe(1, crate::fair::Sample::from_probe(1_000, 1_000, 1_000, 1_000));
    r.message(10_000, 1, ClientMsg::Ready(true), &mut out);
    let lift = r.fair.countdown_end().expect("the cup is down");
    assert_eq!(lift, 10_000 + 100_000 + fairness::WARM_UP_US, "one probe is not a clock model");
}

fn lobby_refusal(out: &[Output], conn: ConnId) -> Option<String> {
    sent_to(out, conn).into_iter().rev().find_map(|m| match m {
        ServerMsg::LobbyRefused { reason } => Some(reason.clone()),
        _ => None,
    })
}

#[test]
fn a_first_player_out_of_range_is_refused_not_a_panic() {
    let (mut r, mut out) = anne_joins(0, 1);
    let mut bad = settings(2, 1);
    bad.options.first_player = FirstPlayer::Seat(Seat(9));
    r.message(0, 1, ClientMsg::Configure(bad), &mut out);
    assert!(lobby_refusal(&out, 1).is_some_and(|r| r.starts_with("first-player:")), "{:?}", lobby_refusal(&out, 1));
    // A seat that exists at a full table but is empty at this one: refused at the start.
    let mut empty = settings(2, 1);
    empty.options.first_player = FirstPlayer::Seat(Seat(4));
    r.message(0, 1, ClientMsg::Configure(empty), &mut out);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    assert!(r.game().is_none());
    let reason = lobby_refusal(&out, 1).unwrap();
    assert!(reason.contains("first-player: seat 4 is empty"), "{reason}");
    // The room lives on: a good setting starts the championship.
    r.message(0, 1, ClientMsg::Configure(settings(2, 1)), &mut out);
    assert!(r.game().is_some());
}

#[test]
fn the_wire_names_no_file_as_a_circuit() {
    let (mut r, mut out) = anne_joins(0, 1);
    for circuit in ["/etc/shadow", "/dev/zero", "../../secret", "random:x"] {
        let mut s = settings(2, 1);
        s.circuit = circuit.into();
        r.message(0, 1, ClientMsg::Configure(s), &mut out);
        let reason = lobby_refusal(&out, 1).unwrap();
        assert!(reason.starts_with("circuit:"), "{circuit}: {reason}");
        assert_eq!(r.config.settings.circuit, "cannes", "{circuit} was taken");
    }
    let mut s = settings(2, 1);
    s.circuit = "S ".repeat(1000);
    r.message(0, 1, ClientMsg::Configure(s), &mut out);
    assert!(lobby_refusal(&out, 1).unwrap().contains("too long"));
    // The notation itself and seeded layouts are fine.
    let mut s = settings(2, 1);
    s.circuit = bolide::circuits::PRESETS[1].1.into();
    r.message(0, 1, ClientMsg::Configure(s.clone()), &mut out);
    assert_eq!(r.config.settings.circuit, s.circuit);
}

#[test]
fn two_pilots_who_look_alike_are_told_apart() {
    let mut r = room(0, 1);
    let mut out = Vec::new();
    for (conn, name) in [(1, "Anne"), (2, "anne"), (3, "An\u{200B}ne"), (4, "Anne 2")] {
        r.hello(0, conn, hello(name, None), Steady, &mut out);
    }
    let Some(ServerMsg::Lobby(state)) = sent_to(&out, 4).into_iter().rev().find(|m| matches!(m, ServerMsg::Lobby(_)))
    else {
        panic!("a lobby")
    };
    let names: Vec<&str> = state.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Anne", "anne 2", "Anne 3", "Anne 2 2"]);
}

#[test]
fn names_are_cleaned_so_no_lobby_frame_can_outgrow_the_limit() {
    let mut r = room(0, 1);
    let mut out = Vec::new();
    for conn in 1..=6 {
        let name = format!("\u{202E}{}\u{0007}", "x".repeat(40_000));
        r.hello(0, conn, hello(&name, None), Steady, &mut out);
    }
    let lobby = sent_to(&out, 6).into_iter().rev().find(|m| matches!(m, ServerMsg::Lobby(_))).expect("a lobby");
    let ServerMsg::Lobby(state) = lobby else { unreachable!() };
    assert_eq!(state.seats.len(), 6);
    for seat in &state.seats {
        assert!(seat.name.chars().count() <= bolide_table::wire::MAX_NAME_CHARS, "{}", seat.name);
        assert!(seat.name.starts_with("xxxxxxxxxx") && !seat.name.chars().any(|c| c.is_control()));
    }
    // Six pilots who gave one name are still six names.
    let names: std::collections::BTreeSet<&str> = state.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.len(), 6, "{names:?}");
    let frame = bolide_table::wire::encode(lobby);
    assert!(frame.len() < bolide_table::wire::MAX_FRAME / 16, "{} bytes", frame.len());
}

/// Anne, Bob and Chloé on laptops whose clocks read the host's, 1 ms away (claims are taken
/// as they are), the first grab open: the room, its outputs, the reveal instant and the pawns.
fn three_laptops_at_the_grab() -> (Room, Vec<Output>, u64, Vec<Pawn>) {
    three_laptops_at_the_grab_of(room(0, 1))
}

/// As [`three_laptops_at_the_grab`], in room `r`.
fn three_laptops_at_the_grab_of(r: Room) -> (Room, Vec<Output>, u64, Vec<Pawn>) {
    three_laptops_at_the_grab_after(r, &[])
}

/// As [`three_laptops_at_the_grab_of`], Anne's laptop beating in the lobby at `anne_beats`
/// (its clock, which is the host's here; each beat arriving 1 ms later) before anyone is ready.
fn three_laptops_at_the_grab_after(mut r: Room, anne_beats: &[u64]) -> (Room, Vec<Output>, u64, Vec<Pawn>) {
    let mut out = Vec::new();
    r.hello(0, 1, hello("Anne", None), Steady, &mut out);
    r.hello(0, 2, hello("Bob", None), Steady, &mut out);
    r.hello(0, 3, hello("Chloé", None), Steady, &mut out);
    for conn in 1..=3 {
        for i in 0..20 {
            let t = i * 10_000;
            r.probe(conn, crate::fair::Sample::from_probe(t, t + 1_000, t + 1_000, t + 2_000));
        }
    }
    let mut now = 0;
    for &t in anne_beats {
        now = t + 1_000;
        r.message(now, 1, ClientMsg::Heartbeat { now_us: t, shown: None, acts: 0, dense: true }, &mut out);
    }
    for conn in 1..=3 {
        r.message(now, conn, ClientMsg::Ready(true), &mut out);
    }
    run(&mut r, now, now + 60_000_000, &mut out, |r| r.game().is_some_and(|c| c.race().phase() == Phase::Grab));
    let reveal = r.fair.open_moment().expect("the grab is open").1;
    // Honest laptops beat from the instant they show the moment (a silent one is bounded
    // tighter: `fair::slack`).
    beat_at_the_opening(&mut r, &mut out, grab_shown(reveal));
    let pawns = pawns_to_take(&r, Seat(0));
    (r, out, reveal, pawns)
}

/// The pawns `seat` may take now (its legal grabs).
fn pawns_to_take(r: &Room, seat: Seat) -> Vec<Pawn> {
    let legal = r.game().map(|c| c.race().legal_actions(seat)).unwrap_or_default();
    legal
        .iter()
        .filter_map(|a| match a {
            Action::TakePawn { pawn } => Some(*pawn),
            _ => None,
        })
        .collect()
}

/// Each of the three laptops beats once as it shows `moment`, with nothing sent in it yet.
fn beat_at_the_opening(r: &mut Room, out: &mut Vec<Output>, moment: wire::Shown) {
    for conn in 1..=3 {
        let acts = r.fair.acts_seen(conn);
        r.message(
            moment.at_us + 500,
            conn,
            ClientMsg::Heartbeat { now_us: moment.at_us, shown: Some(moment), acts, dense: true },
            out,
        );
    }
}

/// When a laptop showed the first grab (race 1, round 1), for its beats.
fn grab_shown(at_us: u64) -> wire::Shown {
    wire::Shown { moment: bolide::Timed::Grab.name(1, 1), at_us }
}

/// A laptop's first grab, shown at the reveal instant, `reaction_us` later.
fn first_grab(reveal: u64, pawn: Pawn, reaction_us: u64) -> ClientMsg {
    grab_number(1, reveal, pawn, reaction_us)
}

/// A laptop's grab number `seq` on its connection, shown at the reveal instant.
fn grab_number(seq: u32, reveal: u64, pawn: Pawn, reaction_us: u64) -> ClientMsg {
    ClientMsg::Timed { seq, action: Action::TakePawn { pawn }, shown_us: reveal, input_us: reveal + reaction_us }
}

#[test]
fn b_4_3_the_photo_finish_follows_the_grab_with_each_reaction_and_margin() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    // Bob's request arrives first, but Anne's hand was 6 ms faster; Chloé wants another pawn.
    let grab = |pawn, reaction_us| first_grab(reveal, pawn, reaction_us);
    r.message(reveal + 170_000, 2, grab(pawns[0], 156_000), &mut out);
    r.message(reveal + 175_000, 1, grab(pawns[0], 150_000), &mut out);
    r.message(reveal + 210_000, 3, grab(pawns[1], 200_000), &mut out);
    assert_eq!(r.game().unwrap().race().car(Seat(0)).pawn, Some(pawns[0]));
    let photo_in = |out: &[Output]| {
        sent_to(out, 2)
            .into_iter()
            .filter_map(|m| match m {
                ServerMsg::Update { events, .. } => events.iter().find_map(|e| match e {
                    Event::PhotoFinish(p) => Some(p.clone()),
                    _ => None,
                }),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert!(photo_in(&out).is_empty(), "nothing is published while the grab goes on");
    let grab_over = |r: &Room| r.game().is_some_and(|c| c.race().phase() != Phase::Grab);
    run(&mut r, reveal + 210_000, reveal + 2_000_000, &mut out, grab_over);
    let photos = photo_in(&out);
    assert_eq!(photos.len(), 1, "one photo finish, once the grab is over");
    let judged = |seat| {
        out.iter().find_map(|o| match o {
            Output::Fair(f) if f.seat == seat => Some(f.reaction_us as u32),
            _ => None,
        })
    };
    let (anne, bob) = (judged(Seat(0)).unwrap(), judged(Seat(1)).unwrap());
    assert_eq!(photos[0].reactions, [Some(anne), Some(bob), judged(Seat(2))], "the reactions the arbiter judged");
    assert_eq!(
        photos[0].contested,
        [Contest { pawn: pawns[0], winner: Seat(0), runner_up: Seat(1), margin_us: bob - anne, drawn: false }]
    );
    assert_eq!(bob - anne, 6_000);
}

/// Runs the room from `now` to the end of the grab; the first judged request of `seat`.
fn judged_once_the_grab_is_over(r: &mut Room, now: u64, out: &mut Vec<Output>, seat: Seat) -> FairRecord<Action> {
    let grab_over = |r: &Room| r.game().is_some_and(|c| c.race().phase() != Phase::Grab);
    run(r, now, now + 2_000_000, out, grab_over);
    judged(out, seat)
}

/// The first judged request of `seat` in `out`.
fn judged(out: &[Output], seat: Seat) -> FairRecord<Action> {
    out.iter()
        .find_map(|o| match o {
            Output::Fair(f) if f.seat == seat && f.judged => Some(*f),
            _ => None,
        })
        .expect("a judged request")
}

#[test]
fn fairness_7_a_laptop_cannot_claim_an_input_before_its_own_last_beat() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    let beat = |elapsed_us, acts| ClientMsg::Heartbeat {
        now_us: reveal + elapsed_us,
        shown: Some(grab_shown(reveal)),
        acts,
        dense: true,
    };
    let grab = |pawn, reaction_us| first_grab(reveal, pawn, reaction_us);
    // Bob's laptop beat at 150 ms with nothing sent, then claims its hand moved at 100 ms; Anne
    // really moved at 130 ms. Chloé has shown she is slower.
    r.message(reveal + 152_000, 2, beat(150_000, 0), &mut out);
    r.message(reveal + 152_000, 3, beat(150_000, 0), &mut out);
    r.message(reveal + 155_000, 2, grab(pawns[0], 100_000), &mut out);
    r.message(reveal + 158_000, 1, grab(pawns[0], 130_000), &mut out);
    let race = r.game().unwrap().race();
    assert_eq!(
        race.car(Seat(0)).pawn,
        Some(pawns[0]),
        "Anne's hand was first; Bob's claim is no earlier than his beat"
    );
    let bob = judged_once_the_grab_is_over(&mut r, reveal + 158_000, &mut out, Seat(1));
    assert_eq!(bob.reaction_us, 150_000);
    assert_eq!(bob.clamp, Clamp { beat_us: 50_000, ..Clamp::default() });
}

#[test]
fn fairness_7_a_laptop_silent_since_its_last_beat_is_believed_back_to_it_and_no_further() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    let beat = |ms: u64| ClientMsg::Heartbeat {
        now_us: reveal + ms * 1_000,
        shown: Some(grab_shown(reveal)),
        acts: 0,
        dense: true,
    };
    // Anne's near path goes quiet in stretches: her beats since the reveal show two silences
    // of 40 ms. Then her laptop beat at 270 ms, her hand moved at 275 ms, and every copy of her
    // request until the 80 ms one was lost — longer than a retransmission's room on a path
    // this short (about 30 ms), not than her request's last copy.
    for ms in [10, 50, 60].into_iter().chain((100..=270).step_by(10)) {
        r.message(reveal + ms * 1_000 + 1_000, 1, beat(ms), &mut out);
    }
    r.message(reveal + 356_000, 1, first_grab(reveal, pawns[0], 275_000), &mut out);
    // Bob's path never went quiet: his laptop beat as it showed the reveal, then kept quiet,
    // and claims a hand that moved at 50 ms for a request arriving at 400 ms: believed back no
    // further than a retransmission's room.
    r.message(reveal + 400_000, 2, first_grab(reveal, pawns[1], 50_000), &mut out);
    let anne = judged_once_the_grab_is_over(&mut r, reveal + 400_000, &mut out, Seat(0));
    assert_eq!((anne.reaction_us, anne.clamp), (275_000, Clamp::default()), "Anne's silence explains her late request");
    let bob = judged(&out, Seat(1));
    assert!(bob.clamp.input_us > 300_000 && bob.reaction_us > 350_000, "Bob is held near his arrival: {bob:?}");
}

#[test]
fn fairness_5_a_reveal_held_by_a_burst_on_the_way_in_is_not_taken_for_a_lie() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    // Anne's near path goes quiet in stretches: her beats show two silences of 40 ms (here in
    // the grab; any in the last minute would do). On the way to her, a longer stretch of loss
    // ate every copy of the reveal until the 80 ms one, so she showed it 80 ms after its
    // instant: longer than any silence the host heard from her, which it cannot hear.
    let late = reveal + 80_000;
    let beat = |ms: u64| ClientMsg::Heartbeat {
        now_us: reveal + ms * 1_000,
        shown: (ms >= 80).then(|| grab_shown(late)),
        acts: 0,
        dense: true,
    };
    for ms in [10, 50, 60].into_iter().chain((100..=270).step_by(10)) {
        r.message(reveal + ms * 1_000 + 1_000, 1, beat(ms), &mut out);
    }
    let grab =
        |pawn| ClientMsg::Timed { seq: 1, action: Action::TakePawn { pawn }, shown_us: late, input_us: late + 200_000 };
    r.message(late + 201_000, 1, grab(pawns[0]), &mut out);
    // Bob's path never went quiet: the same late reveal from him is a lie, and held.
    r.message(late + 201_000, 2, grab(pawns[1]), &mut out);
    let anne = judged_once_the_grab_is_over(&mut r, late + 201_000, &mut out, Seat(0));
    assert_eq!((anne.reaction_us, anne.clamp), (200_000, Clamp::default()), "the burst explains her late reveal");
    let bob = judged(&out, Seat(1));
    assert!(bob.clamp.shown_us > 60_000 && bob.clamp.input_us == 0, "Bob is held near the reveal: {bob:?}");
}

#[test]
fn fairness_7_a_beat_that_counted_the_grab_does_not_bound_it() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    // Anne's beat at 140 ms already counts her grab (made at 120 ms), and overtook it.
    let beat = ClientMsg::Heartbeat { now_us: reveal + 140_000, shown: Some(grab_shown(reveal)), acts: 1, dense: true };
    r.message(reveal + 141_000, 1, beat, &mut out);
    r.message(reveal + 150_000, 1, first_grab(reveal, pawns[0], 120_000), &mut out);
    let anne = judged_once_the_grab_is_over(&mut r, reveal + 150_000, &mut out, Seat(0));
    assert_eq!((anne.reaction_us, anne.clamp.total_us()), (120_000, 0));
}

#[test]
fn b_4_7_echanges_apply_in_reaction_order_not_arrival_order() {
    let mut drill = room(0, 1);
    drill.config.settings.options.echange_drill = true;
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab_of(drill);
    for (conn, pawn) in (1..=3).zip(&pawns) {
        r.message(reveal + 200_000 + conn, conn, first_grab(reveal, *pawn, 190_000 + conn), &mut out);
    }
    let in_echange = |r: &Room| r.game().is_some_and(|c| c.race().phase() == Phase::Echange);
    run(&mut r, reveal + 200_000, reveal + 5_000_000, &mut out, in_echange);
    let (anne, bob, chloe) = (Seat(0), Seat(1), Seat(2));
    let held = |r: &Room, seat| r.game().unwrap().race().car(seat).pawn.unwrap();
    let (pa, pb, pc) = (held(&r, anne), held(&r, bob), held(&r, chloe));
    let opens = r.fair.open_moment().expect("the window is open").1;
    // fairness.md §2: the window's datagram twin leaves with its update, so a packet lost on
    // the stream does not hold it: who holds each pawn, and who decides (all three here).
    for conn in 1..=3 {
        let (at, holders, deciding) = out
            .iter()
            .find_map(|o| match o {
                Output::DatagramAt {
                    conn: c,
                    at,
                    datagram: Datagram::Twin { twin: Twin::EchangeOpen { holders, deciding, .. }, .. },
                } if *c == conn => Some((*at, holders.clone(), *deciding)),
                _ => None,
            })
            .expect("the Échange window's twin");
        let race = r.game().unwrap().race();
        for seat in race.seats() {
            assert_eq!(holders[race.car(seat).pawn.unwrap().index()], Some(seat));
        }
        assert_eq!(deciding, 0b111);
        let with_update = out.iter().any(|o| {
            matches!(o, Output::SendAt { conn: c, at: a, msg: ServerMsg::Update { events, .. } }
                if *c == conn && *a == at && events.iter().any(|e| matches!(e, Event::EchangeWindow { .. })))
        });
        assert!(with_update, "the twin to {conn} leaves with the window's update");
    }
    let window = wire::Shown { moment: bolide::Timed::Echange.name(1, 1), at_us: opens };
    beat_at_the_opening(&mut r, &mut out, window);
    // A plain declaration is refused: it would be judged by its arrival.
    out.clear();
    r.message(opens + 100_000, 3, ClientMsg::Act { seq: 2, action: Action::KeepPawn, at_us: None }, &mut out);
    assert!(matches!(sent_to(&out, 3)[..], [ServerMsg::ActRefused { error: RuleError::Untimed, .. }]));
    // Bob's declaration arrives first, but Anne chose 10 ms sooner (her request lost a packet,
    // within a retransmission's allowance); both swap with Chloé.
    let declare = |seq, with: Option<Seat>, reaction_us| ClientMsg::Timed {
        seq,
        action: with.map_or(Action::KeepPawn, |with| Action::Echange { with }),
        shown_us: opens,
        input_us: opens + reaction_us,
    };
    r.message(opens + 205_000, 2, declare(2, Some(chloe), 200_000), &mut out);
    r.message(opens + 215_000, 1, declare(2, Some(chloe), 190_000), &mut out);
    assert!(in_echange(&r), "nothing applied while Chloé may still be faster");
    r.message(opens + 310_000, 3, declare(3, None, 300_000), &mut out);
    let swaps: Vec<Seat> = out
        .iter()
        .filter_map(|o| match o {
            Output::Journal(JournalEntry::Applied { seat, action: Action::Echange { .. } }) => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(swaps, [anne, bob], "in reaction order");
    // Each on the pawns as they stand (B-4.7): Anne takes Chloé's, then Bob takes Anne's old one.
    assert_eq!((held(&r, anne), held(&r, bob), held(&r, chloe)), (pc, pa, pb));
    let photo = sent_to(&out, 2)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Update { events, .. } => events.iter().find_map(|e| match e {
                Event::PhotoFinish(p) if p.moment == bolide::Timed::Echange => Some(p.clone()),
                _ => None,
            }),
            _ => None,
        })
        .expect("the Échange window's photo finish");
    assert_eq!(photo.reactions, [Some(190_000), Some(200_000), Some(300_000)]);
}

#[test]
fn b_4_3_a_request_the_last_pawn_made_void_is_recorded_as_never_judged() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    // Chloé goes for Anne's pawn, slower; once Bob has his, the last pawn is hers by itself.
    r.message(reveal + 160_000, 3, first_grab(reveal, pawns[0], 150_000), &mut out);
    r.message(reveal + 161_000, 2, first_grab(reveal, pawns[1], 140_000), &mut out);
    r.message(reveal + 162_000, 1, first_grab(reveal, pawns[0], 130_000), &mut out);
    let grab_over = |r: &Room| r.game().is_some_and(|c| c.race().phase() != Phase::Grab);
    run(&mut r, reveal + 162_000, reveal + 2_000_000, &mut out, grab_over);
    let records: Vec<FairRecord<Action>> = out
        .iter()
        .filter_map(|o| match o {
            Output::Fair(f) => Some(*f),
            _ => None,
        })
        .collect();
    let of = |seat| records.iter().find(|f| f.seat == seat).copied().expect("a record per request");
    assert!(of(Seat(0)).judged && of(Seat(0)).granted);
    assert!(of(Seat(1)).judged && of(Seat(1)).granted);
    let chloe = of(Seat(2));
    assert_eq!((pawn_of(&chloe), chloe.judged, chloe.granted), (Some(pawns[0]), false, false), "{chloe:?}");
    assert_eq!(r.game().unwrap().race().car(Seat(2)).pawn, Some(pawns[2]));
}

/// The secret audit: every frame and datagram the host sends during a whole 6-seat
/// championship (Klaxon calls, peeks, bonuses, stand-ins) is recorded, and none carries what
/// its seat may not know yet — no reservoir before the reveal (or that seat's own Klaxon
/// peek), no byte of the championship seed, no other seat's token.
#[test]
fn b_4_6_no_frame_tells_a_seat_what_it_may_not_know_yet() {
    const SEED: u64 = 0x9E37_79B9_7F4A_7C15;
    const NONCE: [u8; 32] = [0xA5; 32];
    let mut config = RoomConfig::new("GARE", settings(0, 2), SEED);
    config.nonce = NONCE;
    (config.countdown_ms, config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (100, 20, 50, 50);
    let mut r = Room::new(config, 7);
    let mut out = Vec::new();
    for conn in 1..=6 {
        r.hello(0, conn, hello(&format!("Pilot {conn}"), None), Steady, &mut out);
    }
    for conn in 1..=6 {
        r.message(0, conn, ClientMsg::Ready(true), &mut out);
    }
    let tokens: Vec<SeatToken> = (1..=6).map(|conn| token_of(&out, conn)).collect();
    // Nobody acts: every decision goes to a stand-in after its time limit, Klaxon calls included.
    run(&mut r, 0, 3_600_000_000, &mut out, Room::is_finished);
    assert!(r.is_finished());

    let mut frames = 0;
    let (mut peeks, mut klaxons, mut bonuses, mut reveals, mut windows) = (0, 0, 0, 0, 0);
    // Per connection: (race, round) it is in, the reveal seen, its own peek seen.
    let mut state: BTreeMap<ConnId, ((u8, u16), bool, bool)> = BTreeMap::new();
    let mut reveal_updates = Vec::new();
    // Provably fair dice: the seed and its nonce go out once, in the lobby that ends the
    // championship, and open the commitment every seat was shown in its first lobby.
    let sealed = |o: &Output| match o {
        Output::Send { msg: ServerMsg::Lobby(lobby), .. } => Some((lobby.dice, lobby.reveal.clone())),
        _ => None,
    };
    let end = out.iter().position(|o| sealed(o).is_some_and(|(_, reveal)| reveal.is_some())).expect("seed revealed");
    let reveal = sealed(&out[end]).and_then(|(_, reveal)| reveal).unwrap();
    assert_eq!((reveal.seed, reveal.nonce), (SEED, NONCE));
    for conn in 1..=6 {
        let first = out.iter().find(|o| matches!(o, Output::Send { conn: c, msg: ServerMsg::Lobby(_) } if *c == conn));
        assert_eq!(first.and_then(sealed).map(|(dice, _)| dice), Some(reveal.commitment()), "connection {conn}");
    }
    for (i, o) in out.iter().enumerate() {
        let (conn, bytes) = match o {
            Output::Send { conn, msg } | Output::SendAt { conn, msg, .. } => (*conn, wire::encode(msg)),
            Output::DatagramAt { conn, datagram, .. } => (*conn, wire::encode_datagram(datagram)),
            _ => continue,
        };
        frames += 1;
        let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
        if i < end {
            assert!(!has(&SEED.to_le_bytes()) && !has(&SEED.to_be_bytes()), "the seed went out: {o:?}");
            assert!(!has(&NONCE), "the nonce went out: {o:?}");
        }
        for (i, token) in tokens.iter().enumerate() {
            if i as ConnId + 1 != conn {
                assert!(!has(&token.0.to_le_bytes()), "seat {i}'s token went to connection {conn}");
            }
        }
        let seat = Seat(conn as u8 - 1);
        match o {
            Output::Send { msg: ServerMsg::Update { events, view, .. }, .. }
            | Output::SendAt { msg: ServerMsg::Update { events, view, .. }, .. } => {
                let s = state.entry(conn).or_insert(((0, 0), false, false));
                if s.0 != (view.race, view.round) {
                    *s = ((view.race, view.round), false, false);
                }
                for e in events {
                    match e {
                        Event::ReservoirsRevealed { .. } => {
                            s.1 = true;
                            reveals += 1;
                            if let Output::SendAt { at, .. } = o {
                                reveal_updates.push((conn, *at, view.race, view.round));
                            }
                        }
                        Event::KlaxonPeek { seat: peeker } if *peeker == seat => {
                            s.2 = true;
                            peeks += 1;
                        }
                        Event::KlaxonCalled { .. } => klaxons += 1,
                        Event::BonusTaken { .. } => bonuses += 1,
                        _ => {}
                    }
                }
                let shown: Vec<_> = view.pawns.iter().filter(|p| p.reservoir.is_some()).collect();
                assert!(
                    shown.is_empty() || s.1 || s.2,
                    "{seat} saw reservoirs before the reveal or its own peek, race {} round {}: {shown:?}",
                    view.race,
                    view.round
                );
            }
            // A reveal datagram leaves with the reveal's update, at the same instant, never before.
            Output::DatagramAt {
                at, datagram: Datagram::Twin { twin: Twin::Reveal { race, round, .. }, .. }, ..
            } => {
                let with_update = out.iter().any(|u| {
                    matches!(u, Output::SendAt { conn: c, at: a, msg: ServerMsg::Update { events, view, .. } }
                        if *c == conn && a == at && (view.race, view.round) == (*race, *round)
                            && events.iter().any(|e| matches!(e, Event::ReservoirsRevealed { .. })))
                });
                assert!(with_update, "a reveal datagram to {conn} without its update at {at}");
            }
            // An Échange window's twin likewise, with the pawns as its update hands them out.
            Output::DatagramAt {
                at,
                datagram: Datagram::Twin { twin: Twin::EchangeOpen { race, round, holders, .. }, .. },
                ..
            } => {
                let with_update = out.iter().any(|u| {
                    matches!(u, Output::SendAt { conn: c, at: a, msg: ServerMsg::Update { events, view, .. } }
                        if *c == conn && a == at && (view.race, view.round) == (*race, *round)
                            && events.iter().any(|e| matches!(e, Event::EchangeWindow { .. }))
                            && view.pawns.iter().all(|p| holders[p.pawn.index()] == p.owner))
                });
                assert!(with_update, "an Échange twin to {conn} without its update at {at}");
                windows += 1;
            }
            _ => {}
        }
    }
    // The audit saw what it is about: a whole championship with peeks, calls and bonuses.
    eprintln!(
        "audited {frames} frames and datagrams: {reveals} reveals, {klaxons} Klaxon calls, {peeks} peeks, {bonuses} bonuses, {windows} Échange twins"
    );
    assert!(frames > 1_000 && reveals >= 12, "frames {frames}, reveals {reveals}");
    assert!(klaxons > 0 && peeks > 0 && bonuses > 0, "klaxons {klaxons}, peeks {peeks}, bonuses {bonuses}");
    assert_eq!(reveal_updates.len(), reveals, "every reveal is a scheduled send");
}

#[test]
fn provably_fair_dice_the_journal_verifies_against_the_lobby_commitment() {
    let (mut r, mut out) = anne_joins(2, 2);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    run(&mut r, 0, 5_000_000_000, &mut out, Room::is_finished);
    let shown = sent_to(&out, 1)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Lobby(lobby) => Some(lobby.dice),
            _ => None,
        })
        .unwrap();
    let journal = journal_of(&out);
    let text: String = journal.iter().map(JournalEntry::to_line).collect();
    let verified = crate::verify::journal(&text, Some(shown)).unwrap();
    assert!(verified.over && verified.races == 2);
    assert!(verified.report.rounds >= 4 && verified.report.accelerators > 0 && verified.report.bonuses > 0);
    assert_eq!(verified.report.first_players, 1, "the first race's first player is drawn");
    // A journal whose seed was changed after the lobby showed its commitment is caught.
    let mut changed = journal.clone();
    if let Some(JournalEntry::Started { seed, .. }) = changed.first_mut() {
        *seed += 1;
    }
    let text: String = changed.iter().map(JournalEntry::to_line).collect();
    assert!(crate::verify::journal(&text, Some(shown)).is_err());
}

#[test]
fn a_host_killed_in_the_grab_resumes_into_a_grab_that_ends() {
    let (_, out, reveal, _) = anne_at_the_grab();
    // Resumed from the journal at the instant of the reveal: nobody reconnects, so every pawn
    // goes to a bot or a stand-in.
    let mut r = Room::resume(room(2, 1).config, 3, &journal_of(&out), reveal).unwrap();
    assert_eq!(r.game().unwrap().race().phase(), Phase::Grab);
    let mut out = Vec::new();
    let end = run(&mut r, reveal, reveal + 60_000_000, &mut out, |r| {
        r.game().is_some_and(|c| c.race().phase() != Phase::Grab)
    });
    let race = r.game().unwrap().race();
    assert!(race.seats().all(|s| race.car(s).pawn.is_some()), "every pilot holds a pawn after {} ms", end - reveal);
}

#[test]
fn a_pilot_who_comes_back_over_and_over_cannot_hold_the_table_past_one_time_limit() {
    let (mut r, mut out) = anne_joins(2, 1);
    let token = token_of(&out, 1);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    let anne_to_move = |r: &Room| {
        r.game().is_some_and(|c| c.race().phase() == Phase::Movement && c.race().active_seat() == Some(Seat(0)))
    };
    let start = run(&mut r, 0, 600_000_000, &mut out, anne_to_move);
    // Anne reconnects every 50 ms and never decides: her time limit (1 s) still runs from the
    // start of the decision, and a stand-in decides for her when it is over.
    let applied = r.timers.applied;
    let (mut now, mut conn) = (start, 100);
    while r.timers.applied == applied {
        assert!(now < start + 5_000_000, "the decision is still held 5 s after it began");
        r.hello(now, conn, hello("Anne", Some(token)), Steady, &mut out);
        let next = now + 50_000;
        while let Some(at) = r.next_deadline().filter(|at| *at <= next) {
            r.tick(at.max(now), &mut out);
        }
        (now, conn) = (next, conn + 1);
    }
    assert!(now <= start + 1_100_000, "decided for her {} ms after it began", (now - start) / 1000);
    // Past a few comebacks in a few seconds, the seat is told to wait.
    let too_many = out.iter().any(|o| matches!(o, Output::Close { code, .. } if *code == close::TOO_MANY_COMEBACKS));
    assert!(too_many, "twenty comebacks a second were all let in");
}

#[test]
fn spectators_are_let_in_up_to_a_limit() {
    let (mut r, mut out) = anne_joins(2, 1);
    r.message(0, 1, ClientMsg::Ready(true), &mut out);
    for conn in 10..10 + MAX_SPECTATORS as ConnId + 8 {
        r.hello(1, conn, hello("Watcher", None), Steady, &mut out);
    }
    let welcomed = (10..10 + MAX_SPECTATORS as ConnId + 8)
        .filter(|c| sent_to(&out, *c).iter().any(|m| matches!(m, ServerMsg::Welcome { .. })))
        .count();
    assert_eq!(welcomed, MAX_SPECTATORS);
    let last = sent_to(&out, 10 + MAX_SPECTATORS as ConnId + 7);
    assert!(matches!(last.first(), Some(ServerMsg::Refused { reason, .. }) if reason.contains("spectators")));
    assert!(out.iter().any(|o| matches!(o, Output::Close { code, .. } if *code == close::ROOM_FULL)));
}

#[test]
fn b_4_2_only_pilots_clocks_hold_the_cup_and_a_seat_holds_it_three_times_at_most() {
    let (mut r, mut out) = anne_joins(2, 1);
    for i in 0..fairness::WARM_SAMPLES as u64 {
        let t = 1_000 + i * 1_000;
        r.probe(1, crate::fair::Sample::from_probe(t, t, t, t));
    }
    r.message(10_000, 1, ClientMsg::Ready(true), &mut out);
    let lift = r.fair.countdown_end().expect("the cup is down");
    assert_eq!(lift, 10_000 + 100_000, "Anne's clock is warm");
    // A spectator that never answers a probe, or claims a slow path, holds nothing up.
    let path = r.slowest_pilot_path();
    r.hello(20_000, 9, hello("Watcher", None), Steady, &mut out);
    r.probe(9, crate::fair::Sample::from_probe(30_000, 400_000, 400_000, 800_000));
    assert!(!r.needs_warm_up(), "a spectator's cold clock would hold the cup");
    assert_eq!(r.slowest_pilot_path(), path, "a spectator's path stretched the reveal");
    // A seat whose connection stays cold (a pilot reconnecting over and over) is waited for
    // three times, then no more.
    r.fair.forget(1);
    let waits: Vec<bool> = (0..5).map(|_| r.needs_warm_up()).collect();
    assert_eq!(waits, [true, true, true, false, false]);
}

#[test]
fn b_4_6_a_klaxon_call_is_judged_against_the_countdown_its_laptop_was_shown() {
    // Under the cup Bob's laptop clock steps 30 ms ahead and the host re-learns it (in part).
    // Anne calls with 110 ms left on her countdown, Bob with 100 ms left on his: Anne called
    // first by the countdowns they watched, though Bob's stamp, put through the host's new
    // model of his clock, reads more than 115 ms before the lift. (No probe can tell a step from a path that became
    // asymmetric: only the countdown each pilot was shown is common ground.)
    let (mut r, mut out) = anne_joins(1, 1);
    r.hello(0, 2, hello("Bob", None), Steady, &mut out);
    for conn in 1..=2 {
        for i in 0..20 {
            let t = i * 1_000;
            r.probe(conn, crate::fair::Sample::from_probe(t, t + 1_000, t + 1_000, t + 2_000));
        }
    }
    out.clear();
    for conn in 1..=2 {
        r.message(20_000, conn, ClientMsg::Ready(true), &mut out);
    }
    let told = |out: &[Output], conn| {
        sent_to(out, conn).into_iter().find_map(|m| match m {
            ServerMsg::Update { countdown_end_us: Some(l), .. } => Some(*l),
            _ => None,
        })
    };
    let (anne_lift, bob_lift) = (told(&out, 1).expect("Anne's countdown"), told(&out, 2).expect("Bob's countdown"));
    let lift = r.fair.countdown_end().expect("the cup is down");
    for i in 0..40 {
        let t = 30_000 + i * 1_000;
        r.probe(2, crate::fair::Sample::from_probe(t, t + 31_000, t + 31_000, t + 2_000));
    }
    let moved = r.fair.to_client(2, lift).unwrap() as i64 - bob_lift as i64;
    // More than the 10 ms between the two calls: through the model, Bob's call would come first.
    assert!((15_000..=35_000).contains(&moved), "the host re-learned Bob's clock: {moved} µs");
    out.clear();
    r.message(
        lift - 105_000,
        2,
        ClientMsg::Act { seq: 1, action: Action::Klaxon, at_us: Some(bob_lift - 100_000) },
        &mut out,
    );
    r.message(
        lift - 100_000,
        1,
        ClientMsg::Act { seq: 1, action: Action::Klaxon, at_us: Some(anne_lift - 110_000) },
        &mut out,
    );
    r.message(
        lift + 2_000,
        1,
        ClientMsg::Heartbeat { now_us: anne_lift + 1_000, shown: None, acts: 1, dense: true },
        &mut out,
    );
    r.message(
        lift + 2_000,
        2,
        ClientMsg::Heartbeat { now_us: bob_lift + 1_000, shown: None, acts: 1, dense: true },
        &mut out,
    );
    run(&mut r, lift + 2_000, lift + 10_000_000, &mut out, |r| r.fair.countdown_end().is_none());
    let order = klaxon_order(&out, 1);
    assert_eq!(order, vec![Seat(0), Seat(1)], "Anne, then Bob: {out:?}");
}

#[test]
fn a_pilot_who_beats_but_never_grabs_is_played_for_after_the_time_limit() {
    // Anne's laptop beats every 10 ms through the grab but never showed it (no `shown`) and
    // answers every update with a plain pick, which is refused. Neither a beat nor a refused
    // pick is acting: her time limit hands her seat to a stand-in — again after a pawn her
    // stand-in asked for went to a faster hand — so the grab ends.
    for seed in 0..8 {
        let mut config = RoomConfig::new("GARE", settings(2, 1), seed);
        config.countdown_ms = 100;
        config.bot_delay_ms = 20;
        config.moment_timeout_ms = 500;
        let mut r = Room::new(config, seed);
        let mut out = Vec::new();
        r.hello(0, 1, hello("Anne", None), Steady, &mut out);
        r.message(0, 1, ClientMsg::Ready(true), &mut out);
        let mut now =
            run(&mut r, 0, 60_000_000, &mut out, |r| r.game().is_some_and(|c| c.race().phase() == Phase::Grab));
        let (mut seq, end) = (0, now + 5_000_000);
        while now < end && r.game().unwrap().race().phase() == Phase::Grab {
            now += 10_000;
            let updated = sent_to(&out, 1).iter().any(|m| matches!(m, ServerMsg::Update { .. }));
            out.clear();
            if updated && let Some(&action) = r.game().unwrap().race().legal_actions(Seat(0)).first() {
                seq += 1;
                r.message(now, 1, ClientMsg::Act { seq, action, at_us: None }, &mut out);
            }
            r.message(now, 1, ClientMsg::Heartbeat { now_us: now, shown: None, acts: seq, dense: true }, &mut out);
            r.tick(now, &mut out);
        }
        assert_ne!(r.game().unwrap().race().phase(), Phase::Grab, "seed {seed}: the grab is still open");
    }
}

#[test]
fn b_4_7_a_klaxon_pick_that_hands_out_the_last_pawn_opens_the_echange_window_on_time() {
    // B-4.6 then B-4.7 in one action: the Klaxon pilots' picks leave one pawn, which goes by
    // itself, and the reservoirs and the Échange window open in the same update. The moment
    // open is the Échange window (the grab passed within the action): absent laptops' Échanges
    // are decided by their stand-ins after the time limit, and the championship ends.
    let mut both = 0;
    for seed in 0..24 {
        let mut config = RoomConfig::new("GARE", settings(0, 3), seed);
        config.settings.options.echange_drill = true;
        (config.countdown_ms, config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) =
            (100, 20, 50, 50);
        let mut r = Room::new(config, seed);
        let mut out = Vec::new();
        for conn in 1..=3 {
            r.hello(0, conn, hello(&format!("Pilot {conn}"), None), Steady, &mut out);
            r.message(0, conn, ClientMsg::Ready(true), &mut out);
        }
        let mut now = 0;
        while !r.is_finished() {
            let at = r.next_deadline().expect("a room that is not finished waits for something");
            assert!(at < now + 10_000_000, "seed {seed}: nothing happened for 10 s at {now} µs");
            now = now.max(at);
            r.tick(now, &mut out);
            both += out
                .iter()
                .filter(|o| match o {
                    Output::Send { conn: 1, msg: ServerMsg::Update { events, .. } }
                    | Output::SendAt { conn: 1, msg: ServerMsg::Update { events, .. }, .. } => {
                        events.iter().filter(|e| e.opens().is_some()).count() == 2
                    }
                    _ => false,
                })
                .count();
            out.clear();
        }
    }
    assert!(both > 0, "no Klaxon pick opened the Échange window: the case is not covered");
}

// ----- what a modified laptop can send (issue: a seated pilot's abuse) -----

/// The Klaxon calls as `conn` was told of them, in order.
fn klaxon_order(out: &[Output], conn: ConnId) -> Vec<Seat> {
    sent_to(out, conn)
        .into_iter()
        .flat_map(|m| match m {
            ServerMsg::Update { events, .. } => events.clone(),
            _ => Vec::new(),
        })
        .filter_map(|e| match e {
            Event::KlaxonCalled { seat, .. } => Some(seat),
            _ => None,
        })
        .collect()
}

/// The refusals `conn` was sent, in order.
fn refusals(out: &[Output], conn: ConnId) -> Vec<RuleError> {
    sent_to(out, conn)
        .into_iter()
        .filter_map(|m| match m {
            ServerMsg::ActRefused { error, .. } => Some(error.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn b_4_3_a_grab_with_times_no_clock_can_read_is_refused_and_the_room_goes_on() {
    // The grab that stopped the room: shown 0, input u64::MAX (an unchecked sum and an empty
    // tie group indexed), and its neighbours — each refused, none judged, and the honest
    // pilots' grab still ends.
    let absurd = [(0, u64::MAX), (1, u64::MAX - 1), (u64::MAX - 5, u64::MAX), (0, 1 << 63), (u64::MAX / 2, u64::MAX)];
    for (shown_us, input_us) in absurd {
        let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
        out.clear();
        r.message(
            reveal + 1_000,
            1,
            ClientMsg::Timed { seq: 1, action: Action::TakePawn { pawn: pawns[0] }, shown_us, input_us },
            &mut out,
        );
        assert_eq!(refusals(&out, 1), [RuleError::ImplausibleTiming], "({shown_us}, {input_us})");
        r.message(reveal + 210_000, 2, first_grab(reveal, pawns[0], 200_000), &mut out);
        r.message(reveal + 260_000, 3, first_grab(reveal, pawns[1], 250_000), &mut out);
        let bob = judged_once_the_grab_is_over(&mut r, reveal + 260_000, &mut out, Seat(1));
        assert!(bob.granted && bob.reaction_us == 200_000, "{bob:?}");
        assert!(out.iter().all(|o| !matches!(o, Output::Fair(f) if f.seat == Seat(0) && f.judged)));
    }
}

#[test]
fn b_4_3_a_seat_makes_a_few_requests_a_moment_then_is_refused_and_the_grab_goes_on() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    // Bob and Chloé beat as the grab goes on, not yet past 190 ms: Anne's request waits for them.
    for t in (10_000..=190_000).step_by(10_000) {
        for conn in [2, 3] {
            let acts = r.fair.acts_seen(conn);
            let beat = ClientMsg::Heartbeat { now_us: reveal + t, shown: Some(grab_shown(reveal)), acts, dense: true };
            r.message(reveal + t + 500, conn, beat, &mut out);
        }
    }
    // Anne floods the grab with requests, every one for the same pawn, far past what a hand
    // makes: the first few are taken, the rest refused before any work.
    for seq in 1..=100u32 {
        let grab = ClientMsg::Timed {
            seq,
            action: Action::TakePawn { pawn: pawns[0] },
            shown_us: reveal,
            input_us: reveal + 195_000,
        };
        r.message(reveal + 200_500 + u64::from(seq), 1, grab, &mut out);
    }
    let refused = refusals(&out, 1);
    let too_many = refused.iter().filter(|e| **e == RuleError::TooManyRequests).count();
    assert_eq!(too_many, 100 - bolide_table::MOMENT_REQUESTS, "{refused:?}");
    r.message(reveal + 210_000, 2, first_grab(reveal, pawns[1], 200_000), &mut out);
    r.message(reveal + 220_000, 3, first_grab(reveal, pawns[2], 210_000), &mut out);
    let bob = judged_once_the_grab_is_over(&mut r, reveal + 220_000, &mut out, Seat(1));
    assert!(bob.granted && bob.reaction_us == 200_000, "{bob:?}");
}

#[test]
fn b_4_3_a_pilot_whose_stand_in_played_is_waited_for_while_its_laptop_beats() {
    // Bob let his last grab's time pass: his stand-in took a pawn for him and plays his seat
    // until he acts again. His laptop is still there and shows this grab. Anne's request
    // arrives first; Bob's hand was 10 ms faster, but his path is slower. The host waits for
    // his laptop's beats, as for anyone's: the pawn goes to the faster hand.
    bob_s_laptop_is_waited_for(false);
}

#[test]
fn b_4_3_a_stand_in_s_grab_does_not_speak_for_the_laptop_still_at_the_seat() {
    // As above, but Bob's stand-in grabs for him (at its own pace) before his laptop's request
    // arrives. It says nothing of Bob's hand: Anne's grab still waits for his laptop's beats,
    // and the pawn goes to Bob's faster hand, not to Anne because a bot spoke for him.
    bob_s_laptop_is_waited_for(true);
}

/// Bob's stand-in plays his seat (`stand_in_grabs`: it asks for a pawn at 208 ms); his laptop
/// beats, then asks at 190 ms, after Anne's 200 ms request arrived.
fn bob_s_laptop_is_waited_for(stand_in_grabs: bool) {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    r.seats[1].zombie = true;
    r.message(reveal + 150_000, 3, first_grab(reveal, pawns[1], 140_000), &mut out);
    r.message(reveal + 205_000, 1, first_grab(reveal, pawns[0], 200_000), &mut out);
    r.tick(reveal + 205_000, &mut out);
    let beat = ClientMsg::Heartbeat { now_us: reveal + 185_000, shown: Some(grab_shown(reveal)), acts: 0, dense: true };
    r.message(reveal + 195_000, 2, beat, &mut out);
    if stand_in_grabs {
        r.hosted_request(reveal + 208_000, Seat(1), Action::TakePawn { pawn: pawns[2] }, &mut out);
    }
    r.tick(reveal + 212_000, &mut out);
    assert_eq!(r.game().unwrap().race().car(Seat(0)).pawn, None, "Anne's grab waits for Bob's laptop");
    r.message(reveal + 214_000, 2, first_grab(reveal, pawns[0], 190_000), &mut out);
    let bob = judged_once_the_grab_is_over(&mut r, reveal + 214_000, &mut out, Seat(1));
    assert!(bob.granted && bob.reaction_us == 190_000, "{bob:?}");
    assert_eq!(r.game().unwrap().race().car(Seat(1)).pawn, Some(pawns[0]));
    assert!(!r.seats[1].zombie, "acting took his seat back");
}

#[test]
fn b_4_3_each_request_of_a_seat_keeps_its_own_bounds_in_the_record() {
    // Bob's first request claims an input its arrival cannot allow (clamped); he asks again
    // for another pawn at once, honestly. Anne's hand was faster to the first. The record of
    // each of Bob's requests is its own.
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    r.message(reveal + 160_000, 1, first_grab(reveal, pawns[0], 150_000), &mut out);
    // Chloé's laptop has shown she is slower than Anne, not yet than Bob's bounded claim.
    let chloe = |elapsed_us| ClientMsg::Heartbeat {
        now_us: reveal + elapsed_us,
        shown: Some(grab_shown(reveal)),
        acts: 0,
        dense: true,
    };
    r.message(reveal + 290_000, 3, chloe(260_000), &mut out);
    r.message(reveal + 298_000, 2, first_grab(reveal, pawns[0], 100_000), &mut out);
    r.message(reveal + 300_000, 2, grab_number(2, reveal, pawns[1], 290_000), &mut out);
    r.message(reveal + 401_000, 3, chloe(400_000), &mut out);
    judged_once_the_grab_is_over(&mut r, reveal + 401_000, &mut out, Seat(1));
    let bob: Vec<FairRecord<Action>> = out
        .iter()
        .filter_map(|o| match o {
            Output::Fair(f) if f.seat == Seat(1) => Some(*f),
            _ => None,
        })
        .collect();
    let of = |seq| bob.iter().find(|f| f.seq == seq).unwrap_or_else(|| panic!("no record of {seq}: {bob:?}"));
    assert!(of(1).clamp.input_us > 0 && of(1).judged && !of(1).granted, "{bob:?}");
    assert!(of(2).clamp.total_us() == 0 && of(2).granted && of(2).timed, "{bob:?}");
}

#[test]
fn b_4_3_beats_with_absurd_times_bound_only_their_own_laptop() {
    // Anne's beats claim the end of time: her own later request is then no time at all.
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    for (now_us, acts) in [(u64::MAX, 0), (u64::MAX / 2, u32::MAX), (0, 0)] {
        let beat = ClientMsg::Heartbeat { now_us, shown: Some(grab_shown(0)), acts, dense: true };
        r.message(reveal + 5_000, 1, beat, &mut out);
    }
    r.message(reveal + 200_000, 1, first_grab(reveal, pawns[0], 190_000), &mut out);
    assert_eq!(refusals(&out, 1), [RuleError::ImplausibleTiming]);
    r.message(reveal + 210_000, 2, first_grab(reveal, pawns[0], 200_000), &mut out);
    r.message(reveal + 260_000, 3, first_grab(reveal, pawns[1], 250_000), &mut out);
    let bob = judged_once_the_grab_is_over(&mut r, reveal + 260_000, &mut out, Seat(1));
    assert!(bob.granted, "{bob:?}");
}

/// Anne's laptop goes quiet in the grab from its first beat; her hand moved at 240 ms and her
/// request arrives at 430 ms (her page paused between the press and the send), Bob's at
/// 250 ms arrived at once, Chloé vouched past both. Who gets the pawn, and what the host
/// judged of Anne's request if it judged it, when her lobby beats were `anne_beats`.
fn grab_after_a_pause(anne_beats: &[u64]) -> (Seat, Option<FairRecord<Action>>) {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab_after(room(0, 1), anne_beats);
    out.clear();
    let chloe =
        ClientMsg::Heartbeat { now_us: reveal + 300_000, shown: Some(grab_shown(reveal)), acts: 0, dense: true };
    r.message(reveal + 252_000, 2, first_grab(reveal, pawns[0], 250_000), &mut out);
    r.message(reveal + 301_000, 3, chloe, &mut out);
    // Ticks every 10 ms until Anne's request, as the room's driver would at its deadlines.
    for now in (reveal + 252_000..reveal + 430_000).step_by(10_000) {
        r.tick(now, &mut out);
    }
    r.message(reveal + 430_000, 1, first_grab(reveal, pawns[0], 240_000), &mut out);
    r.tick(reveal + 430_000, &mut out);
    let race = r.game().unwrap().race();
    let winner = [Seat(0), Seat(1)].into_iter().find(|s| race.car(*s).pawn == Some(pawns[0]));
    let anne = out.iter().find_map(|o| match o {
        Output::Fair(f) if f.seat == Seat(0) && f.judged => Some(*f),
        _ => None,
    });
    (winner.expect("the pawn was handed out"), anne)
}

#[test]
fn fairness_4_5_a_laptop_that_pauses_as_a_habit_is_waited_for_and_believed_that_much_longer() {
    // Anne's laptop in the lobby: a beat every 10 ms, twice 200 ms without one (a browser's
    // page on a busy machine does that), then steady again.
    let beats = |from: u64| (0..20).map(move |i| from + i * 10_000);
    let paused: Vec<u64> = beats(0).chain(beats(390_000)).chain(beats(780_000)).collect();
    let steady: Vec<u64> = beats(0).chain(beats(200_000)).chain(beats(400_000)).collect();
    let (winner, _) = grab_after_a_pause(&steady);
    assert_eq!(winner, Seat(1), "a laptop that never paused is cut off 250 ms into its silence");
    let (winner, anne) = grab_after_a_pause(&paused);
    assert_eq!(winner, Seat(0), "Anne's 430 ms silence is two of hers: her faster hand wins");
    let anne = anne.expect("Anne's request judged");
    assert_eq!(
        (anne.reaction_us, anne.clamp),
        (240_000, Clamp::default()),
        "her press 190 ms before its send, past a last copy's 165 ms: her own pauses are as long"
    );
}

#[test]
fn b_4_3_a_laptop_whose_beats_never_vouch_holds_a_grab_no_longer_than_a_silent_one() {
    // Bob beats every 10 ms, each beat counting an action the host never got: nothing he says
    // can rule out a request of his still on its way. The grab waits for him as long as for a
    // silent laptop — a cut-off after Anne's reaction — and no longer.
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    out.clear();
    r.message(reveal + 160_000, 1, first_grab(reveal, pawns[0], 150_000), &mut out);
    r.message(reveal + 210_000, 3, first_grab(reveal, pawns[1], 200_000), &mut out);
    let mut now = reveal + 160_000;
    while r.game().unwrap().race().car(Seat(0)).pawn.is_none() {
        now += 10_000;
        assert!(now < reveal + 2_000_000, "Anne's grab is still held 2 s after the reveal");
        let beat = ClientMsg::Heartbeat { now_us: now, shown: Some(grab_shown(reveal)), acts: 7, dense: true };
        r.message(now, 2, beat, &mut out);
        r.message(
            now,
            3,
            ClientMsg::Heartbeat { now_us: now, shown: Some(grab_shown(reveal)), acts: 1, dense: true },
            &mut out,
        );
        r.tick(now, &mut out);
    }
    let bound = reveal + 150_000 + TIE_US + SILENCE_US + r.slowest_pilot_path();
    assert!(
        now <= bound + 10_000,
        "committed at +{} ms, bound +{} ms",
        (now - reveal) / 1_000,
        (bound - reveal) / 1_000
    );
    assert_eq!(r.fair.stalls(Seat(1)), 1);
}

#[test]
fn b_4_3_a_seat_that_stalls_a_second_moment_is_played_by_its_stand_in() {
    // Four laptops; Bob stalls every grab. The second time, his stand-in takes a pawn for him
    // at once instead of at his 8 s time limit.
    let mut config = RoomConfig::new("GARE", settings(0, 1), 42);
    config.countdown_ms = 100;
    config.bot_delay_ms = 20;
    config.moment_timeout_ms = 8_000;
    let mut r = Room::new(config, 7);
    let mut out = Vec::new();
    for (conn, name) in [(1, "Anne"), (2, "Bob"), (3, "Chloé"), (4, "Dan")] {
        r.hello(0, conn, hello(name, None), Steady, &mut out);
        for i in 0..20 {
            let t = i * 10_000;
            r.probe(conn, crate::fair::Sample::from_probe(t, t + 1_000, t + 1_000, t + 2_000));
        }
    }
    for conn in 1..=4 {
        r.message(0, conn, ClientMsg::Ready(true), &mut out);
    }
    let in_grab = |r: &Room| r.game().is_some_and(|c| c.race().phase() == Phase::Grab);
    let mut now = 0;
    let mut seq = [0u32; 5];
    for grab in 1..=2 {
        run(&mut r, now, now + 60_000_000, &mut out, in_grab);
        r.seats[1].zombie = false;
        let (id, reveal) = r.fair.open_moment().unwrap();
        let shown = wire::Shown { moment: id, at_us: reveal };
        // Anne asks for a pawn; Chloé and Dan take what is left once she has hers.
        let pawns = pawns_to_take(&r, Seat(0));
        seq[1] += 1;
        let anne = ClientMsg::Timed {
            seq: seq[1],
            action: Action::TakePawn { pawn: pawns[0] },
            shown_us: reveal,
            input_us: reveal + 150_000,
        };
        r.message(reveal + 160_000, 1, anne, &mut out);
        now = reveal + 160_000;
        while in_grab(&r) && now < reveal + 7_000_000 {
            now += 10_000;
            for conn in [1, 3, 4] {
                let acts = r.fair.acts_seen(conn);
                r.message(
                    now,
                    conn,
                    ClientMsg::Heartbeat { now_us: now, shown: Some(shown), acts, dense: true },
                    &mut out,
                );
            }
            r.message(
                now,
                2,
                ClientMsg::Heartbeat { now_us: now, shown: Some(shown), acts: 1_000, dense: true },
                &mut out,
            );
            // Chloé and Dan take what is left once Anne has hers.
            if r.game().unwrap().race().car(Seat(0)).pawn.is_some() {
                for (conn, seat) in [(3, Seat(2)), (4, Seat(3))] {
                    let free = pawns_to_take(&r, seat).first().copied();
                    if let (Some(pawn), None) = (free, r.game().unwrap().race().car(seat).pawn) {
                        seq[conn as usize] += 1;
                        let s = seq[conn as usize];
                        let msg = ClientMsg::Timed {
                            seq: s,
                            action: Action::TakePawn { pawn },
                            shown_us: reveal,
                            input_us: now - 5_000,
                        };
                        r.message(now, conn, msg, &mut out);
                    }
                }
            }
            r.tick(now, &mut out);
        }
        assert!(!in_grab(&r), "grab {grab} still open 7 s after its reveal");
        assert_eq!(r.fair.stalls(Seat(1)), grab, "grab {grab}");
        if grab == 2 {
            assert!(r.seats[1].zombie, "after a second stall Bob's stand-in plays for him");
        }
        // Through the rest of the round by time limits; Bob back in person for the next grab.
        let next_round = |r: &Room| r.game().is_some_and(|c| c.race().phase() == Phase::CupDown);
        now = run(&mut r, now, now + 600_000_000, &mut out, next_round);
        r.seats[1].zombie = false;
    }
}

#[test]
fn b_4_6_beats_that_never_pass_the_lift_do_not_hold_the_cup_down() {
    // Bob's beats under the cup keep saying a time before the lift: the cup lifts at most a
    // cut-off after its instant all the same.
    let (mut r, mut out, _, _) = three_laptops_at_the_grab();
    let cup_down = |r: &Room| r.game().is_some_and(|c| c.race().phase() == Phase::CupDown);
    let mut now = run(&mut r, 0, 600_000_000, &mut out, cup_down);
    let lift = r.fair.countdown_end().expect("the cup is down");
    let told = r.fair.countdown_end_for(2).expect("Bob's countdown");
    while cup_down(&r) {
        now += 10_000;
        assert!(now < lift + 5_000_000, "the cup is still down 5 s after its lift");
        r.message(now, 2, ClientMsg::Heartbeat { now_us: told - 1, shown: None, acts: 0, dense: true }, &mut out);
        r.tick(now, &mut out);
    }
    assert!(now <= lift + SILENCE_US + r.slowest_pilot_path() + 10_000, "lifted {} ms late", (now - lift) / 1_000);
}

#[test]
fn b_4_6_a_klaxon_call_is_no_earlier_than_its_arrival_allows() {
    // Bob's laptop stamps its call at the cup's first instant but sends it just before the
    // lift: it is taken as made no earlier than its arrival allows, after Anne's honest call.
    // A call that arrives well after the lift is a call after the lift (B-4.6 ruling).
    let (mut r, mut out, _, _) = three_laptops_at_the_grab();
    let cup_down = |r: &Room| r.game().is_some_and(|c| c.race().phase() == Phase::CupDown);
    run(&mut r, 0, 600_000_000, &mut out, cup_down);
    let lift = r.fair.countdown_end().expect("the cup is down");
    let (anne, bob, chloe) = (
        r.fair.countdown_end_for(1).unwrap(),
        r.fair.countdown_end_for(2).unwrap(),
        r.fair.countdown_end_for(3).unwrap(),
    );
    out.clear();
    let call = |seq, at_us| ClientMsg::Act { seq, action: Action::Klaxon, at_us: Some(at_us) };
    r.message(lift - 60_000, 1, call(11, anne - 61_000), &mut out);
    r.message(lift - 2_000, 2, call(11, bob - 1_000_000), &mut out);
    r.message(lift + 500_000, 3, call(11, chloe - 500_000), &mut out);
    assert_eq!(refusals(&out, 3), [RuleError::KlaxonTooLate], "Chloé's call came half a second after the lift");
    run(&mut r, lift, lift + 10_000_000, &mut out, |r| r.fair.countdown_end().is_none());
    let order = klaxon_order(&out, 1);
    assert_eq!(order, vec![Seat(0), Seat(1)], "Anne first: Bob's stamp is bounded by its arrival");
}

/// The pawn a grab asked for.
fn pawn_of(record: &FairRecord<Action>) -> Option<Pawn> {
    match record.action {
        Action::TakePawn { pawn } => Some(pawn),
        _ => None,
    }
}

/// The lobby's network check (issue: a lobby that checks the network): once the host has
/// probed a laptop, the lobby says what its path is — and says it again only when it changed.
#[test]
fn the_lobby_shows_each_laptop_s_path_as_the_host_measured_it() {
    let mut r = room(3, 1);
    let mut out = Vec::new();
    r.hello(0, 1, hello("Anne", None), Steady, &mut out);
    let path = |out: &[Output]| {
        out.iter().rev().find_map(|o| match o {
            Output::Send { conn: 1, msg: ServerMsg::Lobby(l) } => Some(l.seats[0].path),
            _ => None,
        })
    };
    assert_eq!(path(&out), Some(None), "no probe yet: nothing measured");
    // Probes of a 3 ms path (round trip 6 ms), with 1 ms of spread.
    for i in 0..20u64 {
        let t = 100_000 + i * 50_000;
        r.probe(1, crate::fair::Sample::from_probe(t, t + 3_000 + i % 2 * 1_000, t + 3_000 + i % 2 * 1_000, t + 6_000));
    }
    out.clear();
    let at = r.next_deadline().expect("the lobby looks at the paths");
    r.tick(at, &mut out);
    let measured = path(&out).flatten().expect("the lobby names the path once measured");
    assert!((3..=6).contains(&measured.delay_ms), "{measured:?}");
    assert_eq!(measured.verdict(), wire::PathVerdict::Good);
    out.clear();
    let at = r.next_deadline().unwrap();
    r.tick(at, &mut out);
    assert_eq!(path(&out), None, "nothing changed: no new lobby");
}

/// Watching from the join list (issue: a game night people remember — spectators from the
/// window): a laptop that asks to watch is a spectator even while seats are free, and the
/// seats stay free for the pilots.
#[test]
fn a_laptop_that_asks_to_watch_takes_no_seat() {
    let mut r = room(0, 1);
    let mut out = Vec::new();
    r.hello(0, 1, Hello { watch: true, ..hello("Grand-mère", None) }, Steady, &mut out);
    assert!(matches!(sent_to(&out, 1)[0], ServerMsg::Welcome { seat: None, token: None, .. }));
    r.hello(0, 2, hello("Anne", None), Steady, &mut out);
    assert!(matches!(sent_to(&out, 2)[0], ServerMsg::Welcome { seat: Some(Seat(0)), .. }), "the first seat is Anne's");
    let lobby = sent_to(&out, 1).into_iter().rev().find_map(|m| match m {
        ServerMsg::Lobby(l) => Some(l.clone()),
        _ => None,
    });
    let lobby = lobby.expect("the watcher sees the lobby");
    assert_eq!((lobby.you, lobby.spectators, lobby.seats.len()), (None, 1, 1));
}

/// The lobby's first pilot picks the game: only they, only in the lobby; the room asks the
/// network layer to switch, and the lobby of the other game keeps everyone's seat — name,
/// colour, token — for a while, then frees the seats nobody came back to.
#[test]
fn the_first_pilot_picks_the_game_and_the_seats_go_with_it() {
    let (mut r, mut out) = anne_joins(0, 1);
    r.hello(0, 2, hello("Bob", None), Steady, &mut out);
    r.message(0, 1, ClientMsg::PickColour(Colour::ALL[4]), &mut out);
    let (anne, bob) = (token_of(&out, 1), token_of(&out, 2));
    let before = out.len();
    r.message(0, 2, ClientMsg::ChooseGame("mille-bornes".into()), &mut out);
    assert!(matches!(sent_to(&out[before..], 2)[..], [ServerMsg::LobbyRefused { .. }]), "only the first pilot");
    r.message(0, 1, ClientMsg::ChooseGame("bolide".into()), &mut out);
    assert!(!out[before..].iter().any(|o| matches!(o, Output::SwitchGame { .. })), "the game it plays already");
    r.message(0, 1, ClientMsg::ChooseGame("mille-bornes".into()), &mut out);
    assert!(matches!(out.last(), Some(Output::SwitchGame { conn: 1, game }) if game == "mille-bornes"));
    let carried = r.carried();
    assert_eq!(carried.iter().map(|c| (c.name.as_str(), c.token)).collect::<Vec<_>>(), [("Anne", anne), ("Bob", bob)]);
    assert_eq!(carried[0].colour, Colour::ALL[4]);

    // The other game's lobby (here Bolide's again, as the seam is the same for any game).
    let mut next = RoomOf::<bolide::game::Championship>::with_seats(r.config.clone(), 8, carried, 1_000);
    let mut out = Vec::new();
    next.hello(1_000, 3, hello("Anne", Some(anne)), Steady, &mut out);
    let lobby = sent_to(&out, 3).into_iter().find_map(|m| match m {
        ServerMsg::Lobby(l) => Some(l.clone()),
        _ => None,
    });
    let lobby = lobby.expect("Anne back in the lobby");
    assert_eq!(lobby.you, Some(Seat(0)), "her seat");
    assert_eq!((lobby.seats[0].name.as_str(), lobby.seats[0].colour), ("Anne", Colour::ALL[4]));
    assert!(!lobby.seats[1].connected, "Bob's seat waits for him");
    // Bob never comes back: his seat is freed once the carry is over, Anne keeps hers.
    let now = run(&mut next, 1_000, CARRY_US + 2_000_000, &mut out, |r| r.seats_taken().0 == 1);
    assert!(now >= 1_000 + CARRY_US, "Bob's seat waited {CARRY_US} µs");
    assert_eq!(next.carried().len(), 1);
}

/// Where the update that reveals the first grab left for `conn`, and the instant it says to
/// show it on that laptop's clock.
fn reveal_sent_to(out: &[Output], conn: ConnId) -> Option<(u64, Option<u64>)> {
    out.iter().find_map(|o| match o {
        Output::SendAt { conn: c, at, msg: ServerMsg::Update { events, show_at_us, .. } }
            if *c == conn && events.iter().any(|e| matches!(e, Event::ReservoirsRevealed { .. })) =>
        {
            Some((*at, *show_at_us))
        }
        _ => None,
    })
}

#[test]
fn fairness_2_a_reveal_leads_every_pilot_by_its_floor_and_no_path_estimate_buys_more() {
    // Three pilots on the same 1 ms path. Anne answers every clock probe at once; Bob holds
    // one answer in ten back by 56 ms (his jitter, and so his claims' bound, widen by 28 ms);
    // Chloé holds every answer back by 40 ms and stamps them 20 ms late, so her clock looks
    // right and her path 20 ms longer — but QUIC, timing its own packets, measured 2 ms. Dora
    // watches.
    let mut r = room(0, 1);
    let mut out = Vec::new();
    for (conn, name) in [(1, "Anne"), (2, "Bob"), (3, "Chloé")] {
        r.hello(0, conn, hello(name, None), Steady, &mut out);
    }
    r.hello(0, 4, Hello { watch: true, ..hello("Dora", None) }, Steady, &mut out);
    for i in 0..40u64 {
        let t = i * 10_000;
        let honest = crate::fair::Sample::from_probe(t, t + 1_000, t + 1_000, t + 2_000);
        let held =
            if i % 10 == 3 { crate::fair::Sample::from_probe(t, t + 1_000, t + 1_000, t + 58_000) } else { honest };
        let late = crate::fair::Sample::from_probe(t, t + 21_000, t + 21_000, t + 42_000);
        for (conn, sample) in [(1, honest), (2, held), (3, late), (4, honest)] {
            r.probe(conn, sample.with_transport_min_rtt(2_000));
        }
    }
    assert!(r.fair.owd_max(2) >= 25_000, "Bob's jitter widened his bound: {}", r.fair.owd_max(2));
    assert!(r.fair.owd_max(3) >= 20_000, "Chloé's probes put her 20 ms away: {}", r.fair.owd_max(3));
    for conn in 1..=3 {
        r.message(0, conn, ClientMsg::Ready(true), &mut out);
    }
    out.clear();
    let now = run(&mut r, 0, 60_000_000, &mut out, |r| r.game().is_some_and(|c| c.race().phase() == Phase::Grab));
    let opens = r.fair.open_moment().expect("the grab is open").1;
    let lead = 1_000 + REVEAL_MARGIN_US;
    for conn in 1..=3 {
        let (at, show_at) = reveal_sent_to(&out, conn).expect("the reveal leaves for every pilot");
        assert_eq!(at, opens - lead, "conn {conn}: the same lead over the same floor");
        assert_eq!(show_at, Some(opens), "conn {conn}: shown at the instant (its clock is the host's)");
    }
    let (at, _) = reveal_sent_to(&out, 4).expect("the watcher sees the grab");
    assert_eq!(at, opens, "a spectator is sent the reveal when it opens, never before");
    assert!(opens >= now + 10_000, "the moment opens far enough ahead");
}

#[test]
fn fairness_2_a_screen_that_draws_a_refresh_ahead_gets_the_reveal_that_much_earlier_and_no_more() {
    // Anne plays in a browser's page (its frame goes up a refresh after its pass), Bob says
    // his screen draws a second ahead (a liar), Chloé's window shows a frame as it is drawn;
    // Dora watches from a page. One 1 ms path for all.
    let mut r = room(0, 1);
    let mut out = Vec::new();
    for (conn, name, frame_lead_us) in [(1, "Anne", 16_667), (2, "Bob", 1_000_000), (3, "Chloé", 0)] {
        r.hello(0, conn, Hello { frame_lead_us, ..hello(name, None) }, Steady, &mut out);
    }
    r.hello(0, 4, Hello { watch: true, frame_lead_us: 16_667, ..hello("Dora", None) }, Steady, &mut out);
    for i in 0..40u64 {
        let t = i * 10_000;
        for conn in 1..=4 {
            r.probe(
                conn,
                crate::fair::Sample::from_probe(t, t + 1_000, t + 1_000, t + 2_000).with_transport_min_rtt(2_000),
            );
        }
    }
    for conn in 1..=3 {
        r.message(0, conn, ClientMsg::Ready(true), &mut out);
    }
    out.clear();
    let now = run(&mut r, 0, 60_000_000, &mut out, |r| r.game().is_some_and(|c| c.race().phase() == Phase::Grab));
    let opens = r.fair.open_moment().expect("the grab is open").1;
    let most = u64::from(bolide_table::wire::MAX_FRAME_LEAD_US);
    for (conn, frame) in [(1, 16_667), (2, most), (3, 0)] {
        let (at, show_at) = reveal_sent_to(&out, conn).expect("the reveal leaves for every pilot");
        assert_eq!(at, opens - (1_000 + REVEAL_MARGIN_US + frame), "conn {conn}: its floor, the margin, its frame");
        assert_eq!(show_at, Some(opens), "conn {conn}: shown at the one instant");
    }
    let (at, _) = reveal_sent_to(&out, 4).expect("the watcher sees the grab");
    assert_eq!(at, opens, "a spectator is sent the reveal when it opens, whatever its screen");
    assert!(opens >= now + 1_000 + REVEAL_MARGIN_US + most, "the moment opens far enough ahead for the page");
}

#[test]
fn fairness_5_a_moment_shown_before_its_update_could_arrive_is_refused() {
    let (mut r, mut out, reveal, pawns) = three_laptops_at_the_grab();
    let sent = reveal - 1_000 - REVEAL_MARGIN_US;
    out.clear();
    // Anne says she saw the reservoirs 40 ms before they left the host: no screen can have.
    let early = ClientMsg::Timed {
        seq: 1,
        action: Action::TakePawn { pawn: pawns[0] },
        shown_us: sent - 40_000,
        input_us: reveal + 200_000,
    };
    r.message(reveal + 201_000, 1, early, &mut out);
    assert_eq!(refusals(&out, 1), [RuleError::ImplausibleTiming]);
    // Bob showed them as they arrived, before the instant: believed.
    let arrived = ClientMsg::Timed {
        seq: 1,
        action: Action::TakePawn { pawn: pawns[0] },
        shown_us: sent + 1_000,
        input_us: reveal + 220_000,
    };
    r.message(reveal + 221_000, 2, arrived, &mut out);
    assert!(refusals(&out, 2).is_empty());
}
