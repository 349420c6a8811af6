//! Key bytes: zeroized on drop, hidden from `Debug`, hex in the keyset file.

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use zeroize::Zeroizing;

use super::error::{Error, Result};

/// The secret bytes of one key version. Zeroized on drop; `Debug` prints
/// only the length.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct KeyMaterial(Zeroizing<Vec<u8>>);

impl KeyMaterial {
    /// Fresh random bytes from the operating system.
    pub(crate) fn random(len: usize) -> Result<Self> {
        let mut k = Zeroizing::new(vec![0u8; len]);
        getrandom::fill(&mut k).map_err(|_| Error::Random)?;
        Ok(KeyMaterial(k))
    }

    /// Copies `bytes` (the caller zeroizes its own copy).
    pub(crate) fn from_slice(bytes: &[u8]) -> Self {
        KeyMaterial(Zeroizing::new(bytes.to_vec()))
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }
}

impl core::fmt::Debug for KeyMaterial {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "KeyMaterial({} bytes, ..)", self.0.len())
    }
}

impl Serialize for KeyMaterial {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&crate::hex::encode_key(&self.0))
    }
}

struct HexVisitor;

impl Visitor<'_> for HexVisitor {
    type Value = KeyMaterial;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("key material as an even number of hex digits")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<KeyMaterial, E> {
        // The message names neither the value nor the offending digit.
        match crate::hex::decode_key(v.as_bytes()) {
            Ok(k) => Ok(KeyMaterial(k)),
            Err(_) => Err(E::custom("key material is not an even number of hex digits")),
        }
    }
}

impl<'de> Deserialize<'de> for KeyMaterial {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_str(HexVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_and_debug_hides_bytes() {
        let k = KeyMaterial::from_slice(&[0xde, 0xad, 0x01]);
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(json, "\"dead01\"");
        assert_eq!(serde_json::from_str::<KeyMaterial>(&json).unwrap(), k);
        assert_eq!(format!("{k:?}"), "KeyMaterial(3 bytes, ..)");
        let err = serde_json::from_str::<KeyMaterial>("\"dexd\"").unwrap_err().to_string();
        assert!(!err.contains("dexd"), "{err}");
        assert!(serde_json::from_str::<KeyMaterial>("\"abc\"").is_err());
    }
}
