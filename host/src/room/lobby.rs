//! The lobby: a laptop's hello (the code word, a seat or a comeback, a spectator), the
//! lobby's state as every laptop sees it, the network check of each path, and the start.

use super::*;

/// How often the lobby looks at the paths the host measures (µs): the first look comes after
/// the host's first-second probe burst.
pub const PATH_CHECK_US: u64 = 2_000_000;

/// The lobby's own clock: when the paths are looked at next and what the lobby last said of
/// them (a new lobby goes out only when they changed); until when seats carried from another
/// game's lobby wait for their laptops.
#[derive(Debug, Default)]
pub(super) struct LobbyClock {
    pub(super) path_check_at: Option<u64>,
    pub(super) paths_sent: Vec<Option<PathCheck>>,
    pub(super) held_until: Option<u64>,
}

impl<G: Game> RoomOf<G> {
    /// A connection's hello; `beats`: when the host asks it to beat (the server's choice: it
    /// knows how many connections it hears).
    pub fn hello(&mut self, now: u64, conn: ConnId, hello: Hello, beats: BeatSchedule, out: &mut Vec<Out<G>>) {
        // The lobby's network check starts with the first laptop, past its probe burst.
        self.lobby.path_check_at.get_or_insert(now.saturating_add(PATH_CHECK_US));
        let word = hello.code.split('-').next().unwrap_or("").trim().to_ascii_uppercase();
        if !crate::secret::same(word.as_bytes(), self.config.code.to_ascii_uppercase().as_bytes()) {
            let reason = "wrong room code: ask the host for the code it printed".to_string();
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: false } });
            out.push(OutputOf::Close { conn, code: close::WRONG_CODE, reason });
            return;
        }
        if let Some(token) = hello.seat_token {
            let Some(i) = self.seats.iter().position(|s| s.token == Some(token)) else {
                let reason = "this seat token belongs to no seat here: join again without it".to_string();
                out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: false } });
                out.push(OutputOf::Close { conn, code: close::BAD_TOKEN, reason });
                return;
            };
            // A seat that comes back over and over (a flooder closed and back every few ms)
            // costs every other laptop a lobby and the room its work: a few per window only.
            let recent = &mut self.seats[i].comebacks;
            recent.retain(|at| now.saturating_sub(*at) < COMEBACK_WINDOW_US);
            if recent.len() >= COMEBACKS {
                let reason = format!(
                    "this seat came back {COMEBACKS} times in {} s: wait a few seconds and join again",
                    COMEBACK_WINDOW_US / 1_000_000
                );
                out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: true } });
                return out.push(OutputOf::Close { conn, code: close::TOO_MANY_COMEBACKS, reason });
            }
            recent.push(now);
            // Back to the seat (a previous connection of it, if still open, is let go).
            if let Some(old) = self.seats[i].conn.replace(conn) {
                self.members.remove(&old);
                out.push(OutputOf::Close {
                    conn: old,
                    code: close::NORMAL,
                    reason: "replaced by a new connection".into(),
                });
            }
            let seat = Seat(i as u8);
            // Back in person: the pilot's own time limits again (a stand-in that played
            // meanwhile stops). The comeback limit above keeps this from holding the table.
            self.seats[i].zombie = false;
            self.members.insert(conn, Some(seat));
            self.fair.frame_lead(conn, hello.frame_lead_us);
            out.push(OutputOf::Send { conn, msg: self.welcome(Some(seat), Some(token), beats) });
            self.send_lobby(out);
            self.send_update_to(conn, &[], now, out);
            self.send_night(conn, out);
            self.retime_seat(now, seat);
            return;
        }
        let humans_max = usize::from(G::PLAYERS.1).saturating_sub(self.config.settings.bots() as usize);
        // A laptop that asked to watch takes no seat, even a free one.
        if matches!(self.stage, Stage::Lobby) && self.seats.len() < humans_max && !hello.watch {
            let (Ok(token), Some(colour)) = (crate::secret::seat_token(), self.free_colour()) else {
                let reason = "the host could not draw a seat token: try again".to_string();
                out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: true } });
                return out.push(OutputOf::Close { conn, code: close::ROOM_FULL, reason });
            };
            let name = bolide_table::wire::clean_name(&hello.name);
            let player = <G::Words as bolide_table::Words>::PLAYER;
            let name = if name.is_empty() { format!("{player} {}", self.seats.len() + 1) } else { name };
            let name = self.unique_name(name);
            self.seats.push(SeatSlot { conn: Some(conn), ..SeatSlot::new(name, colour, Some(token), None) });
            let seat = Seat(self.seats.len() as u8 - 1);
            self.members.insert(conn, Some(seat));
            self.fair.frame_lead(conn, hello.frame_lead_us);
            out.push(OutputOf::Send { conn, msg: self.welcome(Some(seat), Some(token), beats) });
            self.send_lobby(out);
        } else if self.members.values().filter(|s| s.is_none()).count() >= MAX_SPECTATORS {
            let reason = format!("this table already has {MAX_SPECTATORS} spectators: try again later");
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Refused { reason: reason.clone(), again: false } });
            out.push(OutputOf::Close { conn, code: close::ROOM_FULL, reason });
        } else {
            self.members.insert(conn, None);
            out.push(OutputOf::Send { conn, msg: self.welcome(None, None, beats) });
            self.send_lobby(out);
            self.send_update_to(conn, &[], now, out);
            self.send_night(conn, out);
        }
    }

    pub(super) fn welcome(&self, seat: Option<Seat>, token: Option<SeatToken>, beats: BeatSchedule) -> ServerMsgFor<G> {
        ServerMsgOf::Welcome {
            version: bolide_table::wire::PROTOCOL_VERSION,
            seat,
            token,
            room: self.config.code.clone(),
            beats,
            game: <G::Words as Words>::NAME.to_string(),
        }
    }

    pub(super) fn lobby_refused(&self, conn: ConnId, reason: &str, out: &mut Vec<Out<G>>) {
        out.push(OutputOf::Send { conn, msg: ServerMsgOf::LobbyRefused { reason: reason.to_string() } });
    }

    /// What the host measured of each seat's path, by seat (the lobby's network check).
    pub(super) fn paths(&self) -> Vec<Option<PathCheck>> {
        self.seats.iter().map(|s| s.conn.and_then(|c| self.fair.path(c))).collect()
    }

    pub(super) fn lobby_state(&self) -> LobbyStateOf<G::Words> {
        LobbyStateOf {
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| LobbySeat {
                    seat: Seat(i as u8),
                    name: s.name.clone(),
                    colour: s.colour,
                    bot: s.bot.is_some(),
                    ready: s.ready || s.bot.is_some(),
                    connected: s.conn.is_some(),
                    path: s.conn.and_then(|c| self.fair.path(c)),
                })
                .collect(),
            you: None,
            settings: self.config.settings.clone(),
            spectators: self.members.values().filter(|s| s.is_none()).count() as u16,
            started: !matches!(self.stage, Stage::Lobby),
            dice: self.seed_reveal().commitment(),
            // The seed goes out only once the championship is over (nothing left to draw).
            reveal: matches!(self.stage, Stage::Finished(_)).then(|| self.seed_reveal()),
            luck: (!matches!(self.stage, Stage::Lobby)).then(|| self.luck.clone()),
        }
    }

    pub(super) fn send_lobby(&mut self, out: &mut Vec<Out<G>>) {
        self.lobby.paths_sent = self.paths();
        let lobby = self.lobby_state();
        for (&conn, &you) in &self.members {
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Lobby(Box::new(LobbyStateOf { you, ..lobby.clone() })) });
        }
    }

    /// The game's settings (the table keeps the bots apart).
    pub(super) fn game_settings(&self) -> G::Settings {
        self.config.settings.game()
    }

    /// The championship starts when every seated pilot is ready and at least one client is
    /// here; the game checks the count (bots included) and its settings.
    pub(super) fn try_start(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        let humans = self.seats.len();
        if humans == 0 || !self.seats.iter().all(|s| s.ready) {
            return;
        }
        let refuse_start = |room: &RoomOf<G>, reason: String, out: &mut Vec<Out<G>>| {
            for &conn in room.members.keys() {
                room.lobby_refused(conn, &format!("cannot start: {reason}"), out);
            }
        };
        let players = humans + self.config.settings.bots() as usize;
        let Ok(players) = u8::try_from(players) else {
            return refuse_start(self, format!("{players} seats do not fit at one table"), out);
        };
        if players < G::PLAYERS.0 {
            return; // More may still join.
        }
        let settings = self.game_settings();
        if let Err(reason) = G::check_settings(&settings, players) {
            return refuse_start(self, reason, out);
        }
        for n in 1..=self.config.settings.bots() {
            let Some(colour) = self.free_colour() else { break };
            let level = self.config.settings.bot_level();
            self.seats.push(SeatSlot { ready: true, ..SeatSlot::new(format!("Bot {n}"), colour, None, Some(level)) });
        }
        // Where everyone sits (a game's teams, drawn or placed), before the game sees a seat.
        if let Some(order) = self.config.settings.seating(players, &mut self.rng) {
            self.reseat(&order);
        }
        // The luck: the host's committed seed mixed with every laptop's part (bots have none).
        let luck = Luck::from_parts(self.seats.iter().map(|s| s.part));
        let mut opening = Vec::new();
        let game = match G::start(&settings, players, luck.seed_with(self.config.seed), &mut opening) {
            Ok(game) => game,
            Err(e) => {
                self.seats.truncate(humans);
                return refuse_start(self, e, out);
            }
        };
        self.luck = luck;
        let entry = JournalEntryOf::Started {
            game: <G::Words as Words>::NAME.to_string(),
            code: self.config.code.clone(),
            settings: self.config.settings.clone(),
            seed: self.config.seed,
            nonce: self.config.nonce,
            luck: self.luck.clone(),
            seats: self
                .seats
                .iter()
                .map(|s| JournalSeat { name: s.name.clone(), colour: s.colour, token: s.token, bot: s.bot })
                .collect(),
        };
        self.journal(entry, out);
        self.stage = Stage::Playing(Box::new(game));
        self.send_lobby(out);
        self.retime(now);
        self.broadcast(&opening, false, now, out);
        self.after_change(now, out);
    }
}
