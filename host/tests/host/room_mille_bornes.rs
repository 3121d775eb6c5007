//! 1000 Bornes served by the same room as Bolide (sans-I/O, synthetic times): the table's
//! lobby, seats, stand-in bots, time limits, Coup-Fourré windows judged as timed moments,
//! journal and resume — none of it written for this game.

use bolide_host::room::{JournalEntryOf, OutputOf, RoomConfigOf, RoomOf};
use bolide_table::wire::{BeatSchedule, ClientMsgOf, DatagramOf, Hello, ServerMsgOf};
use bolide_table::{BotLevel, Seat};
use mille_bornes::options::GameMode;
use mille_bornes::{Event, Lobby, MilleBornes, Partie, RuleError, Settings};

use crate::common::{self, events_to, journal, run};

/// A room of one pilot (Anne, connection 1) and three bots, started.
fn started(seed: u64) -> (RoomOf<Partie>, Vec<Output>) {
    common::started::<Partie>(config(seed), "GARE")
}

type Output = OutputOf<MilleBornes>;

/// A laptop's hello at the table `config` opens (its word is GARE).
fn hello(name: &str, watch: bool) -> Hello {
    Hello { watch, ..Hello::new("GARE", name) }
}

fn config(seed: u64) -> RoomConfigOf<Lobby> {
    let game = Settings { mode: GameMode::Hands { hands: 1 }, window_ms: 2000, ..Settings::default() };
    let lobby = Lobby { game, bots: 3, bot_level: BotLevel::Strategic, places: Vec::new() };
    let mut config = RoomConfigOf::new("GARE", lobby, seed);
    (config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (5, 20, 20);
    config
}

/// A pilot and three host bots: the pilot lets every time limit pass, its stand-in plays,
/// and the hand is played to the standings with Coup-Fourré windows opened and closed by
/// the table's timers.
#[test]
fn m_13_3_a_whole_game_of_one_hand_through_the_table_s_room() {
    let ((mut room, mut out), mut now) = (started(7), 0);
    assert!(room.game().is_some(), "one person ready and three bots: the game starts");
    run(&mut room, &mut now, &mut out, |_| false);
    let events = events_to(&out, 1);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::HandEnded { .. })).count(), 1, "one hand");
    assert!(events.contains(&Event::GameOver));
    assert!(events.iter().any(|e| matches!(e, Event::WindowOpened { .. })), "no attack in a whole hand?");
    // Anne's copy of another seat's draw never names the card (M-3.4).
    assert!(events.iter().all(|e| !matches!(e, Event::Drew { seat, card: Some(_) } if *seat != Seat(0))));
    // M-15.1: each window is a timed moment of the table: its news leave with their datagram
    // twin, and the table's clock closes it (journaled, so a resume closes it again).
    let twins = out
        .iter()
        .filter(|o| {
            let twin =
                |d: &DatagramOf<MilleBornes>| matches!(d, DatagramOf::Twin { twin: Event::WindowOpened { .. }, .. });
            matches!(o, OutputOf::DatagramAt { conn: 1, datagram, .. } if twin(datagram))
        })
        .count();
    let windows = events.iter().filter(|e| matches!(e, Event::WindowOpened { .. })).count();
    assert_eq!(twins, windows, "one twin per window");
    let closed = journal(&out).iter().filter(|e| matches!(e, JournalEntryOf::TimeUp)).count();
    let stood = events.iter().filter(|e| matches!(e, Event::AttackStands { .. })).count();
    assert_eq!(closed, stood, "every window nobody answered was closed by the table's clock");
    let finished = out.iter().any(|o| matches!(o, OutputOf::Send { conn: 1, msg: ServerMsgOf::Finished { .. } }));
    assert!(finished, "the standings reach the pilot");
}

/// `kill -9` in the middle of a hand: the journal rebuilds the same game, and it goes on to
/// the same end as the room that never stopped.
#[test]
fn a_1000_bornes_room_resumes_from_its_journal() {
    let ((mut room, mut out), mut now) = (started(11), 0);
    run(&mut room, &mut now, &mut out, |out| journal(out).len() > 60);
    let entries = journal(&out);
    assert!(entries.len() > 60, "{} entries", entries.len());
    let resumed = RoomOf::<Partie>::resume(config(11), 2, &entries, now).expect("the journal replays");
    let (a, b) = (room.game().unwrap(), resumed.game().unwrap());
    assert_eq!(a.view(None), b.view(None), "the same table after the replay");
    assert_eq!(a.view(Some(Seat(2))), b.view(Some(Seat(2))), "the same hands");
    let mut resumed = resumed;
    let mut out2 = Vec::new();
    run(&mut resumed, &mut now, &mut out2, |_| false);
    assert!(resumed.is_finished(), "the resumed game reaches its end");
    // A refusal from this game is its own rule error, and the table's are carried in it.
    let refused: RuleError = bolide_table::TableRefusal::Spectator.into();
    assert!(refused.to_string().starts_with("spectators watch"));
}

/// M-15.12: a seat that is not connected cannot call — no stand-in calls for it, though it
/// holds the safety — and the window closes on the table's clock as any other.
#[test]
fn m_15_12_an_absent_seat_cannot_call_and_no_stand_in_calls_for_it() {
    let mut met = 0;
    for seed in 1..40 {
        let ((mut room, mut out), mut now) = (started(seed), 0);
        room.gone(0, 1, &mut out);
        let mut holding = false;
        while !room.is_finished() {
            let Some(at) = room.next_deadline() else { break };
            now = now.max(at);
            room.tick(now, &mut out);
            let Some(partie) = room.game() else { continue };
            let m = partie.manche();
            if let mille_bornes::Phase::Window { side, attack, .. } = m.phase()
                && m.side_of(Seat(0)) == side
                && m.hand(Seat(0)).is_some_and(|h| h.get(attack.safety().card()) > 0)
            {
                holding = true;
            }
        }
        let called = journal(&out)
            .iter()
            .any(|e| matches!(e, JournalEntryOf::Applied { seat: Seat(0), action: mille_bornes::Action::CoupFourre }));
        assert!(!called, "seed {seed}: a Coup-Fourré was called for the absent seat");
        met += usize::from(holding);
        if met >= 3 {
            return;
        }
    }
    panic!("only {met} games where the absent seat held the safety when attacked: try more seeds");
}

/// M-5.7: the table's turn timer — off, the table's own time limit; 30 or 60 s, that long
/// before the seat's bot plays its turn.
#[test]
fn m_5_7_the_turn_timer_is_how_long_a_turn_waits_for_its_player() {
    let deadlines = |turn_timer_s: u16| {
        let mut config = config(5);
        config.settings.game.turn_timer_s = turn_timer_s;
        config.turn_timeout_ms = 7_000;
        let mut room = RoomOf::<Partie>::new(config, 1);
        let mut out = Vec::new();
        let hello = hello("Anne", false);
        room.hello(0, 1, hello, BeatSchedule::WhileActing, &mut out);
        room.message(0, 1, ClientMsgOf::Ready(true), &mut out);
        let mut now = 0;
        run(&mut room, &mut now, &mut out, |out| {
            out.iter().any(|o| matches!(o, OutputOf::Send { conn: 1, msg: ServerMsgOf::Update { legal, .. } } if !legal.is_empty()))
        });
        out.iter()
            .find_map(|o| match o {
                OutputOf::Send { conn: 1, msg: ServerMsgOf::Update { legal, deadline_ms, .. } }
                    if !legal.is_empty() =>
                {
                    Some(*deadline_ms)
                }
                _ => None,
            })
            .flatten()
    };
    assert_eq!(deadlines(0), Some(7_000), "off: the table's own time limit");
    assert_eq!(deadlines(30), Some(30_000));
    assert_eq!(deadlines(60), Some(60_000));
}

/// M-15.5: a call from a seat of the attacked side that does not hold the safety is refused
/// to that laptop alone; nothing is broadcast and the window goes on to its end.
#[test]
fn m_15_5_a_call_without_the_safety_is_refused_to_that_laptop_alone() {
    for seed in 1..40 {
        let ((mut room, mut out), mut now) = (started(seed), 0);
        while !room.is_finished() {
            let Some(at) = room.next_deadline() else { break };
            now = now.max(at);
            room.tick(now, &mut out);
            let Some(partie) = room.game() else { continue };
            let m = partie.manche();
            let mille_bornes::Phase::Window { side, attack, .. } = m.phase() else { continue };
            if m.side_of(Seat(0)) != side || m.hand(Seat(0)).is_some_and(|h| h.get(attack.safety().card()) > 0) {
                continue;
            }
            let before = out.len();
            let call = ClientMsgOf::Timed {
                seq: 900,
                action: mille_bornes::Action::CoupFourre,
                shown_us: now.saturating_sub(50_000),
                input_us: now,
            };
            room.message(now, 1, call, &mut out);
            // Let the table judge it (its verdict may wait for the beats of the others).
            let until = now + 1_000_000;
            while room.next_deadline().is_some_and(|at| at <= until)
                && !out[before..]
                    .iter()
                    .any(|o| matches!(o, OutputOf::Send { msg: ServerMsgOf::ActRefused { .. }, .. }))
            {
                now = now.max(room.next_deadline().unwrap_or(until));
                room.tick(now, &mut out);
            }
            let refusals: Vec<_> = out[before..]
                .iter()
                .filter_map(|o| match o {
                    OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { seq, error } } => {
                        Some((*conn, *seq, error.clone()))
                    }
                    _ => None,
                })
                .collect();
            assert!(
                matches!(refusals[..], [(1, 900, RuleError::SafetyNotHeld { .. })]),
                "seed {seed}: refused to that laptop alone: {refusals:?}"
            );
            let laid = journal(&out).iter().any(|e| {
                matches!(e, JournalEntryOf::Applied { seat: Seat(0), action: mille_bornes::Action::CoupFourre })
            });
            assert!(!laid, "nothing is laid for it");
            return;
        }
    }
    panic!("no window on the pilot's side without the safety in 39 games");
}

/// Anne (connection 1) at a table that waits for her: she plays her turns at once (the first
/// legal action), so she is never played by a stand-in, and she beats in windows on her side.
struct Anne {
    seq: u32,
}

impl Anne {
    /// Plays Anne's turn if it is hers.
    fn plays(&mut self, room: &mut RoomOf<Partie>, now: u64, out: &mut Vec<Output>) {
        use bolide_table::{Game, Step};
        let Some(game) = room.game() else { return };
        let Step::Sequential { seats } = game.step() else { return };
        if !seats.contains(Seat(0)) {
            return;
        }
        let mut legal = Vec::new();
        game.legal(Seat(0), &mut legal);
        let Some(&action) = legal.first() else { return };
        self.seq += 1;
        room.message(now, 1, ClientMsgOf::Act { seq: self.seq, action, at_us: None }, out);
    }

    /// A beat at `t` on Anne's clock (the host's: no probe tells them apart), having shown
    /// the window `moment` at `shown`.
    fn beats(&self, room: &mut RoomOf<Partie>, t: u64, (moment, shown): (u64, u64), out: &mut Vec<Output>) {
        let shown = Some(bolide_table::wire::Shown { moment, at_us: shown });
        room.message(t, 1, ClientMsgOf::Heartbeat { now_us: t, shown, acts: self.seq, dense: true }, out);
    }

    /// Anne calls Coup-Fourré in `w`: her input at `input` on her clock, heard at `heard`.
    fn calls(&mut self, room: &mut RoomOf<Partie>, w: &OnAnnesSide, input: u64, heard: u64, out: &mut Vec<Output>) {
        self.seq += 1;
        let action = mille_bornes::Action::CoupFourre;
        room.message(heard, 1, ClientMsgOf::Timed { seq: self.seq, action, shown_us: w.opens, input_us: input }, out);
    }

    /// Anne's beats every 10 ms from the instant `w` is shown until `until` (excluded).
    fn beats_through(&self, room: &mut RoomOf<Partie>, w: &OnAnnesSide, until: u64, out: &mut Vec<Output>) {
        for t in (w.opens..until).step_by(10_000) {
            self.beats(room, t, (w.moment, w.opens), out);
        }
    }
}

/// A window opened on Anne's side (from the room's log): its name, when it is shown, its
/// length, and whether Anne holds the safety that answers it — in a game where no host bot
/// on her side holds it (it would call, M-15.11).
struct OnAnnesSide {
    moment: u64,
    opens: u64,
    window: u64,
    anne_holds: bool,
}

/// Plays (Anne acting on her turns) until a window opens on Anne's side that `wanted`.
fn window_on_annes_side(
    room: &mut RoomOf<Partie>,
    anne: &mut Anne,
    now: &mut u64,
    out: &mut Vec<Output>,
    wanted: impl Fn(&OnAnnesSide) -> bool,
) -> Option<OnAnnesSide> {
    use bolide_host::room::moment_log::MomentLine;
    while !room.is_finished() {
        anne.plays(room, *now, out);
        let before = out.len();
        let at = room.next_deadline()?;
        *now = (*now).max(at);
        room.tick(*now, out);
        let opened = out[before..].iter().find_map(|o| match o {
            OutputOf::Moment(MomentLine::Opened { moment, opens_us, window_us: Some(w), contenders, .. })
                if contenders.contains(Seat(0)) =>
            {
                Some((*moment, *opens_us, *w, *contenders))
            }
            _ => None,
        });
        let Some((moment, opens, window, contenders)) = opened else { continue };
        let m = room.game()?.manche();
        let mille_bornes::Phase::Window { attack, .. } = m.phase() else { continue };
        let holds = |s: Seat| m.hand(s).is_some_and(|h| h.get(attack.safety().card()) > 0);
        if contenders.iter().any(|s| s != Seat(0) && holds(s)) {
            continue;
        }
        let window = OnAnnesSide { moment, opens, window, anne_holds: holds(Seat(0)) };
        if wanted(&window) {
            return Some(window);
        }
    }
    None
}

fn moment_lines(out: &[Output], moment: u64) -> Vec<bolide_host::room::moment_log::MomentLine<MilleBornes>> {
    out.iter()
        .filter_map(|o| match o {
            OutputOf::Moment(line) if line.moment() == moment => Some(line.clone()),
            _ => None,
        })
        .collect()
}

fn in_window(room: &RoomOf<Partie>) -> bool {
    room.game().is_some_and(|g| matches!(g.manche().phase(), mille_bornes::Phase::Window { .. }))
}

/// A window on Anne's side in which she beats every 10 ms from the instant it is shown, and
/// never calls, to its close: the window, its log, and the room after it.
fn a_window_anne_lets_pass(
    seed: u64,
) -> (OnAnnesSide, Vec<bolide_host::room::moment_log::MomentLine<MilleBornes>>, RoomOf<Partie>) {
    let ((mut room, mut out), mut now) = (started(seed), 0);
    let mut anne = Anne { seq: 0 };
    let w = window_on_annes_side(&mut room, &mut anne, &mut now, &mut out, |_| true)
        .expect("a window on Anne's side in one hand");
    let mut t = w.opens;
    while in_window(&room) && t <= w.opens + w.window + 1_100_000 {
        while room.next_deadline().is_some_and(|at| at <= t) {
            room.tick(t, &mut out);
        }
        if in_window(&room) {
            anne.beats(&mut room, t, (w.moment, w.opens), &mut out);
        }
        t += 10_000;
    }
    let lines = moment_lines(&out, w.moment);
    (w, lines, room)
}

/// M-15.7: the window closes as soon as every connected laptop of the attacked side is done
/// — its own countdown over, vouched by its beats — within a beat of its length, well before
/// the hard deadline; whatever Anne holds, nothing is told to her.
#[test]
fn m_15_7_the_window_closes_once_every_laptop_is_done() {
    use bolide_host::room::moment_log::{ClosedBy, MomentLine};
    let (w, lines, _) = a_window_anne_lets_pass(21);
    let closed = lines.iter().find_map(|l| match l {
        MomentLine::Closed { by, at_us, .. } => Some((*by, *at_us)),
        _ => None,
    });
    let (by, at) = closed.expect("the window closed");
    assert_eq!(by, ClosedBy::EveryoneDone, "{lines:?}");
    assert!(at >= w.opens + w.window, "never before its length");
    assert!(at <= w.opens + w.window + 10_000, "within a beat of Anne's countdown, not at the grace's end");
    assert!(!lines.iter().any(|l| matches!(l, MomentLine::Refused { .. })), "nothing refused: she never called");
}

/// M-15.14: the host's log of a window has its opening (the attack, its target side, T0), each
/// laptop's "shown" (s, on its clock) and "done", and why and when it closed.
#[test]
fn m_15_14_the_host_logs_the_window_s_opening_each_shown_and_done_and_its_close() {
    use bolide_host::room::moment_log::MomentLine;
    let (w, lines, room) = a_window_anne_lets_pass(21);
    let opened = lines.iter().find_map(|l| match l {
        MomentLine::Opened { decided_us, news: Some(Event::WindowOpened { side, .. }), .. } => {
            Some((*decided_us, *side))
        }
        _ => None,
    });
    let (decided, side) = opened.expect("the opening names the attack and its target side");
    assert!(decided <= w.opens, "T0 is when the host sent it, before it is shown");
    assert_eq!(side, room.game().unwrap().manche().side_of(Seat(0)));
    let shown = MomentLine::Shown { moment: w.moment, seat: Seat(0), shown_us: w.opens, heard_us: w.opens };
    assert!(lines.contains(&shown), "{lines:?}");
    let done = |l: &MomentLine<MilleBornes>| matches!(l, MomentLine::Done { seat: Seat(0), heard_us, .. } if *heard_us >= w.opens + w.window);
    assert!(lines.iter().any(done), "{lines:?}");
    assert!(matches!(lines.last(), Some(MomentLine::Closed { .. })), "the close is its last line");
}

/// M-15.7: a laptop that goes silent in the window holds it to the hard deadline — its
/// length and the grace, T0 + W + G — and no later.
#[test]
fn m_15_7_a_silent_laptop_holds_the_window_to_its_hard_deadline() {
    use bolide_host::room::moment_log::{ClosedBy, MomentLine};
    let ((mut room, mut out), mut now) = (started(21), 0);
    let mut anne = Anne { seq: 0 };
    let w = window_on_annes_side(&mut room, &mut anne, &mut now, &mut out, |_| true)
        .expect("a window on Anne's side in one hand");
    // Anne beats for half a second, then nothing.
    for t in (w.opens..w.opens + 500_000).step_by(10_000) {
        anne.beats(&mut room, t, (w.moment, w.opens), &mut out);
    }
    while in_window(&room) {
        let at = room.next_deadline().expect("the window has a deadline");
        room.tick(at, &mut out);
    }
    let closed = moment_lines(&out, w.moment).into_iter().find_map(|l| match l {
        MomentLine::Closed { by, at_us, .. } => Some((by, at_us)),
        _ => None,
    });
    let grace = bolide_host::room::WINDOW_GRACE_US;
    assert_eq!(closed, Some((ClosedBy::Deadline, w.opens + w.window + grace)));
}

/// M-15.6: a call is valid only within the window's length on the caller's own screen: one
/// made after it is refused to that laptop alone — though it holds the safety and the window
/// is still open for the host — and kept in the host's log only (M-15.14).
#[test]
fn m_15_6_a_call_after_the_caller_s_own_countdown_is_refused() {
    use bolide_host::room::moment_log::MomentLine;
    let (seed, mut room, mut out, mut anne, w) = a_window_anne_holds();
    {
        // Anne beats through most of her countdown, then calls 1 ms after it ended.
        anne.beats_through(&mut room, &w, w.opens + w.window - 100_000, &mut out);
        let input = w.opens + w.window + 1_000;
        while room.next_deadline().is_some_and(|at| at <= input + 1_000) {
            room.tick(input + 1_000, &mut out);
        }
        assert!(in_window(&room), "seed {seed}: the window waits for Anne, who is not done");
        let before = out.len();
        anne.calls(&mut room, &w, input, input + 1_000, &mut out);
        let told: Vec<_> = out[before..]
            .iter()
            .filter_map(|o| match o {
                OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { error, .. } } => Some((*conn, error.clone())),
                _ => None,
            })
            .collect();
        let late = RuleError::Table(bolide_table::TableRefusal::OutOfTime);
        assert_eq!(told, [(1, late.clone())], "seed {seed}: told to Anne alone");
        let logged = moment_lines(&out, w.moment)
            .into_iter()
            .any(|l| matches!(l, MomentLine::Refused { seat: Seat(0), error, .. } if error == late));
        assert!(logged, "the refusal is in the host's log");
        let laid = journal(&out)
            .iter()
            .any(|e| matches!(e, JournalEntryOf::Applied { seat: Seat(0), action: mille_bornes::Action::CoupFourre }));
        assert!(!laid, "nothing is laid");
    }
}

/// The first game (seeds 1 to 59) with a window on Anne's side in which she holds the safety
/// (and no host bot of her side does): its seed, the room in that window, its output, Anne.
fn a_window_anne_holds() -> (u64, RoomOf<Partie>, Vec<Output>, Anne, OnAnnesSide) {
    for seed in 1..60 {
        let ((mut room, mut out), mut now) = (started(seed), 0);
        let mut anne = Anne { seq: 0 };
        if let Some(w) = window_on_annes_side(&mut room, &mut anne, &mut now, &mut out, |w| w.anne_holds) {
            return (seed, room, out, anne, w);
        }
    }
    panic!("Anne never held the safety of an attack on her side in 59 games");
}

/// M-15.9: a valid call in time is laid, and every laptop is told who called and the reaction
/// the table judged — from the frame that drew the attack to the call, on the caller's clock
/// as far as its path lets the host believe it.
#[test]
fn m_15_9_a_valid_call_is_published_with_its_reaction() {
    let (seed, mut room, mut out, mut anne, w) = a_window_anne_holds();
    {
        // Anne sees the attack at `opens` and calls 412 ms later, beating meanwhile.
        let input = w.opens + 412_000;
        anne.beats_through(&mut room, &w, input, &mut out);
        let before = out.len();
        anne.calls(&mut room, &w, input, input, &mut out);
        let until = input + 1_000_000;
        while in_window(&room) && room.next_deadline().is_some_and(|at| at <= until) {
            let at = room.next_deadline().unwrap_or(until);
            anne.beats(&mut room, at, (w.moment, w.opens), &mut out);
            room.tick(at, &mut out);
        }
        // What the table judged (its fairness record): 412 ms as Anne stamped it, or more
        // where her path (no clock probes here) let the host believe less of her `shown`.
        let judged = out[before..].iter().find_map(|o| match o {
            OutputOf::Fair(f) if f.seat == Seat(0) && f.granted => Some(f.reaction_us),
            _ => None,
        });
        let judged = judged.expect("the call is judged");
        assert!(judged >= 412_000, "seed {seed}: never less than Anne stamped");
        let told = events_to(&out[before..], 1);
        let called = told.iter().position(|e| matches!(e, Event::CoupFourre { seat: Seat(0), .. }));
        let published = Event::Reaction { seat: Seat(0), reaction_us: judged as u32 };
        let reaction = told.iter().position(|e| *e == published);
        assert!(called.is_some(), "seed {seed}: the call is laid: {told:?}");
        assert!(reaction > called, "seed {seed}: then its reaction is told: {told:?}");
    }
}

/// A room of six (Anne, connection 1, and five bots) with these teams, started: where Anne
/// sits, as the lobby tells her and the journal keeps it.
fn seated_at_six(teams: mille_bornes::options::TeamMaking, places: Vec<u8>, entropy: u64) -> (Seat, Seat) {
    let game = Settings { mode: GameMode::Hands { hands: 1 }, teams, ..Settings::default() };
    let lobby = Lobby { game, bots: 5, bot_level: BotLevel::Strategic, places };
    let mut config = RoomConfigOf::new("GARE", lobby, 3);
    (config.bot_delay_ms, config.turn_timeout_ms, config.moment_timeout_ms) = (5, 20, 20);
    let mut room = RoomOf::<Partie>::new(config, entropy);
    let mut out = Vec::new();
    let hello = hello("Anne", false);
    room.hello(0, 1, hello, BeatSchedule::WhileActing, &mut out);
    room.message(0, 1, ClientMsgOf::Ready(true), &mut out);
    let told = out.iter().rev().find_map(|o| match o {
        OutputOf::Send { conn: 1, msg: ServerMsgOf::Lobby(lobby) } if lobby.started => lobby.you,
        _ => None,
    });
    let journaled = journal(&out).iter().find_map(|e| match e {
        JournalEntryOf::Started { seats, .. } => seats.iter().position(|s| s.name == "Anne"),
        _ => None,
    });
    (told.expect("the started lobby says where Anne sits"), Seat(journaled.expect("Anne in the journal") as u8))
}

/// M-2.3: at 6 players partners sit opposite; the table seats everyone where the first pilot
/// placed them — Anne, who came first, at place 2 here — or draws the teams, and the lobby and
/// the journal say the same. A seating that is not one, or too long for a table, is not used.
#[test]
fn m_2_3_the_table_seats_the_teams_placed_or_drawn() {
    use mille_bornes::options::TeamMaking::{HostAssigns, Random};
    assert_eq!(seated_at_six(HostAssigns, vec![1, 0, 2, 3, 4, 5], 1), (Seat(1), Seat(1)));
    assert_eq!(seated_at_six(HostAssigns, vec![5, 4, 3, 2, 1, 0], 1), (Seat(5), Seat(5)));
    assert_eq!(seated_at_six(HostAssigns, vec![0, 0, 2, 3, 4, 5], 1), (Seat(0), Seat(0)), "not a seating");
    let drawn: std::collections::BTreeSet<Seat> = (1..30)
        .map(|entropy| {
            let (told, journaled) = seated_at_six(Random, Vec::new(), entropy);
            assert_eq!(told, journaled);
            told
        })
        .collect();
    assert!(drawn.len() >= 4, "drawn teams put Anne at many places: {drawn:?}");
    // The first pilot cannot send a seating longer than any table (a lobby goes to everyone).
    let (mut room, mut out) = (RoomOf::<Partie>::new(config(1), 2), Vec::new());
    let hello = hello("Anne", false);
    room.hello(0, 1, hello, BeatSchedule::WhileActing, &mut out);
    let too_long = Lobby { places: (0..200).collect(), ..config(1).settings };
    room.message(0, 1, ClientMsgOf::Configure(too_long), &mut out);
    let refused = out.iter().any(|o| {
        matches!(o, OutputOf::Send { conn: 1, msg: ServerMsgOf::LobbyRefused { reason } } if reason.starts_with("M-2.3"))
    });
    assert!(refused, "refused in words that name the rule");
}

/// M-5.7 on every screen: while a person's turn waits, every laptop — a spectator's too — is
/// told whose it is and how long before a bot plays it; a host bot's thinking is nobody's wait.
#[test]
fn m_5_7_every_screen_is_told_whose_turn_waits_and_for_how_long() {
    let (mut room, mut out) = started(4);
    let hello = hello("Zoé", true);
    room.hello(0, 2, hello, BeatSchedule::WhileActing, &mut out);
    let mut now = 0;
    let awaited: Vec<Option<(Seat, u32)>> = {
        run(&mut room, &mut now, &mut out, |out| out.len() > 400);
        out.iter()
            .filter_map(|o| match o {
                OutputOf::Send { conn: 2, msg: ServerMsgOf::Update { awaited, .. } } => Some(*awaited),
                _ => None,
            })
            .collect()
    };
    assert!(awaited.iter().all(|a| a.is_none_or(|(seat, ms)| seat == Seat(0) && ms <= 20)), "{awaited:?}");
    assert!(awaited.iter().any(Option::is_some), "Anne's turns are told to the spectator");
    assert!(awaited.iter().any(Option::is_none), "the bots' are not");
}

#[test]
fn m_13_3_bolide_host_replay_narrates_a_game_of_1000_bornes_to_its_final_places() {
    let ((mut room, mut out), mut now) = (started(7), 0);
    run(&mut room, &mut now, &mut out, |_| false);
    let text: String = journal(&out).iter().map(JournalEntryOf::to_line).collect();
    let told = bolide_host::games::narrate(&text, &bolide_words::lang::EN).unwrap();
    assert!(told.lines().any(|l| l == "Game over"), "{told}");
    assert!(told.lines().any(|l| l.starts_with("  1. ")), "the winning side's line: {told}");
    // A spectator's log: nobody's drawn card is named.
    assert!(!told.contains("You draw"), "{told}");
}
