//! The AI levels a page offers for a variant, in the engine's words (cohort_engine::levels):
//! `GET /api/ai/levels` for the built-in variants, and each custom variant's `ai_levels`.

use std::sync::Arc;

use cohort_rules::Variant;
use serde_json::{json, Value};

/// The AI levels of `v` (`ai.agent` `level1` to `level8`, each with what it is there) and
/// the one offered first.
pub fn levels_json(v: &Arc<Variant>) -> Value {
    let levels: Vec<Value> = cohort_engine::levels::describe_all(v)
        .map(|(n, about)| json!({"level": n, "agent": format!("level{n}"), "about": about}))
        .collect();
    json!({"levels": levels, "default": cohort_engine::levels::DEFAULT})
}
