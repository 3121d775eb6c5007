//! Bolide's half of the client core: the grab (B-4.3) and the Échange window (B-4.7) are its
//! timed moments, the cup (B-4.6) its countdown; the reveal and the window come by datagram
//! twin as well as on the stream.

mod board;
pub mod drill;
mod lobby;
mod podium;
mod race;
pub mod table;

use crate::bot::BotGame;
use crate::game::{ClientGame, Stage, TwinUpdate};
use crate::net::{ClientError, ConnectOptionsOf, SessionOf};
use crate::state::{ClientStateOf, MirrorOf, SharedStateOf};
use bolide::ServerMsg;
use bolide::bots::{BotLevel, Decide};
use bolide::dice::DiceWatch;
use bolide::twin::Twin;
use bolide::view::PhaseView;
use bolide::{Action, Bolide, Event, Pawn, PlayerView, Seat};
use bolide_table::wire::clean_reason;
use rand_chacha::ChaCha8Rng;

/// Bolide's client core and connection by their plain names (`net` and `state` re-export them
/// for the faces: the window, the bots, the lab).
pub type ClientState = ClientStateOf<Bolide>;
pub type Mirror = MirrorOf<Bolide>;
pub type SharedState = SharedStateOf<Bolide>;
pub type Session = SessionOf<Bolide>;
pub type ConnectOptions = ConnectOptionsOf<Bolide>;

impl SessionOf<Bolide> {
    /// B-4.3: grabs `pawn`; the reservoirs were shown at `shown_us` and the pilot acted at
    /// `input_us`, both on this client's clock.
    pub async fn grab(&mut self, pawn: Pawn, shown_us: u64, input_us: u64) -> Result<u32, ClientError> {
        self.timed(Action::TakePawn { pawn }, shown_us, input_us).await
    }
}

/// The rounds whose reveal and Échange window the face has been given, from either path.
#[derive(Debug, Clone, Default)]
pub struct Rounds {
    revealed: Option<(u8, u16)>,
    echange: Option<(u8, u16)>,
}

impl ClientGame for Bolide {
    type Watch = DiceWatch;
    type Twins = Rounds;
    const SEATS: usize = bolide::model::MAX_PILOTS;

    fn check(msg: &mut ServerMsg) -> Result<(), String> {
        match msg {
            ServerMsg::Lobby(lobby) => lobby.settings.circuit = clean_reason(&lobby.settings.circuit),
            ServerMsg::Update { view, legal, .. } => {
                view.check().map_err(|e| e.to_string())?;
                legal.iter().try_for_each(|a| view.check_action(a)).map_err(|e| e.to_string())?;
            }
            _ => {}
        }
        Ok(())
    }

    fn viewer(view: &PlayerView) -> Option<Seat> {
        view.viewer
    }

    fn seats(view: &PlayerView, seat: Seat) -> bool {
        seat.index() < view.cars.len()
    }

    fn stage(view: &PlayerView) -> Stage {
        match view.phase {
            PhaseView::CupDown => Stage::Countdown,
            PhaseView::KlaxonPicks { .. } => Stage::Imminent,
            PhaseView::Grab | PhaseView::Echange => Stage::Moment,
            _ => Stage::Other,
        }
    }

    fn moment(view: &PlayerView) -> Option<u64> {
        Some(view.phase.timed()?.name(view.race, view.round))
    }

    fn opened(events: &[Event], view: &PlayerView) -> Option<u64> {
        Some(Event::opened_by(events, view.phase.timed())?.name(view.race, view.round))
    }

    /// B-4.3: it grabs while it has no pawn; B-4.7: it decides while it may keep its pawn.
    fn competing(view: &PlayerView, seat: Option<Seat>, legal: &[Action]) -> bool {
        match view.phase {
            PhaseView::Grab => seat.and_then(|s| view.cars.get(s.index())).is_some_and(|c| c.pawn.is_none()),
            PhaseView::Echange => legal.contains(&Action::KeepPawn),
            _ => false,
        }
    }

    fn timed(action: &Action) -> bool {
        matches!(action, Action::TakePawn { .. } | Action::Echange { .. } | Action::KeepPawn)
    }

    fn dedupe(twins: &mut Rounds, events: &mut Vec<Event>, view: &PlayerView) {
        let round = Some((view.race, view.round));
        if events.iter().any(|e| matches!(e, Event::ReservoirsRevealed { .. })) {
            if twins.revealed == round {
                events.retain(|e| !matches!(e, Event::ReservoirsRevealed { .. }));
            }
            twins.revealed = round;
        }
        if twins.echange == round {
            events.retain(|e| !matches!(e, Event::EchangeWindow { .. }));
        }
    }

    fn twin(twins: &mut Rounds, view: &PlayerView, seat: Option<Seat>, twin: Twin) -> Option<TwinUpdate<Bolide>> {
        match twin {
            Twin::Reveal { .. } => reveal(twins, view, seat, twin),
            Twin::EchangeOpen { .. } => echange(twins, view, seat, twin),
        }
    }

    fn watch(watch: &mut DiceWatch, msg: &ServerMsg) {
        bolide::dice::observe(watch, msg);
    }
}

/// B-4.4 by datagram: the values shown and the grab open, every free pawn to take.
fn reveal(twins: &mut Rounds, view: &PlayerView, seat: Option<Seat>, twin: Twin) -> Option<TwinUpdate<Bolide>> {
    let Twin::Reveal { race, round, values } = twin else { return None };
    if (view.race, view.round) != (race, round)
        || twins.revealed == Some((race, round))
        || twins.echange == Some((race, round))
    {
        return None;
    }
    let mut view = view.clone();
    twins.revealed = Some((race, round));
    for p in &mut view.pawns {
        p.reservoir = values.get(p.pawn.index()).copied();
    }
    view.phase = PhaseView::Grab;
    let grabbing = seat.and_then(|s| view.cars.get(s.index())).is_some_and(|c| c.pawn.is_none());
    let legal = view
        .pawns
        .iter()
        .filter(|p| grabbing && p.owner.is_none())
        .map(|p| Action::TakePawn { pawn: p.pawn })
        .collect();
    let values = values.get(..view.pawns.len())?.to_vec();
    Some((view, vec![Event::ReservoirsRevealed { values }], legal))
}

/// B-4.7 by datagram: every pawn with its holder and reservoir, the window open, and, for a
/// seat that decides, keeping its pawn or swapping with any other pilot.
fn echange(twins: &mut Rounds, view: &PlayerView, seat: Option<Seat>, twin: Twin) -> Option<TwinUpdate<Bolide>> {
    let Twin::EchangeOpen { race, round, holders, values, deciding } = twin else { return None };
    // Only ahead of the stream: once its update opened the window, a late copy would undo
    // what was declared since.
    let before = matches!(view.phase, PhaseView::CupDown | PhaseView::KlaxonPicks { .. } | PhaseView::Grab);
    if (view.race, view.round) != (race, round) || !before {
        return None;
    }
    let mut view = view.clone();
    for p in &mut view.pawns {
        p.owner = holders.get(p.pawn.index()).copied().flatten().filter(|s| s.0 < view.cars.len() as u8);
        p.reservoir = values.get(p.pawn.index()).copied();
    }
    for car in &mut view.cars {
        car.pawn = view.pawns.iter().find(|p| p.owner == Some(car.seat)).map(|p| p.pawn);
    }
    view.phase = PhaseView::Echange;
    let seats: Vec<Seat> = view.cars.iter().map(|c| c.seat).filter(|s| deciding & (1 << s.0.min(7)) != 0).collect();
    let mut legal = Vec::new();
    if let Some(me) = seat.filter(|s| seats.contains(s)) {
        legal.extend(view.cars.iter().filter(|c| c.seat != me).map(|c| Action::Echange { with: c.seat }));
        legal.push(Action::KeepPawn);
    }
    let mut events = Vec::new();
    if twins.revealed != Some((race, round)) {
        events.push(Event::ReservoirsRevealed { values: values.get(..view.pawns.len())?.to_vec() });
    }
    events.push(Event::EchangeWindow { seats });
    twins.revealed = Some((race, round));
    twins.echange = Some((race, round));
    Some((view, events, legal))
}

impl BotGame for Bolide {
    fn decision(view: &PlayerView, legal: &[Action]) -> String {
        format!("{} {} {:?}{:?}{legal:?}", view.race, view.round, view.phase, view.turn)
    }

    /// Under the cup, the Klaxon whenever it may be called (B-4.6); in the grab, the pawn of
    /// the fullest reservoir (the lowest pawn among equals): every bot sees the same
    /// reservoirs, so every bot goes for it.
    fn contend(view: &PlayerView, legal: &[Action]) -> Option<Action> {
        if view.phase == PhaseView::CupDown {
            return legal.contains(&Action::Klaxon).then_some(Action::Klaxon);
        }
        let pawn = legal
            .iter()
            .filter_map(|a| if let Action::TakePawn { pawn } = a { Some(*pawn) } else { None })
            .max_by_key(|p| {
                (view.pawns.iter().find(|v| v.pawn == *p).and_then(|v| v.reservoir), std::cmp::Reverse(p.0))
            })?;
        Some(Action::TakePawn { pawn })
    }

    fn decide(view: &PlayerView, legal: &[Action], level: BotLevel, rng: &mut ChaCha8Rng) -> Option<Action> {
        // Under the cup the only choice is whether to call the Klaxon (B-4.6).
        if view.phase == PhaseView::CupDown {
            level.decide(view, &[Action::Klaxon], rng).filter(|_| legal.contains(&Action::Klaxon))
        } else {
            level.decide(view, legal, rng)
        }
    }
}
