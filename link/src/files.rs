//! A laptop's private files as a careful server keeps them: the data dir readable by its owner
//! only (0700), the journal (seed, code word, every seat token), the key and the replays (0600), each opened
//! without following a symlink someone else planted, so no other account on the laptop can
//! read a seat token or have the host write through a link.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// Creates `dir` (and its parents) if needed, and makes it the owner's only.
pub fn private_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)?;
        // An existing dir keeps its mode through `create`: tightened here.
        let meta = std::fs::symlink_metadata(dir)?;
        if meta.file_type().is_symlink() {
            return Err(io::Error::other(format!("{} is a symlink: refusing to keep secrets there", dir.display())));
        }
        if meta.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
        Ok(())
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir)
}

/// Options for a private file: mode 0600 when created, never through a symlink.
pub fn private_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    options
}

/// Opens `path` to append to, created 0600 or tightened to it (a journal from an older
/// release may be 0644), never through a symlink.
pub fn append_private(path: &Path) -> io::Result<File> {
    let file = private_options().create(true).append(true).open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// Writes `bytes` to a private file at `path`: an old one is replaced and tightened to 0600 (a
/// file from an older release may be 0644), a symlink refused.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut file: File = private_options().write(true).create(true).truncate(true).open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(bytes)?;
    file.sync_all()
}

/// Reads a small text file a person named (a circuit file, from a host's flag or the lobby's
/// file picker; never one a peer named — the wire names no files): at most `max` bytes, so a
/// path such as /dev/zero is an error, not a laptop eating its memory.
pub fn read_small(path: &Path, max: u64) -> io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    File::open(path)?.take(max + 1).read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(io::Error::other(format!("over {max} bytes: not a file of this game")));
    }
    Ok(text)
}

/// `$XDG_DATA_HOME/bolide`, else `~/.local/share/bolide`; never a folder in the current
/// directory by surprise.
pub fn default_data_dir() -> anyhow::Result<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".local/share")));
    match base {
        Some(base) => Ok(base.join("bolide")),
        None => anyhow::bail!(
            "neither HOME nor XDG_DATA_HOME is set: say where the host keeps its files with --data-dir DIR"
        ),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn secrets_are_the_owners_only_and_never_written_through_a_symlink() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("data");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(&dir).unwrap();
        assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
        write_private(&dir.join("key.der"), b"k").unwrap();
        assert_eq!(std::fs::metadata(dir.join("key.der")).unwrap().permissions().mode() & 0o777, 0o600);
        let elsewhere = tmp.path().join("elsewhere");
        std::os::unix::fs::symlink(&elsewhere, dir.join("link")).unwrap();
        assert!(write_private(&dir.join("link"), b"secret").is_err(), "written through a symlink");
        assert!(!elsewhere.exists());
    }
}
