//! The tournaments' API (docs/server.md, "Tournaments"): create, list, read, join,
//! withdraw, start, and a WebSocket that sends the tournament at every change. The
//! director (director.rs) runs them; this module only records what players ask.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::{current_user, Conn};
use crate::api::create::ClockSpec;
use crate::clock::TimeControl;
use crate::director::announce;
use crate::error::{body_with, Answer, ApiError, ApiPath, Code};
use crate::lobby::rating_in;
use crate::sockets::{self, Sock};
use crate::store::now_ms;
use crate::tournament_store::{Tournament, TournamentRow, KINDS};
use crate::tournament_view::{playing, public, summary};
use crate::{token, App};

/// Tournaments one account may have created and not yet finished.
pub const MOST_OPEN_PER_CREATOR: i64 = 3;
/// Players in one tournament.
pub const MOST_PLAYERS: i64 = 500;
/// A Swiss's rounds.
pub const ROUNDS: std::ops::RangeInclusive<i64> = 1..=15;
/// An Arena's minutes.
pub const ARENA_MINUTES: std::ops::RangeInclusive<i64> = 1..=720;
/// How far ahead a start may be set, in minutes (30 days).
pub const MOST_AHEAD_MINUTES: f64 = 30.0 * 24.0 * 60.0;
/// Finished tournaments the list shows.
const FINISHED_LISTED: i64 = 20;
/// Longest name.
const MAX_NAME: usize = 60;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTournament {
    name: String,
    kind: String,
    variant: String,
    /// An uploaded variant's file, which defines `variant`.
    variant_text: Option<String>,
    clock: ClockSpec,
    rated: Option<bool>,
    rounds: Option<i64>,
    minutes: Option<i64>,
    starts_in_minutes: Option<f64>,
    /// What a Swiss's bye scores: 1, 0.5 or 0 (default 1).
    bye: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(read))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/withdraw", post(withdraw))
        .route("/api/tournaments/{id}/start", post(start))
        .route("/api/tournaments/{id}/socket", get(watch))
        .route("/api/games/{id}/tournament", get(of_game))
        .method_not_allowed_fallback(crate::error::wrong_method)
        .layer(axum::extract::DefaultBodyLimit::max(
            crate::custom::MAX_BODY,
        ))
        .with_state(app)
}

fn stored(e: sqlx::Error) -> ApiError {
    ApiError::internal(format!(
        "the tournaments' storage failed, nothing changed: {e}"
    ))
}

async fn account(app: &App, headers: &HeaderMap, what: &str) -> Result<(String, String), ApiError> {
    current_user(app, headers).await.ok_or_else(|| {
        ApiError::new(
            Code::LoginRequired,
            format!("{what}: tournaments are played by accounts; log in first"),
        )
    })
}

/// `POST /api/tournaments`: a new tournament, its creator not yet a player.
async fn create(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: NewTournament = body_with(raw, crate::custom::MAX_BODY)?;
    let (user, _) = account(&app, &headers, "creating a tournament").await?;
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::invalid(format!(
            "name: 1 to {MAX_NAME} characters, without control characters"
        )));
    }
    if !KINDS.contains(&req.kind.as_str()) {
        return Err(ApiError::invalid(format!(
            "kind: '{}' is not a kind of tournament (swiss or arena)",
            req.kind
        )));
    }
    let swiss = req.kind == "swiss";
    let variant = match &req.variant_text {
        Some(text) => crate::custom::pick(&crate::custom::load(text)?, &req.variant)?,
        None => cohort_rules::builtin(&req.variant).ok_or_else(|| {
            ApiError::new(
                Code::UnknownVariant,
                format!(
                    "variant: unknown variant '{}' (GET /api/variants lists them)",
                    req.variant
                ),
            )
        })?,
    };
    let control = req.clock.control("clock")?;
    match control {
        TimeControl::None => {
            return Err(ApiError::invalid(
                "clock: a tournament's games need a clock (minutes and increment, or days per turn for a Swiss)",
            ))
        }
        TimeControl::Correspondence { .. } if !swiss => {
            return Err(ApiError::invalid(
                "clock: an Arena is played live (minutes and increment), not in days per turn",
            ))
        }
        _ => {}
    }
    let rated = req.rated.unwrap_or(false);
    if rated && req.variant_text.is_some() {
        return Err(ApiError::invalid(
            "rated: games of an uploaded variant are not rated",
        ));
    }
    let (rounds, minutes) = if swiss {
        let r = req
            .rounds
            .ok_or_else(|| ApiError::invalid("rounds: a Swiss needs its number of rounds"))?;
        if !ROUNDS.contains(&r) {
            return Err(ApiError::invalid(format!(
                "rounds: {r} is not from {} to {}",
                ROUNDS.start(),
                ROUNDS.end()
            )));
        }
        (r, 0)
    } else {
        let m = req
            .minutes
            .ok_or_else(|| ApiError::invalid("minutes: an Arena needs its duration in minutes"))?;
        if !ARENA_MINUTES.contains(&m) {
            return Err(ApiError::invalid(format!(
                "minutes: {m} is not from {} to {}",
                ARENA_MINUTES.start(),
                ARENA_MINUTES.end()
            )));
        }
        (0, m)
    };
    let bye_points = match req.bye {
        None => 2,
        Some(1.0) => 2,
        Some(0.5) => 1,
        Some(0.0) => 0,
        Some(b) => {
            return Err(ApiError::invalid(format!(
                "bye: {b} is not what a bye may score (1, 0.5 or 0)"
            )))
        }
    };
    let now = now_ms();
    let starts_ms = match req.starts_in_minutes {
        None => None,
        Some(m) if m.is_finite() && (0.0..=MOST_AHEAD_MINUTES).contains(&m) => {
            Some(now + (m * 60_000.0) as i64)
        }
        Some(m) => {
            return Err(ApiError::invalid(format!(
                "starts_in_minutes: {m} is not from 0 to {MOST_AHEAD_MINUTES} (30 days)"
            )))
        }
    };
    let row = TournamentRow {
        id: token()[..10].to_string(),
        name: name.to_string(),
        kind: req.kind.clone(),
        variant: variant.id.clone(),
        variant_name: variant.name.clone(),
        variant_text: req.variant_text.clone().unwrap_or_default(),
        control,
        rated,
        rounds,
        minutes,
        bye_points,
        starts_ms,
        ends_ms: None,
        status: "created".into(),
        round: 0,
        creator: user.clone(),
        created_ms: now,
        version: 1,
        note: String::new(),
    };
    if !app
        .store
        .add_tournament(&row, MOST_OPEN_PER_CREATOR)
        .await
        .map_err(stored)?
    {
        return Err(ApiError::new(
            Code::LimitReached,
            format!(
                "an account may have at most {MOST_OPEN_PER_CREATOR} tournaments not finished; wait for one to end"
            ),
        ));
    }
    announce(&app, &row.id);
    app.tournaments.poke();
    answer(&app, &row.id, Some(&user)).await
}

/// `GET /api/tournaments`: those not finished, the soonest first, then the last finished.
async fn list(State(app): State<Arc<App>>) -> Answer {
    let rows = app
        .store
        .tournament_rows(FINISHED_LISTED)
        .await
        .map_err(stored)?;
    let list: Vec<Value> = rows.iter().map(|(r, n)| summary(r, *n)).collect();
    Ok(Json(json!({ "tournaments": list, "now_ms": now_ms() })))
}

/// The tournament's public view, built once per version for every reader.
async fn view_of(app: &App, id: &str) -> Result<Arc<(Tournament, Value)>, ApiError> {
    let none = || ApiError::not_found(format!("no tournament '{id}'"));
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(none());
    }
    let row = app
        .store
        .tournament_row(id)
        .await
        .map_err(stored)?
        .ok_or_else(none)?;
    if let Some((version, v)) = app.tournaments.views.lock().unwrap().get(id) {
        if *version == row.version {
            return Ok(v.clone());
        }
    }
    let t = app
        .store
        .tournament(id)
        .await
        .map_err(stored)?
        .ok_or_else(none)?;
    let version = t.row.version;
    let v = public(&t);
    let built = Arc::new((t, v));
    let mut views = app.tournaments.views.lock().unwrap();
    // Views of finished tournaments nobody reads would pile up: keep a bounded number.
    if views.len() > 256 {
        views.clear();
    }
    views.insert(id.to_string(), (version, built.clone()));
    Ok(built)
}

/// The caller's part: joined, withdrawn, creator, and the seat link of its game under way.
async fn me(app: &App, t: &Tournament, user: Option<&str>) -> Value {
    let Some(user) = user else { return Value::Null };
    let mine = t.players.iter().find(|p| p.user_id == user);
    let mut game = Value::Null;
    if let Some(p) = mine {
        if let Some(g) = playing(t, p.entrant).and_then(|g| g.game_id.clone()) {
            if let Ok(Some(slot)) = app.slot(&g).await {
                let live = slot.live.lock().await;
                let tok = if live.row.white_user.as_deref() == Some(user) {
                    &live.row.white_token
                } else {
                    &live.row.black_token
                };
                game = json!({"id": g, "link": format!("/game/{g}?token={tok}")});
            }
        }
    }
    json!({
        "username": user,
        "joined": mine.is_some(),
        "withdrawn": mine.is_some_and(|p| p.withdrawn),
        "creator": t.row.creator == user,
        "game": game,
    })
}

async fn answer(app: &App, id: &str, user: Option<&str>) -> Answer {
    let built = view_of(app, id).await?;
    let mut v = built.1.clone();
    v["me"] = me(app, &built.0, user).await;
    v["now_ms"] = now_ms().into();
    Ok(Json(v))
}

async fn read(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Answer {
    let user = current_user(&app, &headers).await.map(|u| u.0);
    answer(&app, &id, user.as_deref()).await
}

fn closed(why: &str) -> ApiError {
    ApiError::new(Code::TournamentClosed, why.to_string())
}

/// What join and withdraw first ask: an empty body, a session, a tournament not finished.
async fn asked_of_open(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    raw: Result<Bytes, BytesRejection>,
    what: &str,
) -> Result<(String, crate::director::BuiltView), ApiError> {
    let _: Empty = body_with(raw, 1024)?;
    let (user, _) = account(app, headers, what).await?;
    let t = view_of(app, id).await?;
    if t.0.row.status == "finished" {
        return Err(closed("the tournament is over"));
    }
    Ok((user, t))
}

/// `POST /api/tournaments/<id>/join`: play in it (again, after withdrawing), from the next
/// pairing on.
async fn join(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let (user, t) = asked_of_open(&app, &id, &headers, raw, "joining").await?;
    let rating = rating_in(&app, Some(&user), &t.0.row.variant).await?;
    match app
        .store
        .join_tournament(&id, &user, rating, now_ms(), MOST_PLAYERS)
        .await
        .map_err(stored)?
    {
        Ok(()) => {}
        Err(why) if why.contains("full") => {
            return Err(ApiError::new(
                Code::LimitReached,
                format!("{why}: at most {MOST_PLAYERS} players"),
            ))
        }
        Err(why) => return Err(closed(why)),
    }
    announce(&app, &id);
    app.tournaments.poke();
    answer(&app, &id, Some(&user)).await
}

/// `POST /api/tournaments/<id>/withdraw`: not paired again (before the start: off the list).
/// A game under way goes on.
async fn withdraw(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let (user, t) = asked_of_open(&app, &id, &headers, raw, "withdrawing").await?;
    let started = t.0.row.status != "created";
    if !app
        .store
        .withdraw_from_tournament(&id, &user, started)
        .await
        .map_err(stored)?
    {
        return Err(ApiError::new(
            Code::Forbidden,
            "you are not playing in this tournament",
        ));
    }
    announce(&app, &id);
    answer(&app, &id, Some(&user)).await
}

/// `POST /api/tournaments/<id>/start`: its creator starts it now.
async fn start(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let _: Empty = body_with(raw, 1024)?;
    let (user, _) = account(&app, &headers, "starting").await?;
    let t = view_of(&app, &id).await?;
    if t.0.row.creator != user {
        return Err(ApiError::new(
            Code::Forbidden,
            "only the tournament's creator starts it",
        ));
    }
    let active = t.0.players.iter().filter(|p| !p.withdrawn).count();
    if t.0.row.status == "created" && t.0.row.kind == "swiss" && active < 2 {
        return Err(ApiError::invalid(
            "start: a Swiss needs at least two players",
        ));
    }
    if !app
        .store
        .start_tournament_now(&id, now_ms())
        .await
        .map_err(stored)?
    {
        return Err(closed("the tournament has started already"));
    }
    announce(&app, &id);
    // The first round is paired here and now, so the answer shows it (the director's own
    // pass would find it paired: a round is stored once).
    if let Err(e) = crate::director::direct(&app, &id).await {
        eprintln!("cohort serve: tournament {id}: {e}");
    }
    answer(&app, &id, Some(&user)).await
}

/// `GET /api/games/<id>/tournament`: the tournament game `id` is played in (`{"tournament":
/// {"id", "name", "kind", "round", "status"}}`), or `{"tournament": null}`.
async fn of_game(State(app): State<Arc<App>>, ApiPath(id): ApiPath<String>) -> Answer {
    app.find(&id).await?;
    let Some(tid) = app.store.tournament_of_game(&id).await.map_err(stored)? else {
        return Ok(Json(json!({ "tournament": null })));
    };
    let built = view_of(&app, &tid).await?;
    let t = &built.0;
    let round = t
        .pairings
        .iter()
        .find(|p| p.game_id.as_deref() == Some(id.as_str()))
        .map_or(0, |p| p.round);
    Ok(Json(json!({"tournament": {
        "id": t.row.id,
        "name": t.row.name,
        "kind": t.row.kind,
        "round": round,
        "status": t.row.status,
    }})))
}

/// `GET /api/tournaments/<id>/socket`: the tournament (as `GET` answers it, `me` included)
/// on connecting and after every change.
async fn watch(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    Conn(conn): Conn,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    view_of(&app, &id).await?;
    let user = current_user(&app, &headers).await.map(|u| u.0);
    let admitted = sockets::admit(&app, upgrade, &headers, conn, None)?;
    Ok(admitted.on_upgrade(move |socket| follow(socket, app, id, user)))
}

async fn follow(mut socket: Sock, app: Arc<App>, id: String, user: Option<String>) {
    let mut changes = app.tournaments.follow();
    loop {
        let Ok(Json(v)) = answer(&app, &id, user.as_deref()).await else {
            return;
        };
        if !socket.send(v.to_string()).await {
            return;
        }
        // Wait for a change of this tournament; a burst of changes sends one view.
        loop {
            match socket.until(changes.recv()).await {
                Some(Ok(changed)) if changed == id => break,
                Some(Ok(_)) => {}
                Some(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => break,
                _ => return,
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        while changes.try_recv().is_ok() {}
    }
}
