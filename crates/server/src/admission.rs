//! Admission of new games against the server's limits (docs/server.md, "Limits"): games of
//! a kind at once (AI-against-AI, custom variants), and custom-variant games per caller and
//! hour.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use crate::error::{ApiError, Code};
use crate::App;

/// Refuse (429) a new game of a kind, `what`, when `running` of them already reach the
/// server's `most` (a count that failed is an internal error).
pub(crate) fn room_for_one(
    running: Result<i64, crate::store::StoreError>,
    most: usize,
    what: &str,
) -> Result<(), ApiError> {
    let running = running.map_err(|e| ApiError::internal(format!("counting games failed: {e}")))?;
    if running >= most as i64 {
        return Err(ApiError::new(
            Code::LimitReached,
            format!("this server runs at most {most} {what} at once; try again when one has ended"),
        ));
    }
    Ok(())
}

/// Who asks: the caller's IP address, as the connection gives it ("unknown" without one,
/// e.g. requests made in-process by the tests).
pub struct Caller(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Ok(Caller(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or("unknown".to_string(), |c| c.0.ip().to_string()),
        ))
    }
}

/// When each caller created its custom-variant games in the last hour (in memory).
#[derive(Default)]
pub struct Callers(HashMap<String, Vec<Instant>>);

const WINDOW: Duration = Duration::from_secs(3600);

impl Callers {
    fn recent(&mut self, caller: &str, now: Instant) -> usize {
        self.0
            .retain(|_, t| t.last().is_some_and(|l| now.duration_since(*l) < WINDOW));
        self.0.get_mut(caller).map_or(0, |t| {
            t.retain(|i| now.duration_since(*i) < WINDOW);
            t.len()
        })
    }
}

/// Whether a new custom-variant game may be created now: fewer than `max_custom_games` in
/// progress, and this caller created fewer than `custom_games_per_hour` in the last hour.
/// The guard keeps the decision valid until the game is stored (then call [`created`]).
pub(crate) async fn admit<'a>(
    app: &'a App,
    caller: &Caller,
) -> Result<tokio::sync::MutexGuard<'a, ()>, ApiError> {
    let gate = app.custom_gate.lock().await;
    room_for_one(
        app.store.count_custom_games().await,
        app.config.max_custom_games,
        "games with custom variants",
    )?;
    let recent = app
        .custom_callers
        .lock()
        .unwrap()
        .recent(&caller.0, Instant::now());
    if recent >= app.config.custom_games_per_hour {
        return Err(ApiError::new(
            Code::LimitReached,
            format!(
                "you created {recent} games with custom variants in the last hour, this server's limit; try again later",
            ),
        ));
    }
    Ok(gate)
}

/// Count a custom-variant game `caller` created.
pub(crate) fn created(app: &App, caller: &Caller) {
    app.custom_callers
        .lock()
        .unwrap()
        .0
        .entry(caller.0.clone())
        .or_default()
        .push(Instant::now());
}
