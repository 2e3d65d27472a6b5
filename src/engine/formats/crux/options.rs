//! Crux's options (seed 004): aspects, the longest crux-room exchange, the personas and
//! the temperature tiers.

use serde::{Deserialize, Serialize};

/// Crux's options (seed 004).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CruxOptions {
    pub aspects: u32,
    /// Longest crux-room exchange, in turns.
    pub max_exchanges: u32,
    /// Each persona seat and its whole contract, so a stored debate carries its personas.
    pub personas: Vec<super::persona::CruxPersona>,
    pub temperatures: CruxTemperatures,
}

/// Seed 004's temperature tiers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CruxTemperatures {
    /// Openings, takes, replies and closings.
    pub generation: f32,
    /// Crux-room position statements and exchange turns.
    pub exchange: f32,
    /// Detection, checks and summaries.
    pub analysis: f32,
    /// Topic decomposition and card extraction.
    pub extraction: f32,
}

impl Default for CruxTemperatures {
    fn default() -> Self {
        CruxTemperatures {
            generation: 0.85,
            exchange: 0.75,
            analysis: 0.2,
            extraction: 0.3,
        }
    }
}

impl Default for CruxOptions {
    fn default() -> Self {
        CruxOptions {
            aspects: 3,
            max_exchanges: 14,
            personas: Vec::new(),
            temperatures: CruxTemperatures::default(),
        }
    }
}
