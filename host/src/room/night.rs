//! The night: the journal as every player may keep it, handed to every laptop once the game
//! is over (for its replays), the seed's reveal, and a room resumed from its journal after a
//! crash.

use super::*;

/// The journal as every player may keep it (`JournalEntryOf::public`), and in parts, built
/// once when the first laptop is handed it (a night is ~26 KB for three races, each line with
/// its checksum; a spectator arriving after the end must not cost the room that work again).
#[derive(Debug)]
pub(super) struct Night<W: Words> {
    pub(super) entries: Vec<JournalEntryOf<W>>,
    pub(super) parts: std::cell::OnceCell<Vec<String>>,
}

impl<W: Words> Default for Night<W> {
    fn default() -> Self {
        Night { entries: Vec::new(), parts: std::cell::OnceCell::new() }
    }
}

impl<G: Game> RoomOf<G> {
    /// Journals an entry (the driver writes it before anything that depends on it) and keeps
    /// its public form for the night.
    pub(super) fn journal(&mut self, entry: JournalEntryOf<G::Words>, out: &mut Vec<Out<G>>) {
        self.night.entries.push(entry.public());
        self.night.parts.take();
        out.push(OutputOf::Journal(entry));
    }

    /// The night's journal to one laptop, in parts ([`NIGHT_PART_BYTES`](bolide_table::wire::NIGHT_PART_BYTES)), once the
    /// championship is over.
    pub(super) fn send_night(&self, conn: ConnId, out: &mut Vec<Out<G>>) {
        if !matches!(self.stage, Stage::Finished(_)) {
            return;
        }
        let parts = self.night.parts.get_or_init(|| night_parts(&self.night.entries));
        let count = parts.len();
        for (part, lines) in parts.iter().cloned().enumerate() {
            let part = u16::try_from(part).unwrap_or(u16::MAX);
            out.push(OutputOf::Send {
                conn,
                msg: ServerMsgOf::Night { part, last: part as usize + 1 == count, lines },
            });
        }
    }

    pub(super) fn seed_reveal(&self) -> SeedReveal {
        SeedReveal { seed: self.config.seed, nonce: self.config.nonce, luck: self.luck.clone() }
    }

    /// Rebuilds a room from its journal after a crash: the same seats and tokens, and the
    /// championship replayed action by action. Pilots come back with their seat tokens; until
    /// they do, their time limits run as usual.
    pub fn resume(
        config: RoomConfigOf<LobbyOf<G>>,
        entropy: u64,
        entries: &[JournalEntryOf<G::Words>],
        now: u64,
    ) -> Result<RoomOf<G>, ResumeError> {
        let mut room = RoomOf::new(config, entropy);
        room.night.entries = entries.iter().map(JournalEntryOf::public).collect();
        let mut entries = entries.iter();
        let Some(JournalEntryOf::Started { game, code, settings, seed, nonce, luck, seats }) = entries.next() else {
            return Err(ResumeError::NotStarted);
        };
        let asked = <G::Words as Words>::NAME;
        if !game.is_empty() && game != asked {
            return Err(ResumeError::OtherGame { journal: game.clone(), asked: asked.into() });
        }
        room.config.code = code.clone();
        room.config.settings = settings.clone();
        room.config.seed = *seed;
        room.config.nonce = *nonce;
        room.luck = luck.clone();
        room.seats = seats
            .iter()
            .map(|s| SeatSlot { ready: true, ..SeatSlot::new(s.name.clone(), s.colour, s.token, s.bot) })
            .collect();
        let players = u8::try_from(room.seats.len()).map_err(|_| ResumeError::Setup("too many seats".into()))?;
        let mut game = G::start(&room.game_settings(), players, luck.seed_with(*seed), &mut Vec::new())
            .map_err(ResumeError::Setup)?;
        for (i, entry) in entries.enumerate() {
            let line = i + 2;
            let replayed = match entry {
                JournalEntryOf::Applied { seat, action } => Game::apply(&mut game, *seat, *action, &mut Vec::new()),
                JournalEntryOf::TimeUp => game.time_is_up(&mut Vec::new()),
                // Not the engine's: it was published, and stays in the night.
                JournalEntryOf::Published { .. } => Ok(()),
                JournalEntryOf::Started { .. } => return Err(ResumeError::Entry(line)),
            };
            replayed.map_err(|error| ResumeError::Replay { line, error: error.to_string() })?;
            room.timers.applied += 1;
        }
        room.stage = Stage::Playing(Box::new(game));
        // Killed in a timed moment: it opens again from now (its timings died with the
        // process), so that the pawns left are grabbed, the Échanges declared, and the
        // stand-ins can act.
        if let Some(step) = room.unopened_moment() {
            room.open_moment(now, step);
        }
        // Timers restart from now; a finished championship moves to its final stage.
        room.after_change(now, &mut Vec::new());
        Ok(room)
    }
}

/// A night's journal as lines (`JournalEntryOf::to_line`) in parts of at most
/// [`NIGHT_PART_BYTES`](bolide_table::wire::NIGHT_PART_BYTES), cut between lines (a line longer than that goes alone).
pub(super) fn night_parts<W: Words>(night: &[JournalEntryOf<W>]) -> Vec<String> {
    let mut parts = vec![String::new()];
    for line in night.iter().map(JournalEntryOf::to_line) {
        if parts.last().is_some_and(|p| !p.is_empty() && p.len() + line.len() > bolide_table::wire::NIGHT_PART_BYTES) {
            parts.push(String::new());
        }
        if let Some(part) = parts.last_mut() {
            part.push_str(&line);
        }
    }
    parts
}
