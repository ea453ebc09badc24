//! The variants: `GET /api/variants` (the built-in ones) and `GET /api/variants/<id>` (one
//! variant's rules, for the rules page).

use axum::Json;
use cohort_rules::{builtin, builtin_variants};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{Answer, ApiError, ApiPath, ApiQuery};
use crate::view::{board_view, with_variant_head};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LevelsQuery {
    variant: Option<String>,
}

/// `GET /api/ai/levels?variant=<id>`: the AI levels a game of that built-in variant may ask
/// for (`ai.agent` `level1` to `level8`), each with what it is there (cohort_engine::levels:
/// games of one-step turns have their own table), and the level pages offer first. Without
/// a variant: the table of games of many-step turns (Chesimals I's).
pub(super) async fn levels(ApiQuery(q): ApiQuery<LevelsQuery>) -> Answer {
    let id = q.variant.as_deref().unwrap_or("chesimals-1");
    let v = builtin(id).ok_or_else(|| {
        ApiError::not_found(format!(
            "variant: unknown variant '{id}' (GET /api/variants lists them)"
        ))
    })?;
    Ok(Json(crate::ai_levels::levels_json(&v)))
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
