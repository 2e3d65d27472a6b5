//! The forecast panel's screens: the setup form (question's outcomes, roles and their
//! models, rounds, judge weight, context) and the live view (rounds as tabs with each
//! role's argument streaming and its score, a probability chart per outcome drawn as SVG,
//! the consensus meter, the disagreement map, insights and precedents on a timeline).

mod panel;
pub mod setup;

pub use panel::ForecastPanel;
