//! The `bolide-bot` binary against a host in this process: bots join, play the championship
//! to its end and print the final standings as JSON.

use bolide::TableOptions;
use bolide::options::Settings;
use bolide_host::games::bolide::RoomConfig;
use bolide_host::net::{Identity, Journal, Server};
use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_to_the_end_and_print_the_standings() {
    let dir = std::env::temp_dir().join(format!("bolide-bot-cli-{}", std::process::id()));
    let identity = Identity::load_or_create(&dir.join("identity")).unwrap();
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), &identity).unwrap();
    let settings = Settings {
        options: TableOptions { races: 1, ..TableOptions::default() },
        circuit: "monaco".into(),
        bots: 1,
        bot_level: Default::default(),
    };
    let mut config = RoomConfig::new("CLI", settings, 3);
    config.countdown_ms = 20;
    config.bot_delay_ms = 5;
    let code = server.add_room::<bolide::game::Championship>(config, Journal::None, None).unwrap();
    let addr = server.local_addr().to_string();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_bolide-bot"))
            .args(["--connect", &addr, "--code", &code, "--count", "2", "--level", "random"])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let standings = json["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    assert_eq!(standings[0]["rank"], 1);
    let _ = std::fs::remove_dir_all(&dir);

    let wrong = Command::new(env!("CARGO_BIN_EXE_bolide-bot"))
        .args(["--connect", "127.0.0.1:9", "--code", "NOCODE"])
        .output()
        .unwrap();
    assert!(!wrong.status.success());
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("GARAGE-7F3K-0Q9M-2XWB-HC4T"),
        "the error shows what a code looks like"
    );
}
