//! Duelogic's call paths, printed and read in one place. Stored logs keep the printed
//! words, so `Display` writes exactly what the format has always written.

use std::fmt;

/// A chair's response in a round: `round/{r}/{seat}`. What follows it (checks, an
/// interruption, the Arbiter's evaluation…) is keyed under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub round: u32,
    pub seat: String,
}

/// A call that belongs to a chair's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The `n`th interruption check beside the speech (from 1): `…/check/{n}`.
    Check(u32),
    /// Another chair cutting in: `…/interruption`.
    Interruption,
    /// The cut chair's answer, which continues its point: `…/resume`.
    Resume,
    /// The Arbiter's evaluation of the response: `…/evaluation`.
    Evaluation,
    /// The Arbiter holding the chair to an obligation: `…/interjection`.
    Interjection,
    /// The chair's answer to the Arbiter: `…/answer`.
    Answer,
}

/// One of duelogic's calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DuelogicPath {
    /// The Arbiter's introduction: `intro`.
    Intro,
    /// A chair's response: `round/{r}/{seat}`.
    Turn(Turn),
    /// A call within a chair's turn: `round/{r}/{seat}/{part}`.
    Within(Turn, Part),
    /// The Arbiter's closing: `closing`.
    Closing,
}

impl Turn {
    pub fn new(round: u32, seat: &str) -> Self {
        Turn {
            round,
            seat: seat.to_string(),
        }
    }

    /// The path of a call within this turn.
    pub fn part(&self, part: Part) -> String {
        DuelogicPath::Within(self.clone(), part).to_string()
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round/{}/{}", self.round, self.seat)
    }
}

impl fmt::Display for DuelogicPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DuelogicPath::Intro => f.write_str("intro"),
            DuelogicPath::Closing => f.write_str("closing"),
            DuelogicPath::Turn(t) => t.fmt(f),
            DuelogicPath::Within(t, part) => match part {
                Part::Check(n) => write!(f, "{t}/check/{n}"),
                Part::Interruption => write!(f, "{t}/interruption"),
                Part::Resume => write!(f, "{t}/resume"),
                Part::Evaluation => write!(f, "{t}/evaluation"),
                Part::Interjection => write!(f, "{t}/interjection"),
                Part::Answer => write!(f, "{t}/answer"),
            },
        }
    }
}

impl DuelogicPath {
    /// Reads a path this format printed; `None` for anything else.
    pub fn parse(path: &str) -> Option<DuelogicPath> {
        let parts: Vec<&str> = path.split('/').collect();
        let turn = |r: &str, seat: &str| {
            let round = r.parse::<u32>().ok()?;
            (!seat.is_empty()).then(|| Turn::new(round, seat))
        };
        Some(match parts.as_slice() {
            ["intro"] => DuelogicPath::Intro,
            ["closing"] => DuelogicPath::Closing,
            ["round", r, seat] => DuelogicPath::Turn(turn(r, seat)?),
            ["round", r, seat, "check", n] => {
                DuelogicPath::Within(turn(r, seat)?, Part::Check(n.parse().ok()?))
            }
            ["round", r, seat, part] => {
                let part = match *part {
                    "interruption" => Part::Interruption,
                    "resume" => Part::Resume,
                    "evaluation" => Part::Evaluation,
                    "interjection" => Part::Interjection,
                    "answer" => Part::Answer,
                    _ => return None,
                };
                DuelogicPath::Within(turn(r, seat)?, part)
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_prints_the_stored_words_and_reads_back() {
        let t = Turn::new(2, "chair-3");
        let cases = [
            (DuelogicPath::Intro, "intro"),
            (DuelogicPath::Closing, "closing"),
            (DuelogicPath::Turn(t.clone()), "round/2/chair-3"),
            (
                DuelogicPath::Within(t.clone(), Part::Check(4)),
                "round/2/chair-3/check/4",
            ),
            (
                DuelogicPath::Within(t.clone(), Part::Interruption),
                "round/2/chair-3/interruption",
            ),
            (
                DuelogicPath::Within(t.clone(), Part::Resume),
                "round/2/chair-3/resume",
            ),
            (
                DuelogicPath::Within(t.clone(), Part::Evaluation),
                "round/2/chair-3/evaluation",
            ),
            (
                DuelogicPath::Within(t.clone(), Part::Interjection),
                "round/2/chair-3/interjection",
            ),
            (
                DuelogicPath::Within(t.clone(), Part::Answer),
                "round/2/chair-3/answer",
            ),
        ];
        for (path, printed) in cases {
            assert_eq!(path.to_string(), printed);
            assert_eq!(DuelogicPath::parse(printed), Some(path));
        }
        assert_eq!(t.part(Part::Evaluation), "round/2/chair-3/evaluation");
        for other in [
            "",
            "round",
            "round/x/chair-1",
            "round/1/",
            "round/1/chair-1/check/",
            "round/1/chair-1/verdict",
            "summary",
        ] {
            assert_eq!(DuelogicPath::parse(other), None, "{other}");
        }
    }
}
