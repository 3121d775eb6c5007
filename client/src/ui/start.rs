//! The start screen: your name and colour, then Host a game, Join, or Practice.

use super::face::Setup;
use super::look;
use crate::embed::HostAsk;
use crate::games::{Entry, Registry};
use crate::lang::{Lang, Words};
use crate::platform::discovery::{Discovery, FoundHost};
use crate::platform::prefs::Prefs;
use bolide::bots::BotLevel;
use bolide_table::colour::Colour;
use bolide_table::wire::{DEFAULT_PORT, PROTOCOL_VERSION};
use egui::{RichText, Vec2};
use std::net::SocketAddr;

/// What the start screen asks the window to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Intent {
    /// Host on this laptop (the same host as `bolide-host serve`), journal included.
    Host(HostAsk),
    Join {
        addr: SocketAddr,
        code: String,
        /// As a spectator, even while seats are free.
        watch: bool,
        /// The game the table advertised, by name (Bolide when typed by hand: a table of
        /// another game says so when it welcomes the laptop, and the window follows).
        game: String,
    },
    /// You against bots, at once, on this laptop only (loopback, no advert).
    Practice(HostAsk),
    /// A past night's replay.
    Replay(crate::shelf::Kept),
    /// The warm-up: reactions timed on this laptop alone.
    Drill,
}

/// A game as the start screen offers it: its name and title, and its part of the screen.
struct GameSetup {
    name: &'static str,
    title: &'static str,
    most_bots: u8,
    setup: Box<dyn Setup>,
}

pub struct StartUi {
    host_bots: u8,
    host_level: BotLevel,
    resume: bool,
    practice_level: BotLevel,
    /// Every game's settings, in the registry's order (the first is the default).
    games: Vec<GameSetup>,
    /// The room code typed from the host's screen for a host picked from the list.
    code: String,
    picked: Option<FoundHost>,
    pub error: Option<String>,
    /// The "How to play" page, when open, and the game it explains.
    howto: Option<&'static str>,
    /// In a browser's page: the host that served it, the one table it joins.
    page: Option<SocketAddr>,
}

impl Default for StartUi {
    fn default() -> Self {
        StartUi::new(&Registry::standard())
    }
}

impl StartUi {
    /// The start screen of the games of `games`.
    pub fn new(games: &Registry) -> StartUi {
        let games = games
            .iter()
            .map(|e: &Entry| GameSetup { name: e.name, title: e.title, most_bots: e.most_bots, setup: (e.setup)() })
            .collect();
        StartUi {
            host_bots: 2,
            host_level: BotLevel::Strategic,
            resume: false,
            practice_level: BotLevel::Random,
            games,
            code: String::new(),
            picked: None,
            error: None,
            howto: None,
            page: None,
        }
    }

    /// The start page of a browser's page that `host` served, the code word from its address
    /// (`#GARAGE`) typed in already: join or watch that one table — no hosting, no practice,
    /// no list of tables (a page can do none of them).
    pub fn for_page(mut self, host: SocketAddr, word: &str) -> StartUi {
        self.page = Some(host);
        self.code = word.to_string();
        self
    }

    /// The game called `name`, or the first when there is none of that name.
    fn game(&mut self, name: &str) -> Option<&mut GameSetup> {
        let at = self.games.iter().position(|g| g.name == name).unwrap_or(0);
        self.games.get_mut(at)
    }

    /// The title of the game called `name` (the first's for an empty name: an advert or a
    /// night from before a table served more than one game), if this window plays it.
    fn title_of(&self, name: &str) -> Option<&'static str> {
        match name {
            "" => self.games.first(),
            name => self.games.iter().find(|g| g.name == name),
        }
        .map(|g| g.title)
    }

    /// Draws the screen; returns what the pilot chose. `can_resume`: a journal of an
    /// unfinished championship is in the data dir.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        prefs: &mut Prefs,
        discovery: Option<&Discovery>,
        can_resume: bool,
        lang: Lang,
        replays: &[crate::shelf::Kept],
    ) -> Option<Intent> {
        let mut intent = None;
        let w = lang.words();
        if let Some(game) = &mut self.howto {
            if super::howto::show(ui, game, w) {
                self.howto = None;
            }
            return None;
        }
        ui.vertical_centered(|ui| {
            ui.add_space(12.0);
            ui.label(RichText::new("BOLIDE").size(56.0).strong().italics());
            ui.label(w.tagline);
        });
        ui.add_space(10.0);
        if let Some(error) = &self.error {
            ui.colored_label(egui::Color32::from_rgb(240, 110, 60), RichText::new(error).size(16.0));
        }
        // Wrapped: on a phone's narrow page the colours go under the name.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(RichText::new(w.your_name).size(18.0));
            let edit =
                egui::TextEdit::singleline(&mut prefs.name).hint_text(w.pilot).char_limit(24).desired_width(220.0);
            ui.add(edit).labelled_by(label.id);
            ui.add_space(20.0);
            ui.label(w.colour);
            for c in Colour::ALL {
                if look::swatch(ui, c, prefs.colour == c, true).clicked() {
                    prefs.colour = c;
                }
            }
        });
        ui.add_space(10.0);
        if let Some(host) = self.page {
            ui.group(|ui| intent = self.join_page(ui, host, w));
        } else {
            ui.columns(3, |cols| {
                cols[0].group(|ui| intent = intent.take().or(self.host(ui, prefs, can_resume, w)));
                cols[1].group(|ui| intent = intent.take().or(self.join(ui, prefs, discovery, w)));
                cols[2].group(|ui| intent = intent.take().or(self.practice(ui, prefs, w)));
            });
        }
        // Below the three doors (the window scripts click them where they have always been):
        // the language — the system's until the pilot picks one, then remembered — and the rules.
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            for choice in Lang::ALL {
                if ui.selectable_label(lang == choice, choice.name()).clicked() && lang != choice {
                    prefs.lang = Some(choice);
                }
            }
            ui.separator();
            if ui.button(w.how_to_play).clicked() {
                self.howto = self.games.first().map(|g| g.name);
            }
        });
        ui.add_space(10.0);
        intent.or_else(|| past_nights(ui, replays, |name| self.title_of(name), w))
    }

    fn host(&mut self, ui: &mut egui::Ui, prefs: &mut Prefs, can_resume: bool, w: &Words) -> Option<Intent> {
        ui.heading(w.host_heading);
        ui.label(w.host_blurb);
        ui.horizontal(|ui| {
            let label = ui.label(w.table_name);
            ui.add(egui::TextEdit::singleline(&mut prefs.table_name).char_limit(24).desired_width(160.0))
                .labelled_by(label.id);
        });
        // Each game seats its own number (Bolide 3 to 6, 1000 Bornes 2 to 8): bots fill the
        // seats nobody takes.
        let host_game = prefs.host_game.clone();
        let most_bots = self.game(&host_game).map_or(5, |g| g.most_bots);
        ui.add(egui::Slider::new(&mut self.host_bots, 0..=most_bots).text(w.bots));
        if let Some(game) = self.game(&host_game) {
            game.setup.host(ui, w);
        }
        level_picker(ui, &mut self.host_level, w);
        if can_resume {
            ui.checkbox(&mut self.resume, w.resume_interrupted);
        }
        let go = ui.add(egui::Button::new(RichText::new(w.host_a_game).size(20.0)).min_size(Vec2::new(200.0, 44.0)));
        // The game, below the button the window scripts click.
        self.game_picker(ui, &mut prefs.host_game, w.game_choice);
        if !go.clicked() {
            return None;
        }
        let (bots, level, resume) = (self.host_bots, self.host_level, self.resume && can_resume);
        let game = self.game(&host_game)?;
        let mut ask = HostAsk {
            game: game.name.to_string(),
            table_name: prefs.table_name.clone(),
            bots: bots.min(game.most_bots),
            level,
            races: None,
            hands: None,
            resume,
            practice: false,
            data_dir: None,
        };
        game.setup.ask(&mut ask, false);
        Some(Intent::Host(ask))
    }

    fn join(
        &mut self,
        ui: &mut egui::Ui,
        prefs: &mut Prefs,
        discovery: Option<&Discovery>,
        w: &Words,
    ) -> Option<Intent> {
        ui.heading(w.join_heading);
        let mut intent = None;
        let hosts = discovery.map(Discovery::hosts).unwrap_or_default();
        if hosts.is_empty() {
            ui.label(w.looking_for_hosts);
        }
        for host in &hosts {
            let compatible = host.version == PROTOCOL_VERSION.to_string() && self.title_of(&host.game).is_some();
            let version = if compatible {
                format!("v{}", host.version)
            } else {
                (w.version_mismatch)(&host.version, PROTOCOL_VERSION)
            };
            // Adverts are not authenticated (the code word is, when joining): two tables with
            // one name are told apart by their address, and neither replaces the other.
            let twins = hosts.iter().filter(|h| h.name == host.name).count() > 1;
            let place = if twins { (w.at_address)(&host.addr.to_string()) } else { String::new() };
            let mut text = (w.host_entry)(&host.name, &place, &host.seats, &version);
            // The first game is this window's own: another game's table says which.
            let first = self.games.first().map(|g| g.name);
            match self.title_of(&host.game) {
                _ if host.game.is_empty() || Some(host.game.as_str()) == first => {}
                Some(title) => text = format!("{text} · {title}"),
                None => text = format!("{text} · {}", w.unknown_game),
            }
            if ui.add_enabled(compatible, egui::Button::new(RichText::new(text).size(17.0))).clicked() {
                self.picked = Some(host.clone());
            }
        }
        // Flagged: one of them may be a guest posing as the host.
        let mut names: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
        names.sort_unstable();
        for pair in names.windows(2).filter(|p| p[0] == p[1]).map(|p| p[0]).collect::<std::collections::BTreeSet<_>>() {
            ui.colored_label(ui.visuals().warn_fg_color, (w.same_name)(pair));
        }
        if let Some(host) = self.picked.clone() {
            ui.separator();
            ui.label(format!("{}{}", host.name, (w.at_address)(&host.addr.to_string())));
            // The whole code, from the host's screen: its fingerprint is who the host is. The
            // advert's is never offered — anyone at the table knows the word and can advertise
            // the table's name, instance and fingerprint from a laptop of their own.
            ui.horizontal(|ui| {
                let label = ui.label(w.code_on_host_screen);
                let field = egui::TextEdit::singleline(&mut self.code).hint_text(w.as_on_host_screen).char_limit(48);
                ui.add(field).labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                let join = ui.button(RichText::new(w.join_this_table).size(18.0)).clicked();
                let watch = ui.button(RichText::new(w.watch_this_table).size(18.0)).clicked();
                if join || watch {
                    let code = self.code.trim().to_string();
                    // Remembered as the last host, as one typed by hand is.
                    prefs.last_address = host.addr.to_string();
                    prefs.last_code = code.clone();
                    let game = host.game.clone();
                    intent = Some(Intent::Join { addr: host.addr, code, watch, game });
                }
            });
        }
        ui.separator();
        ui.label(w.or_type);
        egui::Grid::new("join-by-hand").num_columns(2).show(ui, |ui| {
            let label = ui.label(w.address);
            ui.add(egui::TextEdit::singleline(&mut prefs.last_address).hint_text("192.168.1.20:47117"))
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label(w.room_code);
            ui.add(egui::TextEdit::singleline(&mut prefs.last_code).hint_text("GARAGE-7F3K-0Q9M-2XWB-HC4T"))
                .labelled_by(label.id);
            ui.end_row();
        });
        if ui.button(RichText::new(w.join).size(18.0)).clicked() {
            match parse_address(&prefs.last_address) {
                Some(addr) => {
                    let code = prefs.last_code.trim().to_string();
                    let game = self.games.first().map_or(String::new(), |g| g.name.to_string());
                    intent = Some(Intent::Join { addr, code, watch: false, game })
                }
                None => self.error = Some((w.not_an_address)(&prefs.last_address)),
            }
        }
        intent
    }

    /// The browser's one door: the table of the host that served the page.
    fn join_page(&mut self, ui: &mut egui::Ui, host: SocketAddr, w: &Words) -> Option<Intent> {
        ui.heading(w.join_heading);
        ui.label(w.page_blurb);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(w.code_word);
            let field = egui::TextEdit::singleline(&mut self.code).hint_text("GARAGE").char_limit(24);
            ui.add(field).labelled_by(label.id);
        });
        let big = |text: &str| egui::Button::new(RichText::new(text).size(20.0)).min_size(Vec2::new(180.0, 48.0));
        let (join, watch) =
            ui.horizontal_wrapped(|ui| (ui.add(big(w.join_this_table)), ui.add(big(w.watch_this_table)))).inner;
        // The warm-up, under them: a page's pilot tries their reflexes as a window's does.
        let drill = ui.add(egui::Button::new(RichText::new(w.drill).size(16.0)).min_size(Vec2::new(0.0, 40.0)));
        if drill.on_hover_text(w.drill_blurb).clicked() {
            return Some(Intent::Drill);
        }
        let watch = watch.clicked();
        if !(join.clicked() || watch) {
            return None;
        }
        let code = self.code.trim().to_string();
        let game = self.games.first().map_or(String::new(), |g| g.name.to_string());
        Some(Intent::Join { addr: host, code, watch, game })
    }

    fn practice(&mut self, ui: &mut egui::Ui, prefs: &mut Prefs, w: &Words) -> Option<Intent> {
        ui.heading(w.practice_heading);
        ui.label(w.practice_blurb);
        let practice_game = prefs.practice_game.clone();
        if let Some(game) = self.game(&practice_game) {
            game.setup.practice(ui, w);
        }
        level_picker(ui, &mut self.practice_level, w);
        let (go, drill) = ui
            .horizontal(|ui| {
                let go =
                    ui.add(egui::Button::new(RichText::new(w.practice).size(20.0)).min_size(Vec2::new(200.0, 44.0)));
                let drill = ui.add(egui::Button::new(RichText::new(w.drill).size(16.0)).min_size(Vec2::new(0.0, 44.0)));
                (go, drill.on_hover_text(w.drill_blurb))
            })
            .inner;
        // The game, below the button the window scripts click.
        self.game_picker(ui, &mut prefs.practice_game, w.practice_game);
        if drill.clicked() {
            return Some(Intent::Drill);
        }
        if !go.clicked() {
            return None;
        }
        let level = self.practice_level;
        let game = self.game(&practice_game)?;
        let mut ask = HostAsk {
            game: game.name.to_string(),
            table_name: String::new(),
            bots: 0,
            level,
            races: None,
            hands: None,
            resume: false,
            practice: true,
            data_dir: None,
        };
        game.setup.ask(&mut ask, true);
        Some(Intent::Practice(ask))
    }

    /// Which game a hosted table (or Practice) plays, remembered between runs.
    fn game_picker(&self, ui: &mut egui::Ui, game: &mut String, label: &str) {
        ui.horizontal(|ui| {
            ui.label(label);
            for choice in &self.games {
                if ui.selectable_label(game == choice.name, choice.title).clicked() {
                    *game = choice.name.to_string();
                }
            }
        });
    }
}

/// The nights kept on this laptop, newest first, each with its replay.
fn past_nights(
    ui: &mut egui::Ui,
    replays: &[crate::shelf::Kept],
    titles: impl Fn(&str) -> Option<&'static str>,
    w: &Words,
) -> Option<Intent> {
    ui.heading(w.replays_heading);
    if replays.is_empty() {
        ui.weak(w.replays_none);
    }
    let mut intent = None;
    for kept in replays {
        let game = titles(&kept.game);
        ui.horizontal(|ui| {
            ui.label((w.replay_entry)(&kept.date(), game.unwrap_or("?"), &kept.names.join(", ")));
            if game.is_some() && ui.button(w.watch_replay).clicked() {
                intent = Some(Intent::Replay(kept.clone()));
            }
        });
    }
    intent
}

fn level_picker(ui: &mut egui::Ui, level: &mut BotLevel, w: &Words) {
    ui.horizontal(|ui| {
        ui.label(w.bots_play);
        ui.selectable_value(level, BotLevel::Random, w.for_fun);
        ui.selectable_value(level, BotLevel::Strategic, w.to_win);
    });
}

/// An address as people type it: with or without the port.
pub fn parse_address(text: &str) -> Option<SocketAddr> {
    let text = text.trim();
    text.parse().ok().or_else(|| text.parse::<std::net::IpAddr>().ok().map(|ip| SocketAddr::new(ip, DEFAULT_PORT)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_may_leave_out_the_port() {
        assert_eq!(parse_address(" 192.168.1.20 "), Some("192.168.1.20:47117".parse().unwrap()));
        assert_eq!(parse_address("10.0.0.2:5000"), Some("10.0.0.2:5000".parse().unwrap()));
        assert_eq!(parse_address("[::1]:47117"), Some("[::1]:47117".parse().unwrap()));
        assert_eq!(parse_address("nope"), None);
    }
}
