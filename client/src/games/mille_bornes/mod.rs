//! 1000 Bornes' half of the client core: every attack opens a Coup-Fourré window (M-15), a
//! timed moment for the attacked side, its opening also sent as a datagram twin (the attack).
//! Whether this laptop holds the safety changes nothing it says on the wire: the attacked
//! side's seats all compete, and all beat alike, holding it or not.

mod cards;
pub mod net_table;
pub mod screen;
pub mod table;

use crate::bot::BotGame;
use crate::game::{ClientGame, Stage, TwinUpdate};
use bolide_table::BotLevel;
use bolide_table::Seat;
use bolide_table::seal::SeedWatch;
use bolide_table::wire::ServerMsgOf;
use mille_bornes::card::DECK_SIZE;
use mille_bornes::deal::{DealMismatch, check_hand};
use mille_bornes::manche::HAND_SIZE;
use mille_bornes::partie::window_moment;
use mille_bornes::{Action, Event, MilleBornes, Phase, View};
use rand_chacha::ChaCha8Rng;

/// What a laptop checks of the host's deals (M-3.2): every card it saw, hand by hand,
/// against the seed the host committed to in its first lobby and reveals when the game ends —
/// the table's [`SeedWatch`] over the deals this laptop saw.
pub type DeckWatch = SeedWatch<Deals, DeckReport, String>;

/// The deals a laptop saw. A hand it did not see whole (it joined, or came back, in its
/// middle: a draw it missed would shift every later one) is left unchecked, and said so.
#[derive(Debug, Clone, Default)]
pub struct Deals {
    players: u8,
    /// Each hand's number, its events as this laptop got them from its `Dealt`, and whether
    /// it saw it whole.
    hands: Vec<(u16, Vec<Event>, bool)>,
}

/// What the deal check found: every card seen matches the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeckReport {
    pub hands: usize,
    /// Hands seen only in part (not checked).
    pub partial: usize,
}

/// Hands a watch keeps (a game to 20 000 takes a few dozen; a runaway host cannot grow it).
const WATCHED_HANDS: usize = 256;

impl Deals {
    fn update(&mut self, events: &[Event], view: &View) {
        for event in events {
            match *event {
                Event::Dealt { hand, .. } => self.start(hand, vec![*event], true),
                _ => match self.hands.last_mut() {
                    Some((_, log, _)) if log.len() < 4 * DECK_SIZE => log.push(*event),
                    _ => {}
                },
            }
        }
        // A hand whose deal this laptop never saw (it joined, or came back, after it).
        if self.hands.last().is_none_or(|(hand, _, _)| *hand != view.hand_number) {
            self.start(view.hand_number, Vec::new(), false);
        }
        // The draws the view says were made this hand against those this laptop saw.
        let Some((_, log, whole)) = self.hands.last_mut() else { return };
        let dealt = usize::from(HAND_SIZE) * usize::from(view.players);
        let drawn = DECK_SIZE.saturating_sub(dealt).saturating_sub(usize::from(view.draw_count));
        if log.iter().filter(|e| matches!(e, Event::Drew { .. })).count() != drawn {
            *whole = false;
        }
    }

    fn start(&mut self, hand: u16, log: Vec<Event>, whole: bool) {
        if self.hands.len() < WATCHED_HANDS {
            self.hands.push((hand, log, whole));
        }
    }

    fn check(&self, seed: u64) -> Result<DeckReport, DealMismatch> {
        let mut report = DeckReport { hands: 0, partial: 0 };
        for (_, log, whole) in &self.hands {
            if *whole {
                check_hand(seed, self.players, log)?;
                report.hands += 1;
            } else {
                report.partial += 1;
            }
        }
        Ok(report)
    }
}

/// The last window a twin opened (its moment).
#[derive(Debug, Clone, Default)]
pub struct Windows {
    opened: Option<u64>,
}

impl ClientGame for MilleBornes {
    type Watch = DeckWatch;
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

    fn watch(watch: &mut DeckWatch, msg: &ServerMsgOf<MilleBornes>) {
        match msg {
            ServerMsgOf::Lobby(lobby) => {
                if lobby.started {
                    watch.seen.players = u8::try_from(lobby.seats.len()).unwrap_or(u8::MAX);
                }
                watch.lobby(lobby.dice, lobby.luck.as_ref(), lobby.reveal.as_ref(), true, |seed, deals| {
                    deals.check(seed).map_err(|e| e.to_string())
                });
            }
            ServerMsgOf::Update { events, view, .. } => watch.seen.update(events, view),
            _ => {}
        }
    }
}

impl BotGame for MilleBornes {
    fn decision(view: &mille_bornes::View, legal: &[mille_bornes::Action]) -> String {
        // Every turn draws a card: the draw pile's count tells two turns of one seat apart.
        format!(
            "{} {} {} {} {:?}{legal:?}",
            view.hand_number, view.attacks, view.draw_count, view.discard_count, view.phase
        )
    }

    fn decide(
        view: &mille_bornes::View,
        legal: &[mille_bornes::Action],
        level: BotLevel,
        rng: &mut ChaCha8Rng,
    ) -> Option<mille_bornes::Action> {
        // M-15.5: the call is offered to the attacked side whatever it holds; a bot calls only
        // holding the safety (M-15.11), as the host's bots do.
        let holds = |a: &mille_bornes::Action| match (a, view.phase) {
            (mille_bornes::Action::CoupFourre, mille_bornes::Phase::Window { attack, .. }) => {
                view.hand.contains(&attack.safety().card())
            }
            _ => true,
        };
        let legal: Vec<mille_bornes::Action> = legal.iter().copied().filter(holds).collect();
        mille_bornes::bots::decide_among(view, view.viewer?, level, &legal, rng)
    }
}

#[cfg(test)]
mod tests {
    use crate::state::ClientStateOf;
    use bolide_table::wire::{BeatSchedule, ClientMsgOf, DatagramOf, ServerMsgOf};
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
            awaited: None,
            show_at_us: None,
            countdown_end_us: None,
        }
    }

    /// A whole game of bots as `viewer`'s laptop gets it: one update per step (its events as
    /// the viewer may see them, the view after), the lobby that starts it and the one that
    /// reveals the seed.
    fn game_seen_by(viewer: Seat, seed: u64) -> Vec<ServerMsgOf<MilleBornes>> {
        use bolide_table::seal::SeedReveal;
        use bolide_table::wire::{LobbySeat, LobbyStateOf};
        let lobby = |reveal: Option<SeedReveal>| {
            let seats = (0..4)
                .map(|s| LobbySeat {
                    seat: Seat(s),
                    name: format!("P{s}"),
                    colour: bolide_table::colour::Colour::ALL[usize::from(s)],
                    bot: false,
                    ready: true,
                    connected: true,
                    path: None,
                })
                .collect();
            let settings = mille_bornes::Lobby {
                game: Settings::default(),
                bots: 0,
                bot_level: BotLevel::Random,
                places: Vec::new(),
            };
            let dice = SeedReveal { seed, nonce: [3; 32], luck: Default::default() }.commitment();
            ServerMsgOf::Lobby(Box::new(LobbyStateOf {
                seats,
                you: Some(viewer),
                settings,
                spectators: 0,
                started: true,
                dice,
                reveal,
                luck: None,
            }))
        };
        let mut msgs = vec![lobby(None)];
        let mut events = Vec::new();
        let mut partie = Partie::new(Settings::default(), 4, seed, &mut events).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        loop {
            let seen = events.drain(..).map(|e| partie.event_for(e, Some(viewer))).collect();
            msgs.push(update(&partie.view(Some(viewer)), seen));
            if bolide_table::drive::step(&mut partie, &[BotLevel::Strategic; 4], &mut rng, &mut events, &mut scratch)
                .unwrap()
                .is_none()
            {
                break;
            }
        }
        msgs.push(lobby(Some(SeedReveal { seed, nonce: [3; 32], luck: Default::default() })));
        msgs
    }

    fn watched(msgs: &[ServerMsgOf<MilleBornes>]) -> ClientStateOf<MilleBornes> {
        let mut s = ClientStateOf::<MilleBornes>::default();
        s.welcome(Some(Seat(1)), None, BeatSchedule::WhileActing);
        for msg in msgs {
            s.on_message(msg.clone(), 0).unwrap();
        }
        s
    }

    #[test]
    fn m_3_2_a_laptop_checks_every_card_it_saw_against_the_revealed_seed() {
        let msgs = game_seen_by(Seat(1), 21);
        let s = watched(&msgs);
        let report = s.mirror.dice.verdict().expect("revealed").clone().expect("the deal matches");
        assert!(report.hands >= 2 && report.partial == 0, "{report:?}");
        // A draw the host changed is caught.
        let mut forged = msgs.clone();
        let drew = forged.iter_mut().find_map(|m| match m {
            ServerMsgOf::Update { events, .. } => {
                events.iter_mut().find(|e| matches!(e, Event::Drew { seat: Seat(1), card: Some(_) }))
            }
            _ => None,
        });
        let Some(Event::Drew { card: Some(card), .. }) = drew else { panic!("Anne drew nothing") };
        *card = if *card == mille_bornes::Card::D25 { mille_bornes::Card::D50 } else { mille_bornes::Card::D25 };
        let s = watched(&forged);
        assert!(s.mirror.dice.verdict().expect("revealed").is_err(), "a forged draw passes");
        // A laptop that missed updates (it came back mid-hand) leaves that hand unchecked,
        // and checks the others.
        let mut gap = msgs.clone();
        let drew = |m: &ServerMsgOf<MilleBornes>| matches!(m, ServerMsgOf::Update { events, .. } if events.iter().any(|e| matches!(e, Event::Drew { .. })));
        // Past the first hand's deal: a few of its draws go missing.
        let at = gap.iter().enumerate().filter(|(_, m)| drew(m)).nth(5).unwrap().0;
        gap.drain(at..at + 3);
        let s = watched(&gap);
        let report = s.mirror.dice.verdict().expect("revealed").clone().expect("a gap is no mismatch");
        assert_eq!(report.partial, 1, "{report:?}");
        assert!(report.hands >= 1);
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
    fn m_15_6_a_call_carries_its_reaction_from_the_frame_that_showed_the_attack() {
        let (before, events, after) = first_attack(Seat(0));
        let Phase::Window { side, .. } = after.phase else { panic!() };
        let seat = Seat(side);
        let mut s = seated(seat, &before);
        let mut window = after.clone();
        window.viewer = Some(seat);
        s.on_message(
            ServerMsgOf::Update {
                events,
                view: Box::new(window),
                legal: vec![Action::CoupFourre],
                deadline_ms: None,
                awaited: None,
                show_at_us: None,
                countdown_end_us: None,
            },
            1_000,
        )
        .unwrap();
        // The frame that drew the attack went out at 1 200 µs; the key came at 251 200 µs.
        let moment = window_moment(after.hand_number, after.attacks);
        s.show(bolide_table::wire::Shown { moment, at_us: 1_200 });
        let (seq, msg, copy) = s.timed(Action::CoupFourre, s.shown_for(251_200), 251_200);
        assert_eq!(
            msg,
            ClientMsgOf::Timed { seq, action: Action::CoupFourre, shown_us: 1_200, input_us: 251_200 },
            "s and p on this laptop's clock: the host judges r = p − s"
        );
        assert!(matches!(copy, Some(DatagramOf::Timed { shown_us: 1_200, input_us: 251_200, .. })), "with its copy");
        // Anything else in the window is a plain action, without times.
        let (_, plain, copy) = s.timed(Action::Discard { card: mille_bornes::Card::D25 }, 1_200, 260_000);
        assert!(matches!(plain, ClientMsgOf::Act { .. }) && copy.is_none());
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
                awaited: None,
                show_at_us: None,
                countdown_end_us: None,
            };
            s.on_message(msg, 1_000).unwrap();
            s.show(bolide_table::wire::Shown { moment: window_moment(after.hand_number, after.attacks), at_us: 1_000 });
            let due = s.beat_due();
            says.push((s.competing(), due, s.beat(2_000, 2_000)));
        }
        assert!(says[0].0, "the attacked side competes");
        assert_eq!(says[0], says[1], "the same beats, holding the safety or not");
    }
}
