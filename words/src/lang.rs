//! Every string a player reads, in one place per language: French and English.
//!
//! A typed table rather than Fluent files: each language is one value of [`Words`], so a
//! language that lacks a key, or a message whose arguments changed, does not compile — the
//! check "each language has every key" is the compiler's, before any test runs; a message
//! with arguments is a function, so word order follows each language (French puts the name
//! where French puts it) with no placeholder syntax to get wrong. Token and card names are
//! printed as the box prints them.

use bolide::{Atout, BonusKind};
use serde::{Deserialize, Serialize};

/// The languages of the window, `--text` and `bolide-bot`'s lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    En,
    Fr,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// French where the system's language is French (`LC_ALL`, `LC_MESSAGES`, `LANG`, the
    /// first one set wins, as POSIX reads them), English otherwise.
    pub fn from_env() -> Lang {
        let var = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
            .unwrap_or_default();
        Lang::from_locale(&var)
    }

    /// `fr_FR.UTF-8`, `fr_CA`, `fr` → French; anything else → English.
    pub fn from_locale(locale: &str) -> Lang {
        if locale.to_ascii_lowercase().starts_with("fr") { Lang::Fr } else { Lang::En }
    }

    pub fn words(self) -> &'static Words {
        match self {
            Lang::En => &EN,
            Lang::Fr => &FR,
        }
    }

    /// Its BCP 47 tag (`en`, `fr`), as a page's `<html lang>` says it.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language's own name, as its speakers write it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Fr => "Français",
        }
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Lang, String> {
        match s.to_ascii_lowercase().as_str() {
            "en" | "english" => Ok(Lang::En),
            "fr" | "français" | "francais" | "french" => Ok(Lang::Fr),
            _ => Err(format!("`{s}` is not a language here: en or fr")),
        }
    }
}

/// Every string of one language.
pub struct Words {
    // Tokens and colours, as the box prints them.
    pub atouts: [&'static str; 3],
    pub bonuses: [&'static str; 6],
    pub lanterne_rouge: &'static str,
    pub second_chance: &'static str,

    // The board in a terminal.
    pub circuit: &'static str,
    pub bonus: &'static str,
    pub no_atout_left: &'static str,
    pub atouts_held: fn(&str) -> String,
    pub bonuses_held: fn(&str) -> String,

    // The event log.
    pub race_started: fn(u8, &str) -> String,
    pub round_started: fn(u16, &str) -> String,
    pub panne_seche: fn(&str) -> String,
    pub klaxon_called: fn(&str) -> String,
    pub cup_lifted: &'static str,
    pub klaxon_peek: fn(&str) -> String,
    pub reservoirs: fn(&str) -> String,
    pub grabs_pawn: fn(&str, u16) -> String,
    pub gets_last_pawn: fn(&str, u16) -> String,
    pub echanged: fn(&str, &str) -> String,
    pub lanterne_rouge_move: fn(&str, u8) -> String,
    pub as_de_la_route: fn(&str) -> String,
    pub aspiration: fn(&str, u8) -> String,
    pub rolled: fn(&str, u8, u8) -> String,
    pub second_chance_rolled: fn(&str, u8, u8) -> String,
    pub stuck: fn(&str, u8, u8) -> String,
    pub moved_blocked: fn(&str, u8, u8, u8) -> String,
    pub moved: fn(&str, u8, u8) -> String,
    pub raccourci: fn(&str, u8, u8) -> String,
    pub nitro: fn(&str, u8) -> String,
    pub crossed: fn(&str, u8) -> String,
    pub assistance: fn(&str, &str) -> String,
    pub huile: fn(&str, u8) -> String,
    pub bonus_taken: fn(&str, &str, u8) -> String,
    pub second_chance_taken: fn(&str) -> String,
    pub is_lanterne_rouge: fn(&str) -> String,
    pub race_over: fn(&str) -> String,
    pub points: fn(&str) -> String,
    pub standing_line: fn(u8, &str, u32, u8) -> String,
    pub championship: fn(&str) -> String,
    pub photo_finish: &'static str,
    pub echange_photo_finish: &'static str,
    pub chose_before: fn(&str, &str, &str) -> String,
    pub pawn_to_tied: fn(u16, &str, &str) -> String,
    pub pawn_to_ahead: fn(u16, &str, &str, &str) -> String,

    // The race screen.
    pub waiting_first_view: &'static str,
    pub seat_past_table: fn(u16, usize) -> String,
    pub refused: fn(&str) -> String,
    pub klaxon_you_peek: &'static str,
    pub peeks_and_chooses: fn(&str) -> String,
    pub hands_ready: &'static str,
    pub echange_soon: &'static str,
    pub race_over_heading: &'static str,
    pub yours_pawn: fn(u16, u8) -> String,
    pub taken_by: fn(&str) -> String,
    pub asked_waiting: &'static str,
    pub grab_now: &'static str,
    pub grab_is_on: &'static str,
    pub pawn_label: fn(u16, &str) -> String,
    pub your_turn: &'static str,
    pub someones_turn: fn(&str) -> String,
    pub reservoir_n: fn(u8) -> String,
    pub accelerator_die: fn(u8) -> String,
    pub movement_points: fn(u8) -> String,
    pub roll_button: &'static str,
    pub raccourci_after: fn(u8) -> String,
    pub assistance_take_back: fn(&str) -> String,
    pub end_turn_button: &'static str,
    pub huile_pick: &'static str,
    pub move_click_or: &'static str,
    pub n_tiles: fn(u8) -> String,
    pub cup_down: &'static str,
    pub lifts_in: fn(f64) -> String,
    pub klaxon_calls: fn(&str) -> String,
    pub klaxon_button: &'static str,
    pub echange_holders_decide: &'static str,
    pub declared_waiting: &'static str,
    pub echange_now: &'static str,
    pub echange_with: fn(&str, u8) -> String,
    pub keep_my_pawn: &'static str,
    pub race_round: fn(u8, u8, u16) -> String,
    pub drives: fn(&str) -> String,
    pub before_bot: fn(u64) -> String,
    pub you_tokens: fn(&str) -> String,
    pub no_token_left: &'static str,
    pub pilots: &'static str,
    pub tile_n: fn(u8) -> String,
    pub what_happened: &'static str,
    pub rule_n: fn(&str) -> String,
    pub photo_finish_hint: &'static str,
    pub pts: fn(&str, u32) -> String,

    // `bolide --text`.
    pub text_title: fn(u8, &str, u8) -> String,
    pub host_bot: &'static str,
    pub over_the_wire: &'static str,
    pub championship_over: &'static str,
    pub standing_full: fn(u8, &str, u32, u8) -> String,
    pub dice_not_revealed: &'static str,
    pub dice_checked: fn(&str) -> String,
    pub dice_do_not_match: fn(&str) -> String,

    // The start screen.
    pub tagline: &'static str,
    pub your_name: &'static str,
    pub pilot: &'static str,
    pub colour: &'static str,
    pub host_heading: &'static str,
    pub host_blurb: &'static str,
    pub table_name: &'static str,
    pub bots: &'static str,
    pub races: &'static str,
    pub resume_interrupted: &'static str,
    pub host_a_game: &'static str,
    pub join_heading: &'static str,
    pub looking_for_hosts: &'static str,
    pub version_mismatch: fn(&str, u32) -> String,
    pub at_address: fn(&str) -> String,
    pub host_entry: fn(&str, &str, &str, &str) -> String,
    /// The room code of a table picked from the list, typed from the host's screen (an advert
    /// is no proof of which host it is).
    pub code_on_host_screen: &'static str,
    pub as_on_host_screen: &'static str,
    /// More than one advert names a table so: only its host's screen says which is which.
    pub same_name: fn(&str) -> String,
    pub join_this_table: &'static str,
    /// Join as a spectator, even while seats are free.
    pub watch_this_table: &'static str,
    /// A table whose advert names a game this laptop does not know (update the game).
    pub unknown_game: &'static str,
    pub or_type: &'static str,
    /// The browser's start page: where it joins, and the code word from the host's screen.
    pub page_blurb: &'static str,
    /// The page opened by a name, not by the host's address (it joins by that address).
    pub page_by_address: fn(&str) -> String,
    /// The page cannot draw in this browser (why, as the browser said it).
    pub page_cannot_draw: fn(&str) -> String,
    pub code_word: &'static str,
    pub address: &'static str,
    pub room_code: &'static str,
    pub join: &'static str,
    pub not_an_address: fn(&str) -> String,
    pub practice_heading: &'static str,
    pub practice_blurb: &'static str,
    pub practice: &'static str,
    pub bots_play: &'static str,
    pub for_fun: &'static str,
    pub to_win: &'static str,

    // The lobby.
    pub waiting_lobby: &'static str,
    pub room_code_tell: &'static str,
    pub join_at: fn(&str) -> String,
    /// The address a phone or any browser opens (the lobby shows its QR code beside).
    pub from_a_browser: fn(&str) -> String,
    pub from_a_browser_title: &'static str,
    pub or_sep: &'static str,
    /// The host's door locked for new joins: for how many seconds, after how many wrong codes.
    pub joins_locked: fn(u64, u64) -> String,
    pub dice_sealed: fn(&str) -> String,
    pub dice_sealed_hover: fn(&str) -> String,
    pub championship_heading: &'static str,
    pub first_pilot_sets: &'static str,
    /// The same, for a game of players (1000 Bornes, Entenrallye).
    pub first_player_sets: &'static str,
    /// The lobby's heading over the seats of a game of players.
    pub players_heading: &'static str,
    /// A table left by the player.
    pub you_left: &'static str,
    /// A table whose game is over and closed.
    pub game_over: &'static str,
    pub races_setting: &'static str,
    pub bots_setting: &'static str,
    pub bots_play_setting: &'static str,
    pub first_player_setting: &'static str,
    pub random: &'static str,
    pub seat_n: fn(u16) -> String,
    pub circuit_setting: &'static str,
    pub random_layout: &'static str,
    pub from_a_file: &'static str,
    pub edit_tiles: &'static str,
    pub seed: &'static str,
    pub file: &'static str,
    pub load: &'static str,
    pub custom_tiles: &'static str,
    pub tiles_in_order: &'static str,
    pub valid_circuit: &'static str,
    pub use_circuit: &'static str,
    pub not_valid_circuit: fn(&str) -> String,
    pub you_mark: &'static str,
    pub bot: &'static str,
    pub disconnected: &'static str,
    /// The lobby's network check of one laptop: a steady path (its delay, ms).
    pub path_good: fn(u16) -> String,
    /// A far or jittery path (its delay, ms).
    pub path_slow: fn(u16) -> String,
    /// A path that goes quiet in stretches (how often in the last minute, the longest ms).
    pub path_drops: fn(u16, u16) -> String,
    /// Not measured yet.
    pub path_measuring: &'static str,
    pub ready: &'static str,
    pub not_ready: &'static str,
    pub bot_n: fn(u8) -> String,
    pub you_watch: fn(u16) -> String,
    pub your_colour: &'static str,
    pub hand_flat: &'static str,
    pub put_hand_flat: &'static str,
    pub race_starts_when: &'static str,

    // The board, the podium, the banner.
    pub start_mark: &'static str,
    pub finish_mark: &'static str,
    pub oil: &'static str,
    pub start_grid: &'static str,
    pub finish_line: &'static str,
    pub tile_curve: fn(u8, u8) -> String,
    pub tile_straight: fn(u8) -> String,
    pub face_down_bonus: &'static str,
    pub oil_here: &'static str,
    pub cars_here: fn(&str) -> String,
    pub championship_over_heading: &'static str,
    pub podium_line: fn(u8, &str, u32, u8) -> String,
    pub points_after_each_race: &'static str,
    pub axis_start: &'static str,
    pub axis_race: fn(i64) -> String,
    pub dice_checked_sealed: fn(&str, &str) -> String,
    pub dice_mismatch_sealed: fn(&str) -> String,
    /// This laptop's part of the luck is not among those the game's seed was mixed from.
    pub part_left_out: &'static str,
    pub seed_not_revealed: fn(&str) -> String,
    pub leave_table: &'static str,
    pub connecting: &'static str,
    pub connection_lost: fn(&str, u32) -> String,
    pub back_to_start: &'static str,
    pub cannot_host: fn(&str) -> String,
    pub host_did_not_start: &'static str,
    /// A window that cannot host on this device (no embedded host): join a table instead.
    pub cannot_host_here: &'static str,

    // How to play, and Practice's first-round guide.
    pub how_to_play: &'static str,
    pub back: &'static str,
    pub howto_bolide: &'static [(&'static str, &'static str)],
    pub howto_mille_bornes: &'static [(&'static str, &'static str)],
    pub howto_entenrallye: &'static [(&'static str, &'static str)],
    pub no_sound_note: &'static str,
    pub guide_title: &'static str,
    pub guide_steps: [&'static str; 4],
    pub guide_start: &'static str,
    pub stats_heading: &'static str,
    pub stats_columns: [&'static str; 8],
    pub reactions_chart: &'static str,

    // Replays.
    pub replays_heading: &'static str,
    pub replays_none: &'static str,
    pub replay_entry: fn(&str, &str, &str) -> String,
    pub watch_replay: &'static str,
    pub replay_cannot_open: fn(&str) -> String,
    pub replay_nav: [&'static str; 6],
    pub replay_play: &'static str,
    pub replay_pause: &'static str,
    pub replay_podium: &'static str,
    /// Race, round, move and moves.
    pub replay_where: fn(u16, u16, usize, usize) -> String,
    pub mb_replay_nav: [&'static str; 6],
    /// Hand, turn round the table, move and moves.
    pub mb_replay_where: fn(u16, u16, usize, usize) -> String,
    pub ente_replay_nav: [&'static str; 6],
    pub ente_replay_where: fn(u16, u16, usize, usize) -> String,
    pub replay_stats: &'static str,
    pub replay_keys: &'static str,
    pub night_kept: &'static str,
    pub night_not_kept: fn(&str) -> String,

    // The warm-up.
    pub drill: &'static str,
    pub drill_blurb: &'static str,
    pub drill_cup: &'static str,
    pub drill_now: &'static str,
    pub drill_early: &'static str,
    /// A reaction, in ms.
    pub drill_reaction: fn(f64) -> String,
    /// How many reactions, their median and the fastest, in ms.
    pub drill_summary: fn(usize, f64, f64) -> String,
    /// What the dice check covered (`DiceReport`).
    pub dice_report: fn(&bolide::dice::DiceReport) -> String,

    // 1000 Bornes.
    pub mb_hand_n: fn(u16) -> String,
    pub mb_draw_pile: fn(u8) -> String,
    pub mb_game_over: &'static str,
    pub mb_window_open: &'static str,
    pub mb_cf_refused: fn(&str) -> String,
    pub mb_coup_fourre_button: &'static str,
    pub mb_on_side: fn(&str) -> String,
    pub mb_play: &'static str,
    pub mb_discard: &'static str,
    pub mb_battle: &'static str,
    pub mb_speed: &'static str,
    pub mb_km_of: fn(u16, u16) -> String,
    pub mb_two_hundreds: fn(u8) -> String,
    pub mb_needs_feu_vert: &'static str,
    pub mb_rolls: &'static str,
    pub mb_stopped: &'static str,
    pub mb_limited: &'static str,
    pub mb_coup_fourre_mark: &'static str,
    pub mb_window_left: fn(f64) -> String,
    pub mb_discard_pile: &'static str,
    pub mb_score_sheet: &'static str,
    pub mb_score_lines: [&'static str; 7],
    pub mb_dealt: fn(u16, &str) -> String,
    pub mb_you_draw: fn(&str) -> String,
    pub mb_attacks: fn(&str, &str, &str) -> String,
    pub mb_plays: fn(&str, &str) -> String,
    pub mb_discards: fn(&str, &str) -> String,
    pub mb_cleared: fn(&str) -> String,
    pub mb_plays_again: fn(&str) -> String,
    pub mb_passes: fn(&str) -> String,
    pub mb_window_for: fn(&str) -> String,
    pub mb_coup_fourre: fn(&str, &str) -> String,
    pub mb_lost_turn: fn(&str) -> String,
    pub mb_attack_stands: fn(&str, &str) -> String,
    pub mb_hand_over: fn(u16) -> String,
    pub practice_game: &'static str,
    pub players: &'static str,
    pub mb_standing: fn(u8, &str, u32, u8) -> String,
    pub mb_cards_checked: fn(usize) -> String,
    pub mb_cards_do_not_match: fn(&str) -> String,
    pub mb_points_per_hand: &'static str,
    pub mb_to_5000: &'static str,
    pub mb_hands_n: fn(u8) -> String,
    pub titled: fn(&str, &str) -> String,
    pub mb_last_call: fn(&str, &str) -> String,
    pub mb_last_call_by: fn(&str) -> String,
    pub game_choice: &'static str,
    pub play_instead: fn(&str) -> String,
    pub mb_settings_heading: &'static str,
    pub mb_trip: &'static str,
    pub mb_play_to: &'static str,
    pub mb_window_length: &'static str,
    pub mb_turn_timer: &'static str,
    pub off: &'static str,
    pub mb_coup_fourre_mode: &'static str,
    pub mb_real_time: &'static str,
    pub mb_automatic: &'static str,
    pub mb_open_hands: &'static str,
    pub mb_players_n: fn(usize) -> String,
    pub mb_game_starts_when: &'static str,
    pub table_plays_unknown: fn(&str) -> String,
    /// The window stopped following a lobby that switched games this many times in a row.
    pub too_many_switches: fn(u32) -> String,
    pub mb_reaction: fn(&str, &str) -> String,
    pub mb_deal_sealed: fn(&str) -> String,
    pub mb_teams: &'static str,
    pub mb_teams_drawn: &'static str,
    pub mb_teams_placed: &'static str,
    pub mb_team_n: fn(usize) -> String,
    pub mb_place_n: fn(usize) -> String,
    pub mb_bot_plays_for: fn(&str, u64) -> String,
    pub mb_deal_sealed_hover: fn(&str) -> String,
    // Entenrallye: the log's lines, and what they name.
    pub ente_first: fn(&str) -> String,
    pub ente_rolls: fn(&str, u8) -> String,
    pub ente_stays: fn(&str) -> String,
    pub ente_drives: fn(&str, u8, &str) -> String,
    pub ente_buys: fn(&str) -> String,
    pub ente_you_buy: fn(&str) -> String,
    pub ente_repairs: fn(&str, u8, u8) -> String,
    pub ente_judged: fn(&str, u8, u8) -> String,
    pub ente_waits: fn(&str, &str) -> String,
    pub ente_parts_back: fn(&str, u8) -> String,
    pub ente_passed: fn(&str, &str, u8) -> String,
    pub ente_failed: fn(&str, &str, u8) -> String,
    pub ente_rounded_up: fn(&str, &str, u8) -> String,
    pub ente_steals: fn(&str, &str) -> String,
    pub ente_you_got: fn(&str) -> String,
    pub ente_exchanges: fn(&str, &str) -> String,
    pub ente_fits: fn(&str, &str) -> String,
    pub ente_time: fn(&str, u8) -> String,
    pub ente_year_over: &'static str,
    pub ente_standing: fn(u8, &str, u32) -> String,
    pub ente_months: [&'static str; 12],
    /// Squares in the rules' words (E-2), never the board's ids.
    pub ente_sq_start: &'static str,
    pub ente_sq_grey: &'static str,
    pub ente_sq_beige: &'static str,
    pub ente_sq_shortcut: &'static str,
    /// Meeting n (its month).
    pub ente_sq_meeting: fn(u8, &str) -> String,
    /// A check's station (check, month).
    pub ente_sq_station: fn(&str, &str) -> String,
    /// The spur to a check's station.
    pub ente_sq_spur: fn(&str) -> String,
    pub ente_sq_workshop: fn(&str) -> String,
    /// Minus square −k behind a check's workshop.
    pub ente_sq_minus: fn(u8, &str) -> String,
    /// A square and how far the next place is: (what, squares, place).
    pub ente_sq_before: fn(&str, u16, &str) -> String,
    /// The places, as "before …" names them.
    pub ente_place_meeting: fn(u8) -> String,
    pub ente_place_station: fn(&str) -> String,
    pub ente_sections: [&'static str; 4],
    pub ente_colours: [&'static str; 6],
    // Entenrallye's screen and lobby.
    pub ente_settings: &'static str,
    pub ente_first_player: &'static str,
    pub ente_first_seat: &'static str,
    pub ente_first_random: &'static str,
    pub ente_ties: &'static str,
    pub ente_ties_shared: &'static str,
    pub ente_ties_meetings: &'static str,
    pub ente_starts_when: &'static str,
    pub ente_calendar: fn(&str, u8, u8) -> String,
    pub ente_not_started: &'static str,
    pub ente_turn_of: fn(&str) -> String,
    pub ente_your_turn: &'static str,
    pub ente_roll: &'static str,
    pub ente_die: fn(u8) -> String,
    pub ente_drive_to: fn(u8, &str) -> String,
    pub ente_and_buy: &'static str,
    pub ente_and_repair: fn(u8) -> String,
    pub ente_fit: fn(&str) -> String,
    pub ente_steal_from: fn(&str) -> String,
    pub ente_exchange_with: fn(&str, &str) -> String,
    pub ente_keep_hint: &'static str,
    pub ente_keep: fn(&str) -> String,
    pub ente_keep_none: &'static str,
    pub ente_end_turn: &'static str,
    pub ente_repair_marker: fn(u8) -> String,
    pub ente_faults: fn(u8) -> String,
    pub ente_points: fn(u8) -> String,
    pub ente_hidden_n: fn(u8) -> String,
    pub ente_bare: &'static str,
    pub ente_check_states: [&'static str; 4],
    pub ente_waiting: &'static str,
    pub ente_your_parts: &'static str,
    pub ente_no_parts: &'static str,
    pub ente_pile: fn(u8) -> String,
    pub ente_game_over: &'static str,
    pub ente_keys: &'static str,
    pub ente_rolls_checked: fn(usize) -> String,
    pub ente_rolls_wrong: fn(&str) -> String,
}

impl Words {
    pub fn atout(&self, atout: Atout) -> &'static str {
        self.atouts[atout as usize]
    }

    pub fn bonus(&self, kind: BonusKind) -> &'static str {
        self.bonuses[kind as usize]
    }
}

/// Token names are the box's, in both languages (the box is French).
const ATOUTS: [&str; 3] = ["As de la route", "Nitro", "Klaxon"];
const BONUSES: [&str; 6] = ["Raccourci", "Aspiration", "Assistance", "Huile", "Échange", "Panne Sèche"];

pub static EN: Words = Words {
    ente_first: |who| format!("{who} starts; play goes clockwise"),
    ente_rolls: |who, die| format!("{who} rolls a {die}"),
    ente_stays: |who| format!("{who}'s 2CV stays where it is"),
    ente_drives: |who, squares, to| format!("{who} drives {squares} to {to}"),
    ente_buys: |who| format!("{who} buys a part"),
    ente_you_buy: |part| format!("You buy {part}"),
    ente_repairs: |who, points, marker| format!("{who} repairs {points} (marker at {marker})"),
    ente_judged: |who, meeting, points| format!("{who} is judged at meeting {meeting}: {points} points"),
    ente_waits: |who, month| format!("{who} is early and waits there for {month}"),
    ente_parts_back: |who, kept| format!("{who}'s parts go back into the pile ({kept} kept)"),
    ente_passed: |who, check, marker| format!("{who} passes the {check} (marker at {marker})"),
    ente_failed: |who, check, minus| format!("{who} fails the {check}: to −{minus} behind its workshop"),
    ente_rounded_up: |who, check, minus| {
        if minus == 0 {
            format!("{who} is rounded up for the {check}: to its workshop")
        } else {
            format!("{who} is rounded up for the {check}: to −{minus} behind its workshop")
        }
    },
    ente_steals: |who, from| format!("{who} steals a part from {from}"),
    ente_you_got: |part| format!("The part: {part}"),
    ente_exchanges: |who, with| format!("{who} exchanges a part with {with}"),
    ente_fits: |who, part| format!("{who} fits {part}"),
    ente_time: |month, step| format!("Calendar: {month}, step {step}"),
    ente_year_over: "December is over: the year ends",
    ente_standing: |rank, who, points| format!("{rank}. {who}: {points} points"),
    ente_months: [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    ente_sq_start: "START",
    ente_sq_grey: "grey road",
    ente_sq_beige: "beige road",
    ente_sq_shortcut: "shortcut",
    ente_sq_meeting: |n, month| format!("meeting {n} ({month})"),
    ente_sq_station: |check, month| format!("{check} station ({month})"),
    ente_sq_spur: |check| format!("road to the {check}"),
    ente_sq_workshop: |check| format!("{check} workshop"),
    ente_sq_minus: |k, check| format!("−{k} behind the {check} workshop"),
    ente_sq_before: |what, n, place| format!("{what}, {n} before {place}"),
    ente_place_meeting: |n| format!("meeting {n}"),
    ente_place_station: |check| format!("the {check}"),
    ente_sections: ["front", "front doors", "rear doors", "rear"],
    ente_colours: ["red", "yellow", "green", "blue", "white", "black"],
    ente_settings: "Entenrallye — settings",
    ente_first_player: "First player",
    ente_first_seat: "the first seat",
    ente_first_random: "drawn",
    ente_ties: "Equal totals",
    ente_ties_shared: "share the win",
    ente_ties_meetings: "more meetings first",
    ente_starts_when: "The year starts when everyone is ready (2 to 6 players).",
    ente_calendar: |month, step, steps| format!("{month}, step {step} of {steps}"),
    ente_not_started: "The calendar has not started",
    ente_turn_of: |who| format!("{who}'s turn"),
    ente_your_turn: "Your turn",
    ente_roll: "Roll the die (R)",
    ente_die: |d| format!("Die: {d}"),
    ente_drive_to: |n, to| format!("Drive {n} to {to}"),
    ente_and_buy: " + buy a part",
    ente_and_repair: |n| format!(" + repair {n}"),
    ente_fit: |part| format!("Fit {part}"),
    ente_steal_from: |who| format!("Steal a part from {who}"),
    ente_exchange_with: |part, who| format!("Give {part} to {who} for one of theirs"),
    ente_keep_hint: "Judged: keep at most two hidden parts; the others go back into the pile",
    ente_keep: |parts| format!("Keep {parts}"),
    ente_keep_none: "Keep none",
    ente_end_turn: "End the turn (Enter)",
    ente_repair_marker: |n| format!("repairs {n}/20"),
    ente_faults: |n| format!("{n} faults"),
    ente_points: |n| format!("{n} points"),
    ente_hidden_n: |n| format!("{n} hidden"),
    ente_bare: "bare",
    ente_check_states: ["due", "passed", "failed", "rounded up"],
    ente_waiting: "waiting for its month",
    ente_your_parts: "Your hidden parts",
    ente_no_parts: "none",
    ente_pile: |n| format!("Pile: {n}"),
    ente_game_over: "The year is over",
    ente_keys: "Keys: 1 to 9 pick the actions in the order shown · R rolls · Enter ends the turn",
    ente_rolls_checked: |n| format!("Die checked against the seed: all {n} rolls this laptop saw match"),
    ente_rolls_wrong: |why| format!("The die does NOT match the seed: {why}"),
    atouts: ATOUTS,
    bonuses: BONUSES,
    lanterne_rouge: "Lanterne Rouge",
    second_chance: "Seconde Chance",

    circuit: "circuit",
    bonus: "bonus",
    no_atout_left: "no Atout left",
    atouts_held: |list| format!("Atouts {list}"),
    bonuses_held: |list| format!("bonus {list}"),

    race_started: |race, first| format!("Race {race}! {first} starts."),
    round_started: |round, first| format!("— Round {round}: {first} holds the cup —"),
    panne_seche: |who| format!("{who}: Panne Sèche! Reservoir counts as 1 this round."),
    klaxon_called: |who| format!("{who}: Tuut-tuut! (Klaxon)"),
    cup_lifted: "The cup is lifted!",
    klaxon_peek: |who| format!("{who} peeks under the cup…"),
    reservoirs: |values| format!("Reservoirs: {values}"),
    grabs_pawn: |who, pawn| format!("{who} grabs pawn {pawn}"),
    gets_last_pawn: |who, pawn| format!("{who} gets the last pawn, {pawn}"),
    echanged: |who, with| format!("{who} plays Échange with {with}"),
    lanterne_rouge_move: |who, to| format!("{who}: Lanterne Rouge, free tile to {to}"),
    as_de_la_route: |who| format!("{who}: As de la route, no limits!"),
    aspiration: |who, to| format!("{who}: Aspiration up to {to}"),
    rolled: |who, roll, speed| format!("{who} rolls {roll}: {speed} km/h"),
    second_chance_rolled: |who, roll, speed| format!("{who}: Seconde Chance, rolls {roll}: {speed} km/h"),
    stuck: |who, at, tile| format!("{who} is stuck on {at} (too fast for tile {tile})"),
    moved_blocked: |who, from, to, tile| format!("{who} moves from {from} to {to}, too fast for tile {tile}"),
    moved: |who, from, to| format!("{who} moves from {from} to {to}"),
    raccourci: |who, from, to| format!("{who}: Raccourci! from {from} to {to}"),
    nitro: |who, to| format!("{who}: Nitro! one more tile to {to}"),
    crossed: |who, place| format!("{who} crosses the line (#{place})"),
    assistance: |who, atout| format!("{who}: Assistance brings back {atout}"),
    huile: |who, tile| format!("{who} pours oil on tile {tile}"),
    bonus_taken: |who, kind, tile| format!("{who} picks up {kind} on {tile}"),
    second_chance_taken: |who| format!("{who} takes a Seconde Chance token"),
    is_lanterne_rouge: |who| format!("{who} is the Lanterne Rouge"),
    race_over: |ranking| format!("Race over: {ranking}"),
    points: |list| format!("Points: {list}"),
    standing_line: |rank, who, points, wins| format!("{rank}. {who} {points} pts ({wins} wins)"),
    championship: |list| format!("Championship: {list}"),
    photo_finish: "Photo finish",
    echange_photo_finish: "Échange photo finish",
    chose_before: |a, by, b| format!("{a} chose {by} before {b}"),
    pawn_to_tied: |pawn, winner, other| format!("pawn {pawn} to {winner}, tied with {other} (drawn)"),
    pawn_to_ahead: |pawn, winner, by, other| format!("pawn {pawn} to {winner}, {by} ahead of {other}"),
    waiting_first_view: "Waiting for the first view of the race…",
    seat_past_table: |seat, n| {
        format!("The host put this laptop in seat {seat} of a table of {n}: leave and join again.")
    },
    refused: |why| format!("Refused: {why}"),
    klaxon_you_peek: "Klaxon! You peek under the cup: choose your pawn",
    peeks_and_chooses: |who| format!("{who} peeks under the cup and chooses…"),
    hands_ready: "Hands ready…",
    echange_soon: "Échange window…",
    race_over_heading: "Race over",
    yours_pawn: |pawn, value| format!("Yours: pawn {pawn} — reservoir {value}"),
    taken_by: |who| format!("Taken by {who} — choose again"),
    asked_waiting: "Asked… waiting for the host's verdict",
    grab_now: "GRAB! Click a pawn or press 1–6",
    grab_is_on: "The grab is on",
    pawn_label: |pawn, value| format!("Pawn {pawn} · {value}"),
    your_turn: "Your turn",
    someones_turn: |who| format!("{who}'s turn"),
    reservoir_n: |n| format!("reservoir {n}"),
    accelerator_die: |n| format!("accelerator die: {n}"),
    movement_points: |n| format!("{n} movement points"),
    roll_button: "Roll the accelerator (R)",
    raccourci_after: |n| format!("Raccourci after {n} tiles"),
    assistance_take_back: |atout| format!("Assistance: take back {atout}"),
    end_turn_button: "End turn (E)",
    huile_pick: "Huile: click a gold tile (Esc to cancel)",
    move_click_or: "Move: click a gold tile, or",
    n_tiles: |n| if n == 1 { "1 tile".into() } else { format!("{n} tiles") },
    cup_down: "The cup is down",
    lifts_in: |s| format!("lifts in {s:.1} s"),
    klaxon_calls: |list| format!("Klaxon! {list}"),
    klaxon_button: "Klaxon (K)",
    echange_holders_decide: "Échange: the bonus holders decide…",
    declared_waiting: "Declared… waiting for the host's verdict",
    echange_now: "ÉCHANGE! Swap pawns with someone? The quickest choice goes first (B-4.7)",
    echange_with: |who, r| format!("Échange with {who} (reservoir {r})"),
    keep_my_pawn: "Keep my pawn (Esc)",
    race_round: |race, races, round| format!("Race {race}/{races} · Round {round}"),
    drives: |who| format!("· {who} drives"),
    before_bot: |s| format!("· {s} s before a bot plays for you"),
    you_tokens: |list| format!("You: {list}"),
    no_token_left: "no token left",
    pilots: "Pilots",
    tile_n: |n| format!("tile {n}"),
    what_happened: "What happened",
    rule_n: |id| format!("rule {id}"),
    photo_finish_hint: "After each grab: every pilot's reaction, and what each contested pawn was won by.",
    pts: |who, p| format!("{who}: {p} pts"),
    text_title: |n, who, bots| format!("Bolide — {n} pilots: {who} and {bots} host bots"),
    host_bot: "host bot",
    over_the_wire: "over the wire",
    championship_over: "Championship over:",
    standing_full: |rank, who, points, wins| format!("{rank}. {who} — {points} points, {wins} race wins"),
    dice_not_revealed: "The dice were not revealed.",
    dice_checked: |check| format!("Dice checked: {check}"),
    dice_do_not_match: |e| format!("The dice do NOT match: {e}"),
    tagline: "The racing party game — every laptop at the table, one grab for the pawns.",
    your_name: "Your name",
    pilot: "Pilot",
    colour: "Colour",
    host_heading: "Host on this laptop",
    host_blurb: "This laptop hosts; the others join it over the Wi-Fi.",
    table_name: "Table name",
    bots: "bots",
    races: "races",
    resume_interrupted: "Resume the championship that was interrupted",
    host_a_game: "Host a game",
    join_heading: "Join a table",
    looking_for_hosts: "Looking for hosts on this network…",
    version_mismatch: |theirs, ours| format!("v{theirs}, this laptop runs v{ours}: update one of them"),
    at_address: |addr| format!(" at {addr}"),
    host_entry: |name, place, seats, version| format!("{name}{place} — {seats} seats · {version}"),
    code_on_host_screen: "Room code on the host's screen",
    as_on_host_screen: "GARAGE-7F3K-0Q9M-2XWB-HC4T, as on the host's screen",
    same_name: |name| {
        format!(
            "More than one table calls itself «{name}»: only the host whose screen shows your code will let you in."
        )
    },
    join_this_table: "Join this table",
    watch_this_table: "Watch this table",
    unknown_game: "a game this laptop does not know: update it",
    or_type: "Or type what the host's screen shows:",
    page_blurb: "This page came from the table's host: join it, or watch.",
    page_by_address: |host| {
        format!(
            "Open this page by the address the host's screen shows (like http://192.168.1.20:47118), not by {host}."
        )
    },
    page_cannot_draw: |why| {
        format!(
            "This browser cannot draw the table ({why}). Open the same address in a recent Chrome, Firefox, Safari or Edge."
        )
    },
    code_word: "Code word on the host's screen",
    address: "Address",
    room_code: "Room code",
    join: "Join",
    not_an_address: |text| {
        format!("`{text}` is not an address: type it as the host's screen shows it, such as 192.168.1.20:47117")
    },
    practice_heading: "Practice alone",
    practice_blurb: "You against bots, right now, on this laptop.",
    practice: "Practice",
    bots_play: "bots play",
    for_fun: "for fun",
    to_win: "to win",
    waiting_lobby: "Waiting for the lobby…",
    room_code_tell: "Room code — tell it to everyone at the table",
    join_at: |list| format!("Join at {list}"),
    from_a_browser: |url| format!("From a phone or any browser: {url}"),
    from_a_browser_title: "Join from a phone",
    or_sep: "  or  ",
    joins_locked: |secs, wrong| {
        format!(
            "New joins locked for {secs} s: {wrong} wrong room codes from this network. Seated players still come back. Joins open again once the guessing stops — someone may be trying codes: check who is on this Wi-Fi."
        )
    },
    dice_sealed: |short| format!("Dice sealed: {short}…"),
    dice_sealed_hover: |full| {
        format!(
            "The host's commitment to the championship's seed (SHA-256 {full}). The seed is revealed when the championship ends, and this laptop then checks every die it saw against it."
        )
    },
    championship_heading: "Championship",
    first_pilot_sets: "The first pilot sets the championship; it changes here live.",
    first_player_sets: "The first player sets the game; it changes here live.",
    players_heading: "Players",
    you_left: "You left the table.",
    game_over: "The game is over.",
    races_setting: "Races (B-7.1, default 3)",
    bots_setting: "Bots",
    bots_play_setting: "Bots play",
    first_player_setting: "First player (B-1.7, default random)",
    random: "random",
    seat_n: |n| format!("seat {n}"),
    circuit_setting: "Circuit",
    random_layout: "random (a new layout each race)",
    from_a_file: "from a file on this laptop",
    edit_tiles: "edit the tiles",
    seed: "seed",
    file: "file",
    load: "Load",
    custom_tiles: "custom tiles",
    tiles_in_order: "Tiles in order (click two to swap them; or type the notation: S straight, 60–100 a curve, * a star)",
    valid_circuit: "A valid circuit (B-2.4, B-2.5)",
    use_circuit: "Use this circuit",
    not_valid_circuit: |e| format!("Not a valid circuit: {e}"),
    you_mark: " (you)",
    bot: "bot",
    disconnected: "disconnected",
    path_good: |ms| format!("network good ({ms} ms)"),
    path_slow: |ms| format!("network slow ({ms} ms): still fair, verdicts wait a little longer"),
    path_drops: |n, ms| {
        format!("Wi-Fi drops ({n} in a minute, up to {ms} ms): sit closer to the router or use a cable")
    },
    path_measuring: "network: measuring…",
    ready: "ready",
    not_ready: "not ready",
    bot_n: |n| format!("Bot {n}"),
    you_watch: |n| format!("You watch ({n} spectators)."),
    your_colour: "Your colour",
    hand_flat: "Hand flat on the table (ready) — click to lift it",
    put_hand_flat: "Put your hand flat on the table (ready)",
    race_starts_when: "The race starts when every pilot is ready and at least three seats are filled.",
    start_mark: "START",
    finish_mark: "FINISH",
    oil: "oil",
    start_grid: "Start grid",
    finish_line: "Finish line",
    tile_curve: |p, limit| format!("Tile {p}: curve, {limit} km/h"),
    tile_straight: |p| format!("Tile {p}: straight"),
    face_down_bonus: ", a face-down bonus",
    oil_here: ", oil (B-5.14)",
    cars_here: |list| format!(", cars: {list}"),
    championship_over_heading: "Championship over",
    podium_line: |rank, who, points, wins| {
        let pts = if points == 1 { "point" } else { "points" };
        let won = if wins == 1 { "win" } else { "wins" };
        format!("{rank}. {who} — {points} {pts}, {wins} race {won}")
    },
    points_after_each_race: "Points after each race",
    axis_start: "start",
    axis_race: |race| format!("race {race}"),
    dice_checked_sealed: |report, sealed| {
        format!("Dice checked: {report}, all from the seed the lobby sealed{sealed}.")
    },
    dice_mismatch_sealed: |why| format!("The dice do NOT match the sealed seed: {why}"),
    part_left_out: "Your laptop's part of the luck is NOT among those the host mixed the seed from: the host may have chosen the luck.",
    seed_not_revealed: |sealed| format!("The host has not revealed its seed{sealed}: the dice cannot be checked."),
    leave_table: "Leave the table",
    connecting: "Connecting…",
    connection_lost: |why, attempt| format!("Connection lost ({why}) — coming back to your seat, try {attempt}…"),
    back_to_start: "Back to the start screen",
    cannot_host: |why| format!("Cannot host: {why}"),
    host_did_not_start: "The host could not start.",
    cannot_host_here: "This window cannot host a table: join one hosted on a laptop.",
    how_to_play: "How to play",
    back: "Back",
    howto_bolide: &[
        (
            "The race",
            "3 to 6 pilots race around a circuit of 36 tiles: straights, and curves with a speed limit (60 to 100 km/h). The first car across the finish line wins the race; a championship chains races and adds up their points (B-6.3, B-7).",
        ),
        (
            "The cup and the grab",
            "Each round the host rolls one reservoir die per pilot under the cup. When the cup lifts, everyone grabs a pawn at once — press 1–6 or click it. The fastest hand wins a contested pawn: the host measures each reaction on that pilot's own laptop, from the instant the reservoirs appeared on its screen to the key press, so a far laptop loses nothing (B-4.2, B-4.3).",
        ),
        (
            "Klaxon",
            "Before the cup lifts, press K to call Klaxon (once per race): you peek under the cup and choose your pawn before anyone else. A call after the lift is refused and the token kept (B-4.6).",
        ),
        (
            "Moving",
            "In turn, roll the accelerator (R): your speed is (reservoir + accelerator) × 10 km/h, and you may move up to your reservoir's value in tiles — but never onto a curve whose limit is below your speed. A car that could not move at all takes a Seconde Chance token (B-5.2 to B-5.4).",
        ),
        (
            "Tokens",
            "Each pilot has three Atouts — As de la route (ignore the limits), Nitro (one more tile), Klaxon — and may pick up face-down bonuses on the star tiles: Raccourci, Aspiration, Assistance, Huile, Échange, Panne Sèche. One special token per pilot per round (B-1.3, B-1.5, B-5.7).",
        ),
        (
            "Échange",
            "A pilot holding Échange may swap pawns with another after the grab, in a window timed like the grab: the quickest choice goes first (B-4.7).",
        ),
        (
            "Lanterne Rouge",
            "A car alone in last place at the end of a round holds the Lanterne Rouge: next round it first moves one tile for free (B-6.1, B-5.1).",
        ),
        (
            "Points",
            "At the end of a race the last car scores 0 and every other car one point per tile it is ahead of the last, plus 3 for every car that crossed the line; ties in the championship are broken by races won (B-7.2, B-7.3).",
        ),
    ],
    howto_mille_bornes: &[
        (
            "The trip",
            "2, 3, 4, 6 or 8 players (pairs at 6 and 8) race to lay exactly 1000 km of distance cards. A hand ends when a side reaches 1000 exactly, or when the cards run out; the game goes on hand after hand to 5000 points (M-2, M-11, M-13).",
        ),
        (
            "A turn",
            "Draw a card, then play one card or discard one: distance on your own row, a remedy or a safety on your own piles, an attack on an opponent's (M-5).",
        ),
        (
            "Rolling",
            "A car needs a Feu Vert to start and after every attack but the Limite. Under a Limite de Vitesse only 25 and 50 km may be laid; two 200 km cards per hand at most; the finish must be exact (M-4, M-6).",
        ),
        (
            "Attacks and remedies",
            "Feu Rouge is answered by Feu Vert, Limite de Vitesse by Fin de Limite, Panne d'Essence by Essence, Crevé by Roue de Secours, Accident by Réparations. An attack goes only on a car that rolls (a Limite on anyone) (M-1.3, M-7, M-8).",
        ),
        (
            "Safeties",
            "Véhicule Prioritaire, Citerne d'Essence, Increvable, As du Volant protect your car for the rest of the hand, and laying one gives you another play (M-9).",
        ),
        (
            "Coup-Fourré",
            "When an attack lands on your side and you hold its safety, press Coup-Fourré ! (Space) before the window closes: the attack is discarded, your safety lies crosswise, you draw and play at once, and it scores 300 more. The window opens on every attack, for everyone, the same length, whoever holds what (M-10, M-15).",
        ),
        (
            "Scoring",
            "Each km is a point; 100 per safety, 300 more per Coup-Fourré, 400 for the hand's winner, 200 more for winning without a 200, and 500 for each other side left at 0 km (M-12).",
        ),
    ],
    howto_entenrallye: &[
        (
            "The year",
            "2 to 6 players each drive a 2CV from START through the year: four meetings (M1 in February, M2 June, M3 August, M4 December, the end of the road) and two roadworthiness tests (TÜV in April, ASU in October). A month lasts as many steps as there are players; the game ends when December is over, or when every car stands on M4 (E-2, E-3, E-13.1).",
        ),
        (
            "A turn",
            "Roll the die, drive, then special actions, then time moves. The die is split: squares driven + 3 for a part bought + repair points. Drive at least one square; stop early only on a grey square, spending the rest on a part or repairs. A meeting you are early or in time for, a test you owe and M4 stop the car, the rest lost (E-4, E-5).",
        ),
        (
            "Special actions",
            "Only after a drive that ends on grey: buy a part (the rest of a 4, 5 or 6), repair (2 to 6), steal a hidden part from anyone on a 1, exchange one on a 2, and fit hidden parts on their free sections on any die (E-6 to E-9).",
        ),
        (
            "Time",
            "The calendar moves one step on a 6, and one step for an arrival in time (or early) at a meeting or at a test you owe. An early car waits on its meeting until its month (E-10, E-11.6).",
        ),
        (
            "Meetings",
            "A car judged at a meeting scores its fitted parts' points, plus one for each part in its own colour. Then its fitted parts go back into the pile and it keeps at most two hidden ones. A late car drives over the meeting: the shortcut beside it is shorter (E-7.7, E-11).",
        ),
        (
            "The tests",
            "At the TÜV and ASU stations your repair points must cover your car's faults (3 for each bare section, a part's own otherwise): pass and the marker goes down by the faults; fail and the car goes to the minus squares behind the test's workshop. Whoever still owes a test when May or November begins is rounded up where they stand (E-12).",
        ),
        (
            "Winning",
            "The most points over the meetings wins; equal totals share the win, or go to the one who scored more meetings if the table says so (E-13.2).",
        ),
    ],
    no_sound_note: "No sound marks the reveal: sound leaves each laptop tens of milliseconds apart, and the fastest ear would win instead of the fastest hand.",
    guide_title: "Your first race: what happens",
    guide_steps: [
        "1. The cup: the host rolls a reservoir die per pilot under it. A countdown shows when it lifts.",
        "2. Klaxon: before the lift, press K (once per race) to peek and choose your pawn first.",
        "3. The grab: the moment the reservoirs show, press 1–6 for the pawn you want. The fastest hand gets it — timed on this laptop, not by the network.",
        "4. Your turn: roll the accelerator (R), then click a gold tile (or press a digit) to move. Slow down for the curves.",
    ],
    guide_start: "Got it — start the race",
    stats_heading: "The night's statistics",
    stats_columns: [
        "Pilot",
        "Median reaction",
        "Fastest",
        "Contested pawns won (median margin)",
        "Lost",
        "Klaxon (chose first)",
        "Tokens played",
        "Tiles per round",
    ],
    reactions_chart: "Reactions, grab after grab (ms)",
    replays_heading: "Past nights",
    replays_none: "No replay yet: every championship this window hosts or plays is kept here at its end.",
    replay_entry: |date, game, names| format!("{date} · {game} · {names}"),
    watch_replay: "Watch the replay",
    replay_cannot_open: |why| format!("This replay cannot be opened: {why}"),
    replay_nav: ["« Race", "‹ Round", "‹ Move", "Move ›", "Round ›", "Race »"],
    replay_play: "Play",
    replay_pause: "Pause",
    replay_podium: "Podium",
    replay_where: |race, round, step, steps| format!("Race {race} · round {round} · move {step} of {steps}"),
    mb_replay_nav: ["« Hand", "‹ Round", "‹ Move", "Move ›", "Round ›", "Hand »"],
    ente_replay_nav: ["« Month", "‹ Turn", "‹ Move", "Move ›", "Turn ›", "Month »"],
    ente_replay_where: |month, turn, step, steps| {
        let month = EN.ente_months.get(usize::from(month).wrapping_sub(1)).copied().unwrap_or("before January");
        format!("{month}, turn {turn} · move {step} of {steps}")
    },
    mb_replay_where: |hand, round, step, steps| {
        format!("Hand {hand} · round the table {round} · move {step} of {steps}")
    },
    replay_stats: "The night so far",
    replay_keys: "Left and Right arrows: a move · Up and Down: a round · Space: play or pause",
    night_kept: "This night is kept: watch it again from the start screen's Past nights.",
    night_not_kept: |why| format!("This night could not be kept: {why}"),
    drill: "Warm up",
    drill_blurb: "Your reactions, timed as a race's grab times them. Nothing leaves this laptop.",
    drill_cup: "The cup is down. Press 1 to 6 (or click a reservoir) as soon as the reservoirs show.",
    drill_now: "Now!",
    drill_early: "Too early: wait for the reservoirs.",
    drill_reaction: |ms| format!("{ms:.0} ms"),
    drill_summary: |n, median, best| {
        format!("{n} reaction{} · median {median:.0} ms · fastest {best:.0} ms", if n > 1 { "s" } else { "" })
    },
    dice_report: |r| r.to_string(),
    mb_hand_n: |n| format!("Hand {n}"),
    mb_draw_pile: |n| format!("Draw pile: {n}"),
    mb_game_over: "Game over",
    mb_window_open: "An attack lands: Coup-Fourré?",
    mb_cf_refused: |safety| format!("You do not hold {safety}"),
    mb_coup_fourre_button: "Coup-Fourré ! (Space)",
    mb_on_side: |who| format!("On {who}"),
    mb_play: "Play (Enter)",
    mb_discard: "Discard (D)",
    mb_battle: "battle",
    mb_speed: "speed",
    mb_km_of: |km, target| format!("{km} / {target} km"),
    mb_two_hundreds: |n| format!("200 km cards: {n} of 2"),
    mb_needs_feu_vert: "needs a Feu Vert",
    mb_rolls: "rolls",
    mb_stopped: "stopped",
    mb_limited: "limited to 50",
    mb_coup_fourre_mark: "Coup-Fourré",
    mb_window_left: |s| format!("Coup-Fourré window: {s:.1} s"),
    mb_discard_pile: "Discard",
    mb_score_sheet: "Last hand's score",
    mb_score_lines: ["km", "safeties", "Coup-Fourrés", "trip", "no 200", "shut-out", "hand"],
    mb_dealt: |hand, dealer| format!("Hand {hand}: {dealer} deals"),
    mb_you_draw: |card| format!("You draw {card}"),
    mb_attacks: |who, card, target| format!("{who} plays {card} on {target}"),
    mb_plays: |who, card| format!("{who} plays {card}"),
    mb_discards: |who, card| format!("{who} discards {card}"),
    mb_cleared: |card| format!("{card} goes to the discard"),
    mb_plays_again: |who| format!("{who} plays again"),
    mb_passes: |who| format!("{who} has no card left and passes"),
    mb_window_for: |who| format!("Coup-Fourré window for {who}…"),
    mb_coup_fourre: |who, safety| format!("{who}: Coup-Fourré ! {safety}"),
    mb_lost_turn: |who| format!("{who} loses a turn"),
    mb_attack_stands: |card, who| format!("{card} stands on {who}"),
    mb_hand_over: |hand| format!("Hand {hand} is over"),
    practice_game: "game",
    players: "players",
    mb_standing: |rank, who, points, hands| {
        format!("{rank}. {who} — {points} points, {hands} hand{} won", if hands == 1 { "" } else { "s" })
    },
    mb_cards_checked: |hands| {
        let hands = if hands == 1 { "1 hand".to_string() } else { format!("{hands} hands") };
        format!("Cards checked: every card you saw in {hands} is the seed's deal.")
    },
    mb_cards_do_not_match: |why| format!("The cards do NOT match the seed: {why}"),
    mb_points_per_hand: "Points after each hand",
    mb_to_5000: "to 5000 points",
    mb_hands_n: |n| if n == 1 { "1 hand".into() } else { format!("{n} hands") },
    titled: |title, text| format!("{title}: {text}"),
    mb_last_call: |who, ms| format!("Last Coup-Fourré: {who}, {ms} after the attack"),
    mb_last_call_by: |who| format!("Last Coup-Fourré: {who}"),
    game_choice: "Game",
    play_instead: |game| format!("Play {game} at this table instead"),
    mb_settings_heading: "The game",
    mb_trip: "Trip",
    mb_play_to: "Play",
    mb_window_length: "Coup-Fourré window",
    mb_turn_timer: "Turn timer",
    off: "off",
    mb_coup_fourre_mode: "Coup-Fourré",
    mb_real_time: "called in real time",
    mb_automatic: "laid by the host at once",
    mb_open_hands: "Partners see each other's hand",
    mb_players_n: |n| format!("{n} players"),
    mb_game_starts_when: "The game starts when everyone is ready, at 2, 3, 4, 6 or 8 players (bots included).",
    mb_reaction: |who, ms| format!("{who} called Coup-Fourré {ms} after the attack appeared"),
    mb_deal_sealed: |short| format!("Deal sealed: {short}…"),
    mb_teams: "Teams",
    mb_teams_drawn: "drawn at the start",
    mb_teams_placed: "placed by the first player",
    mb_team_n: |n| format!("Team {n}:"),
    mb_place_n: |n| format!("Place {n}"),
    mb_bot_plays_for: |who, s| format!("{who}'s turn: a bot plays it in {s} s"),
    mb_deal_sealed_hover: |full| {
        format!(
            "The host's commitment to the game's seed (SHA-256 {full}), from which every hand is dealt (M-3.2). The seed is revealed when the game ends, and this laptop then checks every card it saw against it."
        )
    },
    table_plays_unknown: |game| {
        format!("This table now plays {game}, which this version does not know: update Bolide on this laptop.")
    },
    too_many_switches: |n| {
        format!("The table switched games {n} times in a row: join again once the first player has chosen.")
    },
};

pub static FR: Words = Words {
    ente_first: |who| format!("{who} commence ; on joue dans le sens des aiguilles d'une montre"),
    ente_rolls: |who, die| format!("{who} lance le dé : {die}"),
    ente_stays: |who| format!("La 2CV de {who} reste où elle est"),
    ente_drives: |who, squares, to| format!("{who} roule de {squares} jusqu'à {to}"),
    ente_buys: |who| format!("{who} achète une pièce"),
    ente_you_buy: |part| format!("Vous achetez {part}"),
    ente_repairs: |who, points, marker| format!("{who} répare {points} (jeton sur {marker})"),
    ente_judged: |who, meeting, points| format!("{who} est jugé·e à la rencontre {meeting} : {points} points"),
    ente_waits: |who, month| format!("{who} est en avance et attend {month} sur place"),
    ente_parts_back: |who, kept| format!("Les pièces de {who} retournent au tas ({kept} gardées)"),
    ente_passed: |who, check, marker| format!("{who} passe le {check} (jeton sur {marker})"),
    ente_failed: |who, check, minus| format!("{who} échoue au {check} : case −{minus} derrière son garage"),
    ente_rounded_up: |who, check, minus| {
        if minus == 0 {
            format!("{who} est rattrapé·e par le {check} : au garage")
        } else {
            format!("{who} est rattrapé·e par le {check} : case −{minus} derrière le garage")
        }
    },
    ente_steals: |who, from| format!("{who} vole une pièce à {from}"),
    ente_you_got: |part| format!("La pièce : {part}"),
    ente_exchanges: |who, with| format!("{who} échange une pièce avec {with}"),
    ente_fits: |who, part| format!("{who} monte {part}"),
    ente_time: |month, step| format!("Calendrier : {month}, case {step}"),
    ente_year_over: "Décembre est fini : l'année s'achève",
    ente_standing: |rank, who, points| format!("{rank}. {who} : {points} points"),
    ente_months: [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ],
    ente_sq_start: "DÉPART",
    ente_sq_grey: "route grise",
    ente_sq_beige: "route marron",
    ente_sq_shortcut: "raccourci",
    ente_sq_meeting: |n, month| format!("rencontre {n} ({month})"),
    ente_sq_station: |check, month| format!("contrôle {check} ({month})"),
    ente_sq_spur: |check| format!("route du {check}"),
    ente_sq_workshop: |check| format!("garage {check}"),
    ente_sq_minus: |k, check| format!("−{k} derrière le garage {check}"),
    ente_sq_before: |what, n, place| format!("{what}, à {n} de {place}"),
    ente_place_meeting: |n| format!("la rencontre {n}"),
    ente_place_station: |check| format!("le {check}"),
    ente_sections: ["avant", "portières avant", "portières arrière", "arrière"],
    ente_colours: ["rouge", "jaune", "vert", "bleu", "blanc", "noir"],
    ente_settings: "Entenrallye — réglages",
    ente_first_player: "Premier joueur",
    ente_first_seat: "la première place",
    ente_first_random: "tiré au sort",
    ente_ties: "Égalités",
    ente_ties_shared: "partagent la victoire",
    ente_ties_meetings: "plus de rencontres d'abord",
    ente_starts_when: "L'année commence quand tout le monde est prêt (2 à 6 joueurs).",
    ente_calendar: |month, step, steps| format!("{month}, case {step} sur {steps}"),
    ente_not_started: "Le calendrier n'a pas commencé",
    ente_turn_of: |who| format!("Au tour de {who}"),
    ente_your_turn: "À vous",
    ente_roll: "Lancer le dé (R)",
    ente_die: |d| format!("Dé : {d}"),
    ente_drive_to: |n, to| format!("Rouler de {n} jusqu'à {to}"),
    ente_and_buy: " + acheter une pièce",
    ente_and_repair: |n| format!(" + réparer {n}"),
    ente_fit: |part| format!("Monter {part}"),
    ente_steal_from: |who| format!("Voler une pièce à {who}"),
    ente_exchange_with: |part, who| format!("Donner {part} à {who} contre une des siennes"),
    ente_keep_hint: "Jugé·e : gardez au plus deux pièces cachées, les autres retournent au tas",
    ente_keep: |parts| format!("Garder {parts}"),
    ente_keep_none: "N'en garder aucune",
    ente_end_turn: "Finir le tour (Entrée)",
    ente_repair_marker: |n| format!("réparations {n}/20"),
    ente_faults: |n| format!("{n} défauts"),
    ente_points: |n| format!("{n} points"),
    ente_hidden_n: |n| format!("{n} cachées"),
    ente_bare: "nu",
    ente_check_states: ["à passer", "réussi", "raté", "rattrapé"],
    ente_waiting: "attend son mois",
    ente_your_parts: "Vos pièces cachées",
    ente_no_parts: "aucune",
    ente_pile: |n| format!("Tas : {n}"),
    ente_game_over: "L'année est finie",
    ente_keys: "Touches : 1 à 9 choisissent les actions dans l'ordre affiché · R lance le dé · Entrée finit le tour",
    ente_rolls_checked: |n| format!("Dé vérifié avec la graine : les {n} lancers vus par ce portable concordent"),
    ente_rolls_wrong: |why| format!("Le dé NE concorde PAS avec la graine : {why}"),
    atouts: ATOUTS,
    bonuses: BONUSES,
    lanterne_rouge: "Lanterne Rouge",
    second_chance: "Seconde Chance",

    circuit: "circuit",
    bonus: "bonus",
    no_atout_left: "plus d'Atout",
    atouts_held: |list| format!("Atouts {list}"),
    bonuses_held: |list| format!("bonus {list}"),

    race_started: |race, first| format!("Course {race} ! {first} commence."),
    round_started: |round, first| format!("— Tour {round} : {first} tient le gobelet —"),
    panne_seche: |who| format!("{who} : Panne Sèche ! Son réservoir compte pour 1 ce tour-ci."),
    klaxon_called: |who| format!("{who} : Tuut-tuut ! (Klaxon)"),
    cup_lifted: "Le gobelet est levé !",
    klaxon_peek: |who| format!("{who} jette un œil sous le gobelet…"),
    reservoirs: |values| format!("Réservoirs : {values}"),
    grabs_pawn: |who, pawn| format!("{who} attrape le pion {pawn}"),
    gets_last_pawn: |who, pawn| format!("{who} reçoit le dernier pion, le {pawn}"),
    echanged: |who, with| format!("{who} joue Échange avec {with}"),
    lanterne_rouge_move: |who, to| format!("{who} : Lanterne Rouge, une case gratuite jusqu'en {to}"),
    as_de_la_route: |who| format!("{who} : As de la route, plus de limites !"),
    aspiration: |who, to| format!("{who} : Aspiration jusqu'en {to}"),
    rolled: |who, roll, speed| format!("{who} lance {roll} : {speed} km/h"),
    second_chance_rolled: |who, roll, speed| format!("{who} : Seconde Chance, lance {roll} : {speed} km/h"),
    stuck: |who, at, tile| format!("{who} reste en {at} (trop rapide pour la case {tile})"),
    moved_blocked: |who, from, to, tile| format!("{who} avance de {from} à {to}, trop rapide pour la case {tile}"),
    moved: |who, from, to| format!("{who} avance de {from} à {to}"),
    raccourci: |who, from, to| format!("{who} : Raccourci ! de {from} à {to}"),
    nitro: |who, to| format!("{who} : Nitro ! une case de plus, jusqu'en {to}"),
    crossed: |who, place| format!("{who} franchit la ligne ({place}e)"),
    assistance: |who, atout| format!("{who} : Assistance rend {atout}"),
    huile: |who, tile| format!("{who} verse de l'huile sur la case {tile}"),
    bonus_taken: |who, kind, tile| format!("{who} ramasse {kind} en {tile}"),
    second_chance_taken: |who| format!("{who} prend un jeton Seconde Chance"),
    is_lanterne_rouge: |who| format!("{who} est la Lanterne Rouge"),
    race_over: |ranking| format!("Course terminée : {ranking}"),
    points: |list| format!("Points : {list}"),
    standing_line: |rank, who, points, wins| format!("{rank}. {who} {points} pts ({wins} victoires)"),
    championship: |list| format!("Championnat : {list}"),
    photo_finish: "Photo-finish",
    echange_photo_finish: "Photo-finish de l'Échange",
    chose_before: |a, by, b| format!("{a} a choisi {by} avant {b}"),
    pawn_to_tied: |pawn, winner, other| format!("pion {pawn} pour {winner}, à égalité avec {other} (tiré au sort)"),
    pawn_to_ahead: |pawn, winner, by, other| format!("pion {pawn} pour {winner}, {by} devant {other}"),
    waiting_first_view: "En attente de la première vue de la course…",
    seat_past_table: |seat, n| {
        format!("L'hôte a placé ce portable à la place {seat} d'une table de {n} : quittez et rejoignez à nouveau.")
    },
    refused: |why| format!("Refusé : {why}"),
    klaxon_you_peek: "Klaxon ! Vous regardez sous le gobelet : choisissez votre pion",
    peeks_and_chooses: |who| format!("{who} regarde sous le gobelet et choisit…"),
    hands_ready: "Mains prêtes…",
    echange_soon: "Fenêtre d'Échange…",
    race_over_heading: "Course terminée",
    yours_pawn: |pawn, value| format!("À vous : pion {pawn} — réservoir {value}"),
    taken_by: |who| format!("Pris par {who} — choisissez-en un autre"),
    asked_waiting: "Demandé… en attente du verdict de l'hôte",
    grab_now: "ATTRAPEZ ! Cliquez un pion ou tapez 1–6",
    grab_is_on: "On attrape les pions",
    pawn_label: |pawn, value| format!("Pion {pawn} · {value}"),
    your_turn: "À vous de jouer",
    someones_turn: |who| format!("Au tour de {who}"),
    reservoir_n: |n| format!("réservoir {n}"),
    accelerator_die: |n| format!("dé accélérateur : {n}"),
    movement_points: |n| format!("{n} points de mouvement"),
    roll_button: "Lancer l'accélérateur (R)",
    raccourci_after: |n| format!("Raccourci après {n} cases"),
    assistance_take_back: |atout| format!("Assistance : reprendre {atout}"),
    end_turn_button: "Fin du tour (E)",
    huile_pick: "Huile : cliquez une case dorée (Échap pour annuler)",
    move_click_or: "Avancer : cliquez une case dorée, ou",
    n_tiles: |n| if n == 1 { "1 case".into() } else { format!("{n} cases") },
    cup_down: "Le gobelet est posé",
    lifts_in: |s| format!("levé dans {s:.1} s"),
    klaxon_calls: |list| format!("Klaxon ! {list}"),
    klaxon_button: "Klaxon (K)",
    echange_holders_decide: "Échange : les détenteurs du bonus décident…",
    declared_waiting: "Déclaré… en attente du verdict de l'hôte",
    echange_now: "ÉCHANGE ! Échanger votre pion ? Le choix le plus rapide passe en premier (B-4.7)",
    echange_with: |who, r| format!("Échange avec {who} (réservoir {r})"),
    keep_my_pawn: "Garder mon pion (Échap)",
    race_round: |race, races, round| format!("Course {race}/{races} · Tour {round}"),
    drives: |who| format!("· {who} conduit"),
    before_bot: |s| format!("· {s} s avant qu'un robot joue pour vous"),
    you_tokens: |list| format!("Vous : {list}"),
    no_token_left: "plus aucun jeton",
    pilots: "Pilotes",
    tile_n: |n| format!("case {n}"),
    what_happened: "Ce qui s'est passé",
    rule_n: |id| format!("règle {id}"),
    photo_finish_hint: "Après chaque prise : la réaction de chaque pilote, et de combien chaque pion disputé a été gagné.",
    pts: |who, p| format!("{who} : {p} pts"),
    text_title: |n, who, bots| format!("Bolide — {n} pilotes : {who} et {bots} robots de l'hôte"),
    host_bot: "robot de l'hôte",
    over_the_wire: "par le réseau",
    championship_over: "Championnat terminé :",
    standing_full: |rank, who, points, wins| format!("{rank}. {who} — {points} points, {wins} courses gagnées"),
    dice_not_revealed: "Les dés n'ont pas été révélés.",
    dice_checked: |check| format!("Dés vérifiés : {check}"),
    dice_do_not_match: |e| format!("Les dés NE correspondent PAS : {e}"),
    tagline: "Le jeu de course entre amis — chaque portable à la table, une seule prise pour les pions.",
    your_name: "Votre nom",
    pilot: "Pilote",
    colour: "Couleur",
    host_heading: "Héberger sur ce portable",
    host_blurb: "Ce portable héberge ; les autres le rejoignent par le Wi-Fi.",
    table_name: "Nom de la table",
    bots: "robots",
    races: "courses",
    resume_interrupted: "Reprendre le championnat interrompu",
    host_a_game: "Héberger une partie",
    join_heading: "Rejoindre une table",
    looking_for_hosts: "Recherche des tables sur ce réseau…",
    version_mismatch: |theirs, ours| format!("v{theirs}, ce portable a la v{ours} : mettez l'un des deux à jour"),
    at_address: |addr| format!(" à {addr}"),
    host_entry: |name, place, seats, version| format!("{name}{place} — {seats} places · {version}"),
    code_on_host_screen: "Code de la table sur l'écran de l'hôte",
    as_on_host_screen: "GARAGE-7F3K-0Q9M-2XWB-HC4T, comme sur l'écran de l'hôte",
    same_name: |name| {
        format!(
            "Plusieurs tables s'appellent « {name} » : seul l'hôte dont l'écran montre votre code vous laissera entrer."
        )
    },
    join_this_table: "Rejoindre cette table",
    watch_this_table: "Regarder cette table",
    unknown_game: "un jeu que cet ordinateur ne connaît pas : mettez-le à jour",
    or_type: "Ou tapez ce que montre l'écran de l'hôte :",
    page_blurb: "Cette page vient de l'hôte de la table : rejoignez-la, ou regardez.",
    page_by_address: |host| {
        format!(
            "Ouvrez cette page par l'adresse qu'affiche l'écran de l'hôte (comme http://192.168.1.20:47118), pas par {host}."
        )
    },
    page_cannot_draw: |why| {
        format!(
            "Ce navigateur ne peut pas dessiner la table ({why}). Ouvrez la même adresse dans un Chrome, Firefox, Safari ou Edge récent."
        )
    },
    code_word: "Mot de code sur l'écran de l'hôte",
    address: "Adresse",
    room_code: "Code de la table",
    join: "Rejoindre",
    not_an_address: |text| {
        format!(
            "`{text}` n'est pas une adresse : tapez-la comme l'écran de l'hôte la montre, par exemple 192.168.1.20:47117"
        )
    },
    practice_heading: "S'entraîner seul",
    practice_blurb: "Vous contre des robots, tout de suite, sur ce portable.",
    practice: "S'entraîner",
    bots_play: "les robots jouent",
    for_fun: "pour rire",
    to_win: "pour gagner",
    waiting_lobby: "En attente du salon…",
    room_code_tell: "Code de la table — dites-le à tout le monde autour de la table",
    join_at: |list| format!("Rejoindre à {list}"),
    from_a_browser: |url| format!("Depuis un téléphone ou un navigateur : {url}"),
    from_a_browser_title: "Rejoindre depuis un téléphone",
    or_sep: "  ou  ",
    joins_locked: |secs, wrong| {
        format!(
            "Nouvelles arrivées bloquées depuis {secs} s : {wrong} mauvais codes depuis ce réseau. Les joueurs assis reviennent quand même. Elles rouvrent quand les essais cessent — quelqu'un essaie peut-être des codes : vérifiez qui est sur ce Wi-Fi."
        )
    },
    dice_sealed: |short| format!("Dés scellés : {short}…"),
    dice_sealed_hover: |full| {
        format!(
            "L'engagement de l'hôte sur la graine du championnat (SHA-256 {full}). La graine est révélée à la fin du championnat, et ce portable vérifie alors chaque dé qu'il a vu."
        )
    },
    championship_heading: "Championnat",
    first_pilot_sets: "Le premier pilote règle le championnat ; les changements s'affichent ici en direct.",
    first_player_sets: "Le premier joueur règle la partie ; les changements s'affichent ici en direct.",
    players_heading: "Joueurs",
    you_left: "Vous avez quitté la table.",
    game_over: "La partie est terminée.",
    races_setting: "Courses (B-7.1, 3 par défaut)",
    bots_setting: "Robots",
    bots_play_setting: "Les robots jouent",
    first_player_setting: "Premier joueur (B-1.7, au hasard par défaut)",
    random: "au hasard",
    seat_n: |n| format!("place {n}"),
    circuit_setting: "Circuit",
    random_layout: "au hasard (un nouveau tracé à chaque course)",
    from_a_file: "depuis un fichier de ce portable",
    edit_tiles: "modifier les cases",
    seed: "graine",
    file: "fichier",
    load: "Charger",
    custom_tiles: "cases personnalisées",
    tiles_in_order: "Les cases dans l'ordre (cliquez-en deux pour les échanger ; ou tapez la notation : S ligne droite, 60–100 un virage, * une étoile)",
    valid_circuit: "Un circuit valide (B-2.4, B-2.5)",
    use_circuit: "Utiliser ce circuit",
    not_valid_circuit: |e| format!("Circuit non valide : {e}"),
    you_mark: " (vous)",
    bot: "robot",
    disconnected: "déconnecté",
    path_good: |ms| format!("réseau bon ({ms} ms)"),
    path_slow: |ms| format!("réseau lent ({ms} ms) : toujours équitable, les verdicts attendent un peu plus"),
    path_drops: |n, ms| {
        format!(
            "le Wi-Fi décroche ({n} fois en une minute, jusqu'à {ms} ms) : rapprochez-vous du routeur ou branchez un câble"
        )
    },
    path_measuring: "réseau : mesure en cours…",
    ready: "prêt",
    not_ready: "pas prêt",
    // As the host names its bots at every table, whatever its laptops speak ("bot" is French
    // gamers' word too): the lobby and the standings agree.
    bot_n: |n| format!("Bot {n}"),
    you_watch: |n| format!("Vous regardez ({n} spectateurs)."),
    your_colour: "Votre couleur",
    hand_flat: "Main posée à plat sur la table (prêt) — cliquez pour la lever",
    put_hand_flat: "Posez votre main à plat sur la table (prêt)",
    race_starts_when: "La course commence quand chaque pilote est prêt et qu'au moins trois places sont prises.",
    start_mark: "DÉPART",
    finish_mark: "ARRIVÉE",
    oil: "huile",
    start_grid: "Grille de départ",
    finish_line: "Ligne d'arrivée",
    tile_curve: |p, limit| format!("Case {p} : virage, {limit} km/h"),
    tile_straight: |p| format!("Case {p} : ligne droite"),
    face_down_bonus: ", un bonus face cachée",
    oil_here: ", huile (B-5.14)",
    cars_here: |list| format!(", voitures : {list}"),
    championship_over_heading: "Championnat terminé",
    podium_line: |rank, who, points, wins| {
        let pts = if points <= 1 { "point" } else { "points" };
        let won = if wins <= 1 { "course gagnée" } else { "courses gagnées" };
        format!("{rank}. {who} — {points} {pts}, {wins} {won}")
    },
    points_after_each_race: "Points après chaque course",
    axis_start: "départ",
    axis_race: |race| format!("course {race}"),
    dice_checked_sealed: |report, sealed| {
        format!("Dés vérifiés : {report}, tous issus de la graine scellée au salon{sealed}.")
    },
    dice_mismatch_sealed: |why| format!("Les dés NE correspondent PAS à la graine scellée : {why}"),
    part_left_out: "La part de hasard de votre portable N'EST PAS parmi celles que l'hôte a mêlées à la graine : l'hôte a pu choisir la chance.",
    seed_not_revealed: |sealed| {
        format!("L'hôte n'a pas révélé sa graine{sealed} : les dés ne peuvent pas être vérifiés.")
    },
    leave_table: "Quitter la table",
    connecting: "Connexion…",
    connection_lost: |why, attempt| format!("Connexion perdue ({why}) — retour à votre place, essai {attempt}…"),
    back_to_start: "Retour à l'écran d'accueil",
    cannot_host: |why| format!("Impossible d'héberger : {why}"),
    host_did_not_start: "L'hôte n'a pas pu démarrer.",
    cannot_host_here: "Cette fenêtre ne peut pas héberger de table : rejoignez-en une hébergée sur un ordinateur.",
    how_to_play: "Comment jouer",
    back: "Retour",
    howto_bolide: &[
        (
            "La course",
            "3 à 6 pilotes courent sur un circuit de 36 cases : des lignes droites, et des virages limités en vitesse (60 à 100 km/h). La première voiture à franchir la ligne d'arrivée gagne la course ; un championnat enchaîne les courses et additionne leurs points (B-6.3, B-7).",
        ),
        (
            "Le gobelet et la prise",
            "À chaque tour, l'hôte lance un dé réservoir par pilote sous le gobelet. Quand le gobelet se lève, tout le monde attrape un pion en même temps — tapez 1–6 ou cliquez-le. La main la plus rapide gagne un pion disputé : l'hôte mesure chaque réaction sur le portable du pilote lui-même, de l'instant où les réservoirs sont apparus à l'écran jusqu'à la touche, si bien qu'un portable éloigné ne perd rien (B-4.2, B-4.3).",
        ),
        (
            "Klaxon",
            "Avant que le gobelet se lève, tapez K pour annoncer Klaxon (une fois par course) : vous regardez sous le gobelet et choisissez votre pion avant tout le monde. Un Klaxon après la levée est refusé et le jeton conservé (B-4.6).",
        ),
        (
            "Avancer",
            "Chacun son tour, lancez l'accélérateur (R) : votre vitesse vaut (réservoir + accélérateur) × 10 km/h, et vous avancez au plus de la valeur de votre réservoir — sans jamais entrer dans un virage limité sous votre vitesse. Une voiture qui n'a pas pu bouger prend un jeton Seconde Chance (B-5.2 à B-5.4).",
        ),
        (
            "Les jetons",
            "Chaque pilote a trois Atouts — As de la route (ignorer les limites), Nitro (une case de plus), Klaxon — et peut ramasser les bonus face cachée des cases étoile : Raccourci, Aspiration, Assistance, Huile, Échange, Panne Sèche. Un seul jeton spécial par pilote et par tour (B-1.3, B-1.5, B-5.7).",
        ),
        (
            "Échange",
            "Un pilote qui détient Échange peut échanger son pion avec un autre après la prise, dans une fenêtre chronométrée comme la prise : le choix le plus rapide passe en premier (B-4.7).",
        ),
        (
            "Lanterne Rouge",
            "Une voiture seule en dernière position à la fin d'un tour prend la Lanterne Rouge : au tour suivant elle avance d'abord d'une case gratuite (B-6.1, B-5.1).",
        ),
        (
            "Les points",
            "À la fin d'une course, la dernière voiture marque 0 et chaque autre un point par case d'avance sur la dernière, plus 3 pour chaque voiture qui a franchi la ligne ; au championnat, les égalités se départagent aux courses gagnées (B-7.2, B-7.3).",
        ),
    ],
    howto_mille_bornes: &[
        (
            "Le voyage",
            "2, 3, 4, 6 ou 8 joueurs (par équipes de deux à 6 et 8) font la course pour poser exactement 1000 km de cartes étapes. Une manche finit quand un camp atteint 1000 pile, ou quand les cartes sont épuisées ; la partie continue manche après manche jusqu'à 5000 points (M-2, M-11, M-13).",
        ),
        (
            "Un tour",
            "Piochez une carte, puis jouez-en une ou défaussez-en une : des kilomètres sur votre ligne, une parade ou une botte sur vos piles, une attaque sur celles d'un adversaire (M-5).",
        ),
        (
            "Rouler",
            "Il faut un Feu Vert pour démarrer, et après chaque attaque sauf la Limite. Sous une Limite de Vitesse, seules les étapes de 25 et 50 km se posent ; deux cartes 200 km au plus par manche ; l'arrivée doit tomber pile (M-4, M-6).",
        ),
        (
            "Attaques et parades",
            "Le Feu Vert répond au Feu Rouge, la Fin de Limite à la Limite de Vitesse, l'Essence à la Panne d'Essence, la Roue de Secours au Crevé, les Réparations à l'Accident. Une attaque ne se pose que sur une voiture qui roule (la Limite, sur n'importe qui) (M-1.3, M-7, M-8).",
        ),
        (
            "Les bottes",
            "Véhicule Prioritaire, Citerne d'Essence, Increvable, As du Volant protègent votre voiture pour le reste de la manche, et en poser une vous fait rejouer (M-9).",
        ),
        (
            "Coup-Fourré",
            "Quand une attaque tombe sur votre camp et que vous tenez sa botte, appuyez sur Coup-Fourré ! (Espace) avant que la fenêtre se ferme : l'attaque part à la défausse, votre botte se pose en travers, vous piochez et rejouez aussitôt, et elle rapporte 300 de plus. La fenêtre s'ouvre à chaque attaque, pour tout le monde, de la même durée, quoi que chacun ait en main (M-10, M-15).",
        ),
        (
            "Les points",
            "Chaque kilomètre vaut un point ; 100 par botte, 300 de plus par Coup-Fourré, 400 pour le gagnant de la manche, 200 de plus s'il gagne sans carte 200, et 500 pour chaque autre camp resté à 0 km (M-12).",
        ),
    ],
    howto_entenrallye: &[
        (
            "L'année",
            "2 à 6 joueurs conduisent chacun une 2CV depuis le départ tout au long de l'année : quatre rencontres (R1 en février, R2 en juin, R3 en août, R4 en décembre, au bout de la route) et deux contrôles techniques (TÜV en avril, ASU en octobre). Un mois dure autant de cases que de joueurs ; la partie finit quand décembre est fini, ou quand toutes les voitures sont sur la dernière rencontre (E-2, E-3, E-13.1).",
        ),
        (
            "Un tour",
            "Lancer le dé, rouler, puis les actions spéciales, puis le temps passe. Le dé se partage : cases roulées + 3 par pièce achetée + points de réparation. Roulez d'au moins une case ; ne vous arrêtez avant la fin que sur une case grise, en dépensant le reste en pièce ou en réparations. Une rencontre où vous êtes en avance ou à l'heure, un contrôle que vous devez et la dernière rencontre arrêtent la voiture, le reste est perdu (E-4, E-5).",
        ),
        (
            "Actions spéciales",
            "Seulement après un trajet qui finit sur une case grise : acheter une pièce (le reste d'un 4, 5 ou 6), réparer (de 2 à 6), voler une pièce cachée à qui vous voulez sur un 1, en échanger une sur un 2, et monter des pièces cachées sur leurs emplacements libres quel que soit le dé (E-6 à E-9).",
        ),
        (
            "Le temps",
            "Le calendrier avance d'une case sur un 6, et d'une case pour une arrivée à l'heure (ou en avance) à une rencontre ou à un contrôle dû. Une voiture en avance attend sur sa rencontre jusqu'à son mois (E-10, E-11.6).",
        ),
        (
            "Les rencontres",
            "Une voiture jugée à une rencontre marque les points de ses pièces montées, plus un par pièce de sa couleur. Ses pièces montées retournent alors au tas et elle garde au plus deux pièces cachées. Une voiture en retard passe la rencontre sans s'arrêter : le raccourci à côté est plus court (E-7.7, E-11).",
        ),
        (
            "Les contrôles",
            "Au TÜV et à l'ASU, vos points de réparation doivent couvrir les défauts de la voiture (3 par emplacement nu, ceux de la pièce sinon) : réussi, le jeton descend d'autant ; raté, la voiture part sur les cases négatives derrière le garage du contrôle. Qui doit encore un contrôle quand mai ou novembre commence est rattrapé là où il est (E-12).",
        ),
        (
            "Gagner",
            "Le plus de points sur les rencontres gagne ; les égalités partagent la victoire, ou vont à qui a marqué le plus de rencontres si la table le veut (E-13.2).",
        ),
    ],
    no_sound_note: "Aucun son ne marque la révélation : le son sort de chaque portable à des dizaines de millisecondes d'écart, et l'oreille la plus rapide gagnerait à la place de la main la plus rapide.",
    guide_title: "Votre première course : ce qui va se passer",
    guide_steps: [
        "1. Le gobelet : l'hôte lance sous le gobelet un dé réservoir par pilote. Un compte à rebours montre quand il se lève.",
        "2. Klaxon : avant la levée, tapez K (une fois par course) pour regarder et choisir votre pion en premier.",
        "3. La prise : dès que les réservoirs s'affichent, tapez 1–6 pour le pion que vous voulez. La main la plus rapide l'obtient — chronométrée sur ce portable, pas par le réseau.",
        "4. Votre tour : lancez l'accélérateur (R), puis cliquez une case dorée (ou tapez un chiffre) pour avancer. Ralentissez dans les virages.",
    ],
    guide_start: "Compris — lancer la course",
    stats_heading: "Les statistiques de la soirée",
    stats_columns: [
        "Pilote",
        "Réaction médiane",
        "La plus rapide",
        "Pions disputés gagnés (écart médian)",
        "Perdus",
        "Klaxon (choisi en premier)",
        "Jetons joués",
        "Cases par tour",
    ],
    reactions_chart: "Réactions, prise après prise (ms)",
    replays_heading: "Soirées passées",
    replays_none: "Pas encore de replay : chaque championnat que cette fenêtre héberge ou joue est gardé ici à la fin.",
    replay_entry: |date, game, names| format!("{date} · {game} · {names}"),
    watch_replay: "Revoir",
    replay_cannot_open: |why| format!("Ce replay ne s'ouvre pas : {why}"),
    replay_nav: ["« Course", "‹ Tour", "‹ Coup", "Coup ›", "Tour ›", "Course »"],
    replay_play: "Lecture",
    replay_pause: "Pause",
    replay_podium: "Podium",
    replay_where: |race, round, step, steps| format!("Course {race} · tour {round} · coup {step} sur {steps}"),
    mb_replay_nav: ["« Manche", "‹ Tour", "‹ Coup", "Coup ›", "Tour ›", "Manche »"],
    ente_replay_nav: ["« Mois", "‹ Tour", "‹ Coup", "Coup ›", "Tour ›", "Mois »"],
    ente_replay_where: |month, turn, step, steps| {
        let month = FR.ente_months.get(usize::from(month).wrapping_sub(1)).copied().unwrap_or("avant janvier");
        format!("{month}, tour {turn} · coup {step} sur {steps}")
    },
    mb_replay_where: |hand, round, step, steps| {
        format!("Manche {hand} · tour de table {round} · coup {step} sur {steps}")
    },
    replay_stats: "La soirée jusqu'ici",
    replay_keys: "Flèches gauche et droite : un coup · haut et bas : un tour · Espace : lecture ou pause",
    night_kept: "Cette soirée est gardée : revoyez-la depuis les Soirées passées de l'écran d'accueil.",
    night_not_kept: |why| format!("Cette soirée n'a pas pu être gardée : {why}"),
    drill: "Échauffement",
    drill_blurb: "Vos réactions, chronométrées comme à la prise d'une course. Rien ne quitte ce portable.",
    drill_cup: "Le gobelet est posé. Appuyez sur 1 à 6 (ou cliquez un réservoir) dès que les réservoirs apparaissent.",
    drill_now: "Maintenant !",
    drill_early: "Trop tôt : attendez les réservoirs.",
    drill_reaction: |ms| format!("{ms:.0} ms"),
    drill_summary: |n, median, best| {
        format!("{n} réaction{} · médiane {median:.0} ms · la plus rapide {best:.0} ms", if n > 1 { "s" } else { "" })
    },
    dice_report: |r| {
        let n = |n: u32, one: &str, many: &str| format!("{n} {}", if n <= 1 { one } else { many });
        format!(
            "{} de réservoirs et d'ordre des pions, {}, {} et {}",
            n(r.rounds, "manche", "manches"),
            n(r.accelerators, "lancer d'accélérateur", "lancers d'accélérateur"),
            n(r.bonuses, "jeton bonus", "jetons bonus"),
            n(r.first_players, "premier joueur tiré", "premiers joueurs tirés"),
        )
    },
    mb_hand_n: |n| format!("Manche {n}"),
    mb_draw_pile: |n| format!("Pioche : {n}"),
    mb_game_over: "Partie terminée",
    mb_window_open: "Une attaque tombe : Coup-Fourré ?",
    mb_cf_refused: |safety| format!("Vous n'avez pas {safety}"),
    mb_coup_fourre_button: "Coup-Fourré ! (Espace)",
    mb_on_side: |who| format!("Sur {who}"),
    mb_play: "Jouer (Entrée)",
    mb_discard: "Défausser (D)",
    mb_battle: "bataille",
    mb_speed: "vitesse",
    mb_km_of: |km, target| format!("{km} / {target} km"),
    mb_two_hundreds: |n| format!("cartes 200 km : {n} sur 2"),
    mb_needs_feu_vert: "attend un Feu Vert",
    mb_rolls: "roule",
    mb_stopped: "arrêtée",
    mb_limited: "limitée à 50",
    mb_coup_fourre_mark: "Coup-Fourré",
    mb_window_left: |s| format!("Fenêtre de Coup-Fourré : {s:.1} s"),
    mb_discard_pile: "Défausse",
    mb_score_sheet: "Points de la dernière manche",
    mb_score_lines: ["km", "bottes", "Coups-Fourrés", "voyage", "sans 200", "capot", "manche"],
    mb_dealt: |hand, dealer| format!("Manche {hand} : {dealer} distribue"),
    mb_you_draw: |card| format!("Vous piochez {card}"),
    mb_attacks: |who, card, target| format!("{who} pose {card} sur {target}"),
    mb_plays: |who, card| format!("{who} pose {card}"),
    mb_discards: |who, card| format!("{who} défausse {card}"),
    mb_cleared: |card| format!("{card} part à la défausse"),
    mb_plays_again: |who| format!("{who} rejoue"),
    mb_passes: |who| format!("{who} n'a plus de carte et passe"),
    mb_window_for: |who| format!("Fenêtre de Coup-Fourré pour {who}…"),
    mb_coup_fourre: |who, safety| format!("{who} : Coup-Fourré ! {safety}"),
    mb_lost_turn: |who| format!("{who} passe son tour"),
    mb_attack_stands: |card, who| format!("{card} reste sur {who}"),
    mb_hand_over: |hand| format!("Manche {hand} terminée"),
    practice_game: "jeu",
    players: "joueurs",
    mb_standing: |rank, who, points, hands| {
        format!("{rank}. {who} — {points} points, {hands} manche{} gagnée{0}", if hands > 1 { "s" } else { "" })
    },
    mb_cards_checked: |hands| {
        let hands = if hands == 1 { "1 manche".to_string() } else { format!("{hands} manches") };
        format!("Cartes vérifiées : chaque carte vue en {hands} est celle de la donne de la graine.")
    },
    mb_cards_do_not_match: |why| format!("Les cartes NE correspondent PAS à la graine : {why}"),
    mb_points_per_hand: "Points après chaque manche",
    mb_to_5000: "jusqu'à 5000 points",
    mb_hands_n: |n| if n == 1 { "1 manche".into() } else { format!("{n} manches") },
    titled: |title, text| format!("{title} : {text}"),
    mb_last_call: |who, ms| format!("Dernier Coup-Fourré : {who}, {ms} après l'attaque"),
    mb_last_call_by: |who| format!("Dernier Coup-Fourré : {who}"),
    game_choice: "Jeu",
    play_instead: |game| format!("Jouer plutôt à {game} à cette table"),
    mb_settings_heading: "La partie",
    mb_trip: "Étape",
    mb_play_to: "Jouer",
    mb_window_length: "Fenêtre du Coup-Fourré",
    mb_turn_timer: "Minuteur du tour",
    off: "sans",
    mb_coup_fourre_mode: "Coup-Fourré",
    mb_real_time: "annoncé en temps réel",
    mb_automatic: "posé d'office par l'hôte",
    mb_open_hands: "Les équipiers voient la main de l'autre",
    mb_players_n: |n| format!("{n} joueurs"),
    mb_game_starts_when: "La partie commence quand tout le monde est prêt, à 2, 3, 4, 6 ou 8 joueurs (robots compris).",
    mb_reaction: |who, ms| format!("{who} a annoncé Coup-Fourré {ms} après l'apparition de l'attaque"),
    mb_deal_sealed: |short| format!("Donne scellée : {short}…"),
    mb_teams: "Équipes",
    mb_teams_drawn: "tirées au départ",
    mb_teams_placed: "placées par le premier joueur",
    mb_team_n: |n| format!("Équipe {n} :"),
    mb_place_n: |n| format!("Place {n}"),
    mb_bot_plays_for: |who, s| format!("Au tour de {who} : un robot joue dans {s} s"),
    mb_deal_sealed_hover: |full| {
        format!(
            "L'engagement de l'hôte sur la graine de la partie (SHA-256 {full}), dont chaque donne est tirée (M-3.2). La graine est révélée à la fin de la partie, et ce portable vérifie alors chaque carte qu'il a vue."
        )
    },
    table_plays_unknown: |game| {
        format!(
            "Cette table joue maintenant à {game}, que cette version ne connaît pas : mettez Bolide à jour sur ce portable."
        )
    },
    too_many_switches: |n| {
        format!("La table a changé de jeu {n} fois de suite : rejoignez-la quand le premier joueur aura choisi.")
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_is_chosen_where_the_system_speaks_french() {
        assert_eq!(Lang::from_locale("fr_FR.UTF-8"), Lang::Fr);
        assert_eq!(Lang::from_locale("fr_CA"), Lang::Fr);
        assert_eq!(Lang::from_locale("en_GB.UTF-8"), Lang::En);
        assert_eq!(Lang::from_locale("C"), Lang::En);
        assert_eq!(Lang::from_locale(""), Lang::En);
    }

    #[test]
    fn token_names_are_the_box_s() {
        for lang in Lang::ALL {
            let w = lang.words();
            assert_eq!(w.bonus(BonusKind::PanneSeche), "Panne Sèche");
            assert_eq!(w.atout(Atout::AsDeLaRoute), "As de la route");
            assert_eq!(w.bonus(BonusKind::Echange), "Échange");
            assert!(w.second_chance == "Seconde Chance");
        }
    }

    #[test]
    fn every_message_reads_in_each_language() {
        // The compiler checked every key is there; this checks each says something, and
        // that French is French where the sentence is not a name.
        let (en, fr) = (&EN, &FR);
        assert_ne!((en.race_started)(1, "A"), (fr.race_started)(1, "A"));
        assert_ne!(en.cup_lifted, fr.cup_lifted);
        for w in [en, fr] {
            for s in [w.cup_lifted, w.photo_finish, w.echange_photo_finish, w.circuit, w.no_atout_left] {
                assert!(!s.trim().is_empty());
            }
            assert!((w.moved)("Anne", 1, 3).contains("Anne"));
            assert!((w.pawn_to_ahead)(3, "Bob", "4 ms", "Anne").contains("Bob"));
        }
    }
}
