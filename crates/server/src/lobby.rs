//! The lobby (docs/server.md, "Lobby"): open challenges (variant, time control, colour, rated
//! or not) that anyone may accept; accepting one starts the game for both. Challenges live in
//! memory: a live-clock challenge is withdrawn when its creator's page stops asking about it
//! (30 s), a correspondence one after a week; a restart clears them (games already started are
//! stored like every game).

use cohort_rules::Rules;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use cohort_rules::builtin;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::{address, current_user, Conn};
use crate::api::create::{launch, ClockSpec};
use crate::clock::{Clock, TimeControl};
use crate::error::{body, Answer, ApiError, ApiPath, ApiQuery, Code, MAX_BODY};
use crate::store::{now_ms, GameRow};
use crate::token;
use crate::App;

/// Open challenges on the server at once, and per creator (account or address).
pub const MAX_OPEN: usize = 200;
pub const MAX_OPEN_EACH: usize = 3;
/// A live challenge whose creator's page has not asked about it for this long is withdrawn.
const STALE_LIVE_MS: i64 = 30_000;
const STALE_CORR_MS: i64 = 7 * 86_400_000;

#[derive(Clone)]
struct Challenge {
    id: String,
    /// The creator's secret: it reads the challenge's state and the creator's seat link.
    secret: String,
    /// Account id or "ip:<address>": one creator's challenges are limited in number.
    owner: String,
    /// The creator's account (id, name), if logged in.
    by: Option<(String, String)>,
    variant: String,
    control: TimeControl,
    /// The creator's colour: "white", "black" or "random".
    colour: String,
    rated: bool,
    created_ms: i64,
    seen_ms: i64,
    /// Once accepted: the game and the creator's seat link.
    game: Option<(String, String)>,
    cancelled: bool,
}

impl Challenge {
    fn open(&self, now: i64) -> bool {
        let stale = match self.control {
            TimeControl::Correspondence { .. } => STALE_CORR_MS,
            _ => STALE_LIVE_MS,
        };
        self.game.is_none() && !self.cancelled && now - self.seen_ms < stale
    }

    fn summary(&self) -> Value {
        let name = builtin(&self.variant).map(|v| v.name.clone());
        json!({
            "id": self.id,
            "variant": self.variant,
            "name": name,
            "time_control": self.control.describe(),
            "clock_kind": self.control.kind(),
            "colour": self.colour,
            "rated": self.rated,
            "by": self.by.as_ref().map(|b| b.1.clone()),
            "created_ms": self.created_ms,
        })
    }
}

#[derive(Default)]
pub struct Lobby {
    challenges: std::sync::Mutex<Vec<Challenge>>,
    /// Held while a challenge is accepted: one challenge starts one game.
    accepting: tokio::sync::Mutex<()>,
}

impl Lobby {
    fn tidy(list: &mut Vec<Challenge>, now: i64) {
        // Accepted or withdrawn challenges are kept an hour, for their creators to read.
        list.retain(|c| c.open(now) || now - c.seen_ms < 3_600_000);
    }
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/challenges", get(list).post(create))
        .route("/api/challenges/{id}", get(status))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/cancel", post(cancel))
        .method_not_allowed_fallback(crate::error::wrong_method)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

async fn list(State(app): State<Arc<App>>) -> Answer {
    let now = now_ms();
    let mut list = app.lobby.challenges.lock().unwrap();
    Lobby::tidy(&mut list, now);
    let open: Vec<Value> = list
        .iter()
        .rev()
        .filter(|c| c.open(now))
        .map(Challenge::summary)
        .collect();
    Ok(Json(open.into()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewChallenge {
    variant: String,
    clock: Option<ClockSpec>,
    colour: Option<String>,
    rated: Option<bool>,
}

async fn create(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: NewChallenge = body(raw)?;
    let variant = builtin(&req.variant).ok_or_else(|| {
        ApiError::new(
            Code::UnknownVariant,
            format!(
                "variant: unknown variant '{}' (GET /api/variants lists them)",
                req.variant
            ),
        )
    })?;
    let control = req.clock.unwrap_or_default().control("clock")?;
    let colour = req.colour.unwrap_or_else(|| "random".into());
    if !matches!(colour.as_str(), "white" | "black" | "random") {
        return Err(ApiError::invalid(format!(
            "colour: '{colour}' is not white, black or random"
        )));
    }
    let rated = req.rated.unwrap_or(false);
    let by = current_user(&app, &headers).await;
    if rated && by.is_none() {
        return Err(ApiError::new(
            Code::LoginRequired,
            "rated: only games between two accounts are rated; log in first",
        ));
    }
    let owner = match &by {
        Some((id, _)) => id.clone(),
        None => format!("ip:{}", address(&app, &headers, conn)),
    };
    let now = now_ms();
    let c = Challenge {
        id: token()[..10].to_string(),
        secret: token(),
        owner,
        by,
        variant: variant.id.clone(),
        control,
        colour,
        rated,
        created_ms: now,
        seen_ms: now,
        game: None,
        cancelled: false,
    };
    let mut list = app.lobby.challenges.lock().unwrap();
    Lobby::tidy(&mut list, now);
    let open: Vec<&Challenge> = list.iter().filter(|x| x.open(now)).collect();
    if open.len() >= MAX_OPEN {
        return Err(ApiError::new(
            Code::LimitReached,
            format!("the lobby holds at most {MAX_OPEN} open challenges; accept one instead"),
        ));
    }
    if open.iter().filter(|x| x.owner == c.owner).count() >= MAX_OPEN_EACH {
        return Err(ApiError::new(
            Code::LimitReached,
            format!("at most {MAX_OPEN_EACH} open challenges each; cancel one first"),
        ));
    }
    let mut answer = c.summary();
    answer["token"] = c.secret.clone().into();
    list.push(c);
    Ok(Json(answer))
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
    let mut list = app.lobby.challenges.lock().unwrap();
    let c = list
        .iter_mut()
        .find(|c| c.id == id)
        .ok_or_else(|| ApiError::not_found(format!("no challenge '{id}'")))?;
    let creator = q.token.as_deref() == Some(c.secret.as_str());
    if creator && c.open(now) {
        c.seen_ms = now;
    }
    let state = if c.game.is_some() {
        "accepted"
    } else if c.open(now) {
        "open"
    } else {
        "withdrawn"
    };
    let mut v = c.summary();
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
    let mut list = app.lobby.challenges.lock().unwrap();
    let c = list
        .iter_mut()
        .find(|c| c.id == id)
        .ok_or_else(|| ApiError::not_found(format!("no challenge '{id}'")))?;
    if req.token.as_deref() != Some(c.secret.as_str()) {
        return Err(ApiError::new(
            Code::Forbidden,
            "only the challenge's creator (its token) can cancel it",
        ));
    }
    if !c.open(now) {
        return Err(ApiError::new(
            Code::ChallengeClosed,
            "the challenge is no longer open",
        ));
    }
    c.cancelled = true;
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
    let _one_at_a_time = app.lobby.accepting.lock().await;
    let now = now_ms();
    let c = {
        let list = app.lobby.challenges.lock().unwrap();
        list.iter()
            .find(|c| c.id == id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no challenge '{id}'")))?
    };
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
        clock: Clock::start(c.control, now),
        white_user,
        black_user,
        rated: c.rated,
        ..GameRow::default()
    };
    launch(&app, &row, &[], variant.clone(), None).await?;
    let link = |tok: &str| format!("/game/{game_id}?token={tok}");
    let (mine, theirs, my_side) = if creator_white {
        (&row.black_token, &row.white_token, "black")
    } else {
        (&row.white_token, &row.black_token, "white")
    };
    {
        let mut list = app.lobby.challenges.lock().unwrap();
        if let Some(x) = list.iter_mut().find(|x| x.id == id) {
            x.game = Some((game_id.clone(), link(theirs)));
        }
    }
    Ok(Json(json!({
        "game": game_id,
        "seat": my_side,
        "token": mine,
        "link": link(mine),
    })))
}
