//! The host's door, sans-I/O: who may try the code word, and what each try costs.
//!
//! A try is spent when its Knock arrives — before the host answers with its SPAKE2 message and
//! proof, which already tell the laptop whether its word was right — and given back only when
//! the laptop's own proof holds. Whatever else ends the exchange (a wrong proof, silence, a
//! malformed frame, a dropped connection) leaves it spent: a guess is a guess, whatever
//! follows it. Two budgets are spent together: the address's and the whole host's (a laptop
//! may claim many addresses). A laptop that shows a pass for one of the room's seats
//! (`bolide_link::pake::seat_pass`) spends neither: it holds a 128-bit secret, it is not
//! guessing, and no stranger's guessing can keep it from its seat. An address that proved the
//! word earlier this night is slowed by its own budget, never shut out by the host's.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Wrong room codes an address may try: a burst, then this many a second.
pub const WRONG_CODE_BURST: f64 = 5.0;
pub const WRONG_CODES_PER_S: f64 = 1.0;
/// Tries the whole host takes, from every address together: a burst, then one every two
/// seconds — at most 20 + 0.5 × 21 600 = 10 820 guesses in a 6-hour night against 22⁶ ≈
/// 1.13 × 10⁸ generated words, a chance of 9.5 × 10⁻⁵ (docs/threat-model.md). Past it the
/// door is locked for everyone who is not seated or known until the bucket refills, and the
/// host's screen says so.
pub const WRONG_CODE_HOST_BURST: f64 = 20.0;
pub const WRONG_CODES_HOST_PER_S: f64 = 0.5;
/// The most guesses a night of `hours` allows from the whole network (and so from one laptop).
pub fn guesses_in(hours: f64) -> f64 {
    WRONG_CODE_HOST_BURST + WRONG_CODES_HOST_PER_S * hours * 3600.0
}

/// Addresses remembered as having proved the word (a night's laptops, with room to spare).
const PROVED_KEPT: usize = 256;
/// Addresses whose budgets are kept before the quiet ones are forgotten.
const ADDRESSES_KEPT: usize = 4096;
/// Warnings about wrong tries the log takes: a burst, then one every 6 s; the rest are counted
/// and the count said with the next warning.
const WARN_BURST: f64 = 10.0;
const WARNS_PER_S: f64 = 1.0 / 6.0;

/// A token bucket: `burst` at once, refilled at `rate` a second.
#[derive(Debug, Clone, Copy)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub fn full(burst: f64, now: Instant) -> Bucket {
        Bucket { tokens: burst, at: now }
    }

    fn refill(&mut self, burst: f64, rate: f64, now: Instant) {
        self.tokens = (self.tokens + now.saturating_duration_since(self.at).as_secs_f64() * rate).min(burst);
        self.at = self.at.max(now);
    }

    /// Whether a token is there now, without taking it.
    fn has(&mut self, burst: f64, rate: f64, now: Instant) -> bool {
        self.refill(burst, rate, now);
        self.tokens >= 1.0
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, burst: f64, rate: f64, now: Instant) -> bool {
        let has = self.has(burst, rate, now);
        if has {
            self.tokens -= 1.0;
        }
        has
    }

    fn give_back(&mut self, burst: f64) {
        self.tokens = (self.tokens + 1.0).min(burst);
    }
}

/// What the door does with a new connection's first packet, before any work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// It holds a place at the door until its exchange ends ([`Doors::release`]).
    Slot,
    /// It must first show it is at that address (a QUIC Retry: a token only the real sender
    /// receives), so Initials spoofed with that address cost a packet each, never a place.
    Retry,
    /// No place now.
    Refuse,
}

/// How many places the door has: at once, per address, and past how many pending
/// handshakes every unvalidated address is asked to retry.
#[derive(Debug, Clone, Copy)]
pub struct Places {
    pub pending: usize,
    pub per_address: usize,
    pub retry_past: usize,
    /// Places only known addresses may take, beyond `pending`.
    pub known_reserve: usize,
}

/// Who knocks, as far as the door can tell before the exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knocker {
    /// Showed a valid pass for one of the room's seats.
    Seated,
    /// Anyone else.
    Guest,
}

/// One knock's tries, spent when it arrived: handed back to [`Doors::proved`] or
/// [`Doors::wrong`] when the exchange ends (dropped, it stays spent).
#[derive(Debug)]
#[must_use = "a try ends as proved or wrong"]
pub struct Ticket {
    ip: IpAddr,
    address: bool,
    host: bool,
}

impl Ticket {
    /// Whether this try spent the address's budget, and the host's.
    pub fn spent(&self) -> (bool, bool) {
        (self.address, self.host)
    }
}

/// Why the door does not answer a knock now. The laptop may knock again later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shut {
    /// This address tried too many wrong codes.
    Address,
    /// The whole host has had too many wrong codes.
    Host,
}

impl Shut {
    pub fn reason(self) -> &'static str {
        match self {
            Shut::Address => {
                "too many wrong room codes from your address: wait a minute, then check the code on the host's screen"
            }
            Shut::Host => {
                "the host has had too many wrong room codes and is not taking new joins for a minute \
                 (seated pilots still come back): wait, then check the code on the host's screen"
            }
        }
    }
}

/// What the host's screen says of a locked door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Locked {
    /// When the host's budget last ran out.
    pub since: Instant,
    /// Wrong tries counted since the host started.
    pub wrong: u64,
}

/// Who is knocking: pending handshakes per address, the tries' budgets, the addresses that
/// proved the word.
#[derive(Debug)]
pub struct Doors {
    /// Connections that hold a place at the door (handshake, Knock, exchange), and per address.
    pending: usize,
    pending_by_addr: HashMap<IpAddr, usize>,
    by_address: HashMap<IpAddr, Bucket>,
    host: Bucket,
    /// The host's bucket's burst: [`WRONG_CODE_HOST_BURST`] unless told otherwise.
    host_burst: f64,
    /// Addresses that proved the word, and when they last did.
    proved: HashMap<IpAddr, Instant>,
    /// When the host's budget ran out, while it has.
    locked_since: Option<Instant>,
    wrong: u64,
    warnings: Bucket,
    unsaid: u64,
}

impl Default for Doors {
    fn default() -> Self {
        Doors::new(Instant::now())
    }
}

impl Doors {
    pub fn new(now: Instant) -> Doors {
        Doors {
            pending: 0,
            pending_by_addr: HashMap::new(),
            by_address: HashMap::new(),
            host: Bucket::full(WRONG_CODE_HOST_BURST, now),
            host_burst: WRONG_CODE_HOST_BURST,
            proved: HashMap::new(),
            locked_since: None,
            wrong: 0,
            warnings: Bucket::full(WARN_BURST, now),
            unsaid: 0,
        }
    }

    /// The same doors, the whole host taking `tries` at once (at least one);
    /// [`WRONG_CODES_HOST_PER_S`] refill them.
    pub fn host_tries(self, tries: usize) -> Doors {
        let burst = tries.max(1) as f64;
        Doors { host: Bucket::full(burst, self.host.at), host_burst: burst, ..self }
    }

    /// A new connection from `ip` (`validated`: it answered a Retry): a place, a Retry or a
    /// refusal. An unvalidated address retries once handshakes pile up, and always while it
    /// already holds a place; a known address may use the reserve when strangers hold the rest.
    pub fn admit(&mut self, ip: IpAddr, validated: bool, places: Places) -> Admission {
        let mine = self.pending_by_addr.get(&ip).copied().unwrap_or(0);
        if !validated && (self.pending >= places.retry_past || mine > 0) {
            return Admission::Retry;
        }
        let cap = if self.known(ip) { places.pending + places.known_reserve } else { places.pending };
        if self.pending >= cap || mine >= places.per_address {
            return Admission::Refuse;
        }
        self.pending += 1;
        *self.pending_by_addr.entry(ip).or_default() += 1;
        Admission::Slot
    }

    /// A place taken by [`admit`](Self::admit) is given back.
    pub fn release(&mut self, ip: IpAddr) {
        self.pending = self.pending.saturating_sub(1);
        if let Some(n) = self.pending_by_addr.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.pending_by_addr.remove(&ip);
            }
        }
    }

    /// Connections holding a place at the door now, in all and from `ip`.
    pub fn pending(&self, ip: IpAddr) -> (usize, usize) {
        (self.pending, self.pending_by_addr.get(&ip).copied().unwrap_or(0))
    }

    /// Whether `ip` proved the word earlier this night.
    pub fn known(&self, ip: IpAddr) -> bool {
        self.proved.contains_key(&ip)
    }

    /// A Knock from `ip`: spends its tries now, before the host answers, or says why not.
    pub fn knock(&mut self, ip: IpAddr, knocker: Knocker, now: Instant) -> Result<Ticket, Shut> {
        if knocker == Knocker::Seated {
            return Ok(Ticket { ip, address: false, host: false });
        }
        if self.by_address.len() >= ADDRESSES_KEPT {
            let refill = Duration::from_secs_f64(WRONG_CODE_BURST / WRONG_CODES_PER_S);
            self.by_address.retain(|_, b| now.saturating_duration_since(b.at) < refill);
        }
        let known = self.known(ip);
        let address = self.by_address.entry(ip).or_insert(Bucket::full(WRONG_CODE_BURST, now));
        if !address.has(WRONG_CODE_BURST, WRONG_CODES_PER_S, now) {
            return Err(Shut::Address);
        }
        // A laptop that proved the word before is slowed by its own budget, never shut out by
        // the host's: a stranger's guessing cannot keep it from the table.
        let host = !known;
        if host && !self.host.take(self.host_burst, WRONG_CODES_HOST_PER_S, now) {
            if self.locked_since.is_none() {
                self.locked_since = Some(now);
                tracing::error!(
                    "LOCKED: too many wrong room codes from this network; new joins wait until the guessing \
                     stops, seated pilots still come back (someone may be trying codes: check who is on this Wi-Fi)"
                );
            }
            return Err(Shut::Host);
        }
        address.take(WRONG_CODE_BURST, WRONG_CODES_PER_S, now);
        Ok(Ticket { ip, address: true, host })
    }

    /// The laptop's proof held: its tries are given back and its address remembered.
    pub fn proved(&mut self, ticket: Ticket, now: Instant) {
        if ticket.address
            && let Some(bucket) = self.by_address.get_mut(&ticket.ip)
        {
            bucket.give_back(WRONG_CODE_BURST);
        }
        if ticket.host {
            self.host.give_back(self.host_burst);
        }
        if self.proved.len() >= PROVED_KEPT
            && !self.proved.contains_key(&ticket.ip)
            && let Some(oldest) = self.proved.iter().min_by_key(|(_, at)| **at).map(|(ip, _)| *ip)
        {
            self.proved.remove(&oldest);
        }
        self.proved.insert(ticket.ip, now);
    }

    /// The exchange ended without a valid proof from the laptop: the try stays spent, and the
    /// log says so (at most [`WARN_BURST`] lines, then one every 6 s with the count between).
    pub fn wrong(&mut self, ticket: Ticket, why: &str, now: Instant) {
        self.wrong += 1;
        if self.warnings.take(WARN_BURST, WARNS_PER_S, now) {
            let unsaid = std::mem::take(&mut self.unsaid);
            tracing::warn!(ip = %ticket.ip, unsaid, "a try at the room code failed ({why})");
        } else {
            self.unsaid += 1;
        }
    }

    /// Whether new joins are locked out now, since when and after how many wrong tries.
    pub fn locked(&mut self, now: Instant) -> Option<Locked> {
        if self.host.has(self.host_burst, WRONG_CODES_HOST_PER_S, now) {
            if self.locked_since.take().is_some() {
                tracing::info!("the door is open again: the wrong room codes have stopped");
            }
            return None;
        }
        Some(Locked { since: *self.locked_since.get_or_insert(now), wrong: self.wrong })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn a_try_is_spent_when_the_knock_arrives_so_guesses_in_flight_cannot_share_one() {
        let t0 = Instant::now();
        let mut doors = Doors::new(t0);
        // Five knocks at once from one address: the burst, each spent before any answer.
        let tickets: Vec<Ticket> = (0..5).map(|_| doors.knock(ip(1), Knocker::Guest, t0).unwrap()).collect();
        assert_eq!(doors.knock(ip(1), Knocker::Guest, t0).err(), Some(Shut::Address));
        for t in tickets {
            doors.wrong(t, "silent after the host's proof", t0);
        }
        // One a second after that.
        let later = t0 + Duration::from_millis(1_001);
        assert!(doors.knock(ip(1), Knocker::Guest, later).is_ok());
        assert_eq!(doors.knock(ip(1), Knocker::Guest, later).err(), Some(Shut::Address));
    }

    #[test]
    fn only_a_valid_proof_gives_the_try_back() {
        let t0 = Instant::now();
        let mut doors = Doors::new(t0);
        for _ in 0..50 {
            let t = doors.knock(ip(1), Knocker::Guest, t0).unwrap();
            doors.proved(t, t0);
        }
        // A try that ends any other way — or is dropped — stays spent.
        for _ in 0..5 {
            let _dropped = doors.knock(ip(2), Knocker::Guest, t0).unwrap();
        }
        assert_eq!(doors.knock(ip(2), Knocker::Guest, t0).err(), Some(Shut::Address));
    }

    #[test]
    fn the_host_locks_for_strangers_never_for_seated_or_known_laptops() {
        let t0 = Instant::now();
        let mut doors = Doors::new(t0);
        let known = doors.knock(ip(200), Knocker::Guest, t0).unwrap();
        doors.proved(known, t0);
        // Twenty strangers, four tries each: under every address's budget, past the host's.
        let mut shut = 0;
        for a in 0..20 {
            for _ in 0..4 {
                match doors.knock(ip(a), Knocker::Guest, t0) {
                    Ok(t) => doors.wrong(t, "wrong proof", t0),
                    Err(why) => shut += usize::from(why == Shut::Host),
                }
            }
        }
        assert_eq!(shut, 80 - WRONG_CODE_HOST_BURST as usize);
        let locked = doors.locked(t0).expect("locked");
        assert_eq!(locked.wrong, WRONG_CODE_HOST_BURST as u64);
        assert_eq!(doors.knock(ip(99), Knocker::Guest, t0).err(), Some(Shut::Host));
        // A seated laptop passes as often as it comes back; a known address is slowed only.
        for _ in 0..100 {
            assert!(doors.knock(ip(99), Knocker::Seated, t0).is_ok());
        }
        for _ in 0..5 {
            let t = doors.knock(ip(200), Knocker::Guest, t0).expect("a known address is not shut out");
            doors.wrong(t, "wrong proof", t0);
        }
        assert_eq!(doors.knock(ip(200), Knocker::Guest, t0).err(), Some(Shut::Address));
        // The lock lifts once the host's budget has a try again.
        assert!(doors.locked(t0 + Duration::from_secs(2)).is_none());
    }

    #[test]
    fn exchanges_in_flight_hold_the_hosts_tries_as_many_as_it_was_given() {
        let t0 = Instant::now();
        // A game night's host: the 21st exchange at once waits, whoever knocks.
        let mut night = Doors::new(t0);
        let held: Vec<Ticket> =
            (0..20).map(|a| night.knock(ip(a), Knocker::Guest, t0).expect("under the host's 20")).collect();
        assert_eq!(night.knock(ip(20), Knocker::Guest, t0).err(), Some(Shut::Host));
        // Each proof gives its try back: the next exchange goes in.
        for t in held {
            night.proved(t, t0);
        }
        assert!(night.knock(ip(21), Knocker::Guest, t0).is_ok());
        // A host told to take a hundred at once (the load benchmark's) does, and no more.
        let mut busy = Doors::new(t0).host_tries(100);
        let _held: Vec<Ticket> =
            (0..100).map(|a| busy.knock(ip(a), Knocker::Guest, t0).expect("under the host's 100")).collect();
        assert_eq!(busy.knock(ip(100), Knocker::Guest, t0).err(), Some(Shut::Host));
        // None at all is one.
        assert_eq!(Doors::new(t0).host_tries(0).host_burst, 1.0);
    }

    const PLACES: Places = Places { pending: 8, per_address: 4, retry_past: 2, known_reserve: 2 };

    #[test]
    fn an_address_that_holds_a_place_must_answer_a_retry_before_it_holds_another() {
        let t0 = Instant::now();
        let mut doors = Doors::new(t0);
        // A spoofer sending Initials with a seated laptop's address: one place, then Retries
        // it cannot answer.
        assert_eq!(doors.admit(ip(7), false, PLACES), Admission::Slot);
        for _ in 0..100 {
            assert_eq!(doors.admit(ip(7), false, PLACES), Admission::Retry);
        }
        // The real laptop answers the Retry and has its place.
        assert_eq!(doors.admit(ip(7), true, PLACES), Admission::Slot);
        // Validated, an address still holds at most `per_address`.
        assert_eq!(doors.admit(ip(7), true, PLACES), Admission::Slot);
        assert_eq!(doors.admit(ip(7), true, PLACES), Admission::Slot);
        assert_eq!(doors.admit(ip(7), true, PLACES), Admission::Refuse);
        doors.release(ip(7));
        assert_eq!(doors.admit(ip(7), true, PLACES), Admission::Slot);
    }

    #[test]
    fn strangers_holding_every_place_leave_the_reserve_to_known_laptops() {
        let t0 = Instant::now();
        let mut doors = Doors::new(t0);
        let t = doors.knock(ip(50), Knocker::Guest, t0).unwrap();
        doors.proved(t, t0);
        for a in 0..2 {
            for _ in 0..4 {
                assert_eq!(doors.admit(ip(a), true, PLACES), Admission::Slot);
            }
        }
        assert_eq!(doors.admit(ip(9), true, PLACES), Admission::Refuse);
        assert_eq!(doors.admit(ip(50), true, PLACES), Admission::Slot);
        assert_eq!(doors.admit(ip(50), true, PLACES), Admission::Slot);
        assert_eq!(doors.admit(ip(50), true, PLACES), Admission::Refuse);
    }

    #[test]
    fn a_night_allows_fewer_guesses_than_one_in_ten_thousand_of_the_generated_words() {
        let words = (crate::secret::WORD_LETTERS.len() as f64).powi(crate::secret::WORD_LEN as i32);
        let chance = guesses_in(6.0) / words;
        assert!(chance <= 1e-4, "{chance}");
        // And the door counts that many: a six-hour night of one guess as soon as allowed.
        let t0 = Instant::now();
        let mut doors = Doors::new(t0);
        let mut taken = 0u64;
        for second in 0..(6 * 3600) {
            let now = t0 + Duration::from_secs(second);
            for a in 0..4 {
                if let Ok(t) = doors.knock(ip(a), Knocker::Guest, now) {
                    taken += 1;
                    doors.wrong(t, "wrong proof", now);
                }
            }
        }
        assert!(taken as f64 <= guesses_in(6.0), "{taken}");
        assert!(taken as f64 >= guesses_in(6.0) - 2.0, "{taken}");
    }
}
