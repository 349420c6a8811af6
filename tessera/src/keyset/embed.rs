//! Embedded key versions: the first encrypted character of an FPE token
//! also names its key's slot. The construction and its limits are
//! described in the module documentation of [`crate::keyset`].

use crate::fpe::Alphabet;

use super::error::{Error, Result};
use super::model::{FpeParams, KeyStatus, KeyVersion, KeyVersionMode};

/// The characters an extended alphabet is derived from, in order, when the
/// transformation names none: safe in CSV, URLs, file names and SQL.
const POOL: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The extended alphabet of the first encrypted position: `slots` blocks
/// of `radix` characters; numeral `d` under slot `s` is character
/// `s * radix + d`.
#[derive(Debug, Clone)]
pub(crate) struct Embedding {
    table: Alphabet,
    radix: u32,
    slots: u32,
}

impl Embedding {
    /// The embedding of an FPE transformation, or `None` in external mode.
    /// Refuses (saying why) when no extended alphabet of two slots or more
    /// can be had.
    pub(crate) fn of(name: &str, p: &FpeParams, alphabet: &Alphabet) -> Result<Option<Embedding>> {
        if p.key_version != KeyVersionMode::Embedded {
            return Ok(None);
        }
        let impossible = |reason: String| Error::EmbeddingImpossible { transform: name.into(), reason };
        let r = alphabet.radix();
        let reserved = |c: char| p.passthrough.contains(c) || p.keep_from_last == Some(c);
        let chars: Vec<char> = match &p.embedded_alphabet {
            Some(e) => {
                let chars: Vec<char> = e.chars().collect();
                if let Some(c) = chars.iter().find(|&&c| reserved(c)) {
                    return Err(impossible(format!("the embedded alphabet holds {c:?}, a character kept in clear")));
                }
                if !chars.len().is_multiple_of(r as usize) {
                    return Err(impossible(format!(
                        "the embedded alphabet has {} characters, not a multiple of the radix {r}",
                        chars.len()
                    )));
                }
                chars
            }
            None => {
                let extra = POOL.chars().filter(|&c| alphabet.numeral(c).is_none() && !reserved(c));
                let mut chars: Vec<char> = alphabet.chars().iter().copied().chain(extra).collect();
                chars.truncate(chars.len() / r as usize * r as usize);
                chars
            }
        };
        let slots = (chars.len() / r as usize) as u32;
        if slots < 2 {
            let why = match &p.embedded_alphabet {
                Some(_) => {
                    format!("the embedded alphabet gives {slots} slot(s) of {r} characters; at least 2 are needed")
                }
                None => format!(
                    "the token's first character must come from 2 x {r} distinct characters to carry a key version \
                     without changing the length, and the alphabet of {r} leaves too few of 0-9A-Za-z; \
                     give an embedded alphabet (e.g. with non-ASCII characters) or use external key versions"
                ),
            };
            return Err(impossible(why));
        }
        let table =
            Alphabet::from_chars(chars).map_err(|e| impossible(format!("the embedded alphabet is not valid: {e}")))?;
        Ok(Some(Embedding { table, radix: r, slots }))
    }

    /// How many versions can be live (not destroyed) at once.
    pub(crate) fn slots(&self) -> u32 {
        self.slots
    }

    /// The slot of key version `version` (versions count from 1).
    pub(crate) fn slot_of(&self, version: u32) -> u32 {
        version.wrapping_sub(1) % self.slots
    }

    /// The token character for numeral `d` under `version`.
    pub(crate) fn encode(&self, version: u32, d: u16) -> char {
        self.table
            .char_of((self.slot_of(version) * self.radix + d as u32) as u16)
            .expect("slot and numeral inside the table")
    }

    /// `(slot, numeral)` of a token's first encrypted character.
    pub(crate) fn decode(&self, c: char) -> Option<(u32, u16)> {
        let i = self.table.numeral(c)? as u32;
        Some((i / self.radix, (i % self.radix) as u16))
    }

    /// The key version in `slot`: the live one, else the newest destroyed
    /// one (so that the error names it), else `None`.
    pub(crate) fn version_in_slot<'k>(&self, keys: &'k [KeyVersion], slot: u32) -> Option<&'k KeyVersion> {
        let in_slot = || keys.iter().filter(move |k| self.slot_of(k.id) == slot);
        in_slot()
            .find(|k| k.status != KeyStatus::Destroyed)
            .or_else(|| in_slot().filter(|k| k.status == KeyStatus::Destroyed).max_by_key(|k| k.id))
    }

    /// The smallest version number after every existing one whose slot no
    /// live version holds, or `None` when every slot is taken.
    pub(crate) fn next_version(&self, keys: &[KeyVersion]) -> Option<u32> {
        let start = keys.iter().map(|k| k.id).max().unwrap_or(0).checked_add(1)?;
        let taken =
            |v: u32| keys.iter().any(|k| k.status != KeyStatus::Destroyed && self.slot_of(k.id) == self.slot_of(v));
        (0..self.slots).filter_map(|i| start.checked_add(i)).find(|&v| !taken(v))
    }

    /// Checks that no two live versions share a slot.
    pub(crate) fn check_slots(&self, name: &str, keys: &[KeyVersion]) -> Result<()> {
        let mut seen = vec![None; self.slots as usize];
        for k in keys.iter().filter(|k| k.status != KeyStatus::Destroyed) {
            let s = self.slot_of(k.id) as usize;
            if let Some(other) = seen[s].replace(k.id) {
                return Err(Error::Rotation(format!(
                    "transformation {name:?} embeds key versions in {} slots and versions {other} and {} \
                     would share slot {s}: destroy old versions first",
                    self.slots, k.id
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(alphabet: &str, passthrough: &str) -> FpeParams {
        let mut p = FpeParams::new(alphabet);
        p.passthrough = passthrough.into();
        p.key_version = KeyVersionMode::Embedded;
        p
    }

    #[test]
    fn digits_get_six_slots_from_the_pool() {
        let p = params("0123456789", "-");
        let e = Embedding::of("t", &p, &Alphabet::digits()).unwrap().unwrap();
        assert_eq!(e.slots(), 6);
        assert_eq!(e.encode(1, 7), '7'); // slot 0 is the alphabet itself
        assert_eq!(e.encode(2, 0), 'A');
        assert_eq!(e.decode('A'), Some((1, 0)));
        assert_eq!(e.decode('-'), None);
        assert_eq!(e.slot_of(7), 0);
    }

    #[test]
    fn alphanumeric_is_refused_with_a_reason() {
        let p = params("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "");
        let err = Embedding::of("t", &p, &Alphabet::new(&p.alphabet).unwrap()).unwrap_err().to_string();
        assert!(err.contains("external key versions"), "{err}");
    }

    #[test]
    fn explicit_alphabet_must_be_whole_slots() {
        let mut p = params("01", "");
        p.embedded_alphabet = Some("01ab2".into());
        assert!(Embedding::of("t", &p, &Alphabet::new("01").unwrap()).is_err());
        p.embedded_alphabet = Some("01abéü".into());
        assert_eq!(Embedding::of("t", &p, &Alphabet::new("01").unwrap()).unwrap().unwrap().slots(), 3);
    }
}
