//! A chair's turn: its speech (watched for an interruption), then the Arbiter's evaluation
//! and, when the evaluation calls for it, an interjection and the chair's answer.

use super::*;

impl Duelogic<'_> {
    pub(super) async fn turn(&mut self, round: u32, i: usize) -> Result<(), DebateError> {
        let chair = self.chairs[i].clone();
        let turn = Turn::new(round, &chair.id);
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
                turn.to_string(),
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
                self.watch_for_interruption(&turn, &chair, watch).await
            } else {
                Ok(None)
            }
        };
        let (speech, cut) = futures::join!(speech, checker);
        let (speech, cut) = (speech?, cut?);
        self.remember(&chair.id, "Argument", &speech.text);
        let mut full = speech.text.clone();

        if let (Some(cut), crate::engine::event::FinishReason::Cut) = (cut, speech.finish) {
            full.push_str(
                &self
                    .interruption(&turn, &chair, &speech.key, cut, &speech.text)
                    .await?,
            );
        }
        if rules::evaluates(self.o.accountability) {
            self.evaluate(&turn, &chair, &speech.key, &full).await?;
        }
        Ok(())
    }

    /// The Arbiter's evaluation of a chair's response, and an interjection where the
    /// accountability level calls for one.
    pub(super) async fn evaluate(
        &mut self,
        turn: &Turn,
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
                    turn.part(Part::Evaluation),
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
            (turn.part(Part::Evaluation), Some(key.clone()), &chair.id),
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
                ("remedy", violation.remedy()),
                ("reason", &reason),
                ("excerpt", &clip(response, 600)),
                ("min_words", &INTERJECTION_WORDS.0.to_string()),
                ("max_words", &INTERJECTION_WORDS.1.to_string()),
            ],
        );
        let system = self.arbiter_system();
        let text = self
            .speak(
                CallSpec::new(
                    turn.part(Part::Interjection),
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
            key: turn.part(Part::Interjection),
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
                turn.part(Part::Answer),
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
}
