//! Bolide's room: the host's generic room, its configuration, what it asks the network layer
//! to do and its journal, named for Bolide (`bolide::game::Championship`).

pub type Room = crate::room::RoomOf<bolide::game::Championship>;
pub type RoomConfig = crate::room::RoomConfigOf<bolide::options::Settings>;
pub type Output = crate::room::OutputOf<bolide::Bolide>;
pub type JournalEntry = crate::room::JournalEntryOf<bolide::Bolide>;
