//! Crux's call paths, printed and read in one place. The engine names its calls (and the
//! findings keyed like them) with `CruxPath`; the screens read a path back with `parse`
//! instead of matching on pieces of it. Stored logs keep the printed words, so `Display`
//! writes exactly what the format has always written.

use std::fmt;

/// One of crux's calls. `aspect` counts from 1; a crux room is its aspect's room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CruxPath {
    /// The topic's decomposition into aspects: `aspects`.
    Aspects,
    /// A persona's opening: `opening/{seat}`.
    Opening { seat: String },
    /// A persona's take in a miniround: `aspect/{a}/round/{m}/{seat}`.
    Take {
        aspect: u32,
        miniround: u32,
        seat: String,
    },
    /// The aspect's round summary: `aspect/{a}/summary`.
    RoundSummary { aspect: u32 },
    /// The disagreement detection after the minirounds: `aspect/{a}/disagreement`.
    Detection { aspect: u32 },
    /// A side's position statement in the room: `room/{a}/position/{seat}`.
    Position { aspect: u32, seat: String },
    /// A turn of the room's exchange: `room/{a}/turn/{t}`.
    Exchange { aspect: u32, turn: u32 },
    /// The exit check after exchange turn `t`: `room/{a}/exit/{t}`.
    ExitCheck { aspect: u32, turn: u32 },
    /// The convergence check at the room's end: `room/{a}/convergence`.
    Convergence { aspect: u32 },
    /// The room's crux card: `room/{a}/card`.
    Card { aspect: u32 },
    /// A persona's closing: `closing/{seat}`.
    Closing { seat: String },
    /// The position shifts between openings and closings: `shifts`.
    Shifts,
    /// The final summary: `summary`.
    Summary,
}

impl CruxPath {
    /// Reads a path this format printed; the repair of a call (`…/repair`) reads as the
    /// call it repairs. `None` for anything else.
    pub fn parse(path: &str) -> Option<CruxPath> {
        let path = path.strip_suffix("/repair").unwrap_or(path);
        let parts: Vec<&str> = path.split('/').collect();
        let n = |s: &str| s.parse::<u32>().ok();
        let seat = |s: &str| (!s.is_empty()).then(|| s.to_string());
        Some(match parts.as_slice() {
            ["aspects"] => CruxPath::Aspects,
            ["shifts"] => CruxPath::Shifts,
            ["summary"] => CruxPath::Summary,
            ["opening", s] => CruxPath::Opening { seat: seat(s)? },
            ["closing", s] => CruxPath::Closing { seat: seat(s)? },
            ["aspect", a, "round", m, s] => CruxPath::Take {
                aspect: n(a)?,
                miniround: n(m)?,
                seat: seat(s)?,
            },
            ["aspect", a, "summary"] => CruxPath::RoundSummary { aspect: n(a)? },
            ["aspect", a, "disagreement"] => CruxPath::Detection { aspect: n(a)? },
            ["room", a, "position", s] => CruxPath::Position {
                aspect: n(a)?,
                seat: seat(s)?,
            },
            ["room", a, "turn", t] => CruxPath::Exchange {
                aspect: n(a)?,
                turn: n(t)?,
            },
            ["room", a, "exit", t] => CruxPath::ExitCheck {
                aspect: n(a)?,
                turn: n(t)?,
            },
            ["room", a, "convergence"] => CruxPath::Convergence { aspect: n(a)? },
            ["room", a, "card"] => CruxPath::Card { aspect: n(a)? },
            _ => return None,
        })
    }

    /// The aspect whose crux room this call is made in, if it is one.
    pub fn room(&self) -> Option<u32> {
        match self {
            CruxPath::Position { aspect, .. }
            | CruxPath::Exchange { aspect, .. }
            | CruxPath::ExitCheck { aspect, .. }
            | CruxPath::Convergence { aspect }
            | CruxPath::Card { aspect } => Some(*aspect),
            _ => None,
        }
    }
}

/// The key of aspect `a`'s crux room, as its card's `room` field stores it: `room/{a}`.
pub fn room_key(aspect: u32) -> String {
    format!("room/{aspect}")
}

impl fmt::Display for CruxPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CruxPath::Aspects => f.write_str("aspects"),
            CruxPath::Shifts => f.write_str("shifts"),
            CruxPath::Summary => f.write_str("summary"),
            CruxPath::Opening { seat } => write!(f, "opening/{seat}"),
            CruxPath::Closing { seat } => write!(f, "closing/{seat}"),
            CruxPath::Take {
                aspect,
                miniround,
                seat,
            } => write!(f, "aspect/{aspect}/round/{miniround}/{seat}"),
            CruxPath::RoundSummary { aspect } => write!(f, "aspect/{aspect}/summary"),
            CruxPath::Detection { aspect } => write!(f, "aspect/{aspect}/disagreement"),
            CruxPath::Position { aspect, seat } => write!(f, "room/{aspect}/position/{seat}"),
            CruxPath::Exchange { aspect, turn } => write!(f, "room/{aspect}/turn/{turn}"),
            CruxPath::ExitCheck { aspect, turn } => write!(f, "room/{aspect}/exit/{turn}"),
            CruxPath::Convergence { aspect } => write!(f, "room/{aspect}/convergence"),
            CruxPath::Card { aspect } => write!(f, "room/{aspect}/card"),
        }
    }
}

impl From<CruxPath> for String {
    fn from(p: CruxPath) -> String {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_reads_back_as_itself_and_prints_the_stored_words() {
        let seat = || "persona-2".to_string();
        let all = [
            (CruxPath::Aspects, "aspects"),
            (CruxPath::Opening { seat: seat() }, "opening/persona-2"),
            (
                CruxPath::Take {
                    aspect: 2,
                    miniround: 0,
                    seat: seat(),
                },
                "aspect/2/round/0/persona-2",
            ),
            (CruxPath::RoundSummary { aspect: 2 }, "aspect/2/summary"),
            (CruxPath::Detection { aspect: 2 }, "aspect/2/disagreement"),
            (
                CruxPath::Position {
                    aspect: 2,
                    seat: seat(),
                },
                "room/2/position/persona-2",
            ),
            (CruxPath::Exchange { aspect: 2, turn: 5 }, "room/2/turn/5"),
            (CruxPath::ExitCheck { aspect: 2, turn: 3 }, "room/2/exit/3"),
            (CruxPath::Convergence { aspect: 2 }, "room/2/convergence"),
            (CruxPath::Card { aspect: 2 }, "room/2/card"),
            (CruxPath::Closing { seat: seat() }, "closing/persona-2"),
            (CruxPath::Shifts, "shifts"),
            (CruxPath::Summary, "summary"),
        ];
        for (path, words) in all {
            assert_eq!(path.to_string(), words);
            assert_eq!(CruxPath::parse(words), Some(path.clone()), "{words}");
            let repair = format!("{words}/repair");
            assert_eq!(CruxPath::parse(&repair), Some(path), "{repair}");
        }
        for other in [
            "",
            "room/x/card",
            "room/1",
            "aspect/1/round/2",
            "opening/",
            "score/a",
        ] {
            assert_eq!(CruxPath::parse(other), None, "{other}");
        }
        assert_eq!(CruxPath::parse("room/3/turn/1").unwrap().room(), Some(3));
        assert_eq!(CruxPath::parse("aspect/3/summary").unwrap().room(), None);
    }
}
