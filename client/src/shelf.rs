//! The replays shelf: every night this laptop hosted or played, as the host handed it over at
//! the end (`ServerMsg::Night`), one journal file each in the replays folder — the same lines
//! `bolide-host verify` and `replay` read. At most [`Shelf::MAX`]: the oldest goes first. The
//! file names are this laptop's (the time kept, the commitment), never anything a host chose.

use crate::platform::files;
use bolide_table::seal::Commitment;
use bolide_table::wire::{MAX_NIGHT_BYTES, clean_name};
use serde::Deserialize;
use std::io;
use std::path::{Path, PathBuf};

/// A folder of kept nights.
#[derive(Debug, Clone)]
pub struct Shelf {
    dir: PathBuf,
}

/// One kept night, as the list shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    pub path: PathBuf,
    /// When it was kept (seconds since 1970, UTC).
    pub when: u64,
    /// The game (`Words::NAME`).
    pub game: String,
    /// The pilots, by seat.
    pub names: Vec<String>,
}

impl Kept {
    /// "2026-11-26 21:40 UTC".
    pub fn date(&self) -> String {
        let (days, secs) = (self.when / 86_400, self.when % 86_400);
        let (y, m, d) = civil_from_days(days);
        format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", secs / 3600, secs % 3600 / 60)
    }
}

impl Shelf {
    /// The most nights kept.
    pub const MAX: usize = 30;

    pub fn new(dir: PathBuf) -> Shelf {
        Shelf { dir }
    }

    /// Keeps a night's journal (already checked by its replay), unless this night is on the
    /// shelf already (a laptop that came back after the end is sent it again); the oldest
    /// nights past [`Shelf::MAX`] are removed. Returns the file.
    pub fn keep(&self, text: &str, commitment: &Commitment, when: u64) -> io::Result<PathBuf> {
        files::private_dir(&self.dir)?;
        let tag = commitment.short();
        if let Some(kept) = self.files()?.into_iter().find(|p| name_of(p).is_some_and(|n| n.ends_with(&tag))) {
            return Ok(kept);
        }
        let path = self.dir.join(format!("{when:012}-{tag}.journal"));
        files::write_private(&path, text.as_bytes())?;
        let files = self.files()?;
        for old in files.iter().take(files.len().saturating_sub(Shelf::MAX)) {
            files::remove(old)?;
        }
        Ok(path)
    }

    /// The nights kept, newest first (a file that cannot be read is left out).
    pub fn list(&self) -> Vec<Kept> {
        let mut kept: Vec<Kept> = self.files().unwrap_or_default().into_iter().filter_map(|p| summary(&p)).collect();
        kept.reverse();
        kept
    }

    /// A kept night's journal, read no further than a night can be.
    pub fn read(path: &Path) -> io::Result<String> {
        files::read_small(path, MAX_NIGHT_BYTES as u64).map_err(|e| match e.kind() {
            io::ErrorKind::Other => io::Error::other("this file is larger than a night can be: it is not a replay"),
            _ => e,
        })
    }

    /// The journal files, oldest first (their names start with the time they were kept).
    fn files(&self) -> io::Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = files::list(&self.dir)?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "journal") && name_of(p).is_some())
            .collect();
        files.sort();
        Ok(files)
    }
}

/// A file name this shelf wrote: `<seconds>-<commitment>`.
fn name_of(path: &Path) -> Option<&str> {
    let stem = path.file_stem()?.to_str()?;
    let (when, tag) = stem.split_once('-')?;
    (when.len() == 12 && when.bytes().all(|b| b.is_ascii_digit()) && !tag.is_empty()).then_some(stem)
}

/// What the list shows of a kept night: its first line's game and seats.
fn summary(path: &Path) -> Option<Kept> {
    #[derive(Deserialize)]
    enum First {
        Started {
            #[serde(default)]
            game: String,
            seats: Vec<SeatName>,
        },
    }
    #[derive(Deserialize)]
    struct SeatName {
        name: String,
    }
    let when = name_of(path)?.split_once('-')?.0.parse().ok()?;
    let text = files::read_small(path, MAX_NIGHT_BYTES as u64).ok()?;
    let (json, _) = text.lines().next()?.rsplit_once('\t')?;
    let First::Started { game, seats } = serde_json::from_str(json).ok()?;
    let game = if game.is_empty() { "bolide".into() } else { game };
    Some(Kept { path: path.to_path_buf(), when, game, names: seats.iter().map(|s| clean_name(&s.name)).collect() })
}

/// The date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + u64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn started(game: &str, names: &[&str]) -> String {
        let seats: Vec<String> = names.iter().map(|n| format!(r#"{{"name":"{n}"}}"#)).collect();
        format!("{{\"Started\":{{\"game\":\"{game}\",\"seats\":[{}]}}}}\t0\n", seats.join(","))
    }

    #[test]
    fn a_night_is_kept_once_and_the_oldest_go_past_the_limit() {
        let dir = std::env::temp_dir().join(format!("bolide-shelf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let shelf = Shelf::new(dir.clone());
        let text = started("bolide", &["Anne", "Bob\u{202e}"]);
        let first = shelf.keep(&text, &Commitment([1; 32]), 1_764_193_200).unwrap();
        assert_eq!(shelf.keep(&text, &Commitment([1; 32]), 1_764_193_999).unwrap(), first, "kept once");
        let list = shelf.list();
        assert_eq!(list.len(), 1);
        assert_eq!((list[0].game.as_str(), list[0].names.clone()), ("bolide", vec!["Anne".into(), "Bob".into()]));
        assert_eq!(list[0].date(), "2025-11-26 21:40 UTC");
        assert_eq!(Shelf::read(&first).unwrap(), text);
        for i in 0..Shelf::MAX as u64 + 3 {
            let mut c = [0; 32];
            c[..8].copy_from_slice(&(i + 2).to_le_bytes());
            shelf.keep(&started("mille-bornes", &["Anne"]), &Commitment(c), 1_764_200_000 + i).unwrap();
        }
        let list = shelf.list();
        assert_eq!(list.len(), Shelf::MAX);
        assert_eq!(list[0].when, 1_764_200_000 + Shelf::MAX as u64 + 2, "newest first");
        assert!(!first.exists(), "the oldest went first");
        // A file the shelf did not write is not listed.
        std::fs::write(dir.join("notes.journal"), "x").unwrap();
        assert_eq!(shelf.list().len(), Shelf::MAX);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
