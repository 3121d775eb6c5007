//! How a square and a part read where people read them: in JSON (scenarios, their output,
//! journals) by the id printed on the board or the card (`A14`, `TUV`, `P05`); on the wire
//! (bincode, which is not human-readable) by their number, one byte. JSON written with numbers
//! still reads; a name that is no square or part is an error that names it.

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

/// Writes `number` as `id` where people read it.
pub(crate) fn serialize<S: Serializer>(s: S, number: u8, id: &str) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() { s.serialize_str(id) } else { s.serialize_u8(number) }
}

/// Reads a number, or (where people write it) an id that `find` knows or a number.
pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
    d: D,
    what: &'static str,
    find: fn(&str) -> Option<u8>,
) -> Result<u8, D::Error> {
    if d.is_human_readable() {
        d.deserialize_any(IdOrNumber { what, find })
    } else {
        d.deserialize_u8(IdOrNumber { what, find })
    }
}

struct IdOrNumber {
    what: &'static str,
    find: fn(&str) -> Option<u8>,
}

impl Visitor<'_> for IdOrNumber {
    type Value = u8;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{} by its printed id or its number", self.what)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u8, E> {
        u8::try_from(v).map_err(|_| E::custom(format!("{v} is no {}", self.what)))
    }

    fn visit_u8<E: de::Error>(self, v: u8) -> Result<u8, E> {
        Ok(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<u8, E> {
        (self.find)(v).ok_or_else(|| E::custom(format!("`{v}` is no {}", self.what)))
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Square, board};
    use crate::part::Part;

    #[test]
    fn e_14_5_a_square_and_a_part_read_by_their_printed_ids_in_json_and_as_one_byte_on_the_wire() {
        let a14 = board().find("A14").unwrap();
        let json = serde_json::to_string(&(a14, Part(4))).unwrap();
        assert_eq!(json, r#"["A14","P05"]"#);
        assert_eq!(serde_json::from_str::<(Square, Part)>(&json).unwrap(), (a14, Part(4)));
        // JSON written with numbers (journals kept before) still reads.
        let old = format!("[{}, 4]", a14.0);
        assert_eq!(serde_json::from_str::<(Square, Part)>(&old).unwrap(), (a14, Part(4)));
        let wrong = serde_json::from_str::<Square>(r#""A99""#).unwrap_err().to_string();
        assert!(wrong.contains("`A99` is no square"), "{wrong}");
        let wire = bincode::serde::encode_to_vec((a14, Part(4)), bincode::config::standard()).unwrap();
        assert_eq!(wire, [a14.0, 4]);
    }
}
