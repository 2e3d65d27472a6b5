//! What a tournament may cost before it starts: every match's debate as its format plans
//! it, plus every model judge's verdict, which reads both sides' whole debate.

use super::schedule::Match;
use super::spec::{side_seats, TournamentSpec};
use super::verdict::{PROBLEM_CHARS, VERDICT_TOKENS};
use crate::engine::config::Participant;
use crate::engine::cost::{estimate as debate_estimate, Estimate, Price};
use crate::engine::event::Usage;
use crate::engine::formats::plan;
use crate::engine::model::Ceiling;
use crate::engine::prompt::JSON_REPAIR;
use crate::engine::tokens;

/// The verdict prompt's instructions, in tokens, besides the debate it carries.
const VERDICT_PROMPT_TOKENS: u32 = 500;

fn call(price: &Price, input: u32, output: u32) -> f64 {
    price.cost(&Usage {
        input_tokens: input,
        output_tokens: output,
        estimated: true,
    })
}

/// The most one verdict may cost when its first request can be billed up to `first`: that,
/// then the repair, which resends the request with the first answer (no longer than its
/// output limit), the repair's instructions and the problem (quoted in at most
/// `PROBLEM_CHARS` characters, none more than four tokens).
pub fn verdict_worst_case(price: &Price, first: Ceiling) -> f64 {
    let repair = Ceiling {
        input_tokens: first.input_tokens
            + first.output_tokens
            + 2 * tokens::PER_MESSAGE
            + tokens::estimate(JSON_REPAIR)
            + 4 * PROBLEM_CHARS as u32,
        output_tokens: first.output_tokens,
    };
    price.cost(&first.usage()) + price.cost(&repair.usage())
}

/// Calls and a range of dollars for the whole tournament. The low end has answers at half
/// their limit and every verdict read at once; the high end (the worst case) has answers
/// at their limit and every verdict needing its one repair.
/// Any part of the matches may be estimated apart and the parts added (`Estimate::add`): a
/// page works out a tournament of hundreds of debates a slice at a time.
pub fn estimate(spec: &TournamentSpec, matches: &[Match]) -> Estimate {
    let mut out = Estimate::none();
    let unpriced = |name: &str, out: &mut Estimate| {
        if !out.unpriced.iter().any(|u| u == name) {
            out.unpriced.push(name.to_string());
        }
    };
    let sides = side_seats(spec.format);
    for m in matches {
        let config = spec.debate_config(m.motion, m.first, m.second);
        let calls = plan(&config);
        let e = debate_estimate(&config, &calls);
        out.calls += e.calls;
        out.low += e.low;
        out.high += e.high;
        for seat in e.unpriced {
            let who = config.seat(&seat).map(|s| s.participant.clone());
            unpriced(
                &who.map_or(seat, |p| super::spec::entrant_name(&p)),
                &mut out,
            );
        }
        // A judge reads what the two sides said: at most their whole output limits.
        let said: u32 = calls
            .iter()
            .filter(|c| sides.contains(&c.seat.as_str()))
            .map(|c| c.max_tokens)
            .sum();
        for &j in &m.judges {
            let Participant::Model { price, .. } = &spec.judges[j] else {
                continue; // a person's verdict costs nothing
            };
            out.calls += 1;
            let Some(price) = price else {
                unpriced(&super::spec::entrant_name(&spec.judges[j]), &mut out);
                continue;
            };
            out.low += call(price, VERDICT_PROMPT_TOKENS + said / 2, VERDICT_TOKENS / 2);
            out.high += verdict_worst_case(
                price,
                Ceiling {
                    input_tokens: VERDICT_PROMPT_TOKENS + said,
                    output_tokens: VERDICT_TOKENS,
                },
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::schedule::schedule;
    use super::super::spec::tests::spec;
    use super::*;

    fn priced(mut p: Participant, input: f64, output: f64) -> Participant {
        if let Participant::Model { price, .. } = &mut p {
            *price = Some(Price { input, output });
        }
        p
    }

    #[test]
    fn the_estimate_adds_every_debate_and_every_verdict_with_its_worst_case() {
        let mut s = spec(&["a", "b"], &["Cities should ban cars"], &["j", "person"]);
        s.contestants = s
            .contestants
            .into_iter()
            .map(|c| priced(c, 1.0, 2.0))
            .collect();
        s.host = priced(s.host.clone(), 1.0, 2.0);
        s.judges[0] = priced(s.judges[0].clone(), 3.0, 6.0);
        let matches = schedule(&s).unwrap();
        assert_eq!(matches.len(), 2);
        let one = {
            let c = s.debate_config(0, 0, 1);
            debate_estimate(&c, &plan(&c))
        };
        let e = estimate(&s, &matches);
        // Two debates and one model verdict each; the person's verdicts are free calls.
        assert_eq!(e.calls, 2 * one.calls + 2);
        assert!(e.unpriced.is_empty(), "{:?}", e.unpriced);
        assert!(e.low > 2.0 * one.low && e.high > 2.0 * one.high);
        // The judge's worst case: both sides' whole output read, twice with the repair,
        // which also carries the first answer, the repair's instructions and the problem.
        let c = s.debate_config(0, 0, 1);
        let said: u32 = plan(&c)
            .iter()
            .filter(|p| side_seats(s.format).contains(&p.seat.as_str()))
            .map(|p| p.max_tokens)
            .sum();
        let input = (500 + said) as f64;
        let repair = f64::from(
            2 * tokens::PER_MESSAGE + tokens::estimate(JSON_REPAIR) + 4 * PROBLEM_CHARS as u32,
        );
        let worst =
            (input * 3.0 + 400.0 * 6.0 + (input + 400.0 + repair) * 3.0 + 400.0 * 6.0) / 1e6;
        let judges_high = e.high - 2.0 * one.high;
        assert!(
            (judges_high - 2.0 * worst).abs() < 1e-9,
            "{judges_high} {worst}"
        );
        assert!(e.low < e.high);
        // In parts, added: the same, up to the order of the additions.
        let mut parts = estimate(&s, &matches[..1]);
        parts.add(estimate(&s, &matches[1..]));
        assert_eq!((parts.calls, &parts.unpriced), (e.calls, &e.unpriced));
        assert!((parts.low - e.low).abs() < 1e-12 && (parts.high - e.high).abs() < 1e-12);
    }

    #[test]
    fn a_judge_without_a_price_is_named_rather_than_counted_as_free() {
        let s = spec(&["a", "b"], &["m"], &["j"]);
        let e = estimate(&s, &schedule(&s).unwrap());
        assert!(
            e.unpriced.iter().any(|u| u.starts_with("j ")),
            "{:?}",
            e.unpriced
        );
    }
}
