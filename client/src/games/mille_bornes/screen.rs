//! The 1000 Bornes screen: every side's tableau at once (battle and speed piles, the distance
//! bar to 1000, the 200s, the safeties — a Coup-Fourré's marked), the hand below with the
//! cards that can be played lit, the Coup-Fourré window's countdown and button, the log and
//! the score sheet. It reads a view and the legal actions, as every screen does; it never
//! re-derives a rule.

use super::cards;
use super::net_table::NetTable;
use crate::lang::Words;
use crate::ui::look;
use bolide_table::Seat;
use egui::{Color32, RichText, Vec2};
use mille_bornes::manche::side_of;
use mille_bornes::partie::window_moment;
use mille_bornes::{Action, Card, Phase, View};
// The log's lines, written once for the window and `bolide-host replay`.
pub use bolide_words::mille_bornes::{describe, side_name};

/// What the screen remembers between frames.
#[derive(Default)]
pub struct MilleBornesUi {
    /// The card picked in the hand.
    selected: Option<Card>,
    /// The card under the pointer (or picked): its possible targets are outlined.
    pointed: Option<Card>,
    /// The last Coup-Fourré window this screen drew (its `shown` is stamped once).
    drawn: Option<u64>,
}

/// The window's title at a 1000 Bornes table: where the player is (a glance at the task bar,
/// and the hook the window scripts follow).
pub fn title(view: Option<&View>, you: Option<Seat>) -> &'static str {
    let Some(view) = view else { return "Bolide — 1000 Bornes" };
    let my_side = you.map(|s| side_of(s, view.sides));
    match view.phase {
        _ if view.over => "Bolide — 1000 Bornes — game over",
        Phase::Turn { seat } if Some(seat) == you => "Bolide — 1000 Bornes — your turn",
        Phase::Window { side, .. } if Some(side) == my_side => "Bolide — 1000 Bornes — Coup-Fourré?",
        _ => "Bolide — 1000 Bornes",
    }
}

impl MilleBornesUi {
    /// One frame of a 1000 Bornes table (the banner above it has Leave).
    pub fn show(&mut self, ui: &mut egui::Ui, game: &mut NetTable, now: u64, w: &Words) {
        let Some(view) = game.view() else {
            egui::CentralPanel::default().show(ui, |ui| ui.label(w.waiting_lobby));
            return;
        };
        let legal = game.legal();
        let names = game.names();
        let you = game.you();
        // M-15.6: `shown` is the frame that first draws the attack on its pile.
        if let Phase::Window { .. } = view.phase {
            let moment = window_moment(view.hand_number, view.attacks);
            if self.drawn != Some(moment) {
                self.drawn = Some(moment);
                game.drawn(ui, moment);
            }
        }
        egui::Panel::top("mb-status").show(ui, |ui| {
            // The game's name is the table's banner above (one look for the three games); on
            // a phone's page the status wraps rather than run off its edge.
            ui.horizontal_wrapped(|ui| {
                look::status_lead(ui, (w.mb_hand_n)(view.hand_number + 1));
                for side in 0..view.sides {
                    let total = view.totals.get(usize::from(side)).copied().unwrap_or(0);
                    ui.label(format!("{}: {total}", side_name(&view, &names, side)));
                }
                ui.separator();
                ui.label((w.mb_draw_pile)(view.draw_count));
                // Another person's turn: how long before a bot plays it for them.
                if let Some((seat, at)) = game.awaited().filter(|(seat, _)| Some(*seat) != you) {
                    ui.separator();
                    let who = names.get(seat.index()).map_or("?", String::as_str);
                    ui.label((w.mb_bot_plays_for)(who, look::seconds_shown(ui, at.saturating_sub(now))));
                }
            });
        });
        // A phone held upright: the discard and what happened go under the table, above the
        // hand (`ui::look::narrow`).
        let narrow = look::narrow(ui);
        let beside = (!narrow).then(|| {
            egui::Panel::right("mb-side").min_size(300.0).show(ui, |ui| side_panel(ui, game, &view, &names, w)).inner
        });
        if you.is_some() {
            look::controls(ui, "mb-hand", 220.0, |ui| self.hand(ui, game, &view, &legal, &names, now, w));
        }
        let discard_picked = match beside {
            Some(picked) => picked,
            None => look::under_the_board(ui, "mb-side", |ui| side_panel(ui, game, &view, &names, w)),
        };
        egui::CentralPanel::default().show(ui, |ui| {
            if view.over {
                egui::ScrollArea::vertical().show(ui, |ui| podium(ui, game, &view, &names, w));
                return;
            }
            // Where the card under the pointer (or the one picked) could go: those tableaux are
            // outlined, as a hand hovering over the table would show.
            let card = self.pointed.or(self.selected);
            let my_side = you.map_or(0, |you| side_of(you, view.sides));
            let targets: Vec<u8> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Play { card: c, on } if Some(*c) == card => Some(on.unwrap_or(my_side)),
                    _ => None,
                })
                .collect();
            let picked =
                egui::ScrollArea::vertical().show(ui, |ui| tableaux(ui, game, &view, &names, you, &targets, now, w));
            // A card dropped on a tableau, or the one picked and a tableau clicked: played
            // there if the host's legal list has it.
            if let Some((dropped, side)) = picked.inner
                && let Some(card) = dropped.or(self.selected)
            {
                let here = legal
                    .iter()
                    .copied()
                    .find(|a| matches!(a, Action::Play { card: c, on } if *c == card && on.unwrap_or(my_side) == side));
                if let Some(play) = here {
                    game.act(play, now);
                    self.selected = None;
                }
            }
        });
        // The same onto the discard pile.
        if let Some(dropped) = discard_picked
            && let Some(card) = dropped.or(self.selected)
            && legal.contains(&Action::Discard { card })
        {
            game.act(Action::Discard { card }, now);
            self.selected = None;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn hand(
        &mut self,
        ui: &mut egui::Ui,
        game: &mut NetTable,
        view: &View,
        legal: &[Action],
        names: &[String],
        now: u64,
        w: &Words,
    ) {
        let Some(you) = game.you() else { return };
        let my_side = side_of(you, view.sides);
        // Wrapped: on a phone the bot's countdown and a refusal beside the turn run past the
        // edge, and a line that runs off widens the panel, the hand's cards with it.
        ui.horizontal_wrapped(|ui| {
            let turn = match view.phase {
                Phase::Turn { seat } if seat == you => w.your_turn.to_string(),
                Phase::Turn { seat } => (w.someones_turn)(names.get(seat.index()).map_or("?", String::as_str)),
                Phase::Window { .. } => w.mb_window_open.to_string(),
                Phase::Over => String::new(),
            };
            ui.heading(turn);
            if let Some(deadline) =
                game.deadline().filter(|_| matches!(view.phase, Phase::Turn { seat } if seat == you))
            {
                ui.label((w.before_bot)(look::seconds_shown(ui, deadline.saturating_sub(now))));
            }
            if let Some(text) = game.refusal(w) {
                ui.colored_label(Color32::from_rgb(240, 130, 50), text);
            }
        });
        // M-15.5: the attacked side's players get the button, whether or not they hold it.
        if let Phase::Window { side, .. } = view.phase
            && side == my_side
        {
            let button = egui::Button::new(RichText::new(w.mb_coup_fourre_button).size(24.0).strong())
                .fill(Color32::from_rgb(214, 168, 34))
                .min_size(Vec2::new(320.0, 56.0));
            if let Some(trigger) = crate::ui::stamp::press(&ui.add(button), Some(egui::Key::Space)) {
                game.act(Action::CoupFourre, crate::ui::stamp::input_us(trigger, game.clock(), now));
            }
        }
        let width = hand_card_width(ui.available_width(), ui.spacing().item_spacing.x, look::narrow(ui));
        let size = Vec2::new(width, width * look::card::RATIO);
        let mut pointed = None;
        let keys = &look::NUMBER_KEYS[..7];
        ui.horizontal_wrapped(|ui| {
            for (i, card) in view.hand.iter().enumerate() {
                let playable = legal.iter().any(|a| matches!(a, Action::Play { card: c, .. } if c == card));
                let selected = self.selected == Some(*card);
                let response = cards::card(ui, *card, size, playable, selected);
                if response.hovered() || response.dragged() {
                    pointed = Some(*card);
                }
                let clicked = response.clicked() || keys.get(i).is_some_and(|k| ui.input(|inp| inp.key_pressed(*k)));
                if clicked {
                    self.selected = Some(*card);
                }
            }
        });
        self.pointed = pointed;
        let Some(card) = self.selected.filter(|c| view.hand.contains(c)) else { return };
        let plays: Vec<Action> =
            legal.iter().copied().filter(|a| matches!(a, Action::Play { card: c, .. } if *c == card)).collect();
        // Wrapped: on a phone an attack's name and its two targets and Discard run past the edge.
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(card.name()).strong());
            for play in &plays {
                let label = match play {
                    Action::Play { on: Some(side), .. } => (w.mb_on_side)(&side_name(view, names, *side)),
                    _ => w.mb_play.to_string(),
                };
                if ui.button(RichText::new(label).size(17.0)).clicked() {
                    game.act(*play, now);
                    self.selected = None;
                }
            }
            let discard = Action::Discard { card };
            if legal.contains(&discard) && ui.button(RichText::new(w.mb_discard).size(17.0)).clicked() {
                game.act(discard, now);
                self.selected = None;
            }
        });
        // Enter plays on the only target; D discards.
        let (enter, d) = ui.input(|i| (i.key_pressed(egui::Key::Enter), i.key_pressed(egui::Key::D)));
        if let (true, [only]) = (enter, plays.as_slice()) {
            game.act(*only, now);
            self.selected = None;
        } else if d && legal.contains(&Action::Discard { card }) {
            game.act(Action::Discard { card }, now);
            self.selected = None;
        }
    }
}

/// How wide a card of the hand is: on a laptop seven in a row with room to spare; on a phone
/// held upright (`narrow`) two rows of four, each card a thumb's width.
fn hand_card_width(available: f32, gap: f32, narrow: bool) -> f32 {
    if narrow { ((available - 3.0 * gap) / 4.0).clamp(56.0, 150.0) } else { (available / 8.0).clamp(70.0, 150.0) }
}

#[allow(clippy::too_many_arguments)]
fn tableaux(
    ui: &mut egui::Ui,
    game: &NetTable,
    view: &View,
    names: &[String],
    you: Option<Seat>,
    targets: &[u8],
    now: u64,
    w: &Words,
) -> Option<(Option<Card>, u8)> {
    let my_side = you.map(|you| side_of(you, view.sides));
    // One column on a phone held upright: two tableaux side by side do not fit.
    let columns = match view.sides {
        _ if look::narrow(ui) => 1,
        sides if sides > 2 => 2,
        sides => sides.max(1) as usize,
    };
    let mut picked = None;
    egui::Grid::new("mb-tableaux").num_columns(columns).spacing(Vec2::new(24.0, 16.0)).show(ui, |ui| {
        for (i, t) in view.tableaux.iter().enumerate() {
            let side = i as u8;
            // A grid's cell lays out left to right; a tableau reads top to bottom.
            let shown = look::panel(ui, targets.contains(&side), |ui| {
                ui.vertical(|ui| tableau(ui, game, view, names, side, t, my_side, now, w));
            });
            if let Some(card) = target(ui, shown.response.rect, ("mb-tableau", side)) {
                picked = Some((card, side));
            }
            if (i + 1) % columns == 0 {
                ui.end_row();
            }
        }
    });
    picked
}

/// Where a card may go (a tableau, the discard pile): a card dropped on `rect` (`Some`), or
/// the area clicked (`None`: the card picked in the hand goes there).
fn target(ui: &egui::Ui, rect: egui::Rect, salt: (&str, u8)) -> Option<Option<Card>> {
    let response = ui.interact(rect, ui.scope_id().with(salt), egui::Sense::click());
    if let Some(card) = response.dnd_release_payload::<Card>() {
        return Some(Some(*card));
    }
    response.clicked().then_some(None)
}

/// One side's tableau: its name, piles, distance, safeties, and an attack pending on it.
#[allow(clippy::too_many_arguments)]
fn tableau(
    ui: &mut egui::Ui,
    game: &NetTable,
    view: &View,
    names: &[String],
    side: u8,
    t: &mille_bornes::Tableau,
    my_side: Option<u8>,
    now: u64,
    w: &Words,
) {
    // Two tableaux side by side on a laptop; on a phone's page one as wide as the page.
    ui.set_min_width(420.0_f32.min(ui.available_width()));
    let mut title = side_name(view, names, side);
    if Some(side) == my_side {
        title.push_str(w.you_mark);
    }
    let turn_here = matches!(view.phase, Phase::Turn { seat } if side_of(seat, view.sides) == side);
    look::player_title(ui, title, turn_here);
    ui.horizontal(|ui| {
        cards::small(ui, t.battle_top, 56.0, w.mb_battle);
        cards::small(ui, t.speed_top, 56.0, w.mb_speed);
        ui.vertical(|ui| {
            let target = view.settings.target_km;
            ui.add(
                egui::ProgressBar::new(f32::from(t.km) / f32::from(target.max(1)))
                    .text((w.mb_km_of)(t.km, target))
                    .desired_width(220.0),
            );
            ui.label((w.mb_two_hundreds)(t.two_hundreds()));
            // The distance cards laid, as they lie on the table.
            let laid: Vec<String> = mille_bornes::tableau::DISTANCES
                .iter()
                .zip(t.distances)
                .filter(|(_, n)| *n > 0)
                .map(|(km, n)| format!("{km}×{n}"))
                .collect();
            if !laid.is_empty() {
                ui.label(laid.join(" · "));
            }
            let state = if t.needs_feu_vert() {
                w.mb_needs_feu_vert
            } else if t.rolls() {
                w.mb_rolls
            } else {
                w.mb_stopped
            };
            ui.label(if t.limited() { format!("{state} · {}", w.mb_limited) } else { state.to_string() });
        });
    });
    ui.horizontal(|ui| {
        for safety in mille_bornes::Safety::ALL {
            // M-15.9: a Coup-Fourré's safety lies crosswise.
            match t.safeties.get(safety.index()).copied().flatten() {
                Some(mille_bornes::Laid::CoupFourre) => {
                    cards::crosswise(ui, safety.card(), 40.0);
                    ui.label(RichText::new(w.mb_coup_fourre_mark).italics());
                }
                Some(_) => cards::small(ui, Some(safety.card()), 40.0, ""),
                None => {}
            }
        }
    });
    // M-15.4: the pending attack on its pile, with the window's countdown.
    if let Phase::Window { side: target, attack, .. } = view.phase
        && target == side
    {
        ui.horizontal(|ui| {
            cards::small(ui, Some(attack.card()), 56.0, "");
            if let Some((opened_at, closes_at)) = game.window() {
                let length = closes_at.saturating_sub(opened_at).max(1) as f32;
                let left = closes_at.saturating_sub(now) as f32;
                ui.add(
                    egui::ProgressBar::new(left / length)
                        .text((w.mb_window_left)(f64::from(left) / 1e6))
                        .desired_width(220.0),
                );
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
            }
        });
    }
}

/// Returns a card dropped on the discard pile, or `Some(None)` when the pile was clicked.
fn side_panel(ui: &mut egui::Ui, game: &NetTable, view: &View, names: &[String], w: &Words) -> Option<Option<Card>> {
    // After a call: who, and their reaction from the attack's appearance to the call, as the
    // host published it (M-15.9).
    if let Some((seat, reaction)) = game.last_call() {
        let who = names.get(seat.index()).map_or("?", String::as_str);
        let text = match reaction {
            Some(us) => (w.mb_last_call)(who, &crate::text::ms(u32::try_from(us).unwrap_or(u32::MAX))),
            None => (w.mb_last_call_by)(who),
        };
        ui.label(RichText::new(text).strong());
        ui.separator();
    }
    let pile = ui.horizontal(|ui| {
        look::section(ui, w.mb_discard_pile);
        cards::small(ui, view.discard_top, 48.0, "");
    });
    let discarded = target(ui, pile.response.rect, ("mb-discard", 0));
    if let Some(last) = view.history.last() {
        ui.separator();
        look::section(ui, w.mb_score_sheet);
        egui::Grid::new("mb-score").striped(true).show(ui, |ui| {
            ui.label("");
            for h in w.mb_score_lines {
                ui.label(h);
            }
            ui.end_row();
            for (side, line) in last.lines().iter().enumerate() {
                ui.label(side_name(view, names, side as u8));
                for v in [
                    line.distance,
                    line.safeties,
                    line.coup_fourres,
                    line.won,
                    line.without_200,
                    line.shut_out,
                    line.total(),
                ] {
                    ui.label(v.to_string());
                }
                ui.end_row();
            }
        });
    }
    ui.separator();
    let lines = game.log().iter().filter_map(|e| Some((describe(e, view, names, w)?, (w.rule_n)(e.rule()))));
    look::log(ui, w.what_happened, lines);
    discarded
}

/// The end of a game: the places (M-13), the points hand after hand, and the deal checked.
fn podium(ui: &mut egui::Ui, game: &NetTable, view: &View, names: &[String], w: &Words) {
    ui.heading(RichText::new(w.mb_game_over).size(30.0));
    for (rank, seat, points, hands_won) in game.standings().unwrap_or_default() {
        let side = side_name(view, names, side_of(seat, view.sides));
        ui.label(RichText::new((w.mb_standing)(rank, &side, points, hands_won)).size(22.0));
    }
    match game.cards_checked() {
        Some(Ok(hands)) => {
            ui.colored_label(Color32::from_rgb(90, 190, 110), (w.mb_cards_checked)(hands));
        }
        Some(Err(e)) => {
            ui.colored_label(Color32::from_rgb(230, 80, 60), (w.mb_cards_do_not_match)(&e));
        }
        None => {}
    }
    ui.add_space(8.0);
    ui.label(RichText::new(w.mb_points_per_hand).strong());
    let history = &view.history;
    egui_plot::Plot::new("mb-points")
        .height(260.0)
        .legend(egui_plot::Legend::default())
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .show(ui, |plot| {
            for side in 0..view.sides {
                let mut total = 0.0;
                let mut points = vec![[0.0, 0.0]];
                for (hand, score) in history.iter().enumerate() {
                    total += f64::from(score.lines().get(usize::from(side)).map_or(0, |l| l.total()));
                    points.push([(hand + 1) as f64, total]);
                }
                plot.line(egui_plot::Line::new(side_name(view, names, side), points).width(3.0));
            }
        });
}

#[cfg(test)]
mod layout_tests {
    use super::hand_card_width;

    #[test]
    fn the_hand_fits_a_laptop_in_one_row_and_a_phone_in_two() {
        let gap = 8.0;
        let laptop = hand_card_width(1264.0, gap, false);
        assert!(7.0 * laptop + 6.0 * gap <= 1264.0 && laptop >= 70.0, "{laptop}");
        for width in [374.0, 320.0] {
            let card = hand_card_width(width, gap, true);
            assert!(4.0 * card + 3.0 * gap <= width, "{width} px: four cards of {card} fit");
            assert!(card >= 56.0, "a thumb's width");
        }
    }
}
