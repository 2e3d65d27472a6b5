//! Duelogic's prompt files (under `prompts/`, listed in `prompts/README.md`), compiled in.

pub const ARBITER_SYSTEM: &str = include_str!("../../../../prompts/duelogic/arbiter_system.md");
pub const INTRO: &str = include_str!("../../../../prompts/duelogic/intro.md");
pub const CHAIR_SYSTEM: &str = include_str!("../../../../prompts/duelogic/chair_system.md");
pub const CHAIR_TURN: &str = include_str!("../../../../prompts/duelogic/chair_turn.md");
pub const EVALUATION: &str = include_str!("../../../../prompts/duelogic/evaluation.md");
pub const INTERJECTION: &str = include_str!("../../../../prompts/duelogic/interjection.md");
pub const INTERJECTION_ANSWER: &str =
    include_str!("../../../../prompts/duelogic/interjection_answer.md");
pub const INTERRUPT_CHECK: &str = include_str!("../../../../prompts/duelogic/interrupt_check.md");
pub const INTERRUPTION: &str = include_str!("../../../../prompts/duelogic/interruption.md");
pub const RESUME: &str = include_str!("../../../../prompts/duelogic/resume.md");
pub const CLOSING: &str = include_str!("../../../../prompts/duelogic/closing.md");
