//! Crux's prompt files (under `prompts/`, listed in `prompts/README.md`), compiled in.

pub const PERSONA_SYSTEM: &str = include_str!("../../../../prompts/crux/persona_system.md");
pub const ROOM_OVERLAY: &str = include_str!("../../../../prompts/crux/room_overlay.md");
pub const ANALYST_SYSTEM: &str = include_str!("../../../../prompts/crux/analyst_system.md");
pub const DECOMPOSE: &str = include_str!("../../../../prompts/crux/decompose.md");
pub const OPENING: &str = include_str!("../../../../prompts/crux/opening.md");
pub const TAKE: &str = include_str!("../../../../prompts/crux/take.md");
pub const REACTION: &str = include_str!("../../../../prompts/crux/reaction.md");
pub const REPLY: &str = include_str!("../../../../prompts/crux/reply.md");
pub const ROUND_SUMMARY: &str = include_str!("../../../../prompts/crux/round_summary.md");
pub const DISAGREEMENT: &str = include_str!("../../../../prompts/crux/disagreement.md");
pub const POSITION: &str = include_str!("../../../../prompts/crux/position.md");
pub const EXCHANGE_EARLY: &str = include_str!("../../../../prompts/crux/exchange_early.md");
pub const EXCHANGE_LATE: &str = include_str!("../../../../prompts/crux/exchange_late.md");
pub const EXIT_CHECK: &str = include_str!("../../../../prompts/crux/exit_check.md");
pub const CONVERGENCE: &str = include_str!("../../../../prompts/crux/convergence.md");
pub const CARD: &str = include_str!("../../../../prompts/crux/card.md");
pub const CLOSING: &str = include_str!("../../../../prompts/crux/closing.md");
pub const SHIFTS: &str = include_str!("../../../../prompts/crux/shifts.md");
pub const FINAL_SUMMARY: &str = include_str!("../../../../prompts/crux/final_summary.md");
