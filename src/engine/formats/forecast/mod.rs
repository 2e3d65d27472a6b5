//! The forecast panel (seed 001).

pub mod consensus;
