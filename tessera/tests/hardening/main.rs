//! Attackers' input: every bit flip rejected, no panic on any input, I/O
//! failures reported, bounded allocations, and every past fuzz crash replayed.

#[path = "../common/mod.rs"]
mod common;

// Allocation counts are per thread (common::CountingAlloc), so the tests
// that read them are not disturbed by the others running beside them.
#[global_allocator]
static ALLOC: common::CountingAlloc = common::CountingAlloc;

mod alloc;
mod flips;
mod flips_modes;
mod fuzz_regressions;
mod io;
mod panics;
mod panics_openpgp;
