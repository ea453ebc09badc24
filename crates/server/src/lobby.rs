//! The lobby (docs/server.md, "Lobby"): open challenges (variant, time control, colour, rated
//! or not) that anyone may accept; accepting one starts the game for both. Challenges are
//! stored (challenges.rs), so every instance shows the same ones and a restart keeps them: a
//! live-clock challenge is withdrawn when its creator's page stops asking about it (30 s), a
//! correspondence one after a week. The lobby page follows the list over a WebSocket
//! (`/api/challenges/watch`), sent again at every change on any instance.

use cohort_rules::Rules;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Utf8Bytes, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use cohort_rules::builtin;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::{address, current_user, Conn};
use crate::api::create::{launch, ClockSpec};
use crate::challenges::{Caps, Challenge, Refused};
use crate::clock::{Clock, TimeControl};
use crate::error::{body, Answer, ApiError, ApiPath, ApiQuery, Code, MAX_BODY};
use crate::sockets::{self, Sock};
use crate::store::{now_ms, GameRow};
use crate::token;
use crate::App;

/// Open challenges on the server at once, and per creator (account or address).
pub const MAX_OPEN: usize = 200;
pub const MAX_OPEN_EACH: usize = 3;
/// Open challenges from one address, all its accounts (and visitors) together.
pub const MAX_OPEN_PER_ADDRESS: usize = 3;

pub(crate) fn summary(c: &Challenge) -> Value {
    let name = builtin(&c.variant).map(|v| v.name.clone());
    json!({
        "id": c.id,
        "variant": c.variant,
        "name": name,
        "time_control": c.control.describe(),
        "clock_kind": c.control.kind(),
        "colour": c.colour,
        "rated": c.rated,
        "by": c.by.as_ref().map(|b| b.1.clone()),
        "created_ms": c.created_ms,
        "rating_range": c.rating_bounds().map(|(lo, hi)| json!([lo, hi])),
    })
}

/// What this instance knows of the lobby: a signal to its watchers that the list changed
/// (here, or on another instance: PostgreSQL's `LOBBY_CHANNEL`, lib.rs), and the list as the
/// watchers are sent it, built once per change for all of them ([`keep_list`]).
pub struct Lobby {
    pub(crate) changed: tokio::sync::broadcast::Sender<()>,
    /// The open list's JSON text; None while it is being built anew (no watcher yet, or a
    /// change with none).
    list: tokio::sync::watch::Sender<Option<Utf8Bytes>>,
    /// Told when a watcher arrives (the list is built if it is stale).
    wanted: Arc<tokio::sync::Notify>,
    /// How many times the list was built from storage (`App::lobby_builds`).
    pub(crate) builds: std::sync::atomic::AtomicU64,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            changed: tokio::sync::broadcast::channel(16).0,
            list: tokio::sync::watch::channel(None).0,
            wanted: Default::default(),
            builds: 0.into(),
        }
    }
}

/// How often the list is built again with no change (stale challenges drop out of it).
const REBUILD: std::time::Duration = std::time::Duration::from_secs(10);

/// Keep the lobby's list for its watchers: after a change (debounced: at most one build per
/// `Config::lobby_debounce`, whatever the number of changes), every 10 s while anyone
/// watches, and when a watcher arrives while the list is stale, build it once from storage
/// and hand it to every watcher. Until the app is gone.
pub(crate) async fn keep_list(app: std::sync::Weak<App>) {
    use tokio::sync::broadcast::error::{RecvError, TryRecvError};
    let Some(strong) = app.upgrade() else { return };
    let mut changed = strong.lobby.changed.subscribe();
    let debounce = strong.config.lobby_debounce;
    let wanted_now = strong.lobby.wanted.clone();
    drop(strong);
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + REBUILD, REBUILD);
    let mut stale = true;
    loop {
        let Some(app) = app.upgrade() else { return };
        let lobby = &app.lobby;
        let watched = lobby.list.receiver_count() > 0;
        if stale && watched {
            // A failed build leaves the list stale: the next tick tries again.
            if let Ok(list) = open_list(&app).await {
                let text: Utf8Bytes = list.to_string().into();
                stale = false;
                lobby.list.send_if_modified(|old| {
                    let new = old.as_ref().is_none_or(|o| o.as_str() != text.as_str());
                    if new {
                        *old = Some(text);
                    }
                    new
                });
            }
        } else if stale {
            // Nobody to send it to: no build, and no stale list for the next watcher.
            lobby.list.send_replace(None);
        }
        let wanted = wanted_now.notified();
        tokio::pin!(wanted);
        drop(app);
        tokio::select! {
            heard = changed.recv() => {
                if let Err(RecvError::Closed) = heard {
                    return;
                }
                stale = true;
                tokio::time::sleep(debounce).await;
                loop {
                    match changed.try_recv() {
                        Ok(()) | Err(TryRecvError::Lagged(_)) => {}
                        Err(TryRecvError::Closed) => return,
                        Err(TryRecvError::Empty) => break,
                    }
                }
            }
            _ = tick.tick() => stale = true,
            _ = &mut wanted => {}
        }
    }
}

fn stored(e: sqlx::Error) -> ApiError {
    ApiError::internal(format!("the lobby's storage failed, nothing changed: {e}"))
}

/// The stored challenge `id`, or 404.
async fn find(app: &App, id: &str) -> Result<Challenge, ApiError> {
    app.store
        .challenge(id)
        .await
        .map_err(stored)?
        .ok_or_else(|| ApiError::not_found(format!("no challenge '{id}'")))
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/challenges", get(list).post(create))
        .route("/api/challenges/watch", get(watch))
        .route("/api/challenges/{id}", get(status))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/cancel", post(cancel))
        .method_not_allowed_fallback(crate::error::wrong_method)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

async fn open_list(app: &App) -> Result<Value, ApiError> {
    app.lobby
        .builds
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let open = app.store.open_challenges(now_ms()).await.map_err(stored)?;
    Ok(open.iter().map(summary).collect::<Vec<_>>().into())
}

async fn list(State(app): State<Arc<App>>) -> Answer {
    Ok(Json(open_list(&app).await?))
}

/// The open challenges over a WebSocket: sent on connecting, and after every change of the
/// lobby (the one list built for all watchers, [`keep_list`]).
async fn watch(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let admitted = sockets::admit(&app, upgrade, &headers, conn, None)?;
    Ok(admitted.on_upgrade(move |socket| follow(socket, app)))
}

async fn follow(mut socket: Sock, app: Arc<App>) {
    let mut list = app.lobby.list.subscribe();
    app.lobby.wanted.notify_one();
    loop {
        let now = list.borrow_and_update().clone();
        if let Some(text) = now {
            if !socket.send(text).await {
                return;
            }
        }
        match socket.until(list.changed()).await {
            Some(Ok(())) => {}
            _ => return,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewChallenge {
    pub variant: String,
    pub clock: Option<ClockSpec>,
    pub colour: Option<String>,
    pub rated: Option<bool>,
}

async fn create(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: NewChallenge = body(raw)?;
    let colour = req.colour.clone().unwrap_or_else(|| "random".into());
    let c = challenge_for(&app, conn, &headers, &req, colour).await?;
    post_challenge(&app, &c).await?;
    let mut answer = summary(&c);
    answer["token"] = c.secret.clone().into();
    Ok(Json(answer))
}

/// A new challenge as `req` asks (checked: a known variant, a clock the server allows, a
/// colour, rated only between accounts and with a clock), by the caller of `headers`.
pub(crate) async fn challenge_for(
    app: &App,
    conn: Option<std::net::SocketAddr>,
    headers: &HeaderMap,
    req: &NewChallenge,
    colour: String,
) -> Result<Challenge, ApiError> {
    let variant = builtin(&req.variant).ok_or_else(|| {
        ApiError::new(
            Code::UnknownVariant,
            format!(
                "variant: unknown variant '{}' (GET /api/variants lists them)",
                req.variant
            ),
        )
    })?;
    let control = req.clock.clone().unwrap_or_default().control("clock")?;
    if !matches!(colour.as_str(), "white" | "black" | "random") {
        return Err(ApiError::invalid(format!(
            "colour: '{colour}' is not white, black or random"
        )));
    }
    let rated = req.rated.unwrap_or(false);
    let by = current_user(app, headers).await;
    if rated && by.is_none() {
        return Err(ApiError::new(
            Code::LoginRequired,
            "rated: only games between two accounts are rated; log in first",
        ));
    }
    // A rated game needs a clock: without one a game can be held open for ever, and a
    // rating farmed at no cost in time (docs/server.md, "Ratings").
    if rated && control == TimeControl::None {
        return Err(ApiError::invalid(
            "rated: a rated game needs a clock (minutes and increment, or days per turn)",
        ));
    }
    let here = format!("ip:{}", address(app, headers, conn));
    let owner = match &by {
        Some((id, _)) => id.clone(),
        None => here.clone(),
    };
    let now = now_ms();
    Ok(Challenge {
        id: token()[..10].to_string(),
        secret: token(),
        owner,
        address: here,
        by,
        variant: variant.id.clone(),
        control,
        colour,
        rated,
        created_ms: now,
        seen_ms: now,
        game: None,
        cancelled: false,
        rating: None,
        range: None,
    })
}

/// Store challenge `c` within the lobby's limits, and tell the lobby's watchers.
pub(crate) async fn post_challenge(app: &App, c: &Challenge) -> Result<(), ApiError> {
    match app
        .store
        .add_challenge(
            c,
            Caps {
                open: MAX_OPEN,
                each: MAX_OPEN_EACH,
                here: MAX_OPEN_PER_ADDRESS,
            },
        )
        .await
        .map_err(stored)?
    {
        Ok(()) => {}
        Err(Refused::Full) => {
            return Err(ApiError::new(
                Code::LimitReached,
                format!("the lobby holds at most {MAX_OPEN} open challenges; accept one instead"),
            ))
        }
        Err(Refused::TooMany) => {
            return Err(ApiError::new(
                Code::LimitReached,
                format!("at most {MAX_OPEN_EACH} open challenges each; cancel one first"),
            ))
        }
        Err(Refused::TooManyHere) => {
            return Err(ApiError::new(
                Code::LimitReached,
                format!("at most {MAX_OPEN_PER_ADDRESS} open challenges from one address, all its accounts together; cancel one first"),
            ))
        }
    }
    let _ = app.lobby.changed.send(());
    Ok(())
}

/// A player's rating in `variant`, rounded (an anonymous player or a new one: 1500, where
/// every rating starts).
pub(crate) async fn rating_in(
    app: &App,
    user: Option<&str>,
    variant: &str,
) -> Result<i64, ApiError> {
    let Some(user) = user else {
        return Ok(crate::glicko::Rating::default().rating.round() as i64);
    };
    let ratings = app
        .store
        .ratings_of(user)
        .await
        .map_err(|e| ApiError::internal(format!("reading ratings failed: {e}")))?;
    let r = ratings
        .into_iter()
        .find(|(v, _, _)| v == variant)
        .map(|(_, r, _)| r)
        .unwrap_or_default();
    Ok(r.rating.round() as i64)
}

#[derive(Deserialize)]
struct StatusQuery {
    token: Option<String>,
}

/// A challenge's state; with the creator's token also the creator's seat link once it is
/// accepted (asking keeps a live challenge open).
async fn status(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<StatusQuery>,
) -> Answer {
    let now = now_ms();
    let c = find(&app, &id).await?;
    let creator = q.token.as_deref() == Some(c.secret.as_str());
    if creator && c.open(now) {
        app.store.touch_challenge(&id, now).await.map_err(stored)?;
    }
    let state = if c.game.is_some() {
        "accepted"
    } else if c.open(now) {
        "open"
    } else {
        "withdrawn"
    };
    let mut v = summary(&c);
    v["state"] = state.into();
    v["game"] = c.game.as_ref().map(|g| g.0.clone()).into();
    if creator {
        v["link"] = c.game.as_ref().map(|g| g.1.clone()).into();
    }
    Ok(Json(v))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenBody {
    token: Option<String>,
}

async fn cancel(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: TokenBody = match &raw {
        Ok(b) if b.iter().all(|c| c.is_ascii_whitespace()) => TokenBody { token: None },
        _ => body(raw)?,
    };
    let now = now_ms();
    let c = find(&app, &id).await?;
    if req.token.as_deref() != Some(c.secret.as_str()) {
        return Err(ApiError::new(
            Code::Forbidden,
            "only the challenge's creator (its token) can cancel it",
        ));
    }
    if !app.store.cancel_challenge(&id, now).await.map_err(stored)? {
        return Err(ApiError::new(
            Code::ChallengeClosed,
            "the challenge is no longer open",
        ));
    }
    let _ = app.lobby.changed.send(());
    Ok(Json(json!({"id": id, "state": "withdrawn"})))
}

/// Accept a challenge: the game starts now for both (the clock runs from here); the answer
/// carries the acceptor's seat and link, the creator reads theirs from the challenge.
async fn accept(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    // An empty body, or a JSON object; a body that cannot be read (over the limit) is an
    // error, never ignored.
    match &raw {
        Ok(b) if b.iter().all(|c| c.is_ascii_whitespace()) => {}
        _ => {
            let _: serde_json::Map<String, Value> = body(raw)?;
        }
    }
    let me = current_user(&app, &headers).await;
    let now = now_ms();
    let c = find(&app, &id).await?;
    if !c.open(now) {
        return Err(ApiError::new(
            Code::ChallengeClosed,
            "the challenge is no longer open",
        ));
    }
    if let (Some(by), Some(me)) = (&c.by, &me) {
        if by.0 == me.0 {
            return Err(ApiError::new(
                Code::OwnChallenge,
                "this is your own challenge",
            ));
        }
    }
    if c.rated && me.is_none() {
        return Err(ApiError::new(
            Code::LoginRequired,
            "a rated challenge: log in to accept it",
        ));
    }
    if let Some((lo, hi)) = c.rating_bounds() {
        let mine = rating_in(&app, me.as_ref().map(|m| m.0.as_str()), &c.variant).await?;
        if !c.admits(mine) {
            return Err(ApiError::new(
                Code::RatingOutOfRange,
                format!(
                    "this challenge asks for an opponent rated {lo} to {hi}; you are rated {mine}"
                ),
            ));
        }
    }
    start_game(&app, &c, me, now).await.map(Json)
}

/// Start the game of open challenge `c`, accepted by `me` (None: anonymous), if this claim
/// is the one that wins it: the acceptor's seat and link (the creator reads theirs from the
/// challenge), or `challenge_closed` if another acceptor was first.
pub(crate) async fn start_game(
    app: &Arc<App>,
    c: &Challenge,
    me: Option<(String, String)>,
    now: i64,
) -> Result<Value, ApiError> {
    let creator_white = match c.colour.as_str() {
        "white" => true,
        "black" => false,
        _ => u8::from_str_radix(&token()[..2], 16)
            .unwrap_or(0)
            .is_multiple_of(2),
    };
    let (white_user, black_user) = if creator_white {
        (
            c.by.as_ref().map(|b| b.0.clone()),
            me.as_ref().map(|m| m.0.clone()),
        )
    } else {
        (
            me.as_ref().map(|m| m.0.clone()),
            c.by.as_ref().map(|b| b.0.clone()),
        )
    };
    let variant = builtin(&c.variant).ok_or_else(|| ApiError::internal("variant gone"))?;
    let game_id = token()[..12].to_string();
    let row = GameRow {
        id: game_id.clone(),
        variant: c.variant.clone(),
        start: variant.start().to_text(),
        white: "human".into(),
        black: "human".into(),
        ai_agent: "engine".into(),
        ai_time_ms: 1000,
        white_token: token(),
        black_token: token(),
        created_ms: now,
        updated_ms: now,
        version: 1,
        clock: Clock::waiting(c.control, now),
        white_user,
        black_user,
        rated: c.rated,
        ..GameRow::default()
    };
    let link = |tok: &str| format!("/game/{game_id}?token={tok}");
    let (mine, theirs, my_side) = if creator_white {
        (&row.black_token, &row.white_token, "black")
    } else {
        (&row.white_token, &row.black_token, "white")
    };
    // One challenge starts one game: of acceptors at once, on any instances, one claims it.
    if !app
        .store
        .claim_challenge(&c.id, now, &game_id, &link(theirs))
        .await
        .map_err(stored)?
    {
        return Err(ApiError::new(
            Code::ChallengeClosed,
            "the challenge is no longer open",
        ));
    }
    let _ = app.lobby.changed.send(());
    if let Err(e) = launch(app, &row, &[], variant.clone(), None).await {
        let _ = app.store.unclaim_challenge(&c.id).await;
        let _ = app.lobby.changed.send(());
        return Err(e);
    }
    Ok(json!({
        "game": game_id,
        "seat": my_side,
        "token": mine,
        "link": link(mine),
    }))
}
