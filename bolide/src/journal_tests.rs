//! The table's journal read and written with Bolide's words.

use crate::{Action, Seat};
use bolide_table::journal::*;

type JournalEntry = JournalEntryOf<crate::Bolide>;

fn journal() -> String {
    (0..3).map(|i| JournalEntry::Applied { seat: Seat(i), action: Action::Roll }.to_line()).collect()
}

#[test]
fn a_torn_last_line_is_dropped_and_cut() {
    let mut text = journal();
    let whole = text.len();
    text.push_str(&JournalEntry::Applied { seat: Seat(1), action: Action::EndTurn }.to_line()[..20]);
    assert_eq!(JournalEntry::parse_all(&text).unwrap().len(), 3);
    assert_eq!(complete_len(&text), whole);
}

#[test]
fn every_flipped_byte_is_reported_with_its_line() {
    let text = journal();
    let second = text.find('\n').unwrap() + 1;
    let third = second + text[second..].find('\n').unwrap() + 1;
    for at in second..third - 1 {
        let mut bytes = text.clone().into_bytes();
        bytes[at] ^= 0x04;
        let Ok(damaged) = String::from_utf8(bytes) else { continue };
        match JournalEntry::parse_all(&damaged) {
            Err(ResumeError::Damaged { line: 2 }) | Err(ResumeError::Parse { line: 2, .. }) => {}
            other => panic!("byte {at} flipped: {other:?}"),
        }
    }
}
