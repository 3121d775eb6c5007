//! The window's link to a table follows its game, over real QUIC on 127.0.0.1: a link opened
//! in Bolide's words at a 1000 Bornes table says so with the seat token it was given, a link
//! in 1000 Bornes' words takes that seat back, and the lobby's first pilot switching the table
//! to Bolide sends it on again, to the same seat.

use bolide::Bolide;
use bolide_client::live::{CommandOf, Hooks, Link, Live, LiveOf, Target};
use bolide_host::serve::{self, ServeArgs};
use bolide_table::Seat;
use bolide_table::wire::SeatToken;
use mille_bornes::MilleBornes;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Waits (at most 10 s) until `done` holds.
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..400 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{what}: not within 10 s");
}

fn other_game(link: Link) -> Option<(String, Option<SeatToken>)> {
    match link {
        Link::OtherGame { game, token } => Some((game, token)),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_s_link_follows_the_table_s_game_to_the_same_seat() {
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<String> =
        ["--game", "mille-bornes", "--bind", "127.0.0.1:0", "--no-mdns", "--bots", "1", "--data-dir"]
            .map(String::from)
            .into_iter()
            .chain([dir.path().display().to_string()])
            .collect();
    let hosting = serve::start(ServeArgs::parse_words(args).unwrap()).await.unwrap();
    let addr = SocketAddr::from(([127, 0, 0, 1], hosting.server.local_addr().port()));
    let runtime = bolide_client::platform::rt::Runtime::new(tokio::runtime::Handle::current());
    let repaint: Arc<dyn Fn() + Send + Sync> = Arc::new(|| {});
    let target = Target {
        addr,
        code: hosting.code.clone(),
        name: "Anne".into(),
        colour: Some(bolide_table::colour::Colour::Vert),
        watch: false,
        token: None,
        via: Default::default(),
        field: false,
    };

    // Joined by address, the window does not know the game: it speaks Bolide first.
    let bolide = Live::connect(&runtime, target.clone(), repaint.clone());
    until("the link names the table's game", || other_game(bolide.link()).is_some()).await;
    let (game, token) = other_game(bolide.link()).unwrap();
    assert_eq!(game, "mille-bornes");
    assert!(token.is_some(), "the seat it was given comes with it");

    // In the table's words, through the connection the knock opened: the seat it was given.
    let door = bolide.take_door();
    assert!(door.is_some(), "the connection is handed on");
    let cards = LiveOf::<MilleBornes>::connect_through(
        &runtime,
        Target { token, ..target.clone() },
        door,
        Hooks::repaint(repaint.clone()),
    );
    until("seated at the 1000 Bornes table", || {
        let state = cards.state();
        state.mirror.lobby.is_some() && state.mirror.seat.is_some()
    })
    .await;
    assert_eq!(cards.link(), Link::Connected);
    let seat = cards.state().mirror.seat;
    assert_eq!(seat, Some(Seat(0)), "the first to come, the first seat");
    assert_eq!(cards.state().mirror.lobby.as_ref().map(|l| l.seats.len()), Some(1), "one seat, not two");
    // The colour asked for goes with the seat the knock took.
    until("the colour picked", || {
        cards.state().mirror.lobby.as_ref().and_then(|l| l.seats.first()).map(|s| s.colour)
            == Some(bolide_table::colour::Colour::Vert)
    })
    .await;

    // The first pilot switches the table to Bolide: the link says so, with its token.
    cards.send(CommandOf::ChooseGame("bolide".into()));
    until("the link follows the switch", || other_game(cards.link()).is_some()).await;
    let (game, token) = other_game(cards.link()).unwrap();
    assert_eq!(game, "bolide");
    let back = LiveOf::<Bolide>::connect(&runtime, Target { token, ..target }, repaint);
    until("seated at the Bolide table", || back.state().mirror.lobby.is_some()).await;
    assert_eq!(back.state().mirror.seat, seat, "the same seat in the other game");
    back.send(CommandOf::Leave);
    tokio::time::sleep(Duration::from_millis(100)).await;
    hosting.stop().await;
}
