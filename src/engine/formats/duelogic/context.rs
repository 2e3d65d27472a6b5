//! What a chair and the Arbiter read: their system prompts, and the episode so far fitted
//! to the seat's window (recent turns whole, older ones digested).

use super::*;

impl Duelogic<'_> {
    pub(super) fn arbiter_system(&self) -> String {
        render(p::ARBITER_SYSTEM, &[("show", &self.o.show_name)])
    }

    pub(super) fn chair_system(&self, c: &Seat) -> String {
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
    pub(super) fn context(
        &self,
        seat: &str,
        system: &str,
        template: &str,
        max_tokens: u32,
    ) -> String {
        let window = self.ctx.speaking_window(
            self.config
                .seat(seat)
                .map_or(4096, |s| s.participant.context_tokens()),
        );
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
    pub(super) fn digest(&self, upto: usize, tokens: u32) -> Vec<(String, String)> {
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
    pub(super) fn prompt(
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
}
