//! tessera-sop: every subcommand and its exit codes, certificates, keys,
//! session keys and designators, its help, and RFC 9980: hostile input,
//! and keys and messages both ways with rsop.

#[path = "../common/mod.rs"]
mod common;

mod cert_management;
mod help;
mod keys;
mod rfc9980_hostile;
mod rfc9980_rsop;
mod session_keys_and_designators;
