//! One table's room, sans-I/O, for any game (`RoomOf<G: bolide_table::Game>`): the lobby, the
//! game loop around the engine's seam, the host's bots, the time limits, the seat tokens and
//! what the game asks to be timed — calls under a countdown (Bolide's Klaxon) and timed moments
//! (Bolide's grab and Échange window, 1000 Bornes' Coup-Fourré) — whose state
//! [`fairness::Fairness`] owns and `timed` wires to the game. Inputs (a hello, a message, a
//! probe, a dropped connection, the clock in µs) go in; messages to send (now or at an
//! instant), connections to close, journal entries and fairness records come out. The network
//! layer (`crate::net`) only moves them; tests drive a room with synthetic times and no
//! sockets. **Architecture Invariant:** nothing here names a game (`host/tests/host/invariants.rs`).
//!
//! The room's parts, each with one owner: `config` (how it behaves) and `output` (what it
//! says); `seats` (a `SeatSlot` per seat: who sits there, token, colour, part of the luck,
//! stand-in, comebacks, field record); `lobby` (a hello, the lobby's state, the paths'
//! check, the start); `timers` (what is due and when, as quinn-proto's `TimerTable`, and
//! the scheduling that sets it); `night` (the journal every laptop is handed at the end, and
//! a room resumed from its journal); `fairness` (clocks and paths — one `ConnPath` per
//! connection —, calls and the open moment) and `timed` (what the game's step asks timed).
//! This file is the room itself and its game loop: messages, a connection gone, the clock,
//! an action applied and its news sent.

mod config;
mod fairness;
mod lobby;
pub mod moment_log;
mod night;
mod output;
mod seats;
mod timed;
mod timers;

pub use config::{DEFAULT_BOT_DELAY_MS, RoomConfigOf};
pub use lobby::PATH_CHECK_US;
pub use output::{CARRY_US, CallOrderRecord, CarriedSeat, FieldRecord, OutputOf};
pub use seats::{COMEBACK_WINDOW_US, COMEBACKS, MAX_SPECTATORS};

pub use bolide_table::LobbyOf;
pub use bolide_table::TIE_US;
pub use bolide_table::journal::{JournalEntryOf, JournalSeat, ResumeError, complete_len, game_of};
pub use fairness::{
    Beat, Clamp, FairRecord, FieldPath, Headroom, PUBLIC_LEAD_US, REVEAL_MARGIN_US, SILENCE_US, UNKNOWN_OWD_US,
    WARM_SAMPLES, WARM_UP_US, WARM_UPS, WINDOW_GRACE_US,
};

use crate::fair::Sample;
use bolide_table::BotLevel;
use bolide_table::colour::Colour;
use bolide_table::hands::Hands;
use bolide_table::seal::{Luck, Part, SeedReveal};
use bolide_table::wire::{
    BeatSchedule, ClientMsgOf, DatagramOf, FieldCall, FieldLine, FieldTruth, Hello, LobbySeat, LobbyStateOf,
    MAX_FIELD_LINES, PathCheck, SeatToken, ServerMsgOf, StandingLine, close,
};
use bolide_table::{Game, Lobby, Seat, Step, TableRefusal, Words};
use lobby::LobbyClock;
use night::Night;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seats::SeatSlot;
use std::collections::BTreeMap;
use timed::TimedStep;
use timers::{Due, DueKind, Timers};

/// A connection, as the network layer numbers them.
pub type ConnId = u64;

#[derive(Debug)]
enum Stage<G> {
    Lobby,
    Playing(Box<G>),
    Finished(Box<G>),
}

/// A plain request as it came: its `seq`, the action, and when it was made on its laptop's clock.
type PlainAct<A> = (u32, A, Option<u64>);

/// A room serving game `G`.
pub struct RoomOf<G: Game> {
    config: RoomConfigOf<LobbyOf<G>>,
    seats: Vec<SeatSlot>,
    /// Connected clients and their seat (`None`: spectator).
    members: BTreeMap<ConnId, Option<Seat>>,
    stage: Stage<G>,
    rng: ChaCha8Rng,
    /// What is due and when, and the step it was set for.
    timers: Timers,
    legal: Vec<G::Action>,
    /// Clocks, calls under a countdown and the timed moment now open: their one owner.
    fair: fairness::Fairness<G::Action>,
    /// The lobby's network check, and how long carried seats wait for their laptops.
    lobby: LobbyClock,
    /// The journal as every player may keep it: sent to every laptop once the game is over.
    night: Night<G::Words>,
    /// The laptops' parts the game's seed was mixed from, fixed at the start.
    luck: Luck,
}

/// What a room of `G` says and hears.
type ServerMsgFor<G> = ServerMsgOf<<G as Game>::Words>;
type ClientMsgFor<G> = ClientMsgOf<<G as Game>::Words>;
type Out<G> = OutputOf<<G as Game>::Words>;

impl<G: Game> RoomOf<G> {
    /// `entropy` seeds the seat tokens; pass real randomness outside tests.
    pub fn new(config: RoomConfigOf<LobbyOf<G>>, entropy: u64) -> RoomOf<G> {
        RoomOf {
            rng: ChaCha8Rng::seed_from_u64(entropy),
            config,
            seats: Vec::new(),
            members: BTreeMap::new(),
            stage: Stage::Lobby,
            timers: Timers::default(),
            legal: Vec::new(),
            fair: fairness::Fairness::default(),
            lobby: LobbyClock::default(),
            night: Night::default(),
            luck: Luck::default(),
        }
    }

    /// A lobby with the seats of another game's lobby at this table: each waits
    /// [`CARRY_US`] for its laptop to come back with its token.
    pub fn with_seats(
        config: RoomConfigOf<LobbyOf<G>>,
        entropy: u64,
        carried: Vec<CarriedSeat>,
        now: u64,
    ) -> RoomOf<G> {
        let mut room = RoomOf::new(config, entropy);
        room.seats = carried
            .into_iter()
            .take(usize::from(G::PLAYERS.1))
            .map(|c| SeatSlot::new(c.name, c.colour, Some(c.token), None))
            .collect();
        room.lobby.held_until = (!room.seats.is_empty()).then(|| now.saturating_add(CARRY_US));
        room
    }

    pub fn code(&self) -> &str {
        &self.config.code
    }
    /// Seats taken (people and bots) and the most a table holds, for the mDNS advertisement.
    pub fn seats_taken(&self) -> (usize, usize) {
        let bots = if matches!(self.stage, Stage::Lobby) { self.config.settings.bots() as usize } else { 0 };
        (self.seats.len() + bots, usize::from(G::PLAYERS.1))
    }
    pub fn is_finished(&self) -> bool {
        matches!(self.stage, Stage::Finished(_))
    }
    /// The game, once started (and once over).
    pub fn game(&self) -> Option<&G> {
        match &self.stage {
            Stage::Playing(c) | Stage::Finished(c) => Some(c),
            Stage::Lobby => None,
        }
    }
    /// The timed moment now open as a beat names it, shown at its opening instant (host
    /// clock): what a laptop's beats say once it shows the moment.
    pub fn open_moment_shown(&self) -> Option<bolide_table::wire::Shown> {
        let (id, opens) = self.fair.open_moment()?;
        Some(bolide_table::wire::Shown { moment: id, at_us: opens })
    }

    /// A timing probe came back from `conn` (fairness.md §1).
    pub fn probe(&mut self, conn: ConnId, sample: Sample) {
        self.fair.probe(conn, sample);
    }

    // ----- inputs -----

    pub fn message(&mut self, now: u64, conn: ConnId, msg: ClientMsgFor<G>, out: &mut Vec<Out<G>>) {
        let Some(&seat) = self.members.get(&conn) else { return };
        match msg {
            ClientMsgOf::PickColour(colour) => {
                let taken =
                    self.seats.iter().enumerate().any(|(i, s)| s.colour == colour && Some(Seat(i as u8)) != seat);
                match seat {
                    Some(seat) if matches!(self.stage, Stage::Lobby) && !taken => {
                        self.seats[seat.index()].colour = colour;
                        self.send_lobby(out);
                    }
                    _ => self.lobby_refused(conn, "that colour is taken (or the lobby is closed)", out),
                }
            }
            ClientMsgOf::Ready(ready) => match seat {
                Some(seat) if matches!(self.stage, Stage::Lobby) => {
                    self.seats[seat.index()].ready = ready;
                    self.send_lobby(out);
                    self.try_start(now, out);
                }
                _ => self.lobby_refused(conn, "the lobby is closed", out),
            },
            ClientMsgOf::Configure(settings) => {
                if seat != Some(Seat(0)) || !matches!(self.stage, Stage::Lobby) {
                    return self.lobby_refused(conn, "only the first pilot sets the championship, in the lobby", out);
                }
                if let Err(reason) = check_lobby::<G>(&settings, self.seats.len()) {
                    return self.lobby_refused(conn, &reason, out);
                }
                self.config.settings = settings;
                self.send_lobby(out);
                self.try_start(now, out);
            }
            ClientMsgOf::ChooseGame(game) => {
                if seat != Some(Seat(0)) || !matches!(self.stage, Stage::Lobby) {
                    return self.lobby_refused(conn, "only the first pilot picks the game, in the lobby", out);
                }
                if game != <G::Words as Words>::NAME {
                    out.push(OutputOf::SwitchGame { conn, game });
                }
            }
            ClientMsgOf::Act { seq, action, at_us } => {
                self.fair.saw_act(conn, seq);
                let Some(seat) = seat else {
                    let msg = ServerMsgOf::ActRefused { seq, error: TableRefusal::Spectator.into() };
                    return out.push(OutputOf::Send { conn, msg });
                };
                self.plain_act(now, (conn, seat), (seq, action, at_us), out);
            }
            ClientMsgOf::Timed { seq, action, shown_us, input_us } => {
                self.timed_msg(now, conn, seat, (seq, action, shown_us, input_us), out);
            }
            ClientMsgOf::Heartbeat { now_us, shown, acts, dense } => {
                if let Some(seat) = seat {
                    self.heartbeat(now, conn, seat, Beat { now_us, shown, acts, dense }, out);
                }
            }
            ClientMsgOf::Contribute(part) => {
                // A seat's first part, in the lobby only: the game's seed is mixed at the start.
                if let (Some(seat), Stage::Lobby) = (seat, &self.stage)
                    && let Some(slot) = self.seats.get_mut(seat.index())
                {
                    slot.part.get_or_insert(part);
                }
            }
            ClientMsgOf::FieldRecord(truth) => self.field_record(conn, seat, truth, out),
            ClientMsgOf::Leave => {
                if let Some(seat) = seat {
                    self.seats[seat.index()].bot = Some(self.config.settings.bot_level());
                }
                self.gone(now, conn, out);
            }
        }
    }

    /// A plain request of `seat`: a call under a countdown, refused from a contender of an open
    /// moment (it must carry its timings), or else applied.
    fn plain_act(&mut self, now: u64, (conn, seat): (ConnId, Seat), act: PlainAct<G::Action>, out: &mut Vec<Out<G>>) {
        let (seq, action, _) = act;
        // A pilot who acts takes the seat back from a stand-in; a plain request refused in a
        // timed moment is not acting (and must not cancel its time limit).
        match self.playing().map(Game::step) {
            Some(Step::Countdown { .. }) => {
                self.comes_back(now, seat);
                self.call(now, (conn, seat), act, out)
            }
            // Every client of this protocol acts in a timed moment with its timings: a plain
            // request there can only be a stale decision, and judging it by its arrival would
            // hand the moment to the nearest laptop.
            Some(Step::Timed { contenders, .. }) if contenders.contains(seat) => {
                let msg = ServerMsgOf::ActRefused { seq, error: TableRefusal::Untimed.into() };
                out.push(OutputOf::Send { conn, msg })
            }
            _ => {
                self.comes_back(now, seat);
                if let Err(error) = self.apply(now, seat, action, out) {
                    out.push(OutputOf::Send { conn, msg: ServerMsgOf::ActRefused { seq, error } });
                }
            }
        }
    }

    /// A timed request: it comes on the stream and as datagram copies, and the first one
    /// counts.
    fn timed_msg(
        &mut self,
        now: u64,
        conn: ConnId,
        seat: Option<Seat>,
        (seq, action, shown_us, input_us): (u32, G::Action, u64, u64),
        out: &mut Vec<Out<G>>,
    ) {
        if !self.fair.saw_act(conn, seq) {
            return;
        }
        let Some(seat) = seat else {
            let msg = ServerMsgOf::ActRefused { seq, error: TableRefusal::Spectator.into() };
            return out.push(OutputOf::Send { conn, msg });
        };
        self.comes_back(now, seat);
        self.timed_request(now, fairness::Claim { conn, seat, seq, action, shown_us, input_us }, out);
    }

    /// The connection is gone (dropped or closed).
    pub fn gone(&mut self, now: u64, conn: ConnId, out: &mut Vec<Out<G>>) {
        self.fair.forget(conn);
        let Some(seat) = self.members.remove(&conn) else { return };
        let Some(seat) = seat else { return self.send_lobby(out) };
        if self.seats[seat.index()].conn != Some(conn) {
            return;
        }
        self.seats[seat.index()].conn = None;
        if matches!(self.stage, Stage::Lobby) {
            // A lobby seat is only a name yet: free it.
            self.free_empty_lobby_seats(out);
        } else {
            // A bot plays for the dropped pilot until it comes back with its token.
            self.retime_seat(now, seat);
            self.send_lobby(out);
        }
    }

    /// Fires every timer due at `now`.
    pub fn tick(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        if matches!(self.stage, Stage::Lobby) && self.lobby.held_until.is_some_and(|at| at <= now) {
            self.lobby.held_until = None;
            self.free_empty_lobby_seats(out);
        }
        if matches!(self.stage, Stage::Lobby) && self.lobby.path_check_at.is_some_and(|at| at <= now) {
            self.lobby.path_check_at = Some(now.saturating_add(PATH_CHECK_US));
            if self.paths() != self.lobby.paths_sent {
                self.send_lobby(out);
            }
        }
        while let Some(i) = self.timers.due.iter().position(|d| d.at <= now) {
            let due = self.timers.due.swap_remove(i);
            self.fire(now, due.kind, out);
        }
        self.settle(now, out);
    }

    // ----- the lobby -----

    /// A laptop hands in its field record (`serve --fairness-test`): only after the
    /// championship, from a seat, once, and no longer than [`MAX_FIELD_LINES`] — nothing of it
    /// can reach a verdict, which are all given by then.
    fn field_record(&mut self, conn: ConnId, seat: Option<Seat>, truth: FieldTruth, out: &mut Vec<Out<G>>) {
        let refused = if !self.config.field_test {
            Some("this host is not running a fairness test: start it with `bolide-host serve --fairness-test`")
        } else if !matches!(self.stage, Stage::Finished(_)) {
            Some("a field record is handed in after the championship, not before")
        } else if truth.lines.len() > MAX_FIELD_LINES || truth.calls.len() > MAX_FIELD_LINES {
            Some("a field record is too long: keep the first 1000 timed requests and calls")
        } else {
            None
        };
        let Some(seat) = seat else { return self.lobby_refused(conn, "a spectator has no field record", out) };
        if let Some(reason) = refused {
            return self.lobby_refused(conn, reason, out);
        }
        let Some(slot) = self.seats.get_mut(seat.index()) else { return };
        if std::mem::replace(&mut slot.fielded, true) {
            return self.lobby_refused(conn, "this seat's field record is in already", out);
        }
        let name = self.seats.get(seat.index()).map(|s| s.name.clone()).unwrap_or_default();
        let path = self.fair.field_path(conn);
        let FieldTruth { lines, calls } = truth;
        out.push(OutputOf::FieldRecord(FieldRecord { seat, name, lines, calls, path }));
    }

    // ----- the game loop -----

    fn playing(&self) -> Option<&G> {
        playing(&self.stage)
    }

    /// Applies an action through the game: journal first, then everyone's update.
    fn apply(&mut self, now: u64, seat: Seat, action: G::Action, out: &mut Vec<Out<G>>) -> Result<(), G::Refusal> {
        let Stage::Playing(game) = &mut self.stage else { return Err(TableRefusal::Over.into()) };
        let mut events = Vec::new();
        Game::apply(&mut **game, seat, action, &mut events)?;
        self.journal(JournalEntryOf::Applied { seat, action }, out);
        self.changed(now, events, out);
        Ok(())
    }

    /// The countdown ended, or the timed moment that ends with its time: the game is told,
    /// and the journal says so (a resume tells it again at the same point).
    fn time_up(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        let Stage::Playing(game) = &mut self.stage else { return };
        let mut events = Vec::new();
        if let Err(e) = game.time_is_up(&mut events) {
            return tracing::error!(%e, "the game refused the end of its own countdown");
        }
        self.journal(JournalEntryOf::TimeUp, out);
        self.changed(now, events, out);
    }

    /// After the game changed: the moment it left ends, the one it entered opens, the timers
    /// follow, and everyone gets `events` with a fresh view.
    fn changed(&mut self, now: u64, mut events: Vec<G::Event>, out: &mut Vec<Out<G>>) {
        self.timers.applied += 1;
        // A timed moment just ended: every verdict is final, so its figures may be public.
        if let Some(photo) = self.end_moment(now, out) {
            self.journal(JournalEntryOf::Published { event: photo.clone() }, out);
            events.push(photo);
        }
        let opened = self.unopened_moment();
        if let Some(step) = opened {
            self.open_moment(now, step);
            let news = self.playing().and_then(|g| g.twin(&events));
            let opens = self.fair.open_moment().map_or(now, |(_, opens)| opens);
            out.push(OutputOf::Moment(moment_log::MomentLine::Opened {
                moment: step.moment,
                decided_us: now,
                opens_us: opens,
                window_us: step.window_us,
                contenders: step.contenders,
                news,
            }));
        }
        // Timers first: the update says how long each wait is and when the countdown ends.
        self.retime(now);
        self.broadcast(&events, opened.is_some(), now, out);
        self.after_change(now, out);
    }

    /// Everyone's update after `events`; `opened`: they opened a timed moment.
    fn broadcast(&mut self, events: &[G::Event], opened: bool, now: u64, out: &mut Vec<Out<G>>) {
        let conns: Vec<ConnId> = self.members.keys().copied().collect();
        for conn in conns {
            let Some((at, show_at)) = opened.then(|| self.moment_timing(conn, now)).flatten() else {
                self.send_update_to(conn, events, now, out);
                continue;
            };
            // B-4.2, B-4.7, fairness.md §2, §6: the update says when to show the moment on
            // that laptop's clock. A secret one (and its datagram twin) leaves so that it
            // arrives just before; a public one (and its twin) at once.
            let mut msgs = Vec::new();
            self.send_update_to(conn, events, now, &mut msgs);
            if let Some(twin) = self.playing().and_then(|g| g.twin(events)) {
                let datagram = DatagramOf::Twin { show_at_us: show_at, twin };
                out.push(OutputOf::DatagramAt { conn, at, datagram });
            }
            for m in msgs {
                if let OutputOf::Send {
                    conn,
                    msg: ServerMsgOf::Update { events, view, legal, deadline_ms, awaited, .. },
                } = m
                {
                    let msg = ServerMsgOf::Update {
                        events,
                        view,
                        legal,
                        deadline_ms,
                        awaited,
                        show_at_us: show_at,
                        countdown_end_us: None,
                    };
                    out.push(OutputOf::SendAt { conn, at, msg });
                }
            }
        }
    }

    fn send_update_to(&mut self, conn: ConnId, events: &[G::Event], now: u64, out: &mut Vec<Out<G>>) {
        // Under a countdown: when it ends, on this client's clock — its countdown, and the mark
        // its call is judged against (fairness.md §6). It tells its clock once just after,
        // instead of beating the whole time.
        let counting = matches!(self.playing().map(Game::step), Some(Step::Countdown { .. }));
        let countdown_end_us = if counting { self.fair.countdown_end_for(conn) } else { None };
        let Some(game) = self.playing() else { return };
        let seat = self.members.get(&conn).copied().flatten();
        let view = game.view(seat);
        let mut legal = Vec::new();
        if let Some(seat) = seat {
            game.offered(seat, &mut legal);
        }
        // Under a countdown, the time left is the time to its end; in a moment that ends with
        // its time, to its length (its grace is the table's, not a player's).
        let deadline_ms = seat.and_then(|s| {
            self.timers
                .due
                .iter()
                .find(|d| {
                    matches!(d.kind, DueKind::Act(a) if a == s)
                        || matches!(d.kind, DueKind::LengthPassed | DueKind::TimeUp)
                })
                .map(|d| (d.at.saturating_sub(now) / 1000) as u32)
        });
        // Whose decision a person's time limit now runs for, on every screen.
        let awaited = self
            .timers
            .due
            .iter()
            .filter_map(|d| match d.kind {
                DueKind::Act(a) if self.seats.get(a.index()).is_some_and(|slot| !slot.bot_plays()) => Some((a, d.at)),
                _ => None,
            })
            .min_by_key(|(_, at)| *at)
            .map(|(a, at)| (a, (at.saturating_sub(now) / 1000) as u32));
        out.push(OutputOf::Send {
            conn,
            msg: ServerMsgOf::Update {
                events: events.iter().map(|e| game.event_for(e, seat)).collect(),
                view: Box::new(view),
                legal,
                deadline_ms,
                awaited,
                show_at_us: None,
                countdown_end_us,
            },
        });
    }

    fn after_change(&mut self, now: u64, out: &mut Vec<Out<G>>) {
        let Some(standings) = self.playing().and_then(Game::standings) else { return self.retime(now) };
        let standings: Vec<StandingLine> = standings
            .iter()
            .map(|s| StandingLine {
                seat: s.seat,
                name: self.seats.get(s.seat.index()).map(|slot| slot.name.clone()).unwrap_or_default(),
                points: s.points,
                wins: s.wins,
                rank: s.rank,
            })
            .collect();
        let Stage::Playing(game) = std::mem::replace(&mut self.stage, Stage::Lobby) else { return };
        self.stage = Stage::Finished(game);
        self.timers.due.clear();
        // The lobby now carries the seed, so every client has checked its dice by the time it
        // reads the standings.
        self.send_lobby(out);
        for &conn in self.members.keys() {
            out.push(OutputOf::Send { conn, msg: ServerMsgOf::Finished { standings: standings.clone() } });
            self.send_night(conn, out);
        }
    }

    /// A pilot's request in a timed moment was refused (a faster hand took the pawn) and it
    /// must decide again. Its time limit may already have fired — a stand-in acted, then the
    /// pilot came back in person —; then it runs again, so a laptop that beats without
    /// deciding cannot hold the moment open.
    pub(super) fn owes_a_decision(&mut self, now: u64, seat: Seat) {
        if !self.timers.due.iter().any(|d| d.kind == DueKind::Act(seat)) {
            let at = self.time_limit(now, seat, true);
            self.timers.due.push(Due { at, kind: DueKind::Act(seat) });
        }
    }
}

/// The game being played, borrowed from the stage alone (so the room's other parts stay free).
fn playing<G>(stage: &Stage<G>) -> Option<&G> {
    match stage {
        Stage::Playing(game) => Some(game),
        _ => None,
    }
}

/// Milliseconds from a setting as µs, saturating: a huge delay waits forever, never wraps.
fn us(ms: u64) -> u64 {
    ms.saturating_mul(1000)
}

/// Checks a lobby's settings with `seated` players already in it: the same check for the
/// host's flags and for the lobby's `Configure`. The table checks the seats (the bots fit, and
/// one seat stays for a person); the game its own settings, as at its fullest table (the count
/// itself is checked at the start). A refusal starts with the field.
pub fn check_lobby<G: Game>(lobby: &LobbyOf<G>, seated: usize) -> Result<(), String> {
    let (most, bots) = (usize::from(G::PLAYERS.1), usize::from(lobby.bots()));
    if seated + bots > most || bots >= most {
        return Err(format!(
            "bots: {bots} bots and {seated} players do not fit at a table of {most} (at least one seat stays for a person)"
        ));
    }
    lobby.check()?;
    G::check_settings(&lobby.game(), G::PLAYERS.1)
}

#[cfg(test)]
mod tests;
