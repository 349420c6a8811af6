//! Tink's JSON cleartext keyset, for AES-SIV (`DeterministicAead`) keys.
//!
//! ```json
//! {"primaryKeyId": 1670187505, "key": [{"keyData": {
//!    "typeUrl": "type.googleapis.com/google.crypto.tink.AesSivKey",
//!    "value": "<base64 AesSivKey protobuf>", "keyMaterialType": "SYMMETRIC"},
//!  "status": "ENABLED", "keyId": 1670187505, "outputPrefixType": "TINK"}]}
//! ```
//!
//! `AesSivKey` is `{uint32 version = 1; bytes key_value = 2;}`: version 0
//! and a 64-byte key are all Tink accepts.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use prost::Message as _;
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, Zeroizing};

use super::error::{Error, Result};
use super::material::KeyMaterial;
use super::model::{KeyStatus, KeyVersion, OutputPrefix, SivParams, Transform, TransformParams};
use super::store::json_error;
use super::{Keyset, now};

/// Tink's type URL of AES-SIV keys.
pub const AES_SIV_TYPE_URL: &str = "type.googleapis.com/google.crypto.tink.AesSivKey";

/// The `AesSivKey` protobuf message (tink/proto/aes_siv.proto).
#[derive(Clone, PartialEq, prost::Message)]
struct AesSivKey {
    #[prost(uint32, tag = "1")]
    version: u32,
    #[prost(bytes = "vec", tag = "2")]
    key_value: Vec<u8>,
}

impl Drop for AesSivKey {
    fn drop(&mut self) {
        self.key_value.zeroize();
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TinkKeyset {
    primary_key_id: u32,
    key: Vec<TinkKey>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TinkKey {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    key_data: Option<KeyData>,
    status: String,
    key_id: u32,
    output_prefix_type: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct KeyData {
    type_url: String,
    value: Zeroizing<String>,
    key_material_type: String,
}

/// Octets reserved for a Tink JSON keyset of `keys` keys: each pretty-printed
/// key (its 88 base64 characters of key value included) takes about 300.
fn tink_json_room(keys: usize) -> usize {
    /// The keyset's own fields.
    const FRAME: usize = 64;
    /// One key, with room to spare.
    const PER_KEY: usize = 512;
    FRAME + PER_KEY * keys
}

fn unsupported(msg: String) -> Error {
    Error::TinkUnsupported(msg)
}

fn key_from_tink(k: &TinkKey) -> Result<KeyVersion> {
    let status = match k.status.as_str() {
        "ENABLED" => KeyStatus::Enabled,
        "DISABLED" => KeyStatus::Disabled,
        "DESTROYED" => KeyStatus::Destroyed,
        s => return Err(unsupported(format!("key {} has status {s:?}", k.key_id))),
    };
    let prefix = match k.output_prefix_type.as_str() {
        "TINK" => OutputPrefix::Tink,
        "RAW" => OutputPrefix::Raw,
        p => return Err(unsupported(format!("key {} has output prefix {p:?}; TINK and RAW are supported", k.key_id))),
    };
    let material = match (&k.key_data, status) {
        (None, KeyStatus::Destroyed) => None,
        (None, _) => return Err(unsupported(format!("key {} has no keyData", k.key_id))),
        (Some(d), _) => {
            if d.type_url != AES_SIV_TYPE_URL {
                return Err(unsupported(format!(
                    "key {} is of type {:?}; only AesSivKey is supported",
                    k.key_id, d.type_url
                )));
            }
            let proto = Zeroizing::new(
                B64.decode(d.value.as_bytes())
                    .map_err(|_| unsupported(format!("key {}: value is not base64", k.key_id)))?,
            );
            let key = AesSivKey::decode(proto.as_slice())
                .map_err(|_| unsupported(format!("key {}: value is not an AesSivKey protobuf", k.key_id)))?;
            if key.version != 0 || key.key_value.len() != 64 {
                return Err(unsupported(format!("key {}: AesSivKey must be version 0 with a 64-byte key", k.key_id)));
            }
            (status != KeyStatus::Destroyed).then(|| KeyMaterial::from_slice(&key.key_value))
        }
    };
    Ok(KeyVersion { id: k.key_id, status, created: now(), output_prefix: Some(prefix), material })
}

fn key_to_tink(k: &KeyVersion) -> Result<Option<TinkKey>> {
    let Some(m) = &k.material else { return Ok(None) }; // destroyed keys are left out
    if m.bytes().len() != 64 {
        return Err(unsupported(format!("key {} is {} bytes; Tink's AES-SIV keys are 64", k.id, m.bytes().len())));
    }
    let proto = Zeroizing::new(AesSivKey { version: 0, key_value: m.bytes().to_vec() }.encode_to_vec());
    let status = if k.status == KeyStatus::Enabled { "ENABLED" } else { "DISABLED" };
    let prefix = match k.output_prefix.unwrap_or_default() {
        OutputPrefix::Tink => "TINK",
        OutputPrefix::Raw => "RAW",
    };
    Ok(Some(TinkKey {
        key_data: Some(KeyData {
            type_url: AES_SIV_TYPE_URL.into(),
            value: Zeroizing::new(B64.encode(proto.as_slice())),
            key_material_type: "SYMMETRIC".into(),
        }),
        status: status.into(),
        key_id: k.id,
        output_prefix_type: prefix.into(),
    }))
}

impl Keyset {
    /// Adds the AES-SIV keys of a Tink JSON cleartext keyset as the
    /// transformation `name`, keeping key IDs, statuses, prefixes and the
    /// primary. New keys added later take the primary's prefix type.
    ///
    /// ```
    /// use tessera::keyset::Keyset;
    /// let tink = r#"{"primaryKeyId": 42, "key": [{"keyData": {
    ///   "typeUrl": "type.googleapis.com/google.crypto.tink.AesSivKey",
    ///   "value": "EkAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ///   "keyMaterialType": "SYMMETRIC"}, "status": "ENABLED", "keyId": 42, "outputPrefixType": "TINK"}]}"#;
    /// let mut ks = Keyset::new();
    /// ks.import_tink("tink", tink.as_bytes()).unwrap();
    /// assert_eq!(ks.siv("tink").unwrap().encrypt(b"", b"x").unwrap()[..5], [1, 0, 0, 0, 42]);
    /// assert_eq!(ks.export_tink("tink").unwrap().len() > 0, true);
    /// ```
    pub fn import_tink(&mut self, name: &str, json: &[u8]) -> Result<()> {
        let tink: TinkKeyset = serde_json::from_slice(json).map_err(|e| json_error(&e))?;
        let keys = tink.key.iter().map(key_from_tink).collect::<Result<Vec<_>>>()?;
        let prefix =
            keys.iter().find(|k| k.id == tink.primary_key_id).and_then(|k| k.output_prefix).unwrap_or_default();
        let params = TransformParams::Siv(SivParams { output_prefix: prefix, key_bytes: 64 });
        self.insert(Transform { name: name.into(), primary: tink.primary_key_id, params, keys })
    }

    /// The AES-SIV transformation `name` as a Tink JSON cleartext keyset
    /// (destroyed versions left out). Zeroized on drop.
    pub fn export_tink(&self, name: &str) -> Result<Zeroizing<Vec<u8>>> {
        let t = self.transform(name)?;
        if !matches!(t.params, TransformParams::Siv(_)) {
            return Err(Error::WrongKind {
                name: name.into(),
                actual: t.params.kind_name(),
                wanted: "AES-SIV (Tink has no FPE keys)",
            });
        }
        let key = t.keys.iter().map(key_to_tink).filter_map(Result::transpose).collect::<Result<Vec<_>>>()?;
        // Sized up front: the JSON holds the keys, so the buffer never moves.
        let mut out = Zeroizing::new(Vec::with_capacity(tink_json_room(key.len())));
        serde_json::to_writer_pretty(&mut *out, &TinkKeyset { primary_key_id: t.primary, key })
            .map_err(|e| json_error(&e))?;
        out.push(b'\n');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_buffer_never_moves() {
        let mut ks = Keyset::new();
        ks.import_tink("t", TWO_KEYS.as_bytes()).unwrap();
        let out = ks.export_tink("t").unwrap();
        assert_eq!(out.capacity(), tink_json_room(2));
    }

    const TWO_KEYS: &str = r#"{"primaryKeyId": 1, "key": [
      {"keyData": {"typeUrl": "type.googleapis.com/google.crypto.tink.AesSivKey",
        "value": "EkAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "keyMaterialType": "SYMMETRIC"}, "status": "ENABLED", "keyId": 1, "outputPrefixType": "TINK"},
      {"keyData": {"typeUrl": "type.googleapis.com/google.crypto.tink.AesSivKey",
        "value": "EkAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "keyMaterialType": "SYMMETRIC"}, "status": "ENABLED", "keyId": 2, "outputPrefixType": "RAW"}]}"#;

    #[test]
    fn proto_layout_is_tinks() {
        let p = AesSivKey { version: 0, key_value: vec![7; 64] }.encode_to_vec();
        assert_eq!(p[..2], [0x12, 0x40]); // field 2, length 64; version 0 omitted
        assert_eq!(p.len(), 66);
    }

    #[test]
    fn refuses_other_key_types_and_prefixes() {
        let k = |url: &str, prefix: &str| {
            format!(
                r#"{{"primaryKeyId":1,"key":[{{"keyData":{{"typeUrl":"{url}","value":"","keyMaterialType":"SYMMETRIC"}},"status":"ENABLED","keyId":1,"outputPrefixType":"{prefix}"}}]}}"#
            )
        };
        let gcm = k("type.googleapis.com/google.crypto.tink.AesGcmKey", "TINK");
        let e = Keyset::new().import_tink("t", gcm.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("AesGcmKey"), "{e}");
        let legacy = k(AES_SIV_TYPE_URL, "LEGACY");
        assert!(Keyset::new().import_tink("t", legacy.as_bytes()).unwrap_err().to_string().contains("LEGACY"));
    }
}
