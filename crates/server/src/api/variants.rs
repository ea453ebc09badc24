//! The variants: `GET /api/variants` (the built-in ones) and `GET /api/variants/<id>` (one
//! variant's rules, for the rules page).

use axum::Json;
use cohort_rules::{builtin, builtin_variants};
use serde_json::{json, Value};

use crate::error::{Answer, ApiError, ApiPath};
use crate::view::board_view;

pub(super) async fn list() -> Json<Value> {
    let list: Vec<Value> = builtin_variants()
        .iter()
        .map(|v| {
            json!({
                "id": v.id,
                "name": v.name,
                "summary": v.summary,
                "reconstructed": v.reconstructed,
                "files": v.geometry.files,
                "ranks": v.geometry.ranks,
                "command": board_view(&v.start())["command"],
                "start": board_view(&v.start()),
            })
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
