//! Reading games: the list (`GET /api/games`), one game's view (`GET /api/games/<id>`, with
//! `at` a past position), its record (`/record`) and its updates over a WebSocket (`/ws`).

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::Conn;
use crate::error::{Answer, ApiError, ApiPath, ApiQuery};
use crate::live::LiveGame;
use crate::sockets::{self, Sock};
use crate::{App, Slot};

pub(super) async fn list(State(app): State<Arc<App>>) -> Answer {
    let ids = app
        .store
        .game_ids(false, 100)
        .await
        .map_err(|e| ApiError::internal(format!("reading games failed: {e}")))?;
    let mut out = vec![];
    for id in ids {
        if let Ok(Some(slot)) = app.slot(&id).await {
            out.push(slot.live.lock().await.summary());
        }
    }
    Ok(Json(out.into()))
}

#[derive(Deserialize)]
pub(super) struct ViewQuery {
    token: Option<String>,
    /// Replay: the position after this many steps.
    at: Option<usize>,
}

pub(super) async fn get(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ViewQuery>,
) -> Answer {
    let slot = app.find(&id).await?;
    let mut live = slot.live.lock().await;
    // Another server on the same database may have changed the game.
    super::play::refresh(&app, &mut live).await?;
    if let Some(at) = q.at {
        let steps: Vec<String> = live.turns.iter().flat_map(|t| t.1.clone()).collect();
        if at > steps.len() {
            return Err(ApiError::invalid(format!(
                "at: the game has {} steps",
                steps.len()
            )));
        }
        let mut row = live.row.clone();
        row.ending = None;
        let variant = live.variant().clone();
        drop(live);
        // Replaying hundreds of steps is heavy work: off the async workers, and the game's
        // lock is not held meanwhile.
        let v = app
            .heavy
            .run(move || -> Result<Value, String> {
                let past = LiveGame::replay_in(variant, row, &steps[..at])?;
                let mut v = past.view(None);
                let step = if at > 0 {
                    Value::from(steps[at - 1].clone())
                } else {
                    Value::Null
                };
                v["replay"] = json!({"at": at, "steps": steps.len(), "step": step});
                Ok(v)
            })
            .await?
            .map_err(ApiError::internal)?;
        return Ok(Json(v));
    }
    let seat = q.token.as_deref().and_then(|t| live.seat_of(t));
    let mut view = live.view(seat);
    // The creator of an AI-against-AI game may stop it: its page offers the button.
    let creator = &live.row.creator_token;
    if !creator.is_empty() && q.token.as_deref() == Some(creator.as_str()) {
        view["creator"] = true.into();
    }
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RecordQuery {
    /// `text` (default: docs/records.md) or `json`.
    format: Option<String>,
}

pub(super) async fn record(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<RecordQuery>,
) -> Result<Response, ApiError> {
    let json = match q.format.as_deref() {
        None | Some("text") => false,
        Some("json") => true,
        Some(other) => {
            return Err(ApiError::invalid(format!(
                "format: '{other}' is not a record format (text or json)"
            )))
        }
    };
    let slot = app.find(&id).await?;
    let live = slot.live.lock().await;
    let (kind, ext, text) = if json {
        let text = serde_json::to_string_pretty(&live.record())
            .map_err(|e| ApiError::internal(e.to_string()))?;
        ("application/json", "json", text)
    } else {
        ("text/plain; charset=utf-8", "txt", live.record_text())
    };
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"cohort-{}-{id}.{ext}\"",
                    live.row.variant
                ),
            ),
        ],
        text,
    )
        .into_response())
}

pub(super) async fn ws(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    Conn(conn): Conn,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = app.find(&id).await?;
    let admitted = sockets::admit(&app, upgrade, &headers, conn, Some(&id))?;
    Ok(admitted.on_upgrade(move |socket| watch(socket, slot)))
}

/// Send the game's view now and after every change until the watcher goes away.
async fn watch(mut socket: Sock, slot: Arc<Slot>) {
    let mut updates = slot.updates.subscribe();
    let first = slot.live.lock().await.view(None).to_string();
    if !socket.send(first).await {
        return;
    }
    loop {
        let text = match socket.until(updates.recv()).await {
            None => return,
            Some(Ok(t)) => t.to_string(),
            // Fell behind: the newest view says everything.
            Some(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {
                slot.live.lock().await.view(None).to_string()
            }
            Some(Err(_)) => return,
        };
        if !socket.send(text).await {
            return;
        }
    }
}
