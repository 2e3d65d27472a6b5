//! The example debates of the gallery (`www/examples/*.json`), written for Agora. Each is
//! made by running its format on a scripted model whose answers are the example's text
//! (`gallery/<name>.json`: the format, the topic, the set-up where it is not the default,
//! and the script), so every finding in it (scores, rankings, consensus, quote checks) is
//! what the format computes, never what a writer typed. The test fails when an example in
//! `www/examples/` is not what its script makes, or when any call of it is not scripted.
//!
//! `AGORA_GALLERY=write cargo test gallery` writes the examples anew;
//! `AGORA_GALLERY_CALLS=DIR` also writes, per example, every call it made with its prompt
//! and the answer's schema (`DIR/<name>.calls.md`), which is what a writer answers;
//! `AGORA_GALLERY_ONLY=<name>` makes (or checks) that example alone.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::scripted::{run_scripted_at, Scripted};
use crate::engine::config::{DebateConfig, FormatId, Participant};
use crate::engine::context::Inputs;
use crate::engine::event::Outcome;
use crate::engine::export::{import, to_json};
use crate::engine::formats::defaults::default_config;
use crate::engine::script::Script;

/// One example's source.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Source {
    format: FormatId,
    topic: String,
    /// The whole set-up, where the format's default one will not do.
    #[serde(default)]
    config: Option<DebateConfig>,
    /// When the debate started (UTC, milliseconds since 1970).
    started_ms: u64,
    /// Wait between streamed words, so that a replay streams as a model would.
    #[serde(default = "word_ms")]
    word_ms: u64,
    script: Script,
}

fn word_ms() -> u64 {
    40
}

/// The examples' seats: a model written for Agora, free, on no real connection.
pub fn writer(_seat: &str) -> Participant {
    Participant::Model {
        connection: "example".into(),
        connection_label: "Example written for Agora".into(),
        model: "example".into(),
        context_tokens: 128_000,
        price: None,
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The gallery's sources, by name.
fn sources() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(root().join("gallery"))
        .expect("the gallery folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

/// The example's set-up, its script as played, and the run.
fn make(path: &Path) -> (DebateConfig, Script, Scripted) {
    let text = std::fs::read_to_string(path).expect("read the source");
    let source: Source = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not a gallery source: {e}", path.display()));
    let config = source
        .config
        .unwrap_or_else(|| default_config(source.format, &source.topic, &writer));
    assert_eq!(config.options.format(), source.format, "{}", path.display());
    let mut script = source.script;
    for a in &mut script.answers {
        if a.chunk_delay_ms == 0 {
            a.chunk_delay_ms = source.word_ms;
        }
    }
    let run = run_scripted_at(
        config.clone(),
        script.clone(),
        Inputs::new(),
        source.started_ms,
    );
    (config, script, run)
}

/// Each request's occurrence: how many earlier requests had its seat and purpose (as the
/// scripted model counts them to match an answer).
fn occurrences(run: &Scripted) -> Vec<u32> {
    let mut seen = std::collections::HashMap::new();
    run.requests
        .iter()
        .map(|r| {
            let n = seen.entry((r.seat.clone(), r.purpose.id())).or_insert(0u32);
            *n += 1;
            *n - 1
        })
        .collect()
}

/// The calls no answer of the script matched (they got filler).
fn unscripted(script: &Script, run: &Scripted) -> Vec<String> {
    run.requests
        .iter()
        .zip(occurrences(run))
        .filter(|(r, n)| {
            !script
                .answers
                .iter()
                .any(|a| a.matches(&r.seat, r.purpose.id(), &r.call, *n))
        })
        .map(|(r, _)| r.call.clone())
        .collect()
}

/// Every call with what it was sent, for the writer of the answers.
fn calls_md(config: &DebateConfig, script: &Script, run: &Scripted) -> String {
    let missing = unscripted(script, run);
    let mut md = format!(
        "# Calls\n\nThe set-up used:\n\n```json\n{}\n```\n\n",
        serde_json::to_string_pretty(config).unwrap()
    );
    for (r, n) in run.requests.iter().zip(occurrences(run)) {
        md.push_str(&format!(
            "## `{}`{}\n\nseat `{}`, purpose `{}`, occurrence {}, at most {} tokens\n\n",
            r.call,
            if missing.contains(&r.call) {
                " (NOT SCRIPTED: filler)"
            } else {
                ""
            },
            r.seat,
            r.purpose.id(),
            n,
            r.max_tokens
        ));
        if let Some(s) = &r.schema {
            md.push_str(&format!(
                "Answer schema:\n\n```json\n{}\n```\n\n",
                serde_json::to_string(s).unwrap()
            ));
        }
        for m in &r.messages {
            md.push_str(&format!(
                "### {:?}\n\n```text\n{}\n```\n\n",
                m.role, m.content
            ));
        }
    }
    md
}

#[test]
fn gallery_examples_are_what_their_scripts_make() {
    let write = std::env::var("AGORA_GALLERY").is_ok_and(|v| v == "write");
    let calls = std::env::var("AGORA_GALLERY_CALLS").ok();
    // One example alone, while its script is being written.
    let only = std::env::var("AGORA_GALLERY_ONLY").ok();
    let mut problems = Vec::new();
    for (name, path) in sources() {
        if only.as_ref().is_some_and(|o| *o != name) {
            continue;
        }
        let (config, script, run) = make(&path);
        if let Some(dir) = &calls {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(
                Path::new(dir).join(format!("{name}.calls.md")),
                calls_md(&config, &script, &run),
            )
            .unwrap();
        }
        let missing = unscripted(&script, &run);
        if !missing.is_empty() {
            problems.push(format!(
                "{name}: calls not scripted: {}",
                missing.join(", ")
            ));
        }
        if run.outcome != Outcome::Completed {
            problems.push(format!("{name}: the debate ended {:?}", run.outcome));
        }
        if !run.warnings.is_empty() {
            problems.push(format!("{name}: {}", run.warnings.join("; ")));
        }
        let made = to_json(&run.events);
        let example = root().join("www/examples").join(format!("{name}.json"));
        if write {
            std::fs::write(&example, &made).unwrap();
        } else if std::fs::read_to_string(&example).ok().as_deref() != Some(made.as_str()) {
            problems.push(format!(
                "{name}: www/examples/{name}.json is not what gallery/{name}.json makes \
                 (AGORA_GALLERY=write cargo test gallery writes it)"
            ));
        }
        // What the app reads back is what was made.
        match import(&made) {
            Ok(back) if back.len() == run.events.len() => {}
            Ok(_) => problems.push(format!("{name}: does not read back as it was made")),
            Err(e) => problems.push(format!("{name}: does not import: {e}")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_gallery_has_every_format() {
    let formats: Vec<FormatId> = sources()
        .iter()
        .map(|(_, p)| {
            serde_json::from_str::<Source>(&std::fs::read_to_string(p).unwrap())
                .unwrap()
                .format
        })
        .collect();
    for f in [
        FormatId::Classic,
        FormatId::Duelogic,
        FormatId::Forecast,
        FormatId::Crux,
        FormatId::Council,
    ] {
        assert!(formats.contains(&f), "no example of {f:?}");
    }
}

/// The findings of each example in `www/examples/`, read back as the app reads the file and
/// checked the way a careful reader would check them: nothing failed or filler, every
/// structured answer read at the first try, and each format's figures adding up as Agora
/// computes them (not as a writer typed them).
#[test]
fn each_example_reads_back_and_its_findings_add_up() {
    use crate::engine::event::{EventKind, ReadOutcome};
    use crate::engine::finding::FindingBody;
    use crate::engine::formats::council::findings::CouncilFinding;
    use crate::engine::formats::council::tally::{borda, Cast};
    use crate::engine::formats::forecast::types::ForecastFinding;
    use crate::engine::log_view::{LogView, TurnStatus};

    let only = std::env::var("AGORA_GALLERY_ONLY").ok();
    for (name, _) in sources() {
        if only.as_ref().is_some_and(|o| *o != name) {
            continue;
        }
        let text = std::fs::read_to_string(root().join(format!("www/examples/{name}.json")))
            .unwrap_or_else(|_| panic!("www/examples/{name}.json"));
        let events = import(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let config = crate::engine::event::config_of(&events).unwrap().clone();
        let view = LogView::of(&events);
        assert!(
            matches!(
                events.last().map(|e| &e.kind),
                Some(EventKind::Finished {
                    outcome: Outcome::Completed,
                    ..
                })
            ),
            "{name}: finished"
        );
        for t in &view.turns {
            assert!(
                matches!(t.status, TurnStatus::Done | TurnStatus::Cut),
                "{name}: {} is {:?}",
                t.call,
                t.status
            );
            assert!(
                !t.text.contains("stands in for a model") && !t.text.contains("Scripted "),
                "{name}: {} is filler",
                t.call
            );
        }
        for e in &events {
            if let EventKind::StructuredRead { call, outcome, .. } = &e.kind {
                assert_eq!(*outcome, ReadOutcome::Parsed, "{name}: {call}");
            }
        }
        let findings: Vec<&crate::engine::finding::Finding> = events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::FindingRecorded(f) => Some(f),
                _ => None,
            })
            .collect();
        let has =
            |want: &dyn Fn(&FindingBody) -> bool| findings.iter().filter(|f| want(&f.body)).count();
        match config.format() {
            FormatId::Classic => {
                // Over its source: quotes that verify word for word, and one that does not.
                let counts = view.quote_counts();
                let made: u32 = counts.iter().map(|c| c.made).sum();
                let verified: u32 = counts.iter().map(|c| c.verified).sum();
                assert!(!config.sources.is_empty(), "{name}: over a source");
                assert!(verified >= 2, "{name}: {verified} quotes verified");
                assert!(made - verified >= 1, "{name}: a quote not found");
                assert!(
                    has(&|b| matches!(b, FindingBody::Score { .. })) >= 2,
                    "{name}: scorecards"
                );
            }
            FormatId::Duelogic => {
                assert!(
                    has(&|b| matches!(b, FindingBody::Interruption { .. })) >= 1,
                    "{name}: an interruption"
                );
                assert!(
                    has(&|b| matches!(b, FindingBody::Interjection { .. })) >= 1,
                    "{name}: an interjection"
                );
                let speeches = view
                    .turns
                    .iter()
                    .filter(|t| {
                        t.call.path.ends_with("chair-1") || t.call.path.ends_with("chair-2")
                    })
                    .count();
                assert_eq!(
                    has(&|b| matches!(b, FindingBody::Evaluation(_))),
                    speeches,
                    "{name}: every speech evaluated"
                );
            }
            FormatId::Forecast => {
                let result = findings
                    .iter()
                    .find_map(|f| match &f.body {
                        FindingBody::Forecast(b) => match b.as_ref() {
                            ForecastFinding::Result(r) => Some(r.clone()),
                            _ => None,
                        },
                        _ => None,
                    })
                    .expect("a forecast result");
                let total: f64 = result
                    .outcomes
                    .iter()
                    .filter_map(|o| o.final_probability)
                    .sum();
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "{name}: the final probabilities add up to {total}"
                );
                for o in &result.outcomes {
                    let p: Vec<f64> = o.roles.iter().map(|r| r.probability).collect();
                    let (lo, hi) = p
                        .iter()
                        .fold((1.0f64, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
                    let f = o.final_probability.unwrap();
                    assert!(
                        lo - 1e-9 <= f && f <= hi + 1e-9,
                        "{name}: {} at {f} outside the panel's {lo}–{hi}",
                        o.outcome
                    );
                }
                assert!(
                    !result.partial && result.failed_roles.is_empty(),
                    "{name}: every role"
                );
            }
            FormatId::Crux => {
                let cards: Vec<_> = findings
                    .iter()
                    .filter_map(|f| match &f.body {
                        FindingBody::CruxCard(c) => Some(c),
                        _ => None,
                    })
                    .collect();
                assert!(!cards.is_empty(), "{name}: a crux card");
            }
            FormatId::Council => {
                // The ranking is the Borda count of the ballots as they were cast.
                let council: Vec<(&str, &CouncilFinding)> = findings
                    .iter()
                    .filter_map(|f| match &f.body {
                        FindingBody::Council(c) => Some((f.seat.as_str(), c.as_ref())),
                        _ => None,
                    })
                    .collect();
                let ballots: Vec<(&str, Vec<String>, Vec<String>)> = council
                    .iter()
                    .filter_map(|(seat, c)| match c {
                        CouncilFinding::Ballot(b) => Some((
                            *seat,
                            b.shown.clone(),
                            b.ranking.iter().map(|r| r.seat.clone()).collect(),
                        )),
                        _ => None,
                    })
                    .collect();
                let ranking = council
                    .iter()
                    .find_map(|(_, c)| match c {
                        CouncilFinding::Ranking(r) => Some(r),
                        _ => None,
                    })
                    .expect("a ranking");
                assert_eq!(ballots.len(), 3, "{name}: a ballot per member");
                let casts: Vec<Cast> = ballots
                    .iter()
                    .map(|(reviewer, shown, ranking)| Cast {
                        reviewer,
                        shown,
                        ranking,
                    })
                    .collect();
                let seats: Vec<String> = ranking.standings.iter().map(|s| s.seat.clone()).collect();
                let mut seated = seats.clone();
                seated.sort_by_key(|s| config.seats.iter().position(|c| &c.id == s));
                let (standings, _) = borda(&seated, &|s: &str| s.to_string(), &casts);
                let recount: Vec<(String, u32)> = standings
                    .iter()
                    .map(|s| (s.seat.clone(), s.points))
                    .collect();
                let shown: Vec<(String, u32)> = ranking
                    .standings
                    .iter()
                    .map(|s| (s.seat.clone(), s.points))
                    .collect();
                assert_eq!(
                    recount, shown,
                    "{name}: the ranking is the ballots' Borda count"
                );
                assert!(
                    shown.windows(2).any(|w| w[0].1 > w[1].1),
                    "{name}: not all tied"
                );
            }
            #[cfg(test)]
            FormatId::Probe => {}
        }
    }
}
