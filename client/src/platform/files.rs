//! Where the window keeps what it keeps — its settings and the nights it was handed: on a
//! laptop, files only their owner reads (`bolide_link::files`); in a browser's page, the
//! browser's `localStorage` for the host's origin, where a "path" is a key and a folder the
//! keys under it. The prefs and the shelf read and write through this module alone.

#[cfg(not(target_arch = "wasm32"))]
pub use bolide_link::files::{default_data_dir, private_dir, read_small, write_private};
#[cfg(not(target_arch = "wasm32"))]
use std::io;
#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};

/// The files directly in `dir` (none when it does not exist).
#[cfg(not(target_arch = "wasm32"))]
pub fn list(dir: &Path) -> io::Result<Vec<PathBuf>> {
    match std::fs::read_dir(dir) {
        Ok(entries) => Ok(entries.filter_map(Result::ok).map(|e| e.path()).collect()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn remove(path: &Path) -> io::Result<()> {
    std::fs::remove_file(path)
}

#[cfg(target_arch = "wasm32")]
pub use page::{default_data_dir, list, private_dir, read_small, remove, write_private};

#[cfg(target_arch = "wasm32")]
mod page {
    use std::io;
    use std::path::{Path, PathBuf};

    fn storage() -> io::Result<web_sys::Storage> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| io::Error::other("this browser keeps nothing for this page (private browsing?)"))
    }

    fn key(path: &Path) -> String {
        path.to_string_lossy().into_owned()
    }

    /// The page's own folder: everything it keeps is under `bolide/`.
    pub fn default_data_dir() -> anyhow::Result<PathBuf> {
        Ok(PathBuf::from("bolide"))
    }

    /// Nothing to make: a key needs no folder.
    pub fn private_dir(_dir: &Path) -> io::Result<()> {
        storage().map(|_| ())
    }

    pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let text = std::str::from_utf8(bytes).map_err(io::Error::other)?;
        storage()?
            .set_item(&key(path), text)
            .map_err(|_| io::Error::other("this browser's storage is full: forget a few past nights"))
    }

    /// A kept text, at most `max` bytes (a file of the laptop's cannot be named from a page).
    pub fn read_small(path: &Path, max: u64) -> io::Result<String> {
        let text = storage()?.get_item(&key(path)).ok().flatten().ok_or_else(|| {
            io::Error::new(io::ErrorKind::NotFound, "a browser's page reads no files of this computer")
        })?;
        if text.len() as u64 > max {
            return Err(io::Error::other(format!("over {max} bytes: not a file of this game")));
        }
        Ok(text)
    }

    pub fn list(dir: &Path) -> io::Result<Vec<PathBuf>> {
        let storage = storage()?;
        let prefix = format!("{}/", key(dir));
        let count = storage.length().unwrap_or(0);
        let keys = (0..count).filter_map(|i| storage.key(i).ok().flatten());
        Ok(keys
            .filter(|k| k.strip_prefix(&prefix).is_some_and(|rest| !rest.contains('/')))
            .map(PathBuf::from)
            .collect())
    }

    pub fn remove(path: &Path) -> io::Result<()> {
        storage()?.remove_item(&key(path)).map_err(|_| io::Error::other("this browser's storage refused"))
    }
}
