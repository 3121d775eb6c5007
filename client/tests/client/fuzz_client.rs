//! A short fuzzing run of the client core on stable: mutations of real host traffic (frames and
//! datagrams) through `bolide_client::fuzzing::host_bytes`, which checks that nothing panics and
//! that what a face reads stays within the table. The long run is the `fuzz-client` example.

#[test]
fn a_hostile_host_cannot_panic_the_client_core() {
    let seeds = bolide_host::fuzzing::client_seeds();
    assert!(seeds.len() > 20, "seeds from a whole championship");
    assert_eq!(bolide_client::fuzzing::mutate(&seeds, 20_000, 7), 20_000);
}

#[test]
fn a_hostile_host_cannot_panic_a_1000_bornes_laptop_or_its_bots() {
    assert!(bolide_client::fuzzing::game_seeds::<mille_bornes::Partie>(4, 7).len() > 10);
    assert_eq!(bolide_client::fuzzing::mutate_game::<mille_bornes::Partie>(10_000, 7), 10_000);
}

#[test]
fn a_hostile_host_cannot_panic_an_entenrallye_laptop_or_its_bots() {
    assert!(bolide_client::fuzzing::game_seeds::<entenrallye::Rallye>(4, 7).len() > 10);
    assert_eq!(bolide_client::fuzzing::mutate_game::<entenrallye::Rallye>(10_000, 7), 10_000);
}
