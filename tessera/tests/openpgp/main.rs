//! OpenPGP: packets, armor, keys and certificates, messages, signatures,
//! hostile input, and interop with GnuPG, Sequoia and OpenPGP.js.

#[path = "../common/mod.rs"]
mod common;

// Allocation counts are per thread (common::CountingAlloc), so the tests
// that read them are not disturbed by the others running beside them.
#[global_allocator]
static ALLOC: common::CountingAlloc = common::CountingAlloc;

mod armor_as_sent;
mod cert_flood;
mod cert_management;
mod copy_from;
mod crypto;
mod decrypt_failures;
mod decrypt_session_keys;
mod hostile_certs;
mod hostile_differential;
mod hostile_keyrings;
mod hostile_messages;
mod inspect;
mod keys;
mod keys_peers;
mod legacy;
mod nested_compression;
mod packets;
mod pk_interop;
mod pk_keys;
mod pk_signatures;
mod rfc9980;
mod sig_limits;
mod sign;
mod sign_hash;
mod sign_peers;
mod sign_props;
mod stream;
mod threads;
mod tolerance;
mod too_lenient;
mod validity_over_time;
mod vectors;
