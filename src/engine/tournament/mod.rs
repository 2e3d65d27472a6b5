//! Tournaments: contestants debate every motion against each other twice with sides
//! swapped, a judge or a panel decides each debate blind, and the results rank the models.
//! Everything here is pure: the browser's runner feeds it finished debates and verdicts.

pub mod agreement;
pub mod cost;
pub mod progress;
pub mod rating;
pub mod schedule;
pub mod spec;
pub mod standings;
pub mod verdict;
pub mod you;
