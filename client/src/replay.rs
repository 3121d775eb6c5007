//! A night replayed: the journal the host hands every laptop once a championship is over
//! (`ServerMsg::Night`, kept in the replays folder), read through the game's engine into the
//! messages a spectator's laptop would have been sent, so the window's own screens — the race,
//! the photo finishes, the podium, the statistics, the dice check — show it as it was. Step
//! `k` is the table after the journal's `k`-th action (0: the opening). Pure: the window
//! draws it, the tests check it.

use crate::game::ClientGame;
use crate::state::{ClientStateOf, MirrorOf};
use bolide_table::journal;
use bolide_table::seal::SeedReveal;
use bolide_table::wire::{LobbySeat, LobbyStateOf, ServerMsgOf, StandingLine, clean_name};
use bolide_table::{Game, Seat};

/// The most steps a replay holds: a 7-race championship is a few thousand.
pub const MAX_STEPS: usize = 50_000;

/// A championship replayed from its journal.
pub struct Night<W: ClientGame> {
    /// What a spectator's laptop would have been sent: the lobby, an update for each step,
    /// then (once over) the standings and the lobby that reveals the seed.
    msgs: Vec<ServerMsgOf<W>>,
    /// How many of `msgs` make the table as it is after each step.
    upto: Vec<usize>,
    pub names: Vec<String>,
    /// Whether the journal goes to the end of the championship.
    pub over: bool,
    /// The client core fed up to a step: moving forward feeds it on, moving back starts over.
    cursor: Option<(usize, ClientStateOf<W>)>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("this replay cannot be read: {0}")]
    Journal(#[from] journal::ReplayError),
    #[error("this replay is longer than any championship ({0} steps)")]
    TooLong(usize),
    #[error("this replay holds no table the window can show: {0}")]
    View(String),
}

impl<W: ClientGame> Night<W> {
    /// Replays `text` (a journal) through the engine of `G`, whose words are `W`.
    pub fn open<G>(text: &str) -> Result<Self, ReplayError>
    where
        G: Game<Words = W, Event = W::Event, View = W::View>,
    {
        let mut updates = Vec::new();
        let mut too_long = false;
        let (game, start) = journal::replay::<G>(text, |g, events| {
            if updates.len() >= MAX_STEPS {
                too_long = true;
                return;
            }
            let events: Vec<_> = events.iter().map(|e| g.event_for(e, None)).collect();
            updates.push(ServerMsgOf::Update {
                events,
                view: Box::new(g.view(None)),
                legal: Vec::new(),
                deadline_ms: None,
                awaited: None,
                show_at_us: None,
                countdown_end_us: None,
            });
        })?;
        if too_long {
            return Err(ReplayError::TooLong(MAX_STEPS));
        }
        let names: Vec<String> = start.names.iter().map(|n| clean_name(n)).collect();
        let seed = SeedReveal { seed: start.seed, nonce: start.nonce, luck: start.luck.clone() };
        let lobby = |reveal: Option<SeedReveal>| {
            ServerMsgOf::Lobby(Box::new(LobbyStateOf {
                seats: names
                    .iter()
                    .zip(&start.colours)
                    .enumerate()
                    .map(|(i, (name, colour))| LobbySeat {
                        seat: Seat(i as u8),
                        name: name.clone(),
                        colour: *colour,
                        bot: false,
                        ready: true,
                        connected: true,
                        path: None,
                    })
                    .collect(),
                you: None,
                settings: start.lobby.clone(),
                spectators: 0,
                started: true,
                dice: seed.commitment(),
                reveal,
                luck: Some(start.luck.clone()),
            }))
        };
        let mut msgs = vec![lobby(None)];
        let mut upto = Vec::with_capacity(updates.len());
        for update in updates {
            msgs.push(update);
            upto.push(msgs.len());
        }
        let standings = game.standings();
        if let Some(standings) = &standings {
            let standings = standings
                .iter()
                .map(|s| StandingLine {
                    seat: s.seat,
                    name: names.get(s.seat.index()).cloned().unwrap_or_default(),
                    points: s.points,
                    wins: s.wins,
                    rank: s.rank,
                })
                .collect();
            // As at the table: the seed first, so the dice are checked by the podium.
            msgs.push(lobby(Some(seed.clone())));
            msgs.push(ServerMsgOf::Finished { standings });
            if let Some(last) = upto.last_mut() {
                *last = msgs.len();
            }
        }
        let mut night = Night { msgs, upto, names, over: standings.is_some(), cursor: None };
        // A journal the client core would refuse (a seat past the table…) is refused here,
        // whole, rather than at some step.
        night.at(night.steps().saturating_sub(1))?;
        night.cursor = None;
        Ok(night)
    }

    /// Steps: the opening, then one per action.
    pub fn steps(&self) -> usize {
        self.upto.len()
    }

    /// The view after `step` (the last when past the end).
    pub fn view(&self, step: usize) -> Option<&W::View> {
        let to = *self.upto.get(step.min(self.steps().saturating_sub(1)))?;
        self.msgs.get(..to)?.iter().rev().find_map(|m| match m {
            ServerMsgOf::Update { view, .. } => Some(&**view),
            _ => None,
        })
    }

    /// The events of `step` alone.
    pub fn events(&self, step: usize) -> &[W::Event] {
        let Some(&to) = self.upto.get(step) else { return &[] };
        let from = step.checked_sub(1).and_then(|s| self.upto.get(s)).copied().unwrap_or(0);
        let update = self.msgs.get(from..to).into_iter().flatten().find_map(|m| match m {
            ServerMsgOf::Update { events, .. } => Some(events.as_slice()),
            _ => None,
        });
        update.unwrap_or(&[])
    }

    /// The table as a spectator's laptop knew it after `step`: the client core's mirror, fed
    /// the same messages (its dice watch, its events for the statistics).
    pub fn at(&mut self, step: usize) -> Result<&MirrorOf<W>, ReplayError> {
        let step = step.min(self.steps().saturating_sub(1));
        let upto = self.upto.get(step).copied().unwrap_or(self.msgs.len());
        let (fed, mut state) = match self.cursor.take() {
            Some((fed, state)) if fed <= upto => (fed, state),
            _ => (0, ClientStateOf::default()),
        };
        for msg in self.msgs.get(fed..upto).unwrap_or(&[]) {
            state.on_message(msg.clone(), 0).map_err(|e| ReplayError::View(e.to_string()))?;
        }
        Ok(&self.cursor.insert((upto, state)).1.mirror)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bolide::Bolide;
    use bolide::game::Championship;
    use bolide::view::PhaseView;
    use bolide_host::nights::{mille_bornes_night_of_bots, night_of_bots};

    #[test]
    fn b_7_3_a_night_replays_step_by_step_to_its_podium_with_its_dice_checked() {
        let text = night_of_bots(2);
        let mut night = Night::<Bolide>::open::<Championship>(&text).unwrap();
        assert!(night.over && night.steps() > 100, "{} steps", night.steps());
        assert_eq!(night.names[0], "Anne");
        // The opening: race 1, the cup down, nothing finished yet.
        let first = night.at(0).unwrap();
        assert!(first.finished.is_none() && first.seat.is_none(), "watched, as a spectator");
        assert_eq!(first.view.as_ref().unwrap().phase, PhaseView::CupDown);
        // Somewhere a grab's photo finish, on the step where the grab ended.
        let photo =
            (0..night.steps()).find(|&k| night.events(k).iter().any(|e| matches!(e, bolide::Event::PhotoFinish(_))));
        assert!(photo.is_some(), "the published photo finishes are in the replay");
        // The end: the podium, the dice checked against the revealed seed, the statistics.
        let last = night.at(night.steps() - 1).unwrap();
        let standings = last.finished.clone().expect("the podium");
        assert_eq!(standings.len(), 3);
        assert!(matches!(last.dice.verdict(), Some(Ok(_))), "{:?}", last.dice.verdict());
        let stats = crate::stats::night(&last.events, 3);
        assert!(stats.iter().any(|s| !s.reactions.is_empty()), "reactions from the photo finishes");
        // Back and forth give the same table.
        let middle = night.steps() / 2;
        let there = night.at(middle).unwrap().view.clone();
        night.at(night.steps() - 1).unwrap();
        assert_eq!(night.at(middle).unwrap().view, there);
        assert_eq!(night.view(middle), there.as_ref());
    }

    #[test]
    fn a_damaged_or_foreign_night_is_refused_with_a_reason() {
        let text = night_of_bots(1);
        assert!(Night::<Bolide>::open::<Championship>("not a journal").is_err());
        // One character changed: the line's checksum no longer matches.
        let damaged = text.replacen("\"Roll\"", "\"Rolx\"", 1);
        let err = Night::<Bolide>::open::<Championship>(&damaged).err().expect("refused");
        assert!(err.to_string().contains("damaged"), "{err}");
        // A 1000 Bornes replay of it: the journal names its game.
        let err = Night::<mille_bornes::MilleBornes>::open::<mille_bornes::Partie>(&text).err().expect("refused");
        assert!(err.to_string().contains("bolide"), "{err}");
    }

    #[test]
    fn m_13_3_a_game_of_1000_bornes_replays_to_its_end_with_its_deal_checked() {
        use mille_bornes::{MilleBornes, Partie};
        let text = mille_bornes_night_of_bots(1, 5);
        let mut night = Night::<MilleBornes>::open::<Partie>(&text).unwrap();
        assert!(night.over && night.steps() > 40, "{} steps", night.steps());
        assert_eq!(night.names.len(), 4);
        let first = night.at(0).unwrap().view.clone().expect("the deal");
        assert!(first.viewer.is_none() && first.hand.is_empty(), "watched: no hand shown");
        let last = night.at(night.steps() - 1).unwrap();
        assert!(last.finished.is_some(), "the final places");
        assert!(matches!(last.dice.verdict(), Some(Ok(_))), "{:?}", last.dice.verdict());
        // Back and forth give the same table.
        let middle = night.steps() / 2;
        let there = night.at(middle).unwrap().view.clone();
        night.at(night.steps() - 1).unwrap();
        assert_eq!(night.at(middle).unwrap().view, there);
    }
}
