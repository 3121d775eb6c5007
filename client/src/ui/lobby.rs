//! The lobby: who sits where, in which colour, who has a hand flat on the table (ready); the
//! first pilot's settings, which everyone sees change live.

use super::look;
use crate::game::ClientGame;
use crate::lang::Words;
use crate::live::{CommandOf, LiveOf};
use crate::state::MirrorOf;
use bolide_table::Lobby as _;
use bolide_table::Seat;
use bolide_table::colour::Colour;
use bolide_table::wire::{LobbyStateOf, PathCheck};
use egui::{RichText, Vec2};

/// A table's lobby, drawn until its game has started (the lobby says so and the first view
/// arrived); returns whether it has, for the game's screen to take over.
pub(crate) fn until_started<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    lobby: impl FnOnce(&mut egui::Ui, &MirrorOf<W>),
) -> bool {
    let state = live.state();
    let t = &state.mirror;
    let started = t.lobby.as_ref().is_some_and(|l| l.started) && t.view.is_some();
    if !started {
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| lobby(ui, t));
        });
    }
    started
}

/// A started table's lobby of `names`, everyone seated and ready, seen from seat 0: what the
/// benchmarks' and tests' detached tables show.
pub fn everyone_ready<W: bolide_table::Words>(names: &[&str], settings: W::Lobby) -> LobbyStateOf<W> {
    let seat = |(i, name): (usize, &&str)| bolide_table::wire::LobbySeat {
        seat: Seat(i as u8),
        name: name.to_string(),
        colour: Colour::ALL[i % Colour::ALL.len()],
        bot: false,
        ready: true,
        connected: true,
        path: None,
    };
    LobbyStateOf {
        seats: names.iter().enumerate().map(seat).collect(),
        you: Some(Seat(0)),
        settings,
        spectators: 0,
        started: true,
        dice: Default::default(),
        reveal: None,
        luck: None,
    }
}

/// What a lobby's frame says in its game's terms.
pub(crate) struct Frame<'a> {
    /// Who sits at the table, as a heading: pilots, players.
    pub who: &'a str,
    /// When the game starts.
    pub starts_when: &'a str,
    /// The host's commitment to the seed, short.
    pub sealed: fn(&str) -> String,
    /// The same, on hover: all of it and what it binds.
    pub sealed_hover: fn(&str) -> String,
    /// The commitment this laptop was shown first (the lobby's own until then).
    pub first_shown: Option<bolide_table::seal::Commitment>,
    /// The game this lobby is for: the first pilot may switch the table to any other.
    pub game: &'static str,
    /// The games this window plays, by name and title.
    pub games: &'a [(&'static str, &'static str)],
}

/// What every game's lobby shows around its own settings: the room code on the hosting
/// laptop, who sits where, the first pilot's switch to the `other` game, the last refusal and
/// the host's commitment to the seed.
pub(crate) fn frame<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    t: &MirrorOf<W>,
    hosting: Option<&super::face::HostInfo>,
    says: Frame,
    w: &Words,
    settings: impl FnOnce(&mut egui::Ui, &LobbyStateOf<W>, bool),
) {
    let Some(lobby) = t.lobby.as_ref() else {
        ui.label(w.waiting_lobby);
        return;
    };
    if let Some(host) = hosting {
        room_code(ui, host, w);
    }
    let first = t.seat == Some(Seat(0));
    if super::look::narrow(ui) {
        // A phone held upright: the table's settings under the pilots, not squeezed beside them.
        seats(ui, live, t, lobby, (says.who, says.starts_when), w);
        ui.separator();
        settings(ui, lobby, first);
        if first {
            other_games(ui, live, says.game, says.games, w);
        }
    } else {
        ui.columns(2, |cols| {
            seats(&mut cols[0], live, t, lobby, (says.who, says.starts_when), w);
            settings(&mut cols[1], lobby, first);
            if first {
                other_games(&mut cols[1], live, says.game, says.games, w);
            }
        });
    }
    if let Some(refusal) = &t.refusal {
        ui.colored_label(egui::Color32::from_rgb(230, 120, 40), refusal);
    }
    ui.separator();
    let commitment = says.first_shown.unwrap_or(lobby.dice);
    ui.label((says.sealed)(&commitment.short())).on_hover_text((says.sealed_hover)(&commitment.to_string()));
}

/// The hosting laptop's lobby: the room code, large, and the addresses to join.
fn room_code(ui: &mut egui::Ui, host: &super::face::HostInfo, w: &Words) {
    let url = host.web.first().and_then(|door| bolide_link::web::page_url(*door, &host.code));
    let block = ui.vertical_centered(|ui| {
        ui.label(w.room_code_tell);
        ui.label(RichText::new(&host.code).size(48.0).strong().monospace());
        let addresses: Vec<String> = host.addresses.iter().map(|a| a.to_string()).collect();
        let mut join = (w.join_at)(&addresses.join(w.or_sep));
        if let Some(url) = &url {
            join = format!("{join}   ·   {}", (w.from_a_browser)(url));
        }
        ui.label(join);
        if let Some(lock) = host.door.as_ref().and_then(|door| (door.0)()) {
            ui.colored_label(egui::Color32::LIGHT_RED, (w.joins_locked)(lock.since.elapsed().as_secs(), lock.wrong));
            // The seconds count up while the door stays locked.
            ui.ctx().request_repaint_after(std::time::Duration::from_secs(1));
        }
    });
    // Phones: the address's QR code at the block's right, as tall as the block (the lobby
    // below keeps its place); a click shows it large, to be read across the table.
    if let Some(url) = url {
        let block = block.response.rect;
        let side = block.height();
        let rect = egui::Rect::from_min_size(egui::pos2(block.right() - side, block.top()), egui::vec2(side, side));
        let large_id = ui.scope_id().with("qr-large");
        // Painted over the block's empty right end: the layout below does not move.
        let small = ui.interact(rect, large_id.with("small"), egui::Sense::click());
        small.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &url));
        paint_qr(&ui.painter_at(rect), rect, &url);
        let clicked = small.clicked();
        let mut large = ui.data(|d| d.get_temp::<bool>(large_id)).unwrap_or(false) || clicked;
        egui::Window::new(w.from_a_browser_title)
            .collapsible(false)
            .resizable(false)
            .open(&mut large)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ui.ctx(), |ui| {
                ui.label(RichText::new(&url).size(22.0));
                qr_code(ui, &url, 420.0);
            });
        ui.data_mut(|d| d.insert_temp(large_id, large));
    }
    ui.separator();
}

/// `text` as a QR code a phone's camera reads: dark modules on white, with the quiet zone
/// the standard asks (4 modules), whole pixels a module, at most `most` points wide. Returns
/// whether it was clicked.
pub(crate) fn qr_code(ui: &mut egui::Ui, text: &str, most: f32) -> bool {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(most, most), egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, text));
    paint_qr(&ui.painter_at(rect), rect, text);
    response.clicked()
}

/// The QR code of `text` painted in `rect` (its largest whole-pixel size, at its top left).
fn paint_qr(painter: &egui::Painter, rect: egui::Rect, text: &str) {
    const QUIET: usize = 4;
    let Ok(code) = qrcode::QrCode::new(text.as_bytes()) else { return };
    let width = code.width();
    let module = (rect.width().min(rect.height()) / (width + 2 * QUIET) as f32).floor().max(1.0);
    let side = module * (width + 2 * QUIET) as f32;
    painter.rect_filled(egui::Rect::from_min_size(rect.min, egui::vec2(side, side)), 0.0, egui::Color32::WHITE);
    let dark = code.to_colors();
    for (i, _) in dark.iter().enumerate().filter(|(_, c)| **c == qrcode::Color::Dark) {
        let (x, y) = ((i % width + QUIET) as f32, (i / width + QUIET) as f32);
        let at = rect.min + egui::vec2(x * module, y * module);
        painter.rect_filled(egui::Rect::from_min_size(at, egui::vec2(module, module)), 0.0, egui::Color32::BLACK);
    }
}

/// The first pilot's way to switch the table to another game: every laptop follows to its
/// lobby, each back in its own seat.
fn other_games<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    here: &str,
    games: &[(&'static str, &'static str)],
    w: &Words,
) {
    ui.add_space(8.0);
    for (name, title) in games.iter().filter(|(name, _)| *name != here) {
        if ui.button((w.play_instead)(title)).clicked() {
            live.send(CommandOf::ChooseGame(name.to_string()));
        }
    }
}

/// The lobby's network check of one laptop, as the host measured its path: a bad Wi-Fi is
/// found here, before the first grab.
fn path_check(ui: &mut egui::Ui, path: Option<PathCheck>, w: &Words) {
    use bolide_table::wire::PathVerdict;
    let Some(p) = path else {
        ui.weak(w.path_measuring);
        return;
    };
    let (text, colour) = match p.verdict() {
        PathVerdict::Good => ((w.path_good)(p.delay_ms), egui::Color32::from_rgb(90, 170, 90)),
        PathVerdict::Slow => ((w.path_slow)(p.delay_ms), egui::Color32::from_rgb(220, 160, 40)),
        PathVerdict::Drops => ((w.path_drops)(p.silences, p.longest_silence_ms), egui::Color32::from_rgb(230, 90, 60)),
    };
    ui.colored_label(colour, text);
}

/// Who sits where (for any game): names, colours, ready, each laptop's network; this laptop's
/// colour and its hand flat on the table.
fn seats<W: ClientGame>(
    ui: &mut egui::Ui,
    live: &LiveOf<W>,
    t: &MirrorOf<W>,
    lobby: &LobbyStateOf<W>,
    (who, starts_when): (&str, &str),
    w: &Words,
) {
    ui.heading(who);
    egui::Grid::new("seats").striped(true).min_col_width(60.0).show(ui, |ui| {
        for seat in &lobby.seats {
            let c = seat.colour;
            let you = if t.seat == Some(seat.seat) { w.you_mark } else { "" };
            ui.label(
                RichText::new(format!(" {}{you} ", seat.name))
                    .size(18.0)
                    .background_color(look::colour(c))
                    .color(look::ink(c)),
            );
            ui.label(look::colour_name(c));
            let state = match (seat.bot, seat.connected, seat.ready) {
                (true, _, _) => w.bot,
                (false, false, _) => w.disconnected,
                (false, true, true) => w.ready,
                (false, true, false) => w.not_ready,
            };
            ui.label(state);
            if !seat.bot && seat.connected {
                path_check(ui, seat.path, w);
            }
            ui.end_row();
        }
        for n in 1..=lobby.settings.bots() {
            ui.label((w.bot_n)(n));
            ui.label("—");
            ui.label(w.bot);
            ui.end_row();
        }
    });
    let Some(me) = t.seat else {
        ui.label((w.you_watch)(lobby.spectators));
        return;
    };
    let Some(mine) = lobby.seats.iter().find(|s| s.seat == me) else { return };
    ui.add_space(8.0);
    ui.label(w.your_colour);
    ui.horizontal(|ui| {
        for c in Colour::ALL {
            let taken = lobby.seats.iter().any(|s| s.colour == c && s.seat != me);
            if look::swatch(ui, c, c == mine.colour, !taken).clicked() {
                live.send(CommandOf::PickColour(c));
            }
        }
    });
    ui.add_space(8.0);
    let (label, ready) = if mine.ready { (w.hand_flat, false) } else { (w.put_hand_flat, true) };
    if ui.add(egui::Button::new(RichText::new(label).size(20.0)).min_size(Vec2::new(300.0, 48.0))).clicked() {
        live.send(CommandOf::Ready(ready));
    }
    ui.label(starts_when);
}

/// A check's verdict, unless this laptop's part of the luck was left out of the seed: then the
/// luck was the host's to choose, whatever the draws say.
pub(crate) fn left_out<T>(part_in: Option<bool>, verdict: Option<Result<T, String>>) -> Option<Result<T, String>> {
    match (part_in, verdict) {
        (Some(false), Some(_)) => Some(Err(LEFT_OUT.into())),
        (_, verdict) => verdict,
    }
}

const LEFT_OUT: &str = "this laptop's part of the luck is not among those the host mixed the seed from";
