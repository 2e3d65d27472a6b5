//! Token estimates for budgeting prompts and for providers that report no usage. Estimates
//! are always labelled as such wherever they are shown.

/// Roughly four characters per token for English prose; rounded up so budgets err short.
pub fn estimate(text: &str) -> u32 {
    let chars = text.chars().count() as u32;
    chars.div_ceil(4) + 1
}
