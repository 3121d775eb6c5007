//! What the window remembers between runs: the pilot's name and colour, the last host joined.
//! A small JSON file in the user's config folder; a missing or unreadable one means defaults.

use super::files;
use bolide_table::colour::Colour;
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
    /// The game Practice plays, by its name.
    pub practice_game: String,
    /// The game a hosted table serves, by its name.
    pub host_game: String,
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
            practice_game: <bolide::Bolide as bolide_table::Words>::NAME.into(),
            host_game: <bolide::Bolide as bolide_table::Words>::NAME.into(),
        }
    }
}

impl Prefs {
    /// `$XDG_CONFIG_HOME/bolide/settings.json`, else `~/.config/bolide/settings.json`; in a
    /// browser's page, its storage's `bolide/settings.json`.
    pub fn default_path() -> Option<PathBuf> {
        if cfg!(target_arch = "wasm32") {
            return Some(PathBuf::from("bolide/settings.json"));
        }
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
        path.and_then(|p| files::read_small(p, 64 * 1024).ok())
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Best effort: a read-only home only means the next run starts from defaults. The file is
    /// the owner's only (0600, never written through a symlink) and keeps the last room code
    /// without its word: the word opens tonight's table, and is typed again next time.
    pub fn save(&self, path: Option<&PathBuf>) {
        let Some(path) = path else { return };
        if let Some(dir) = path.parent() {
            let _ = files::private_dir(dir);
        }
        let kept = Prefs { last_code: without_word(&self.last_code), ..self.clone() };
        if let Ok(json) = serde_json::to_vec_pretty(&kept) {
            let _ = files::write_private(path, &json);
        }
    }
}

/// A room code without its word: `-7F3K-0Q9M-2XWB-HC4T` of `GARAGE-7F3K-0Q9M-2XWB-HC4T` (the fingerprint, and the
/// room's number if any, are public).
fn without_word(code: &str) -> String {
    code.trim().split_once('-').map(|(_, rest)| format!("-{rest}")).unwrap_or_default()
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

    #[cfg(unix)]
    #[test]
    fn settings_are_the_owner_s_only_and_keep_no_code_word() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("bolide-prefs-private-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("settings.json");
        // A file an older release left readable by all is tightened.
        std::fs::write(&path, b"{}").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let prefs = Prefs { last_code: "garage-7F3K-0Q9M-2XWB-HC4T-2".into(), ..Prefs::default() };
        prefs.save(Some(&path));
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.to_ascii_uppercase().contains("GARAGE"), "{text}");
        assert_eq!(Prefs::load(Some(&path)).last_code, "-7F3K-0Q9M-2XWB-HC4T-2");
        // A symlink planted in its place is not written through.
        let target = dir.join("elsewhere");
        std::fs::write(&target, b"untouched").unwrap();
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        prefs.save(Some(&path));
        assert_eq!(std::fs::read(&target).unwrap(), b"untouched");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
