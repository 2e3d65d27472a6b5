//! Every structured answer a format asks for, checked against the schema it sends: a
//! value that fits the schema (`schema_sample`, several variations of each) is read back
//! by the reader that sits beside it, so a provider that holds the model to the schema
//! never gets an answer Agora then refuses.

use serde_json::Value;

use super::super::classic::scoring;
use super::super::crux::{analysis, schemas as crux};
use super::super::duelogic::evaluation;
use super::super::forecast::parse as forecast;
use super::super::forecast::types::Phase;
use crate::engine::answer::Problem;
use crate::engine::schema_sample::sample;
use crate::engine::tournament::verdict;

/// Reads samples 0..8 of `schema` with `read`; says which seed failed and why.
fn reads_back<T>(what: &str, schema: &Value, read: impl Fn(&Value) -> Result<T, Problem>) {
    for seed in 0..8 {
        let answer = sample(schema, seed);
        if let Err(p) = read(&answer) {
            panic!("{what}, sample {seed}: {p}\n{answer:#}");
        }
    }
}

#[test]
fn a_sample_of_every_schema_reads_back() {
    reads_back("classic scores", &scoring::scores_schema(), |v| {
        scoring::parse_scores(v, [250, 250, 200, 150, 150])
    });
    reads_back(
        "classic fact check",
        &scoring::claims_schema(),
        scoring::parse_claims,
    );
    reads_back(
        "duelogic evaluation",
        &evaluation::evaluation_schema(),
        evaluation::parse_evaluation,
    );
    reads_back(
        "duelogic interruption check",
        &evaluation::proposal_schema(),
        evaluation::parse_proposal,
    );

    let (ids, roles) = (["yes", "no"], ["optimist", "pessimist", "historian"]);
    for phase in [Phase::Opening, Phase::Rebuttal, Phase::Closing] {
        for historian in [false, true] {
            let me = if historian { "historian" } else { "optimist" };
            reads_back(
                &format!("forecast {} argument of the {me}", phase.id()),
                &forecast::argument_schema(&ids, &roles, phase, historian),
                |v| {
                    let p = forecast::argument(v, &ids, &roles, me)?;
                    forecast::complete(&p, phase, historian)
                },
            );
        }
    }
    reads_back("forecast score", &forecast::score_schema(), forecast::score);
    reads_back(
        "forecast synthesis",
        &forecast::synthesis_schema(&ids, &roles),
        |v| forecast::synthesis(v, &ids, &roles, 3),
    );

    let people = vec![
        ("persona-1".to_string(), "The Actuary".to_string()),
        ("persona-2".to_string(), "The Founder".to_string()),
    ];
    reads_back("crux aspects", &crux::aspects(3), |v| {
        analysis::parse_aspects(v, 3)
    });
    reads_back(
        "crux round summary",
        &crux::round_summary(),
        analysis::parse_round_summary,
    );
    reads_back("crux detection", &crux::detection(&people), |v| {
        analysis::parse_detection(v, &people)
    });
    reads_back("crux exit check", &crux::exit(), analysis::parse_exit);
    reads_back(
        "crux convergence check",
        &crux::convergence(),
        analysis::parse_convergence,
    );
    reads_back("crux card", &crux::card(&people), |v| {
        analysis::parse_card(v, "room/1", "Who pays?", &people)
    });
    reads_back("crux shifts", &crux::shifts(&people), |v| {
        analysis::parse_shifts(v, &people)
    });
    reads_back(
        "crux final summary",
        &crux::final_summary(&people),
        analysis::parse_final_summary,
    );

    reads_back("tournament verdict", &verdict::schema(), |v| {
        verdict::read(&v.to_string(), 0)
    });
}
