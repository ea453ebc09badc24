//! Quick pairing (docs/server.md, "Quick pairing"): "play 5+3 Chesimals I". `POST
//! /api/quick` starts a game at once with a player already waiting for the same game (the
//! same variant, clock and rated or not, each within the other's rating range, the closest
//! rating first), or posts a *seek*: a challenge of random colour that only players within
//! the range may accept, shown in the lobby like any challenge.
//!
//! Two players asking at the same moment may both find nobody and both post a seek: each
//! then looks once more, and the newer seek takes the older one (its own is withdrawn), so
//! the two meet whichever instances answered them; storage's claim lets one game start.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;

use crate::accounts::Conn;
use crate::api::create::ClockSpec;
use crate::challenges::Challenge;
use crate::error::{body, Answer, ApiError, Code, MAX_BODY};
use crate::lobby::{challenge_for, post_challenge, rating_in, start_game, summary, NewChallenge};
use crate::store::now_ms;
use crate::App;

/// How far from one's own rating an opponent's may be, unless the request says.
pub const DEFAULT_RANGE: i64 = 300;
/// The range a request may ask for.
const RANGES: std::ops::RangeInclusive<i64> = 50..=2000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuickRequest {
    variant: String,
    clock: Option<ClockSpec>,
    rated: Option<bool>,
    /// Opponents rated at most this far from the caller (default [`DEFAULT_RANGE`]).
    range: Option<i64>,
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/quick", post(quick))
        .method_not_allowed_fallback(crate::error::wrong_method)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

fn stored(e: crate::store::StoreError) -> ApiError {
    ApiError::internal(format!("storage failed: {e}"))
}

/// The open challenges the seek `mine` (not yet stored, or stored) could start a game with,
/// the closest rating first, then the oldest.
async fn partners(app: &App, mine: &Challenge, rating: i64) -> Result<Vec<Challenge>, ApiError> {
    let now = now_ms();
    let mut found = vec![];
    for c in app.store.open_challenges(now).await.map_err(stored)? {
        let same_game =
            c.variant == mine.variant && c.control == mine.control && c.rated == mine.rated;
        // One's own seeks are skipped (an anonymous caller's cannot be told from another's
        // at the same address: they may meet, as in the lobby).
        let own = c.owner == mine.owner && mine.by.is_some();
        if !same_game || c.id == mine.id || own || !c.admits(rating) {
            continue;
        }
        let theirs = match c.rating {
            Some(r) => r,
            None => rating_in(app, c.by.as_ref().map(|b| b.0.as_str()), &c.variant).await?,
        };
        if mine.admits(theirs) {
            found.push(((theirs - rating).abs(), c));
        }
    }
    found.sort_by(|(da, a), (db, b)| {
        da.cmp(db)
            .then(a.created_ms.cmp(&b.created_ms))
            .then(a.id.cmp(&b.id))
    });
    Ok(found.into_iter().map(|(_, c)| c).collect())
}

/// Start a game with the first of `partners` still open: the acceptor's answer, or None if
/// every one was taken meanwhile.
async fn take_first(
    app: &Arc<App>,
    partners: &[Challenge],
    me: &Challenge,
) -> Result<Option<Value>, ApiError> {
    for c in partners {
        match start_game(app, c, me.by.clone(), now_ms()).await {
            Ok(mut v) => {
                v["paired"] = true.into();
                return Ok(Some(v));
            }
            Err(e) if e.code == Code::ChallengeClosed => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

/// `POST /api/quick` `{"variant", "clock"?, "rated"?, "range"?}`: `{"paired": true, "game",
/// "seat", "token", "link"}` when a game started, else `{"paired": false}` and the posted
/// seek as the lobby lists it, with its `token` (its creator's page asks
/// `GET /api/challenges/<id>?token=` until it is accepted, as for any challenge).
async fn quick(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: QuickRequest = body(raw)?;
    let range = req.range.unwrap_or(DEFAULT_RANGE);
    if !RANGES.contains(&range) {
        return Err(ApiError::invalid(format!(
            "range: {range} is not between {} and {} rating points",
            RANGES.start(),
            RANGES.end()
        )));
    }
    let asked = NewChallenge {
        variant: req.variant,
        clock: req.clock,
        colour: None,
        rated: req.rated,
    };
    let mut seek = challenge_for(&app, conn, &headers, &asked, "random".into()).await?;
    let rating = rating_in(&app, seek.by.as_ref().map(|b| b.0.as_str()), &seek.variant).await?;
    seek.rating = Some(rating);
    seek.range = Some(range);
    // 1. Someone already waits for this game.
    let waiting = partners(&app, &seek, rating).await?;
    if let Some(v) = take_first(&app, &waiting, &seek).await? {
        return Ok(Json(v));
    }
    // 2. Nobody: post the seek; then, as someone may have posted theirs at the same moment,
    // the newer of two seeks takes the older.
    post_challenge(&app, &seek).await?;
    let older: Vec<Challenge> = partners(&app, &seek, rating)
        .await?
        .into_iter()
        .filter(|c| (c.created_ms, &c.id) < (seek.created_ms, &seek.id))
        .collect();
    if !older.is_empty()
        && app
            .store
            .cancel_challenge(&seek.id, now_ms())
            .await
            .map_err(stored)?
    {
        let _ = app.lobby.changed.send(());
        if let Some(v) = take_first(&app, &older, &seek).await? {
            return Ok(Json(v));
        }
        // Taken by others meanwhile: wait with a seek after all.
        seek.id = crate::token()[..10].to_string();
        seek.created_ms = now_ms();
        seek.seen_ms = seek.created_ms;
        post_challenge(&app, &seek).await?;
    }
    let mut v = summary(&seek);
    v["paired"] = false.into();
    v["token"] = seek.secret.clone().into();
    Ok(Json(v))
}
