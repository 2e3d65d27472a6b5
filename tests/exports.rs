//! Every export renderer, import of hostile files, backup and restore, and fork, on classic
//! debates run by the scripted model under the virtual clock.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use agora::engine::cancel::CancelToken;
use agora::engine::clock::{run_virtual, VirtualClock};
use agora::engine::config::{ClassicOptions, ClassicStyle, Participant};
use agora::engine::context::{EventLog, Inputs, Wiring};
use agora::engine::event::{Event, EventKind, Input, Outcome};
use agora::engine::export;
use agora::engine::export::ExportKind;
use agora::engine::formats::{self, classic};
use agora::engine::script::{Script, ScriptedModel};
use agora::engine::{CallKey, DebateConfig, DebateCtx};

mod common;

struct Run {
    events: Vec<Event>,
    /// The calls that went to the model, by call key.
    asked: Vec<String>,
}

/// Runs `config` (or resumes `log`) to its end with `script`, with `inputs` waiting.
fn run(config: Option<DebateConfig>, log: Vec<Event>, script: Script, inputs: &[Input]) -> Run {
    let clock = VirtualClock::new(1_700_000_000_000);
    let model = Rc::new(ScriptedModel::new(script, clock.clone()));
    let rec = Rc::new(EventLog::default());
    let queue = Inputs::new();
    for i in inputs {
        queue.push(i.clone());
    }
    let w = Wiring {
        retry: Default::default(),
        limits: Default::default(),
        model: model.clone(),
        clock: Rc::new(clock.clone()),
        observer: rec.clone(),
        inputs: queue,
        stop: CancelToken::new(),
    };
    let ctx = match config {
        Some(cfg) => {
            let planned = formats::planned_calls(&cfg);
            DebateCtx::start(cfg, 7, planned, w)
        }
        None => DebateCtx::resume(log.clone(), w).unwrap(),
    };
    let outcome = run_virtual(&clock, async move { formats::drive(&ctx).await });
    assert_eq!(outcome, Outcome::Completed);
    let mut events = log;
    events.extend(rec.events.borrow().iter().cloned());
    let asked = model
        .requests
        .borrow()
        .iter()
        .map(|r| r.call.clone())
        .collect();
    Run { events, asked }
}

fn classic_config(topic: &str, rounds: u32, fact_checker: bool, scoring: bool) -> DebateConfig {
    let options = ClassicOptions {
        rounds,
        // A formal debate is always scored; casual is the style that scores only when asked.
        style: if scoring {
            ClassicStyle::Formal
        } else {
            ClassicStyle::Casual
        },
        fact_checker,
        scoring,
        ..Default::default()
    };
    classic::new_config(topic, "Yes, ban them", "No, keep access", options, |_| {
        Participant::Model {
            connection: "conn-local".into(),
            connection_label: "Local".into(),
            model: "m".into(),
            context_tokens: 8192,
            price: None,
        }
    })
}

const HOSTILE_TURN: &str = "Cities [should] <b>ban</b> cars.\n# Not a heading\n+ not a relation\n- nor this\n> nor a quote\nSee https://example.org/x // not a comment /* nor this */ and #tag @[Motion] {data: 1} *half";

/// One round of classic with the fact checker and scoring, an audience question and a piece
/// of evidence, and a turn whose text is full of syntax.
fn full_debate() -> Vec<Event> {
    let mut answers = vec![
        serde_json::json!({"seat": "position-a", "path": "round/1/argument/position-a", "text": HOSTILE_TURN}),
        serde_json::json!({"path": "summary", "text": "FINAL-SUMMARY: both sides argued well."}),
    ];
    answers.extend(common::score_and_check_answers());
    let script: Script = serde_json::from_value(serde_json::json!({ "answers": answers })).unwrap();
    let inputs = [
        Input::Question {
            text: "What about deliveries?".into(),
        },
        Input::Evidence {
            text: "Oslo's car-free centre: retail up 10%.".into(),
        },
    ];
    let cfg = classic_config("Should cities ban cars from their centres?", 1, true, true);
    run(Some(cfg), Vec::new(), script, &inputs).events
}

fn finished_calls(events: &[Event]) -> Vec<CallKey> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnFinished { call, .. } => Some(call.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_text_transcript_reads_like_the_debate_without_markup() {
    let events = full_debate();
    let text = export::to_text(&events);
    assert!(text.starts_with("Should cities ban cars from their centres?\n====="));
    for part in [
        "Classic debate, formal style, 1 round. Exported from Agora.",
        "- Position A: Yes, ban them (m via Local)",
        "\nOpening statements\n------------------",
        "\nRound 1\n-------",
        "Moderator — Opening remarks:\n\n",
        "Position B — Closing statement:\n\n",
        "[Audience question: What about deliveries?]",
        "[Evidence submitted: Oslo's car-free centre: retail up 10%.]",
        "[Fact check: ",
        "Ghent cut traffic by 30%",
        "[Score: ",
        "[Unscored: ",
        "FINAL-SUMMARY: both sides argued well.",
        // Model text is kept as written: a text file has nothing to make inert.
        "Cities [should] <b>ban</b> cars.\n# Not a heading",
    ] {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
    // No Markdown of Agora's own (headings, quoted notes, bold labels).
    for markup in ["##", "> Audience", "**Score**", "&lt;"] {
        assert!(!text.contains(markup), "{markup} in {text}");
    }
    // Every finished turn is there, under its speaker.
    let headers = text
        .lines()
        .filter(|l| l.contains(" — ") && l.ends_with(':') && !l.starts_with('['))
        .count();
    assert_eq!(headers, finished_calls(&events).len(), "{text}");
}

fn folder() -> (Vec<Event>, Vec<(String, String)>) {
    let events = full_debate();
    let files = export::to_folder(&events, true);
    (events, files)
}

#[test]
fn the_folder_has_seed_003s_layout_with_one_file_per_turn_in_order() {
    let (events, files) = folder();
    let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(&names[..3], ["index.md", "metadata.md", "summary.md"]);
    assert_eq!(*names.last().unwrap(), "transcript.md");
    let messages: Vec<&str> = names
        .iter()
        .filter_map(|n| n.strip_prefix("messages/"))
        .collect();
    let turns = finished_calls(&events);
    assert_eq!(messages.len(), turns.len());
    // Beside the messages, each source whole: the evidence given during the debate (E1).
    let sources: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.starts_with("sources/"))
        .collect();
    assert_eq!(sources, ["sources/e1.md"]);
    assert_eq!(messages.len() + 4 + sources.len(), names.len());
    for (i, m) in messages.iter().enumerate() {
        // NNN_<role>_<id>.md, numbered from 001 in order, ASCII only.
        let (num, rest) = m.split_at(4);
        assert_eq!(num, format!("{:03}_", i + 1), "{m}");
        let id = rest
            .strip_suffix(".md")
            .unwrap()
            .rsplit('_')
            .next()
            .unwrap();
        assert_eq!(id.len(), 8, "{m}");
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{m}");
    }
    assert!(messages[0].starts_with("001_moderator_"));
    assert!(messages[1].starts_with("002_position_a_"));
    for n in &names {
        assert!(
            n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_./".contains(c)),
            "{n}"
        );
        assert!(!n.contains("..") && !n.starts_with('/'), "{n}");
    }
    let file = |name: &str| {
        &files
            .iter()
            .find(|(p, _)| p.starts_with(name))
            .unwrap_or_else(|| panic!("no {name}"))
            .1
    };
    // The index links every message, under its phase.
    let index = file("index.md");
    for m in &messages {
        assert!(index.contains(&format!("(messages/{m})")), "{m} in {index}");
    }
    assert!(
        index.contains("### Round 1") && index.contains("[Transcript](transcript.md)"),
        "{index}"
    );
    // The metadata names the format, the seats and the outcome.
    let meta = file("metadata.md");
    for part in [
        "- Format: Classic debate, formal style, 1 round",
        "- **Position B**: No, keep access (m via Local)",
        "- Outcome: completed",
        "- Started: 2023-11-14 22:13 UTC",
        "\"fact_checker\":true",
    ] {
        assert!(meta.contains(part), "{part:?} in {meta}");
    }
    // The summary carries the closing summary and the scores in words.
    let summary = file("summary.md");
    assert!(
        summary.contains("FINAL-SUMMARY: both sides argued well."),
        "{summary}"
    );
    assert!(summary.contains("> **Score**: ") && summary.contains("> **Unscored**: "));
    // A turn's file holds its text (made inert) and the fact check of that turn.
    // 001 remarks, 002 and 003 A's opening and its check, 004 and 005 B's, 006 A's argument.
    let hostile = file("messages/006_position_a_");
    assert!(
        hostile.starts_with("# Position A — Argument\n"),
        "{hostile}"
    );
    assert!(
        hostile.contains("Cities [should] &lt;b>ban&lt;/b> cars."),
        "{hostile}"
    );
    assert!(hostile.contains("> **Fact check**: "), "{hostile}");
    assert!(
        hostile.contains("- Previous: [005_fact_checker_"),
        "{hostile}"
    );
    assert_eq!(file("transcript.md"), &export::to_markdown(&events));
    for (_, md) in &files {
        assert!(!md.contains("<b>"), "{md}");
    }
}

#[test]
fn the_zip_holds_the_seeds_dated_folder_and_the_transcript_only_when_asked() {
    let events = full_debate();
    // The debate started at 2023-11-14 22:13:20 UTC.
    assert_eq!(
        export::folder_root(&events),
        "2023-11-14/2023-11-14T22-13-20_debate"
    );
    let without = export::to_folder(&events, false);
    assert!(!without.iter().any(|(p, _)| p == "transcript.md"));
    let index = &without.iter().find(|(p, _)| p == "index.md").unwrap().1;
    assert!(
        !index.contains("transcript.md"),
        "no link to a file that is not there"
    );
    let with = export::to_folder(&events, true);
    assert_eq!(with.len(), without.len() + 1);
    let zipped = export::in_root(&events, without);
    assert!(zipped
        .iter()
        .all(|(p, _)| p.starts_with("2023-11-14/2023-11-14T22-13-20_debate/")));
    let file = ExportKind::Folder.render(&events);
    assert!(file.name.ends_with(".zip"));
    let with_transcript = ExportKind::Folder.render_with(&events, true);
    assert!(with_transcript.bytes.len() > file.bytes.len());
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agora-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_zip_opens_in_a_real_unzip_with_every_file_as_written() {
    let (_, files) = folder();
    let bytes = export::zip(&files);
    let dir = temp_dir("zip");
    let path = dir.join("debate.zip");
    std::fs::write(&path, &bytes).unwrap();
    let python = |args: &[&str]| {
        let out = std::process::Command::new("python3")
            .args(["-m", "zipfile"])
            .args(args)
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // -t checks every entry's CRC.
    python(&["-t", path.to_str().unwrap()]);
    let listing = python(&["-l", path.to_str().unwrap()]);
    for (name, _) in &files {
        assert!(listing.contains(name.as_str()), "{name} in {listing}");
    }
    let out = dir.join("out");
    python(&["-e", path.to_str().unwrap(), out.to_str().unwrap()]);
    for (name, text) in &files {
        let got = std::fs::read_to_string(out.join(name)).unwrap();
        assert_eq!(&got, text, "{name}");
    }
    // Info-ZIP agrees (where installed).
    if let Ok(o) = std::process::Command::new("unzip")
        .args(["-tq", path.to_str().unwrap()])
        .output()
    {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    }
    // The same debate zips to the same bytes (no clock in the archive).
    assert_eq!(export::zip(&files), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_argdown_map_matches_its_committed_fixture() {
    let events = full_debate();
    let doc = export::to_argdown(&events);
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sample.argdown");
    // The node test (tests/e2e/argdown.test.mjs) parses the committed file: what Rust
    // writes must be it. A deliberate change is written with AGORA_UPDATE_FIXTURES=1 and
    // committed; without it, a changed map fails and the file is left as it was.
    if std::env::var_os("AGORA_UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, &doc).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == doc,
        "tests/fixtures/sample.argdown differs from what Rust writes (AGORA_UPDATE_FIXTURES=1 rewrites it):\n{doc}"
    );
    assert!(doc.starts_with("[Motion]: Should cities ban cars from their centres?\n  + [Position A]\n  - [Position B]\n"));
    // Syntax from the model is neutralised: one line, no brackets, no line-start markers.
    let hostile = doc.lines().find(|l| l.contains("Cities")).unwrap();
    assert!(
        hostile.starts_with(
            r"<Turn 6, Position A, Argument>: Cities \[should\] \<b\>ban\</b\> cars. \# Not a heading + not a relation - nor this \> nor a quote See https:\//example.org/x \// not a comment \/\* nor this \*/ and \#tag \@\[Motion\] \{data: 1\} \*half"
        ),
        "{hostile}"
    );
    for line in doc.lines() {
        let t = line.trim_start();
        assert!(!t.starts_with('#') && !t.starts_with('>'), "{line}");
    }
    // Six argument turns (2 openings, 2 arguments, 2 rebuttals... and 2 closings).
    assert_eq!(doc.lines().filter(|l| l.starts_with("<Turn ")).count(), 8);
}

#[test]
fn a_json_export_imports_to_an_equal_log() {
    let events = full_debate();
    let json = export::to_json(&events);
    assert_eq!(export::import(&json).unwrap(), events);
    // A topic with markup is inert text: accepted, and kept as written.
    let cfg = classic_config("<script>alert(1)</script> Ban cars?", 1, false, false);
    let events = run(Some(cfg), Vec::new(), Script::default(), &[]).events;
    let back = export::import(&export::to_json(&events)).unwrap();
    assert_eq!(back, events);
    assert!(agora::engine::event::config_of(&back)
        .unwrap()
        .topic
        .starts_with("<script>"));
}

fn small_debate() -> Vec<Event> {
    run(
        Some(classic_config("Ban cars?", 1, false, false)),
        Vec::new(),
        Script::default(),
        &[],
    )
    .events
}

fn json_of(events: &[Event]) -> serde_json::Value {
    serde_json::from_str(&export::to_json(events)).unwrap()
}

#[test]
fn truncated_wrong_version_and_foreign_files_are_refused_with_the_reason() {
    let json = export::to_json(&small_debate());
    let cut = export::import(&json[..json.len() / 2]).unwrap_err();
    assert!(cut.contains("ends too early"), "{cut}");

    let mut newer = json_of(&small_debate());
    let next = agora::engine::event::SCHEMA_VERSION + 1;
    newer["schema"] = next.into();
    let e = export::import(&newer.to_string()).unwrap_err();
    assert!(
        e.contains("newer Agora") && e.contains(&format!("schema {next}")),
        "{e}"
    );

    let e = export::import(r#"{"hello": "world"}"#).unwrap_err();
    assert!(e.contains("not an Agora export"), "{e}");
    let e = export::import("[1, 2]").unwrap_err();
    assert!(
        e.contains("not an Agora export: it is not a JSON object"),
        "{e}"
    );
    let e = export::import("").unwrap_err();
    assert!(e.contains("ends too early"), "{e}");

    let mut empty = json_of(&small_debate());
    empty["events"] = serde_json::json!([]);
    let e = export::import(&empty.to_string()).unwrap_err();
    assert!(e.contains("no events"), "{e}");

    // An older schema migrates: the same log written as schema 1 reads back equal.
    let events = small_debate();
    let mut v1 = json_of(&events);
    v1["schema"] = 1.into();
    let start = &mut v1["events"][0]["kind"]["DebateStarted"];
    start["schema"] = 1.into();
    let options = start["config"]["options"]["classic"].take();
    let config = start["config"].as_object_mut().unwrap();
    config.remove("options");
    config.insert("format".into(), "classic".into());
    config.insert("classic".into(), options);
    let back = export::import(&v1.to_string()).unwrap();
    assert_eq!(back.len(), events.len());
    assert_eq!(
        agora::engine::event::config_of(&back).unwrap().classic(),
        agora::engine::event::config_of(&events).unwrap().classic()
    );
}

#[test]
fn hostile_files_are_refused_quickly_and_without_echoing_them() {
    let events = small_debate();
    // 30 MB: refused on its size before it is parsed.
    let mut huge = json_of(&events);
    huge["events"][1]["kind"]["PhaseStarted"]["title"] = "x".repeat(30 << 20).into();
    let e = export::import(&huge.to_string()).unwrap_err();
    assert!(
        e.starts_with("The file is 30.0 MB; Agora reads files up to 20 MB") && e.len() < 200,
        "{}",
        &e[..e.len().min(300)]
    );
    // 5 MB in one string: refused, naming where it is.
    let mut long = json_of(&events);
    long["events"][3]["kind"]["TurnFinished"]["text"] = "y".repeat(5 << 20).into();
    let text = long.to_string();
    let e = export::import(&text).unwrap_err();
    assert!(
        e.starts_with("file.events[3].kind.TurnFinished.text: a text of 5242880 bytes")
            && e.len() < 200,
        "{}",
        &e[..e.len().min(300)]
    );
    // Deeply nested JSON: refused by the reader's depth limit, with no stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = export::import(&format!(
        r#"{{"agora_export":1,"schema":2,"events":{deep}}}"#
    ))
    .unwrap_err();
    assert!(
        e.starts_with("The file is not valid JSON: recursion limit exceeded"),
        "{e}"
    );
    // Events out of order.
    let mut swapped = json_of(&events);
    let list = swapped["events"].as_array_mut().unwrap();
    list.swap(2, 3);
    let e = export::import(&swapped.to_string()).unwrap_err();
    assert!(e.contains("events[3]: event number 2 out of order"), "{e}");
    // The first event is not the start.
    let mut headless = json_of(&events);
    headless["events"].as_array_mut().unwrap().remove(0);
    let e = export::import(&headless.to_string()).unwrap_err();
    assert!(
        e.contains("events[0]: the first event must start the debate"),
        "{e}"
    );
    // Something after the end (other than a resume).
    let mut after = json_of(&events);
    let n = after["events"].as_array().unwrap().len();
    after["events"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"seq": n, "at_ms": 1, "kind": {"Error": {"message": "late"}}}));
    let e = export::import(&after.to_string()).unwrap_err();
    assert!(e.contains("after the debate finished"), "{e}");
    // A key anywhere.
    let mut keyed = json_of(&events);
    keyed["events"][0]["kind"]["DebateStarted"]["config"]["seats"][1]["participant"]["model"]
        ["api_key"] = "sk-live-123".into();
    let e = export::import(&keyed.to_string()).unwrap_err();
    assert!(
        e.contains("participant.model.api_key: a field that looks like an API key"),
        "{e}"
    );
    assert!(!e.contains("sk-live"), "{e}");
    // A configuration no one could have started (a topic past its limit).
    let mut bad = json_of(&events);
    bad["events"][0]["kind"]["DebateStarted"]["config"]["topic"] = "t".repeat(5_000).into();
    let e = export::import(&bad.to_string()).unwrap_err();
    assert!(
        e.contains("events[0].config: The topic is 5000 characters long"),
        "{e}"
    );
    // A value of the wrong type is named, not quoted whole.
    let mut typed = json_of(&events);
    typed["events"][2]["seq"] = "z".repeat(1_000_000).into();
    let e = export::import(&typed.to_string()).unwrap_err();
    assert!(
        e.starts_with("events[2]: event 2 is unreadable: invalid type: string") && e.len() < 400,
        "{}",
        &e[..e.len().min(500)]
    );
    // An event of an unknown kind.
    let mut odd = json_of(&events);
    odd["events"][2] = serde_json::json!({"seq": 2, "at_ms": 1, "kind": {"Launch": {}}});
    let e = export::import(&odd.to_string()).unwrap_err();
    assert!(
        e.starts_with("events[2]: event 2 is unreadable: unknown variant `Launch`"),
        "{e}"
    );
}

#[test]
fn a_backup_restores_every_debate_and_reports_the_one_it_refuses() {
    let a = small_debate();
    let b = full_debate();
    let text = export::backup(&[a.clone(), b.clone(), a.clone()]);
    let mut file: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The third debate is damaged.
    file["debates"][2]["events"][4]["seq"] = 1.into();
    let restored = export::restore(&file.to_string()).unwrap();
    assert_eq!(restored.debates, vec![a.clone(), b.clone()]);
    assert_eq!(restored.refused.len(), 1);
    assert!(
        restored.refused[0]
            .starts_with("debate 3 (Ban cars?): debates[2].events[4]: event number 1 out of order"),
        "{:?}",
        restored.refused
    );
    // A debate the device already has is recognised, however far either copy got.
    assert!(export::same_debate(&a, &a[..5]));
    assert!(!export::same_debate(&a, &b));
    // A file that is not a backup at all changes nothing.
    assert!(export::restore(&export::to_json(&a))
        .unwrap_err()
        .contains("not an Agora backup"));
    let cut = export::restore(&text[..text.len() - 10]).unwrap_err();
    assert!(cut.contains("ends too early"), "{cut}");
}

#[test]
fn an_imported_debates_connections_are_mapped_to_this_devices_own() {
    let mut events = export::import(&export::to_json(&small_debate())).unwrap();
    assert_eq!(export::connections_named(&events), ["conn-local"]);
    assert_eq!(
        export::connection_labels(&events),
        [("conn-local".to_string(), "Local".to_string())]
    );
    export::remap_connections(&mut events, &[("conn-local".into(), "mine".into())]);
    assert_eq!(export::connections_named(&events), ["mine"]);
    let config = agora::engine::event::config_of(&events).unwrap();
    assert!(config.seats.iter().all(|s| matches!(
        &s.participant,
        Participant::Model { connection, connection_label, .. } if connection == "mine" && connection_label == "Local"
    )));
}

#[test]
fn a_fork_replays_the_shared_turns_and_continues_live_after_them() {
    let original = small_debate();
    let at = CallKey::new("round/1/rebuttal/position-b", 0);
    // A question was asked after the fork point: the fork does not carry it.
    let forked = export::fork(&original, &at, "debate-1").unwrap();
    let kept = finished_calls(&forked);
    assert_eq!(kept.last(), Some(&at));
    assert_eq!(kept.len(), 5);
    assert!(!forked
        .iter()
        .any(|e| matches!(e.kind, EventKind::Finished { .. })));
    assert_eq!(
        forked[1..],
        original[1..forked.len()],
        "the history is shared as it was"
    );
    let fp = agora::engine::event::config_of(&forked)
        .unwrap()
        .forked_from
        .clone()
        .unwrap();
    assert_eq!(
        (fp.debate.as_str(), fp.call.as_str()),
        ("debate-1", "round/1/rebuttal/position-b")
    );
    assert_eq!(fp.label, "Position B — Rebuttal");
    // A restore tells the fork from its original.
    assert!(!export::same_debate(&original, &forked));
    // It still reads as an export, and old logs (without `forked_from`) still load.
    assert_eq!(export::import(&export::to_json(&forked)).unwrap(), forked);

    // Resumed with another script: the kept calls are not asked again; every later one is.
    let script: Script =
        serde_json::from_value(serde_json::json!({"default": {"text": "FORKED answer."}})).unwrap();
    let run = run(None, forked.clone(), script, &[]);
    let all = finished_calls(&original);
    assert_eq!(run.asked.len(), all.len() - kept.len());
    for call in &kept {
        assert!(!run.asked.contains(&call.to_string()), "{call} asked again");
    }
    assert_eq!(run.asked[0], "round/1/argument/position-b");
    assert_eq!(
        finished_calls(&run.events),
        all,
        "same calls, in the same order"
    );
    let texts: Vec<&str> = run.events[forked.len()..]
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TurnFinished { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(texts.iter().all(|t| *t == "FORKED answer."), "{texts:?}");
    let e = export::fork(&original, &CallKey::new("nowhere", 0), "d").unwrap_err();
    assert!(e.contains("no finished turn nowhere"), "{e}");
}

#[test]
fn a_classic_log_cut_anywhere_resumes_to_the_same_calls_with_none_repeated() {
    let whole = small_debate();
    let all = finished_calls(&whole);
    for cut in 1..whole.len() {
        let log = whole[..cut].to_vec();
        let done = finished_calls(&log);
        let run = run(None, log, Script::default(), &[]);
        assert_eq!(run.asked.len(), all.len() - done.len(), "cut at {cut}");
        assert_eq!(finished_calls(&run.events), all, "cut at {cut}");
    }
}

#[test]
fn a_debate_stopped_and_resumed_later_imports_and_a_fork_says_where_it_branched() {
    // Stopped after five events, then resumed to the end: `Resumed` follows `Finished`.
    let whole = small_debate();
    let mut stopped = whole[..5].to_vec();
    stopped.push(Event {
        seq: 5,
        at_ms: stopped[4].at_ms,
        kind: EventKind::Finished {
            outcome: Outcome::Stopped,
            message: None,
        },
    });
    let resumed = run(None, stopped, Script::default(), &[]).events;
    assert!(matches!(resumed[6].kind, EventKind::Resumed));
    assert_eq!(export::import(&export::to_json(&resumed)).unwrap(), resumed);

    // The fork's folder names the debate and the turn it came from.
    let at = CallKey::new("opening/position-b", 0);
    let forked = export::fork(&whole, &at, "18c2f-abc123").unwrap();
    let files = export::to_folder(&forked, false);
    let meta = &files.iter().find(|(p, _)| p == "metadata.md").unwrap().1;
    assert!(
        meta.contains(
            "- Forked from debate 18c2f-abc123 after the turn \"Position B — Opening statement\" (opening/position-b)"
        ),
        "{meta}"
    );
    assert!(meta.contains("- Outcome: not finished"), "{meta}");
}

#[test]
fn without_sides_each_seats_turns_argue_for_its_own_view_and_against_the_others() {
    let mut events = small_debate();
    if let EventKind::DebateStarted { config, .. } = &mut events[0].kind {
        config.options = agora::engine::config::FormatOptions::Duelogic(Default::default());
        for s in &mut config.seats {
            s.stance = None;
        }
    }
    let doc = export::to_argdown(&events);
    // The topic stands alone: a map cannot place a view for or against it.
    assert!(doc.starts_with("[Motion]: Ban cars?\n\n"), "{doc}");
    assert!(doc.contains("[Position A]: Position A's case on the motion.\n  + <Turn 2, Position A, Opening statement>\n  - <Turn 3, Position B, Opening statement>\n"), "{doc}");
    assert!(
        !doc.contains("[Moderator]"),
        "the moderator makes no argument: {doc}"
    );
    assert_eq!(export::to_argdown(&[]), "");
    assert_eq!(export::to_text(&[]), "");
    assert!(export::to_folder(&[], true).is_empty());
}
