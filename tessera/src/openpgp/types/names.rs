//! The names users give the OpenPGP choices (`aes256`, `ocb`, `rfc4880`,
//! `argon2`), parsed once for every front end.
//!
//! ```
//! use tessera::aead::Mode;
//! use tessera::openpgp::{Profile, S2kKind, SymAlg};
//! assert_eq!("aes128".parse::<SymAlg>().unwrap(), SymAlg::Aes128);
//! assert_eq!("gcm".parse::<Mode>().unwrap(), Mode::Gcm);
//! assert_eq!("rfc4880".parse::<Profile>().unwrap(), Profile::Rfc4880);
//! assert_eq!("iterated".parse::<S2kKind>().unwrap(), S2kKind::Iterated);
//! assert!("AES256".parse::<SymAlg>().is_err());
//! ```

use core::str::FromStr;

use super::{Error, HashAlg, Profile, S2kKind, SymAlg};
use crate::aead::Mode;

/// Gives a type its names: `NAMES` and `name()` in one order, and
/// `FromStr` accepting exactly those names.
macro_rules! named {
    ($ty:ident, $err:literal, $( $variant:ident => $name:literal ),+ $(,)?) => {
        impl $ty {
            /// The names [`FromStr`] accepts, in declaration order.
            ///
            #[doc = concat!("```\nuse tessera::aead::Mode;\nuse tessera::openpgp::{Profile, S2kKind, SymAlg};\n",
                "for name in ", stringify!($ty), "::NAMES {\n",
                "    assert_eq!(name.parse::<", stringify!($ty), ">().unwrap().name(), *name);\n}\n```")]
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The name [`FromStr`] accepts for this value.
            ///
            #[doc = concat!("```\nuse tessera::aead::Mode;\nuse tessera::openpgp::{Profile, S2kKind, SymAlg};\n",
                "let first: ", stringify!($ty), " = ", stringify!($ty), "::NAMES[0].parse().unwrap();\n",
                "assert_eq!(first.name(), ", stringify!($ty), "::NAMES[0]);\n",
                "assert!(first.name().to_uppercase().parse::<", stringify!($ty), ">().is_err()); // exact names only\n```")]
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl FromStr for $ty {
            type Err = Error;

            /// Parses one of the names in `NAMES` (exactly: lowercase, no spaces).
            fn from_str(name: &str) -> Result<Self, Error> {
                match name {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(Error::InvalidOption($err)),
                }
            }
        }
    };
}

named!(SymAlg, "unknown cipher; expected one of aes128, aes192, aes256",
    Aes128 => "aes128", Aes192 => "aes192", Aes256 => "aes256");
named!(Mode, "unknown AEAD mode; expected one of ocb, eax, gcm",
    Ocb => "ocb", Eax => "eax", Gcm => "gcm");
named!(Profile, "unknown profile; expected one of rfc9580, rfc4880",
    Rfc9580 => "rfc9580", Rfc4880 => "rfc4880");
named!(S2kKind, "unknown S2K; expected one of argon2, iterated",
    Argon2 => "argon2", Iterated => "iterated");

/// The names of [`HashAlg::SIGNING`] as RFC 9580 writes them (`SHA256`,
/// `SHA3-512`), exactly.
impl FromStr for HashAlg {
    type Err = Error;

    fn from_str(name: &str) -> Result<Self, Error> {
        HashAlg::SIGNING
            .into_iter()
            .find(|h| h.name() == name)
            .ok_or(Error::InvalidOption("unknown hash; expected one of SHA256, SHA384, SHA512, SHA3-256, SHA3-512"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: FromStr<Err = Error> + PartialEq + core::fmt::Debug + Copy>(
        names: &[&str],
        name: impl Fn(T) -> &'static str,
    ) {
        for &n in names {
            let v: T = n.parse().unwrap();
            assert_eq!(name(v), n);
        }
        for bad in ["", "x", " ocb", "AES128", "Rfc9580", "argon2id", "aes-256"] {
            let e = bad.parse::<T>().unwrap_err();
            assert!(matches!(e, Error::InvalidOption(m) if m.starts_with("unknown ")), "{bad:?}: {e}");
        }
    }

    #[test]
    fn every_name_parses_back_and_nothing_else_does() {
        round_trip::<SymAlg>(SymAlg::NAMES, SymAlg::name);
        round_trip::<Mode>(Mode::NAMES, Mode::name);
        round_trip::<Profile>(Profile::NAMES, Profile::name);
        round_trip::<S2kKind>(S2kKind::NAMES, S2kKind::name);
        assert_eq!(SymAlg::NAMES, ["aes128", "aes192", "aes256"]);
        assert_eq!("aes256".parse::<SymAlg>().unwrap().key_len(), 32);
        assert_eq!("eax".parse::<Mode>().unwrap().id(), 1);
    }

    #[test]
    fn for_profile_defaults_and_conflicts() {
        use crate::openpgp::{EncryptOptions, S2kChoice};
        let opts = |p, s| EncryptOptions::for_profile(p, s, 96);
        assert_eq!(opts(Profile::Rfc9580, None).unwrap().s2k, S2kChoice::default());
        assert_eq!(opts(Profile::Rfc4880, None).unwrap().s2k, S2kChoice::Iterated { count_octet: 96 });
        assert_eq!(
            opts(Profile::Rfc9580, Some(S2kKind::Iterated)).unwrap().s2k,
            S2kChoice::Iterated { count_octet: 96 }
        );
        assert_eq!(opts(Profile::Rfc9580, Some(S2kKind::Argon2)).unwrap().s2k, S2kChoice::default());
        assert_eq!(opts(Profile::Rfc4880, Some(S2kKind::Iterated)).unwrap().profile, Profile::Rfc4880);
        let e = opts(Profile::Rfc4880, Some(S2kKind::Argon2)).unwrap_err();
        assert!(matches!(e, Error::InvalidOption(m) if m.contains("RFC 9580")), "{e}");
        // Everything else is the default.
        let o = opts(Profile::Rfc4880, None).unwrap();
        let d = EncryptOptions::default();
        assert_eq!(
            (o.cipher, o.aead, o.chunk_octet, o.armor, o.date),
            (d.cipher, d.aead, d.chunk_octet, d.armor, d.date)
        );
    }
}
