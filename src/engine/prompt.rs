//! Prompt templates: text files under `prompts/`, compiled in with `include_str!` so a prompt
//! can be read and changed without reading Rust. `{{name}}` is replaced by a value; an
//! unknown name is left visible rather than silently dropped, and tests render every template
//! with every variable it uses.

pub const JSON_REPAIR: &str = include_str!("../../prompts/json_repair.md");

pub mod classic {
    pub const MODERATOR_SYSTEM: &str = include_str!("../../prompts/classic/moderator_system.md");
    pub const POSITION_SYSTEM: &str = include_str!("../../prompts/classic/position_system.md");
    pub const MODERATOR_OPENING: &str = include_str!("../../prompts/classic/moderator_opening.md");
    pub const OPENING: &str = include_str!("../../prompts/classic/opening.md");
    pub const ARGUMENT: &str = include_str!("../../prompts/classic/argument.md");
    pub const REBUTTAL: &str = include_str!("../../prompts/classic/rebuttal.md");
    pub const CLOSING: &str = include_str!("../../prompts/classic/closing.md");
    pub const ROUND_SUMMARY: &str = include_str!("../../prompts/classic/round_summary.md");
    pub const FINAL_SUMMARY: &str = include_str!("../../prompts/classic/final_summary.md");
    pub const SCORING: &str = include_str!("../../prompts/classic/scoring.md");
    pub const FACT_CHECK: &str = include_str!("../../prompts/classic/fact_check.md");
    /// Each configuration's rules and scoring weights, as data.
    pub const CONFIGURATIONS: &str = include_str!("../../prompts/classic/configurations.json");

    pub fn style(style: crate::engine::config::ClassicStyle) -> &'static str {
        use crate::engine::config::ClassicStyle::*;
        match style {
            Formal => include_str!("../../prompts/classic/styles/formal.md"),
            Casual => include_str!("../../prompts/classic/styles/casual.md"),
            Educational => include_str!("../../prompts/classic/styles/educational.md"),
            Competitive => include_str!("../../prompts/classic/styles/competitive.md"),
        }
    }
}

pub mod duelogic {
    pub const ARBITER_SYSTEM: &str = include_str!("../../prompts/duelogic/arbiter_system.md");
    pub const INTRO: &str = include_str!("../../prompts/duelogic/intro.md");
    pub const CHAIR_SYSTEM: &str = include_str!("../../prompts/duelogic/chair_system.md");
    pub const CHAIR_TURN: &str = include_str!("../../prompts/duelogic/chair_turn.md");
    pub const EVALUATION: &str = include_str!("../../prompts/duelogic/evaluation.md");
    pub const INTERJECTION: &str = include_str!("../../prompts/duelogic/interjection.md");
    pub const INTERJECTION_ANSWER: &str =
        include_str!("../../prompts/duelogic/interjection_answer.md");
    pub const INTERRUPT_CHECK: &str = include_str!("../../prompts/duelogic/interrupt_check.md");
    pub const INTERRUPTION: &str = include_str!("../../prompts/duelogic/interruption.md");
    pub const RESUME: &str = include_str!("../../prompts/duelogic/resume.md");
    pub const CLOSING: &str = include_str!("../../prompts/duelogic/closing.md");
}

pub mod crux {
    pub const PERSONA_SYSTEM: &str = include_str!("../../prompts/crux/persona_system.md");
    pub const ROOM_OVERLAY: &str = include_str!("../../prompts/crux/room_overlay.md");
    pub const ANALYST_SYSTEM: &str = include_str!("../../prompts/crux/analyst_system.md");
    pub const DECOMPOSE: &str = include_str!("../../prompts/crux/decompose.md");
    pub const OPENING: &str = include_str!("../../prompts/crux/opening.md");
    pub const TAKE: &str = include_str!("../../prompts/crux/take.md");
    pub const REACTION: &str = include_str!("../../prompts/crux/reaction.md");
    pub const REPLY: &str = include_str!("../../prompts/crux/reply.md");
    pub const ROUND_SUMMARY: &str = include_str!("../../prompts/crux/round_summary.md");
    pub const DISAGREEMENT: &str = include_str!("../../prompts/crux/disagreement.md");
    pub const POSITION: &str = include_str!("../../prompts/crux/position.md");
    pub const EXCHANGE_EARLY: &str = include_str!("../../prompts/crux/exchange_early.md");
    pub const EXCHANGE_LATE: &str = include_str!("../../prompts/crux/exchange_late.md");
    pub const EXIT_CHECK: &str = include_str!("../../prompts/crux/exit_check.md");
    pub const CONVERGENCE: &str = include_str!("../../prompts/crux/convergence.md");
    pub const CARD: &str = include_str!("../../prompts/crux/card.md");
    pub const CLOSING: &str = include_str!("../../prompts/crux/closing.md");
    pub const SHIFTS: &str = include_str!("../../prompts/crux/shifts.md");
    pub const FINAL_SUMMARY: &str = include_str!("../../prompts/crux/final_summary.md");
}

pub mod forecast {
    pub const ARGUMENT: &str = include_str!("../../prompts/forecast/argument.md");
    pub const SCORE: &str = include_str!("../../prompts/forecast/score.md");
    pub const SYNTHESIS: &str = include_str!("../../prompts/forecast/synthesis.md");
    pub const CUSTOM: &str = include_str!("../../prompts/forecast/roles/custom.md");

    /// The system prompt file of one of the seed's roles; `None` for a custom role.
    pub fn role(kind: &str) -> Option<&'static str> {
        Some(match kind {
            "optimist" => include_str!("../../prompts/forecast/roles/optimist.md"),
            "pessimist" => include_str!("../../prompts/forecast/roles/pessimist.md"),
            "contrarian" => include_str!("../../prompts/forecast/roles/contrarian.md"),
            "historian" => include_str!("../../prompts/forecast/roles/historian.md"),
            "judge" => include_str!("../../prompts/forecast/roles/judge.md"),
            _ => return None,
        })
    }
}

/// Replaces `{{name}}` with its value. Values are inserted once and never re-scanned, so a
/// topic or a model's text containing `{{…}}` cannot inject another variable.
pub fn render(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) => {
                let name = after[..end].trim();
                match vars.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[start..start + 2 + end + 2]),
                }
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// The `{{names}}` a template uses.
pub fn variables(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { break };
        let name = after[..end].trim().to_string();
        if !out.contains(&name) {
            out.push(name);
        }
        rest = &after[end + 2..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_not_rescanned_for_variables() {
        let out = render(
            "Topic: {{topic}} / {{side}}",
            &[("topic", "{{side}} injected"), ("side", "A")],
        );
        assert_eq!(out, "Topic: {{side}} injected / A");
    }

    #[test]
    fn unknown_variables_stay_visible() {
        assert_eq!(render("Hi {{who}}", &[]), "Hi {{who}}");
        assert_eq!(variables("{{a}} {{ b }} {{a}}"), vec!["a", "b"]);
    }
}
