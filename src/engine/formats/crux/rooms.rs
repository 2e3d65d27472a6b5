//! A crux room: the two sides' position statements, the exchange with its exit checks, the
//! convergence check and the crux card.

use super::*;

impl Crux<'_> {
    pub(super) fn index_of(&self, seat: &str) -> usize {
        self.voices.iter().position(|v| v.seat == seat).unwrap_or(0)
    }

    pub(super) fn room_system(&self, me: usize, other: usize, question: &str) -> String {
        persona::room_system_prompt(
            &self.voices[me].contract,
            &self.config.topic,
            question,
            &self.voices[other].name,
        )
    }

    pub(super) fn positions_summary(&self, room: &Room) -> String {
        (0..2)
            .map(|k| quote(&self.voices[room.sides[k]].name, &room.positions[k]))
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(super) fn lines(&self, messages: &[(usize, String)]) -> String {
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
    pub(super) fn exchange_prompt(&self, room: &Room, t: u32) -> String {
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

    pub(super) async fn room(&mut self, a: u32, d: Detection) -> Result<(), DebateError> {
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
    pub(super) async fn exit_check(
        &self,
        room: &Room,
        t: u32,
        about: CallKey,
    ) -> Result<bool, DebateError> {
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

    pub(super) fn conversation(&self, room: &Room) -> String {
        format!(
            "Position statements:\n{}\n\nExchange:\n{}",
            self.positions_summary(room),
            self.lines(&room.messages)
        )
    }

    pub(super) async fn convergence(&self, room: &Room) -> Result<(), DebateError> {
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
    pub(super) async fn room_check(
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

    pub(super) async fn card(&mut self, room: &Room, d: &Detection) -> Result<(), DebateError> {
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
}
