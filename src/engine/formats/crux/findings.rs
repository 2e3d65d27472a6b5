//! What crux finds (seed 004): the aspects of the topic, the disagreement detection with
//! its three gates, and the crux card a room ends in.

use serde::{Deserialize, Serialize};

/// One side of a crux.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CruxSide {
    pub seat: String,
    pub position: String,
    pub reasoning: String,
    pub would_change_mind: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DisagreementKind {
    Factual,
    Values,
    Definitional,
}

/// What a crux room found (seed 004).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CruxCard {
    /// The room it came from (its phase key, `room/2`), so the card links back to it.
    #[serde(default)]
    pub room: String,
    /// The question the room was opened on.
    #[serde(default)]
    pub question: String,
    pub crux: String,
    pub sides: Vec<CruxSide>,
    pub kind: DisagreementKind,
    pub diagnosis: String,
    pub resolved: bool,
    #[serde(default)]
    pub resolution: String,
}

/// One aspect a crux debate's topic was broken into.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aspect {
    pub label: String,
    pub question: String,
}

/// The analyst's disagreement detection after an aspect's last miniround: the three gates
/// and, when all three hold, the two sides a crux room opens between.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    pub direct_opposition: bool,
    pub specific_claim: bool,
    pub topic_relevant: bool,
    /// The two seats that disagree (empty when the analyst named none).
    #[serde(default)]
    pub seats: Vec<String>,
    #[serde(default)]
    pub claim: String,
    #[serde(default)]
    pub question: String,
    /// A crux room was opened on it.
    pub opened: bool,
}

impl DisagreementKind {
    pub fn id(self) -> &'static str {
        match self {
            DisagreementKind::Factual => "factual",
            DisagreementKind::Values => "values",
            DisagreementKind::Definitional => "definitional",
        }
    }
}

/// Which check a crux room ran (stored as `exit` or `convergence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomCheckKind {
    /// After turns 3, 5, 7…: has the crux surfaced, so the exchange can end?
    Exit,
    /// When the exchange ends: did the two converge, or name their crux?
    Convergence,
}

impl RoomCheckKind {
    pub fn id(self) -> &'static str {
        match self {
            RoomCheckKind::Exit => "exit",
            RoomCheckKind::Convergence => "convergence",
        }
    }

    /// What `done` means for this check.
    pub fn done_means(self) -> &'static str {
        match self {
            RoomCheckKind::Exit => "crux surfaced",
            RoomCheckKind::Convergence => "converged",
        }
    }

    /// The call's label, and the unscored finding's name.
    pub fn label(self) -> &'static str {
        match self {
            RoomCheckKind::Exit => "Exit check",
            RoomCheckKind::Convergence => "Convergence check",
        }
    }
}
