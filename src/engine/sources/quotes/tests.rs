use super::super::library::Library;
use super::super::{Origin, Source};
use super::*;

const REPORT: &str = "The Stockholm trial ran for seven months in 2006.\n\nThe charge cut traffic across the cordon by about 20 percent, and the cut held after the trial ended. Retailers’ fears — that customers would stay away — were not borne out.\n\nAir quality improved “measurably” in the inner city.";

fn library() -> Library {
    Library::new(vec![
        Source::new("S1", "Stockholm report", Origin::Pasted, REPORT).unwrap(),
        Source::new(
            "S2",
            "Beijing notes",
            Origin::Pasted,
            "北京的交通拥堵问题十分严重。\n\nМосква ввела платную парковку в центре города.",
        )
        .unwrap(),
    ])
}

fn status(turn: &str) -> Vec<bool> {
    check(turn, Some(&library()))
        .iter()
        .map(Checked::verified)
        .collect()
}

fn found_text(turn: &str) -> String {
    let lib = library();
    let c = check(turn, Some(&lib));
    let f = c[0].found.as_ref().expect("verified");
    lib.source(&f.source).unwrap().text[f.start..f.end].to_string()
}

#[test]
fn an_exact_quote_is_verified_and_points_at_its_words() {
    let turn = "As the report says, <quote>The charge cut traffic across the cordon by about 20 percent</quote>.";
    assert_eq!(status(turn), [true]);
    assert_eq!(
        found_text(turn),
        "The charge cut traffic across the cordon by about 20 percent"
    );
    let c = check(turn, Some(&library()));
    assert_eq!(c[0].found.as_ref().unwrap().label(), "S1 ¶1");
}

#[test]
fn whitespace_and_line_breaks_do_not_matter() {
    assert_eq!(
        status("<quote>the charge   cut traffic\nacross  the\tcordon</quote>"),
        [true]
    );
}

#[test]
fn curly_and_straight_quote_marks_compare_equal() {
    assert_eq!(status("<quote>Retailers' fears</quote>"), [true]);
    assert_eq!(
        status("<quote>improved \"measurably\" in the inner city</quote>"),
        [true]
    );
}

#[test]
fn dashes_of_every_kind_and_the_spaces_around_them_compare_equal() {
    assert_eq!(
        status(
            "<quote>Retailers’ fears - that customers would stay away - were not borne out</quote>"
        ),
        [true]
    );
    assert_eq!(
        status("<quote>fears--that customers would stay away--were</quote>"),
        [true]
    );
    assert_eq!(status("<quote>fears – that customers</quote>"), [true]);
}

#[test]
fn case_and_the_quoters_edge_punctuation_do_not_matter() {
    assert_eq!(status("<quote>\"THE CHARGE CUT TRAFFIC.\"</quote>"), [true]);
}

#[test]
fn an_ellipsis_stands_for_left_out_words_in_order() {
    assert_eq!(
        status("<quote>The charge cut traffic … and the cut held after the trial ended</quote>"),
        [true]
    );
    assert_eq!(
        status("<quote>The charge cut traffic [...] the cut held</quote>"),
        [true]
    );
    // The parts must come in the source's order.
    assert_eq!(
        status("<quote>the cut held ... The charge cut traffic</quote>"),
        [false]
    );
    let turn = "<quote>The charge cut traffic... the cut held</quote>";
    assert_eq!(
        found_text(turn),
        "The charge cut traffic across the cordon by about 20 percent, and the cut held"
    );
}

#[test]
fn a_quote_spanning_two_passages_is_verified_and_links_to_where_it_starts() {
    let long = |topic: &str| {
        format!("{topic} ") + &"Each sentence of this paragraph adds a little more. ".repeat(14)
    };
    let text = format!(
        "{}It ends here.\n\nThe next begins. {}",
        long("Tolls"),
        long("Buses")
    );
    let lib = Library::new(vec![
        Source::new("S1", "Long", Origin::Pasted, &text).unwrap()
    ]);
    assert!(lib.passages.len() >= 2);
    let turn = "<quote>more. It ends here. The next begins. Buses</quote>";
    let c = check(turn, Some(&lib));
    let f = c[0]
        .found
        .as_ref()
        .expect("verified across the paragraph break");
    assert_eq!(f.passage, 1);
    assert!(f.start < lib.passages[0].end && f.end > lib.passages[1].start);
    assert_eq!(
        &text[f.start..f.end],
        "more. It ends here.\n\nThe next begins. Buses"
    );
}

#[test]
fn a_near_miss_is_not_found() {
    // One word changed, one added, a number changed: wording is never forgiven.
    assert_eq!(
        status("<quote>The charge cut traffic across the cordon by about 30 percent</quote>"),
        [false]
    );
    assert_eq!(
        status("<quote>The charge sharply cut traffic</quote>"),
        [false]
    );
    assert_eq!(status("<quote>The charges cut traffic</quote>"), [false]);
    assert_eq!(
        status("<quote>The charge cut traffic across the cordon by about 20 per cent</quote>"),
        [false]
    );
}

#[test]
fn quotes_in_non_latin_scripts_are_checked() {
    assert_eq!(status("<quote>北京的交通拥堵问题十分严重</quote>"), [true]);
    assert_eq!(status("<quote>北京的交通拥堵问题非常严重</quote>"), [false]);
    assert_eq!(
        status("<quote>МОСКВА ввела платную парковку</quote>"),
        [true]
    );
    assert_eq!(
        status("<quote>Москва ввела бесплатную парковку</quote>"),
        [false]
    );
}

#[test]
fn every_marked_quote_is_checked_and_unclosed_or_empty_ones_are_not_quotes() {
    let turn = "<quote>ran for seven months</quote> but <quote>ran for nine months</quote>; <quote> </quote> and <QUOTE>cut held</QUOTE> <quote>cut off mid";
    assert_eq!(status(turn), [true, false, true]);
    assert!(marked("no quotes here").is_empty());
}

#[test]
fn prompts_carry_each_quotes_status_in_its_tag() {
    let turn = "See <quote>ran for seven months</quote> and <quote>ran for nine months</quote>.";
    let lib = library();
    let marked = with_status(turn, &check(turn, Some(&lib)));
    assert_eq!(
        marked,
        "See <quote status=\"verified\" passage=\"S1 ¶1\">ran for seven months</quote> and <quote status=\"not found\">ran for nine months</quote>."
    );
}

#[test]
fn a_plain_text_view_shows_quotes_between_quotation_marks() {
    assert_eq!(
        as_plain_text("It said <quote> the charge worked </quote>, and <quote>no</quote>."),
        "It said “the charge worked”, and “no”."
    );
    assert_eq!(as_plain_text("<quote>open only"), "<quote>open only");
}

#[test]
fn a_status_a_model_writes_into_a_tag_is_never_believed() {
    // Copied from a prompt's form: checked afresh, and rewritten with what the check found.
    let turn = "<quote status=\"verified\" passage=\"S1 ¶1\">the trial ran for two years</quote>";
    let lib = library();
    let checks = check(turn, Some(&lib));
    assert_eq!(checks.len(), 1);
    assert!(!checks[0].verified());
    assert_eq!(
        with_status(turn, &checks),
        "<quote status=\"not found\">the trial ran for two years</quote>"
    );
    // Left unclosed, it is not a quote, and loses the status it claimed.
    let open = "As shown: <quote status=\"verified\">the trial ran for two years";
    assert_eq!(
        with_status(open, &check(open, Some(&lib))),
        "As shown: <quote>the trial ran for two years"
    );
}

#[test]
fn a_quote_cut_off_before_the_next_does_not_swallow_it() {
    let turn = "A said <quote>The charge cut traffic by half…\n\nB said <quote>ran for seven months</quote>.";
    let checks = check(turn, Some(&library()));
    assert_eq!(checks.len(), 1);
    assert_eq!(checks[0].text, "ran for seven months");
    assert!(checks[0].verified());
}

#[test]
fn a_quote_is_whole_words_and_an_ellipsis_leaps_no_further_than_a_passage() {
    // Inside "seven", inside "120": not the source's words.
    assert_eq!(status("<quote>even months</quote>"), [false]);
    assert_eq!(status("<quote>0 percent</quote>"), [false]);
    assert_eq!(status("<quote>seven months</quote>"), [true]);
    // Parts far apart in the source are not one quote.
    let far = format!(
        "The first claim stands. {} The last claim falls.",
        "Filler words go here. ".repeat(60)
    );
    let lib = Library::new(vec![Source::new("S1", "Far", Origin::Pasted, &far).unwrap()]);
    let c = check(
        "<quote>The first claim stands … The last claim falls</quote>",
        Some(&lib),
    );
    assert!(!c[0].verified());
    let c = check(
        "<quote>The first claim stands … Filler words go here</quote>",
        Some(&lib),
    );
    assert!(c[0].verified());
}
