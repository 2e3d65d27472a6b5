//! The council's prompt files (under `prompts/council/`, listed in `prompts/README.md`).

pub const MEMBER_SYSTEM: &str = include_str!("../../../../prompts/council/member_system.md");
pub const ANSWER: &str = include_str!("../../../../prompts/council/answer.md");
pub const REVISE: &str = include_str!("../../../../prompts/council/revise.md");
pub const REVIEW: &str = include_str!("../../../../prompts/council/review.md");
pub const REVIEW_PERSON: &str = include_str!("../../../../prompts/council/review_person.md");
pub const CHAIR_SYSTEM: &str = include_str!("../../../../prompts/council/chair_system.md");
pub const FINAL: &str = include_str!("../../../../prompts/council/final.md");
pub const MINORITY: &str = include_str!("../../../../prompts/council/minority.md");
pub const ANALYST_SYSTEM: &str = include_str!("../../../../prompts/council/analyst_system.md");
pub const VOTE: &str = include_str!("../../../../prompts/council/vote.md");
pub const VERDICT: &str = include_str!("../../../../prompts/council/verdict.md");
