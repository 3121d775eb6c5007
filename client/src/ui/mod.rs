//! The window (egui on eframe): the start screen, then one table — its lobby, its races, its
//! podium. Every screen reads the client core's [`Mirror`](crate::games::bolide::Mirror) (what the
//! client knows of the table) and asks for things with [`Command`]s; nothing here knows a
//! rule: what may be done is the host's `legal` list.

pub mod face;
mod howto;
pub(crate) mod lobby;
pub(crate) mod look;
pub mod replay;
pub(crate) mod stamp;
pub mod start;

use crate::embed::{Embed, HostAsk};
use crate::games::Registry;
use crate::live::{Link, Live, LiveOf, Target};
use crate::platform::discovery::Discovery;
use crate::platform::display_time;
use crate::platform::prefs::Prefs;
use face::{AtTable, Table, TableFace};
use start::{Intent, StartUi};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::oneshot;

pub use face::HostInfo;

/// A table this window sits at.
struct Seated {
    face: Box<dyn TableFace>,
    /// Where the link goes: a table that changes game is joined again in its new words.
    target: Option<Target>,
    host: Option<HostInfo>,
    /// Stops the embedded host when the pilot leaves.
    stop_host: Option<oneshot::Sender<()>>,
    practice: bool,
    ready_sent: bool,
    /// The night this table handed over at its end: kept, or why not.
    night: Option<Result<(), String>>,
    /// The game switches this window followed in a row.
    switches: Switches,
}

/// Game switches the window follows in a row — each within [`SWITCHES_APART`] of the last —
/// before it stops with an error: a first pilot flipping between games would otherwise keep
/// every laptop at the table reconnecting for as long as they liked.
const SWITCHES: u32 = 8;
const SWITCHES_APART: std::time::Duration = std::time::Duration::from_secs(60);

#[derive(Debug, Default, Clone, Copy)]
struct Switches {
    in_a_row: u32,
    last: Option<crate::platform::rt::Instant>,
}

impl Switches {
    /// One more switch at `now`: whether the window still follows it.
    fn follow(&mut self, now: crate::platform::rt::Instant) -> bool {
        let in_a_row = self.last.is_some_and(|last| now.saturating_duration_since(last) < SWITCHES_APART);
        self.in_a_row = if in_a_row { self.in_a_row.saturating_add(1) } else { 1 };
        self.last = Some(now);
        self.in_a_row <= SWITCHES
    }
}

/// A host being started on the runtime: its join information, port, whether it is Practice's
/// and the game it serves, or why it failed.
/// A host being started, and whether it is a practice.
type Starting = (oneshot::Receiver<Result<crate::embed::Hosted, String>>, bool);

/// The window's network: a single-threaded tokio runtime on a thread of its own, for its links
/// and an embedded host. Outside a grab a table sends a dozen datagrams a second, which one
/// thread carries for less than a multi-threaded runtime's workers waking one another
/// (`scripts/idle-cpu.sh`, a joined laptop at its own turn: ~2 ms of CPU a second with two
/// workers, ~1.5 ms with this thread).
struct NetThread {
    runtime: crate::platform::rt::Runtime,
    #[cfg(not(target_arch = "wasm32"))]
    stop: Option<oneshot::Sender<()>>,
    #[cfg(not(target_arch = "wasm32"))]
    thread: Option<std::thread::JoinHandle<()>>,
}

impl NetThread {
    #[cfg(not(target_arch = "wasm32"))]
    fn start() -> std::io::Result<NetThread> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new().name("bolide-net".into()).spawn(move || {
            runtime.block_on(async {
                let _ = stopped.await;
            });
        })?;
        let runtime = crate::platform::rt::Runtime::new(handle);
        Ok(NetThread { runtime, stop: Some(stop), thread: Some(thread) })
    }

    /// In a browser's page the links run on the page's own event loop.
    #[cfg(target_arch = "wasm32")]
    fn start() -> std::io::Result<NetThread> {
        Ok(NetThread { runtime: crate::platform::rt::Runtime::page() })
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for NetThread {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

pub struct BolideApp {
    runtime: NetThread,
    prefs: Prefs,
    prefs_path: Option<PathBuf>,
    start: StartUi,
    discovery: Option<Discovery>,
    table: Option<Seated>,
    starting: Option<Starting>,
    /// Stops the host being started, once it is handed to its table.
    pending_stop: Option<oneshot::Sender<()>>,
    ctx: Option<egui::Context>,
    /// Where a hosted championship keeps its journal (`None`: the default data dir).
    data_dir: Option<PathBuf>,
    title: &'static str,
    /// The language the page last said it speaks ([`BolideApp::tell_lang`]).
    told_lang: Option<crate::lang::Lang>,
    /// What the start screen asked for last (the window's tests read it).
    pub last_intent: Option<Intent>,
    /// Tests: record intents without starting hosts or connections.
    dry_run: bool,
    /// What hosts a table on this laptop (the native shell's; none: this window only joins).
    embed: Option<Arc<dyn Embed>>,
    /// The language when the pilot chose none: the system's in the window, English in tests.
    system_lang: crate::lang::Lang,
    /// The games this window sits at.
    games: Registry,
    /// A past night being watched.
    replay: Option<replay::ReplayUi>,
    drill: Option<crate::games::bolide::drill::DrillUi>,
    /// The nights kept, as the start screen lists them (read again when one is kept).
    replays: Option<Vec<crate::shelf::Kept>>,
    /// By which door this window's links knock: QUIC, or the host's browser door (a page).
    via: crate::net::Via,
    /// A fairness field run's pilot (a page opened with `?field`): its links hand the host
    /// what it did (`live::Target::field`).
    field_test: bool,
}

impl BolideApp {
    /// The window's app: prefs from the user's config dir, mDNS browsing on.
    pub fn new(ctx: &egui::Context, embed: Option<Arc<dyn Embed>>) -> anyhow::Result<BolideApp> {
        let prefs_path = Prefs::default_path();
        let mut app = BolideApp::with(Prefs::load(prefs_path.as_ref()), prefs_path, None)?;
        app.embed = embed;
        app.system_lang = crate::lang::Lang::from_env();
        let repaint_ctx = ctx.clone();
        app.discovery = Discovery::browse(Arc::new(move || repaint_ctx.request_repaint()))
            .map_err(|e| tracing::warn!("no mDNS on this machine ({e}): join by address"))
            .ok();
        // Filled by the clear instead ([`BolideApp::clear_color`]).
        ctx.all_styles_mut(|style| style.visuals.panel_fill = egui::Color32::TRANSPARENT);
        app.ctx = Some(ctx.clone());
        Ok(app)
    }

    /// A browser's page that the host at `host` served (its browser door), the code word from
    /// its address: the start page joins that table by the door it came from, and keeps the
    /// prefs and the nights in the browser's storage.
    pub fn page(
        ctx: &egui::Context,
        host: SocketAddr,
        word: &str,
        lang: crate::lang::Lang,
        field_test: bool,
    ) -> anyhow::Result<BolideApp> {
        let prefs_path = Prefs::default_path();
        let mut app = BolideApp::with(Prefs::load(prefs_path.as_ref()), prefs_path, None)?;
        app.start = StartUi::new(&app.games).for_page(host, word);
        app.via = crate::net::Via::Web;
        app.field_test = field_test;
        app.system_lang = lang;
        // The browser's own instants of presses and frames, and frames stamped at the pass
        // after the one that drew them, as the window's GL painter's are.
        #[cfg(target_arch = "wasm32")]
        display_time::install_page();
        stamp::GL_PAINTER.store(true, std::sync::atomic::Ordering::Relaxed);
        ctx.all_styles_mut(|style| {
            style.visuals.panel_fill = egui::Color32::TRANSPARENT;
            // Hinting runs each font's TrueType programs for every glyph and size: in wasm it
            // was most of the start page's first frame. A browser's own text is not hinted on
            // most screens either; a phone's dense pixels need it least.
            style.visuals.text_options.font_hinting = false;
        });
        app.ctx = Some(ctx.clone());
        Ok(app)
    }

    /// An app with these prefs (not saved when `prefs_path` is `None`) and this list of hosts.
    pub fn with(prefs: Prefs, prefs_path: Option<PathBuf>, discovery: Option<Discovery>) -> anyhow::Result<BolideApp> {
        let runtime = NetThread::start()?;
        Ok(BolideApp {
            runtime,
            prefs,
            prefs_path,
            start: StartUi::default(),
            discovery,
            table: None,
            starting: None,
            pending_stop: None,
            ctx: None,
            data_dir: None,
            last_intent: None,
            dry_run: false,
            embed: None,
            title: "",
            told_lang: None,
            system_lang: crate::lang::Lang::En,
            games: Registry::standard(),
            replay: None,
            drill: None,
            replays: None,
            via: crate::net::Via::Quic,
            field_test: false,
        })
    }

    /// The window's title as the last frame set it (tests follow screens by it, as the window
    /// scripts do).
    pub fn title_now(&self) -> &'static str {
        self.title
    }

    /// What this window remembers between runs.
    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// Speaks `lang` from now on, as the start screen's switch does.
    pub fn set_lang(&mut self, lang: crate::lang::Lang) {
        self.prefs.lang = Some(lang);
    }

    /// The language the window speaks now.
    pub fn lang(&self) -> crate::lang::Lang {
        self.prefs.lang.unwrap_or(self.system_lang)
    }

    /// Tests: the start screen records what was asked and launches nothing.
    pub fn dry_run(mut self) -> BolideApp {
        self.dry_run = true;
        self
    }

    /// Hosts tables with `embed` (Host a game, Practice).
    pub fn embed(mut self, embed: Arc<dyn Embed>) -> BolideApp {
        self.embed = Some(embed);
        self
    }

    /// Where hosted championships keep their journal and certificate.
    pub fn data_dir(mut self, dir: PathBuf) -> BolideApp {
        self.data_dir = Some(dir);
        self
    }

    /// Sits at tables of these games (a game's tests add theirs).
    pub fn games(mut self, games: Registry) -> BolideApp {
        self.start = StartUi::new(&games);
        self.games = games;
        self
    }

    /// Sits the window at a table already linked (tests feed a detached one).
    pub fn sit(&mut self, live: Live, host: Option<HostInfo>) {
        self.sit_at(Table::<_, crate::games::bolide::table::BolideTableUi>::boxed(live), None, host);
    }

    /// Sits the window at a 1000 Bornes table already linked (tests feed a detached one).
    pub fn sit_mille_bornes(&mut self, live: LiveOf<::mille_bornes::MilleBornes>, host: Option<HostInfo>) {
        self.sit_at(Table::<_, crate::games::mille_bornes::table::MbTableUi>::boxed(live), None, host);
    }

    /// Sits the window at an Entenrallye table already linked (tests feed a detached one).
    pub fn sit_entenrallye(&mut self, live: LiveOf<::entenrallye::Entenrallye>, host: Option<HostInfo>) {
        self.sit_at(Table::<_, crate::games::entenrallye::table::EnteTableUi>::boxed(live), None, host);
    }

    fn sit_at(&mut self, face: Box<dyn TableFace>, target: Option<Target>, host: Option<HostInfo>) {
        self.table = Some(Seated {
            face,
            target,
            host,
            stop_host: None,
            practice: false,
            ready_sent: false,
            night: None,
            switches: Switches::default(),
        });
    }

    /// Sits the window at a practice table, as Practice does once its host is up (tests feed
    /// a detached link): its first race waits for the first-round guide.
    pub fn sit_practice(&mut self, live: Live) {
        self.sit(live, None);
        if let Some(seated) = &mut self.table {
            seated.practice = true;
        }
    }

    /// One frame of the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if self.ctx.is_none() {
            self.ctx = Some(ui.ctx().clone());
        }
        self.poll_starting();
        self.tell_lang();
        let w = self.lang().words();
        self.follow_the_game();
        if let Some(seated) = &mut self.table {
            let seen = self.prefs.guide_seen;
            let games: Vec<(&'static str, &'static str)> = self.games.iter().map(|e| (e.name, e.title)).collect();
            let back = seated.show(ui, w, &games, &mut self.prefs.guide_seen);
            if self.prefs.guide_seen != seen {
                self.prefs.save(self.prefs_path.as_ref());
            }
            let title = seated.title();
            self.set_title(ui.ctx(), title);
            self.keep_night();
            if back {
                self.leave();
            }
            return;
        }
        if let Some(replay) = &mut self.replay {
            let back = replay.show(ui, w);
            self.set_title(ui.ctx(), "Bolide — replay");
            if back {
                self.replay = None;
            }
            return;
        }
        if let Some(drill) = &mut self.drill {
            let back = drill.show(ui, w);
            self.set_title(ui.ctx(), "Bolide — warm-up");
            if back {
                self.drill = None;
            }
            return;
        }
        self.set_title(ui.ctx(), "Bolide");
        let can_resume = self.journal_path().is_some_and(|p| p.exists());
        if self.replays.is_none() {
            self.replays = Some(self.shelf().map(|s| s.list()).unwrap_or_default());
        }
        let replays = self.replays.take().unwrap_or_default();
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let lang = self.lang();
                let before = self.prefs.lang;
                let intent = self.start.show(ui, &mut self.prefs, self.discovery.as_ref(), can_resume, lang, &replays);
                if self.prefs.lang != before {
                    // A language picked is remembered at once, not only when a table starts.
                    self.prefs.save(self.prefs_path.as_ref());
                }
                if let Some(intent) = intent {
                    self.prefs.save(self.prefs_path.as_ref());
                    self.launch(intent);
                }
                if self.starting.is_some() {
                    ui.spinner();
                }
            });
        });
        self.replays.get_or_insert(replays);
    }

    /// The window's title says where the pilot is ("Bolide — grab!"): a glance at the task
    /// bar, and a hook for the scripted game that takes the README's screenshots.
    fn set_title(&mut self, ctx: &egui::Context, title: &'static str) {
        if self.title != title {
            self.title = title;
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.into()));
            // eframe's web runner leaves the page's title alone: the tab says it instead.
            #[cfg(target_arch = "wasm32")]
            if let Some(document) = web_sys::window().and_then(|w| w.document()) {
                document.set_title(title);
            }
        }
    }

    /// A page says which language it speaks (`<html lang>`), as it changes: what a screen
    /// reader reads it in, and no browser then offers to translate French as English. A
    /// window has no such thing to say.
    fn tell_lang(&mut self) {
        let lang = self.lang();
        if self.told_lang != Some(lang) {
            self.told_lang = Some(lang);
            #[cfg(target_arch = "wasm32")]
            if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                // An attribute on the page's own root: nothing a page can be refused.
                let _ = root.set_attribute("lang", lang.tag());
            }
        }
    }

    /// Where the embedded host keeps its files: `--data-dir`, or the user's data dir.
    fn files_dir(&self) -> anyhow::Result<PathBuf> {
        files_dir(self.data_dir.as_ref())
    }

    /// The shelf of kept nights, in the data dir.
    fn shelf(&self) -> anyhow::Result<crate::shelf::Shelf> {
        Ok(crate::shelf::Shelf::new(self.files_dir()?.join("replays")))
    }

    /// A night the table handed over is checked (it replays to its end from the seed the
    /// lobby committed to) and kept, once.
    fn keep_night(&mut self) {
        let shelf = self.shelf().map_err(|e| e.to_string());
        let Some(seated) = self.table.as_mut().filter(|s| s.night.is_none()) else { return };
        let Some(checked) = seated.face.checked_night() else { return };
        let when = crate::platform::rt::since_epoch().as_secs();
        let kept = checked.and_then(|(text, commitment)| {
            shelf?.keep(&text, &commitment, when).map(|_| ()).map_err(|e| e.to_string())
        });
        if let Err(why) = &kept {
            tracing::warn!("the night was not kept: {why}");
        }
        seated.night = Some(kept);
        self.replays = None;
    }

    fn journal_path(&self) -> Option<PathBuf> {
        self.files_dir().ok().map(|d| d.join("championship.journal"))
    }

    /// What a link from this window is given: a repaint, and the display's unread inputs for
    /// the stamps it keeps ([`display_time`]).
    fn hooks(&self) -> crate::live::Hooks {
        let ctx = self.ctx.clone();
        let repaint = Arc::new(move || {
            if let Some(ctx) = &ctx {
                ctx.request_repaint();
            }
        });
        // A page's frame goes up a refresh after its pass: the host sends it a moment that
        // much earlier, so it is up at the moment's instant (`Hello::frame_lead_us`).
        let frame_lead_us = display_time::window().map_or(0, |d| d.lock().ahead().as_micros() as u32);
        crate::live::Hooks { repaint, unsent: display_time::unsent(), frame_lead_us }
    }

    fn launch(&mut self, intent: Intent) {
        self.last_intent = Some(intent.clone());
        self.start.error = None;
        if self.dry_run {
            return;
        }
        match intent {
            Intent::Join { addr, code, watch, game } => {
                let target = self.target(addr, &code, watch);
                self.connect(&game, target, None);
            }
            Intent::Host(ask) => {
                let ask = HostAsk { data_dir: self.data_dir.clone(), ..ask };
                self.start_host(ask);
            }
            Intent::Practice(ask) => self.practise(ask),
            Intent::Replay(kept) => {
                let w = self.lang().words();
                let opened = crate::shelf::Shelf::read(&kept.path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| replay::ReplayUi::open_in(&self.games, kept, &text).map_err(|e| e.to_string()));
                match opened {
                    Ok(replay) => self.replay = Some(replay),
                    Err(why) => self.start.error = Some((w.replay_cannot_open)(&why)),
                }
            }
            Intent::Drill => self.drill = Some(crate::games::bolide::drill::DrillUi::new()),
        }
    }

    /// Practice: a host on this laptop only (loopback, no advert, its own data dir), the same
    /// embedded host as any table.
    fn practise(&mut self, ask: HostAsk) {
        let practice_dir = match self.files_dir() {
            Ok(dir) => dir.join("practice"),
            Err(e) => {
                self.start.error = Some(e.to_string());
                return;
            }
        };
        self.start_host(HostAsk { table_name: String::new(), practice: true, data_dir: Some(practice_dir), ..ask });
    }

    /// Starts the embedded host (the native shell's: the same code as `bolide-host serve`) on
    /// the runtime; the window joins it once it is up.
    fn start_host(&mut self, ask: HostAsk) {
        let w = self.lang().words();
        let Some(embed) = &self.embed else {
            self.start.error = Some(w.cannot_host_here.into());
            return;
        };
        let practice = ask.practice;
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        self.starting = Some((embed.host(ask, &self.runtime.runtime, stop_rx), practice));
        self.pending_stop = Some(stop_tx);
    }

    fn poll_starting(&mut self) {
        let Some((rx, practice)) = &mut self.starting else { return };
        let practice = *practice;
        match rx.try_recv() {
            Err(oneshot::error::TryRecvError::Empty) => {
                if let Some(ctx) = &self.ctx {
                    ctx.request_repaint_after(std::time::Duration::from_millis(50));
                }
            }
            Err(oneshot::error::TryRecvError::Closed) => {
                self.starting = None;
                self.start.error = Some(self.lang().words().host_did_not_start.into());
            }
            Ok(Err(why)) => {
                self.starting = None;
                self.start.error = Some((self.lang().words().cannot_host)(&why));
            }
            Ok(Ok(hosted)) => {
                self.starting = None;
                let (port, game) = (hosted.port, hosted.game);
                let info = HostInfo {
                    code: hosted.code,
                    addresses: hosted.addresses,
                    web: hosted.web,
                    door: Some(hosted.door),
                };
                let addr = SocketAddr::from(([127, 0, 0, 1], port));
                let target = self.target(addr, &info.code, false);
                self.connect(&game, target, (!practice).then_some(info));
                if let Some(seated) = &mut self.table {
                    seated.practice = practice;
                    seated.stop_host = self.pending_stop.take();
                }
            }
        }
    }

    /// Sits at the table `target` in the words of the game called `game`: a table of another
    /// game answers with its name, and the link follows ([`BolideApp::follow_the_game`]).
    fn connect(&mut self, game: &str, target: Target, host: Option<HostInfo>) {
        let w = self.lang().words();
        let Some(face) = self.games.get(game).or_else(|| self.games.first()) else {
            self.start.error = Some((w.table_plays_unknown)(game));
            return;
        };
        let face = (face.connect)(&self.runtime.runtime, target.clone(), None, self.hooks());
        self.sit_at(face, Some(target), host);
    }

    /// Where a link from this window goes, as this pilot.
    fn target(&self, addr: SocketAddr, code: &str, watch: bool) -> Target {
        let colour = Some(self.prefs.colour);
        Target {
            addr,
            code: code.to_string(),
            name: self.prefs.name.clone(),
            colour,
            watch,
            token: None,
            via: self.via,
            field: self.field_test,
        }
    }

    /// A table that plays another game than its link speaks (it was switched in the lobby,
    /// or joined by address): the link goes on in that game's words, in the same seat.
    fn follow_the_game(&mut self) {
        let (w, hooks) = (self.lang().words(), self.hooks());
        let Some(seated) = &mut self.table else { return };
        let Link::OtherGame { game, token } = seated.face.link() else { return };
        let Some(mut target) = seated.target.clone() else { return };
        let Some(face) = self.games.get(&game) else {
            return seated.face.end((w.table_plays_unknown)(&game));
        };
        if !seated.switches.follow(crate::platform::rt::Instant::now()) {
            return seated.face.end((w.too_many_switches)(SWITCHES));
        }
        target.token = token.or(target.token);
        let door = seated.face.take_door();
        // A switched table carried the seat with its colour; a seat its knock just took (the
        // connection handed on) has none picked yet.
        if door.is_none() {
            target.colour = None;
        }
        seated.face = (face.connect)(&self.runtime.runtime, target.clone(), door, hooks);
        seated.target = Some(target);
        seated.ready_sent = false;
    }

    /// Back to the start screen: leave the table, stop a host this window runs.
    fn leave(&mut self) {
        if let Some(seated) = self.table.take() {
            seated.face.leave();
            if let Some(stop) = seated.stop_host {
                let _ = stop.send(());
            }
        }
    }
}

/// Where the window keeps its files: `--data-dir`, or the user's data dir.
fn files_dir(data_dir: Option<&PathBuf>) -> anyhow::Result<PathBuf> {
    data_dir.cloned().map_or_else(crate::platform::files::default_data_dir, Ok)
}

impl eframe::App for BolideApp {
    /// The panels' own colour: the panels are drawn transparent ([`BolideApp::new`]), so the
    /// background is filled once per frame, by the clear, not a second time by a full-window
    /// rectangle — with a software rasteriser, a whole window's pixels are most of a frame's
    /// cost.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        let fill = if visuals.dark_mode { egui::Visuals::dark() } else { egui::Visuals::light() }.panel_fill;
        fill.to_normalized_gamma_f32()
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if let Some(display) = display_time::window() {
            display.lock().watch_frame(frame);
        }
        stamp::frame_started(ui.ctx());
        // Each frame drawn, for `scripts/idle-cpu.sh` (`RUST_LOG=bolide::frame=trace`): an idle
        // window should draw one only when something it shows changed. With the CPU time the
        // previous frame took, logic and painting (a page's `?log=bolide::frame`: the browser
        // game prints the race screen's), and the lines that asked for it (egui's
        // `repaint_causes`: what keeps a screen waking; read only when the trace is on).
        let cpu_us = frame.info().cpu_usage.map_or(0, |s| (s * 1e6) as u64);
        let causes = || ui.ctx().repaint_causes().iter().map(|c| format!("{}:{}", c.file, c.line)).collect::<Vec<_>>();
        tracing::trace!(target: "bolide::frame", cpu_us, causes = causes().join(" "), "frame");
        self.show(ui);
        stamp::frame_ended();
    }
}

impl Drop for BolideApp {
    fn drop(&mut self) {
        self.leave();
    }
}

impl Seated {
    fn title(&self) -> &'static str {
        self.face.title()
    }

    /// Returns true when the pilot goes back to the start screen.
    fn show(
        &mut self,
        ui: &mut egui::Ui,
        w: &'static crate::lang::Words,
        games: &[(&'static str, &'static str)],
        guide_seen: &mut bool,
    ) -> bool {
        let back = banner(ui, self.face.game(), &self.face.code(), &self.face.link(), w);
        let in_lobby = self.in_lobby_before_ready();
        let guided = self.face.has_guide();
        if in_lobby && (*guide_seen || !guided) {
            self.ready_sent = true;
            self.face.ready();
        }
        let guide = guided && in_lobby && !*guide_seen;
        let (host, night) = (self.host.as_ref(), self.night.as_ref());
        let mut at = AtTable { w, host, night, games, guide, guide_done: false };
        self.face.show(ui, &mut at);
        if at.guide_done {
            *guide_seen = true;
            self.ready_sent = true;
        }
        back
    }

    /// Practice, seated in a lobby that has not started, before its Ready.
    fn in_lobby_before_ready(&self) -> bool {
        self.practice && !self.ready_sent && self.face.in_lobby()
    }
}

/// The banner above any table: its game's name, the room code, Leave, and the state of the
/// connection. Returns true when the player goes back to the start screen.
fn banner(ui: &mut egui::Ui, game: &str, code: &str, link: &Link, w: &crate::lang::Words) -> bool {
    let mut back = false;
    egui::Panel::top("banner").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(game.to_uppercase()).strong().italics());
            // Leave first: the code after it is as long as the host's word makes it.
            if ui.button(w.leave_table).clicked() {
                back = true;
            }
            ui.label(code);
        });
        match link {
            Link::Connecting | Link::OtherGame { .. } => {
                ui.label(w.connecting);
            }
            Link::Connected => {}
            Link::Reconnecting { attempt, why } => {
                let text = (w.connection_lost)(why, *attempt);
                ui.colored_label(egui::Color32::from_rgb(250, 200, 60), egui::RichText::new(text).size(18.0));
            }
            Link::Ended(ended) => {
                let message = match ended {
                    crate::live::Ended::Left => w.you_left.to_string(),
                    crate::live::Ended::GameOver => w.game_over.to_string(),
                    crate::live::Ended::Said(message) => message.clone(),
                };
                ui.colored_label(egui::Color32::from_rgb(240, 120, 60), egui::RichText::new(message).size(18.0));
                if ui.button(w.back_to_start).clicked() {
                    back = true;
                }
            }
        }
    });
    back
}

/// Opens the window and runs it until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_window(embed: Option<Arc<dyn Embed>>) -> Result<(), String> {
    stamp::GL_PAINTER.store(true, std::sync::atomic::Ordering::Relaxed);
    stamp::short_slice();
    display_time::install();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Bolide")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([960.0, 600.0]),
        // No vsync: during the grab nothing may hold an input back until the next vblank.
        // Outside the grab the window repaints only on change, so this costs nothing idle.
        glow_options: eframe::egui_glow::GlowConfiguration { vsync: false, ..Default::default() },
        ..Default::default()
    };
    eframe::run_native(
        "Bolide",
        options,
        Box::new(|cc| Ok(Box::new(BolideApp::new(&cc.egui_ctx, embed).map_err(|e| e.to_string())?))),
    )
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod switch_tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_window_stops_after_eight_switches_in_a_row_and_forgets_switches_a_minute_apart() {
        let t0 = Instant::now();
        let mut switches = Switches::default();
        for i in 0..SWITCHES {
            assert!(switches.follow(t0 + Duration::from_secs(u64::from(i))), "switch {i}");
        }
        assert!(!switches.follow(t0 + Duration::from_secs(9)), "a ninth switch in a row was followed");
        // A switch a minute after the last starts a new row.
        let mut calm = Switches::default();
        for i in 0..(3 * SWITCHES) {
            assert!(calm.follow(t0 + SWITCHES_APART * (i + 1)));
        }
    }
}
