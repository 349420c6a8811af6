//! The tessera command through its binary: FPE, AES-SIV, keysets, OpenPGP
//! messages, keys, signatures and inspection, the shell habits of gpg and sq
//! users, hostile input, and the README's examples.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../../tessera/tests/common/hostile.rs"]
#[allow(dead_code)]
mod hostile;

mod binary_to_a_terminal;
mod cleartext_keeps_the_text;
mod completions_and_man;
mod csv_python_peer;
mod dash_means_stdio;
mod errors_name_the_problem;
mod fpe;
mod fpe_migration;
mod hardening;
mod hostile_certs;
mod hostile_keyrings;
mod hostile_messages;
mod inspect;
mod key;
mod key_defaults_gnupg;
mod key_manage;
mod keyset;
mod keyset_columns;
mod keyset_versions;
mod legacy_keys;
mod openpgp;
mod output_paths;
mod pk;
mod prompts_on_a_terminal;
mod readme_examples;
mod short_flags_and_synonyms;
mod sign;
mod siv;
mod threads_safety;
mod times_are_iso8601;
