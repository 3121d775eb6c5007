//! The road (E-2, E-14.4, E-14.5): a directed graph of squares, read from the rules' own
//! notation so the data file and the rules cannot drift apart.

use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// E-14.5, verbatim.
pub const BOARD: &str = "\
chain -    | START:START A01..A14:G                          | -
chain A14  | M1in1..M1in3:B M1:MEET M1out1..M1out3:G         | B01
chain A14  | K1_1..K1_3:B                                    | B01
chain -    | B01..B09:G                                      | C01
spur  B09  | TU1..TU2:B TUV:CHECK
chain -    | C01..C14:G                                      | -
chain -    | NT20..NT01:MINUS WT:WORKSHOP U01..U18:G         | C03
chain C14  | M2in1..M2in3:B M2:MEET M2out1..M2out3:G         | D01
chain C14  | K2_1..K2_3:B                                    | D01
chain -    | D01..D14:G                                      | -
chain D14  | M3in1..M3in3:B M3:MEET M3out1..M3out3:G         | E01
chain D14  | K3_1..K3_3:B                                    | E01
chain -    | E01..E09:G                                      | F01
spur  E09  | AS1..AS2:B ASU:CHECK
chain -    | F01..F14:G                                      | -
chain -    | NA20..NA01:MINUS WA:WORKSHOP V01..V18:G         | F03
chain F14  | M4in1..M4in3:B M4:MEET                          | -
";

/// A square of the road, by its place in [`BOARD`] (`Board::name` gives its printed id, which
/// is how it reads in JSON: `crate::printed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::printed::serialize(s, self.0, board().name(*self))
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::printed::deserialize(d, "square of E-14.5", |id| board().find(id).map(|s| s.0)).map(Square)
    }
}

/// E-2: what a square is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Start,
    /// E-2.2: special actions allowed.
    Grey,
    /// E-2.3: no special actions.
    Beige,
    Meeting,
    Check,
    Workshop,
    Minus,
}

/// E-12.1: the two checks every car owes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Inspection {
    /// The roadworthiness test, in April.
    Tuv,
    /// The exhaust test, in October.
    Asu,
}

impl Inspection {
    pub const BOTH: [Inspection; 2] = [Inspection::Tuv, Inspection::Asu];

    pub fn index(self) -> usize {
        self as usize
    }

    /// E-2.6: the month it is due in (its round-up comes as the next month begins, E-12.6).
    pub fn month(self) -> u8 {
        match self {
            Inspection::Tuv => 4,
            Inspection::Asu => 10,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Inspection::Tuv => "TÜV",
            Inspection::Asu => "ASU",
        }
    }
}

/// E-11.1: the four meetings' months (M1 February, M2 June, M3 August, M4 December).
pub const MEETING_MONTHS: [u8; 4] = [2, 6, 8, 12];

/// Most minus squares behind a workshop (E-14.6: every deficit 1–20 has its square).
pub const MINUS_SQUARES: usize = 20;

/// The road: squares, their kinds and edges, and where each place is.
#[derive(Debug, Clone)]
pub struct Board {
    names: Vec<String>,
    kinds: Vec<Kind>,
    /// Out-edges in the order the notation gives them.
    next: Vec<Vec<Square>>,
    /// On a spur: where a car driving back out goes next (E-12.2).
    back: Vec<Option<Square>>,
    /// The check whose spur a square is on (the station included).
    spur: Vec<Option<Inspection>>,
    pub start: Square,
    pub meetings: [Square; 4],
    pub stations: [Square; 2],
    pub workshops: [Square; 2],
    /// `minus[check][k - 1]` is the square −k behind that check's workshop.
    pub minus: [[Square; MINUS_SQUARES]; 2],
    /// Each statement's squares in the notation's order: the stretches a screen draws.
    rows: Vec<Vec<Square>>,
}

/// The one board every game plays on (E-14.5).
pub fn board() -> &'static Board {
    static BOARD_PARSED: LazyLock<Board> =
        LazyLock::new(|| Board::parse(BOARD).unwrap_or_else(|e| panic!("E-14.5's board does not read: {e}")));
    &BOARD_PARSED
}

impl Board {
    /// Reads the notation of E-14.4.
    pub fn parse(text: &str) -> Result<Board, String> {
        let lines: Vec<(usize, &str, Vec<&str>)> = text
            .lines()
            .enumerate()
            .filter_map(|(n, l)| {
                let l = l.split('#').next().unwrap_or("").trim();
                let (word, rest) = l.split_once(char::is_whitespace)?;
                Some((n + 1, word, rest.split('|').map(str::trim).collect()))
            })
            .collect();
        let mut names: Vec<String> = Vec::new();
        let mut kinds = Vec::new();
        // First every square, so an edge may name one declared further down.
        let mut groups = Vec::new();
        for (n, word, fields) in &lines {
            let squares = match (*word, fields.as_slice()) {
                ("chain", [_, squares, _]) | ("spur", [_, squares]) => squares,
                _ => return Err(format!("line {n}: expected `chain FROM | SQUARES | TO` or `spur J | SQUARES`")),
            };
            let mut group = Vec::new();
            for token in squares.split_whitespace() {
                let (ids, kind) = token.split_once(':').ok_or(format!("line {n}: `{token}` has no `:KIND`"))?;
                let kind = kind_of(kind).ok_or(format!("line {n}: `{kind}` is not a kind"))?;
                for id in expand(ids).map_err(|e| format!("line {n}: {e}"))? {
                    if names.contains(&id) {
                        return Err(format!("line {n}: {id} is declared twice"));
                    }
                    let at = u8::try_from(names.len()).map_err(|_| format!("line {n}: more than 255 squares"))?;
                    names.push(id);
                    kinds.push(kind);
                    group.push(Square(at));
                }
            }
            groups.push(group);
        }
        let find = |id: &str| names.iter().position(|x| x == id).map(|i| Square(i as u8));
        let named = |id: &str, n: usize| find(id).ok_or(format!("line {n}: no square {id}"));
        let count = names.len();
        let mut next = vec![Vec::new(); count];
        let mut back = vec![None; count];
        let mut spur = vec![None; count];
        for ((n, word, fields), group) in lines.iter().zip(&groups) {
            let (first, last) = match (group.first(), group.last()) {
                (Some(f), Some(l)) => (*f, *l),
                _ => return Err(format!("line {n}: no squares")),
            };
            for w in group.windows(2) {
                next[usize::from(w[0].0)].push(w[1]);
            }
            match (*word, fields.as_slice()) {
                ("chain", [from, _, to]) => {
                    if *from != "-" {
                        next[usize::from(named(from, *n)?.0)].push(first);
                    }
                    if *to != "-" {
                        next[usize::from(last.0)].push(named(to, *n)?);
                    }
                }
                ("spur", [junction, _]) => {
                    let j = named(junction, *n)?;
                    next[usize::from(j.0)].push(first);
                    let check = match names[usize::from(last.0)].as_str() {
                        "TUV" => Inspection::Tuv,
                        "ASU" => Inspection::Asu,
                        other => return Err(format!("line {n}: a spur ends at a station, not {other}")),
                    };
                    let mut before = j;
                    for s in group {
                        back[usize::from(s.0)] = Some(before);
                        spur[usize::from(s.0)] = Some(check);
                        before = *s;
                    }
                }
                _ => unreachable!("checked above"),
            }
        }
        let place = |id: &str| find(id).ok_or(format!("the board has no {id}"));
        let mut minus = [[Square(0); MINUS_SQUARES]; 2];
        for (c, prefix) in ["NT", "NA"].iter().enumerate() {
            for k in 1..=MINUS_SQUARES {
                minus[c][k - 1] = place(&format!("{prefix}{k:02}"))?;
            }
        }
        Ok(Board {
            start: place("START")?,
            meetings: [place("M1")?, place("M2")?, place("M3")?, place("M4")?],
            stations: [place("TUV")?, place("ASU")?],
            workshops: [place("WT")?, place("WA")?],
            minus,
            rows: groups,
            names,
            kinds,
            next,
            back,
            spur,
        })
    }

    /// The road's stretches (a chain or a spur each), in the notation's order.
    pub fn rows(&self) -> &[Vec<Square>] {
        &self.rows
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.len()).map(|i| Square(i as u8))
    }

    /// Whether `s` is a square of this board (a peer may name any byte).
    pub fn has(&self, s: Square) -> bool {
        usize::from(s.0) < self.len()
    }

    /// The square printed `id` (`A07`, `M2`, `NT03`).
    pub fn find(&self, id: &str) -> Option<Square> {
        self.names.iter().position(|n| n == id).map(|i| Square(i as u8))
    }

    /// The printed id (`A07`, `M2`, `NT03`).
    pub fn name(&self, s: Square) -> &str {
        self.names.get(usize::from(s.0)).map_or("?", String::as_str)
    }

    pub fn kind(&self, s: Square) -> Kind {
        self.kinds.get(usize::from(s.0)).copied().unwrap_or(Kind::Beige)
    }

    /// The road's own edges out of `s`.
    pub fn edges(&self, s: Square) -> &[Square] {
        self.next.get(usize::from(s.0)).map_or(&[], Vec::as_slice)
    }

    /// The check whose spur `s` is on.
    pub fn spur(&self, s: Square) -> Option<Inspection> {
        self.spur.get(usize::from(s.0)).copied().flatten()
    }

    /// The meeting `s` is (0 for M1 … 3 for M4).
    pub fn meeting(&self, s: Square) -> Option<usize> {
        self.meetings.iter().position(|m| *m == s)
    }

    /// The station `s` is.
    pub fn station(&self, s: Square) -> Option<Inspection> {
        Inspection::BOTH.into_iter().find(|c| self.stations[c.index()] == s)
    }

    /// E-5.2, E-5.5, E-12.2: where a car on `at` drives next — `returning` out of a spur —,
    /// and whether it is still driving back out after that square. A spur is entered only by
    /// a car that `owes` its check.
    pub fn next(&self, at: Square, returning: bool, owes: impl Fn(Inspection) -> bool) -> Vec<(Square, bool)> {
        if returning && let Some(back) = self.back.get(usize::from(at.0)).copied().flatten() {
            return vec![(back, self.spur(back).is_some())];
        }
        self.edges(at).iter().filter(|to| self.spur(**to).is_none_or(&owes)).map(|to| (*to, false)).collect()
    }

    /// The fewest squares from `from` to `to` along the road's edges (spurs entered as
    /// `owes` allows, never driven back), or `None` when `to` is behind.
    pub fn distance(&self, from: Square, to: Square, owes: impl Fn(Inspection) -> bool) -> Option<u16> {
        let mut seen = vec![u16::MAX; self.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        *seen.get_mut(usize::from(from.0))? = 0;
        while let Some(s) = queue.pop_front() {
            let d = seen[usize::from(s.0)];
            if s == to {
                return Some(d);
            }
            for n in self.edges(s).iter().filter(|n| self.spur(**n).is_none_or(&owes)) {
                if seen[usize::from(n.0)] == u16::MAX {
                    seen[usize::from(n.0)] = d + 1;
                    queue.push_back(*n);
                }
            }
        }
        None
    }
}

fn kind_of(word: &str) -> Option<Kind> {
    Some(match word {
        "START" => Kind::Start,
        "G" => Kind::Grey,
        "B" => Kind::Beige,
        "MEET" => Kind::Meeting,
        "CHECK" => Kind::Check,
        "WORKSHOP" => Kind::Workshop,
        "MINUS" => Kind::Minus,
        _ => return None,
    })
}

/// `A01..A03` → A01 A02 A03; `NT20..NT18` → NT20 NT19 NT18; `M1` → M1.
fn expand(ids: &str) -> Result<Vec<String>, String> {
    let Some((a, b)) = ids.split_once("..") else { return Ok(vec![ids.to_string()]) };
    let split = |id: &str| {
        let digits = id.len() - id.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (prefix, number) = id.split_at(id.len() - digits);
        number.parse::<u32>().ok().map(|n| (prefix.to_string(), n, digits))
    };
    let ((pa, na, width), (pb, nb, _)) = match (split(a), split(b)) {
        (Some(x), Some(y)) => (x, y),
        _ => return Err(format!("`{ids}`: a range's ends end in digits")),
    };
    if pa != pb {
        return Err(format!("`{ids}`: a range's ends share their prefix"));
    }
    let numbers: Vec<u32> = if na <= nb { (na..=nb).collect() } else { (nb..=na).rev().collect() };
    Ok(numbers.into_iter().map(|n| format!("{pa}{n:0width$}")).collect())
}
