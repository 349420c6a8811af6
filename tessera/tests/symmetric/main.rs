//! The symmetric engines: FPE (FF1, FF3-1, FF3), AES-SIV and the AEAD modes,
//! against the standard vectors, the independent implementations and property tests.

#[path = "../common/mod.rs"]
mod common;

// Allocation counts are per thread (common::CountingAlloc), so the tests
// that read them are not disturbed by the others running beside them.
#[global_allocator]
static ALLOC: common::CountingAlloc = common::CountingAlloc;

mod aead_peers;
mod aead_props;
mod aead_vectors;
mod fpe_batch_contract;
mod fpe_interop;
mod fpe_props;
mod fpe_slabs;
mod fpe_vectors;
mod siv_interop;
mod siv_props;
mod siv_vectors;
