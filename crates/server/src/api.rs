//! The JSON API of docs/server.md. Every action works on a copy of the game, stores the
//! change, and only then replaces the game in memory and answers: an error at any point
//! (bad request, illegal step, storage failure) leaves the game exactly as it was.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use cohort_engine::Limits;
use cohort_rules::{builtin, builtin_variants, Side};
use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::clock::{Clock, TimeControl};
use crate::live::{board_view, side_name, LiveGame};
use crate::sched::Class;
use crate::store::{now_ms, Change, GameRow};
use crate::{custom, App, Slot};

/// Largest request body accepted (a step request is well under 100 bytes).
pub const MAX_BODY: usize = 16 * 1024;

pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    pub fn bad(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, msg.into())
    }
    pub fn conflict(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::CONFLICT, msg.into())
    }
    pub fn internal(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, msg.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

pub(crate) type Answer = Result<Json<Value>, ApiError>;

/// axum's `Path`, refused with a JSON [`ApiError`] instead of axum's plain-text rejection.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(v)) => Ok(ApiPath(v)),
            Err(e) => Err(ApiError(e.status(), format!("path: {}", e.body_text()))),
        }
    }
}

/// axum's `Query`, refused with a JSON [`ApiError`] naming the parameter that is wrong.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(ApiQuery(v)),
            Err(e) => {
                // axum says "Failed to deserialize query string: <field>: <problem>".
                let text = e.body_text();
                let detail = text
                    .strip_prefix("Failed to deserialize query string: ")
                    .unwrap_or(&text);
                Err(ApiError(e.status(), format!("query string: {detail}")))
            }
        }
    }
}

/// Any path under /api that is no route: a JSON 404 (other paths keep a plain 404).
pub async fn no_route(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("no API route {method} {path} (docs/server.md lists them)"),
        )
        .into_response()
    } else {
        StatusCode::NOT_FOUND.into_response()
    }
}

/// A route that exists, asked with a method it does not take: a JSON 405 (axum adds `Allow`).
pub(crate) async fn wrong_method(method: Method, uri: Uri) -> ApiError {
    ApiError(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} does not take {method} (the Allow header lists what it takes)",
            uri.path()
        ),
    )
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/variants", get(variants))
        .route("/api/variants/{id}", get(variant_rules))
        // Custom variants and piece diagrams (custom.rs); a variant file may be 64 KiB.
        .route(
            "/api/variants/check",
            post(custom::check).layer(DefaultBodyLimit::max(custom::MAX_BODY)),
        )
        .route(
            "/api/variants/diagram",
            post(custom::text_diagram).layer(DefaultBodyLimit::max(custom::MAX_BODY)),
        )
        .route("/api/variants/{id}/diagram", get(custom::variant_diagram))
        .route("/api/games/{id}/diagram", get(custom::game_diagram))
        .route(
            "/api/games",
            get(list_games)
                .post(create_game)
                .layer(DefaultBodyLimit::max(
                    crate::records::MAX_RECORD.max(custom::MAX_BODY),
                )),
        )
        .route(
            "/api/records/replay",
            post(crate::records::replay).layer(DefaultBodyLimit::max(crate::records::MAX_RECORD)),
        )
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/step", post(step))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws))
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Refuse (429) a new game of a kind, `what`, when `running` of them already reach the
/// server's `most` (a count that failed is an internal error).
pub(crate) fn room_for_one(
    running: Result<i64, crate::store::StoreError>,
    most: usize,
    what: &str,
) -> Result<(), ApiError> {
    let running = running.map_err(|e| ApiError::internal(format!("counting games failed: {e}")))?;
    if running >= most as i64 {
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            format!("this server runs at most {most} {what} at once; try again when one has ended"),
        ));
    }
    Ok(())
}

/// Parse a JSON body, turning every way it can be wrong into one clear sentence.
pub(crate) fn body<T: for<'de> Deserialize<'de>>(
    raw: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    body_with(raw, MAX_BODY)
}

/// [`body`] for a route whose body limit is `limit` bytes.
pub(crate) fn body_with<T: for<'de> Deserialize<'de>>(
    raw: Result<Bytes, BytesRejection>,
    limit: usize,
) -> Result<T, ApiError> {
    let bytes = raw.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError(status, format!("request body over {limit} bytes"))
        } else {
            ApiError(status, format!("unreadable request body: {e}"))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        use serde_json::error::Category;
        match e.classify() {
            // Well-formed JSON that is not the request: a missing field, a wrong type.
            Category::Data => ApiError::bad(format!("request body: {e}")),
            _ => ApiError::bad(format!("malformed JSON body: {e}")),
        }
    })
}

async fn variants() -> Json<Value> {
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
async fn variant_rules(ApiPath(id): ApiPath<String>) -> Answer {
    let v = builtin(&id).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("unknown variant '{id}' (GET /api/variants lists them)"),
        )
    })?;
    Ok(Json(crate::rules_info::variant_rules(&v)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: String,
    white: String,
    black: String,
    ai: Option<AiSpec>,
    /// A start position other than the variant's (NOTATION.md position string).
    position: Option<String>,
    /// A custom variant: the variant file that defines `variant` (at most 64 KiB).
    variant_text: Option<String>,
    /// A game record (docs/records.md) to continue: its start and its first `at` steps
    /// (default: all of them) are the new game's.
    record: Option<String>,
    at: Option<usize>,
    /// A clock: `{"minutes": 1, "increment": 1}` or `{"days": 3}` (docs/server.md, "Clocks").
    clock: Option<ClockSpec>,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockSpec {
    pub minutes: Option<f64>,
    pub increment: Option<i64>,
    pub days: Option<i64>,
}

impl ClockSpec {
    pub fn control(&self, at: &str) -> Result<TimeControl, ApiError> {
        TimeControl::from_request(self.minutes, self.increment, self.days, at)
            .map_err(ApiError::bad)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AiSpec {
    agent: String,
    time_ms: u64,
}

pub(crate) fn token() -> String {
    let mut b = [0u8; 16];
    getrandom::getrandom(&mut b).expect("the operating system's random source");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

async fn create_game(
    State(app): State<Arc<App>>,
    caller: custom::Caller,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    // Only a variant file or a record may make a request this long.
    let req: NewGame = body_with(raw, crate::records::MAX_RECORD.max(custom::MAX_BODY))?;
    let variant = match &req.variant_text {
        Some(text) => custom::pick(&custom::load(text)?, &req.variant)?,
        None => builtin(&req.variant).ok_or_else(|| {
            ApiError::bad(format!(
                "unknown variant '{}' (GET /api/variants lists them)",
                req.variant
            ))
        })?,
    };
    for (seat, kind) in [("white", &req.white), ("black", &req.black)] {
        if kind != "human" && kind != "ai" {
            return Err(ApiError::bad(format!(
                "{seat}: '{kind}' is not a seat kind (human or ai)"
            )));
        }
    }
    let ai = req.ai.unwrap_or(AiSpec {
        agent: "engine".into(),
        time_ms: 1000,
    });
    if !matches!(ai.agent.as_str(), "engine" | "greedy" | "random") {
        return Err(ApiError::bad(format!(
            "ai.agent: '{}' is not an agent (engine, greedy or random)",
            ai.agent
        )));
    }
    let max_time = app.config.ai_max_time_ms.min(60_000);
    if !(50..=max_time).contains(&ai.time_ms) {
        return Err(ApiError::bad(format!(
            "ai.time_ms: must be between 50 and {max_time} (this server's limit per AI turn)"
        )));
    }
    let control = req.clock.unwrap_or_default().control("clock")?;
    let ai_only = req.white == "ai" && req.black == "ai";
    let (start, steps) = match (&req.record, &req.position) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(
                "position: a game continued from a record starts where the record starts",
            ))
        }
        (Some(text), None) => crate::records::continuation(text, req.at, &variant.id)?,
        (None, _) if req.at.is_some() => {
            return Err(ApiError::bad("at: only with a record"));
        }
        (None, Some(text)) => (
            cohort_rules::Position::parse(&variant, text)
                .map_err(|e| ApiError::bad(format!("position: {e}")))?,
            vec![],
        ),
        (None, None) => (variant.start(), vec![]),
    };
    let now = now_ms();
    let id = token()[..12].to_string();
    let row = GameRow {
        id: id.clone(),
        variant: variant.id.clone(),
        start: start.to_text(),
        white: req.white.clone(),
        black: req.black.clone(),
        ai_agent: ai.agent,
        ai_time_ms: ai.time_ms as i64,
        white_token: token(),
        black_token: token(),
        creator_token: if ai_only { token() } else { String::new() },
        variant_text: req.variant_text.clone().unwrap_or_default(),
        draw_offer: None,
        ending: None,
        finished: false,
        version: 1,
        created_ms: now,
        updated_ms: now,
        clock: Clock::start(control, now),
        ..GameRow::default()
    };
    let mut row = row;
    row.version += steps.len() as i64;
    let custom_caller = req.variant_text.is_some().then_some(&caller);
    launch(&app, &row, &steps, variant.clone(), custom_caller).await?;
    let seat = |kind: &str, tok: &str| {
        if kind == "human" {
            (
                Value::from(tok),
                Value::from(format!("/game/{id}?token={tok}")),
            )
        } else {
            (Value::Null, Value::Null)
        }
    };
    let (wt, wl) = seat(&row.white, &row.white_token);
    let (bt, bl) = seat(&row.black, &row.black_token);
    let mut created = json!({
        "id": id,
        "tokens": {"white": wt, "black": bt},
        "links": {"white": wl, "black": bl},
        "watch": format!("/game/{id}"),
    });
    if ai_only {
        created["creator_token"] = row.creator_token.clone().into();
    }
    Ok(Json(created))
}

/// Store a new game and start it: into memory, the AI asked for its turn, the clock armed.
/// `steps`: the first steps (a game continued from a record); `custom_caller`: who creates
/// a game of a custom variant (counted against the limits of custom.rs).
pub(crate) async fn launch(
    app: &Arc<App>,
    row: &GameRow,
    steps: &[String],
    variant: Arc<cohort_rules::Variant>,
    custom_caller: Option<&custom::Caller>,
) -> Result<(), ApiError> {
    let id = row.id.clone();
    let ai_only = row.white == "ai" && row.black == "ai";
    let live = LiveGame::replay_in(variant, row.clone(), steps).map_err(ApiError::bad)?;
    if live.game.result().is_some() {
        return Err(ApiError::bad(
            "position: the game would be over before it starts",
        ));
    }
    {
        // Custom variants: counted (all callers, and this caller) under one lock.
        let _custom_gate = match custom_caller {
            Some(caller) => Some(custom::admit(app, caller).await?),
            None => None,
        };
        // Counted and stored under one lock: two creations cannot both take the last place.
        let _gate = if ai_only {
            let gate = app.ai_games_gate.lock().await;
            room_for_one(
                app.store.count_ai_games().await,
                app.config.max_ai_games,
                "AI-against-AI games",
            )?;
            Some(gate)
        } else {
            None
        };
        app.store
            .insert_game_with_steps(row, steps)
            .await
            .map_err(|e| ApiError::internal(format!("storing the game failed: {e}")))?;
        if let Some(caller) = custom_caller {
            custom::created(app, caller);
        }
    }
    let slot = app.insert(id.clone(), live);
    arm_clock(app, &id, &slot).await;
    kick_ai(app, &id, &slot).await;
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StopReq {
    token: Option<String>,
}

/// Stop an AI-against-AI game: its creator's token ends it as a draw by agreement.
async fn stop(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    // No body at all is the same as no token.
    let req: StopReq = match &raw {
        Ok(b) if b.iter().all(|c| c.is_ascii_whitespace()) => StopReq { token: None },
        _ => body(raw)?,
    };
    let slot = find(&app, &id).await?;
    let mut live = slot.live.lock().await;
    let holder = &live.row.creator_token;
    let right = match &req.token {
        Some(t) => !holder.is_empty() && t == holder,
        None => false,
    };
    if !right {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            if holder.is_empty() {
                "only an AI-against-AI game created with a creator token can be stopped".into()
            } else {
                "this token is not the creator's token of this game".to_string()
            },
        ));
    }
    if live.game.result().is_some() {
        return Err(ApiError::conflict("the game is over"));
    }
    let mut next = live.clone();
    next.row.clock.stop(live.to_move(), now_ms());
    next.game.agree_draw();
    next.row.ending = Some("stopped".into());
    next.row.draw_offer = None;
    next.row.version += 1;
    next.row.updated_ms = now_ms();
    next.row.finished = true;
    app.store
        .commit(&next.row, Change::Row)
        .await
        .map_err(|e| {
            ApiError::internal(format!("storing the change failed, nothing changed: {e}"))
        })?;
    // A search under way finds the game over and plays nothing.
    next.ai_thinking = live.ai_thinking;
    *live = next;
    let view = live.view(None);
    let _ = slot.updates.send(Arc::new(view.to_string()));
    Ok(Json(view))
}

async fn list_games(State(app): State<Arc<App>>) -> Answer {
    let ids = app
        .store
        .game_ids(false, 100)
        .await
        .map_err(|e| ApiError::internal(format!("reading games failed: {e}")))?;
    let mut out = vec![];
    for id in ids {
        if let Ok(Some(slot)) = app.slot(&id).await {
            let live = slot.live.lock().await;
            let v = live.view(None);
            out.push(json!({
                "id": id,
                "variant": live.row.variant,
                "name": v["name"],
                "players": v["players"],
                "to_move": v["to_move"],
                "turns": live.turns.iter().filter(|t| !t.1.is_empty()).count(),
                "result": v["result"],
                "updated_ms": live.row.updated_ms,
            }));
        }
    }
    Ok(Json(out.into()))
}

pub(crate) async fn find(app: &App, id: &str) -> Result<Arc<Slot>, ApiError> {
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ApiError(StatusCode::NOT_FOUND, format!("no game '{id}'")));
    }
    match app.slot(id).await {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(ApiError(StatusCode::NOT_FOUND, format!("no game '{id}'"))),
        Err(e) => Err(ApiError::internal(format!("game {id} cannot be read: {e}"))),
    }
}

#[derive(Deserialize)]
struct ViewQuery {
    token: Option<String>,
    /// Replay: the position after this many steps.
    at: Option<usize>,
}

async fn get_game(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ViewQuery>,
) -> Answer {
    let slot = find(&app, &id).await?;
    let live = slot.live.lock().await;
    if let Some(at) = q.at {
        let steps: Vec<String> = live.turns.iter().flat_map(|t| t.1.clone()).collect();
        if at > steps.len() {
            return Err(ApiError::bad(format!(
                "at: the game has {} steps",
                steps.len()
            )));
        }
        let mut row = live.row.clone();
        row.ending = None;
        let past = LiveGame::replay_in(live.variant().clone(), row, &steps[..at])
            .map_err(ApiError::internal)?;
        let mut v = past.view(None);
        v["replay"] = json!({"at": at, "steps": steps.len(), "step": if at > 0 { Value::from(steps[at - 1].clone()) } else { Value::Null }});
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
struct RecordQuery {
    /// `text` (default: docs/records.md) or `json`.
    format: Option<String>,
}

async fn record(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<RecordQuery>,
) -> Result<Response, ApiError> {
    let json = match q.format.as_deref() {
        None | Some("text") => false,
        Some("json") => true,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "format: '{other}' is not a record format (text or json)"
            )))
        }
    };
    let slot = find(&app, &id).await?;
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    token: String,
    step: Option<String>,
    action: Option<String>,
}

enum Action {
    Step(String),
    Undo,
    Resign,
    Draw(String),
}

async fn step(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    let step = a
        .step
        .clone()
        .ok_or_else(|| ApiError::bad("missing field 'step'"))?;
    act(s, id, a, Action::Step(step)).await
}
async fn undo(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    act(s, id, a, Action::Undo).await
}
async fn resign(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    act(s, id, a, Action::Resign).await
}
async fn draw(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    let what = a
        .action
        .clone()
        .ok_or_else(|| ApiError::bad("missing field 'action' (offer, accept or decline)"))?;
    act(s, id, a, Action::Draw(what)).await
}

async fn act(State(app): State<Arc<App>>, id: String, a: Act, action: Action) -> Answer {
    let slot = find(&app, &id).await?;
    let view = {
        let mut live = slot.live.lock().await;
        let seat = live.seat_of(&a.token).ok_or_else(|| {
            ApiError(
                StatusCode::FORBIDDEN,
                "this token holds no seat in this game".into(),
            )
        })?;
        let before = live.row.version;
        if let Err(e) = apply(&app, &mut live, seat, action).await {
            if live.row.version != before {
                // The flag had fallen: the game ended on time before the action.
                rate_if_finished(&app, &mut live).await;
                let _ = slot.updates.send(Arc::new(live.view(None).to_string()));
            }
            return Err(e);
        }
        rate_if_finished(&app, &mut live).await;
        // One view serves the watchers (no seat) and, with the seat, the answer.
        let mut view = live.view(None);
        if slot.updates.receiver_count() > 0 {
            let _ = slot.updates.send(Arc::new(view.to_string()));
        }
        view["seat"] = side_name(seat).into();
        view
    };
    arm_clock(&app, &id, &slot).await;
    kick_ai(&app, &id, &slot).await;
    Ok(Json(view))
}

/// End the game on time if the side to move's flag has fallen; stored before it counts.
/// True if it ended now.
async fn settle_clock(app: &App, live: &mut LiveGame) -> Result<bool, ApiError> {
    let now = now_ms();
    if !live.flag_fallen(now) {
        return Ok(false);
    }
    let mut next = live.clone();
    next.end_on_time(now);
    next.row.version += 1;
    next.row.updated_ms = now;
    app.store
        .commit(&next.row, Change::Row)
        .await
        .map_err(|e| ApiError::internal(format!("storing the time forfeit failed: {e}")))?;
    next.ai_thinking = live.ai_thinking;
    *live = next;
    Ok(true)
}

/// A rated game between two accounts that has just ended: apply the rating change (once).
pub(crate) async fn rate_if_finished(app: &App, live: &mut LiveGame) {
    let row = &live.row;
    if !row.finished || !row.rated || row.rating_change.is_some() {
        return;
    }
    let (Some(w), Some(b)) = (row.white_user.clone(), row.black_user.clone()) else {
        return;
    };
    let score = match live.view_result_winner() {
        Some(Side::White) => 1.0,
        Some(Side::Black) => 0.0,
        None => 0.5,
    };
    match app
        .store
        .rate_game(&row.id, &row.variant, &w, &b, score)
        .await
    {
        Ok(change) => live.row.rating_change = Some(change),
        Err(e) => eprintln!("cohort serve: game {}: rating failed: {e}", row.id),
    }
}

/// Watch the clock of game `id`: when the side to move's flag falls, the game ends on time
/// (stored, shown to the watchers, rated), whether or not anyone sends a request. Called after
/// every change; the timer it replaces is cancelled.
pub(crate) async fn arm_clock(app: &Arc<App>, id: &str, slot: &Arc<Slot>) {
    let deadline = {
        let live = slot.live.lock().await;
        if live.game.result().is_some() {
            None
        } else {
            live.row.clock.deadline(live.to_move())
        }
    };
    let mut timer = slot.timer.lock().unwrap();
    if let Some(old) = timer.take() {
        old.abort();
    }
    let Some(mut deadline) = deadline else {
        return;
    };
    let (app, slot2, id) = (app.clone(), slot.clone(), id.to_string());
    let task = tokio::spawn(async move {
        loop {
            let wait = (deadline - now_ms()).max(0) as u64;
            tokio::time::sleep(Duration::from_millis(wait)).await;
            let mut live = slot2.live.lock().await;
            if live.game.result().is_some() {
                return;
            }
            match settle_clock(&app, &mut live).await {
                Ok(true) => {
                    rate_if_finished(&app, &mut live).await;
                    let _ = slot2.updates.send(Arc::new(live.view(None).to_string()));
                    return;
                }
                Ok(false) => match live.row.clock.deadline(live.to_move()) {
                    // The clock moved on (a turn ended): wait for the new deadline.
                    Some(d) => deadline = d,
                    None => return,
                },
                Err(ApiError(_, e)) => {
                    eprintln!("cohort serve: game {id}: {e}; trying again in a second");
                    deadline = now_ms() + 1000;
                }
            }
        }
    });
    *timer = Some(task.abort_handle());
}

/// Carry out `action` for `seat` on a copy of the game, store it, then keep the copy.
async fn apply(app: &App, live: &mut LiveGame, seat: Side, action: Action) -> Result<(), ApiError> {
    if live.game.result().is_some() {
        return Err(ApiError::conflict("the game is over"));
    }
    // The clock first: a flag that has fallen ends the game before anything is played.
    if settle_clock(app, live).await? {
        let loser = live.to_move();
        return Err(ApiError::conflict(format!(
            "the game is over: {}'s time ran out",
            loser.name()
        )));
    }
    let mut next = live.clone();
    let mover = live.to_move();
    let mut text = String::new();
    let change = match action {
        Action::Step(step) => {
            if seat != mover {
                return Err(ApiError::conflict(format!(
                    "it is {}'s turn, not {}'s",
                    mover.name(),
                    seat.name()
                )));
            }
            if step.len() > 32 {
                return Err(ApiError::bad("step: too long to be a step"));
            }
            text = next
                .play(&step)
                .map_err(|e| ApiError::bad(format!("step '{step}': {e}")))?;
            // Playing on instead of answering declines the opponent's draw offer.
            if next.to_move() != mover
                && next.row.draw_offer.as_deref() == Some(side_name(mover.other()))
            {
                next.row.draw_offer = None;
            }
            Change::Step {
                ply: next.game.steps().len() as i64 - 1,
                text: "",
            }
        }
        Action::Undo => {
            if seat != mover {
                return Err(ApiError::conflict(format!("it is {}'s turn", mover.name())));
            }
            if !next.undo() {
                return Err(ApiError::conflict("no step of this turn to take back"));
            }
            Change::Unstep {
                ply: live.game.steps().len() as i64 - 1,
            }
        }
        Action::Resign => {
            next.game.resign(seat);
            next.row.ending = Some(format!("resign {}", side_name(seat)));
            Change::Row
        }
        Action::Draw(what) => {
            let offer = next.row.draw_offer.clone();
            let other = side_name(seat.other());
            match what.as_str() {
                "offer" => {
                    if next.seat_kind(seat.other()) == "ai" {
                        return Err(ApiError::conflict(
                            "the AI does not take draw offers; play on or resign",
                        ));
                    }
                    if offer.is_some() {
                        return Err(ApiError::conflict("a draw offer is already standing"));
                    }
                    next.row.draw_offer = Some(side_name(seat).into());
                }
                "accept" => {
                    if offer.as_deref() != Some(other) {
                        return Err(ApiError::conflict("there is no draw offer to accept"));
                    }
                    next.game.agree_draw();
                    next.row.ending = Some("agreement".into());
                    next.row.draw_offer = None;
                }
                "decline" => {
                    if offer.as_deref() != Some(other) {
                        return Err(ApiError::conflict("there is no draw offer to decline"));
                    }
                    next.row.draw_offer = None;
                }
                _ => {
                    return Err(ApiError::bad(format!(
                        "action: '{what}' is not offer, accept or decline"
                    )))
                }
            }
            Change::Row
        }
    };
    let change = match change {
        Change::Step { ply, .. } => Change::Step { ply, text: &text },
        other => other,
    };
    let now = now_ms();
    next.row.version += 1;
    next.row.updated_ms = now;
    next.row.finished = next.game.result().is_some();
    // The clock switches only when a turn ends, and stops when the game does.
    if next.row.finished {
        next.row.clock.stop(mover, now);
    } else if next.to_move() != mover {
        next.row.clock.switch(mover, now);
    }
    app.store.commit(&next.row, change).await.map_err(|e| {
        ApiError::internal(format!("storing the change failed, nothing changed: {e}"))
    })?;
    *live = next;
    Ok(())
}

/// If the side to move is the AI's, search in the background and play its turn step by step
/// through the same path as a person's steps.
pub async fn kick_ai(app: &Arc<App>, id: &str, slot: &Arc<Slot>) {
    let (game, agent, time_ms, side, ticket) = {
        let mut live = slot.live.lock().await;
        if !live.wants_ai() || live.ai_thinking {
            return;
        }
        live.ai_thinking = true;
        let _ = slot.updates.send(Arc::new(live.view(None).to_string()));
        let class = if live.row.white == "ai" && live.row.black == "ai" {
            Class::Bulk
        } else {
            Class::Human
        };
        (
            live.game.clone(),
            live.row.ai_agent.clone(),
            // Games stored before the limit was lowered search no longer than it; on a live
            // clock, at most a tenth of what the AI has left (its thinking counts on it).
            ai_time(&live, app.config.ai_max_time_ms),
            live.to_move(),
            // Queued now, in the order the turns came.
            app.scheduler.request(id, class),
        )
    };
    let app = app.clone();
    let slot = slot.clone();
    let id = id.to_string();
    tokio::spawn(async move {
        let permit = ticket.granted().await;
        let seed = cohort_engine::Rng::new(game.steps().len() as u64 + 1).below(1 << 30) as u64;
        let choice = tokio::task::spawn_blocking(move || {
            let variant = game.position().variant().clone();
            let mut agent = cohort_engine::agent(&agent, &variant)?;
            let limits = Limits {
                time: Some(Duration::from_millis(time_ms)),
                nodes: None,
                seed,
                threads: 1,
            };
            Some(agent.choose_turn(&game, &limits))
        })
        .await;
        drop(permit);
        let mut live = slot.live.lock().await;
        live.ai_thinking = false;
        // A search that failed (a panic) is not tried again and again: the game waits.
        let failed = choice.is_err();
        match choice {
            Ok(Some(choice)) => {
                for step in choice.steps {
                    // The game may have changed meanwhile (a resignation): then stop.
                    if live.game.result().is_some() || live.to_move() != side {
                        break;
                    }
                    // Written in the position it is played in (capture marks depend on it).
                    let text = live.game.position().step_text(step);
                    if let Err(ApiError(_, e)) =
                        apply(&app, &mut live, side, Action::Step(text)).await
                    {
                        eprintln!("cohort serve: game {id}: the AI's step was refused: {e}");
                        break;
                    }
                    let _ = slot.updates.send(Arc::new(live.view(None).to_string()));
                }
            }
            Ok(None) => eprintln!("cohort serve: game {id}: unknown agent"),
            Err(e) => eprintln!("cohort serve: game {id}: the AI failed: {e}"),
        }
        let _ = slot.updates.send(Arc::new(live.view(None).to_string()));
        drop(live);
        arm_clock(&app, &id, &slot).await;
        // Both seats may be the AI's: then the next turn is its too.
        if !failed {
            kick_ai_later(app, id, slot);
        }
    });
}

/// The AI's time for its turn: its setting, the server's cap, and its clock.
fn ai_time(live: &LiveGame, cap: u64) -> u64 {
    let mut t = (live.row.ai_time_ms as u64).min(cap);
    let c = &live.row.clock;
    if let TimeControl::Live { .. } = c.control {
        let side = live.to_move();
        let left = c.left(side, side, now_ms()).max(0) as u64;
        t = t.min((left / 10).max(50));
    }
    t
}

/// `kick_ai` from a new task (a plain function: the AI's task cannot contain itself).
fn kick_ai_later(app: Arc<App>, id: String, slot: Arc<Slot>) {
    tokio::spawn(async move { kick_ai(&app, &id, &slot).await });
}

async fn ws(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = find(&app, &id).await?;
    let upgrade = upgrade.map_err(|e| {
        ApiError(
            e.status(),
            format!("not a WebSocket request: {}", e.body_text()),
        )
    })?;
    Ok(upgrade.on_upgrade(move |socket| watch(socket, slot)))
}

/// Send the game's view now and after every change until the watcher goes away.
async fn watch(socket: WebSocket, slot: Arc<Slot>) {
    let (mut tx, mut rx) = socket.split();
    let mut updates = slot.updates.subscribe();
    let first = slot.live.lock().await.view(None).to_string();
    if tx.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text = match update {
                    Ok(t) => t.to_string(),
                    // Fell behind: the newest view says everything.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        slot.live.lock().await.view(None).to_string()
                    }
                    Err(_) => return,
                };
                if tx.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            }
        }
    }
}
