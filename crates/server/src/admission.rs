//! Admission of new games against the server's limits (docs/server.md, "Limits"): games of
//! a kind at once (AI-against-AI, custom variants), and custom-variant games per caller and
//! hour.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
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

/// Games without a clock in which nothing changed before this time hold no place in the
/// caps (adjourned: `Config::idle_game_release`).
pub(crate) fn idle_before(app: &App) -> i64 {
    crate::store::now_ms() - app.config.idle_game_release.as_millis() as i64
}

/// Who asks: the caller's IP address, as the connection gives it, or behind a trusted proxy
/// as the proxy forwards it ("unknown" without one, e.g. requests made in-process by the
/// tests). An account gives no further share: the address is the caller.
pub struct Caller(pub String);

impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        Ok(Caller(format!(
            "ip:{}",
            crate::accounts::address_of(app, parts)
        )))
    }
}

/// The caller of a request without a connection address.
pub(crate) const UNKNOWN: &str = "ip:unknown";

/// The share of a server-wide cap one caller may hold: a quarter, at least one.
pub fn share(cap: usize) -> usize {
    (cap / 4).max(1)
}

/// Refuse (429) a new game of a kind when `caller` already holds its share of the cap.
/// A caller without an address (a request made in-process, never one over the network)
/// holds no share.
pub(crate) async fn within_share(
    caller: &str,
    held: impl std::future::Future<Output = Result<i64, crate::store::StoreError>>,
    cap: usize,
    what: &str,
) -> Result<(), ApiError> {
    if caller == UNKNOWN {
        return Ok(());
    }
    let held = held
        .await
        .map_err(|e| ApiError::internal(format!("counting games failed: {e}")))?;
    let most = share(cap);
    if held >= most as i64 {
        return Err(ApiError::new(
            Code::LimitReached,
            format!(
                "you have {held} {what} in progress, your share of this server's {cap}; try again when one has ended"
            ),
        ));
    }
    Ok(())
}

/// Refuse (429) a new game with an AI seat, `row`, when its caller (`jobs::caller_of`)
/// already has `--ai-games-per-caller` games with the AI to move (its jobs in the queue,
/// counted in storage). A caller without an address is not counted. Call under
/// `App::ai_games_gate`, held until the game's AI job is queued.
pub(crate) async fn ai_room_for(app: &App, row: &crate::store::GameRow) -> Result<(), ApiError> {
    if row.white != "ai" && row.black != "ai" {
        return Ok(());
    }
    let caller = crate::jobs::caller_of(row);
    if caller == UNKNOWN {
        return Ok(());
    }
    let most = app.config.ai_games_per_caller;
    let held = app
        .store
        .count_ai_jobs_of(&caller)
        .await
        .map_err(|e| ApiError::internal(format!("counting games failed: {e}")))?;
    if held >= most as i64 {
        return Err(ApiError::new(
            Code::LimitReached,
            format!(
                "you have {held} games with the AI to move, this server's limit per caller ({most}); play your turn in one, or wait for the AI to move, then try again"
            ),
        ));
    }
    Ok(())
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
        app.store.count_custom_games(idle_before(app)).await,
        app.config.max_custom_games,
        "games with custom variants",
    )?;
    within_share(
        &caller.0,
        app.store.count_custom_games_by(&caller.0, idle_before(app)),
        app.config.max_custom_games,
        "games with custom variants",
    )
    .await?;
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
