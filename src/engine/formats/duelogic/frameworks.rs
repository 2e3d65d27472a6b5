//! The framework catalogue (`prompts/duelogic/frameworks.json`), plus the user's own.

use crate::engine::config::{DuelogicOptions, Framework};

const CATALOGUE: &str = include_str!("../../../../prompts/duelogic/frameworks.json");

/// The built-in frameworks, read once: a tournament's set-up looks them up for each of its
/// hundreds of debates. The file ships with the app and a test reads it, so a broken file
/// fails the build's tests rather than a user's debate.
fn built_in() -> &'static [Framework] {
    static READ: std::sync::OnceLock<Vec<Framework>> = std::sync::OnceLock::new();
    READ.get_or_init(|| serde_json::from_str(CATALOGUE).unwrap_or_default())
}

/// The built-in frameworks.
pub fn catalogue() -> Vec<Framework> {
    built_in().to_vec()
}

/// A framework by id: the user's own first, then the catalogue.
pub fn find(options: &DuelogicOptions, id: &str) -> Option<Framework> {
    options
        .frameworks
        .iter()
        .chain(built_in())
        .find(|f| f.id == id)
        .cloned()
}

/// Checks a user's framework, naming the field that is wrong.
pub fn validate(f: &Framework) -> Result<(), String> {
    let fields = [
        ("id", &f.id),
        ("name", &f.name),
        ("description", &f.description),
        ("core question", &f.core_question),
    ];
    for (name, value) in fields {
        if value.trim().is_empty() {
            return Err(format!("A framework needs a {name}."));
        }
        if value.chars().count() > 600 {
            return Err(format!(
                "The framework's {name} is too long (600 characters at most)."
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_has_every_required_framework_complete() {
        let all = catalogue();
        for id in [
            "utilitarian",
            "virtue",
            "deontological",
            "pragmatic",
            "libertarian",
            "communitarian",
            "cosmopolitan",
            "precautionary",
            "autonomy",
            "care",
        ] {
            let f = all
                .iter()
                .find(|f| f.id == id)
                .unwrap_or_else(|| panic!("{id}"));
            assert!(validate(f).is_ok());
            assert!(!f.strengths.is_empty() && !f.blind_spots.is_empty(), "{id}");
        }
    }

    #[test]
    fn a_users_framework_wins_over_the_catalogue_and_is_checked() {
        let mut o = DuelogicOptions::default();
        let mut mine = catalogue()[0].clone();
        mine.name = "My utilitarianism".into();
        o.frameworks.push(mine);
        assert_eq!(find(&o, "utilitarian").unwrap().name, "My utilitarianism");
        let mut bad = catalogue()[1].clone();
        bad.core_question = " ".into();
        assert_eq!(
            validate(&bad).unwrap_err(),
            "A framework needs a core question."
        );
    }
}
