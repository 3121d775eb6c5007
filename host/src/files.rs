//! The host's files: the laptop's private files (`bolide_link::files`), and the circuit files
//! a host's flag or a scenario names.

pub use bolide_link::files::*;
use std::path::Path;

/// Reads a circuit file (a host's `--circuit FILE`, a scenario's, the lobby's file picker):
/// never one a peer named — the wire names no files.
pub fn read_circuit(path: &Path) -> Result<bolide::Circuit, bolide::circuits::CircuitLoadError> {
    use bolide::circuits::CircuitLoadError;
    let text = read_small(path, bolide::circuits::MAX_FILE)
        .map_err(|error| CircuitLoadError::Io { path: path.into(), error })?;
    bolide::Circuit::parse(&text).map_err(|error| CircuitLoadError::InvalidFile { path: path.into(), error })
}

#[cfg(test)]
mod tests {
    use super::*;

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
