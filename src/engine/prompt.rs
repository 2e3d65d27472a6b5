//! Prompt templates: text files under `prompts/`, compiled in with `include_str!` so a prompt
//! can be read and changed without reading Rust. `{{name}}` is replaced by a value; an
//! unknown name is left visible rather than silently dropped, and tests render every template
//! with every variable it uses.

pub const JSON_REPAIR: &str = include_str!("../../prompts/json_repair.md");

// Each format's prompt files are named in its folder (`formats/<format>/prompts.rs`).
pub use super::formats::classic::prompts as classic;
pub use super::formats::council::prompts as council;
pub use super::formats::crux::prompts as crux;
pub use super::formats::duelogic::prompts as duelogic;
pub use super::formats::forecast::prompts as forecast;

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
