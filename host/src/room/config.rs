//! How a room behaves: its code word, its lobby's settings, its seed, its timers.

/// How a room behaves; times in milliseconds. `L`: the game's lobby settings.
#[derive(Debug, Clone)]
pub struct RoomConfigOf<L> {
    /// The room's code word; a hello must carry it.
    pub code: String,
    pub settings: L,
    /// Seeds the championship (dice, bonuses) and the host's bots.
    pub seed: u64,
    /// Hides the seed in the commitment the lobby shows (provably fair dice); `serve` draws
    /// it from the OS's random source.
    pub nonce: [u8; 32],
    /// How long a countdown runs (`Step::Countdown`: from the start of Bolide's round to the
    /// end of the countdown, Bolide's Klaxon calls open meanwhile).
    pub countdown_ms: u64,
    /// A host bot's thinking time; its reaction in the grab is its level's human hands
    /// (`bots::hands`), scaled by this over [`DEFAULT_BOT_DELAY_MS`].
    pub bot_delay_ms: u64,
    /// How long a pilot may take over a decision before a bot plays it (B-4, B-5).
    pub turn_timeout_ms: u64,
    /// How long a timed moment waits for a person before their stand-in acts (Bolide's grab
    /// and Échange window; a moment that ends with its time waits for nobody).
    pub moment_timeout_ms: u64,
    /// Reactions faster than this are flagged in the log as anticipation (fairness.md §5):
    /// 100 ms for people; 0 for a table of bots.
    pub plausible_reaction_ms: u64,
    /// A fairness field run (`serve --fairness-test`): once the championship is over, each
    /// laptop may hand in the record of its timed requests (`ClientMsg::FieldRecord`).
    pub field_test: bool,
}

impl<L> RoomConfigOf<L> {
    pub fn new(code: &str, settings: L, seed: u64) -> RoomConfigOf<L> {
        RoomConfigOf {
            code: code.to_string(),
            settings,
            seed,
            nonce: [0; 32],
            countdown_ms: 1500,
            bot_delay_ms: DEFAULT_BOT_DELAY_MS,
            turn_timeout_ms: 30_000,
            moment_timeout_ms: 8_000,
            plausible_reaction_ms: 100,
            field_test: false,
        }
    }
}

/// The host bots' thinking time between two sequential decisions (ms); their grab reactions
/// are human-sized at this setting and scale with it.
pub const DEFAULT_BOT_DELAY_MS: u64 = 700;
