//! 1000 Bornes' half of the client core: every attack opens a Coup-Fourré window (M-15), a
//! timed moment for the attacked side, its opening also sent as a datagram twin (the attack).
//! Whether this laptop holds the safety changes nothing it says on the wire: the attacked
//! side's seats all compete, and all beat alike, holding it or not.

use crate::game::{ClientGame, Stage, TwinUpdate};
use bolide_protocol::wire::ServerMsgOf;
use bolide_table::Seat;
use mille_bornes::partie::window_moment;
use mille_bornes::{Action, Event, MilleBornes, Phase, View};

/// The last window a twin opened (its moment).
#[derive(Debug, Clone, Default)]
pub struct Windows {
    opened: Option<u64>,
}

impl ClientGame for MilleBornes {
    type Watch = ();
    type Twins = Windows;
    const SEATS: usize = mille_bornes::manche::MAX_PLAYERS;

    fn check(msg: &mut ServerMsgOf<MilleBornes>) -> Result<(), String> {
        if let ServerMsgOf::Update { view, legal, .. } = msg {
            view.check()?;
            legal.iter().try_for_each(|a| view.check_action(a))?;
        }
        Ok(())
    }

    fn viewer(view: &View) -> Option<Seat> {
        view.viewer
    }

    fn seats(view: &View, seat: Seat) -> bool {
        seat.0 < view.players
    }

    fn stage(view: &View) -> Stage {
        match view.phase {
            Phase::Window { .. } => Stage::Moment,
            _ => Stage::Other,
        }
    }

    fn moment(view: &View) -> Option<u64> {
        matches!(view.phase, Phase::Window { .. }).then(|| window_moment(view.hand_number, view.attacks))
    }

    fn opened(events: &[Event], view: &View) -> Option<u64> {
        events.iter().any(|e| matches!(e, Event::WindowOpened { .. })).then(|| Self::moment(view)).flatten()
    }

    /// M-15.1: the attacked side's seats, whatever they hold.
    fn competing(view: &View, seat: Option<Seat>, _legal: &[Action]) -> bool {
        match (view.phase, seat) {
            (Phase::Window { side, .. }, Some(seat)) => mille_bornes::manche::side_of(seat, view.sides) == side,
            _ => false,
        }
    }

    fn timed(action: &Action) -> bool {
        *action == Action::CoupFourre
    }

    fn dedupe(twins: &mut Windows, events: &mut Vec<Event>, view: &View) {
        if twins.opened.is_some() && twins.opened == Self::moment(view) {
            events.retain(|e| !matches!(e, Event::WindowOpened { .. }));
        }
    }

    /// M-15.1 by datagram: the attack lies on its side, the window open; every seat of that
    /// side is offered the call (M-15.5).
    fn twin(twins: &mut Windows, view: &View, seat: Option<Seat>, twin: Event) -> Option<TwinUpdate<MilleBornes>> {
        let Event::WindowOpened { attacker, side, attack, .. } = twin else { return None };
        // Only ahead of the stream: the window opens on the attacker's turn.
        if view.phase != (Phase::Turn { seat: attacker }) || side >= view.sides {
            return None;
        }
        let mut view = view.clone();
        view.phase = Phase::Window { attacker, side, attack };
        view.attacks = view.attacks.saturating_add(1);
        let moment = Self::moment(&view);
        if twins.opened == moment {
            return None;
        }
        twins.opened = moment;
        // M-15.5: the call is offered to the attacked side whatever it holds, as the host does.
        let legal = if Self::competing(&view, seat, &[]) { vec![Action::CoupFourre] } else { Vec::new() };
        Some((view, vec![twin], legal))
    }

    fn watch(_: &mut (), _: &ServerMsgOf<MilleBornes>) {}
}

#[cfg(test)]
mod tests {
    use crate::state::ClientStateOf;
    use bolide_protocol::wire::{BeatSchedule, DatagramOf, ServerMsgOf};
    use bolide_table::{BotLevel, Seat};
    use mille_bornes::partie::window_moment;
    use mille_bornes::{Action, Event, MilleBornes, Partie, Phase, Settings, View};
    use rand::SeedableRng;

    /// A game played by bots up to its first attack: the view of `seat` just before it, the
    /// attack's events, and the view just after.
    fn first_attack(seat: Seat) -> (View, Vec<Event>, View) {
        let mut events = Vec::new();
        let mut partie = Partie::new(Settings::default(), 4, 3, &mut events).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut scratch = Vec::new();
        for _ in 0..500 {
            let before = partie.view(Some(seat));
            let Phase::Turn { seat: active } = partie.manche().phase() else { panic!("no window yet") };
            let action = mille_bornes::bots::decide(partie.manche(), active, BotLevel::Random, &mut rng, &mut scratch)
                .expect("a seat on its turn plays");
            let mut events = Vec::new();
            partie.apply_into(active, action, &mut events).unwrap();
            if matches!(partie.manche().phase(), Phase::Window { .. }) {
                let events = events.into_iter().map(|e| partie.event_for(e, Some(seat))).collect();
                return (before, events, partie.view(Some(seat)));
            }
        }
        panic!("no attack in 500 plays");
    }

    fn seated(seat: Seat, view: &View) -> ClientStateOf<MilleBornes> {
        let mut s = ClientStateOf::<MilleBornes>::default();
        s.welcome(Some(seat), None, BeatSchedule::WhileActing);
        s.on_message(update(view, vec![]), 0).unwrap();
        s
    }

    fn update(view: &View, events: Vec<Event>) -> ServerMsgOf<MilleBornes> {
        ServerMsgOf::Update {
            events,
            view: Box::new(view.clone()),
            legal: vec![],
            deadline_ms: None,
            show_at_us: None,
            lift_at_us: None,
        }
    }

    #[test]
    fn m_15_1_a_window_opens_once_from_whichever_path_brings_it_first_under_the_host_s_name() {
        let (before, events, after) = first_attack(Seat(0));
        let opened = *events.iter().find(|e| matches!(e, Event::WindowOpened { .. })).unwrap();
        let mut s = seated(Seat(0), &before);
        let twin = DatagramOf::Twin { show_at_us: Some(9_000), twin: opened };
        let early = s.on_twin(twin, 1_000).expect("the datagram came first");
        let ServerMsgOf::Update { events: shown, view, .. } = &early else { panic!() };
        assert_eq!(shown[..], [opened]);
        assert_eq!(view.phase, after.phase);
        let moment = window_moment(after.hand_number, after.attacks);
        assert_eq!(s.mirror.scheduled.map(|m| (m.moment, m.at_us)), Some((moment, 9_000)), "the host's name for it");
        assert_eq!(s.on_twin(twin, 1_500), None, "a copy changes nothing");
        let ServerMsgOf::Update { events, .. } = s.on_message(update(&after, events.clone()), 2_000).unwrap() else {
            panic!()
        };
        assert!(!events.contains(&opened), "the stream's opening is not shown twice: {events:?}");
        // The stream first: the twin behind it changes nothing.
        let mut late = seated(Seat(0), &before);
        late.on_message(update(&after, vec![opened]), 1_000).unwrap();
        assert_eq!(late.on_twin(twin, 1_500), None);
    }

    #[test]
    fn m_15_1_what_a_laptop_says_in_a_window_does_not_depend_on_holding_the_safety() {
        let (before, _, after) = first_attack(Seat(0));
        let Phase::Window { side, attack, .. } = after.phase else { panic!() };
        // A seat of the attacked side, once holding the safety and once not.
        let seat = Seat(side);
        let safety = attack.safety().card();
        let mut holds = after.clone();
        holds.viewer = Some(seat);
        holds.hand = vec![safety];
        let mut lacks = holds.clone();
        lacks.hand = vec![mille_bornes::Card::D25];
        let mut says = Vec::new();
        for view in [holds, lacks] {
            let legal = vec![Action::CoupFourre];
            let mut s = seated(seat, &before);
            let msg = ServerMsgOf::Update {
                events: vec![],
                view: Box::new(view),
                legal,
                deadline_ms: None,
                show_at_us: None,
                lift_at_us: None,
            };
            s.on_message(msg, 1_000).unwrap();
            s.show(bolide_protocol::wire::Shown {
                moment: window_moment(after.hand_number, after.attacks),
                at_us: 1_000,
            });
            let due = s.beat_due();
            says.push((s.competing(), due, s.beat(2_000, 2_000)));
        }
        assert!(says[0].0, "the attacked side competes");
        assert_eq!(says[0], says[1], "the same beats, holding the safety or not");
    }
}
