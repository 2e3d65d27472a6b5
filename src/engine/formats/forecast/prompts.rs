//! Forecast's prompt files (under `prompts/`, listed in `prompts/README.md`), compiled in.

pub const ARGUMENT: &str = include_str!("../../../../prompts/forecast/argument.md");
pub const SCORE: &str = include_str!("../../../../prompts/forecast/score.md");
pub const SYNTHESIS: &str = include_str!("../../../../prompts/forecast/synthesis.md");
pub const CUSTOM: &str = include_str!("../../../../prompts/forecast/roles/custom.md");

/// The system prompt file of one of the seed's roles; `None` for a custom role.
pub fn role(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "optimist" => include_str!("../../../../prompts/forecast/roles/optimist.md"),
        "pessimist" => include_str!("../../../../prompts/forecast/roles/pessimist.md"),
        "contrarian" => include_str!("../../../../prompts/forecast/roles/contrarian.md"),
        "historian" => include_str!("../../../../prompts/forecast/roles/historian.md"),
        "judge" => include_str!("../../../../prompts/forecast/roles/judge.md"),
        _ => return None,
    })
}
