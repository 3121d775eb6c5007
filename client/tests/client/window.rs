//! The window, driven headless by its accessible labels (egui_kittest): every screen, fed by a
//! detached link whose commands the tests read. No network, no display.

use bolide::ServerMsg;
use bolide::event::{Contest, PhotoFinish};
use bolide::options::Settings;
use bolide::sim;
use bolide::view::{PhaseView, TurnStep, TurnView};
use bolide::{Action, Atout, BotLevel, Colour, Event, Pawn, PlayerView, Seat, TableOptions, Timed};
use bolide_client::embed::HostAsk;
use bolide_client::live::{Command, Link, Live};
use bolide_client::platform::discovery::{Discovery, FoundHost};
use bolide_client::platform::prefs::Prefs;
use bolide_client::ui::start::Intent;
use bolide_client::ui::{BolideApp, HostInfo};
use bolide_table::wire::{LobbySeat, Shown, StandingLine};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tokio::sync::mpsc::UnboundedReceiver;

fn found() -> FoundHost {
    FoundHost {
        name: "Anne's table".into(),
        addr: "192.168.1.20:47117".parse().unwrap(),
        seats: "2/6".into(),
        version: bolide_table::wire::PROTOCOL_VERSION.to_string(),
        game: "bolide".into(),
        instance: "bolide-7f3k0q._bolide._udp.local.".into(),
    }
}

fn app() -> BolideApp {
    let prefs = Prefs { name: "Anne".into(), ..Prefs::default() };
    BolideApp::with(prefs, None, Some(Discovery::fixed(vec![found()]))).unwrap().dry_run()
}

fn harness(app: BolideApp) -> Harness<'static, BolideApp> {
    Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app)
}

/// A table seated at seat 0 of a three-pilot lobby (Anne, Bob, and a bot once started).
fn seated(started: bool) -> (BolideApp, Live, UnboundedReceiver<Command>) {
    seated_with_bots(started, 1)
}

/// A table seated at seat 0: Anne, Bob, and `bots` bots once started.
fn seated_with_bots(started: bool, bots: u8) -> (BolideApp, Live, UnboundedReceiver<Command>) {
    let (live, commands) = Live::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    {
        live.set_link(Link::Connected);
        let mut state = live.state();
        state.welcome(Some(Seat(0)), None, bolide_table::wire::BeatSchedule::Steady);
        let t = &mut state.mirror;
        let seat = |i: u8, name: &str, colour, bot| LobbySeat {
            seat: Seat(i),
            name: name.into(),
            colour,
            bot,
            ready: started || bot,
            connected: !bot,
            // Bob's Wi-Fi went quiet twice in the last minute (the lobby's network check).
            path: (i == 1).then_some(bolide_table::wire::PathCheck {
                delay_ms: 4,
                jitter_ms: 2,
                silences: 2,
                longest_silence_ms: 120,
            }),
        };
        let mut seats = vec![seat(0, "Anne", Colour::Rouge, false), seat(1, "Bob", Colour::Bleu, false)];
        if started {
            for b in 1..=bots {
                seats.push(seat(1 + b, &format!("Bot {b}"), Colour::ALL[usize::from(1 + b)], true));
            }
        }
        let settings = Settings {
            options: TableOptions::default(),
            circuit: "cannes".into(),
            bots,
            bot_level: Default::default(),
        };
        t.lobby = Some(lobby_of(seats, settings, started, None));
    }
    let mut app = app();
    app.sit(live.clone(), None);
    (app, live, commands)
}

/// A lobby of any game with these seats and settings, no spectator, the seed sealed.
fn lobby_of<W: bolide_table::Words>(
    seats: Vec<LobbySeat>,
    settings: W::Lobby,
    started: bool,
    you: Option<Seat>,
) -> bolide_table::wire::LobbyStateOf<W> {
    bolide_table::wire::LobbyStateOf {
        seats,
        you,
        settings,
        spectators: 0,
        started,
        dice: Default::default(),
        reveal: None,
        luck: None,
    }
}

/// A real view of a three-pilot race, from seat 0.
fn view() -> PlayerView {
    sim::random_race(3, 7).view_for(Seat(0))
}

fn set_view(live: &Live, view: PlayerView, legal: Vec<Action>) {
    let mut state = live.state();
    state.mirror.view = Some(view);
    state.mirror.legal = legal;
}

/// Focuses the text field labelled `label` and types `text` into it.
fn type_into(h: &mut Harness<'static, BolideApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

fn drain<C>(commands: &mut UnboundedReceiver<C>) -> Vec<C> {
    std::iter::from_fn(|| commands.try_recv().ok()).collect()
}

#[test]
fn start_screen_offers_host_join_and_practice() {
    let mut h = harness(app());
    h.run();
    h.get_by_label("Host a game").click();
    h.run();
    assert!(matches!(h.state().last_intent, Some(Intent::Host(HostAsk { bots: 2, races: Some(3), .. }))));
    h.get_by_label("Practice").click();
    h.run();
    assert!(matches!(h.state().last_intent, Some(Intent::Practice(_))));
}

#[test]
fn join_lists_hosts_found_on_the_network_and_joins_with_the_code_on_the_host_s_screen() {
    let older = FoundHost { name: "Bob's table".into(), version: "1".into(), ..found() };
    let cards = FoundHost {
        name: "Chloé's table".into(),
        addr: "192.168.1.30:47117".parse().unwrap(),
        instance: "bolide-cards._bolide._udp.local.".into(),
        game: "mille-bornes".into(),
        ..found()
    };
    let prefs = Prefs { name: "Anne".into(), ..Prefs::default() };
    let hosts = vec![found(), older, cards];
    let app = BolideApp::with(prefs, None, Some(Discovery::fixed(hosts))).unwrap().dry_run();
    let mut h = harness(app);
    h.run();
    let version = bolide_table::wire::PROTOCOL_VERSION;
    // The advert says which game a table plays.
    assert!(h.query_by_label(&format!("Chloé's table — 2/6 seats · v{version} · 1000 Bornes")).is_some());
    assert!(
        h.query_by_label(&format!("Bob's table — 2/6 seats · v1, this laptop runs v{version}: update one of them"))
            .is_some()
    );
    h.get_by_label(&format!("Anne's table — 2/6 seats · v{version}")).click();
    h.run();
    // The whole code, typed from the host's screen: the advert's fingerprint is never used.
    type_into(&mut h, "Room code on the host's screen", SCREEN_CODE);
    h.run();
    h.get_by_label("Join this table").click();
    h.run();
    let bolide = || "bolide".to_string();
    let expected = Intent::Join { addr: found().addr, code: SCREEN_CODE.into(), watch: false, game: bolide() };
    assert_eq!(h.state().last_intent, Some(expected));
    // Or to watch it: a spectator, even while seats are free.
    h.get_by_label("Watch this table").click();
    h.run();
    let watching = Intent::Join { addr: found().addr, code: SCREEN_CODE.into(), watch: true, game: bolide() };
    assert_eq!(h.state().last_intent, Some(watching));
    let prefs = h.state().prefs();
    assert_eq!((prefs.last_address.as_str(), prefs.last_code.as_str()), ("192.168.1.20:47117", SCREEN_CODE));
}

/// The room code Anne's screen shows (its fingerprint is not the advert's).
const SCREEN_CODE: &str = "garage-7F3K-0Q9M-2XWB-HC4T";

#[test]
fn two_tables_with_one_name_are_told_apart_by_their_address_and_flagged() {
    let twin = FoundHost {
        addr: "192.168.1.66:47117".parse().unwrap(),
        instance: "bolide-evil._bolide._udp.local.".into(),
        ..found()
    };
    let prefs = Prefs { name: "Anne".into(), ..Prefs::default() };
    let app = BolideApp::with(prefs, None, Some(Discovery::fixed(vec![found(), twin]))).unwrap().dry_run();
    let mut h = harness(app);
    h.run();
    let version = bolide_table::wire::PROTOCOL_VERSION;
    assert!(h.query_by_label(&format!("Anne's table at 192.168.1.20:47117 — 2/6 seats · v{version}")).is_some());
    assert!(h.query_by_label(&format!("Anne's table at 192.168.1.66:47117 — 2/6 seats · v{version}")).is_some());
    assert!(h.query_by_label_contains("More than one table calls itself «Anne's table»").is_some());
}

#[test]
fn join_by_hand_checks_the_address() {
    let mut h = harness(app());
    h.run();
    type_into(&mut h, "Address", "not an address");
    type_into(&mut h, "Room code", "GARAGE-7F3K-0Q9M-2XWB-HC4T");
    h.get_by_label("Join").click();
    h.run();
    assert_eq!(h.state().last_intent, None);
    assert!(h.query_by_label_contains("is not an address").is_some());
}

#[test]
fn hosting_shows_the_room_code_large_with_the_addresses_to_join_and_a_qr_code_for_phones() {
    let (mut app, live, _commands) = seated(false);
    let addresses = vec!["192.168.1.20:47117".parse().unwrap(), "[fe80::1]:47117".parse().unwrap()];
    let web = vec!["192.168.1.20:47118".parse().unwrap()];
    app.sit(live, Some(HostInfo { code: "GARAGE-7F3K-0Q9M-2XWB-HC4T".into(), addresses, web, door: None }));
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label("Room code — tell it to everyone at the table").is_some());
    // In the banner, and large under the heading.
    assert_eq!(h.query_all_by_label("GARAGE-7F3K-0Q9M-2XWB-HC4T").count(), 2);
    // Phones: the browser door's address with the word in its fragment, and its QR code; a
    // click shows the code large.
    let join = "Join at 192.168.1.20:47117  or  [fe80::1]:47117   ·   From a phone or any browser: http://192.168.1.20:47118/#GARAGE";
    assert!(h.query_by_label(join).is_some());
    let url = "http://192.168.1.20:47118/#GARAGE";
    h.get_by_role_and_label(egui::accesskit::Role::Image, url).click();
    h.run();
    assert!(h.query_by_label("Join from a phone").is_some(), "the large code's window");
    assert_eq!(h.query_all_by_role_and_label(egui::accesskit::Role::Image, url).count(), 2);
}

#[test]
fn lobby_shows_seats_and_the_first_pilot_sets_the_championship() {
    let (app, live, mut commands) = seated(false);
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label_contains("Bob").is_some());
    // The lobby's network check: Bob's Wi-Fi went quiet twice; Anne's is not measured yet.
    assert!(h.query_by_label_contains("Wi-Fi drops (2 in a minute, up to 120 ms)").is_some());
    assert!(h.query_by_label("network: measuring…").is_some());
    h.get_by_label("Put your hand flat on the table (ready)").click();
    h.run();
    h.get_by_label("Vert").click();
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.contains(&Command::Ready(true)), "{sent:?}");
    assert!(sent.contains(&Command::PickColour(Colour::Vert)), "{sent:?}");
    // The settings change live: the first pilot's change goes to the host.
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Races (B-7.1, default 3)").focus();
    h.key_press(egui::Key::ArrowRight);
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, Command::Configure(s) if s.options.races == 4)), "{sent:?}");
    // A circuit from a file on this laptop goes to the host as its tiles.
    let file = std::env::temp_dir().join(format!("bolide-window-circuit-{}.txt", std::process::id()));
    let tiles = bolide::circuits::preset("monaco").unwrap().to_string();
    std::fs::write(&file, &tiles).unwrap();
    h.get_by_label("Circuit").click();
    h.run();
    h.get_by_label("from a file on this laptop").click();
    h.run();
    type_into(&mut h, "file", &file.display().to_string());
    h.get_by_label("Load").click();
    h.run();
    let _ = std::fs::remove_file(&file);
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, Command::Configure(s) if s.circuit == tiles)), "{sent:?}");
    // And how well the bots play.
    h.get_by_label("for fun").click();
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, Command::Configure(s) if s.bot_level == BotLevel::Random)), "{sent:?}");
    // Or another game at this table: every window follows, each to its own seat.
    h.get_by_label("Play 1000 Bornes at this table instead").click();
    h.run();
    assert!(drain(&mut commands).contains(&Command::ChooseGame("mille-bornes".into())));
    drop(live);
}

#[test]
fn a_pilot_leaving_the_lobby_leaves_every_other_window_its_own_seat() {
    // A real room: Anne, Bob and Chloé join, then Anne leaves. The host moves Bob and Chloé
    // up; each laptop's core is fed what the host sent it, and their windows follow.
    use bolide::ClientMsg;
    use bolide_host::games::bolide::{Output, Room, RoomConfig};
    use bolide_table::wire::{BeatSchedule, Hello};
    let settings =
        Settings { options: TableOptions::default(), circuit: "cannes".into(), bots: 0, bot_level: Default::default() };
    let mut room = Room::new(RoomConfig::new("GARE", settings, 1), 1);
    let laptops: Vec<(Live, UnboundedReceiver<Command>)> = (0..3).map(|_| Live::detached("GARE")).collect();
    let mut out = Vec::new();
    let feed = |out: &mut Vec<Output>| {
        for o in out.drain(..) {
            if let Output::Send { conn, msg } = o {
                let mut state = laptops[conn as usize - 1].0.state();
                if let ServerMsg::Welcome { seat, token, beats, .. } = &msg {
                    state.welcome(*seat, *token, *beats);
                }
                state.on_message(msg, 0).expect("a sound message");
            }
        }
    };
    for (conn, name) in [(1, "Anne"), (2, "Bob"), (3, "Chloé")] {
        let hello = Hello::new("gare", name);
        room.hello(0, conn, hello, BeatSchedule::Steady, &mut out);
        feed(&mut out);
    }
    room.message(0, 1, ClientMsg::Leave, &mut out);
    feed(&mut out);
    let window = |i: usize| {
        let live = laptops[i].0.clone();
        live.set_link(Link::Connected);
        let mut app = app();
        app.sit(live, None);
        let mut h = harness(app);
        h.run();
        h
    };
    let bob = window(1);
    assert!(bob.query_by_label_contains("Bob (you)").is_some(), "Bob's window shows his own seat");
    assert!(bob.query_by_label("The first pilot sets the championship; it changes here live.").is_none());
    let chloe = window(2);
    assert!(chloe.query_by_label_contains("Chloé (you)").is_some(), "Chloé's window shows her own seat");
    assert!(chloe.query_by_label_contains("Bob (you)").is_none());
    assert!(chloe.query_by_label("The first pilot sets the championship; it changes here live.").is_some());
}

#[test]
fn a_window_given_a_seat_past_the_table_says_so_instead_of_panicking() {
    let (app, live, _commands) = seated(true);
    set_view(&live, view(), vec![]);
    live.state().mirror.seat = Some(Seat(5));
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label_contains("seat 6 of a table of 3").is_some());
}

#[test]
fn cup_down_calls_klaxon_by_button_and_key() {
    let (app, live, mut commands) = seated(true);
    let mut v = view();
    v.phase = PhaseView::CupDown;
    set_view(&live, v, vec![Action::Klaxon]);
    let mut h = harness(app);
    h.run_steps(2);
    assert!(h.query_by_label("The cup is down").is_some());
    h.get_by_label("Klaxon (K)").click();
    h.run_steps(2);
    h.key_press(egui::Key::K);
    h.run_steps(2);
    let klaxons =
        drain(&mut commands).iter().filter(|c| matches!(c, Command::Act { action: Action::Klaxon, .. })).count();
    assert_eq!(klaxons, 2);
}

/// `v` at its grab, shown from now on: the pawns' reservoirs from `lowest` up, none taken,
/// and this seat may take any of them (the host's legal list).
fn grab_shown(live: &Live, mut v: PlayerView, lowest: u8) -> PlayerView {
    v.phase = PhaseView::Grab;
    for (i, p) in v.pawns.iter_mut().enumerate() {
        p.reservoir = Some(i as u8 + lowest);
        p.owner = None;
    }
    for c in &mut v.cars {
        c.pawn = None;
    }
    live.state().mirror.scheduled = Some(Shown { moment: Timed::Grab.name(v.race, v.round), at_us: 0 });
    set_view(live, v.clone(), v.pawns.iter().map(|p| Action::TakePawn { pawn: p.pawn }).collect());
    v
}

#[test]
fn the_grab_shows_pawns_takes_one_and_gives_the_verdict() {
    let (app, live, mut commands) = seated(true);
    let mut v = grab_shown(&live, view(), 3);
    let pawns: Vec<Pawn> = v.pawns.iter().map(|p| p.pawn).collect();
    let mut h = harness(app);
    h.run_steps(2);
    let first = pawns[0];
    h.get_by_label_contains(&format!("Pawn {} · 3", first.0 + 1)).click();
    h.run_steps(2);
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, Command::Shown { .. })), "the drawn frame is reported: {sent:?}");
    assert!(
        sent.iter().any(|c| matches!(c, Command::Timed { action: Action::TakePawn { pawn }, .. } if *pawn == first)),
        "{sent:?}"
    );
    // Bob was faster: the pawn greys out in his name and the verdict says so.
    v.pawns[0].owner = Some(Seat(1));
    v.cars[1].pawn = Some(first);
    set_view(&live, v.clone(), pawns[1..].iter().map(|p| Action::TakePawn { pawn: *p }).collect());
    h.run_steps(2);
    assert!(h.query_by_label("Taken by Bob — choose again").is_some());
    // Key 2 takes the second pawn of the round's order.
    h.key_press(egui::Key::Num2);
    h.run_steps(2);
    assert!(
        drain(&mut commands)
            .iter()
            .any(|c| matches!(c, Command::Timed { action: Action::TakePawn { pawn }, .. } if *pawn == pawns[1]))
    );
    v.pawns[1].owner = Some(Seat(0));
    v.cars[0].pawn = Some(pawns[1]);
    set_view(&live, v, vec![]);
    h.run_steps(2);
    assert!(h.query_by_label_contains("Yours: pawn").is_some());
    // The grab is over: the host's photo finish settles who was first, and by how much.
    let photo = PhotoFinish {
        moment: Timed::Grab,
        reactions: vec![Some(341_200), Some(334_900), Some(702_000)],
        contested: vec![Contest { pawn: first, winner: Seat(1), runner_up: Seat(0), margin_us: 6_300, drawn: false }],
    };
    live.state().mirror.events.push(Event::PhotoFinish(photo));
    h.run_steps(2);
    assert!(h.query_by_label("335 ms").is_some() && h.query_by_label("341 ms").is_some());
    assert!(h.query_by_label(&format!("pawn {} to Bob, 6.3 ms ahead of Anne", first.0 + 1)).is_some());
}

/// B-1 at 6 pilots, from 1280×720 to 4K, in the grab (the race screen's fullest moment): every
/// tile of the road, the six pawns and the six pilots' ranking on screen, none over another.
#[test]
fn bolide_at_6_pilots_fits_from_720p_to_4k_with_nothing_overlapping() {
    for size in [[1280.0, 720.0], [1920.0, 1080.0], [3840.0, 2160.0]] {
        let (app, live, _commands) = seated_with_bots(true, 4);
        grab_shown(&live, sim::random_race(6, 7).view_for(Seat(0)), 1);
        // The last grab's photo finish, all six hands, and a long log beside it.
        let reactions = (0..6).map(|i| Some(300_000 + i * 7_000)).collect();
        let photo = PhotoFinish { moment: Timed::Grab, reactions, contested: vec![] };
        live.state().mirror.events.extend(std::iter::repeat_n(Event::PhotoFinish(photo), 40));
        let mut h = Harness::builder().with_size(size).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
        h.run_steps(2);
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size[0], size[1]));
        let tiles: Vec<egui::Rect> = h.query_all_by_label_contains("Tile ").map(|n| n.rect()).collect();
        assert!(tiles.len() > 30, "{size:?}: the road's tiles ({})", tiles.len());
        let pawns: Vec<egui::Rect> = h.query_all_by_label_contains("Pawn ").map(|n| n.rect()).collect();
        assert_eq!(pawns.len(), 6, "{size:?}: six pawns");
        let names = ["Anne", "Bob", "Bot 1", "Bot 2", "Bot 3", "Bot 4"];
        let pilots: Vec<egui::Rect> =
            names.iter().enumerate().map(|(i, n)| h.get_by_label(&format!(" {} {n} ", i + 1)).rect()).collect();
        let all: Vec<egui::Rect> = tiles.iter().chain(&pawns).chain(&pilots).copied().collect();
        for r in &all {
            assert!(screen.contains_rect(*r), "{size:?}: {r:?} off the screen");
        }
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(!a.intersects(*b), "{size:?}: {a:?} over {b:?}");
            }
        }
        // The road grows with the screen.
        let side = tiles[0].width();
        assert!(side >= 40.0 * size[0] / 1280.0, "{size:?}: tiles of {side} px");
    }
}

#[test]
fn b_4_7_echange_offers_each_swap_timed_once_and_keeps_the_pawn_on_escape() {
    let (app, live, mut commands) = seated(true);
    let mut v = view();
    v.phase = PhaseView::Echange;
    let window = Timed::Echange.name(v.race, v.round);
    live.state().mirror.scheduled = Some(Shown { moment: window, at_us: 0 });
    set_view(&live, v, vec![Action::Echange { with: Seat(1) }, Action::KeepPawn]);
    let mut h = harness(app);
    h.run_steps(2);
    h.get_by_label_contains("Échange with Bob").click();
    h.run_steps(2);
    // One declaration: the host's verdict follows (the quickest is applied first).
    assert!(h.query_by_label("Declared… waiting for the host's verdict").is_some());
    fn timed(commands: &mut UnboundedReceiver<Command>) -> Vec<Action> {
        let sent = drain(commands).into_iter();
        sent.filter_map(|c| if let Command::Timed { action, .. } = c { Some(action) } else { None }).collect()
    }
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, Command::Shown(s) if s.moment == window)), "{sent:?}");
    let declared: Vec<Action> = sent
        .into_iter()
        .filter_map(|c| if let Command::Timed { action, .. } = c { Some(action) } else { None })
        .collect();
    assert_eq!(declared, [Action::Echange { with: Seat(1) }]);
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(timed(&mut commands).is_empty(), "a second declaration while the first is judged");
    // Refused (say Bob's seat left): the choice is back, and Escape keeps the pawn.
    live.state().mirror.refusal = Some("refused".into());
    h.run_steps(2);
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert_eq!(timed(&mut commands), [Action::KeepPawn]);
}

fn my_turn(step: TurnStep) -> PlayerView {
    let mut v = view();
    v.phase = PhaseView::Movement;
    v.turn = Some(TurnView {
        seat: Seat(0),
        step,
        reservoir: 4,
        accelerator: Some(3),
        speed: Some(70),
        points_left: 4,
        start: 0,
    });
    v
}

#[test]
fn a_movement_turn_with_a_token_and_a_move_on_the_board() {
    let (app, live, mut commands) = seated(true);
    set_view(&live, my_turn(TurnStep::BeforeRoll), vec![Action::Roll, Action::AsDeLaRoute]);
    let mut h = harness(app);
    h.run();
    h.get_by_label("As de la route").click();
    h.run();
    assert!(drain(&mut commands).iter().any(|c| matches!(c, Command::Act { action: Action::AsDeLaRoute, .. })));
    // Moving: the reachable tiles are the host's Move actions; click one on the board.
    let from = view().car(Seat(0)).position;
    set_view(&live, my_turn(TurnStep::Moving), vec![Action::Move { tiles: 1 }, Action::Move { tiles: 2 }]);
    h.run();
    let tile = from + 2;
    h.get_by_label_contains(&format!("Tile {tile}:")).click();
    h.run();
    assert!(drain(&mut commands).iter().any(|c| matches!(c, Command::Act { action: Action::Move { tiles: 2 }, .. })));
}

/// B-6 on a phone held upright (390×844), in French: the turn's line (the die, the speed, the
/// points left) wraps, and every button of a roll and of its moves is on the page in the very
/// frame that shows them (a line that ran off the side widened the panel, the move buttons
/// with it; a panel sized by the frame before ran a new row past its bottom).
#[test]
fn b_6_on_a_phone_a_turn_s_buttons_are_on_the_page_in_the_frame_that_shows_them() {
    let (mut app, live, _commands) = seated(true);
    app.set_lang(bolide_client::lang::Lang::Fr);
    set_view(&live, my_turn(TurnStep::BeforeRoll), vec![Action::Roll, Action::AsDeLaRoute, Action::Nitro]);
    let mut h =
        Harness::builder().with_size([390.0, 844.0]).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
    h.run();
    let moves: Vec<Action> = (1..=7).map(|tiles| Action::Move { tiles }).chain([Action::EndTurn]).collect();
    set_view(&live, my_turn(TurnStep::Moving), moves);
    h.step();
    let buttons: Vec<(String, egui::Rect)> =
        h.query_all_by_role(egui::accesskit::Role::Button).map(|n| (format!("{n:?}"), n.rect())).collect();
    assert!(buttons.iter().any(|(b, _)| b.contains("7 cases")), "{buttons:?}");
    for (b, r) in &buttons {
        assert!(r.left() >= 0.0 && r.right() <= 390.0 && r.bottom() <= 844.0, "{b} off the page: {r:?}");
    }
}

#[test]
fn huile_goes_on_a_tile_picked_on_the_board() {
    let (app, live, mut commands) = seated(true);
    let mut v = my_turn(TurnStep::AfterMove);
    v.cars[0].atouts.remove(Atout::Nitro);
    set_view(&live, v, vec![Action::Huile { tile: 5 }, Action::Huile { tile: 6 }, Action::EndTurn]);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Huile").click();
    h.run();
    h.get_by_label_contains("Tile 6:").click();
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, Command::Act { action: Action::Huile { tile: 6 }, .. })), "{sent:?}");
}

#[test]
fn a_dropped_connection_shows_a_banner_and_a_lost_table_a_way_back() {
    let (app, live, _commands) = seated(true);
    set_view(&live, my_turn(TurnStep::BeforeRoll), vec![]);
    live.set_link(Link::Reconnecting { attempt: 1, why: "timed out".into() });
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label_contains("coming back to your seat").is_some());
    live.set_link(Link::Ended(bolide_client::live::Ended::Said("The host has closed the table.".into())));
    h.run();
    assert!(h.query_by_label("The host has closed the table.").is_some());
    h.get_by_label("Back to the start screen").click();
    h.run();
    assert!(h.query_by_label("Host a game").is_some());
}

#[test]
fn the_end_shows_the_podium_and_the_points_race_by_race() {
    let (app, live, _commands) = seated(true);
    {
        let mut t = live.state();
        t.mirror.events.push(Event::RacePoints { points: vec![6, 3, 1] });
        t.mirror.events.push(Event::RacePoints { points: vec![1, 6, 3] });
        t.mirror.events.push(Event::PhotoFinish(PhotoFinish {
            moment: Timed::Grab,
            reactions: vec![Some(312_000), Some(298_500), Some(640_000)],
            contested: vec![Contest {
                pawn: Pawn(0),
                winner: Seat(1),
                runner_up: Seat(0),
                margin_us: 13_500,
                drawn: false,
            }],
        }));
        let line = |seat: u8, name: &str, points, rank| StandingLine {
            seat: Seat(seat),
            name: name.into(),
            points,
            wins: 1,
            rank,
        };
        t.on_message(
            ServerMsg::Finished {
                standings: vec![line(1, "Bob", 9, 1), line(0, "Anne", 7, 2), line(2, "Bot 1", 4, 3)],
            },
            0,
        )
        .unwrap();
    }
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label("Championship over").is_some());
    assert!(h.query_by_label_contains("1. Bob — 9 points").is_some());
    assert!(h.query_by_label("Points after each race").is_some());
    // The night's statistics, from the published photo finish: Bob's reaction and his win.
    assert!(h.query_by_label("The night's statistics").is_some());
    assert_eq!(h.query_all_by_label("298 ms").count(), 2, "Bob's median and fastest reaction");
    assert!(h.query_by_label("1 (14 ms)").is_some(), "Bob won one contested pawn by 13.5 ms");
    assert!(h.query_by_label("Reactions, grab after grab (ms)").is_some());
}

/// The lobby at the end of a championship whose first race this laptop saw drawn from `seed`
/// (a round's pawns and reservoirs, and a roll), revealing `revealed`.
fn dice_end(live: &Live, seed: u64, revealed: u64) {
    use bolide::dice::{RaceDice, race_seed};
    use bolide_table::seal::SeedReveal;
    let dice = RaceDice::new(race_seed(seed, 1));
    let draw = dice.round(1, 3);
    let mut t = live.state();
    let committed = SeedReveal { seed: revealed, nonce: [9; 32], luck: Default::default() };
    let mut lobby = t.mirror.lobby.clone().unwrap();
    lobby.dice = committed.commitment();
    t.on_message(ServerMsg::Lobby(Box::new(lobby.clone())), 0).unwrap();
    let events = vec![
        Event::RaceStarted { race: 1, first_player: dice.first_player(3) },
        Event::RoundStarted { round: 1, first_player: Seat(0), pawn_order: draw.pawn_order },
        Event::ReservoirsRevealed { values: draw.reservoirs },
        Event::Rolled { seat: Seat(0), accelerator: dice.accelerator(1, Seat(0), 0), speed: 0 },
    ];
    let update = ServerMsg::Update {
        events,
        view: Box::new(view()),
        legal: vec![],
        deadline_ms: None,
        awaited: None,
        show_at_us: None,
        countdown_end_us: None,
    };
    t.on_message(update, 0).unwrap();
    lobby.reveal = Some(committed);
    t.on_message(ServerMsg::Lobby(Box::new(lobby)), 0).unwrap();
    t.on_message(ServerMsg::Finished { standings: vec![] }, 0).unwrap();
}

/// The podium of a table whose dice were drawn from `seed` and whose host revealed `revealed`.
fn podium_after_dice(seed: u64, revealed: u64) -> Harness<'static, BolideApp> {
    let (app, live, _commands) = seated(true);
    dice_end(&live, seed, revealed);
    let mut h = harness(app);
    h.run();
    h
}

#[test]
fn the_podium_says_the_dice_match_the_sealed_seed() {
    let h = podium_after_dice(77, 77);
    assert!(h.query_by_label_contains("Dice checked: 1 round of reservoirs and pawn order, 1 accelerator roll, 0 bonus tokens and 1 drawn first player").is_some());
}

#[test]
fn the_podium_says_so_when_the_dice_do_not_match_the_seed() {
    let h = podium_after_dice(77, 78);
    assert!(h.query_by_label_contains("The dice do NOT match the sealed seed").is_some());
    assert!(h.query_by_label_contains("Dice checked").is_none());
}

#[test]
fn the_lobby_shows_the_commitment_to_the_seed() {
    let (app, live, _commands) = seated(false);
    let mut h = harness(app);
    h.run();
    let sealed = live.state().mirror.lobby.as_ref().unwrap().dice.short();
    assert!(h.query_by_label(&format!("Dice sealed: {sealed}…")).is_some());
}

#[test]
fn the_language_switch_speaks_french_and_is_remembered() {
    let mut h = harness(app());
    h.run();
    h.get_by_label("Host a game");
    h.get_by_label("Français").click();
    h.run();
    h.get_by_label("Héberger une partie");
    h.get_by_label("Rejoindre une table");
    h.get_by_label("S'entraîner").click();
    h.run();
    assert_eq!(h.state().prefs().lang, Some(bolide_client::lang::Lang::Fr), "the choice is kept in the prefs");
    assert!(matches!(h.state().last_intent, Some(Intent::Practice(_))));
    // A French race screen: the cup, the log and the tokens by the box's names.
    let (mut app, live, _commands) = seated(true);
    app.set_lang(bolide_client::lang::Lang::Fr);
    set_view(&live, view(), vec![Action::Klaxon]);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Le gobelet est posé");
    h.get_by_label("Ce qui s'est passé");
    h.get_by_label("Pilotes");
    h.get_by_label("Quitter la table");
    // The lobby too.
    let (mut app, _live, mut commands) = seated(false);
    app.set_lang(bolide_client::lang::Lang::Fr);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Bolide — Championnat");
    h.get_by_label("Posez votre main à plat sur la table (prêt)").click();
    h.run();
    assert!(drain(&mut commands).contains(&Command::Ready(true)));
}

/// A practice table's lobby, seated at seat 0, not started.
fn practice_lobby() -> (Live, UnboundedReceiver<Command>) {
    let (live, commands) = Live::detached("PRACTICE-7F3K-0Q9M-2XWB-HC4T");
    live.set_link(Link::Connected);
    let mut state = live.state();
    state.welcome(Some(Seat(0)), None, bolide_table::wire::BeatSchedule::Steady);
    let (_, lobby, _) = seated(false);
    state.mirror.lobby = lobby.state().mirror.lobby.clone();
    drop(state);
    (live, commands)
}

#[test]
fn practice_s_first_race_waits_for_the_guide_once_and_never_again() {
    let (live, mut commands) = practice_lobby();
    let mut app = app();
    app.sit_practice(live.clone());
    let mut h = harness(app);
    h.run();
    h.get_by_label("Your first race: what happens");
    assert!(!drain(&mut commands).contains(&Command::Ready(true)), "the race waits for the newcomer");
    h.get_by_label("Got it — start the race").click();
    h.run();
    assert!(drain(&mut commands).contains(&Command::Ready(true)));
    assert!(h.state().prefs().guide_seen);
    // The next practice starts at once.
    let prefs = h.state().prefs().clone();
    let (live, mut commands) = practice_lobby();
    let mut app = BolideApp::with(prefs, None, None).unwrap().dry_run();
    app.sit_practice(live);
    let mut h = harness(app);
    h.run();
    assert!(drain(&mut commands).contains(&Command::Ready(true)));
    assert!(h.query_by_label("Your first race: what happens").is_none());
}

#[test]
fn how_to_play_explains_each_game_in_the_window_s_language() {
    let mut h = harness(app());
    h.run();
    h.get_by_label("How to play").click();
    h.run();
    h.get_by_label("The cup and the grab");
    h.get_by_label("1000 Bornes").click();
    h.run();
    h.get_by_label("Coup-Fourré");
    h.get_by_label("Entenrallye").click();
    h.run();
    h.get_by_label("The tests");
    h.get_by_label("Back").click();
    h.run();
    h.get_by_label("Host a game");
    let mut app = app();
    app.set_lang(bolide_client::lang::Lang::Fr);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Comment jouer").click();
    h.run();
    h.get_by_label("Le gobelet et la prise");
    h.get_by_label("Entenrallye").click();
    h.run();
    h.get_by_label("Les contrôles");
}

/// Every character of every message, in both languages, has a glyph in the window's fonts: a
/// missing one (an arrow, a typographic quote) stops the window in the middle of a frame.
#[test]
fn every_character_of_every_message_is_in_the_window_s_fonts() {
    let source = include_str!("../../../words/src/lang.rs");
    let mut used = std::collections::BTreeSet::new();
    for line in source.lines().filter(|l| !l.trim_start().starts_with("//")) {
        // The text between quotes: the messages themselves, not the code around them.
        for (i, part) in line.split('"').enumerate() {
            if i % 2 == 1 {
                used.extend(part.chars().filter(|c| !c.is_ascii()));
            }
        }
    }
    assert!(used.contains(&'é') && used.contains(&'…'), "the scan reads the messages: {used:?}");
    let mut h = harness(app());
    h.run();
    let missing: Vec<char> = h
        .ctx
        .fonts_mut(|f| used.iter().copied().filter(|c| !f.has_glyph(&egui::FontId::proportional(14.0), *c)).collect());
    assert!(missing.is_empty(), "characters the window cannot draw: {missing:?}");
}

/// A latecomer who joins a table that has started watches it: the race as the pilots see it
/// (board, pilots, photo finish, log), without a pawn to grab or a button to press.
#[test]
fn a_spectator_watches_the_race_without_a_hand_or_buttons() {
    let (live, mut commands) = Live::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    live.set_link(Link::Connected);
    {
        let mut state = live.state();
        state.welcome(None, None, bolide_table::wire::BeatSchedule::Steady);
        let (_, pilots, _) = seated(true);
        state.mirror.lobby = pilots.state().mirror.lobby.clone();
    }
    let mut v = sim::random_race(3, 7).spectator_view();
    v.phase = PhaseView::Grab;
    set_view(&live, v, vec![]);
    let mut app = app();
    app.sit(live, None);
    let mut h = harness(app);
    h.run_steps(2);
    assert!(h.query_by_label("The grab is on").is_some(), "told what happens, not asked to grab");
    assert!(h.query_by_label("Pilots").is_some() && h.query_by_label("What happened").is_some());
    assert!(h.query_by_label_contains("You:").is_none(), "no tokens of its own");
    for key in [egui::Key::Num1, egui::Key::K, egui::Key::R] {
        h.key_press(key);
        h.run_steps(1);
    }
    assert!(drain(&mut commands).iter().all(|c| !matches!(c, Command::Act { .. } | Command::Timed { .. })));
}

/// 1000 Bornes practice on this laptop: the game is picked under Practice and remembered,
/// with its players and length; Practice hosts it on this laptop like any table.
#[test]
fn mille_bornes_practice_is_picked_under_practice_and_remembered() {
    let mut h = harness(app());
    h.run();
    // Host a game (left) and Practice (right) each ask which game.
    h.query_all_by_label("1000 Bornes").last().unwrap().click();
    h.run();
    assert_eq!(h.state().prefs().practice_game, "mille-bornes", "the game is remembered");
    h.get_by_label("2").click();
    h.run();
    h.query_all_by_label("1 hand").last().unwrap().click();
    h.run();
    h.get_by_label("Practice").click();
    h.run();
    let intent = h.state().last_intent.clone();
    let two_players_one_hand = |a: &HostAsk| a.game == "mille-bornes" && a.bots == 1 && a.hands == Some(1);
    assert!(matches!(&intent, Some(Intent::Practice(ask)) if two_players_one_hand(ask)), "{intent:?}");
}

/// M-2.2 at 8 players (4 teams), from 1280×720 to 4K: every tableau and every card of the hand
/// on screen, none over another.
#[test]
fn mille_bornes_at_8_players_fits_from_720p_to_4k_with_nothing_overlapping() {
    for size in [[1280.0, 720.0], [1920.0, 1080.0], [3840.0, 2160.0]] {
        let app = mb_eight_players_mid_hand(BolideApp::with(Prefs::default(), None, None).unwrap().dry_run());
        let mut h = Harness::builder().with_size(size).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
        h.run_steps(2);
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size[0], size[1]));
        let bars: Vec<egui::Rect> = h.query_all_by_label_contains("/ 1000 km").map(|n| n.rect()).collect();
        assert_eq!(bars.len(), 4, "{size:?}: four teams' tableaux");
        let hand: Vec<egui::Rect> = mille_bornes::Card::ALL
            .iter()
            .flat_map(|c| h.query_all_by_label(c.name()).map(|n| n.rect()).collect::<Vec<_>>())
            .filter(|r| r.height() > 90.0)
            .collect();
        assert!(hand.len() >= 6, "{size:?}: the hand's cards ({})", hand.len());
        for r in bars.iter().chain(&hand) {
            assert!(screen.contains_rect(*r), "{size:?}: {r:?} off the screen");
        }
        for (i, a) in hand.iter().enumerate() {
            for b in bars.iter().chain(&hand[i + 1..]) {
                assert!(!a.intersects(*b), "{size:?}: {a:?} over {b:?}");
            }
        }
        for (i, a) in bars.iter().enumerate() {
            for b in &bars[i + 1..] {
                assert!(!a.intersects(*b), "{size:?}: two tableaux overlap");
            }
        }
    }
}

// 1000 Bornes at a table over the wire: the start screen hosts it, the join list joins it in
// its own words, its lobby sets its options, and the game screen reads the client core.

use bolide_client::live::{CommandOf, LiveOf};
use mille_bornes::MilleBornes;

type MbCommand = CommandOf<MilleBornes>;
use mille_bornes::options::TeamMaking;

#[test]
fn host_a_game_asks_which_game_and_remembers_it() {
    let mut h = harness(app());
    h.run();
    // Host a game (left) and Practice (right) each ask which game.
    h.query_all_by_label("1000 Bornes").next().unwrap().click();
    h.run();
    // A game of one hand (M-13.3) rather than to 5000 points.
    h.get_by_label("1 hand").click();
    h.run();
    h.get_by_label("Host a game").click();
    h.run();
    let intent = h.state().last_intent.clone();
    assert!(
        matches!(&intent, Some(Intent::Host(ask)) if ask.game == "mille-bornes" && ask.hands == Some(1)),
        "{intent:?}"
    );
    assert_eq!(h.state().prefs().host_game, "mille-bornes", "the game is remembered");
    // The races are Bolide's: a 1000 Bornes table offers bots for up to 8 players instead.
    assert!(h.query_by_label("Races").is_none());
}

#[test]
fn joining_a_1000_bornes_table_from_the_list_joins_it_in_its_words() {
    let cards = FoundHost { game: "mille-bornes".into(), ..found() };
    let prefs = Prefs { name: "Anne".into(), ..Prefs::default() };
    let app = BolideApp::with(prefs, None, Some(Discovery::fixed(vec![cards]))).unwrap().dry_run();
    let mut h = harness(app);
    h.run();
    let version = bolide_table::wire::PROTOCOL_VERSION;
    h.get_by_label(&format!("Anne's table — 2/6 seats · v{version} · 1000 Bornes")).click();
    h.run();
    type_into(&mut h, "Room code on the host's screen", SCREEN_CODE);
    h.get_by_label("Join this table").click();
    h.run();
    let code = SCREEN_CODE.to_string();
    let expected = Intent::Join { addr: found().addr, code, watch: false, game: "mille-bornes".into() };
    assert_eq!(h.state().last_intent, Some(expected));
}

/// A 1000 Bornes table at seat 0 of a lobby of two people (Anne, Bob) and `bots` bots.
fn mb_seated(started: bool, bots: u8) -> (BolideApp, LiveOf<MilleBornes>, UnboundedReceiver<MbCommand>) {
    let (live, commands) = LiveOf::<MilleBornes>::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    live.set_link(Link::Connected);
    {
        let mut state = live.state();
        state.welcome(Some(Seat(0)), None, bolide_table::wire::BeatSchedule::Steady);
        let seat = |i: u8, name: &str, colour, bot| lobby_seat(i, name, colour, bot, started);
        let mut seats = vec![seat(0, "Anne", Colour::Rouge, false), seat(1, "Bob", Colour::Bleu, false)];
        if started {
            seats.extend((0..bots).map(|n| seat(2 + n, &format!("Bot {}", n + 1), Colour::Vert, true)));
        }
        let settings = mille_bornes::Lobby { bots, ..Default::default() };
        state.mirror.lobby = Some(lobby_of(seats, settings, started, Some(Seat(0))));
    }
    let mut app = app();
    app.sit_mille_bornes(live.clone(), None);
    (app, live, commands)
}

/// M-14 in the lobby: the first player sets the trip, the game's length, the Coup-Fourré's
/// window and the bots; at 6 players the teams show who sits with whom (M-2.2); the table
/// can be switched to Bolide.
#[test]
fn mille_bornes_lobby_sets_the_options_and_shows_the_teams() {
    let (app, _live, mut commands) = mb_seated(false, 4);
    let mut h = harness(app);
    h.run();
    h.get_by_label("6 players");
    // M-2.3: drawn at the start by default, or placed by the first player.
    h.get_by_label("placed by the first player").click();
    h.run();
    let sent = drain(&mut commands);
    let placed = |c: &MbCommand| matches!(c, CommandOf::Configure(l) if l.game.teams == TeamMaking::HostAssigns);
    assert!(sent.iter().any(placed), "{sent:?}");
    h.get_by_label("700 km").click();
    h.run();
    h.get_by_label("3 hands").click();
    h.run();
    h.get_by_label("5 s").click();
    h.run();
    let sent = drain(&mut commands);
    let configured: Vec<&mille_bornes::Lobby> =
        sent.iter().filter_map(|c| if let CommandOf::Configure(l) = c { Some(l) } else { None }).collect();
    assert!(configured.iter().any(|l| l.game.target_km == 700), "{sent:?}");
    assert!(configured.iter().any(|l| l.game.mode == mille_bornes::options::GameMode::Hands { hands: 3 }));
    assert!(configured.iter().any(|l| l.game.window_ms == 5000));
    h.get_by_label("Play Bolide at this table instead").click();
    h.run();
    assert!(drain(&mut commands).contains(&CommandOf::ChooseGame("bolide".into())));
    h.get_by_label("Put your hand flat on the table (ready)").click();
    h.run();
    assert!(drain(&mut commands).contains(&CommandOf::Ready(true)));
}

/// M-2.3: the first player places the teams — partners sit opposite, place n with place
/// n + 3 at 6 players: picking Bob for Anne's partner trades his place with Bot 2's.
#[test]
fn m_2_3_the_first_player_places_the_teams() {
    let (app, live, mut commands) = mb_seated(false, 4);
    if let Some(lobby) = &mut live.state().mirror.lobby {
        lobby.settings.game.teams = TeamMaking::HostAssigns;
    }
    let mut h = harness(app);
    h.run();
    h.get_by_label("Team 1:");
    h.get_by_label("Team 3:");
    // Team 1 is Anne (place 1) and Bot 2 (place 4): Bot 2's place offers Bob.
    h.get_by_label("Place 4").click();
    h.run();
    h.query_all_by_label("Bob").last().unwrap().click();
    h.run();
    let sent = drain(&mut commands);
    let places: Vec<&Vec<u8>> =
        sent.iter().filter_map(|c| if let CommandOf::Configure(l) = c { Some(&l.places) } else { None }).collect();
    assert_eq!(places, [&vec![0, 3, 2, 1, 4, 5]], "{sent:?}");
}

/// A 1000 Bornes hand played from seed 11 by the random bot until an attack lands on seat
/// 0's side (M-15.1): the Coup-Fourré window is open for this laptop.
fn attacked_side_zero() -> mille_bornes::Partie {
    let mut events = Vec::new();
    let mut partie = mille_bornes::Partie::new(mille_bornes::Settings::default(), 4, 11, &mut events).unwrap();
    let on_side_zero =
        |p: &mille_bornes::Partie| matches!(p.manche().phase(), mille_bornes::Phase::Window { side: 0, .. });
    assert!(
        mille_bornes::sim::play_until(&mut partie, BotLevel::Random, 11, on_side_zero),
        "an attack on side 0 from this seed"
    );
    partie
}

/// M-15.5, M-15.6 in the window at a table: the attacked side's player sees the attack and
/// the big button; the frame that drew it is reported (`Shown`, the window's name), and the
/// call goes as a timed request stamped at the key. Then a card is played from the hand.
#[test]
fn m_15_6_the_coup_fourre_at_a_table_is_a_timed_request_from_the_frame_that_drew_it() {
    let (app, live, mut commands) = mb_seated(true, 2);
    let partie = attacked_side_zero();
    let view = partie.view(Some(Seat(0)));
    let moment = mille_bornes::partie::window_moment(view.hand_number, view.attacks);
    {
        let mut state = live.state();
        state.mirror.view = Some(view);
        state.mirror.legal = vec![mille_bornes::Action::CoupFourre];
    }
    let mut h = harness(app);
    h.run();
    h.get_by_label("An attack lands: Coup-Fourré?");
    assert_eq!(h.state().title_now(), "Bolide — 1000 Bornes — Coup-Fourré?");
    let shown: Vec<MbCommand> = drain(&mut commands).into_iter().filter(|c| matches!(c, CommandOf::Shown(_))).collect();
    assert!(matches!(shown.as_slice(), [CommandOf::Shown(Shown { moment: m, .. })] if *m == moment), "{shown:?}");
    h.key_press(egui::Key::Space);
    h.run();
    let sent = drain(&mut commands);
    assert!(
        sent.iter().any(|c| matches!(c, CommandOf::Timed { action: mille_bornes::Action::CoupFourre, .. })),
        "{sent:?}"
    );
    assert!(sent.iter().all(|c| !matches!(c, CommandOf::Shown(_))), "the window is reported once");
    // Accepted by the host: the call and its reaction are told to everyone (M-15.9).
    let called = vec![
        mille_bornes::Event::CoupFourre {
            seat: Seat(0),
            safety: mille_bornes::Safety::Increvable,
            attack: mille_bornes::Attack::Creve,
        },
        mille_bornes::Event::Reaction { seat: Seat(0), reaction_us: 412_000 },
    ];
    live.state().mirror.events.extend(called);
    h.run();
    h.get_by_label_contains("Last Coup-Fourré: Anne, 412");
    h.get_by_label_contains("Anne called Coup-Fourré 412");
    // The call refused to this laptop alone, in words.
    live.state().mirror.refusal = Some("M-15.5: you do not hold Increvable".into());
    h.run();
    h.get_by_label("M-15.5: you do not hold Increvable");
    // In this player's words when the game names the refusal (French at a French table).
    live.state().mirror.refused =
        Some(mille_bornes::RuleError::SafetyNotHeld { safety: mille_bornes::Safety::Increvable });
    h.run();
    h.get_by_label("You do not hold Increvable");
}

/// The turn at a table: a card of the hand goes out as a plain action, where the host's
/// legal list says it may go; a spectator gets no hand.
#[test]
fn mille_bornes_at_a_table_plays_a_card_from_the_host_s_legal_list() {
    let (app, live, mut commands) = mb_seated(true, 2);
    let mut events = Vec::new();
    let partie = mille_bornes::Partie::new(mille_bornes::Settings::default(), 4, 5, &mut events).unwrap();
    let seat = match partie.manche().phase() {
        mille_bornes::Phase::Turn { seat } => seat,
        other => panic!("{other:?}"),
    };
    let view = partie.view(Some(seat));
    let legal = partie.legal_actions(seat);
    {
        let mut state = live.state();
        state.mirror.seat = Some(seat);
        state.mirror.view = Some(view.clone());
        state.mirror.legal = legal.clone();
    }
    let mut h = harness(app);
    h.run();
    h.get_by_label("Your turn");
    let discard =
        legal.iter().find_map(|a| if let mille_bornes::Action::Discard { card } = a { Some(*card) } else { None });
    let card = discard.expect("a card to discard");
    h.query_all_by_label(card.name()).find(|n| n.rect().height() > 90.0).unwrap().click();
    h.run();
    h.get_by_label("Discard (D)").click();
    h.run();
    let sent = drain(&mut commands);
    assert!(
        sent.iter().any(
            |c| matches!(c, CommandOf::Act { action: mille_bornes::Action::Discard { card: c }, .. } if *c == card)
        ),
        "{sent:?}"
    );
}

/// A 4-player hand played by the random bot from `seed` until the seat to play may take an
/// action that `wanted`: the game, that seat and that action.
fn mb_turn_where(
    seed: u64,
    wanted: impl Fn(&mille_bornes::Action) -> bool,
) -> (mille_bornes::Partie, Seat, mille_bornes::Action) {
    let mut events = Vec::new();
    let mut partie = mille_bornes::Partie::new(mille_bornes::Settings::default(), 4, seed, &mut events).unwrap();
    let found = |p: &mille_bornes::Partie| match p.manche().phase() {
        mille_bornes::Phase::Turn { seat } => p.legal_actions(seat).into_iter().find(|a| wanted(a)).map(|a| (seat, a)),
        _ => None,
    };
    assert!(
        mille_bornes::sim::play_until(&mut partie, BotLevel::Random, seed, |p| found(p).is_some()),
        "no such turn from seed {seed}"
    );
    let (seat, action) = found(&partie).unwrap();
    (partie, seat, action)
}

/// Sits a window at a 1000 Bornes table (Anne, Bob, Bot 1, Bot 2) at `seat`'s turn in
/// `partie`, with the host's legal list for it.
fn mb_at_turn(
    partie: &mille_bornes::Partie,
    seat: Seat,
) -> (Harness<'static, BolideApp>, UnboundedReceiver<MbCommand>) {
    let (app, live, commands) = mb_seated(true, 2);
    {
        let mut state = live.state();
        state.mirror.seat = Some(seat);
        state.mirror.view = Some(partie.view(Some(seat)));
        state.mirror.legal = partie.legal_actions(seat);
    }
    let mut h = harness(app);
    h.run();
    (h, commands)
}

fn hand_card<'a>(h: &'a Harness<'static, BolideApp>, card: mille_bornes::Card) -> egui_kittest::Node<'a> {
    h.query_all_by_label(card.name()).find(|n| n.rect().height() > 90.0).expect("the card in the hand")
}

/// M-6.1: a distance card on one's own row, picked and played with Enter (its only target).
#[test]
fn m_6_1_a_distance_is_played_from_the_hand_with_enter() {
    use mille_bornes::{Action, Family};
    let (partie, seat, play) = mb_turn_where(
        3,
        |a| matches!(a, Action::Play { card, on: None } if matches!(card.family(), Family::Distance(_))),
    );
    let Action::Play { card, .. } = play else { unreachable!() };
    let (mut h, mut commands) = mb_at_turn(&partie, seat);
    h.get_by_label("Your turn");
    hand_card(&h, card).click();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, CommandOf::Act { action, .. } if *action == play)), "{sent:?}");
}

/// M-5.7 on every screen: at another person's turn, how long before a bot plays it for them.
#[test]
fn m_5_7_the_screen_says_how_long_before_a_bot_plays_another_s_turn() {
    let (app, live, _commands) = mb_seated(true, 2);
    let mut events = Vec::new();
    let partie = mille_bornes::Partie::new(mille_bornes::Settings::default(), 4, 5, &mut events).unwrap();
    {
        let mut state = live.state();
        state.mirror.view = Some(partie.view(Some(Seat(0))));
        state.mirror.awaited = Some((Seat(1), live.now_us() + 25_500_000));
    }
    let mut h = harness(app);
    h.run();
    // Tens of seconds until the last ten: an idle screen wakes every ten seconds.
    h.get_by_label("Bob's turn: a bot plays it in 20 s");
}

/// M-7.1: an attack goes on the opponent the player picks, by the button that names them.
#[test]
fn m_7_1_an_attack_goes_on_the_opponent_picked() {
    use mille_bornes::{Action, Family};
    let (partie, seat, play) = mb_turn_where(
        5,
        |a| matches!(a, Action::Play { card, on: Some(_) } if matches!(card.family(), Family::Attack(_))),
    );
    let Action::Play { card, on: Some(side) } = play else { unreachable!() };
    let (mut h, mut commands) = mb_at_turn(&partie, seat);
    hand_card(&h, card).click();
    h.run();
    let names = ["Anne", "Bob", "Bot 1", "Bot 2"];
    h.get_by_label(&format!("On {}", names[usize::from(side)])).click();
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, CommandOf::Act { action, .. } if *action == play)), "{sent:?}");
}

/// The end of a game at a table: the places, the cards checked against the sealed seed, the
/// score sheet of the last hand line by line, and the points after each hand.
#[test]
fn mille_bornes_at_a_table_ends_on_the_podium_with_the_score_sheet() {
    use bolide_table::wire::StandingLine;
    let (app, live, _commands) = mb_seated(true, 2);
    let mut events = Vec::new();
    let settings =
        mille_bornes::Settings { mode: mille_bornes::options::GameMode::Hands { hands: 1 }, ..Default::default() };
    let mut partie = mille_bornes::Partie::new(settings, 4, 8, &mut events).unwrap();
    mille_bornes::sim::play_until(&mut partie, BotLevel::Strategic, 8, |_| false);
    let standings = partie.standings().unwrap();
    {
        let mut state = live.state();
        state.mirror.view = Some(partie.view(Some(Seat(0))));
        let names = ["Anne", "Bob", "Bot 1", "Bot 2"];
        state.mirror.finished = Some(
            standings
                .iter()
                .map(|s| StandingLine {
                    seat: s.seat,
                    name: names[s.seat.index()].into(),
                    points: s.points,
                    wins: s.hands_won,
                    rank: s.rank,
                })
                .collect(),
        );
    }
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().title_now(), "Bolide — 1000 Bornes — game over");
    h.get_by_label("Game over");
    let winner = standings.iter().find(|s| s.rank == 1).unwrap();
    h.get_by_label_contains(&format!("1. {}", ["Anne", "Bob", "Bot 1", "Bot 2"][winner.seat.index()]));
    h.get_by_label("Last hand's score");
    h.get_by_label("Points after each hand");
}

/// M-8.4: a remedy goes on one's own pile: Feu Vert, picked and played with Enter.
#[test]
fn m_8_4_a_remedy_goes_on_one_s_own_pile() {
    use mille_bornes::{Action, Card};
    let (partie, seat, play) = mb_turn_where(7, |a| *a == Action::Play { card: Card::FeuVert, on: None });
    let (mut h, mut commands) = mb_at_turn(&partie, seat);
    hand_card(&h, Card::FeuVert).click();
    h.run();
    h.get_by_label("Play (Enter)").click();
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, CommandOf::Act { action, .. } if *action == play)), "{sent:?}");
}

/// M-9.3: a safety laid on one's turn; the host says the player plays again, and the log
/// says it in words.
#[test]
fn m_9_3_a_safety_is_laid_and_its_player_plays_again() {
    use mille_bornes::{Action, Event, Family};
    let (mut partie, seat, play) =
        mb_turn_where(9, |a| matches!(a, Action::Play { card, .. } if matches!(card.family(), Family::Safety(_))));
    let Action::Play { card, .. } = play else { unreachable!() };
    let (mut h, mut commands) = mb_at_turn(&partie, seat);
    hand_card(&h, card).click();
    h.run();
    h.get_by_label("Play (Enter)").click();
    h.run();
    assert!(drain(&mut commands).iter().any(|c| matches!(c, CommandOf::Act { action, .. } if *action == play)));
    // The host applies it: the same seat plays again (M-9.3).
    let mut events = Vec::new();
    partie.apply_into(seat, play, &mut events).unwrap();
    assert!(events.contains(&Event::PlaysAgain { seat }), "{events:?}");
    let names = ["Anne", "Bob", "Bot 1", "Bot 2"];
    let line = mille_bornes_words(&events, &partie, &names);
    assert!(line.iter().any(|l| l == &format!("{} plays again", names[seat.index()])), "{line:?}");
}

/// The log's lines for `events`, as the window writes them.
fn mille_bornes_words(events: &[mille_bornes::Event], partie: &mille_bornes::Partie, names: &[&str]) -> Vec<String> {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let view = partie.view(None);
    events
        .iter()
        .filter_map(|e| {
            bolide_client::games::mille_bornes::screen::describe(e, &view, &names, &bolide_client::lang::EN)
        })
        .collect()
}

/// A window at a 1000 Bornes table of 8 (4 teams) in the middle of a hand, from seat 0.
fn mb_eight_players_mid_hand(mut app: BolideApp) -> BolideApp {
    let names = ["Anne", "Bob", "Chloé", "Dédé", "Émile", "Fanny", "Gus", "Hélène"];
    app.sit_mille_bornes(bolide_client::games::mille_bornes::table::mid_hand(&names, 3), None);
    app
}

/// A window whose data dir holds one kept night of `races` races (host bots and an absent
/// Anne), and the night's text.
fn with_a_kept_night(races: u8, tag: &str) -> (BolideApp, std::path::PathBuf) {
    with_a_kept::<bolide::game::Championship>(&bolide_host::nights::night_of_bots(races), tag)
}

/// A window whose data dir holds the night `text` of the game `G`, kept as the table handed it.
fn with_a_kept<G: bolide_table::Game>(text: &str, tag: &str) -> (BolideApp, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("bolide-window-replay-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let commitment = bolide_table::journal::replay_game::<G>(text).unwrap().commitment;
    bolide_client::shelf::Shelf::new(dir.join("replays")).keep(text, &commitment, 1_764_193_200).unwrap();
    let prefs = Prefs { name: "Anne".into(), ..Prefs::default() };
    let app = BolideApp::with(prefs, None, Some(Discovery::fixed(vec![]))).unwrap().data_dir(dir.clone());
    (app, dir)
}

#[test]
fn b_7_3_a_past_night_is_stepped_through_move_round_race_to_its_podium() {
    let (app, dir) = with_a_kept_night(2, "steps");
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label("Past nights").is_some());
    assert!(h.query_by_label_contains("2025-11-26 21:40 UTC · Bolide · Anne, Bot 1, Bot 2").is_some());
    h.get_by_label("Watch the replay").click();
    h.run();
    assert_eq!(h.state().title_now(), "Bolide — replay");
    assert!(h.query_by_label_contains("Race 1 · round 1 · move 0 of").is_some());
    // The board as it was, seen as a spectator: no hand, no button to act.
    assert!(h.query_by_label_contains("Roll").is_none());
    h.get_by_label("Round ›").click();
    h.run();
    assert!(h.query_by_label_contains("Race 1 · round 2 ·").is_some());
    h.key_press(egui::Key::ArrowRight);
    h.run();
    h.get_by_label("‹ Round").click();
    h.run();
    assert!(h.query_by_label_contains("Race 1 · round 2 ·").is_some(), "back to the start of this round");
    h.get_by_label("‹ Round").click();
    h.run();
    assert!(h.query_by_label_contains("Race 1 · round 1 ·").is_some(), "then to the round before");
    h.get_by_label("Race »").click();
    h.run();
    assert!(h.query_by_label_contains("Race 2 · round 1 ·").is_some());
    // The night so far: the reactions the host published, pilot by pilot.
    h.get_by_label("The night so far").click();
    h.run();
    assert!(h.query_by_label("The night's statistics").is_some());
    assert!(h.query_by_label("Reactions, grab after grab (ms)").is_some());
    h.get_by_label("The night so far").click();
    h.get_by_label("Podium").click();
    h.run();
    assert!(h.query_by_label("Championship over").is_some());
    assert!(h.query_by_label_contains("Dice checked").is_some(), "the seed checked against every draw");
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().title_now(), "Bolide");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn m_13_3_a_past_game_of_1000_bornes_is_stepped_through_to_its_final_places() {
    let text = bolide_host::nights::mille_bornes_night_of_bots(1, 5);
    let (app, dir) = with_a_kept::<mille_bornes::Partie>(&text, "mb");
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label_contains("· 1000 Bornes · Anne, Bot 1, Bot 2, Bot 3").is_some());
    h.get_by_label("Watch the replay").click();
    h.run();
    assert_eq!(h.state().title_now(), "Bolide — replay");
    assert!(h.query_by_label_contains("Hand 1 · round the table 1 · move 0 of").is_some());
    h.get_by_label("Round ›").click();
    h.run();
    assert!(h.query_by_label_contains("Hand 1 · round the table 2 ·").is_some());
    h.get_by_label("‹ Move").click();
    h.run();
    assert!(h.query_by_label_contains("Hand 1 · round the table 1 ·").is_some());
    h.get_all_by_label("Podium").next().unwrap().click();
    h.run();
    assert!(h.query_all_by_label("Game over").count() >= 1, "the final places");
    assert!(h.query_by_label_contains("Cards checked: every card you saw in 1 hand").is_some());
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().title_now(), "Bolide");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn e_13_1_a_past_year_of_entenrallye_is_stepped_through_to_its_final_places() {
    let text = bolide_host::nights::entenrallye_night_of_bots(5);
    let (app, dir) = with_a_kept::<entenrallye::Rallye>(&text, "ente");
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label_contains("· Entenrallye · Anne, Bot 1, Bot 2, Bot 3").is_some());
    h.get_by_label("Watch the replay").click();
    h.run();
    assert!(h.query_by_label_contains("before January, turn 1 · move 0 of").is_some());
    h.get_by_label("Turn ›").click();
    h.run();
    assert!(h.query_by_label_contains(", turn 2 ·").is_some());
    h.get_by_label("Month »").click();
    h.run();
    // Seed 5's first turn rolled a 6 (January began with it): the next month is February.
    assert!(h.query_by_label_contains("February, turn").is_some());
    h.get_all_by_label("Podium").next().unwrap().click();
    h.run();
    h.get_by_label("The year is over");
    h.get_by_label_contains("1. ");
    // The replay's laptop saw every roll, checked against the seed the night reveals.
    h.get_by_label_contains("Die checked against the seed: all ");
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().title_now(), "Bolide");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_warm_up_times_a_reaction_from_the_reservoirs_shown_and_calls_an_early_key_early() {
    let prefs = Prefs { name: "Anne".into(), ..Prefs::default() };
    let mut h = harness(BolideApp::with(prefs, None, Some(Discovery::fixed(vec![]))).unwrap());
    h.run();
    h.get_by_label("Warm up").click();
    h.run();
    assert_eq!(h.state().title_now(), "Bolide — warm-up");
    assert!(h.query_by_label_contains("The cup is down").is_some());
    // Before the reservoirs: too early, and the cup comes down again.
    h.key_press(egui::Key::Num1);
    h.run();
    assert!(h.query_by_label("Too early: wait for the reservoirs.").is_some());
    // The result stays 1.2 s, the cup at most 2.5 s: then the reservoirs.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while h.query_by_label("Now!").is_none() {
        assert!(std::time::Instant::now() < until, "the reservoirs never showed");
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.step();
    }
    assert!(h.query_by_label_contains("Pawn 1 · ").is_some(), "the six reservoirs");
    std::thread::sleep(std::time::Duration::from_millis(30));
    h.key_press(egui::Key::Num4);
    h.step();
    h.step();
    use egui_kittest::kittest::NodeT as _;
    let reaction = h
        .query_all_by_label_contains(" ms")
        .filter_map(|n| n.accesskit_node().label().or_else(|| n.accesskit_node().value()).map(|l| l.to_string()))
        .find(|l| !l.contains("median"))
        .unwrap_or_default();
    let ms: f64 = reaction.trim_end_matches(" ms").parse().unwrap_or(-1.0);
    assert!((30.0..5_000.0).contains(&ms), "a reaction of at least the 30 ms waited: {reaction:?}");
    assert!(h.query_by_label_contains("1 reaction · median").is_some());
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().title_now(), "Bolide");
}

/// A window at a finished table (an empty data dir) whose lobby committed to `committed`,
/// handed a one-race night in two parts, as a longer night comes; its data dir.
fn handed_a_night(tag: &str, committed: Option<bolide_table::seal::Commitment>) -> (BolideApp, std::path::PathBuf) {
    let (mut app, dir) = with_a_kept_night(1, tag);
    std::fs::remove_dir_all(dir.join("replays")).unwrap();
    let text = bolide_host::nights::night_of_bots(1);
    let (live, _commands) = Live::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    {
        let mut t = live.state();
        let settings = Settings {
            options: TableOptions::default(),
            circuit: "cannes".into(),
            bots: 2,
            bot_level: Default::default(),
        };
        let mut lobby = lobby_of(vec![], settings, true, None);
        lobby.dice = committed.unwrap_or_default();
        t.on_message(ServerMsg::Lobby(Box::new(lobby)), 0).unwrap();
        t.on_message(ServerMsg::Finished { standings: vec![] }, 0).unwrap();
        let cut = text.find('\n').unwrap() + 1;
        t.on_message(ServerMsg::Night { part: 0, last: false, lines: text[..cut].into() }, 0).unwrap();
        t.on_message(ServerMsg::Night { part: 1, last: true, lines: text[cut..].into() }, 0).unwrap();
    }
    app.sit(live, None);
    (app, dir)
}

#[test]
fn a_finished_table_s_night_is_kept_once_and_listed() {
    let text = bolide_host::nights::night_of_bots(1);
    let commitment = bolide_table::journal::replay_game::<bolide::game::Championship>(&text).unwrap().commitment;
    let (app, dir) = handed_a_night("kept", Some(commitment));
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label_contains("This night is kept").is_some());
    assert_eq!(std::fs::read_dir(dir.join("replays")).unwrap().count(), 1);
    h.run();
    assert_eq!(std::fs::read_dir(dir.join("replays")).unwrap().count(), 1, "kept once");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_night_that_does_not_match_the_commitment_is_not_kept() {
    // The lobby committed to another seed than the night's.
    let (app, dir) = handed_a_night("mismatch", None);
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label_contains("This night could not be kept").is_some());
    assert!(!dir.join("replays").exists() || std::fs::read_dir(dir.join("replays")).unwrap().count() == 0);
    let _ = std::fs::remove_dir_all(&dir);
}

// Entenrallye at a table over the wire: Practice picks it, its lobby sets its options, and
// its screen offers what the host's legal list holds and sends what is clicked.

use bolide_client::lang::Lang;
use entenrallye::{Entenrallye, Rallye};

type EnteCommand = CommandOf<Entenrallye>;

/// Anne at seat 0 of an Entenrallye table with Bob and a bot; once started, a year dealt from
/// seed 7 at its first turn (Anne's), as the host would show it.
fn ente_seated(started: bool, lang: Lang) -> (BolideApp, LiveOf<Entenrallye>, UnboundedReceiver<EnteCommand>, Rallye) {
    let (live, commands) = LiveOf::<Entenrallye>::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    live.set_link(Link::Connected);
    let game = Rallye::new(entenrallye::Settings::default(), 3, 7, &mut Vec::new()).unwrap();
    {
        let mut state = live.state();
        state.welcome(Some(Seat(0)), None, bolide_table::wire::BeatSchedule::Steady);
        let seat = |i: u8, name: &str, colour, bot| lobby_seat(i, name, colour, bot, started);
        let mut seats = vec![seat(0, "Anne", Colour::Rouge, false), seat(1, "Bob", Colour::Jaune, false)];
        if started {
            seats.push(seat(2, "Bot 1", Colour::Vert, true));
        }
        let settings = entenrallye::Lobby { bots: 1, ..Default::default() };
        state.mirror.lobby = Some(lobby_of(seats, settings, started, Some(Seat(0))));
        if started {
            show_ente(&mut state.mirror, &game);
        }
    }
    let prefs = Prefs { name: "Anne".into(), lang: Some(lang), ..Prefs::default() };
    let mut app = BolideApp::with(prefs, None, None).unwrap().dry_run();
    app.sit_entenrallye(live.clone(), None);
    (app, live, commands, game)
}

/// A seat of a lobby: ready once the game `started`; a bot is never connected.
fn lobby_seat(i: u8, name: &str, colour: Colour, bot: bool, started: bool) -> LobbySeat {
    LobbySeat { seat: Seat(i), name: name.into(), colour, bot, ready: started, connected: !bot, path: None }
}

/// What the host sends seat 0 of `game`: its view and legal actions.
fn show_ente(mirror: &mut bolide_client::state::MirrorOf<Entenrallye>, game: &Rallye) {
    mirror.view = Some(game.view(Some(Seat(0))));
    mirror.legal.clear();
    game.legal_into(Seat(0), &mut mirror.legal);
}

#[test]
fn entenrallye_practice_is_picked_under_practice_and_remembered() {
    let mut h = harness(app());
    h.run();
    h.query_all_by_label("Entenrallye").last().unwrap().click();
    h.run();
    assert_eq!(h.state().prefs().practice_game, "entenrallye", "the game is remembered");
    h.get_by_label("3").click();
    h.run();
    h.get_by_label("Practice").click();
    h.run();
    let intent = h.state().last_intent.clone();
    assert!(matches!(&intent, Some(Intent::Practice(ask)) if ask.game == "entenrallye" && ask.bots == 2), "{intent:?}");
}

#[test]
fn e_1_4_the_entenrallye_lobby_sets_who_starts_and_how_ties_end() {
    let (app, _live, mut commands, _) = ente_seated(false, Lang::En);
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().title_now(), "Bolide — Entenrallye — lobby");
    h.get_by_label("drawn").click();
    h.run();
    h.get_by_label("more meetings first").click();
    h.run();
    let sent = drain(&mut commands);
    let configured =
        |f: &dyn Fn(&entenrallye::Lobby) -> bool| sent.iter().any(|c| matches!(c, CommandOf::Configure(l) if f(l)));
    assert!(configured(&|l| l.settings.first_player == entenrallye::FirstPlayer::Random), "{sent:?}");
    assert!(configured(&|l| l.settings.ties == entenrallye::Ties::MeetingsFirst), "{sent:?}");
    // The first player may switch the table to either other game.
    h.get_by_label("Play Bolide at this table instead");
    h.get_by_label("Play 1000 Bornes at this table instead").click();
    h.run();
    assert!(drain(&mut commands).contains(&CommandOf::ChooseGame("mille-bornes".into())));
}

#[test]
fn e_4_1_the_screen_offers_the_roll_then_the_drives_and_sends_what_is_clicked() {
    let (app, live, mut commands, mut game) = ente_seated(true, Lang::En);
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().title_now(), "Bolide — Entenrallye — your turn");
    h.get_by_label("Roll the die (R)").click();
    h.run();
    let sent = drain(&mut commands);
    assert!(sent.iter().any(|c| matches!(c, CommandOf::Act { action: entenrallye::Action::Roll, .. })), "{sent:?}");
    // The host rolled: the drives the die allows are offered, the full one among them.
    let mut events = Vec::new();
    game.apply(Seat(0), entenrallye::Action::Roll, &mut events).unwrap();
    let Some(entenrallye::Event::Rolled { die, .. }) = events.first().cloned() else { panic!("{events:?}") };
    show_ente(&mut live.state().mirror, &game);
    h.run();
    // The square the full drive ends on is outlined; a click on it drives there (the only
    // way to end there: a square short of the die would spend the rest).
    // Squares go by the rules' words, never by the board's ids.
    let square = format!("grey road, {} before meeting 1", 18 - die);
    h.get_by_label(&format!("Drive {die} to {square}"));
    h.get_by_label(&square).click();
    h.run();
    let sent = drain(&mut commands);
    let drove = |c: &EnteCommand| matches!(c, CommandOf::Act { action: entenrallye::Action::Drive { squares, buy: false, repair: 0, .. }, .. } if *squares == die);
    assert!(sent.iter().any(drove), "{sent:?}");
    h.get_by_label_contains("Die: ");
}

#[test]
fn an_entenrallye_table_reads_in_french() {
    let (app, _live, _commands, _) = ente_seated(true, Lang::Fr);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Lancer le dé (R)");
    h.get_by_label("Le calendrier n'a pas commencé");
    h.get_by_label("À vous");
}

/// What a screen of `game` must never say: another game's banner, its people or its contest.
fn other_games_words(h: &Harness<'static, BolideApp>, game: &str) -> Vec<String> {
    let foreign = ["BOLIDE", "Pilot", "pilot", "championship", "Championship", "Pilote", "pilote", "championnat"];
    foreign
        .iter()
        .filter(|word| h.query_all_by_label_contains(word).next().is_some())
        .map(|w| format!("{game}: {w}"))
        .collect()
}

#[test]
fn each_game_s_table_shows_its_own_title_and_no_other_game_s_words() {
    let mut said = Vec::new();
    for (started, lang) in [(false, Lang::En), (true, Lang::En), (false, Lang::Fr), (true, Lang::Fr)] {
        let (app, _live, _commands, _) = ente_seated(started, lang);
        let mut h = harness(app);
        h.run();
        h.get_by_label("ENTENRALLYE");
        if !started {
            h.get_by_label(if lang == Lang::En { "Players" } else { "Joueurs" });
        }
        said.extend(other_games_words(&h, "Entenrallye"));
    }
    for started in [false, true] {
        // Six players: the lobby shows how the teams are made (M-2.3).
        let (app, _live, _commands) = mb_seated(started, 4);
        let mut h = harness(app);
        h.run();
        h.get_by_label("1000 BORNES");
        said.extend(other_games_words(&h, "1000 Bornes"));
    }
    assert!(said.is_empty(), "{said:?}");
    // Bolide's own table is Bolide's: its banner and its pilots.
    let (app, _live, _commands) = seated(false);
    let mut h = harness(app);
    h.run();
    h.get_by_label("BOLIDE");
    h.get_by_label("Pilots");
    assert!(h.query_all_by_label_contains("ENTENRALLYE").next().is_none());
    // A game over closes every table in its own words.
    let (app, live, _commands, _) = ente_seated(true, Lang::Fr);
    live.set_link(Link::Ended(bolide_client::live::Ended::GameOver));
    let mut h = harness(app);
    h.run();
    h.get_by_label("La partie est terminée.");
    assert!(other_games_words(&h, "Entenrallye").is_empty());
}

/// An Entenrallye table seen from seat 0: each car on its square with its parts fitted and
/// hidden, the calendar at `when`, and seat 0 to drive a `die`.
fn ente_arranged(cars: &[(&str, Vec<u8>, Vec<u8>)], when: (u8, u8), die: u8) -> (BolideApp, Rallye) {
    use entenrallye::rallye::CarSetup;
    let (live, _commands) = LiveOf::<Entenrallye>::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    live.set_link(Link::Connected);
    let players = cars.len() as u8;
    let mut game = Rallye::new(entenrallye::Settings::default(), players, 11, &mut Vec::new()).unwrap();
    let b = entenrallye::board();
    let parts = |ids: &[u8]| ids.iter().map(|i| entenrallye::Part(*i)).collect::<Vec<_>>();
    for (seat, (at, fitted, hidden)) in cars.iter().enumerate() {
        let setup =
            CarSetup { at: b.find(at), fitted: parts(fitted), hidden: parts(hidden), repair: 7, ..Default::default() };
        game.arrange_car(Seat(seat as u8), &setup).unwrap();
    }
    game.arrange_calendar(when.0, when.1).unwrap();
    game.arrange_turn(Seat(0)).unwrap();
    game.arrange_roll(Seat(0), die, &mut Vec::new()).unwrap();
    {
        let mut state = live.state();
        state.welcome(Some(Seat(0)), None, bolide_table::wire::BeatSchedule::Steady);
        let colours = [Colour::Rouge, Colour::Jaune, Colour::Vert, Colour::Bleu, Colour::Blanc, Colour::Noir];
        let seats = (0..players)
            .map(|i| lobby_seat(i, &format!("Player {}", i + 1), colours[usize::from(i)], false, true))
            .collect();
        state.mirror.lobby = Some(lobby_of(seats, entenrallye::Lobby::default(), true, Some(Seat(0))));
        show_ente(&mut state.mirror, &game);
    }
    let mut app = BolideApp::with(Prefs::default(), None, None).unwrap().dry_run();
    app.sit_entenrallye(live.clone(), None);
    (app, game)
}

/// The squares seat 0's drive may end on, each once.
fn drive_ends(game: &Rallye) -> Vec<entenrallye::Square> {
    let mut legal = Vec::new();
    game.legal_into(Seat(0), &mut legal);
    let mut ends: Vec<entenrallye::Square> = legal
        .iter()
        .filter_map(|a| if let entenrallye::Action::Drive { to, .. } = a { Some(*to) } else { None })
        .collect();
    ends.sort();
    ends.dedup();
    ends
}

/// Six cars spread over the year, seat 0 to drive a 5 with three hidden parts.
fn ente_six_mid_year() -> (BolideApp, Rallye) {
    let cars = [
        ("A12", vec![0, 13], vec![25, 38, 40]),
        ("M1", vec![], vec![]),
        ("B09", vec![1], vec![]),
        ("NT04", vec![], vec![]),
        ("C13", vec![26, 37], vec![]),
        ("M2", vec![], vec![2]),
    ];
    ente_arranged(&cars, (2, 3), 5)
}

#[test]
fn e_2_4_e_12_2_the_board_offers_both_branches_and_a_spur_and_names_every_place() {
    let w = bolide_client::lang::Lang::En.words();
    let words =
        |at: &str| bolide_client::games::entenrallye::board::square_words(entenrallye::board().find(at).unwrap(), w);
    // On the junction before M1 in January with a 3: the meeting's branch and the shortcut.
    let (app, _) = ente_arranged(&[("A14", vec![0], vec![]), ("NT02", vec![], vec![])], (1, 1), 3);
    let mut h = harness(app);
    h.run();
    h.get_by_label(&words("M1in3"));
    h.get_by_label(&words("K1_3"));
    assert_eq!(words("K1_3"), "shortcut, 12 before the TÜV");
    // The other car stands two squares behind the TÜV workshop; the card shows the fitted part.
    h.get_by_label("−2 behind the TÜV workshop");
    h.get_by_label_contains("front: 5/3 red");
    // On the last grey square before the TÜV's spur, owing it, with a 3: into the spur.
    let (app, _) = ente_arranged(&[("B08", vec![], vec![]), ("A01", vec![], vec![])], (12, 2), 3);
    let mut h = harness(app);
    h.run();
    h.get_by_label(&words("TU2"));
    assert_eq!(words("TU2"), "road to the TÜV, 1 before the TÜV");
    // December's last step: the calendar's two markers stand on December and step 2.
    h.get_by_label("December, step 2 of 2");
}

#[test]
fn e_14_5_the_entenrallye_board_at_6_cars_fits_from_720p_to_4k_with_nothing_overlapping() {
    let w = bolide_client::lang::Lang::En.words();
    for size in [[1280.0, 720.0], [1920.0, 1080.0], [3840.0, 2160.0]] {
        let (app, game) = ente_six_mid_year();
        let mut h = Harness::builder().with_size(size).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
        h.run_steps(2);
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size[0], size[1]));
        let ends = drive_ends(&game);
        assert!(ends.len() >= 3, "a 5 from A12 ends on several squares: {ends:?}");
        let squares: Vec<egui::Rect> = ends
            .iter()
            .map(|s| h.get_by_label(&bolide_client::games::entenrallye::board::square_words(*s, w)).rect())
            .collect();
        let cards: Vec<egui::Rect> = game.cars()[0]
            .hidden
            .iter()
            .map(|p| h.get_by_label(&bolide_client::games::entenrallye::board::part_name(*p, w)).rect())
            .collect();
        assert_eq!(cards.len(), 3, "{size:?}: the hand's three parts");
        for r in squares.iter().chain(&cards) {
            assert!(screen.contains_rect(*r), "{size:?}: {r:?} off the screen");
        }
        for (i, a) in squares.iter().chain(&cards).enumerate() {
            for b in squares.iter().chain(&cards).skip(i + 1) {
                assert!(!a.intersects(*b), "{size:?}: {a:?} over {b:?}");
            }
        }
        // The board's squares grow with the screen.
        let side = squares[0].width();
        assert!(side >= 16.0 * size[0] / 1280.0, "{size:?}: squares of {side} px");
    }
    // A hand of twelve parts scrolls sideways: the road keeps its place on a 720p screen.
    let hand: Vec<u8> = (20..32).collect();
    let (app, game) = ente_arranged(&[("A12", vec![], hand), ("A01", vec![], vec![])], (1, 1), 5);
    let mut h =
        Harness::builder().with_size([1280.0, 720.0]).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
    h.run_steps(2);
    let mut legal = Vec::new();
    game.legal_into(Seat(0), &mut legal);
    let Some(entenrallye::Action::Drive { to, .. }) =
        legal.iter().find(|a| matches!(a, entenrallye::Action::Drive { .. }))
    else {
        panic!("{legal:?}")
    };
    let square = h.get_by_label(&bolide_client::games::entenrallye::board::square_words(*to, w)).rect();
    assert!(square.bottom() < 720.0 * 2.0 / 3.0 + 60.0 && square.width() >= 16.0, "{square:?}");
}

/// One product: the three games' screens share one look — the status line's lead, the side
/// panel's section titles, the log under its title and the players' panels, in one type.
#[test]
fn the_three_games_share_one_look() {
    let w = bolide_client::lang::Lang::En.words();
    let (app, live, _commands) = seated(true);
    set_view(&live, my_turn(TurnStep::Moving), vec![]);
    let mut bolide = harness(app);
    let mut mb = harness(mb_eight_players_mid_hand(self::app()));
    let mut ente = harness(ente_six_mid_year().0);
    for h in [&mut bolide, &mut mb, &mut ente] {
        h.run_steps(2);
    }
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    let rect = |h: &Harness<'static, BolideApp>, label: &str| {
        let node = h.get_by_label(label);
        assert!(screen.contains_rect(node.rect()), "{label}: {:?} off the screen", node.rect());
        node.rect()
    };
    // The status line's lead: the moment of each game.
    let leads = [
        rect(&bolide, &(w.race_round)(1, 3, 1)),
        rect(&mb, &(w.mb_hand_n)(1)),
        rect(&ente, &(w.ente_calendar)(w.ente_months[1], 3, 6)),
    ];
    // Each game's log under the same title, and a section title of its side panel.
    let logs = [rect(&bolide, w.what_happened), rect(&mb, w.what_happened), rect(&ente, w.what_happened)];
    let sections = [rect(&bolide, w.pilots), rect(&mb, w.mb_discard_pile), logs[2]];
    // A player's panel's title: a 1000 Bornes team, an Entenrallye player.
    let mine = mb.query_all_by_label_contains(w.you_mark).next().map(|n| n.rect());
    let players = [mine.expect("your team's tableau"), rect(&ente, "Player 2")];
    for (what, rects) in [("leads", &leads[..]), ("log titles", &logs), ("sections", &sections), ("players", &players)]
    {
        let heights: Vec<f32> = rects.iter().map(|r| r.height()).collect();
        assert!(heights.iter().all(|h| (h - heights[0]).abs() < 0.5), "{what}: {heights:?}");
    }
}

/// E-5 on a phone held upright (390×844): the road keeps squares a thumb can tap and scrolls to
/// your car, so every square your drive may end on is on the page, none over another.
#[test]
fn e_5_on_a_phone_the_road_scrolls_to_your_car_with_squares_a_thumb_can_tap() {
    let w = bolide_client::lang::Lang::En.words();
    let (app, game) = ente_six_mid_year();
    let mut h =
        Harness::builder().with_size([390.0, 844.0]).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
    h.run_steps(4);
    let page = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(390.0, 844.0));
    let ends = drive_ends(&game);
    assert!(ends.len() >= 3, "{ends:?}");
    let squares: Vec<egui::Rect> = ends
        .iter()
        .map(|s| h.get_by_label(&bolide_client::games::entenrallye::board::square_words(*s, w)).rect())
        .collect();
    for (i, r) in squares.iter().enumerate() {
        assert!(r.width() >= 20.0, "a square of {} px", r.width());
        assert!(page.contains_rect(*r), "{r:?} off the page");
        for b in &squares[i + 1..] {
            assert!(!r.intersects(*b), "{r:?} over {b:?}");
        }
    }
}

/// M-14 on a phone held upright (390×844): each of the lobby's choices has a place of its own,
/// on the page (in a grid, choices that wrapped ran over the next setting's).
#[test]
fn m_14_on_a_phone_the_lobby_s_choices_each_have_a_place_of_their_own() {
    let (app, _live, _commands) = mb_seated(false, 1);
    let mut h =
        Harness::builder().with_size([390.0, 844.0]).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
    h.run_steps(4);
    h.get_by_label("5 hands");
    let taps: Vec<(String, egui::Rect)> = [egui::accesskit::Role::Button, egui::accesskit::Role::CheckBox]
        .into_iter()
        .flat_map(|role| h.query_all_by_role(role).map(|n| (format!("{n:?}"), n.rect())).collect::<Vec<_>>())
        .collect();
    assert!(taps.len() >= 15, "{} widgets", taps.len());
    for (i, (a, r)) in taps.iter().enumerate() {
        assert!(r.left() >= 0.0 && r.right() <= 390.0, "{a} off the page: {r:?}");
        for (b, s) in &taps[i + 1..] {
            assert!(!r.shrink(2.0).intersects(s.shrink(2.0)), "{a} at {r:?} over {b} at {s:?}");
        }
    }
}

/// M-5 on a phone held upright (390×844): a card picked puts its plays and Discard on the page
/// in the very frame that answers the tap (a panel sized by the frame before ran them past its
/// bottom edge until something else drew a frame), and the hand's cards stay in the page's
/// width with a long turn line above them.
#[test]
fn m_5_on_a_phone_the_hand_and_a_picked_card_s_plays_stay_on_the_page() {
    let (app, live, _commands) = mb_seated(true, 2);
    let mut events = Vec::new();
    let partie = mille_bornes::Partie::new(mille_bornes::Settings::default(), 3, 5, &mut events).unwrap();
    let mille_bornes::Phase::Turn { seat } = partie.manche().phase() else { panic!("no turn") };
    let view = partie.view(Some(seat));
    {
        let mut state = live.state();
        state.mirror.seat = Some(seat);
        state.mirror.view = Some(view.clone());
        state.mirror.legal = partie.legal_actions(seat);
    }
    let mut h =
        Harness::builder().with_size([390.0, 844.0]).build_ui_state(|ui, app: &mut BolideApp| app.show(ui), app);
    h.run();
    h.get_by_label("Your turn");
    for card in &view.hand {
        h.query_all_by_label(card.name()).find(|n| n.rect().height() > 90.0).unwrap().click();
        h.step();
        let discard = h.get_by_label("Discard (D)").rect();
        assert!(discard.bottom() <= 844.0 && discard.right() <= 390.0, "{card:?}: Discard at {discard:?}");
    }
    // In French, the bot's countdown and a refusal beside "À vous": the line wraps, and the
    // hand's cards stay in the page's width (a line that ran off widened the panel under it).
    h.state_mut().set_lang(bolide_client::lang::Lang::Fr);
    {
        let mut state = live.state();
        state.mirror.deadline_at_us = Some(live.now_us() + 12_000_000);
        state.mirror.refusal = Some("Cette carte ne se joue pas ici : choisissez-en une autre".into());
    }
    h.run();
    h.get_by_label("À vous de jouer");
    let mut cards = 0;
    for card in &view.hand {
        for node in h.query_all_by_label(card.name()).filter(|n| n.rect().height() > 90.0) {
            assert!(node.rect().right() <= 390.0, "{card:?} at {:?}: off the page's side", node.rect());
            cards += 1;
        }
    }
    assert!(cards >= view.hand.len(), "the hand's {} cards, {cards} seen", view.hand.len());
}
