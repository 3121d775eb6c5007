//! `bolide --text`: a championship narrated in the terminal, played over the wire against the
//! host this process embeds.

use std::process::Command;

#[test]
fn the_terminal_race_narrates_a_championship_played_over_the_wire_to_its_checked_dice() {
    let dir = std::env::temp_dir().join(format!("bolide-text-cli-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_bolide"))
        .args(["--text", "--players", "3", "--races", "1", "--pace-ms", "0", "--seed", "7", "--circuit", "monaco"])
        .env("XDG_DATA_HOME", &dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    for said in ["El Gato (over the wire)", "Bot 2 (host bot)", "Reservoirs:", "Photo finish:", "Championship over:"] {
        assert!(stdout.contains(said), "`{said}` missing from:\n{stdout}");
    }
    assert!(stdout.contains("Dice checked:"), "the dice seen over the wire match the revealed seed:\n{stdout}");
}
