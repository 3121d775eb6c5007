//! "How to play": each game's rules in a page, in the window's language, from the project's
//! rules files (`docs/rules/`), each paragraph naming the rule ids it sums up. The games and
//! their pages are the registry's (`crate::games::Registry`).

use crate::games::Registry;
use crate::lang::Words;
use egui::RichText;

/// Draws the page of the game called `game`; returns true when the pilot goes back.
pub fn show(ui: &mut egui::Ui, game: &mut &'static str, w: &Words) -> bool {
    let games = Registry::standard();
    let mut back = false;
    ui.horizontal(|ui| {
        back = ui.button(w.back).clicked();
        ui.heading(w.how_to_play);
        for entry in games.iter() {
            ui.selectable_value(game, entry.name, entry.title);
        }
    });
    ui.separator();
    let Some(entry) = games.get(game).or_else(|| games.first()) else { return back };
    let (sections, note) = (entry.howto)(w);
    for (title, body) in sections {
        ui.label(RichText::new(*title).size(18.0).strong());
        ui.label(*body);
        ui.add_space(6.0);
    }
    if let Some(note) = note {
        ui.weak(note);
    }
    back
}
