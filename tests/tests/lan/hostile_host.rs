//! The host is hostile too, from a laptop's side: what it sends is checked before any face
//! draws it. A fake host on 127.0.0.1 with a real certificate welcomes a client, then sends a
//! race view that names a seat the table does not have.

use bolide::Seat;
use bolide::ServerMsg;
use bolide::view::ViewError;
use bolide_client::games::bolide::Session;
use bolide_client::net::ClientError;
use bolide_host::net::{Identity, pake, room_code, tls};
use bolide_table::wire::{self, FrameDecoder, Knock, PROTOCOL_VERSION, Proof};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_naming_a_seat_that_does_not_exist_ends_the_link_with_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("bolide-hostile-host-{}", std::process::id()));
    let identity = Identity::load_or_create(&dir).unwrap();
    let endpoint =
        quinn::Endpoint::server(tls::server_config(&identity).unwrap(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = endpoint.local_addr().unwrap();
    let code = room_code("GARE", &identity);
    let host = tokio::spawn(async move {
        let connection = endpoint.accept().await.expect("a client").await.expect("a handshake");
        let (mut send, mut recv) = connection.accept_bi().await.expect("a stream");
        let mut decoder = FrameDecoder::default();
        let mut buf = vec![0; 4096];
        let mut frame = async || loop {
            if let Some(body) = decoder.next_frame().expect("a frame") {
                break body;
            }
            let n = recv.read(&mut buf).await.expect("bytes").expect("more");
            decoder.push(&buf[..n]);
        };
        // This fake host knows the word: it proves it, as a real one does.
        let knock: Knock = wire::decode(&frame().await).expect("a hello");
        assert_eq!(knock.version, PROTOCOL_VERSION);
        let mut binding = [0; pake::BINDING_LEN];
        connection.export_keying_material(&mut binding, pake::EXPORTER_LABEL, b"").unwrap();
        let (_, msg, proof) = pake::host_answer("GARE", &knock.pake, &binding).unwrap();
        send.write_all(&wire::encode(&ServerMsg::Pake { msg, proof })).await.unwrap();
        let _: Proof = wire::decode(&frame().await).expect("the laptop's proof");
        let welcome = ServerMsg::Welcome {
            version: PROTOCOL_VERSION,
            seat: Some(Seat(0)),
            token: None,
            room: "GARE".into(),
            beats: wire::BeatSchedule::Steady,
            game: "bolide".into(),
        };
        send.write_all(&wire::encode(&welcome)).await.unwrap();
        // A real three-seat race, seen from seat 0 — but its first player is seat 9.
        let mut view = bolide::sim::random_race(3, 1).view_for(Seat(0));
        view.first_player = Seat(9);
        let update = ServerMsg::Update {
            events: vec![],
            view: Box::new(view),
            legal: vec![],
            deadline_ms: None,
            awaited: None,
            show_at_us: None,
            countdown_end_us: None,
        };
        send.write_all(&wire::encode(&update)).await.unwrap();
        // Keep the connection open until the client has judged it.
        let _ = tokio::time::timeout(Duration::from_secs(10), connection.closed()).await;
    });
    let mut session = Session::connect(addr, &code, "Anne", None).await.expect("welcomed");
    let verdict = tokio::time::timeout(Duration::from_secs(10), session.next()).await.expect("an answer in time");
    match verdict {
        Err(e @ ClientError::View(_)) => {
            assert!(e.to_string().contains(&ViewError::Seat(Seat(9)).to_string()), "names the seat: {e}");
            assert!(e.to_string().contains("rejoin, or run the same version"), "a way forward: {e}");
        }
        other => panic!("the bad view must end the link with ClientError::View, got {other:?}"),
    }
    assert!(session.state().mirror.view.is_none(), "nothing of the bad view reaches the mirror a face draws");
    session.close().await;
    host.abort();
    let _ = std::fs::remove_dir_all(&dir);
}
