//! tessera-sop: every subcommand and its exit codes, certificates, keys,
//! session keys and designators, and its help.

#[path = "../common/mod.rs"]
mod common;

mod cert_management;
mod help;
mod keys;
mod session_keys_and_designators;
