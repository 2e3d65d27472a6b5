//! Forecast's prompt files (under `prompts/`, listed in `prompts/README.md`), compiled in.

use crate::engine::config::RoleKind;
pub const ARGUMENT: &str = include_str!("../../../../prompts/forecast/argument.md");
pub const SCORE: &str = include_str!("../../../../prompts/forecast/score.md");
pub const SYNTHESIS: &str = include_str!("../../../../prompts/forecast/synthesis.md");
pub const CUSTOM: &str = include_str!("../../../../prompts/forecast/roles/custom.md");

/// The system prompt file of one of the seed's roles; `None` for a custom role.
pub fn role(kind: RoleKind) -> Option<&'static str> {
    Some(match kind {
        RoleKind::Optimist => include_str!("../../../../prompts/forecast/roles/optimist.md"),
        RoleKind::Pessimist => include_str!("../../../../prompts/forecast/roles/pessimist.md"),
        RoleKind::Contrarian => include_str!("../../../../prompts/forecast/roles/contrarian.md"),
        RoleKind::Historian => include_str!("../../../../prompts/forecast/roles/historian.md"),
        RoleKind::Judge => include_str!("../../../../prompts/forecast/roles/judge.md"),
        RoleKind::Custom => return None,
    })
}
