//! Fuzz harnesses for tessera. The logic lives in `harness.rs` so that
//! `tessera/tests/hardening/fuzz_regressions.rs` can replay the seeds and past crashes
//! through exactly the same code under `cargo test`.

#[path = "harness.rs"]
pub mod harness;

#[path = "keys.rs"]
pub mod keys;
