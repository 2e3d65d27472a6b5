//! Reading the analyst's JSON answers in a crux debate, field by field. An answer that does
//! not fit is an error naming the field, so `call_json` asks for one repair and the caller
//! then records the result as not extracted, never as made-up content.

use serde_json::Value;

use crate::engine::answer::Problem;
use crate::engine::finding::{Aspect, CruxCard, CruxSide, DisagreementKind};

use crate::engine::json_fields::{array, lenient_boolean as boolean, required_text, text, texts};

/// A persona named by the analyst, as a seat id: its id, or its display name.
pub fn seat_of(named: &str, personas: &[(String, String)]) -> Option<String> {
    let n = named.trim();
    personas
        .iter()
        .find(|(id, name)| id.eq_ignore_ascii_case(n) || name.eq_ignore_ascii_case(n))
        .map(|(id, _)| id.clone())
}

/// The topic's aspects: exactly `count` of them, each with a label and a question.
pub fn parse_aspects(v: &Value, count: usize) -> Result<Vec<Aspect>, Problem> {
    let list = array(v, "aspects")?;
    if list.len() < count {
        return Err(Problem::wrong("aspects", format!("hold {count} aspects")));
    }
    list.iter()
        .take(count)
        .enumerate()
        .map(|(i, a)| {
            let label =
                required_text(a, "label").map_err(|e| e.within(format!("aspect {}", i + 1)))?;
            let question = text(a, "question");
            Ok(Aspect {
                question: if question.is_empty() {
                    label.clone()
                } else {
                    question
                },
                label,
            })
        })
        .collect()
}

/// A round summary: its text and the contested points.
pub fn parse_round_summary(v: &Value) -> Result<(String, Vec<String>), Problem> {
    Ok((required_text(v, "summary")?, texts(v, "contested")))
}

/// The disagreement detection's answer: the three gates, and the sides when named.
pub struct Detection {
    pub direct_opposition: bool,
    pub specific_claim: bool,
    pub topic_relevant: bool,
    pub seats: Vec<String>,
    pub claim: String,
    pub question: String,
}

impl Detection {
    /// A crux room opens only when all three gates hold and two different personas are
    /// named.
    pub fn opens_room(&self) -> bool {
        self.direct_opposition
            && self.specific_claim
            && self.topic_relevant
            && self.seats.len() == 2
            && self.seats[0] != self.seats[1]
            && !self.question.is_empty()
    }
}

pub fn parse_detection(v: &Value, personas: &[(String, String)]) -> Result<Detection, Problem> {
    let direct_opposition = boolean(v, "has_direct_opposition")?;
    let specific_claim = boolean(v, "has_specific_claim")?;
    let topic_relevant = boolean(v, "topic_relevant")?;
    let mut seats = Vec::new();
    for named in texts(v, "personas") {
        let seat = seat_of(&named, personas).ok_or_else(|| {
            Problem::wrong(
                "personas",
                format!("name participants; `{named}` is not one"),
            )
        })?;
        if !seats.contains(&seat) {
            seats.push(seat);
        }
    }
    let claim = text(v, "claim");
    let mut question = text(v, "question");
    if question.is_empty() {
        question = claim.clone();
    }
    Ok(Detection {
        direct_opposition,
        specific_claim,
        topic_relevant,
        seats,
        claim,
        question,
    })
}

/// An exit check: (crux surfaced, the crux, the reason).
pub fn parse_exit(v: &Value) -> Result<(bool, String, String), Problem> {
    Ok((
        boolean(v, "crux_surfaced")?,
        text(v, "crux"),
        text(v, "reason"),
    ))
}

/// A convergence check: (converged or crux identified, the crux, the summary).
pub fn parse_convergence(v: &Value) -> Result<(bool, String, String), Problem> {
    let converged = boolean(v, "converged")?;
    let identified = v
        .get("crux_identified")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok((converged || identified, text(v, "crux"), text(v, "summary")))
}

fn kind(v: &Value) -> Result<DisagreementKind, Problem> {
    match text(v, "kind").to_ascii_lowercase().as_str() {
        "factual" | "fact" | "empirical" => Ok(DisagreementKind::Factual),
        "values" | "value" | "normative" => Ok(DisagreementKind::Values),
        "definitional" | "definition" | "semantic" => Ok(DisagreementKind::Definitional),
        _ => Err(Problem::wrong("kind", "be factual, values or definitional")),
    }
}

/// A crux card: the crux, one side per room participant (each with a position and its
/// reasoning), the kind and the diagnosis. `sides` are the room's two seats.
pub fn parse_card(
    v: &Value,
    room: &str,
    question: &str,
    sides: &[(String, String)],
) -> Result<CruxCard, Problem> {
    let crux = required_text(v, "crux")?;
    let kind = kind(v)?;
    let list = array(v, "sides")?;
    let mut out: Vec<CruxSide> = Vec::new();
    for (i, s) in list.iter().enumerate() {
        let part = || format!("side {}", i + 1);
        let named = required_text(s, "persona").map_err(|e| e.within(part()))?;
        let seat = seat_of(&named, sides).ok_or_else(|| {
            Problem::wrong(
                "persona",
                format!("be in this crux room; `{named}` was not"),
            )
            .within(part())
        })?;
        if out.iter().any(|o| o.seat == seat) {
            continue;
        }
        out.push(CruxSide {
            seat,
            position: required_text(s, "position").map_err(|e| e.within(part()))?,
            reasoning: required_text(s, "reasoning").map_err(|e| e.within(part()))?,
            would_change_mind: text(s, "would_change_mind"),
        });
    }
    if out.len() != sides.len() {
        return Err(Problem::wrong(
            "sides",
            format!("hold one side for each of the {} participants", sides.len()),
        ));
    }
    // In the room's order, whatever order the analyst used.
    out.sort_by_key(|s| sides.iter().position(|(id, _)| *id == s.seat));
    let resolved = boolean(v, "resolved")?;
    Ok(CruxCard {
        room: room.into(),
        question: question.into(),
        crux,
        sides: out,
        kind,
        diagnosis: required_text(v, "diagnosis")?,
        resolved,
        resolution: if resolved {
            text(v, "resolution")
        } else {
            String::new()
        },
    })
}

/// One persona's shift between opening and closing.
pub struct Shift {
    pub seat: String,
    pub shifted: bool,
    pub from: String,
    pub to: String,
    pub moved_by: String,
}

pub fn parse_shifts(v: &Value, personas: &[(String, String)]) -> Result<Vec<Shift>, Problem> {
    let list = array(v, "shifts")?;
    let mut out: Vec<Shift> = Vec::new();
    for (i, s) in list.iter().enumerate() {
        let part = || format!("shift {}", i + 1);
        let named = required_text(s, "persona").map_err(|e| e.within(part()))?;
        let seat = seat_of(&named, personas).ok_or_else(|| {
            Problem::wrong("persona", format!("be a participant; `{named}` is not")).within(part())
        })?;
        if out.iter().any(|o| o.seat == seat) {
            continue;
        }
        out.push(Shift {
            seat,
            shifted: boolean(s, "shifted").map_err(|e| e.within(part()))?,
            from: text(s, "from"),
            to: required_text(s, "to").map_err(|e| e.within(part()))?,
            moved_by: text(s, "where"),
        });
    }
    if out.is_empty() {
        return Err(Problem::rule("`shifts` names none of the participants"));
    }
    Ok(out)
}

/// The final summary as Markdown, from the analyst's lists; at least one claim is needed.
pub fn parse_final_summary(v: &Value) -> Result<String, Problem> {
    fn pairs(v: &Value, list: &str, what: &str) -> Vec<String> {
        v.get(list)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| {
                        let who = text(x, "persona");
                        let said = text(x, what);
                        match (who.is_empty(), said.is_empty()) {
                            (_, true) => None,
                            (true, false) => Some(format!("- {said}")),
                            (false, false) => Some(format!("- **{who}**: {said}")),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
    let bullets = |items: Vec<String>| -> Vec<String> {
        items.into_iter().map(|s| format!("- {s}")).collect()
    };
    let claims = pairs(v, "claims", "claim");
    if claims.is_empty() {
        return Err(Problem::wrong(
            "claims",
            "list at least one claim with its `persona`",
        ));
    }
    let sections = [
        ("Claims", claims),
        ("Agreements", bullets(texts(v, "agreements"))),
        ("Evidence cited", pairs(v, "evidence", "evidence")),
        (
            "What would change their minds",
            pairs(v, "flip_conditions", "condition"),
        ),
        ("Open questions", bullets(texts(v, "open_questions"))),
    ];
    Ok(sections
        .into_iter()
        .filter(|(_, items)| !items.is_empty())
        .map(|(title, items)| format!("**{title}**\n\n{}", items.join("\n")))
        .collect::<Vec<_>>()
        .join("\n\n"))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use serde_json::json;

    /// The two personas the crux tests seat, by seat and name.
    pub(in crate::engine::formats::crux) fn people() -> Vec<(String, String)> {
        vec![
            ("persona-1".into(), "The Actuary".into()),
            ("persona-2".into(), "The Founder".into()),
        ]
    }

    fn card() -> Value {
        json!({"crux": "Whether costs keep falling.", "kind": "factual",
            "sides": [
                {"persona": "The Founder", "position": "They will.", "reasoning": "Learning rates.", "would_change_mind": "Flat costs for five years."},
                {"persona": "persona-1", "position": "They may not.", "reasoning": "Base rates.", "would_change_mind": ""}
            ],
            "diagnosis": "They read the same curve differently.", "resolved": false, "resolution": "ignored"})
    }

    #[test]
    fn a_card_is_read_with_sides_in_room_order_and_names_or_ids_accepted() {
        let c = parse_card(&card(), "room/1", "Q?", &people()).unwrap();
        assert_eq!(c.sides[0].seat, "persona-1");
        assert_eq!(c.sides[1].seat, "persona-2");
        assert_eq!(c.sides[1].would_change_mind, "Flat costs for five years.");
        assert_eq!(c.kind, DisagreementKind::Factual);
        assert_eq!(c.room, "room/1");
        assert_eq!(c.resolution, "", "no resolution for an unresolved crux");
    }

    #[test]
    fn a_card_that_does_not_fit_names_what_is_wrong() {
        let bad = |f: &dyn Fn(&mut Value)| {
            let mut v = card();
            f(&mut v);
            parse_card(&v, "room/1", "Q?", &people())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            bad(&|v| v["kind"] = "emotional".into()),
            "`kind` must be factual, values or definitional"
        );
        assert_eq!(
            bad(&|v| v["crux"] = "".into()),
            "`crux` must be a non-empty text"
        );
        assert_eq!(
            bad(&|v| v["sides"][1]["persona"] = "The Historian".into()),
            "side 2: `persona` must be in this crux room; `The Historian` was not"
        );
        assert_eq!(
            bad(&|v| {
                v["sides"].as_array_mut().unwrap().pop();
            }),
            "`sides` must hold one side for each of the 2 participants"
        );
        assert_eq!(
            bad(&|v| v["sides"][0]["reasoning"] = "".into()),
            "side 1: `reasoning` must be a non-empty text"
        );
        assert_eq!(
            bad(&|v| v["resolved"] = 3.into()),
            "`resolved` must be true or false"
        );
    }

    #[test]
    fn a_detection_opens_a_room_only_with_all_three_gates_and_two_sides() {
        let base = json!({"has_direct_opposition": true, "has_specific_claim": true, "topic_relevant": true,
            "personas": ["persona-1", "The Founder"], "claim": "c", "question": "q?"});
        assert!(parse_detection(&base, &people()).unwrap().opens_room());
        for gate in [
            "has_direct_opposition",
            "has_specific_claim",
            "topic_relevant",
        ] {
            let mut v = base.clone();
            v[gate] = false.into();
            assert!(
                !parse_detection(&v, &people()).unwrap().opens_room(),
                "{gate}"
            );
        }
        let mut same = base.clone();
        same["personas"] = json!(["persona-1", "The Actuary"]);
        assert!(!parse_detection(&same, &people()).unwrap().opens_room());
        let mut missing = base.clone();
        missing.as_object_mut().unwrap().remove("topic_relevant");
        assert!(parse_detection(&missing, &people()).is_err());
    }
}
