//! The end of a championship: the podium (B-7.3) and the points race after race (B-7.2).

use super::race::points_by_race;
use crate::games::bolide::Mirror;
use crate::lang::Words;
use crate::ui::look;
use bolide_table::wire::StandingLine;
use egui::RichText;

pub fn show(ui: &mut egui::Ui, t: &Mirror, standings: &[StandingLine], w: &Words) {
    ui.vertical_centered(|ui| {
        ui.heading(RichText::new(w.championship_over_heading).size(34.0));
        ui.add_space(10.0);
        for line in standings {
            let c = t.colour(line.seat);
            let size = if line.rank <= 3 { 28.0 - 3.0 * f32::from(line.rank) } else { 18.0 };
            ui.label(
                RichText::new((w.podium_line)(line.rank, &line.name, line.points, line.wins))
                    .size(size)
                    .background_color(look::colour(c))
                    .color(look::ink(c)),
            );
        }
    });
    ui.add_space(8.0);
    ui.vertical_centered(|ui| dice(ui, t, w));
    ui.add_space(12.0);
    night(ui, t, standings, w);
    ui.add_space(12.0);
    let races = points_by_race(t);
    if races.is_empty() {
        return;
    }
    ui.label(RichText::new(w.points_after_each_race).strong());
    let count = races.len();
    egui_plot::Plot::new("points-per-race")
        .height(ui.available_height().clamp(160.0, 420.0))
        .legend(egui_plot::Legend::default())
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        // Races are whole: one grid line, one label per race.
        .x_grid_spacer(move |_| {
            (0..=count).map(|race| egui_plot::GridMark { value: race as f64, step_size: 1.0 }).collect()
        })
        .x_axis_formatter(move |mark, _| match mark.value.round() as i64 {
            0 => w.axis_start.into(),
            race => (w.axis_race)(race),
        })
        .show(ui, |plot| {
            for line in standings {
                let mut total = 0.0;
                let mut points = vec![[0.0, 0.0]];
                for (race, scores) in races.iter().enumerate() {
                    total += f64::from(scores.get(line.seat.index()).copied().unwrap_or(0));
                    points.push([(race + 1) as f64, total]);
                }
                let colour = look::colour(t.colour(line.seat));
                plot.line(egui_plot::Line::new(line.name.clone(), points).color(colour).width(3.0));
            }
        });
}

/// Provably fair dice: what this laptop's own check of every draw it saw says.
fn dice(ui: &mut egui::Ui, t: &Mirror, w: &Words) {
    let sealed = t.dice.commitment().map_or_else(String::new, |c| format!(" ({}…)", c.short()));
    match t.dice.verdict() {
        Some(Ok(report)) => {
            ui.colored_label(
                egui::Color32::from_rgb(90, 190, 110),
                (w.dice_checked_sealed)(&(w.dice_report)(report), &sealed),
            );
        }
        Some(Err(mismatch)) => {
            ui.colored_label(
                egui::Color32::from_rgb(230, 80, 60),
                RichText::new((w.dice_mismatch_sealed)(&mismatch.to_string())).size(20.0).strong(),
            );
        }
        None => {
            ui.weak((w.seed_not_revealed)(&sealed));
        }
    }
    if t.part_in == Some(false) {
        ui.colored_label(egui::Color32::from_rgb(230, 80, 60), RichText::new(w.part_left_out).strong());
    }
}

/// The night's statistics (`crate::stats`): a line per pilot, and each pilot's reactions grab
/// after grab.
pub(super) fn night(ui: &mut egui::Ui, t: &Mirror, standings: &[StandingLine], w: &Words) {
    let pilots = standings.iter().map(|l| l.seat.index() + 1).max().unwrap_or(0);
    let stats = crate::stats::night(&t.events, pilots);
    ui.label(RichText::new(w.stats_heading).strong());
    let ms = |us: Option<u32>| us.map_or("—".to_string(), crate::text::ms);
    egui::Grid::new("night-stats").striped(true).show(ui, |ui| {
        for h in w.stats_columns {
            ui.label(RichText::new(h).strong());
        }
        ui.end_row();
        for line in standings {
            let Some(s) = stats.get(line.seat.index()) else { continue };
            let c = t.colour(line.seat);
            ui.label(RichText::new(format!(" {} ", line.name)).background_color(look::colour(c)).color(look::ink(c)));
            ui.label(ms(s.median_us()));
            ui.label(ms(s.fastest_us()));
            ui.label(format!("{} ({})", s.contests_won.len(), ms(s.median_win_margin_us())));
            ui.label(s.contests_lost.len().to_string());
            ui.label(format!("{} ({})", s.klaxon_calls, s.klaxon_first));
            ui.label(s.tokens.to_string());
            ui.label(s.tiles_per_round().map_or("—".into(), |t| format!("{t:.1}")));
            ui.end_row();
        }
    });
    if stats.iter().all(|s| s.reactions.is_empty()) {
        return;
    }
    ui.label(RichText::new(w.reactions_chart).strong());
    egui_plot::Plot::new("reactions")
        .height(180.0)
        .legend(egui_plot::Legend::default())
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .y_axis_formatter(|mark, _| format!("{:.0} ms", mark.value))
        .show(ui, |plot| {
            for line in standings {
                let Some(s) = stats.get(line.seat.index()) else { continue };
                let points: Vec<[f64; 2]> =
                    s.reactions.iter().enumerate().map(|(i, r)| [(i + 1) as f64, f64::from(*r) / 1000.0]).collect();
                let colour = look::colour(t.colour(line.seat));
                plot.points(egui_plot::Points::new(line.name.clone(), points).color(colour).radius(4.0));
            }
        });
}
