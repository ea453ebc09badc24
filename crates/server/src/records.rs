//! Game records on the server (docs/records.md): `POST /api/records/replay` checks a record
//! and shows the position after any step of it; `POST /api/games` with `record` continues a
//! record as a new game.

use cohort_rules::Rules;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::Json;
use cohort_engine::record::Record;
use cohort_rules::{Game, Position, Variant};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{body_with, ApiError, Code};
use crate::view::{board_view, side_name};
use crate::App;

/// Largest record accepted (a 400-turn Chesimals game is well under 100 KiB).
pub const MAX_RECORD: usize = 512 * 1024;

/// A record read and replayed: its variant, start, and every step's text (`end`s included).
pub struct Checked {
    pub record: Record,
    pub variant: Arc<Variant>,
    pub start: Position,
    pub steps: Vec<String>,
}

/// Parse and replay a record; every problem is a 400 naming the line, or the turn and step.
pub fn check(text: &str) -> Result<Checked, ApiError> {
    let record = Record::parse(text).map_err(|e| ApiError::new(Code::BadRecord, e.to_string()))?;
    let variant = record
        .variant(None)
        .map_err(|e| ApiError::new(Code::BadRecord, format!("record: {e}")))?;
    let replayed = record
        .replay(&variant)
        .map_err(|e| ApiError::new(Code::BadRecord, format!("record: {e}")))?;
    let start = replayed.game.start().clone();
    let mut p = start.clone();
    let steps = replayed
        .steps
        .iter()
        .map(|&s| {
            let t = p.step_text(s);
            p.make(s);
            t
        })
        .collect();
    Ok(Checked {
        record,
        variant,
        start,
        steps,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayReq {
    record: String,
    /// The position after this many steps (`end`s counted); default 0, the start.
    at: Option<usize>,
}

/// The game after the first `at` steps.
pub fn game_at(c: &Checked, at: usize) -> Result<Game, ApiError> {
    if at > c.steps.len() {
        return Err(ApiError::invalid(format!(
            "at: the record has {} steps",
            c.steps.len()
        )));
    }
    let mut g = Game::new(c.start.clone());
    for s in &c.steps[..at] {
        g.play_text(s)
            .map_err(|e| ApiError::internal(e.to_string()))?;
    }
    Ok(g)
}

/// Each step of record `c`, played from its start: what it removed and the step as data.
fn steps_played(c: &Checked) -> Result<(Vec<Value>, Vec<Value>), ApiError> {
    let mut g = Game::new(c.start.clone());
    let (mut removed, mut moves) = (Vec::new(), Vec::new());
    for s in &c.steps {
        let step = g
            .play_text(s)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        removed.push(crate::events::list_json(&crate::events::removed_by(&g)));
        moves.push(Value::Object(crate::view::step_fields(&c.variant, step)));
    }
    Ok((removed, moves))
}

/// `POST /api/records/replay` `{"record": "<text>", "at": n}`.
/// The record is parsed and replayed off the request threads (crate::heavy): a 500 KiB
/// record takes tens of milliseconds.
pub async fn replay(
    State(app): State<Arc<App>>,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: ReplayReq = body_with(raw, MAX_RECORD)?;
    app.heavy.run(move || replay_view(&req)).await?.map(Json)
}

fn replay_view(req: &ReplayReq) -> Result<Value, ApiError> {
    let c = check(&req.record)?;
    let at = req.at.unwrap_or(0);
    let g = game_at(&c, at)?;
    let mut view = board_view(g.position(), g.removed_units());
    view["result"] = match g.result() {
        None => Value::Null,
        Some((o, r)) => json!({
            "winner": match o { cohort_rules::Outcome::Win(s) => Value::from(side_name(s)), _ => Value::Null },
            "reason": r.describe(),
        }),
    };
    // Every step's removals and its data, for the move list's notes of what a step's text
    // does not show (the game page's move list, move-list.js): one replay of the whole record.
    let (removed, moves) = steps_played(&c)?;
    // Each turn with `end_at`: the number of steps (`end`s counted) once it is over, and
    // its steps' removals and data (`end`s included, as the steps up to `end_at`).
    let mut k = 0;
    let turns: Vec<Value> = c
        .record
        .turns
        .iter()
        .map(|t| {
            let from = k;
            k += t.steps.len();
            if !t.open && c.steps.get(k).is_some_and(|s| s == "end") {
                k += 1;
            }
            json!({"number": t.number, "side": side_name(t.side), "steps": t.steps, "open": t.open, "end_at": k,
                   "removed": removed[from..k], "moves": moves[from..k]})
        })
        .collect();
    let tags: serde_json::Map<String, Value> = c
        .record
        .tags
        .iter()
        .filter(|(k, _)| k != "VariantFile")
        .map(|(k, v)| (k.clone(), Value::from(v.clone())))
        .collect();
    let side_to_move = side_name(g.position().side_to_move());
    Ok(json!({
        "variant": c.variant.id,
        "name": c.variant.name,
        "builtin": cohort_rules::builtin(&c.variant.id).is_some(),
        "tags": tags,
        "result": c.record.result(),
        "turns": turns,
        "steps": c.steps,
        "at": at,
        "step": if at > 0 { Value::from(c.steps[at - 1].clone()) } else { Value::Null },
        // The same step as data (docs/server.md, `steps` of a GameView, without text and removes).
        "step_move": g.steps().last().map(|s| Value::Object(crate::view::step_fields(g.position().variant(), *s))),
        "to_move": side_to_move,
        "over": g.result().is_some(),
        "view": view,
    }))
}

/// For `POST /api/games` with `record`: the start and the steps to store, checked.
pub fn continuation(
    text: &str,
    at: Option<usize>,
    variant: &str,
) -> Result<(Position, Vec<String>), ApiError> {
    let c = check(text)?;
    if c.variant.id != variant {
        return Err(ApiError::invalid(format!(
            "variant: '{variant}' differs from the record's variant '{}'",
            c.variant.id
        )));
    }
    if cohort_rules::builtin(variant).is_none() {
        return Err(ApiError::new(
            Code::BadRecord,
            format!("record: variant '{variant}' is not built in; this server continues games of built-in variants only"),
        ));
    }
    let at = at.unwrap_or(c.steps.len());
    let g = game_at(&c, at)?;
    if g.result().is_some() {
        return Err(ApiError::invalid(format!(
            "at: the game is over after step {at}; choose an earlier step to continue from"
        )));
    }
    Ok((c.start, c.steps[..at].to_vec()))
}
