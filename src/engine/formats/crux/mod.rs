//! The crux format (seed 004): personas, each speaking from a contract (`persona`), debate a
//! topic the analyst first breaks into aspects. Every persona opens with a micro-turn; each
//! aspect runs three minirounds (initial takes, reactions to whoever they disagree with most,
//! then a reply to whoever answered them), a round summary and a disagreement detection with
//! three gates. When all three hold, the two personas go into a crux room: position
//! statements, an alternating exchange of at most 14 turns whose prompts carry only the
//! position summary and the last four messages, exit checks after turns 3, 5, …, 13, a
//! convergence check and a crux card. Closings, position-shift detection and a final summary
//! end the debate. Every analysis answer goes through `call_json` and is validated; what
//! cannot be read is recorded as not extracted or unscored, never filled in. The call order
//! is listed in `prompts/README.md`.

pub mod analysis;
pub mod findings;
pub mod options;
pub mod paths;
pub mod persona;
pub(super) mod plan;
pub mod prompts;
pub(super) mod schemas;

use futures::future::join_all;

use super::super::answer::{Problem, Unread};
use super::super::config::{CruxOptions, DebateConfig, FormatOptions, Participant, SeatConfig};
use super::super::context::{CallSpec, DebateCtx, DebateError};
use super::super::event::{CallKey, Purpose};
use super::super::finding::{Aspect, CruxCard, Disagreement, Finding, FindingBody, RoomCheckKind};
use super::super::prompt::{crux as p, render};
use super::super::transcript::{clip, words};
use analysis::Detection;
use paths::CruxPath;
use persona::{CruxPersona, PersonaContract};

pub use super::ANALYST;

/// Seed 004's token limits.
pub const DECOMPOSE_TOKENS: u32 = 300;
pub const OPENING_TOKENS: u32 = 200;
pub const TAKE_TOKENS: u32 = 250;
pub const ROUND_SUMMARY_TOKENS: u32 = 100;
pub const DETECTION_TOKENS: u32 = 150;
pub const POSITION_TOKENS: u32 = 200;
pub const EXCHANGE_TOKENS: u32 = 250;
pub const EXIT_TOKENS: u32 = 200;
pub const CONVERGENCE_TOKENS: u32 = 200;
pub const CARD_TOKENS: u32 = 600;
pub const CLOSING_TOKENS: u32 = 350;
pub const SHIFT_TOKENS: u32 = 300;
pub const SUMMARY_TOKENS: u32 = 1500;

/// Minirounds per aspect: initial takes, reactions, replies.
pub const MINIROUNDS: u32 = 3;
/// The seed's cap on a crux room's exchange.
pub const MAX_EXCHANGES: u32 = 14;
/// Exchange prompts carry this many of the latest messages, and exit checks this many.
const RECENT: usize = 4;
const EXIT_WINDOW: usize = 6;
/// Each message quoted in a bounded prompt is clipped to this many characters.
const QUOTE_CHARS: usize = 700;

/// An exit check runs after this exchange turn (numbered from 0): 3, 5, 7, 9, 11, 13.
pub fn exit_check_after(turn: u32) -> bool {
    turn >= 3 && turn % 2 == 1
}

/// The seat of the `i`-th persona (from 0).
pub fn persona_seat(i: usize) -> String {
    format!("persona-{}", i + 1)
}

/// A crux debate's configuration: personas in order, each with who fills its seat, and the
/// analyst who decomposes, detects, checks and extracts.
pub fn new_config(
    topic: &str,
    personas: Vec<(PersonaContract, Participant)>,
    analyst: Participant,
    mut options: CruxOptions,
) -> DebateConfig {
    let mut seats = Vec::new();
    options.personas.clear();
    for (i, (contract, participant)) in personas.into_iter().enumerate() {
        let seat = persona_seat(i);
        seats.push(SeatConfig {
            id: seat.clone(),
            name: contract.name.clone(),
            stance: Some(clip(&contract.identity.bias, 120)),
            participant,
        });
        options.personas.push(CruxPersona::new(seat, &contract));
    }
    seats.push(super::analyst_seat(analyst));
    DebateConfig {
        topic: topic.trim().to_string(),
        seats,
        analyst: ANALYST.into(),
        options: FormatOptions::Crux(options),
        spending_cap: None,
        forked_from: None,
    }
}

/// Checks a crux configuration, with messages for the user.
pub fn validate(config: &DebateConfig, o: &CruxOptions) -> Result<(), String> {
    if !(2..=6).contains(&o.personas.len()) {
        return Err("A crux debate has between 2 and 6 personas.".into());
    }
    if !(1..=5).contains(&o.aspects) {
        return Err("A crux debate has between 1 and 5 aspects.".into());
    }
    if !(2..=MAX_EXCHANGES).contains(&o.max_exchanges) {
        return Err(format!(
            "A crux room's exchange has between 2 and {MAX_EXCHANGES} turns."
        ));
    }
    let t = o.temperatures;
    for (name, v) in [
        ("generation", t.generation),
        ("crux exchange", t.exchange),
        ("analysis", t.analysis),
        ("extraction", t.extraction),
    ] {
        if !(0.0..=2.0).contains(&v) {
            return Err(format!("The {name} temperature goes from 0 to 2."));
        }
    }
    for (i, cp) in o.personas.iter().enumerate() {
        if cp.seat == config.analyst {
            return Err("The analyst cannot also be a persona.".into());
        }
        if o.personas[..i].iter().any(|q| q.seat == cp.seat) {
            return Err(format!("The seat `{}` holds two personas.", cp.seat));
        }
        let Some(seat) = config.seat(&cp.seat) else {
            return Err(format!("The persona of `{}` has no seat.", cp.seat));
        };
        cp.read().map_err(|e| format!("{}: {e}", seat.name))?;
    }
    Ok(())
}

/// A persona as the format uses it.
struct Voice {
    seat: String,
    name: String,
    contract: PersonaContract,
    system: String,
    banned: Vec<String>,
}

/// What was said in a crux room, for its prompts and its card.
struct Room {
    /// The aspect the room digs into; its key is `room/{aspect}`.
    aspect: u32,
    key: String,
    question: String,
    /// The two seats, in speaking order.
    sides: [usize; 2],
    positions: [String; 2],
    /// (persona index, cleaned text).
    messages: Vec<(usize, String)>,
    last_key: Option<CallKey>,
}

struct Crux<'a> {
    ctx: &'a DebateCtx,
    config: DebateConfig,
    o: CruxOptions,
    voices: Vec<Voice>,
    /// Finished aspects' summaries: (title, text).
    summaries: Vec<(String, String)>,
    /// Disagreements detected, in words, with no card that resolved them.
    open: Vec<String>,
    cards: Vec<CruxCard>,
    openings: Vec<String>,
}

fn quote(name: &str, text: &str) -> String {
    format!("{name}: {}", clip(text.trim(), QUOTE_CHARS))
}

/// Does `text` address the persona called `name` ("The Actuary", or "Actuary")?
fn mentions(text: &str, name: &str) -> bool {
    let text = text.to_lowercase();
    let name = name.trim().to_lowercase();
    let short = name.strip_prefix("the ").unwrap_or(&name);
    !short.is_empty() && (text.contains(&name) || text.contains(short))
}

impl<'a> Crux<'a> {
    fn new(ctx: &'a DebateCtx) -> Result<Self, DebateError> {
        let config = ctx.config();
        let o = match &config.options {
            FormatOptions::Crux(o) => o.clone(),
            _ => return Err(DebateError::Config("This is not a crux debate.".into())),
        };
        validate(&config, &o).map_err(DebateError::Config)?;
        let voices: Vec<Voice> = o
            .personas
            .iter()
            .filter_map(|cp| {
                let contract = cp.read().ok()?;
                Some(Voice {
                    seat: cp.seat.clone(),
                    name: config
                        .seat(&cp.seat)
                        .map_or_else(|| contract.name.clone(), |s| s.name.clone()),
                    system: persona::system_prompt(&contract, &config.topic),
                    banned: persona::banned(&contract),
                    contract,
                })
            })
            .collect();
        let n = voices.len();
        Ok(Crux {
            ctx,
            config,
            o,
            voices,
            summaries: Vec::new(),
            open: Vec::new(),
            cards: Vec::new(),
            openings: vec![String::new(); n],
        })
    }

    fn ids(&self, only: &[usize]) -> Vec<(String, String)> {
        only.iter()
            .map(|&i| (self.voices[i].seat.clone(), self.voices[i].name.clone()))
            .collect()
    }

    fn all(&self) -> Vec<usize> {
        (0..self.voices.len()).collect()
    }

    fn id_list(&self, only: &[usize]) -> String {
        only.iter()
            .map(|&i| format!("{} ({})", self.voices[i].seat, self.voices[i].name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Persona `i`'s call with the given system prompt and `user`; the caller adds its
    /// length and temperature.
    fn say(
        &self,
        i: usize,
        path: String,
        label: impl Into<String>,
        system: String,
        user: String,
    ) -> CallSpec {
        CallSpec::new(path, self.voices[i].seat.clone(), Purpose::Argument, label)
            .system_and_user(system, user)
    }

    /// Persona `i` speaks: the call made, its text cleaned of banned openers.
    async fn speak(&self, i: usize, spec: CallSpec) -> Result<(String, CallKey), DebateError> {
        let v = &self.voices[i];
        let out = self.ctx.call(spec).await?;
        Ok((persona::clean(&out.text, &v.name, &v.banned), out.key))
    }

    /// Several personas speak at once (a miniround, the openings, the closings).
    async fn speak_all(
        &self,
        says: Vec<(usize, CallSpec)>,
    ) -> Result<Vec<(String, CallKey)>, DebateError> {
        let calls = says.into_iter().map(|(i, spec)| self.speak(i, spec));
        join_all(calls).await.into_iter().collect()
    }

    /// A call on the analyst seat: the analyst's system prompt and `user`; the caller
    /// adds its length, temperature and schema.
    fn analysis(&self, path: String, purpose: Purpose, label: &str, user: String) -> CallSpec {
        CallSpec::new(path, self.config.analyst.clone(), purpose, label)
            .system_and_user(p::ANALYST_SYSTEM.trim(), user)
            .tolerate_failure()
    }

    /// Makes an analysis call and reads its answer with `read`: the value, or why the
    /// answer could not be read even after one repair.
    async fn analyse<T>(
        &self,
        spec: CallSpec,
        read: impl Fn(&serde_json::Value) -> Result<T, Problem>,
    ) -> Result<Result<T, Unread>, DebateError> {
        Ok(self.ctx.call_json(spec, read).await?.read)
    }

    /// An analysis answer that could not be read. Recorded standing on its own (no `about`),
    /// so it is not shown as a missing score under a persona's turn.
    fn unscored(&self, key: String, what: String, reason: impl std::fmt::Display) {
        self.ctx.record(Finding {
            key,
            about: None,
            seat: String::new(),
            body: FindingBody::Unscored {
                what,
                reason: reason.to_string(),
            },
        });
    }

    /// Seed 004's turn context: topic, earlier aspects' summaries, open disagreements and
    /// the crux cards so far; each part clipped, so it stays bounded.
    fn turn_context(&self) -> String {
        let mut parts = vec![format!("Debate topic: {}", self.config.topic)];
        if !self.summaries.is_empty() {
            let s: Vec<String> = self
                .summaries
                .iter()
                .map(|(t, s)| format!("- {t}: {}", clip(s, 500)))
                .collect();
            parts.push(format!("Earlier rounds:\n{}", s.join("\n")));
        }
        if !self.open.is_empty() {
            let s: Vec<String> = self
                .open
                .iter()
                .rev()
                .take(5)
                .rev()
                .map(|d| format!("- {}", clip(d, 300)))
                .collect();
            parts.push(format!("Open disagreements:\n{}", s.join("\n")));
        }
        if !self.cards.is_empty() {
            let s: Vec<String> = self
                .cards
                .iter()
                .rev()
                .take(5)
                .rev()
                .map(|c| {
                    let sides: Vec<String> = c
                        .sides
                        .iter()
                        .map(|s| format!("{}: {}", self.name_of(&s.seat), clip(&s.position, 200)))
                        .collect();
                    format!(
                        "- {} ({}, {}) {}",
                        clip(&c.crux, 300),
                        c.kind.id(),
                        if c.resolved { "resolved" } else { "unresolved" },
                        sides.join("; ")
                    )
                })
                .collect();
            parts.push(format!("Crux cards so far:\n{}", s.join("\n")));
        }
        parts.join("\n\n")
    }

    fn name_of(&self, seat: &str) -> String {
        self.config
            .seat(seat)
            .map_or_else(|| seat.to_string(), |s| s.name.clone())
    }

    async fn decompose(&mut self) -> Result<Vec<Aspect>, DebateError> {
        self.ctx.phase("aspects", "Aspects", None);
        let count = self.o.aspects as usize;
        let user = render(
            p::DECOMPOSE,
            &[("topic", &self.config.topic), ("count", &count.to_string())],
        );
        let got = self
            .analyse(
                self.analysis(
                    CruxPath::Aspects.into(),
                    Purpose::Extraction,
                    "Topic decomposition",
                    user,
                )
                .max_tokens(DECOMPOSE_TOKENS)
                .temperature(self.o.temperatures.extraction)
                .json_schema(schemas::aspects(count)),
                |v| analysis::parse_aspects(v, count),
            )
            .await?;
        match got {
            Ok(aspects) => {
                self.ctx.record(Finding {
                    key: CruxPath::Aspects.into(),
                    about: None,
                    seat: String::new(),
                    body: FindingBody::Aspects(aspects.clone()),
                });
                Ok(aspects)
            }
            Err(reason) => {
                // The topic itself is debated as one aspect: nothing is made up.
                self.unscored(
                    CruxPath::Aspects.into(),
                    "Topic decomposition".into(),
                    format!("{reason}; the topic is debated as a whole"),
                );
                Ok(vec![Aspect {
                    label: "The topic as a whole".into(),
                    question: self.config.topic.clone(),
                }])
            }
        }
    }

    async fn openings(&mut self) -> Result<(), DebateError> {
        self.ctx.phase("opening", "Openings", None);
        let words = words(OPENING_TOKENS);
        let user = render(
            p::OPENING,
            &[("topic", &self.config.topic), ("max_words", &words)],
        );
        let calls = self.all().into_iter().map(|i| {
            (
                i,
                self.say(
                    i,
                    CruxPath::Opening {
                        seat: self.voices[i].seat.clone(),
                    }
                    .into(),
                    "Opening",
                    self.voices[i].system.clone(),
                    user.clone(),
                )
                .max_tokens(OPENING_TOKENS)
                .temperature(self.o.temperatures.generation),
            )
        });
        let said = self.speak_all(calls.collect()).await?;
        for (i, (text, _)) in said.into_iter().enumerate() {
            self.openings[i] = text;
        }
        Ok(())
    }

    async fn aspect(&mut self, a: u32, aspect: &Aspect) -> Result<(), DebateError> {
        self.ctx.phase(
            &format!("aspect/{a}"),
            &format!("Aspect {a}: {}", aspect.label),
            Some(a),
        );
        let n = self.voices.len();
        let gen = self.o.temperatures.generation;
        let max_words = words(TAKE_TOKENS);
        let context = self.turn_context();
        let openings: Vec<String> = (0..n)
            .map(|i| quote(&self.voices[i].name, &clip(&self.openings[i], 400)))
            .collect();
        let openings = openings.join("\n");
        let mut rounds: Vec<Vec<String>> = Vec::new();
        for m in 0..MINIROUNDS {
            let what = ["initial takes", "reactions", "replies"][m as usize % 3];
            self.ctx.phase(
                &format!("aspect/{a}/round/{m}"),
                &format!("Aspect {a}, miniround {}: {what}", m + 1),
                Some(a),
            );
            let prev = rounds.last().cloned().unwrap_or_default();
            let first = rounds.first().cloned().unwrap_or_default();
            let calls = (0..n).map(|i| {
                let others = |takes: &[String]| {
                    (0..n)
                        .filter(|&j| j != i)
                        .map(|j| quote(&self.voices[j].name, &takes[j]))
                        .collect::<Vec<_>>()
                        .join("\n\n")
                };
                let (label, user) = if m == 0 {
                    (
                        "Take".to_string(),
                        render(
                            p::TAKE,
                            &[
                                ("aspect", &aspect.label),
                                ("question", &aspect.question),
                                ("context", &context),
                                ("openings", &openings),
                                ("max_words", &max_words),
                            ],
                        ),
                    )
                } else {
                    // From the third miniround, whoever was answered by name fires back.
                    let replier = (m >= 2)
                        .then(|| {
                            (0..n).find(|&j| j != i && mentions(&prev[j], &self.voices[i].name))
                        })
                        .flatten();
                    match replier {
                        Some(j) => (
                            format!("Reply to {}", self.voices[j].name),
                            render(
                                p::REPLY,
                                &[
                                    ("aspect", &aspect.label),
                                    ("mine", &clip(&first[i], QUOTE_CHARS)),
                                    ("replier", &self.voices[j].name),
                                    ("reply", &clip(&prev[j], QUOTE_CHARS)),
                                    ("max_words", &max_words),
                                ],
                            ),
                        ),
                        None => (
                            "Reaction".to_string(),
                            render(
                                p::REACTION,
                                &[
                                    ("aspect", &aspect.label),
                                    ("question", &aspect.question),
                                    ("context", &context),
                                    ("takes", &others(&prev)),
                                    ("max_words", &max_words),
                                ],
                            ),
                        ),
                    }
                };
                (
                    i,
                    self.say(
                        i,
                        CruxPath::Take {
                            aspect: a,
                            miniround: m,
                            seat: self.voices[i].seat.clone(),
                        }
                        .into(),
                        label,
                        self.voices[i].system.clone(),
                        user,
                    )
                    .max_tokens(TAKE_TOKENS)
                    .temperature(gen),
                )
            });
            let said = self.speak_all(calls.collect()).await?;
            rounds.push(said.into_iter().map(|(t, _)| t).collect());
        }
        self.round_summary(a, aspect, &rounds).await?;
        let last = rounds.last().cloned().unwrap_or_default();
        let detection = self.detect(a, aspect, &last).await?;
        if let Some(d) = detection {
            self.room(a, d).await?;
        }
        Ok(())
    }

    async fn round_summary(
        &mut self,
        a: u32,
        aspect: &Aspect,
        rounds: &[Vec<String>],
    ) -> Result<(), DebateError> {
        let mut takes = Vec::new();
        for (m, round) in rounds.iter().enumerate() {
            for (i, t) in round.iter().enumerate() {
                takes.push(format!(
                    "[miniround {}] {}",
                    m + 1,
                    quote(&self.voices[i].name, &clip(t, 500))
                ));
            }
        }
        let user = render(
            p::ROUND_SUMMARY,
            &[("aspect", &aspect.label), ("takes", &takes.join("\n\n"))],
        );
        let key: String = CruxPath::RoundSummary { aspect: a }.into();
        let title = format!("Aspect {a}: {}", aspect.label);
        match self
            .analyse(
                self.analysis(key.clone(), Purpose::Extraction, "Round summary", user)
                    .max_tokens(ROUND_SUMMARY_TOKENS)
                    .temperature(self.o.temperatures.analysis)
                    .json_schema(schemas::round_summary()),
                analysis::parse_round_summary,
            )
            .await?
        {
            Ok((summary, contested)) => {
                let mut text = summary.clone();
                if !contested.is_empty() {
                    text.push_str("\n\nContested:\n");
                    text.push_str(
                        &contested
                            .iter()
                            .map(|c| format!("- {c}"))
                            .collect::<Vec<_>>()
                            .join("\n"),
                    );
                }
                self.ctx.record(Finding {
                    key,
                    about: None,
                    seat: String::new(),
                    body: FindingBody::Summary {
                        title: title.clone(),
                        text,
                    },
                });
                self.summaries.push((title, summary));
            }
            Err(reason) => self.unscored(key, format!("{title} summary"), reason),
        }
        Ok(())
    }

    /// The disagreement detection over the last miniround: a room opens only when all three
    /// gates hold and two different personas are named.
    async fn detect(
        &mut self,
        a: u32,
        aspect: &Aspect,
        last: &[String],
    ) -> Result<Option<Detection>, DebateError> {
        let takes: Vec<String> = last
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    "[{}] {}",
                    self.voices[i].seat,
                    quote(&self.voices[i].name, t)
                )
            })
            .collect();
        let all = self.all();
        let people = self.ids(&all);
        let user = render(
            p::DISAGREEMENT,
            &[
                ("aspect", &aspect.label),
                ("topic", &self.config.topic),
                ("takes", &takes.join("\n\n")),
                ("ids", &self.id_list(&all)),
            ],
        );
        let key: String = CruxPath::Detection { aspect: a }.into();
        let got = self
            .analyse(
                self.analysis(key.clone(), Purpose::Check, "Disagreement detection", user)
                    .max_tokens(DETECTION_TOKENS)
                    .temperature(self.o.temperatures.analysis)
                    .json_schema(schemas::detection(&people)),
                |v| analysis::parse_detection(v, &people),
            )
            .await?;
        let d = match got {
            Ok(d) => d,
            Err(reason) => {
                self.unscored(key, "Disagreement detection".into(), reason);
                return Ok(None);
            }
        };
        let opened = d.opens_room();
        self.ctx.record(Finding {
            key,
            about: None,
            seat: String::new(),
            body: FindingBody::Disagreement(Disagreement {
                direct_opposition: d.direct_opposition,
                specific_claim: d.specific_claim,
                topic_relevant: d.topic_relevant,
                seats: d.seats.clone(),
                claim: d.claim.clone(),
                question: d.question.clone(),
                opened,
            }),
        });
        Ok(opened.then_some(d))
    }

    fn index_of(&self, seat: &str) -> usize {
        self.voices.iter().position(|v| v.seat == seat).unwrap_or(0)
    }

    fn room_system(&self, me: usize, other: usize, question: &str) -> String {
        persona::room_system_prompt(
            &self.voices[me].contract,
            &self.config.topic,
            question,
            &self.voices[other].name,
        )
    }

    fn positions_summary(&self, room: &Room) -> String {
        (0..2)
            .map(|k| quote(&self.voices[room.sides[k]].name, &room.positions[k]))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn lines(&self, messages: &[(usize, String)]) -> String {
        if messages.is_empty() {
            return "(none yet)".into();
        }
        messages
            .iter()
            .map(|(i, t)| quote(&self.voices[*i].name, t))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The user prompt of exchange turn `t`: the position summary, the last four messages
    /// and the opponent's last message, each clipped, so its size does not grow with the
    /// exchange.
    fn exchange_prompt(&self, room: &Room, t: u32) -> String {
        let other_k = (t as usize + 1) % 2;
        let other = room.sides[other_k];
        let recent = &room.messages[room.messages.len().saturating_sub(RECENT)..];
        let last = room
            .messages
            .iter()
            .rev()
            .find(|(i, _)| *i == other)
            .map_or(room.positions[other_k].as_str(), |(_, t)| t.as_str());
        render(
            if t < 4 {
                p::EXCHANGE_EARLY
            } else {
                p::EXCHANGE_LATE
            },
            &[
                ("positions", &self.positions_summary(room)),
                ("recent", &self.lines(recent)),
                ("opponent", &self.voices[other].name),
                ("last", &clip(last.trim(), QUOTE_CHARS)),
                ("max_words", &words(EXCHANGE_TOKENS)),
            ],
        )
    }

    async fn room(&mut self, a: u32, d: Detection) -> Result<(), DebateError> {
        let key = paths::room_key(a);
        self.ctx
            .phase(&key, &format!("Crux room: {}", d.question), Some(a));
        let sides = [self.index_of(&d.seats[0]), self.index_of(&d.seats[1])];
        let exchange = self.o.temperatures.exchange;
        let position = render(
            p::POSITION,
            &[
                ("question", &d.question),
                ("max_words", &words(POSITION_TOKENS)),
            ],
        );
        let calls = (0..2).map(|k| {
            let (me, other) = (sides[k], sides[1 - k]);
            (
                me,
                self.say(
                    me,
                    CruxPath::Position {
                        aspect: a,
                        seat: self.voices[me].seat.clone(),
                    }
                    .into(),
                    "Position statement",
                    self.room_system(me, other, &d.question),
                    position.clone(),
                )
                .max_tokens(POSITION_TOKENS)
                .temperature(exchange),
            )
        });
        let said = self.speak_all(calls.collect()).await?;
        let mut room = Room {
            aspect: a,
            key: key.clone(),
            question: d.question.clone(),
            sides,
            positions: [said[0].0.clone(), said[1].0.clone()],
            messages: Vec::new(),
            last_key: Some(said[1].1.clone()),
        };
        for t in 0..self.o.max_exchanges.min(MAX_EXCHANGES) {
            let me = sides[t as usize % 2];
            let other = sides[(t as usize + 1) % 2];
            let user = self.exchange_prompt(&room, t);
            let (text, call) = self
                .speak(
                    me,
                    self.say(
                        me,
                        CruxPath::Exchange { aspect: a, turn: t }.into(),
                        format!("Exchange {t}"),
                        self.room_system(me, other, &d.question),
                        user,
                    )
                    .max_tokens(EXCHANGE_TOKENS)
                    .temperature(exchange),
                )
                .await?;
            room.messages.push((me, text));
            room.last_key = Some(call.clone());
            if exit_check_after(t) && self.exit_check(&room, t, call).await? {
                break;
            }
        }
        self.convergence(&room).await?;
        self.card(&room, &d).await
    }

    /// True when the crux has surfaced and the exchange can end.
    async fn exit_check(&self, room: &Room, t: u32, about: CallKey) -> Result<bool, DebateError> {
        let recent = &room.messages[room.messages.len().saturating_sub(EXIT_WINDOW)..];
        let user = render(
            p::EXIT_CHECK,
            &[
                ("question", &room.question),
                ("recent", &self.lines(recent)),
            ],
        );
        let key = CruxPath::ExitCheck {
            aspect: room.aspect,
            turn: t,
        }
        .into();
        self.room_check(RoomCheckKind::Exit, key, Some(about), user)
            .await
    }

    fn conversation(&self, room: &Room) -> String {
        format!(
            "Position statements:\n{}\n\nExchange:\n{}",
            self.positions_summary(room),
            self.lines(&room.messages)
        )
    }

    async fn convergence(&self, room: &Room) -> Result<(), DebateError> {
        let user = render(
            p::CONVERGENCE,
            &[
                ("question", &room.question),
                ("conversation", &self.conversation(room)),
            ],
        );
        let key = CruxPath::Convergence {
            aspect: room.aspect,
        }
        .into();
        self.room_check(RoomCheckKind::Convergence, key, room.last_key.clone(), user)
            .await?;
        Ok(())
    }

    /// One of a room's checks, recorded as a room-check finding about the turn it follows,
    /// or as unscored when its answer cannot be read (an exit check then lets the exchange
    /// go on). Whether the check says done.
    async fn room_check(
        &self,
        kind: RoomCheckKind,
        key: String,
        about: Option<CallKey>,
        user: String,
    ) -> Result<bool, DebateError> {
        let (tokens, schema, parse): (u32, _, fn(&serde_json::Value) -> _) = match kind {
            RoomCheckKind::Exit => (EXIT_TOKENS, schemas::exit(), analysis::parse_exit),
            RoomCheckKind::Convergence => (
                CONVERGENCE_TOKENS,
                schemas::convergence(),
                analysis::parse_convergence,
            ),
        };
        let got = self
            .analyse(
                self.analysis(key.clone(), Purpose::Check, kind.label(), user)
                    .max_tokens(tokens)
                    .temperature(self.o.temperatures.analysis)
                    .json_schema(schema),
                parse,
            )
            .await?;
        match got {
            Ok((done, crux, note)) => {
                self.ctx.record(Finding {
                    key,
                    about,
                    seat: String::new(),
                    body: FindingBody::RoomCheck {
                        kind,
                        done,
                        crux,
                        note,
                    },
                });
                Ok(done)
            }
            Err(reason) => {
                let reason = match kind {
                    RoomCheckKind::Exit => format!("{reason}; the exchange goes on"),
                    RoomCheckKind::Convergence => reason.to_string(),
                };
                self.unscored(key, kind.label().into(), reason);
                Ok(false)
            }
        }
    }

    async fn card(&mut self, room: &Room, d: &Detection) -> Result<(), DebateError> {
        let sides = self.ids(&room.sides);
        let user = render(
            p::CARD,
            &[
                ("question", &room.question),
                ("conversation", &self.conversation(room)),
                ("ids", &self.id_list(&room.sides)),
            ],
        );
        let key: String = CruxPath::Card {
            aspect: room.aspect,
        }
        .into();
        let (room_key, question) = (room.key.clone(), room.question.clone());
        let got = self
            .analyse(
                self.analysis(key.clone(), Purpose::Extraction, "Crux card", user)
                    .max_tokens(CARD_TOKENS)
                    .temperature(self.o.temperatures.extraction)
                    .json_schema(schemas::card(&sides)),
                |v| analysis::parse_card(v, &room_key, &question, &sides),
            )
            .await?;
        let names = format!(
            "{} and {}",
            self.voices[room.sides[0]].name, self.voices[room.sides[1]].name
        );
        match got {
            Ok(card) => {
                if !card.resolved {
                    self.open.push(format!("{} ({names})", card.crux));
                }
                self.ctx.record(Finding {
                    key,
                    about: room.last_key.clone(),
                    seat: String::new(),
                    body: FindingBody::CruxCard(card.clone()),
                });
                self.cards.push(card);
            }
            Err(reason) => {
                let claim = if d.claim.is_empty() {
                    &d.question
                } else {
                    &d.claim
                };
                self.open.push(format!("{claim} ({names})"));
                self.ctx.record(Finding {
                    key,
                    about: room.last_key.clone(),
                    seat: String::new(),
                    body: FindingBody::CruxNotExtracted {
                        room: room.key.clone(),
                        reason: reason.to_string(),
                    },
                });
            }
        }
        Ok(())
    }

    async fn closings(&mut self) -> Result<Vec<(String, CallKey)>, DebateError> {
        self.ctx.phase("closing", "Closings", None);
        let context = self.turn_context();
        let user = render(
            p::CLOSING,
            &[
                ("topic", &self.config.topic),
                ("context", &context),
                ("max_words", &words(CLOSING_TOKENS)),
            ],
        );
        let calls = self.all().into_iter().map(|i| {
            (
                i,
                self.say(
                    i,
                    CruxPath::Closing {
                        seat: self.voices[i].seat.clone(),
                    }
                    .into(),
                    "Closing",
                    self.voices[i].system.clone(),
                    user.clone(),
                )
                .max_tokens(CLOSING_TOKENS)
                .temperature(self.o.temperatures.generation),
            )
        });
        self.speak_all(calls.collect()).await
    }

    async fn shifts(&self, closings: &[(String, CallKey)]) -> Result<(), DebateError> {
        let all = self.all();
        let people = self.ids(&all);
        let pairs: Vec<String> = all
            .iter()
            .map(|&i| {
                format!(
                    "[{}] {}\nOpening: {}\nClosing: {}",
                    self.voices[i].seat,
                    self.voices[i].name,
                    clip(&self.openings[i], QUOTE_CHARS),
                    clip(&closings[i].0, 1200)
                )
            })
            .collect();
        let user = render(
            p::SHIFTS,
            &[("pairs", &pairs.join("\n\n")), ("ids", &self.id_list(&all))],
        );
        match self
            .analyse(
                self.analysis(
                    CruxPath::Shifts.into(),
                    Purpose::Evaluation,
                    "Position shifts",
                    user,
                )
                .max_tokens(SHIFT_TOKENS)
                .temperature(self.o.temperatures.analysis)
                .json_schema(schemas::shifts(&people)),
                |v| analysis::parse_shifts(v, &people),
            )
            .await?
        {
            Ok(shifts) => {
                for i in all {
                    let seat = &self.voices[i].seat;
                    let about = Some(closings[i].1.clone());
                    match shifts.iter().find(|s| &s.seat == seat) {
                        Some(s) => self.ctx.record(Finding {
                            key: format!("shift/{seat}"),
                            about,
                            seat: seat.clone(),
                            body: FindingBody::PositionShift {
                                shifted: s.shifted,
                                from: s.from.clone(),
                                to: s.to.clone(),
                                moved_by: s.moved_by.clone(),
                            },
                        }),
                        None => self.unscored(
                            format!("shift/{seat}"),
                            format!("{}'s position shift", self.voices[i].name),
                            "the analyst did not say",
                        ),
                    }
                }
            }
            Err(reason) => self.unscored(CruxPath::Shifts.into(), "Position shifts".into(), reason),
        }
        Ok(())
    }

    async fn summary(&self, closings: &[(String, CallKey)]) -> Result<(), DebateError> {
        self.ctx.phase("summary", "Summary", None);
        let summaries: Vec<String> = self
            .summaries
            .iter()
            .map(|(t, s)| format!("- {t}: {}", clip(s, 600)))
            .collect();
        let cards: Vec<String> = self
            .cards
            .iter()
            .map(|c| {
                let sides: Vec<String> = c
                    .sides
                    .iter()
                    .map(|s| {
                        format!(
                            "  - {}: {} Because: {} Would change mind: {}",
                            self.name_of(&s.seat),
                            s.position,
                            s.reasoning,
                            if s.would_change_mind.is_empty() {
                                "not said"
                            } else {
                                &s.would_change_mind
                            }
                        )
                    })
                    .collect();
                format!("- {} ({})\n{}", c.crux, c.kind.id(), sides.join("\n"))
            })
            .collect();
        let closing: Vec<String> = closings
            .iter()
            .enumerate()
            .map(|(i, (t, _))| quote(&self.voices[i].name, &clip(t, 1500)))
            .collect();
        let none = |v: Vec<String>| {
            if v.is_empty() {
                "(none)".to_string()
            } else {
                v.join("\n")
            }
        };
        let user = render(
            p::FINAL_SUMMARY,
            &[
                ("topic", &self.config.topic),
                ("summaries", &none(summaries)),
                ("cards", &none(cards)),
                ("closings", &closing.join("\n\n")),
            ],
        );
        match self
            .analyse(
                self.analysis(
                    CruxPath::Summary.into(),
                    Purpose::Extraction,
                    "Debate summary",
                    user,
                )
                .max_tokens(SUMMARY_TOKENS)
                .temperature(self.o.temperatures.analysis)
                .json_schema(schemas::final_summary(&self.ids(&self.all()))),
                analysis::parse_final_summary,
            )
            .await?
        {
            Ok(text) => self.ctx.record(Finding {
                key: CruxPath::Summary.into(),
                about: None,
                seat: String::new(),
                body: FindingBody::Summary {
                    title: "Debate summary".into(),
                    text,
                },
            }),
            Err(reason) => self.unscored(CruxPath::Summary.into(), "Debate summary".into(), reason),
        }
        Ok(())
    }

    async fn run(&mut self) -> Result<(), DebateError> {
        let aspects = self.decompose().await?;
        self.openings().await?;
        for (i, aspect) in aspects.iter().enumerate() {
            self.aspect(i as u32 + 1, aspect).await?;
        }
        let closings = self.closings().await?;
        self.shifts(&closings).await?;
        self.summary(&closings).await
    }
}

/// What a persona's turn shows: its text cleaned as the format cleaned it for later
/// prompts (no speaker label, no banned opener). Other seats' text is shown as it came.
pub fn shown_text(config: &DebateConfig, seat: &str, text: &str) -> String {
    let FormatOptions::Crux(o) = &config.options else {
        return text.to_string();
    };
    match o.personas.iter().find(|p| p.seat == seat).map(|p| p.read()) {
        Some(Ok(c)) => {
            let name = config
                .seat(seat)
                .map_or(c.name.as_str(), |s| s.name.as_str());
            persona::clean(text, name, &persona::banned(&c))
        }
        _ => text.to_string(),
    }
}

pub async fn run(ctx: &DebateCtx) -> Result<(), DebateError> {
    Crux::new(ctx)?.run().await
}

#[cfg(test)]
mod tests;
