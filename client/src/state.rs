//! The client side of one table, sans-I/O, as the room is on the host: fed what the host sends
//! and this laptop's clock, [`ClientStateOf`] keeps what the client knows ([`MirrorOf`]),
//! numbers the actions, takes a moment's opening once from whichever path brought it first
//! (the stream or the datagram twin), knows the timed moment now open and when this laptop
//! showed it, and says when the next heartbeat is due and what it says ([`crate::beat`]). It
//! serves any game: what it asks of one is [`ClientGame`]. It never touches a socket or a
//! clock: [`crate::net::SessionOf`] drives it over QUIC for every face — the window (`live`),
//! `bolide-bot` (`bot`) and the fairness lab's bots — which only decide and show. The plain
//! names (`ClientState`, `Mirror`, `SharedState`) are Bolide's.

use crate::beat::{self, Heartbeats};
use crate::game::ClientGame;
use bolide_table::Seat;
use bolide_table::colour::Colour;
use bolide_table::seal::Part;
use bolide_table::wire::{
    BeatSchedule, ClientMsgOf, DatagramOf, LobbyStateOf, MAX_NIGHT_BYTES, SeatToken, ServerMsgOf, Shown, StandingLine,
};
use std::sync::{Arc, Mutex, MutexGuard};

/// Events a client keeps: far more than a championship of six races makes, so a long game
/// (or a host that floods) does not grow a laptop's memory without bound.
pub const MAX_EVENTS: usize = 20_000;

/// Appends `new` to `log`, dropping the oldest past [`MAX_EVENTS`].
pub fn keep_events<E: Clone>(log: &mut Vec<E>, new: &[E]) {
    let new = &new[new.len().saturating_sub(MAX_EVENTS)..];
    let over = (log.len() + new.len()).saturating_sub(MAX_EVENTS);
    log.drain(..over.min(log.len()));
    log.extend_from_slice(new);
}

/// A view or a lobby the client refuses to apply: it names what does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadView(pub String);

/// What a host sends a window to show, made safe to show: names and reasons cut to a sane
/// length and cleaned of control and bidi characters (a host is a peer on the wire too); a
/// lobby or a welcome that names seats past the table refused; then the game's own checks.
fn clean<W: ClientGame>(msg: &mut ServerMsgOf<W>) -> Result<(), BadView> {
    use bolide_table::wire::{clean_name, clean_reason};
    let past = |seat: Seat| seat.index() >= W::SEATS;
    match msg {
        ServerMsgOf::Lobby(lobby) => {
            for seat in &mut lobby.seats {
                seat.name = clean_name(&seat.name);
                if past(seat.seat) {
                    return Err(BadView(format!("a lobby seat {} past the table", seat.seat.number())));
                }
            }
            if let Some(you) = lobby.you.filter(|s| past(*s)) {
                return Err(BadView(format!("your seat {} is past the table", you.number())));
            }
        }
        ServerMsgOf::Welcome { seat, room, .. } => {
            *room = clean_name(room);
            if let Some(s) = seat.filter(|s| past(*s)) {
                return Err(BadView(format!("your seat {} is past the table", s.number())));
            }
        }
        ServerMsgOf::Refused { reason, .. } | ServerMsgOf::LobbyRefused { reason } => *reason = clean_reason(reason),
        ServerMsgOf::Finished { standings } => standings.iter_mut().for_each(|l| l.name = clean_name(&l.name)),
        ServerMsgOf::Update { .. }
        | ServerMsgOf::ActRefused { .. }
        | ServerMsgOf::Pake { .. }
        // Kept as text; a replay reads it through the engine and cleans the names it shows.
        | ServerMsgOf::Night { .. } => {}
    }
    W::check(msg).map_err(BadView)
}

/// Everything the client knows of the table: what every face reads (the window each frame).
#[derive(Debug, Clone)]
pub struct MirrorOf<W: ClientGame> {
    /// This laptop's seat (`None`: a spectator).
    pub seat: Option<Seat>,
    pub lobby: Option<LobbyStateOf<W>>,
    pub view: Option<W::View>,
    pub legal: Vec<W::Action>,
    /// When a bot plays for this seat, on this laptop's clock (µs).
    pub deadline_at_us: Option<u64>,
    /// Whose decision a person's time limit runs for now, and when a bot makes it, on this
    /// laptop's clock (µs).
    pub awaited: Option<(Seat, u64)>,
    /// Every event received, in order (the latest [`MAX_EVENTS`]).
    pub events: Vec<W::Event>,
    /// The timed moment the host last opened, and the instant it scheduled for showing it (this
    /// clock; the arrival when it gave none).
    pub scheduled: Option<Shown>,
    /// The host's last refusal, in words (cleared by the next update).
    pub refusal: Option<String>,
    /// The last refused action's error as the game names it (a face may say it in its
    /// player's language); cleared with `refusal`.
    pub refused: Option<W::Refusal>,
    pub finished: Option<Vec<StandingLine>>,
    /// What this laptop checks of the host's luck (Bolide: every draw seen, checked against
    /// the seed once the host reveals it, on the podium).
    pub dice: W::Watch,
    /// The night's journal, once the championship is over (for the replays).
    pub night: NightRecord,
    /// Once the game started: whether this laptop's part of the luck is among those the game's
    /// seed was mixed from (`false`: the host left it out or changed it — the luck is then the
    /// host's to choose, and the faces say so).
    pub part_in: Option<bool>,
}

/// The night's journal as the host sends it once the championship is over
/// (`ServerMsg::Night`), gathered part by part: in order, no more than [`MAX_NIGHT_BYTES`].
/// What it says is checked when it is replayed (through the engine, against the seed).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NightRecord {
    text: String,
    next: u16,
    complete: bool,
    /// Why the host's parts were not kept.
    pub refused: Option<&'static str>,
}

impl NightRecord {
    fn take(&mut self, part: u16, last: bool, lines: &str) {
        if part == 0 {
            // A new night (a comeback after the end sends it again): start over.
            *self = NightRecord::default();
        }
        if self.refused.is_some() || self.complete {
            return;
        }
        if part != self.next {
            self.refused = Some("the host sent the night's parts out of order");
        } else if self.text.len().saturating_add(lines.len()) > MAX_NIGHT_BYTES {
            self.refused = Some("the host's night is larger than a night can be");
        }
        if self.refused.is_some() {
            self.text = String::new();
            return;
        }
        self.text.push_str(lines);
        self.next = self.next.saturating_add(1);
        self.complete = last;
    }

    /// The whole night's journal, once its last part came.
    pub fn complete(&self) -> Option<&str> {
        self.complete.then_some(self.text.as_str())
    }
}

impl<W: ClientGame> Default for MirrorOf<W> {
    fn default() -> Self {
        MirrorOf {
            seat: None,
            lobby: None,
            view: None,
            legal: Vec::new(),
            deadline_at_us: None,
            awaited: None,
            events: Vec::new(),
            scheduled: None,
            refusal: None,
            refused: None,
            finished: None,
            dice: W::Watch::default(),
            night: NightRecord::default(),
            part_in: None,
        }
    }
}

impl<W: ClientGame> MirrorOf<W> {
    fn apply(&mut self, msg: &ServerMsgOf<W>, now_us: u64) {
        W::watch(&mut self.dice, msg);
        match msg {
            ServerMsgOf::Lobby(lobby) => {
                // The lobby says whose it is each time: seats move up when a pilot leaves. A
                // seat the view does not have drops the view until the host sends its own.
                if self.view.as_ref().is_some_and(|v| lobby.you.is_some_and(|s| !W::seats(v, s))) {
                    self.view = None;
                    self.legal.clear();
                }
                self.seat = lobby.you;
                self.lobby = Some((**lobby).clone());
            }
            ServerMsgOf::Update { events, view, legal, deadline_ms, awaited, .. } => {
                // The view is this seat's own (checked): the seat it names is this laptop's.
                self.seat = W::viewer(view);
                keep_events(&mut self.events, events);
                if let Some(moment) = beat::opened(msg, now_us) {
                    self.scheduled = Some(moment);
                }
                self.view = Some((**view).clone());
                self.legal = legal.clone();
                self.deadline_at_us = deadline_ms.map(|ms| now_us.saturating_add(u64::from(ms) * 1000));
                self.awaited = awaited.map(|(seat, ms)| (seat, now_us.saturating_add(u64::from(ms) * 1000)));
                (self.refusal, self.refused) = (None, None);
            }
            // A rule error can carry the host's words (a phase's name): cleaned like a reason.
            ServerMsgOf::ActRefused { error, .. } => {
                self.refusal = Some(bolide_table::wire::clean_reason(&error.to_string()));
                self.refused = Some(error.clone());
            }
            ServerMsgOf::LobbyRefused { reason } => (self.refusal, self.refused) = (Some(reason.clone()), None),
            ServerMsgOf::Finished { standings } => self.finished = Some(standings.clone()),
            ServerMsgOf::Night { part, last, lines } => self.night.take(*part, *last, lines),
            ServerMsgOf::Welcome { .. } | ServerMsgOf::Refused { .. } | ServerMsgOf::Pake { .. } => {}
        }
    }

    /// The name of a seat, from the lobby (bots included once the game starts).
    pub fn name(&self, seat: Seat) -> String {
        self.lobby
            .as_ref()
            .and_then(|l| l.seats.iter().find(|s| s.seat == seat))
            .map_or_else(|| format!("{} {}", <W as bolide_table::Words>::PLAYER, seat.number()), |s| s.name.clone())
    }

    /// The colour of a seat (in Bolide, of the pawn and reservoir with its number, B-1.2).
    pub fn colour(&self, seat: Seat) -> Colour {
        self.lobby
            .as_ref()
            .and_then(|l| l.seats.iter().find(|s| s.seat == seat))
            .map_or(Colour::ALL[seat.index() % Colour::ALL.len()], |s| s.colour)
    }
}

/// The client side of one connection to a table.
#[derive(Debug)]
pub struct ClientStateOf<W: ClientGame> {
    pub token: Option<SeatToken>,
    pub mirror: MirrorOf<W>,
    /// The last action's sequence number on this connection.
    seq: u32,
    /// What the game remembers of the twins it took.
    twins: W::Twins,
    beats: Heartbeats,
    /// This laptop's part of the table's luck (`dice::Luck`), drawn once; and whether this
    /// connection has sent it, or must.
    part: Option<Part>,
    part_sent: bool,
    part_due: bool,
}

impl<W: ClientGame> Default for ClientStateOf<W> {
    fn default() -> Self {
        ClientStateOf {
            token: None,
            mirror: MirrorOf::default(),
            seq: 0,
            twins: W::Twins::default(),
            beats: Heartbeats::default(),
            part: None,
            part_sent: false,
            part_due: false,
        }
    }
}

impl<W: ClientGame> ClientStateOf<W> {
    /// The host's answer to the hello, on a new connection. What the client knows of the
    /// table stays (the window keeps drawing it through a comeback); what belongs to the
    /// connection starts again, as the host's count of this connection's actions does, and
    /// the beats go as the host asked.
    pub fn welcome(&mut self, seat: Option<Seat>, token: Option<SeatToken>, beats: BeatSchedule) {
        // A seat the view does not have (a host that lies, or a table that changed) drops the
        // view until the host sends this seat's own.
        if seat.is_some_and(|s| self.mirror.view.as_ref().is_some_and(|v| !W::seats(v, s))) {
            self.mirror.view = None;
            self.mirror.legal.clear();
        }
        self.mirror.seat = seat.filter(|s| s.index() < W::SEATS);
        self.token = token.or(self.token);
        self.seq = 0;
        self.twins = W::Twins::default();
        self.beats = Heartbeats::new(beats);
        (self.part_sent, self.part_due) = (false, false);
    }

    /// This laptop's part of the luck, once it is due: a seated laptop sends it on each
    /// connection once it has seen the lobby's commitment (the host keeps a seat's first).
    /// Drawn from the OS's random source, once for this table.
    pub fn take_part(&mut self) -> Option<Part> {
        if !std::mem::take(&mut self.part_due) {
            return None;
        }
        if self.part.is_none() {
            let mut part = [0u8; 32];
            getrandom::fill(&mut part).ok()?;
            self.part = Some(part);
        }
        self.part_sent = true;
        self.part
    }

    /// What a lobby says of the luck: a part is due once the commitment is shown to a seat in
    /// the lobby; once the game started, whether this laptop's part is in.
    fn luck(&mut self, lobby: &LobbyStateOf<W>) {
        match (lobby.started, lobby.you, &lobby.luck) {
            (false, Some(_), _) if !self.part_sent => self.part_due = true,
            (true, Some(seat), Some(luck)) if self.mirror.part_in.is_none() => {
                if let Some(part) = self.part {
                    self.mirror.part_in = Some(luck.parts.get(seat.index()).copied().flatten() == Some(part));
                }
            }
            _ => {}
        }
    }

    /// A message from the host at `now_us`: checked, applied, and returned as the face should
    /// see it. A view that names what does not exist is refused before anything is applied; a
    /// moment's opening that already came by datagram is taken out of the stream's update.
    pub fn on_message(&mut self, mut msg: ServerMsgOf<W>, now_us: u64) -> Result<ServerMsgOf<W>, BadView> {
        clean(&mut msg)?;
        if let ServerMsgOf::Update { events, view, .. } = &mut msg {
            W::dedupe(&mut self.twins, events, view);
        }
        self.take(&msg, now_us);
        Ok(msg)
    }

    /// The datagram twin of the update that opens a moment, at `now_us`, ahead of the
    /// stream's: the view with the moment open and what may be done in it (the stream's update
    /// soon replaces it with the host's own). `None`: nothing new.
    pub fn on_twin(&mut self, datagram: DatagramOf<W>, now_us: u64) -> Option<ServerMsgOf<W>> {
        let DatagramOf::Twin { show_at_us, twin } = datagram else { return None };
        let view = self.mirror.view.as_ref()?;
        let (view, events, legal) = W::twin(&mut self.twins, view, self.mirror.seat, twin)?;
        let msg = ServerMsgOf::Update {
            events,
            view: Box::new(view),
            legal,
            deadline_ms: None,
            awaited: None,
            show_at_us,
            countdown_end_us: None,
        };
        self.take(&msg, now_us);
        Some(msg)
    }

    fn take(&mut self, msg: &ServerMsgOf<W>, now_us: u64) {
        self.mirror.apply(msg, now_us);
        self.beats.on_message(msg);
        if let ServerMsgOf::Lobby(lobby) = msg {
            self.luck(lobby);
        }
    }

    /// A game action the player took at `at_us` on this clock: its sequence number and message.
    pub fn act(&mut self, action: W::Action, at_us: u64) -> (u32, ClientMsgOf<W>) {
        self.seq += 1;
        (self.seq, ClientMsgOf::Act { seq: self.seq, action, at_us: Some(at_us) })
    }

    /// An action of a timed moment (in Bolide a grab, an Échange declaration; in 1000 Bornes
    /// a Coup-Fourré) with when the moment was shown and when the player acted, both on this
    /// clock: its sequence number, the message for the stream and its datagram copy. Any
    /// other action is an [`act`](Self::act), without a copy.
    pub fn timed(
        &mut self,
        action: W::Action,
        shown_us: u64,
        input_us: u64,
    ) -> (u32, ClientMsgOf<W>, Option<DatagramOf<W>>) {
        if !W::timed(&action) {
            let (seq, msg) = self.act(action, input_us);
            return (seq, msg, None);
        }
        self.seq += 1;
        let seq = self.seq;
        let msg = ClientMsgOf::Timed { seq, action, shown_us, input_us };
        (seq, msg, Some(DatagramOf::Timed { seq, action, shown_us, input_us }))
    }

    /// This laptop showed `moment` at `moment.at_us` (the first showing of a moment counts).
    pub fn show(&mut self, moment: Shown) {
        self.beats.show(moment);
    }

    /// When this laptop showed the timed moment the mirror is in. Back on a seat in the middle
    /// of one (a reconnect) without having shown it, it shows now (`now_us`).
    pub fn shown(&mut self, now_us: u64) -> Option<Shown> {
        let moment = W::moment(self.mirror.view.as_ref()?)?;
        Some(self.beats.shown(moment, now_us))
    }

    /// The `shown` of a timed request whose input came at `input_us`: the showing of the
    /// moment now open (the frame that drew it) or else its scheduled instant, never after the
    /// input.
    pub fn shown_for(&self, input_us: u64) -> u64 {
        let drawn = self.beats.beat_shown(self.open_moment(), input_us);
        drawn.or(self.mirror.scheduled).map_or(input_us, |s| s.at_us).min(input_us)
    }

    /// The timed moment the mirror is in.
    fn open_moment(&self) -> Option<u64> {
        self.mirror.view.as_ref().and_then(W::moment)
    }

    /// The timed moment a request stamped now belongs to: the one the mirror is in, or else
    /// the last one this laptop showed (a verdict may have closed it in the mirror while the
    /// request was on its way from the face to the link; the host still judges it there).
    pub fn request_moment(&self) -> Option<u64> {
        self.open_moment().or_else(|| self.beats.last_moment())
    }

    /// Whether this seat still acts in the timed moment now open.
    pub fn competing(&self) -> bool {
        self.mirror.view.as_ref().is_some_and(|v| W::competing(v, self.mirror.seat, &self.mirror.legal))
    }

    /// When the next heartbeat is due on this clock, if one is needed ([`beat`]); a spectator
    /// never beats.
    pub fn beat_due(&self) -> Option<u64> {
        self.mirror.seat?;
        self.beats.due(self.mirror.view.as_ref().map(W::stage), self.competing())
    }

    /// A heartbeat leaving at `now_us`, vouching for no time past `vouchable_us` (an input
    /// stamped and not yet sent holds it back, `net::Unsent`).
    pub fn beat(&mut self, now_us: u64, vouchable_us: u64) -> DatagramOf<W> {
        let stage = self.mirror.view.as_ref().map(W::stage);
        let dense = self.beats.beaten(now_us, stage, self.competing());
        let shown = self.beats.beat_shown(self.open_moment(), vouchable_us);
        DatagramOf::Beat { now_us: vouchable_us, shown, acts: self.seq, dense }
    }
}

/// A [`ClientStateOf`] one task drives and a face reads meanwhile: the window locks it for a
/// frame, the link's task between two messages. One table, one owner at a time.
#[derive(Debug)]
pub struct SharedStateOf<W: ClientGame>(Arc<Mutex<ClientStateOf<W>>>);

impl<W: ClientGame> Clone for SharedStateOf<W> {
    fn clone(&self) -> Self {
        SharedStateOf(self.0.clone())
    }
}

impl<W: ClientGame> Default for SharedStateOf<W> {
    fn default() -> Self {
        SharedStateOf(Arc::default())
    }
}

impl<W: ClientGame> SharedStateOf<W> {
    pub fn lock(&self) -> MutexGuard<'_, ClientStateOf<W>> {
        // A face that panicked mid-frame leaves nothing half-written that matters more than
        // the table going on.
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bolide::ClientState;
    use bolide::model::MAX_PILOTS;
    use bolide::twin::Twin;
    use bolide::view::PhaseView;
    use bolide::{Action, Event, PlayerView, Timed};
    use bolide::{ClientMsg, Datagram, ServerMsg};

    fn seated() -> ClientState {
        let mut s = ClientState::default();
        s.welcome(Some(Seat(0)), None, BeatSchedule::WhileActing);
        s
    }

    /// A Bolide lobby for `you`, started or not, with `luck` shown.
    fn lobby(you: Option<Seat>, started: bool, luck: Option<bolide_table::seal::Luck>) -> ServerMsg {
        ServerMsg::Lobby(Box::new(bolide::LobbyState {
            seats: Vec::new(),
            you,
            settings: bolide::options::Settings {
                options: Default::default(),
                circuit: "cannes".into(),
                bots: 0,
                bot_level: Default::default(),
            },
            spectators: 0,
            started,
            dice: Default::default(),
            reveal: None,
            luck,
        }))
    }

    #[test]
    fn a_seated_laptop_sends_its_part_of_the_luck_once_it_has_seen_the_commitment_and_checks_it_is_in() {
        use bolide_table::seal::Luck;
        let mut s = seated();
        assert_eq!(s.take_part(), None, "nothing before the lobby's commitment");
        s.on_message(lobby(Some(Seat(0)), false, None), 0).unwrap();
        let part = s.take_part().expect("due once the commitment is shown");
        s.on_message(lobby(Some(Seat(0)), false, None), 0).unwrap();
        assert_eq!(s.take_part(), None, "once per connection");
        // A comeback sends the same part again (the host keeps the seat's first).
        s.welcome(Some(Seat(0)), None, BeatSchedule::WhileActing);
        s.on_message(lobby(Some(Seat(0)), false, None), 0).unwrap();
        assert_eq!(s.take_part(), Some(part));
        // At the start: its part is in, or the laptop says it was left out.
        s.on_message(lobby(Some(Seat(0)), true, Some(Luck::from_parts([Some(part)]))), 0).unwrap();
        assert_eq!(s.mirror.part_in, Some(true));
        let mut left_out = seated();
        left_out.on_message(lobby(Some(Seat(0)), false, None), 0).unwrap();
        assert!(left_out.take_part().is_some());
        left_out.on_message(lobby(Some(Seat(0)), true, Some(Luck::from_parts([Some([0; 32])]))), 0).unwrap();
        assert_eq!(left_out.mirror.part_in, Some(false));
        // A spectator has no part to send.
        let mut watching = ClientState::default();
        watching.welcome(None, None, BeatSchedule::WhileActing);
        watching.on_message(lobby(None, false, None), 0).unwrap();
        assert_eq!(watching.take_part(), None);
    }

    fn grab_view() -> PlayerView {
        let mut view = bolide::sim::random_race(3, 1).view_for(Seat(0));
        view.phase = PhaseView::CupDown;
        view
    }

    fn update(view: &PlayerView, events: Vec<Event>, show_at_us: Option<u64>) -> ServerMsg {
        let legal = view.pawns.iter().map(|p| Action::TakePawn { pawn: p.pawn }).collect();
        ServerMsg::Update {
            events,
            view: Box::new(view.clone()),
            legal,
            deadline_ms: None,
            awaited: None,
            show_at_us,
            countdown_end_us: None,
        }
    }

    #[test]
    fn b_4_4_a_reveal_comes_once_from_whichever_path_brings_it_first() {
        let mut s = seated();
        let view = grab_view();
        s.on_message(update(&view, vec![], None), 0).unwrap();
        let values = [3, 1, 4, 1, 5, 2];
        let twin = Twin::Reveal { race: view.race, round: view.round, values: values.to_vec() };
        let datagram = || Datagram::Twin { show_at_us: Some(9_000), twin: twin.clone() };
        let early = s.on_twin(datagram(), 1_000).expect("the datagram came first");
        assert!(
            matches!(&early, ServerMsg::Update { events, .. } if matches!(events[..], [Event::ReservoirsRevealed { .. }]))
        );
        assert_eq!(
            s.mirror.scheduled.map(|m| (m.moment, m.at_us)),
            Some((Timed::Grab.name(view.race, view.round), 9_000))
        );
        assert_eq!(s.on_twin(datagram(), 1_500), None, "a copy changes nothing");
        let mut revealed = view.clone();
        revealed.phase = PhaseView::Grab;
        let stream = update(&revealed, vec![Event::ReservoirsRevealed { values: values[..3].to_vec() }], Some(9_000));
        let ServerMsg::Update { events, .. } = s.on_message(stream, 2_000).unwrap() else { panic!() };
        assert!(events.is_empty(), "the stream's reveal is not shown twice: {events:?}");
    }

    #[test]
    fn b_4_7_an_echange_window_comes_once_from_whichever_path_brings_it_first() {
        let mut s = seated();
        let mut view = grab_view();
        view.phase = PhaseView::Grab;
        let values = [3, 1, 4, 0, 0, 0];
        for p in &mut view.pawns {
            p.reservoir = values.get(p.pawn.index()).copied();
        }
        s.on_message(update(&view, vec![Event::ReservoirsRevealed { values: values[..3].to_vec() }], None), 0).unwrap();
        // The update that hands out the last pawn and opens the window is held on the stream;
        // its twin says who holds what, and that only Anne (seat 0) decides.
        let (anne, bob, chloe) = (Seat(0), Seat(1), Seat(2));
        let mut holders = [None; MAX_PILOTS];
        holders[..3].copy_from_slice(&[Some(bob), Some(anne), Some(chloe)]);
        let twin = || Datagram::Twin {
            show_at_us: Some(9_000),
            twin: Twin::EchangeOpen {
                race: view.race,
                round: view.round,
                holders: holders.to_vec(),
                values: values.to_vec(),
                deciding: 0b001,
            },
        };
        let early = s.on_twin(twin(), 1_000).expect("the datagram came first");
        let ServerMsg::Update { events, view: opened, legal, .. } = &early else { panic!() };
        assert_eq!(events[..], [Event::EchangeWindow { seats: vec![anne] }], "the reveal is not shown twice");
        assert_eq!(opened.phase, PhaseView::Echange);
        assert_eq!((opened.car(anne).pawn, opened.car(bob).pawn), (Some(bolide::Pawn(1)), Some(bolide::Pawn(0))));
        assert_eq!(legal[..], [Action::Echange { with: bob }, Action::Echange { with: chloe }, Action::KeepPawn]);
        assert!(s.competing());
        assert_eq!(
            s.mirror.scheduled.map(|m| (m.moment, m.at_us)),
            Some((Timed::Echange.name(view.race, view.round), 9_000))
        );
        assert_eq!(s.on_twin(twin(), 1_500), None, "a copy changes nothing");
        // The stream's update comes: its news stays, the window is not opened twice.
        let mut stream_view = (**opened).clone();
        stream_view.phase = PhaseView::Echange;
        let taken = Event::PawnTaken { seat: chloe, pawn: bolide::Pawn(2), auto: true };
        let stream = update(&stream_view, vec![taken.clone(), Event::EchangeWindow { seats: vec![anne] }], Some(9_000));
        let ServerMsg::Update { events, .. } = s.on_message(stream, 2_000).unwrap() else { panic!() };
        assert_eq!(events, [taken]);
        assert_eq!(
            s.mirror.scheduled.map(|m| (m.moment, m.at_us)),
            Some((Timed::Echange.name(view.race, view.round), 9_000))
        );
        // The stream first: a twin behind it changes nothing (it would undo what was declared).
        let mut late = seated();
        late.on_message(update(&view, vec![], None), 0).unwrap();
        let window = update(&stream_view, vec![Event::EchangeWindow { seats: vec![anne] }], Some(9_000));
        let ServerMsg::Update { events, .. } = late.on_message(window, 1_000).unwrap() else { panic!() };
        assert_eq!(events.len(), 1);
        assert_eq!(late.on_twin(twin(), 1_500), None);
    }

    #[test]
    fn b_4_6_a_klaxon_pick_that_opens_the_echange_window_reveals_by_its_twin_too() {
        let mut s = seated();
        let view = grab_view();
        s.on_message(update(&view, vec![], None), 0).unwrap();
        let values = [3, 1, 4, 0, 0, 0];
        let mut holders = [None; MAX_PILOTS];
        holders[..3].copy_from_slice(&[Some(Seat(1)), Some(Seat(0)), Some(Seat(2))]);
        let twin = Datagram::Twin {
            show_at_us: None,
            twin: Twin::EchangeOpen {
                race: view.race,
                round: view.round,
                holders: holders.to_vec(),
                values: values.to_vec(),
                deciding: 0b110,
            },
        };
        let ServerMsg::Update { events, legal, view: opened, .. } = s.on_twin(twin, 1_000).unwrap() else { panic!() };
        assert_eq!(
            events,
            [
                Event::ReservoirsRevealed { values: values[..3].to_vec() },
                Event::EchangeWindow { seats: vec![Seat(1), Seat(2)] }
            ]
        );
        assert!(legal.is_empty(), "Anne holds no Échange");
        assert!(opened.pawns.iter().all(|p| p.reservoir == Some(values[p.pawn.index()])), "{:?}", opened.pawns);
        let reveal = Datagram::Twin {
            show_at_us: None,
            twin: Twin::Reveal { race: view.race, round: view.round, values: values.to_vec() },
        };
        assert_eq!(s.on_twin(reveal, 1_100), None, "the reveal's own twin, behind, changes nothing");
    }

    #[test]
    fn fairness_4_beats_carry_the_actions_sent_and_never_vouch_past_an_unsent_input() {
        let mut s = seated();
        let mut view = grab_view();
        view.phase = PhaseView::Grab;
        s.on_message(update(&view, vec![], None), 0).unwrap();
        let grab = Shown { moment: Timed::Grab.name(view.race, view.round), at_us: 1_000 };
        s.show(grab);
        assert!(s.competing());
        assert_eq!(s.beat_due(), Some(0), "a competing seat beats at once");
        let Datagram::Beat { now_us, shown, acts, dense } = s.beat(5_000, 4_000) else { panic!() };
        assert_eq!((now_us, shown, acts, dense), (4_000, Some(grab), 0, true), "the next follows soon");
        assert_eq!(s.beat_due(), Some(5_000 + beat::BEAT_US));
        let (seq, msg, copy) = s.timed(Action::TakePawn { pawn: view.pawns[0].pawn }, s.shown_for(6_000), 6_000);
        assert_eq!(seq, 1);
        assert!(matches!(msg, ClientMsg::Timed { seq: 1, shown_us: 1_000, input_us: 6_000, .. }));
        assert!(matches!(copy, Some(Datagram::Timed { seq: 1, .. })));
        let Datagram::Beat { acts, .. } = s.beat(7_000, 7_000) else { panic!() };
        assert_eq!(acts, 1, "the next beat counts the grab");
        let (seq, msg) = s.act(Action::EndTurn, 8_000);
        assert_eq!((seq, msg), (2, ClientMsg::Act { seq: 2, action: Action::EndTurn, at_us: Some(8_000) }));
    }

    #[test]
    fn a_view_that_names_what_does_not_exist_is_refused_before_it_is_applied() {
        let mut s = ClientState::default();
        let mut view = grab_view();
        view.viewer = Some(Seat(9));
        assert!(s.on_message(update(&view, vec![], None), 0).is_err());
        assert!(s.mirror.view.is_none());
    }

    #[test]
    fn the_event_log_is_bounded() {
        let mut s = seated();
        let view = grab_view();
        let flood = vec![Event::KlaxonCalled { seat: Seat(0), order: 0 }; 7_000];
        for _ in 0..5 {
            s.on_message(update(&view, flood.clone(), None), 0).unwrap();
        }
        assert_eq!(s.mirror.events.len(), MAX_EVENTS);
    }

    #[test]
    fn a_comeback_keeps_the_table_and_starts_the_connection_afresh() {
        let mut s = seated();
        let view = grab_view();
        s.on_message(update(&view, vec![], None), 0).unwrap();
        s.act(Action::EndTurn, 10);
        s.welcome(Some(Seat(0)), None, BeatSchedule::WhileActing);
        assert!(s.mirror.view.is_some(), "the window keeps drawing the table through a comeback");
        let (seq, _) = s.act(Action::EndTurn, 20);
        assert_eq!(seq, 1, "the host counts a new connection's actions from one");
    }
}
