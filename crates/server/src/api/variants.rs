//! The variants: `GET /api/variants` (the built-in ones) and `GET /api/variants/<id>` (one
//! variant's rules, for the rules page).

use axum::Json;
use cohort_rules::{builtin, builtin_variants};
use serde_json::{json, Value};

use crate::error::{Answer, ApiError, ApiPath};
use crate::view::{board_view, with_variant_head};

/// `GET /api/ai/levels`: the AI levels a game may ask for (`ai.agent` `level1` to `level8`),
/// each with what it is (cohort_engine::levels), and the level pages offer first.
pub(super) async fn levels() -> Json<Value> {
    let levels: Vec<Value> = cohort_engine::levels::LEVELS
        .map(|n| {
            json!({
                "level": n,
                "agent": format!("level{n}"),
                "about": cohort_engine::levels::describe(n),
            })
        })
        .collect();
    Json(json!({"levels": levels, "default": cohort_engine::levels::DEFAULT}))
}

pub(super) async fn list() -> Json<Value> {
    let list: Vec<Value> = builtin_variants()
        .iter()
        .map(|v| {
            let start = board_view(&v.start(), &[]);
            let mut head = json!({"command": start["command"], "start": start});
            // A free set-up starts on an empty board: the card shows an example set-up.
            if let Some(sample) = crate::rules_info::sample_setup(v) {
                head["sample_setup"] = board_view(&sample, &[]);
            }
            with_variant_head(v, head)
        })
        .collect();
    Json(list.into())
}

/// One variant's rules (the rules page): `GET /api/variants/<id>`.
pub(super) async fn rules(ApiPath(id): ApiPath<String>) -> Answer {
    let v = builtin(&id).ok_or_else(|| {
        ApiError::not_found(format!(
            "unknown variant '{id}' (GET /api/variants lists them)"
        ))
    })?;
    Ok(Json(crate::rules_info::variant_rules(&v)))
}
