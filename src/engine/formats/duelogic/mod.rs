//! The duelogic format (seeds 000 and 002): two to six chairs argue a question from assigned
//! philosophical frameworks under the Arbiter, the podcast's host. The Arbiter introduces
//! the episode; in each round every chair speaks in turn while another chair may cut in
//! (a pattern check gates a model check on the analyst seat, which runs while the speaker
//! is still streaming; an accepted interruption cuts the speaker at the next sentence, the
//! interrupter speaks, the interrupted chair answers and goes on); each response is then
//! evaluated on the analyst seat, and by the accountability level's decision table the
//! Arbiter interjects and the chair answers; the Arbiter closes with a synthesis. The call
//! order is listed in `prompts/README.md`.

pub mod evaluation;
pub mod findings;
pub mod frameworks;
pub mod options;
pub(super) mod plan;
pub mod prompts;
pub mod rules;
pub mod stats;

use super::super::config::{
    Chair, DebateConfig, DuelogicOptions, FormatOptions, Framework, Participant, SeatConfig,
};
use super::super::context::{sentence_ends, CallSpec, DebateCtx, DebateError, Watch};
use super::super::event::{CallKey, Purpose};
use super::super::finding::{Finding, FindingBody};
use super::super::json_extract;
use super::super::model::ChatMessage;
use super::super::prompt::{duelogic as p, render};
use super::super::small_map::SmallMap;
use super::super::tokens;
use super::super::transcript::{self, clip, ContextParts, Said};
use evaluation::{evaluation_schema, parse_evaluation, parse_proposal, proposal_schema, Proposal};
use rules::InterruptReason;

pub const ARBITER: &str = "arbiter";
/// The seat of a separate analyst model, when the user chose one.
pub use super::ANALYST;

/// Most model checks for interruptions during one speech, so a long speech full of
/// trigger words cannot run up the bill.
const MAX_CHECKS_PER_TURN: u32 = 3;

pub const INTRO_TOKENS: u32 = 600;
pub const TURN_TOKENS: u32 = 450;
pub const EVALUATION_TOKENS: u32 = 500;
pub const CLOSING_TOKENS: u32 = 900;
const CHECK_TOKENS: u32 = 250;
const INTERRUPTION_TOKENS: u32 = 100;
const RESUME_TOKENS: u32 = 250;
const INTERJECTION_TOKENS: u32 = 150;
const ANSWER_TOKENS: u32 = 250;

/// A duelogic debate's configuration. Chairs are given in speaking order as (display name,
/// framework id, who fills the seat); without a separate analyst the Arbiter evaluates.
/// Whether a call is a chair's response of a round (`round/N/chair-K`): the calls the
/// Arbiter evaluates, unless accountability is relaxed.
pub fn is_evaluated(call: &CallKey) -> bool {
    let mut parts = call.path.split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("round"), Some(_), Some(seat), None) if seat.starts_with("chair-")
    )
}

pub fn new_config(
    topic: &str,
    chairs: Vec<(String, String, Participant)>,
    arbiter: Participant,
    analyst: Option<Participant>,
    mut options: DuelogicOptions,
) -> DebateConfig {
    let mut seats = vec![SeatConfig {
        id: ARBITER.into(),
        name: "The Arbiter".into(),
        stance: None,
        participant: arbiter,
    }];
    options.chairs.clear();
    for (i, (name, framework, participant)) in chairs.into_iter().enumerate() {
        let seat = format!("chair-{}", i + 1);
        let fw = frameworks::find(&options, &framework);
        seats.push(SeatConfig {
            id: seat.clone(),
            name,
            stance: fw.map(|f| f.name),
            participant,
        });
        options.chairs.push(Chair { seat, framework });
    }
    let analyst_seat = match analyst {
        Some(participant) => {
            seats.push(super::analyst_seat(participant));
            ANALYST
        }
        None => ARBITER,
    };
    DebateConfig {
        topic: topic.trim().to_string(),
        seats,
        analyst: analyst_seat.into(),
        options: FormatOptions::Duelogic(options),
        spending_cap: None,
        forked_from: None,
    }
}

/// Checks a duelogic configuration, with messages for the user.
pub fn validate(config: &DebateConfig, o: &DuelogicOptions) -> Result<(), String> {
    if config.seat(ARBITER).is_none() {
        return Err("A duelogic debate needs the Arbiter's seat.".into());
    }
    if !(2..=6).contains(&o.chairs.len()) {
        return Err("A duelogic debate has between 2 and 6 chairs.".into());
    }
    if !(1..=10).contains(&o.rounds) {
        return Err("A duelogic debate has between 1 and 10 rounds.".into());
    }
    if !(1..=5).contains(&o.aggressiveness) {
        return Err("Interruption aggressiveness goes from 1 to 5.".into());
    }
    for f in &o.frameworks {
        frameworks::validate(f)?;
    }
    for c in &o.chairs {
        let seat = config
            .seat(&c.seat)
            .ok_or_else(|| format!("The chair `{}` has no seat.", c.seat))?;
        if frameworks::find(o, &c.framework).is_none() {
            return Err(format!(
                "{} argues from an unknown framework `{}`.",
                seat.name, c.framework
            ));
        }
    }
    Ok(())
}

/// A chair as the format uses it.
#[derive(Clone)]
struct Seat {
    id: String,
    name: String,
    /// "gpt-4o-mini via OpenAI", for the introduction.
    model: String,
    framework: Framework,
}

struct Duelogic<'a> {
    ctx: &'a DebateCtx,
    config: DebateConfig,
    o: DuelogicOptions,
    chairs: Vec<Seat>,
    said: Vec<Said>,
    /// Where each round (and then the closing) starts in `said`; what comes before the
    /// first is the introduction.
    round_starts: Vec<usize>,
    /// When each chair last cut in, in debate time (recorded, so a replay agrees).
    last_interrupt: SmallMap<String, u64>,
}

/// An accepted interruption.
struct Cut {
    by: String,
    proposal: Proposal,
}

impl<'a> Duelogic<'a> {
    fn new(ctx: &'a DebateCtx) -> Result<Self, DebateError> {
        let config = ctx.config();
        let o = match &config.options {
            FormatOptions::Duelogic(o) => o.clone(),
            _ => return Err(DebateError::Config("This is not a duelogic debate.".into())),
        };
        validate(&config, &o).map_err(DebateError::Config)?;
        let chairs = o
            .chairs
            .iter()
            .filter_map(|c| {
                let seat = config.seat(&c.seat)?;
                Some(Seat {
                    id: c.seat.clone(),
                    name: seat.name.clone(),
                    model: seat.participant.describe(),
                    framework: frameworks::find(&o, &c.framework)?,
                })
            })
            .collect();
        Ok(Duelogic {
            ctx,
            config,
            o,
            chairs,
            said: Vec::new(),
            round_starts: Vec::new(),
            last_interrupt: SmallMap::new(),
        })
    }

    fn show(&self) -> (&str, String) {
        (self.o.show_name.as_str(), self.o.episode.to_string())
    }

    fn arbiter_system(&self) -> String {
        render(p::ARBITER_SYSTEM, &[("show", &self.o.show_name)])
    }

    fn chair_system(&self, c: &Seat) -> String {
        render(
            p::CHAIR_SYSTEM,
            &[
                ("name", &c.name),
                ("show", &self.o.show_name),
                ("framework", &c.framework.name),
                ("description", &c.framework.description),
                ("core_question", &c.framework.core_question),
                ("strengths", &c.framework.strengths.join("; ")),
                ("blind_spots", &c.framework.blind_spots.join("; ")),
                ("topic", &self.config.topic),
            ],
        )
    }

    /// What was said so far, sized to the seat's window. When it all fits it goes whole.
    /// Otherwise what came before the last full round goes as a digest, with no call of
    /// its own: the introduction's opening, then each round's speeches by their opening
    /// sentences. A late speech still knows how the episode was framed and what every
    /// chair argued, where the whole transcript would have dropped the oldest first.
    fn context(&self, seat: &str, system: &str, template: &str, max_tokens: u32) -> String {
        let window = self
            .config
            .seat(seat)
            .map_or(4096, |s| s.participant.context_tokens());
        let budget = transcript::budget(window, max_tokens, system, template, None);
        let notes = self.ctx.notes();
        // Each speech as it would go whole, with its heading; estimated once per prompt.
        let costs: Vec<u32> = self
            .said
            .iter()
            .map(|s| tokens::estimate(&s.text) + 12)
            .collect();
        // Everything whole: the speeches, and the audience's notes, which
        // `transcript::build` places before them.
        let whole =
            costs.iter().sum::<u32>() + notes.iter().map(transcript::note_tokens).sum::<u32>();
        let mut split = match self.round_starts.len() {
            n if n >= 2 && whole > budget => self.round_starts[n - 2],
            _ => 0,
        };
        // What goes whole gets the half of the budget the digest leaves: where the last
        // round is longer than that, its first speeches join the digest (the latest always
        // goes whole, cut if it must be), rather than being dropped.
        if split > 0 {
            let mut from_split: u32 = costs[split..].iter().sum();
            while split + 1 < costs.len() && from_split > budget / 2 {
                from_split -= costs[split];
                split += 1;
            }
        }
        let summaries = self.digest(split, budget / 2);
        transcript::build(&ContextParts {
            summaries: &summaries,
            recent: &self.said[split..],
            notes: &notes,
            budget,
        })
    }

    /// Everything said before `said[upto]`, in about `tokens`: the introduction's opening
    /// (a quarter at most), and a line per speech of each round. Where even short lines
    /// would not fit, the oldest rounds are left out, and a line says which: the
    /// introduction always stays (`transcript::build` keeps the newest summaries first, so
    /// an over-long digest would lose it first).
    fn digest(&self, upto: usize, tokens: u32) -> Vec<(String, String)> {
        let Some(&first) = self.round_starts.first().filter(|_| upto > 0) else {
            return Vec::new();
        };
        let cost = |(title, text): &(String, String)| tokens::estimate(&format!("{title}: {text}"));
        let intro: String = self.said[..first]
            .iter()
            .map(|s| s.text.trim())
            .collect::<Vec<_>>()
            .join(" ");
        let intro = (
            "Introduction".to_string(),
            lead(&intro, (tokens / 4).min(100)),
        );
        let speeches = upto - first;
        let rounds = self.round_starts.iter().filter(|&&i| i < upto).count() as u32;
        // Each line: its speaker's name and a little punctuation besides the lead.
        let per_speech = (tokens.saturating_sub(cost(&intro) + 4 * rounds)
            / speeches.max(1) as u32)
            .saturating_sub(6)
            .clamp(12, 60);
        let mut rounds: Vec<(String, String)> = Vec::new();
        for (k, &from) in self.round_starts.iter().enumerate() {
            let end = self
                .round_starts
                .get(k + 1)
                .copied()
                .unwrap_or(self.said.len());
            let to = end.min(upto);
            if from >= to {
                break;
            }
            let lines: Vec<String> = self.said[from..to]
                .iter()
                .map(|s| format!("{}: {}", s.speaker, lead(&s.text, per_speech)))
                .collect();
            rounds.push((format!("Round {}", k + 1), lines.join(" / ")));
        }
        let mut left_out = 0;
        let note = |n: usize| {
            let which = if n == 1 {
                "Round 1".to_string()
            } else {
                format!("Rounds 1–{n}")
            };
            (which, "left out for length.".to_string())
        };
        while left_out < rounds.len() {
            let kept = &rounds[left_out..];
            let total = cost(&intro)
                + kept.iter().map(cost).sum::<u32>()
                + if left_out > 0 {
                    cost(&note(left_out))
                } else {
                    0
                };
            if total <= tokens {
                break;
            }
            left_out += 1;
        }
        let mut out = vec![intro];
        if left_out > 0 {
            out.push(note(left_out));
        }
        out.extend(rounds.into_iter().skip(left_out));
        out
    }

    /// `template` rendered with `vars` and a `{{context}}` of what was said, sized to the
    /// seat's window around everything else the call carries.
    fn prompt(
        &self,
        seat: &str,
        system: &str,
        template: &str,
        max_tokens: u32,
        vars: &[(&str, &str)],
    ) -> String {
        let context = self.context(seat, system, &render(template, vars), max_tokens);
        let mut all = vars.to_vec();
        all.push(("context", &context));
        render(template, &all)
    }

    fn name_of(&self, seat: &str) -> String {
        self.config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    fn remember(&mut self, seat: &str, label: &str, text: &str) {
        self.said.push(Said {
            seat: seat.into(),
            speaker: self.name_of(seat),
            label: label.into(),
            text: text.into(),
        });
    }

    /// A turn of the debate: the call made, and what it said remembered for the prompts
    /// after it.
    async fn speak(&mut self, spec: CallSpec) -> Result<String, DebateError> {
        let (seat, label) = (spec.seat.clone(), spec.label.clone());
        let out = self.ctx.call(spec).await?;
        self.remember(&seat, &label, &out.text);
        Ok(out.text)
    }

    async fn intro(&mut self) -> Result<(), DebateError> {
        let (show, episode) = self.show();
        let chairs: Vec<String> = self
            .chairs
            .iter()
            .map(|c| {
                format!(
                    "- {} ({}), arguing from {}: {} Core question: {}",
                    c.name,
                    c.model,
                    c.framework.name,
                    c.framework.description,
                    c.framework.core_question
                )
            })
            .collect();
        let context = if self.o.context.trim().is_empty() {
            String::new()
        } else {
            format!("Context: {}", self.o.context.trim())
        };
        let user = render(
            p::INTRO,
            &[
                ("show", show),
                ("episode", &episode),
                ("topic", &self.config.topic),
                ("proposition_context", &context),
                ("chairs", &chairs.join("\n")),
                ("first_chair", &self.chairs[0].name),
                ("max_words", &transcript::words(INTRO_TOKENS)),
            ],
        );
        let system = self.arbiter_system();
        self.speak(
            CallSpec::new("intro", ARBITER, Purpose::Moderation, "Introduction")
                .system_and_user(system, user)
                .max_tokens(INTRO_TOKENS)
                .temperature(0.8),
        )
        .await?;
        Ok(())
    }

    /// Follows a speech and, at sentence ends the pattern check flags (and from
    /// aggressiveness 4 at every paragraph end), asks the analyst whether another chair
    /// should cut in. Driven by the text alone, so a replay asks the same checks.
    async fn watch_for_interruption(
        &self,
        path: &str,
        speaker: &Seat,
        watch: Watch,
    ) -> Result<Option<Cut>, DebateError> {
        // A person's turn arrives whole, so there is nothing to cut; and a person is never
        // told by a model to cut in on someone.
        let config = self.ctx.config();
        let is_person = |id: &str| {
            config
                .seat(id)
                .is_some_and(|s| s.participant == Participant::Human)
        };
        if is_person(&speaker.id) {
            return Ok(None);
        }
        let threshold = rules::urgency_threshold(self.o.aggressiveness);
        let (mut seen, mut looked, mut asked) = (0u64, 0usize, 0u32);
        loop {
            let text = watch.text();
            let done = watch.is_done();
            let ends = sentence_ends(&text);
            while looked < ends.len() && asked < MAX_CHECKS_PER_TURN {
                let from = if looked == 0 { 0 } else { ends[looked - 1] };
                let end = ends[looked];
                looked += 1;
                let sentence = text[from..end].trim();
                let paragraph_end = text[end..].starts_with('\n');
                let hint = rules::quick_check(sentence);
                let every = paragraph_end && rules::checks_every_paragraph(self.o.aggressiveness);
                if hint.is_none() && !every {
                    continue;
                }
                asked += 1;
                let n = asked;
                let now = self.ctx.now_ms(&format!("{path}/check/{n}/at"));
                let eligible: Vec<&Seat> = self
                    .chairs
                    .iter()
                    .filter(|c| c.id != speaker.id && !is_person(&c.id))
                    .filter(|c| {
                        rules::off_cooldown(
                            self.last_interrupt.get(c.id.as_str()).copied(),
                            now,
                            self.o.cooldown_s,
                        )
                    })
                    .collect();
                if eligible.is_empty() {
                    continue;
                }
                let proposal = self
                    .check(path, n, speaker, &text[..end], &eligible, hint)
                    .await?;
                let Some(proposal) = proposal else { continue };
                let chosen = proposal
                    .chair
                    .as_deref()
                    .and_then(|id| eligible.iter().find(|c| c.id == id));
                if let (true, Some(by)) =
                    (proposal.interrupt && proposal.urgency >= threshold, chosen)
                {
                    watch.cut_at_sentence();
                    return Ok(Some(Cut {
                        by: by.id.clone(),
                        proposal,
                    }));
                }
            }
            if done {
                return Ok(None);
            }
            if let Some(v) = watch.changed(seen).await {
                seen = v;
            }
        }
    }

    /// One interruption check on the analyst seat; `None` when it was skipped (its
    /// connection was busy with the speech) or its answer could not be read.
    async fn check(
        &self,
        path: &str,
        n: u32,
        speaker: &Seat,
        heard: &str,
        eligible: &[&Seat],
        hint: Option<InterruptReason>,
    ) -> Result<Option<Proposal>, DebateError> {
        let aggressiveness = self.o.aggressiveness.to_string();
        let words = match self.o.aggressiveness {
            1 | 2 => "conservative: only for major issues",
            3 => "moderate: for meaningful moments",
            _ => "aggressive: interrupt readily",
        };
        let eligible_list: Vec<String> = eligible
            .iter()
            .map(|c| format!("- {} ({}, {})", c.id, c.name, c.framework.name))
            .collect();
        let recent: String = {
            let chars: Vec<char> = heard.chars().collect();
            chars[chars.len().saturating_sub(800)..].iter().collect()
        };
        let mut user = render(
            p::INTERRUPT_CHECK,
            &[
                ("aggressiveness", &aggressiveness),
                ("aggressiveness_words", words),
                ("speaker", &speaker.name),
                ("speaker_framework", &speaker.framework.name),
                ("recent", &recent),
                ("eligible", &eligible_list.join("\n")),
            ],
        );
        if let Some(h) = hint {
            user.push_str(&format!(
                "\n\nA pattern check flagged a possible {}.",
                h.words()
            ));
        }
        let spec = CallSpec::new(
            format!("{path}/check/{n}"),
            self.config.analyst.clone(),
            Purpose::Check,
            "Interruption check",
        )
        .messages(vec![ChatMessage::user(user)])
        .max_tokens(CHECK_TOKENS)
        .temperature(0.3)
        .json_schema(proposal_schema());
        let Some(out) = self.ctx.check(spec).await? else {
            return Ok(None);
        };
        Ok(json_extract::extract(&out.text)
            .and_then(|v| parse_proposal(&v))
            .ok())
    }

    async fn turn(&mut self, round: u32, i: usize) -> Result<(), DebateError> {
        let chair = self.chairs[i].clone();
        let path = format!("round/{round}/{}", chair.id);
        let system = self.chair_system(&chair);
        let instruction = if round == 1 && i == 0 {
            "Open the debate: make your framework's case on the question.".to_string()
        } else if round == 1 {
            "Make your framework's case, engaging with what the chairs before you said.".to_string()
        } else {
            "Respond to the other chairs: steel-man the strongest point against you, answer it from your framework, and admit where your framework struggles.".to_string()
        };
        let rounds = self.o.rounds.to_string();
        let round_s = round.to_string();
        let words = transcript::words(TURN_TOKENS);
        let vars = [
            ("round", round_s.as_str()),
            ("rounds", &rounds),
            ("instruction", &instruction),
            ("max_words", &words),
        ];
        let user = self.prompt(&chair.id, &system, p::CHAIR_TURN, TURN_TOKENS, &vars);

        let watch = Watch::new();
        let speech = self.ctx.call(
            CallSpec::new(
                path.clone(),
                chair.id.clone(),
                Purpose::Argument,
                "Argument",
            )
            .messages(vec![
                ChatMessage::system(system.clone()),
                ChatMessage::user(user),
            ])
            .max_tokens(TURN_TOKENS)
            .temperature(0.8)
            .watch(watch.clone()),
        );
        let interruptions = self.o.interruptions && self.o.chair_interruptions;
        let checker = async {
            if interruptions {
                self.watch_for_interruption(&path, &chair, watch).await
            } else {
                Ok(None)
            }
        };
        let (speech, cut) = futures::join!(speech, checker);
        let (speech, cut) = (speech?, cut?);
        self.remember(&chair.id, "Argument", &speech.text);
        let mut full = speech.text.clone();

        if let (Some(cut), super::super::event::FinishReason::Cut) = (cut, speech.finish) {
            full.push_str(
                &self
                    .interruption(&path, &chair, &speech.key, cut, &speech.text)
                    .await?,
            );
        }
        if rules::evaluates(self.o.accountability) {
            self.evaluate(&path, &chair, &speech.key, &full).await?;
        }
        Ok(())
    }

    /// An accepted interruption: recorded, the interrupter's one or two sentences, and
    /// the interrupted chair's answer (which continues its point). Returns that answer.
    async fn interruption(
        &mut self,
        path: &str,
        chair: &Seat,
        key: &CallKey,
        cut: Cut,
        kept: &str,
    ) -> Result<String, DebateError> {
        let at = self.ctx.now_ms(&format!("{path}/interrupted-at"));
        self.last_interrupt.insert(cut.by.clone(), at);
        let p = &cut.proposal;
        let opener = if p.opener.trim().is_empty() {
            p.reason.opener().to_string()
        } else {
            p.opener.trim().to_string()
        };
        let trigger = if p.trigger.trim().is_empty() {
            clip(kept.trim(), 120)
        } else {
            clip(p.trigger.trim(), 200)
        };
        self.ctx.record(Finding {
            key: format!("{path}/interruption"),
            about: Some(key.clone()),
            seat: chair.id.clone(),
            body: FindingBody::Interruption {
                by: cut.by.clone(),
                reason: p.reason,
                trigger: trigger.clone(),
                urgency: (p.urgency * 100.0).round() as u32,
                kept_chars: kept.chars().count() as u32,
            },
        });
        let by = self.chairs.iter().find(|c| c.id == cut.by).cloned();
        let Some(by) = by else {
            return Ok(String::new());
        };
        let system = self.chair_system(&by);
        let words = transcript::words(INTERRUPTION_TOKENS);
        let vars = [
            ("speaker", chair.name.as_str()),
            ("trigger", &trigger),
            ("reason", p.reason.words()),
            ("opener", &opener),
            ("max_words", &words),
        ];
        let user = self.prompt(&by.id, &system, p::INTERRUPTION, INTERRUPTION_TOKENS, &vars);
        let said = self
            .speak(
                CallSpec::new(
                    format!("{path}/interruption"),
                    &by.id,
                    Purpose::Argument,
                    "Interruption",
                )
                .system_and_user(system, user)
                .max_tokens(INTERRUPTION_TOKENS)
                .temperature(0.8),
            )
            .await?;
        let system = self.chair_system(chair);
        let words = transcript::words(RESUME_TOKENS);
        let vars = [
            ("interrupter", by.name.as_str()),
            ("interruption", &said),
            ("max_words", &words),
        ];
        let user = self.prompt(&chair.id, &system, p::RESUME, RESUME_TOKENS, &vars);
        let answer = self
            .speak(
                CallSpec::new(
                    format!("{path}/resume"),
                    &chair.id,
                    Purpose::Argument,
                    "Answer and resume",
                )
                .system_and_user(system, user)
                .max_tokens(RESUME_TOKENS)
                .temperature(0.8),
            )
            .await?;
        Ok(format!("\n\n{answer}"))
    }

    /// The Arbiter's evaluation of a chair's response, and an interjection where the
    /// accountability level calls for one.
    async fn evaluate(
        &mut self,
        path: &str,
        chair: &Seat,
        key: &CallKey,
        response: &str,
    ) -> Result<(), DebateError> {
        let prompt = |response: &str, context: &str| {
            render(
                p::EVALUATION,
                &[
                    ("name", &chair.name),
                    ("framework", &chair.framework.name),
                    ("description", &chair.framework.description),
                    ("response", response),
                    ("context", context),
                ],
            )
        };
        // The response and the four speeches before it, within what the Arbiter's window
        // leaves: the response up to two thirds of it, the speeches a share of the rest.
        let schema = evaluation_schema();
        let window = self
            .config
            .seat(&self.config.analyst)
            .map_or(4096, |s| s.participant.context_tokens());
        let room = transcript::budget(
            window,
            EVALUATION_TOKENS,
            "",
            &prompt("", ""),
            Some(&schema),
        );
        let shown = transcript::clip_tokens(&clip(response, 4000), room * 2 / 3);
        let each = (room.saturating_sub(tokens::estimate(&shown)) / 4)
            .saturating_sub(12)
            .max(16);
        let before: Vec<String> = self
            .said
            .iter()
            .rev()
            .skip(1)
            .take(4)
            .map(|s| {
                let text = transcript::clip_tokens(&clip(&s.text, 400), each);
                format!("{}: {text}", s.speaker)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let user = prompt(&shown, &before.join("\n\n"));
        let analyst = self.config.analyst.clone();
        let evaluation = self
            .ctx
            .call_json(
                CallSpec::new(
                    format!("{path}/evaluation"),
                    analyst,
                    Purpose::Evaluation,
                    "Evaluation",
                )
                .messages(vec![ChatMessage::user(user)])
                .max_tokens(EVALUATION_TOKENS)
                .temperature(0.3)
                .json_schema(schema)
                .tolerate_failure(),
                parse_evaluation,
            )
            .await?;
        let read = evaluation.read;
        self.ctx.record_structured(
            (format!("{path}/evaluation"), Some(key.clone()), &chair.id),
            || format!("{}'s response", chair.name),
            read.clone(),
            FindingBody::Evaluation,
        );
        let Ok(e) = read else {
            return Ok(());
        };
        if !rules::interjects(self.o.accountability, &e) {
            return Ok(());
        }
        let violation = rules::violation(&e);
        let reason = if e.reason.is_empty() {
            String::new()
        } else {
            format!("The evaluation says: {}", e.reason)
        };
        let user = render(
            p::INTERJECTION,
            &[
                ("name", &chair.name),
                ("framework", &chair.framework.name),
                ("violation", violation.words()),
                ("reason", &reason),
                ("excerpt", &clip(response, 600)),
                ("max_words", &transcript::words(INTERJECTION_TOKENS)),
            ],
        );
        let system = self.arbiter_system();
        let text = self
            .speak(
                CallSpec::new(
                    format!("{path}/interjection"),
                    ARBITER,
                    Purpose::Moderation,
                    "Interjection",
                )
                .system_and_user(system, user)
                .max_tokens(INTERJECTION_TOKENS)
                .temperature(0.5),
            )
            .await?;
        self.ctx.record(Finding {
            key: format!("{path}/interjection"),
            about: Some(key.clone()),
            seat: chair.id.clone(),
            body: FindingBody::Interjection {
                violation: violation.words().into(),
                text: text.clone(),
            },
        });
        let system = self.chair_system(chair);
        let words = transcript::words(ANSWER_TOKENS);
        let vars = [("interjection", text.as_str()), ("max_words", &words)];
        let user = self.prompt(
            &chair.id,
            &system,
            p::INTERJECTION_ANSWER,
            ANSWER_TOKENS,
            &vars,
        );
        self.speak(
            CallSpec::new(
                format!("{path}/answer"),
                &chair.id,
                Purpose::Argument,
                "Answer to the Arbiter",
            )
            .system_and_user(system, user)
            .max_tokens(ANSWER_TOKENS)
            .temperature(0.8),
        )
        .await?;
        Ok(())
    }

    async fn closing(&mut self) -> Result<(), DebateError> {
        let (show, episode) = self.show();
        let stats = stats::Stats::from_events(&self.config, &self.ctx.events());
        let scorecard = stats.scorecard(&self.config);
        let system = self.arbiter_system();
        let cta = if self.o.call_to_action {
            "Before signing off, invite listeners to subscribe and share the episode."
        } else {
            ""
        };
        let vars = [
            ("show", show),
            ("episode", episode.as_str()),
            ("topic", &self.config.topic),
            ("scorecard", &scorecard),
            ("call_to_action", cta),
            ("max_words", &transcript::words(CLOSING_TOKENS)),
        ];
        let user = self.prompt(ARBITER, &system, p::CLOSING, CLOSING_TOKENS, &vars);
        self.speak(
            CallSpec::new("closing", ARBITER, Purpose::Summary, "Closing")
                .system_and_user(system, user)
                .max_tokens(CLOSING_TOKENS)
                .temperature(0.7),
        )
        .await?;
        Ok(())
    }

    async fn run(&mut self) -> Result<(), DebateError> {
        self.ctx.phase("intro", "Introduction", None);
        self.intro().await?;
        for round in 1..=self.o.rounds {
            self.ctx.phase(
                &format!("round/{round}"),
                &format!("Round {round}"),
                Some(round),
            );
            self.round_starts.push(self.said.len());
            for i in 0..self.chairs.len() {
                self.turn(round, i).await?;
            }
        }
        self.ctx.phase("closing", "Closing", None);
        self.round_starts.push(self.said.len());
        self.closing().await
    }
}

pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    Duelogic::new(ctx)?.run().await
}

/// The opening of `text` in about `tokens`: whole sentences where one fits, else cut.
fn lead(text: &str, tokens: u32) -> String {
    let text = text.trim();
    let cut = transcript::clip_tokens(text, tokens);
    if cut == text {
        return cut;
    }
    let room = cut.len().saturating_sub('…'.len_utf8());
    match sentence_ends(text)
        .into_iter()
        .take_while(|&e| e <= room)
        .last()
    {
        Some(end) => text[..end].to_string(),
        None => cut,
    }
}

#[cfg(test)]
mod tests;
