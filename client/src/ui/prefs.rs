//! What the window remembers between runs: the pilot's name and colour, the last host joined.
//! A small JSON file in the user's config folder; a missing or unreadable one means defaults.

use bolide_protocol::Colour;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub name: String,
    pub colour: Colour,
    /// The last host joined (typed by hand or picked from the list): its address and room code.
    pub last_address: String,
    pub last_code: String,
    /// The table name a hosted game advertises.
    pub table_name: String,
    /// The language chosen on the start screen (`None`: the system's, `Lang::from_env`).
    pub lang: Option<crate::lang::Lang>,
    /// Practice showed its first-round guide once (it is not shown again).
    pub guide_seen: bool,
    /// The game Practice plays.
    pub practice_game: bolide_protocol::options::GameKind,
    /// The game a hosted table serves.
    pub host_game: bolide_protocol::options::GameKind,
}

impl Default for Prefs {
    fn default() -> Self {
        Prefs {
            name: String::new(),
            colour: Colour::Rouge,
            last_address: String::new(),
            last_code: String::new(),
            table_name: "Bolide".into(),
            lang: None,
            guide_seen: false,
            practice_game: bolide_protocol::options::GameKind::Bolide,
            host_game: bolide_protocol::options::GameKind::Bolide,
        }
    }
}

impl Prefs {
    /// `$XDG_CONFIG_HOME/bolide/settings.json`, else `~/.config/bolide/settings.json`.
    pub fn default_path() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
        Some(base.join("bolide").join("settings.json"))
    }

    /// The language a face without a start screen (`--text`, `bolide-bot`) speaks: the one
    /// chosen in the window, else the system's.
    pub fn saved_lang() -> crate::lang::Lang {
        Prefs::load(Prefs::default_path().as_ref()).lang.unwrap_or_else(crate::lang::Lang::from_env)
    }

    pub fn load(path: Option<&PathBuf>) -> Prefs {
        path.and_then(|p| std::fs::read(p).ok())
            .filter(|bytes| bytes.len() < 64 * 1024)
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// Best effort: a read-only home only means the next run starts from defaults.
    pub fn save(&self, path: Option<&PathBuf>) {
        let Some(path) = path else { return };
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Ok(json) = serde_json::to_vec_pretty(self) {
            let _ = std::fs::write(path, json);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefs_survive_a_restart_and_a_broken_file_means_defaults() {
        let dir = std::env::temp_dir().join(format!("bolide-prefs-{}", std::process::id()));
        let path = dir.join("settings.json");
        let prefs = Prefs { name: "Anne".into(), colour: Colour::Vert, ..Prefs::default() };
        prefs.save(Some(&path));
        assert_eq!(Prefs::load(Some(&path)), prefs);
        std::fs::write(&path, b"{ not json").unwrap();
        assert_eq!(Prefs::load(Some(&path)), Prefs::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
