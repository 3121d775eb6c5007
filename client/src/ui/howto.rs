//! "How to play": each game's rules in a page, in the window's language, from the project's
//! rules files (`docs/rules/`), each paragraph naming the rule ids it sums up.

use crate::lang::Words;
use egui::RichText;

/// The games the page explains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    Bolide,
    MilleBornes,
    Entenrallye,
}

/// Draws the page; returns true when the pilot goes back.
pub fn show(ui: &mut egui::Ui, game: &mut Game, w: &Words) -> bool {
    let mut back = false;
    ui.horizontal(|ui| {
        back = ui.button(w.back).clicked();
        ui.heading(w.how_to_play);
        ui.selectable_value(game, Game::Bolide, "Bolide");
        ui.selectable_value(game, Game::MilleBornes, "1000 Bornes");
        ui.selectable_value(game, Game::Entenrallye, "Entenrallye");
    });
    ui.separator();
    let sections = match game {
        Game::Bolide => w.howto_bolide,
        Game::MilleBornes => w.howto_mille_bornes,
        Game::Entenrallye => w.howto_entenrallye,
    };
    for (title, body) in sections {
        ui.label(RichText::new(*title).size(18.0).strong());
        ui.label(*body);
        ui.add_space(6.0);
    }
    if *game == Game::Bolide {
        ui.weak(w.no_sound_note);
    }
    back
}
