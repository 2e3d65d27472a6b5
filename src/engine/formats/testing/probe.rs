//! A test-only format that uses every engine feature the real formats rely on, together:
//! five parallel calls under a connection limit of two with a spending cap reached midway,
//! one failure tolerated, a speech cut at a sentence by a check on another
//! one-call-at-a-time connection (and a check skipped on the speaker's own), findings, a
//! JSON analysis call with its repair, two people answering in two rooms at once, and a
//! random choice. Its tests resume it from every prefix of its own log.

use crate::engine::answer::Problem;
use crate::engine::context::{sentence_ends, CallSpec, DebateCtx, DebateError, Watch};
use crate::engine::event::{FinishReason, Purpose};
use crate::engine::finding::{Criterion, Finding, FindingBody};
use crate::engine::model::ChatMessage;

pub const ROUND: [&str; 5] = ["a", "b", "c", "d", "e"];

#[derive(Debug, PartialEq)]
pub struct ProbeResult {
    /// The round's answers; `None` where the call failed and was tolerated.
    pub round: Vec<Option<String>>,
    pub speech: (String, FinishReason),
    /// How many checks ran before the speaker was cut, and how many were skipped.
    pub checks: (u32, u32),
    /// What the accepted check heard when it cut in.
    pub trigger: Option<String>,
    pub score: Option<u32>,
    pub rooms: (String, String),
    pub pick: u32,
    pub last: String,
}

fn msg(s: &str) -> Vec<ChatMessage> {
    vec![ChatMessage::user(s)]
}

/// Follows the speech and asks the judge, after each finished sentence, whether to cut in;
/// a check on the speaker's own connection is tried too and must be skipped. Driven by
/// the text only (not by when it arrived), so a replay makes the same checks.
async fn check_speech(
    ctx: &DebateCtx,
    watch: Watch,
) -> Result<(u32, u32, Option<String>), DebateError> {
    let (mut ran, mut skipped, mut seen, mut checked) = (0u32, 0u32, 0u64, 0usize);
    loop {
        let text = watch.text();
        let done = watch.is_done();
        let ends = sentence_ends(&text);
        while checked < ends.len() {
            let at = ends[checked];
            checked += 1;
            let heard = &text[..at];
            let own = ctx
                .check(
                    CallSpec::new(
                        format!("speech/self-check/{checked}"),
                        "s2",
                        Purpose::Check,
                        "Check on the speaker's connection",
                    )
                    .messages(msg("interrupt?")),
                )
                .await?;
            skipped += u32::from(own.is_none());
            let verdict = ctx
                .check(
                    CallSpec::new(
                        format!("speech/check/{checked}"),
                        "judge",
                        Purpose::Check,
                        "Interruption check",
                    )
                    .messages(msg(&format!("interrupt? {heard}"))),
                )
                .await?;
            let Some(v) = verdict else {
                skipped += 1;
                continue;
            };
            ran += 1;
            if v.text.contains("INTERRUPT") {
                watch.cut_at_sentence();
                return Ok((ran, skipped, Some(heard.to_string())));
            }
        }
        if done {
            return Ok((ran, skipped, None));
        }
        match watch.changed(seen).await {
            Some(v) => seen = v,
            None => continue, // one last look at the final text
        }
    }
}

pub async fn run(ctx: &DebateCtx) -> Result<ProbeResult, DebateError> {
    ctx.phase("round", "Five at once", None);
    let calls = ROUND.iter().map(|s| {
        ctx.try_call(
            CallSpec::new(format!("round/{s}"), *s, Purpose::Argument, "Round")
                .messages(msg(&format!("argue {s}")))
                .max_tokens(100)
                .tolerate_failure(),
        )
    });
    let mut round = Vec::new();
    for r in futures::future::join_all(calls).await {
        round.push(r?.ok().map(|o| o.text));
    }

    ctx.phase("speech", "A speech, cut", None);
    let watch = Watch::new();
    let speech = ctx.call(
        CallSpec::new("speech/s", "s", Purpose::Argument, "Speech")
            .messages(msg("speak"))
            .max_tokens(200)
            .watch(watch.clone()),
    );
    let (speech, checks) = futures::join!(speech, check_speech(ctx, watch));
    let (speech, (ran, skipped, trigger)) = (speech?, checks?);
    if let Some(t) = &trigger {
        ctx.record(Finding {
            key: "speech/interruption".into(),
            about: None,
            seat: "s".into(),
            body: FindingBody::Interruption {
                by: "judge".into(),
                reason: crate::engine::finding::InterruptReason::DirectChallenge,
                trigger: t.clone(),
                urgency: 80,
                kept_chars: speech.text.chars().count() as u32,
            },
        });
    }

    ctx.phase("analysis", "Analysis", None);
    let analyst = ctx.analyst();
    let score = ctx
        .call_json(
            CallSpec::new("score/s", analyst.clone(), Purpose::Evaluation, "Score")
                .messages(msg("score the speech as {\"score\": 0-10}"))
                .json_schema(serde_json::json!({
                    "type": "object",
                    "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 10}},
                    "required": ["score"]
                })),
            |v| {
                v.get("score")
                    .and_then(|s| s.as_u64())
                    .filter(|s| *s <= 10)
                    .map(|s| s as u32)
                    .ok_or_else(|| Problem::wrong("score", "be a whole number from 0 to 10"))
            },
        )
        .await?;
    ctx.record_structured(
        ("score/s".into(), None, "s"),
        || "The speech".into(),
        score.read.clone(),
        |n| FindingBody::Score {
            rubric: "probe".into(),
            criteria: vec![Criterion {
                name: "overall".into(),
                weight: 1.0,
                value: n as f64,
                max: 10.0,
                reason: String::new(),
            }],
            total: n as f64,
        },
    );

    // Two rooms side by side, each waiting for the same person at once.
    ctx.phase("rooms", "Two rooms", None);
    let room = |n: u32| {
        ctx.call(
            CallSpec::new(format!("room/{n}/h"), "h", Purpose::Argument, "Your turn")
                .messages(msg("your turn")),
        )
    };
    let (r1, r2) = futures::join!(room(1), room(2));

    let pick = (ctx.random("pick") * 100.0) as u32;
    let last = ctx
        .call(
            CallSpec::new(format!("final/{pick}"), "b", Purpose::Argument, "Final")
                .messages(msg("finish")),
        )
        .await?;

    Ok(ProbeResult {
        round,
        speech: (speech.text, speech.finish),
        checks: (ran, skipped),
        trigger,
        score: score.ok(),
        rooms: (r1?.text, r2?.text),
        pick,
        last: last.text,
    })
}

#[cfg(test)]
mod tests;
