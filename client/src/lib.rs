//! The client side of Bolide: what a person sees. For now a text rendering of a
//! [`PlayerView`](bolide_protocol::PlayerView) and of the event log, used by the terminal race
//! (`bolide`); the networked client core and the egui UI come next (see ARCHITECTURE.md).

pub mod text;
