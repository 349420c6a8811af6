//! The fuzz harnesses, one public function per target.
//!
//! Every function takes arbitrary bytes, must never panic on them, and
//! panics (an `assert!`) only when tessera breaks one of its own promises:
//! a round trip that does not round-trip, two ways of computing the same
//! thing that disagree, a failed decryption that leaves plaintext behind.
//!
//! This file is shared: the fuzz targets in `fuzz/fuzz_targets/` call it,
//! and `tessera/tests/hardening/fuzz_regressions.rs` includes it (`#[path]`) to replay
//! the committed seeds and every past crash under `cargo test`. It uses only
//! tessera's public API and std. Each target has its own module; what they
//! share is in [`common`].

mod armor;
pub mod common;
mod decrypt;
pub mod decrypt_key;
mod fpe;
mod inspect;
mod packets;
pub mod sig;
mod siv;

pub use armor::armor_decode;
pub use common::{FUZZ_LIMITS, PASSWORD, SESSION_KEY, V2_SALT};
pub use decrypt::{decrypt_password, decrypt_session_key, s2k_cost, seal_v1, seal_v2};
pub use decrypt_key::decrypt_key;
pub use fpe::fpe_text;
pub use inspect::inspect;
pub use packets::packet_parse;
pub use sig::sig_parse;
pub use siv::siv_decrypt;
