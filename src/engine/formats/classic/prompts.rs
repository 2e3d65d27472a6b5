//! Classic's prompt files (under `prompts/`, listed in `prompts/README.md`), compiled in.

pub const MODERATOR_SYSTEM: &str = include_str!("../../../../prompts/classic/moderator_system.md");
pub const POSITION_SYSTEM: &str = include_str!("../../../../prompts/classic/position_system.md");
pub const MODERATOR_OPENING: &str =
    include_str!("../../../../prompts/classic/moderator_opening.md");
pub const OPENING: &str = include_str!("../../../../prompts/classic/opening.md");
pub const ARGUMENT: &str = include_str!("../../../../prompts/classic/argument.md");
pub const REBUTTAL: &str = include_str!("../../../../prompts/classic/rebuttal.md");
pub const CLOSING: &str = include_str!("../../../../prompts/classic/closing.md");
pub const ROUND_SUMMARY: &str = include_str!("../../../../prompts/classic/round_summary.md");
pub const FINAL_SUMMARY: &str = include_str!("../../../../prompts/classic/final_summary.md");
pub const SCORING: &str = include_str!("../../../../prompts/classic/scoring.md");
pub const ROUND_EXPLANATION: &str =
    include_str!("../../../../prompts/classic/round_explanation.md");
pub const RULING: &str = include_str!("../../../../prompts/classic/ruling.md");
pub const FACT_CHECK: &str = include_str!("../../../../prompts/classic/fact_check.md");
/// Each configuration's rules and scoring weights, as data.
pub const CONFIGURATIONS: &str = include_str!("../../../../prompts/classic/configurations.json");

pub fn style(style: crate::engine::config::ClassicStyle) -> &'static str {
    use crate::engine::config::ClassicStyle::*;
    match style {
        Formal => include_str!("../../../../prompts/classic/styles/formal.md"),
        Casual => include_str!("../../../../prompts/classic/styles/casual.md"),
        Educational => include_str!("../../../../prompts/classic/styles/educational.md"),
        Competitive => include_str!("../../../../prompts/classic/styles/competitive.md"),
    }
}
