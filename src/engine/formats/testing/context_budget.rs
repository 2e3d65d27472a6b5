//! Context per format: every prompt of a short, a medium and a long debate fits its budget,
//! and late prompts still carry what earlier parts were condensed into. Each seat has a
//! local model's window (4,096 tokens), where a long debate would overflow first.
//!
//! Also the figure of BENCHMARKS.md ("Context per format"), printed with
//! `cargo test --lib context_budget -- --nocapture`.

use serde_json::json;

use super::super::default_config;
use super::scripted::{model_with_window, run_scripted};
use crate::engine::config::{DebateConfig, FormatId, FormatOptions};
use crate::engine::context::Inputs;
use crate::engine::event::{Outcome, Purpose};
use crate::engine::model::ChatRequest;
use crate::engine::script::{Answer, Script};
use crate::engine::tokens;

const WINDOW: u32 = 4_096;

/// About 1,900 characters (about 470 tokens): a full turn, with none of the phrases that
/// start duelogic's interruption checks.
fn long_turn(mark: &str) -> String {
    format!(
        "{mark} {}",
        "The case rests on what people on these streets do every day, on who pays for the change and on who gains from it. "
            .repeat(16)
    )
}

fn answer(path: Option<String>, purpose: Option<&str>, text: String) -> Answer {
    Answer {
        path,
        purpose: purpose.map(str::to_string),
        text: Some(text),
        ..Answer::default()
    }
}

fn user(r: &ChatRequest) -> &str {
    r.messages.last().map_or("", |m| m.content.as_str())
}

struct Run {
    requests: Vec<ChatRequest>,
}

impl Run {
    fn prompt(&self, call: &str) -> &str {
        self.requests
            .iter()
            .find(|r| r.call == call)
            .map(user)
            .unwrap_or_else(|| panic!("no call {call}"))
    }
    /// The largest prompt among calls `keep` picks, as `count` counts it, and its call.
    fn largest(
        &self,
        keep: impl Fn(&ChatRequest) -> bool,
        count: impl Fn(&ChatRequest) -> u32,
    ) -> (u32, String) {
        self.requests
            .iter()
            .filter(|r| keep(r))
            .map(|r| (count(r), r.call.clone()))
            .max()
            .unwrap_or_default()
    }
}

fn run(mut config: DebateConfig, set: impl FnOnce(&mut FormatOptions), script: Script) -> Run {
    set(&mut config.options);
    config.validate().expect("valid");
    let r = run_scripted(config, script, Inputs::new());
    assert_eq!(r.outcome, Outcome::Completed);
    Run {
        requests: r.requests,
    }
}

fn config(format: FormatId) -> DebateConfig {
    config_with_window(format, WINDOW)
}

fn config_with_window(format: FormatId, window: u32) -> DebateConfig {
    default_config(
        format,
        "Should cities ban cars from their centres?",
        &|_| model_with_window("local", window),
    )
}

/// Every call fits the window with its answer; prints the largest.
fn fits_the_window(name: &str, size: &str, r: &Run) {
    fits(name, size, r, WINDOW)
}

fn fits(name: &str, size: &str, r: &Run, window: u32) {
    for q in &r.requests {
        let n = tokens::prompt(q);
        assert!(
            n + q.max_tokens <= window,
            "{name} {size}: {} asks {n} tokens in + {} out, over the {window}-token window",
            q.call,
            q.max_tokens
        );
    }
    let (n, call) = r.largest(|_| true, tokens::prompt);
    println!(
        "{name:<9} {size:<28} {:>4} calls; largest prompt {n:>5} tokens ({call}); window {window}",
        r.requests.len()
    );
}

#[test]
fn classic_prompts_fit_the_window_and_carry_the_round_summaries() {
    for (size, rounds) in [
        ("short (1 round)", 1),
        ("medium (4 rounds)", 4),
        ("long (10 rounds)", 10),
    ] {
        let mut answers: Vec<Answer> = (0..rounds)
            .map(|k| Answer {
                occurrence: Some(k),
                ..answer(
                    Some("round/".into()),
                    Some("summary"),
                    format!(
                        "[summary of round {}] Both sides argued cost and access.",
                        k + 1
                    ),
                )
            })
            .collect();
        answers.push(answer(None, Some("argument"), long_turn("[a turn]")));
        let r = run(
            config(FormatId::Classic),
            |o| {
                if let FormatOptions::Classic(o) = o {
                    o.rounds = rounds;
                    o.scoring = true;
                }
            },
            Script {
                answers,
                default: None,
            },
        );
        fits_the_window("classic", size, &r);
        // The last closing carries the summaries, newest first, as far as half the budget
        // goes: the last round's always.
        let closing = r.prompt("closing/position-b");
        assert!(closing.contains(&format!("[summary of round {rounds}]")));
        let carried = (1..=rounds)
            .filter(|k| closing.contains(&format!("[summary of round {k}]")))
            .count();
        println!("          the last closing carries {carried} of {rounds} round summaries");
        assert_eq!(
            carried as u32, rounds,
            "every round's summary reaches the closing"
        );
        // On this window the scores read a share of every turn.
        assert!(!r.prompt("score/position-a").contains("left out"));
    }
}

#[test]
fn classic_scoring_on_a_small_window_leaves_out_the_oldest_turns_not_the_fit() {
    // 1,536 tokens: under the window where every turn of ten rounds keeps a useful share.
    const SMALL: u32 = 1_536;
    let mut config = config_with_window(FormatId::Classic, SMALL);
    if let FormatOptions::Classic(o) = &mut config.options {
        o.rounds = 10;
        o.scoring = true;
    }
    let r = run(
        config,
        |_| {},
        Script {
            answers: vec![answer(None, Some("argument"), long_turn("[a turn]"))],
            default: None,
        },
    );
    fits("classic", "long (10 rounds), small window", &r, SMALL);
    for seat in ["position-a", "position-b"] {
        let scoring = r.prompt(&format!("score/{seat}"));
        // The closings, the last turns, are there; the first turns are counted, not lost
        // without a word.
        assert!(scoring.contains("[Closing"), "{seat}: {scoring}");
        assert!(scoring.contains("earlier turn") && scoring.contains("left out for length"));
        println!(
            "          {seat}'s scoring prompt: {} tokens",
            tokens::estimate(scoring)
        );
    }
}

/// Duelogic's speeches for `rounds` rounds, each saying which round it is, and an
/// introduction that says it is one.
fn duelogic_speeches(rounds: u32) -> Vec<Answer> {
    let mut answers: Vec<Answer> = (1..=rounds)
        .map(|k| {
            answer(
                Some(format!("round/{k}/")),
                Some("argument"),
                long_turn(&format!("[round {k} speech]")),
            )
        })
        .collect();
    answers.push(answer(
        Some("intro".into()),
        None,
        long_turn("[the introduction]"),
    ));
    answers
}

/// An Arbiter's evaluation that asks for nothing.
fn evaluation() -> serde_json::Value {
    json!({
        "steel_manning": {"attempted": true, "quality": "strong", "notes": "Fair."},
        "self_critique": {"attempted": true, "quality": "adequate", "notes": "Named one."},
        "framework_consistency": {"consistent": true, "violations": []},
        "intellectual_honesty": {"score": "high", "issues": []},
        "adherence_score": 80, "requires_interjection": false, "interjection_reason": ""
    })
}

#[test]
fn duelogic_prompts_fit_the_window_and_the_closing_scorecard_counts_every_round() {
    let evaluation = evaluation();
    for (size, rounds) in [
        ("short (1 round)", 1),
        ("medium (4 rounds)", 4),
        ("long (10 rounds)", 10),
    ] {
        let mut answers = duelogic_speeches(rounds);
        answers.push(answer(None, Some("evaluation"), evaluation.to_string()));
        let r = run(
            config(FormatId::Duelogic),
            |o| {
                if let FormatOptions::Duelogic(o) = o {
                    o.rounds = rounds;
                }
            },
            Script {
                answers,
                default: None,
            },
        );
        fits_the_window("duelogic", size, &r);
        // The closing's scorecard digests every round's evaluations (each chair evaluated
        // once a round), and its context every speech: the last round's whole, the
        // earlier ones by their opening sentence, after the introduction's opening.
        let closing = r.prompt("closing");
        let every_round = format!("steel-manned in {rounds} of {rounds} responses");
        assert_eq!(
            closing.matches(&every_round).count(),
            2,
            "each chair's line counts all {rounds} rounds"
        );
        let last_speech = r.prompt(&format!("round/{rounds}/chair-2"));
        // (The last speech's own round has only the first chair's speech so far.)
        for (what, prompt, before) in [
            ("the closing", closing, rounds),
            ("the last speech", last_speech, rounds - 1),
        ] {
            assert!(
                prompt.contains("[the introduction]"),
                "{what} lost the introduction"
            );
            let carried = (1..=before)
                .filter(|k| prompt.matches(&format!("[round {k} speech]")).count() >= 2)
                .count();
            assert_eq!(
                carried as u32, before,
                "{what} carries both chairs of every round"
            );
        }
        println!("          the closing and the last speech carry the introduction and every round's speeches");
    }
}

#[test]
fn duelogic_on_a_small_window_keeps_the_introduction_and_says_which_rounds_are_left_out() {
    const SMALL: u32 = 2_048;
    let mut config = config_with_window(FormatId::Duelogic, SMALL);
    if let FormatOptions::Duelogic(o) = &mut config.options {
        o.rounds = 10;
    }
    let answers = duelogic_speeches(10);
    let r = run(
        config,
        |_| {},
        Script {
            answers,
            default: None,
        },
    );
    fits("duelogic", "long (10 rounds), small window", &r, SMALL);
    let closing = r.prompt("closing");
    assert!(closing.contains("[the introduction]"), "{closing}");
    // The last round whole, the one before it in the digest; the oldest named as left out.
    assert!(closing.matches("[round 10 speech]").count() >= 2);
    assert!(closing.contains("[round 9 speech]"));
    assert!(closing.contains("left out for length."), "{closing}");
    let kept = (1..=10)
        .filter(|k| closing.contains(&format!("[round {k} speech]")))
        .count();
    println!("          the closing carries the introduction and {kept} of 10 rounds, the rest named as left out");
}

#[test]
fn forecast_arguments_fit_their_input_budget_and_the_synthesis_carries_every_round() {
    for (size, rounds) in [
        ("short (2 rounds)", 2),
        ("medium (5 rounds)", 5),
        ("long (10 rounds)", 10),
    ] {
        let mut answers: Vec<Answer> = (1..=rounds)
            .map(|k| {
                let arg = json!({
                    "argument": format!("[argument of round {k}] {}", long_turn("")),
                    "outcome_supported": "yes", "evidence": ["committee record"],
                    "rebuts": ["optimist", "pessimist"], "references": ["round 1"],
                    "probabilities": [{"outcome": "yes", "probability": 0.6}, {"outcome": "no", "probability": 0.4}],
                    "confidence": 0.7,
                    "precedents": [{"event": "A", "date": "1990", "outcome": "passed", "similarity": 0.6, "relevance": "same path"},
                                   {"event": "B", "date": "2009", "outcome": "failed", "similarity": 0.5, "relevance": "same veto"}]
                });
                answer(Some(format!("round/{k}/")), Some("argument"), arg.to_string())
            })
            .collect();
        answers.push(answer(
            None,
            Some("evaluation"),
            json!({"logical_strength": 0.8, "evidence_quality": 0.7, "novelty": 0.5, "reason": "Sound."})
                .to_string(),
        ));
        let mut budget = 0;
        let r = run(
            config(FormatId::Forecast),
            |o| {
                if let FormatOptions::Forecast(o) = o {
                    o.rounds = rounds;
                    budget = o.argument_input_tokens;
                }
            },
            Script {
                answers,
                default: None,
            },
        );
        fits_the_window("forecast", size, &r);
        // The seed's own budget for an argument's input, over its messages (the schema
        // sent beside them is counted by the window fit above).
        let (n, call) = r.largest(
            |q| q.purpose == Purpose::Argument,
            |q| {
                tokens::prompt(&ChatRequest {
                    schema: None,
                    search_web: false,
                    ..q.clone()
                })
            },
        );
        assert!(
            n <= budget,
            "{call}: {n} tokens in, over the budget of {budget}"
        );
        println!(
            "          largest argument prompt {n} tokens ({call}); the format's budget {budget}"
        );
        // The last round still reads the round before it.
        let last = r.prompt(&format!("round/{rounds}/optimist"));
        assert!(last.contains(&format!("[argument of round {}]", rounds - 1)));
        // The synthesis carries a line for every round.
        let synthesis = r.prompt("synthesis");
        for k in 1..=rounds {
            assert!(
                synthesis.contains(&format!("Round {k}")),
                "the synthesis misses round {k}"
            );
        }
    }
}

#[test]
fn crux_prompts_fit_the_window_and_late_takes_carry_every_aspect_summary() {
    for (size, aspects, exchanges) in [
        ("short (1 aspect, 4 turns)", 1, 4),
        ("medium (3 aspects, 8 turns)", 3, 8),
        ("long (5 aspects, 14 turns)", 5, 14),
    ] {
        let mut answers: Vec<Answer> = (1..=aspects)
            .map(|a| {
                let s = json!({"summary": format!("[summary of aspect {a}] They split on cost."), "contested": ["cost"]});
                answer(Some(format!("aspect/{a}/summary")), None, s.to_string())
            })
            .collect();
        answers.push(answer(None, Some("argument"), long_turn("[a take]")));
        let r = run(
            config(FormatId::Crux),
            |o| {
                if let FormatOptions::Crux(o) = o {
                    o.aspects = aspects;
                    o.max_exchanges = exchanges;
                }
            },
            Script {
                answers,
                default: None,
            },
        );
        fits_the_window("crux", size, &r);
        // The last aspect's first take reads every earlier aspect's summary.
        let take = r
            .requests
            .iter()
            .find(|q| q.call.starts_with(&format!("aspect/{aspects}/round/1/")))
            .map(user)
            .expect("a take on the last aspect");
        for a in 1..aspects {
            assert!(
                take.contains(&format!("[summary of aspect {a}]")),
                "aspect {a}'s summary is missing"
            );
        }
    }
}

#[test]
fn council_prompts_fit_the_window_with_every_members_answer_in_them() {
    for (size, members, second_round) in [
        ("short (2 members)", 2, false),
        ("medium (5 members, revised)", 5, true),
        ("long (8 members, revised)", 8, true),
    ] {
        let mut config = config(FormatId::Council);
        let analyst = config.seats.pop().expect("the analyst");
        let chair = config.seats.pop().expect("the chair");
        config.seats = (0..members)
            .map(|i| crate::engine::config::SeatConfig {
                id: super::super::council::member_seat(i),
                name: format!("Member {}", i + 1),
                stance: None,
                participant: model_with_window("local", WINDOW),
            })
            .chain([chair, analyst])
            .collect();
        let r = run(
            config,
            |o| {
                if let FormatOptions::Council(o) = o {
                    o.second_round = second_round;
                }
            },
            Script {
                answers: vec![answer(None, Some("argument"), long_turn("[an answer]"))],
                default: None,
            },
        );
        fits_the_window("council", size, &r);
        // Every reviewer sees every answer, cut to share the window.
        let round = if second_round { 2 } else { 1 };
        let review = r
            .requests
            .iter()
            .find(|q| q.call == format!("review/{round}/member-1"))
            .map(user)
            .expect("a review");
        assert_eq!(review.matches("[an answer]").count(), members, "{size}");
    }
}

/// A report of about twenty passages: one on each of the matters a debate on car-free
/// centres turns on.
fn report() -> crate::engine::sources::Source {
    let matters = [
        "Traffic fell by a fifth inside the cordon once the charge began",
        "Bus ridership rose as drivers switched to public transport",
        "Shop owners feared lost customers but footfall recovered within a year",
        "Delivery vans were given early morning windows",
        "Air quality improved measurably along the main streets",
    ];
    let text: Vec<String> = (0..20)
        .map(|i| {
            format!(
                "{}. {}",
                matters[i % matters.len()],
                "The city measured the change street by street, month by month. ".repeat(12)
            )
        })
        .collect();
    crate::engine::sources::Source::new(
        "S1",
        "City report",
        crate::engine::sources::Origin::Pasted,
        &text.join("\n\n"),
    )
    .unwrap()
}

#[test]
fn with_sources_every_speech_gets_passages_and_every_later_prompt_the_quotes_checks() {
    let quoting = |mark: &str| {
        format!(
            "{} As the report has it, <quote>Bus ridership rose as drivers switched to public transport</quote>, and <quote>traffic doubled inside the cordon</quote>.",
            long_turn(mark)
        )
    };
    let evaluation = evaluation();
    for format in [FormatId::Classic, FormatId::Duelogic] {
        let mut config = config(format);
        config.sources = vec![report()];
        let mut answers = vec![answer(None, Some("argument"), quoting("[a turn]"))];
        answers.push(answer(None, Some("evaluation"), evaluation.to_string()));
        let inputs = Inputs::new();
        inputs.push(crate::engine::event::Input::Evidence {
            text: "A survey of 400 residents found 61 percent in favour of the charge.".into(),
        });
        set_rounds(&mut config.options, 3);
        let r = run_scripted(
            config,
            Script {
                answers,
                default: None,
            },
            inputs,
        );
        assert_eq!(r.outcome, Outcome::Completed);
        let run = Run {
            requests: r.requests,
        };
        let name = format.id();
        fits_the_window(name, "3 rounds over a report", &run);
        let system = |q: &ChatRequest| q.messages[0].content.clone();
        let speeches: Vec<&ChatRequest> = run
            .requests
            .iter()
            .filter(|q| q.purpose == Purpose::Argument)
            .collect();
        assert!(speeches.len() >= 4, "{name}");
        for q in &speeches {
            let s = system(q);
            assert!(s.contains("[S1 ¶"), "{name} {}: no passage", q.call);
            assert!(
                s.contains("between <quote> and </quote>"),
                "{name} {}",
                q.call
            );
        }
        // The evidence given at the first call reaches later speeches as a source (those
        // its words rank it for).
        assert!(
            speeches
                .iter()
                .any(|q| system(q).contains("[E1 ¶1 · Evidence 1")),
            "{name}"
        );
        // Every prompt after the first quoting turn carries both checks, and how to weigh them.
        let later: Vec<&ChatRequest> = run
            .requests
            .iter()
            .filter(|q| user(q).contains("<quote status="))
            .collect();
        assert!(
            later.len() >= 3,
            "{name}: {} prompts carry quotes",
            later.len()
        );
        for q in later {
            let u = user(q);
            assert!(
                u.contains("<quote status=\"verified\" passage=\"S1 ¶2\">Bus ridership rose"),
                "{name} {}",
                q.call
            );
            assert!(
                u.contains("<quote status=\"not found\">traffic doubled"),
                "{name} {}",
                q.call
            );
            assert!(
                system(q).contains("status=\"not found\" occurs in no source"),
                "{name} {}",
                q.call
            );
        }
    }
}

fn set_rounds(o: &mut FormatOptions, rounds: u32) {
    match o {
        FormatOptions::Classic(o) => o.rounds = rounds,
        FormatOptions::Duelogic(o) => o.rounds = rounds,
        _ => {}
    }
}

#[test]
fn judges_see_only_the_checked_quotes_unless_they_are_set_to_read_the_sources() {
    for read in [false, true] {
        let mut config = config(FormatId::Classic);
        config.sources = vec![report()];
        config.judges_read_sources = read;
        // The quote opens the turn: a score reads the start of each turn.
        let quoting = format!(
            "<quote>Bus ridership rose as drivers switched to public transport</quote>. {}",
            long_turn("[a turn]")
        );
        let r = run(
            config,
            |o| {
                if let FormatOptions::Classic(o) = o {
                    o.rounds = 1;
                    o.scoring = true;
                }
            },
            Script {
                answers: vec![answer(None, Some("argument"), quoting)],
                default: None,
            },
        );
        fits_the_window("classic", "judges over a report", &r);
        let scores: Vec<&ChatRequest> = r
            .requests
            .iter()
            .filter(|q| q.purpose == Purpose::Evaluation)
            .collect();
        assert!(!scores.is_empty());
        for q in scores {
            let all: String = q.messages.iter().map(|m| m.content.as_str()).collect();
            assert!(all.contains("<quote status=\"verified\""), "{}", q.call);
            assert_eq!(
                all.contains("[S1 ¶"),
                read,
                "{} reads the sources: {read}",
                q.call
            );
        }
    }
}
