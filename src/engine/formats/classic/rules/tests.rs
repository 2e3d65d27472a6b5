use super::*;

#[test]
fn a_turn_over_its_limit_by_more_than_the_slack_or_cut_off_is_over_length() {
    let words = |n: usize| vec!["word"; n].join(" ");
    assert_eq!(over_length(&words(100), 100, 20, false), None);
    assert_eq!(over_length(&words(120), 100, 20, false), None);
    assert_eq!(
        over_length(&words(121), 100, 20, false),
        Some(Overrun {
            words: 121,
            limit: 100,
            cut: false
        })
    );
    // Competitive keeps to the limit exactly.
    assert!(over_length(&words(101), 100, 0, false).is_some());
    // Cut off at the token limit: over, however few words came through.
    assert_eq!(
        over_length(&words(40), 100, 20, true),
        Some(Overrun {
            words: 40,
            limit: 100,
            cut: true
        })
    );
    assert_eq!(word_count("It's 42 — really, “it is”."), 5);
}

#[test]
fn personal_remarks_hint_at_a_broken_rule_in_every_style() {
    for style in ClassicStyle::ALL {
        for text in [
            "Frankly, my opponent is naive about how traffic works.",
            "That claim is idiotic.",
            "You're lying about the figures.",
            "You clearly don't understand the data.",
        ] {
            assert_eq!(
                rule_hints(style, text),
                vec!["make a personal remark about the opponent"],
                "{style:?}: {text}"
            );
        }
        for fine in [
            "My opponent's figures are from 2019 and the 2023 ones differ.",
            "The stupidity of the old rule was that nobody enforced it.",
            "Idioms aside, the evidence is thin.",
            "I understand the worry about access.",
        ] {
            assert!(rule_hints(style, fine).is_empty(), "{style:?}: {fine}");
        }
    }
}

#[test]
fn a_question_put_to_the_opponent_hints_only_in_a_formal_debate() {
    let text = "Bans work. Do you really think drivers will simply vanish? They will not.";
    assert_eq!(
        rule_hints(ClassicStyle::Formal, text),
        vec!["put a rhetorical question to the opponent"]
    );
    assert!(rule_hints(ClassicStyle::Casual, text).is_empty());
    // A question that is not put to the opponent is not a rhetorical question to them.
    let asked = "What did Oslo measure? Footfall rose by a tenth.";
    assert!(rule_hints(ClassicStyle::Formal, asked).is_empty());
    // Nor is a statement that mentions them.
    let said = "You say access matters, and it does.";
    assert!(rule_hints(ClassicStyle::Formal, said).is_empty());
}

#[test]
fn a_turn_that_shares_almost_nothing_with_the_debate_hints_off_topic() {
    let known = "Should cities ban private cars from their centres? In favour of the motion. \
                 Against the motion. Car-free centres are safer, quieter and better for trade.";
    let football = "The league's new offside technology has changed how midfielders press, \
                    and goalkeepers now distribute faster from their penalty area, which \
                    rewards clubs with patient academies and punishes expensive transfers.";
    assert!(off_topic(football, known));
    let on = "Banning cars from centres makes streets safer; trade in Ghent rose after the \
              pedestrian plan, and deliveries adapted within a year of the change.";
    assert!(!off_topic(on, known));
    // Too short to tell.
    assert!(!off_topic("Goalkeepers distribute faster now.", known));
    // Plurals meet their singular: "car" was said as "cars".
    let plural = "A car parked outside every shop: shoppers, cyclists, buses, couriers, \
                  teachers, nurses, pensioners, students, tourists, bakers and grocers.";
    assert!(!off_topic(&format!("{plural} Centre."), known));
}
