//! Frame time of the race screen: the CPU one frame costs — the egui pass over the whole
//! window and the tessellation of what it drew — at 1920×1080 with six cars, a long event log
//! and the pointer moving over the board, measured over 10 000 frames on this thread's CPU
//! clock; the process's resident memory before and after. The GPU's part (uploading and
//! drawing the triangles) is not in it.
//!
//! `cargo run --release -p bolide-client --example frame_time`; with `-- mille-bornes`, the
//! 1000 Bornes screen instead: eight players (four teams), mid-hand, bots playing on the clock;
//! with `-- replay`, a 3-race night replayed, a move further every frame; with `-- warm-up`,
//! the warm-up; with `-- entenrallye`, an Entenrallye table of six in June, seat 0 to drive.

use bolide::LobbyState;
use bolide::options::Settings;
use bolide::sim;
use bolide::view::{PhaseView, TurnStep, TurnView};
use bolide::{Action, Colour, Event, Seat, TableOptions};
use bolide_client::live::{Link, Live};
use bolide_client::platform::prefs::Prefs;
use bolide_client::ui::BolideApp;
use bolide_table::wire::LobbySeat;

const FRAMES: usize = 10_000;
const WARM_UP: usize = 300;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid pointer to a timespec on this stack.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() -> anyhow::Result<()> {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let (live, _commands) = Live::detached("GARAGE-7F3K-0Q9M-2XWB-HC4T");
    {
        live.set_link(Link::Connected);
        let mut state = live.state();
        state.welcome(Some(Seat(0)), None, bolide_table::wire::BeatSchedule::Steady);
        let t = &mut state.mirror;
        let names = ["Anne", "Bob", "Chloé", "Dédé", "Émile", "Fanny"];
        let seats = (0..6)
            .map(|i| LobbySeat {
                seat: Seat(i),
                name: names[i as usize].into(),
                colour: Colour::ALL[i as usize],
                bot: false,
                ready: true,
                connected: true,
                path: None,
            })
            .collect();
        let settings = Settings {
            options: TableOptions::default(),
            circuit: "cannes".into(),
            bots: 0,
            bot_level: Default::default(),
        };
        t.lobby = Some(LobbyState {
            seats,
            you: None,
            settings,
            spectators: 0,
            started: true,
            dice: Default::default(),
            reveal: None,
            luck: None,
        });
        let mut view = sim::random_race(6, 5).view_for(Seat(0));
        for (i, car) in view.cars.iter_mut().enumerate() {
            car.position = [3, 3, 7, 12, 12, 20][i];
        }
        view.phase = PhaseView::Movement;
        view.turn = Some(TurnView {
            seat: Seat(0),
            step: TurnStep::Moving,
            reservoir: 5,
            accelerator: Some(4),
            speed: Some(80),
            points_left: 5,
            start: 3,
        });
        t.view = Some(view);
        t.legal = (1..=4).map(|tiles| Action::Move { tiles }).collect();
        for i in 0..2_000u32 {
            t.events.push(Event::Rolled { seat: Seat((i % 6) as u8), accelerator: (i % 6 + 1) as u8, speed: 60 });
        }
    }
    let mut app = BolideApp::with(Prefs::default(), None, None)?;
    let w = &bolide_client::lang::EN;
    // The screens that are not a table: drawn by themselves.
    let mut replay = None;
    let mut drill = None;
    match mode.as_str() {
        "mille-bornes" => {
            let names = ["Anne", "Bob", "Chloé", "Dédé", "Émile", "Fanny", "Gus", "Hélène"];
            app.sit_mille_bornes(bolide_client::games::mille_bornes::table::mid_hand(&names, 3), None);
        }
        "replay" => {
            let text = bolide_host::nights::night_of_bots(3);
            let kept = bolide_client::shelf::Kept {
                path: "night.journal".into(),
                when: 0,
                game: "bolide".into(),
                names: vec!["Anne".into(), "Bot 1".into(), "Bot 2".into()],
            };
            replay = Some(bolide_client::ui::replay::ReplayUi::open(kept, &text)?);
        }
        "warm-up" => drill = Some(bolide_client::games::bolide::drill::DrillUi::new()),
        "entenrallye" => {
            let names = ["Anne", "Bob", "Chloé", "Dédé", "Émile", "Fanny"];
            app.sit_entenrallye(bolide_client::games::entenrallye::table::mid_year(&names, 3), None);
        }
        _ => app.sit(live, None),
    }
    let ctx = egui::Context::default();
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1920.0, 1080.0));
    let mut times = Vec::with_capacity(FRAMES);
    let mut rss_start = 0;
    for frame in 0..WARM_UP + FRAMES {
        if frame == WARM_UP {
            rss_start = rss_kb();
        }
        // The pointer sweeps the board, so hovers and their tooltips come and go.
        let x = (frame % 1400) as f32 + 20.0;
        let y = 100.0 + (frame % 700) as f32;
        let mut events = vec![egui::Event::PointerMoved(egui::pos2(x, y))];
        if replay.is_some() {
            // A move further each frame for 200 frames, then a move back (each rebuilt from the
            // start of the night, the replay's dearest step) for 200: a new table every frame.
            let key = if frame % 400 < 200 { egui::Key::ArrowRight } else { egui::Key::ArrowLeft };
            events.push(egui::Event::Key {
                key,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: Default::default(),
            });
        }
        let raw =
            egui::RawInput { screen_rect: Some(screen), time: Some(frame as f64 / 60.0), events, ..Default::default() };
        let start = thread_cpu_ns();
        let out = ctx.run_ui(raw, |ui| match (&mut replay, &mut drill) {
            (Some(replay), _) => {
                replay.show(ui, w);
            }
            (_, Some(drill)) => {
                drill.show(ui, w);
            }
            _ => app.show(ui),
        });
        let primitives = ctx.tessellate(out.shapes, out.pixels_per_point);
        let spent = thread_cpu_ns() - start;
        std::hint::black_box(primitives);
        if frame >= WARM_UP {
            times.push(spent);
        }
    }
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize] as f64 / 1e6;
    let report = serde_json::json!({
        "frames": FRAMES,
        "size": "1920x1080",
        "screen": match mode.as_str() {
            "mille-bornes" => "1000 Bornes, 8 players",
            "replay" => "a 3-race night replayed, a move a frame",
            "warm-up" => "the warm-up",
            "entenrallye" => "Entenrallye, 6 players, June",
            _ => "Bolide race, 6 cars",
        },
        "cpu_ms_per_frame": { "p50": at(0.5), "p99": at(0.99), "max": at(1.0) },
        "rss_kb": { "start": rss_start, "end": rss_kb() },
    });
    println!("{report}");
    Ok(())
}
