//! Runs debates.
