//! The setup screen's sources as plain data: the documents a debate carries, numbered
//! `S1`, `S2`… in order whatever is removed, at most `MAX_SOURCES`, and the pasted-text
//! form. `ui::sources_form` binds to it (reading a file is the browser's part).

use crate::engine::sources::{user_id, Origin, Source, MAX_SOURCES};

/// The id the next source gets, or why there is no room for it (`what`: how it is named).
pub fn next_id(sources: &[Source], what: &str) -> Result<String, String> {
    if sources.len() >= MAX_SOURCES {
        return Err(format!(
            "{what}was not added: a debate may carry up to {MAX_SOURCES} sources."
        ));
    }
    Ok(user_id(sources.len() + 1))
}

/// Adds a source read from a file; the list is numbered again.
pub fn add(sources: &mut Vec<Source>, source: Source) {
    sources.push(source);
    renumber(sources);
}

/// Removes the `i`-th source; the rest are numbered again so their ids stay in order.
pub fn remove(sources: &mut Vec<Source>, i: usize) {
    if i < sources.len() {
        sources.remove(i);
        renumber(sources);
    }
}

fn renumber(sources: &mut [Source]) {
    for (i, s) in sources.iter_mut().enumerate() {
        s.id = user_id(i + 1);
    }
}

/// Where a source came from and how long it is, as its line in the list says.
pub fn describe(s: &Source) -> String {
    let from = match &s.origin {
        Origin::File { name } => name.clone(),
        Origin::Pasted => "pasted".into(),
        Origin::Evidence => "evidence".into(),
        Origin::Web { url } => url.clone(),
    };
    format!(" · {from} · {} characters", s.text.chars().count())
}

/// The section's heading: what it is for, or how many it holds.
pub fn summary(count: usize) -> String {
    match count {
        0 => "Sources (optional): documents the debaters may quote".to_string(),
        n => format!(
            "Sources: {} the debaters may quote",
            crate::engine::reading::count(n, "document")
        ),
    }
}

/// Text pasted as a source, with its title (empty: "Pasted text n").
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pasted {
    pub title: String,
    pub text: String,
}

impl Pasted {
    /// Adds it to `sources`, or says why not (the list, and this form, stay as they were).
    pub fn add_to(&self, sources: &mut Vec<Source>) -> Result<(), String> {
        let id = next_id(sources, "This text ")?;
        let title = match self.title.trim() {
            "" => format!("Pasted text {}", sources.len() + 1),
            t => t.to_string(),
        };
        let source =
            Source::new(id, &title, Origin::Pasted, &self.text).map_err(|p| p.to_string())?;
        sources.push(source);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pasted(title: &str, text: &str) -> Pasted {
        Pasted {
            title: title.into(),
            text: text.into(),
        }
    }

    #[test]
    fn sources_stay_numbered_in_order_after_a_removal() {
        let mut all = Vec::new();
        for t in ["One", "Two", "Three"] {
            pasted(t, &format!("{t} says the charge cut traffic."))
                .add_to(&mut all)
                .unwrap();
        }
        remove(&mut all, 0);
        let ids: Vec<(&str, &str)> = all
            .iter()
            .map(|s| (s.id.as_str(), s.title.as_str()))
            .collect();
        assert_eq!(ids, [("S1", "Two"), ("S2", "Three")]);
        assert_eq!(
            summary(all.len()),
            "Sources: 2 documents the debaters may quote"
        );
        assert!(
            describe(&all[0]).starts_with(" · pasted · "),
            "{}",
            describe(&all[0])
        );
    }

    #[test]
    fn untitled_text_is_named_empty_text_is_refused_and_the_list_has_a_limit() {
        let mut all = Vec::new();
        pasted(" ", "Retail sales did not fall.")
            .add_to(&mut all)
            .unwrap();
        assert_eq!(all[0].title, "Pasted text 1");
        assert!(pasted("Empty", "   ").add_to(&mut all).is_err());
        assert_eq!(all.len(), 1);
        while all.len() < MAX_SOURCES {
            pasted("", "More text.").add_to(&mut all).unwrap();
        }
        let full = pasted("", "One too many.").add_to(&mut all).unwrap_err();
        assert!(
            full.contains(&format!("up to {MAX_SOURCES} sources")),
            "{full}"
        );
        let file = next_id(&all, "“report.pdf” ").unwrap_err();
        assert!(file.starts_with("“report.pdf” was not added"), "{file}");
    }
}
