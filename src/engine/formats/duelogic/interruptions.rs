//! Interruptions: the checks beside a chair's speech, and the interrupting chair's
//! challenge with the answer of the chair it cut.

use super::*;

impl Duelogic<'_> {
    /// Follows a speech and, at sentence ends the pattern check flags (and from
    /// aggressiveness 4 at every paragraph end), asks the analyst whether another chair
    /// should cut in. Driven by the text alone, so a replay asks the same checks.
    pub(super) async fn watch_for_interruption(
        &self,
        turn: &Turn,
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
                let now = self
                    .ctx
                    .now_ms(&format!("{}/at", turn.part(Part::Check(n))));
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
                    .check(turn, n, speaker, &text[..end], &eligible, hint)
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
    pub(super) async fn check(
        &self,
        turn: &Turn,
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
        // What the seed's check sees (002): the topic, each chair's framework, the speech
        // so far (whole: one speech is a few hundred words) and the debate before it, sized
        // to the analyst's window, so a check can tell what a chair actually said.
        let eligible_list = eligible_list.join("\n");
        let vars = [
            ("aggressiveness", aggressiveness.as_str()),
            ("aggressiveness_words", words),
            ("topic", self.config.topic.as_str()),
            ("speaker", &speaker.name),
            ("speaker_framework", &speaker.framework.name),
            ("recent", heard.trim()),
            ("eligible", &eligible_list),
        ];
        let mut user = self.prompt(
            &self.config.analyst,
            "",
            p::INTERRUPT_CHECK,
            CHECK_TOKENS,
            &vars,
        );
        if let Some(h) = hint {
            user.push_str(&format!(
                "\n\nA pattern check flagged a possible {}.",
                h.words()
            ));
        }
        let spec = CallSpec::new(
            turn.part(Part::Check(n)),
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

    /// An accepted interruption: recorded, the interrupter's one or two sentences, and
    /// the interrupted chair's answer (which continues its point). Returns that answer.
    pub(super) async fn interruption(
        &mut self,
        turn: &Turn,
        chair: &Seat,
        key: &CallKey,
        cut: Cut,
        kept: &str,
    ) -> Result<String, DebateError> {
        let at = self.ctx.now_ms(&format!("{turn}/interrupted-at"));
        self.last_interrupt.insert(cut.by.clone(), at);
        let p = &cut.proposal;
        let opener = if p.opener.trim().is_empty() {
            // From the debate's seed, recorded: a replay starts it the same way.
            p.reason
                .opener(self.ctx.random(&format!("{turn}/opener")))
                .to_string()
        } else {
            p.opener.trim().to_string()
        };
        let trigger = if p.trigger.trim().is_empty() {
            clip(kept.trim(), 120)
        } else {
            clip(p.trigger.trim(), 200)
        };
        self.ctx.record(Finding {
            key: turn.part(Part::Interruption),
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
                    turn.part(Part::Interruption),
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
                    turn.part(Part::Resume),
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
}
