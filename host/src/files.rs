//! The host's files as a careful server keeps them: the data dir readable by its owner only
//! (0700), the journal (seed, code word, every seat token) and the key (0600), each opened
//! without following a symlink someone else planted, so no other account on the laptop can
//! read a seat token or have the host write through a link.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

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

/// Writes `bytes` to a new private file at `path` (an old one is replaced, a symlink refused).
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut file: File = private_options().write(true).create(true).truncate(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Reads a circuit file (a host's `--circuit FILE`, a scenario's, the lobby's file picker):
/// never one a peer named — the wire names no files.
pub fn read_circuit(path: &Path) -> Result<bolide::Circuit, bolide::circuits::CircuitLoadError> {
    use bolide::circuits::CircuitLoadError;
    use std::io::Read;
    // A circuit file is a few hundred bytes: read no more than a generous bound, so a path
    // such as /dev/zero is an error, not a host eating its memory.
    const MAX_FILE: u64 = 16 * 1024;
    let io = |error| CircuitLoadError::Io { path: path.into(), error };
    let mut text = String::new();
    std::fs::File::open(path).map_err(io)?.take(MAX_FILE + 1).read_to_string(&mut text).map_err(io)?;
    if text.len() as u64 > MAX_FILE {
        return Err(io(std::io::Error::other(format!("over {MAX_FILE} bytes: not a circuit file"))));
    }
    bolide::Circuit::parse(&text).map_err(|error| CircuitLoadError::InvalidFile { path: path.into(), error })
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

    #[test]
    fn b_2_5_a_broken_file_names_the_rule_and_position() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("broken.txt");
        std::fs::write(&path, "# my circuit\nS S 70 80 S* 60 60 S S 90* 100 S S 70* 70 80 S S* S 80* 90 S S 100 S 70 80 S S 80 90 S S* S S 70\n").unwrap();
        let err = read_circuit(&path).unwrap_err().to_string();
        assert!(err.contains("B-2.4") && err.contains("broken.txt"), "{err}");
        assert!(matches!(
            read_circuit(&dir.path().join("missing.txt")),
            Err(bolide::circuits::CircuitLoadError::Io { .. })
        ));
        assert!(read_circuit(Path::new("/dev/zero")).is_err(), "a device is not a circuit file");
    }
}
