//! The seats: one [`SeatSlot`] per seat — who sits there, their token, colour and part of the
//! luck, whether a bot plays for them, their comebacks and their field record — and what the
//! room does with them (names, colours, tokens, a lobby's reseating, a pilot taking a seat back
//! from its stand-in).

use super::*;

#[derive(Debug, Clone)]
pub(super) struct SeatSlot {
    pub(super) name: String,
    pub(super) colour: Colour,
    /// `None` for the host's own bots.
    pub(super) token: Option<SeatToken>,
    /// Some for a seat the host's bot plays for good (a filler, or a pilot who left).
    pub(super) bot: Option<BotLevel>,
    pub(super) conn: Option<ConnId>,
    pub(super) ready: bool,
    /// A pilot who missed a time limit: a bot plays for it until it acts again.
    pub(super) zombie: bool,
    /// The laptop's part of the table's luck (`dice::Luck`), its first, sent in the lobby.
    pub(super) part: Option<Part>,
    /// When it came back with its token, within the last [`COMEBACK_WINDOW_US`].
    pub(super) comebacks: Vec<u64>,
    /// Its field record came in (once).
    pub(super) fielded: bool,
}

impl SeatSlot {
    /// A seat taken by `name` in `colour`, with its token (a person's) or its bot's level;
    /// nobody connected, not ready, no part of the luck yet.
    pub(super) fn new(name: String, colour: Colour, token: Option<SeatToken>, bot: Option<BotLevel>) -> SeatSlot {
        SeatSlot {
            name,
            colour,
            token,
            bot,
            conn: None,
            ready: false,
            zombie: false,
            part: None,
            comebacks: Vec::new(),
            fielded: false,
        }
    }

    pub(super) fn bot_plays(&self) -> bool {
        self.bot.is_some() || self.conn.is_none() || self.zombie
    }
}

/// Spectators a room lets in: a game night has a few watchers and maybe a projector; every
/// update goes to each of them, so a thousand silent ones would slow the table.
pub const MAX_SPECTATORS: usize = 32;

/// Comebacks a seat may make within [`COMEBACK_WINDOW_US`]: a flaky Wi-Fi makes a few a
/// minute; the window and `bolide-bot` wait a second or more between tries.
pub const COMEBACKS: usize = 5;

pub const COMEBACK_WINDOW_US: u64 = 10_000_000;

impl<G: Game> RoomOf<G> {
    /// `name`, or `name 2`, `name 3`… when a seat already has it (case aside): two pilots never
    /// look alike in the lobby. Still at most `MAX_NAME_CHARS`.
    pub(super) fn unique_name(&self, name: String) -> String {
        let taken = |n: &str| self.seats.iter().any(|s| s.name.to_lowercase() == n.to_lowercase());
        if !taken(&name) {
            return name;
        }
        (2..=self.seats.len() + 1)
            .map(|i| {
                let suffix = format!(" {i}");
                let room = bolide_table::wire::MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
                format!("{}{suffix}", name.chars().take(room).collect::<String>())
            })
            .find(|n| !taken(n))
            .unwrap_or(name)
    }

    /// Every seat's token (the host's own bots have none): what a laptop coming back proves it
    /// holds at the door (`bolide_link::pake::seat_pass`).
    pub fn seat_tokens(&self) -> Vec<SeatToken> {
        self.seats.iter().filter_map(|s| s.token).collect()
    }

    /// The people seated in the lobby, to carry to a lobby of another game.
    pub fn carried(&self) -> Vec<CarriedSeat> {
        if !matches!(self.stage, Stage::Lobby) {
            return Vec::new();
        }
        self.seats
            .iter()
            .filter_map(|s| Some(CarriedSeat { name: s.name.clone(), colour: s.colour, token: s.token? }))
            .collect()
    }

    /// A colour no seat has (there are as many as seats at the largest table), else the least used.
    pub(super) fn free_colour(&self) -> Option<Colour> {
        let used = |c: &Colour| self.seats.iter().filter(|s| s.colour == *c).count();
        Colour::ALL.into_iter().min_by_key(used)
    }

    /// Seats the entrant `order[place]` at each place, seat tokens and connections with them;
    /// an order that does not name each seat once changes nothing.
    pub(super) fn reseat(&mut self, order: &[u8]) {
        if !bolide_table::is_seating(order, self.seats.len()) {
            return tracing::warn!(?order, "a seating that is not one: everyone sits as they came");
        }
        let mut old: Vec<Option<SeatSlot>> = std::mem::take(&mut self.seats).into_iter().map(Some).collect();
        let mut moved = BTreeMap::new();
        for (place, &entrant) in order.iter().enumerate() {
            if let Some(slot) = old.get_mut(usize::from(entrant)).and_then(Option::take) {
                moved.insert(entrant, place as u8);
                self.seats.push(slot);
            }
        }
        for s in self.members.values_mut().flatten() {
            s.0 = moved.get(&s.0).copied().unwrap_or(s.0);
        }
    }

    /// Frees the lobby's seats nobody is connected to (but those carried from another game's
    /// lobby while they wait): the seats after each move up.
    pub(super) fn free_empty_lobby_seats(&mut self, out: &mut Vec<Out<G>>) {
        let held = self.lobby.held_until.is_some();
        let mut kept = 0u8;
        let mut moved = BTreeMap::new();
        for (i, slot) in std::mem::take(&mut self.seats).into_iter().enumerate() {
            if slot.conn.is_none() && !held {
                continue;
            }
            moved.insert(i as u8, kept);
            self.seats.push(slot);
            kept += 1;
        }
        for s in self.members.values_mut().flatten() {
            s.0 = moved.get(&s.0).copied().unwrap_or(s.0);
        }
        self.send_lobby(out);
    }

    /// A pilot acted: if a bot was standing in, the pilot takes the seat back.
    pub(super) fn comes_back(&mut self, now: u64, seat: Seat) {
        if self.seats[seat.index()].zombie {
            self.seats[seat.index()].zombie = false;
            self.retime_seat(now, seat);
        }
    }
}
