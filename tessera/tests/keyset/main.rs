//! Keysets: versioned keys, rotation, the file at rest, batches, card and date
//! transformations, and Tink's wire format.

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod cards_and_dates;
mod lifecycle;
mod tink;
mod versions;
