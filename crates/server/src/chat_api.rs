//! Chat (docs/server.md, "Chat"): the lobby's room and each game's two channels, the
//! players' (read and written with a seat's token) and the spectators' (read by anyone,
//! written by logged-in accounts not seated in the game). Each room has a history (its newest
//! `chat::HISTORY` lines), a way to post, and a WebSocket that sends the history on
//! connecting and every new line after it, from any instance. An account may switch chat off
//! (`/api/account/settings`): its history answers and sockets then carry no lines. Storage,
//! the text's rules and the rate limit: chat.rs.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::{Json, Router};
use cohort_rules::Side;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast;

use crate::accounts::{address, current_user, Conn};
use crate::chat::{check_text, line_ms, Announce, ChatLine, Refused, HISTORY};
use crate::error::{body, Answer, ApiError, ApiPath, ApiQuery, Code, MAX_BODY};
use crate::sockets::{self, Sock};
use crate::{token, App};

/// What this instance's chat sockets hear: a new line (posted here or on another instance),
/// or an account's switch changed.
pub enum News {
    Line(ChatLine),
    /// The account's switch changed (the socket reads it again from storage).
    Switch {
        user: String,
    },
}

/// The signal every chat socket of this instance follows (each keeps the news of its room).
pub struct Hub {
    news: broadcast::Sender<Arc<News>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            news: broadcast::channel(256).0,
        }
    }
}

impl Hub {
    fn send(&self, news: News) {
        let _ = self.news.send(Arc::new(news));
    }

    /// Another instance's announcement (PostgreSQL's `CHAT_CHANNEL`); this instance's own
    /// were delivered when they were made.
    pub(crate) fn heard(&self, instance: &str, payload: &str) {
        let Ok(a) = serde_json::from_str::<Announce>(payload) else {
            eprintln!("cohort serve: an unreadable chat announcement: {payload}");
            return;
        };
        if a.from == instance {
            return;
        }
        if let Some(line) = a.line {
            self.send(News::Line(line));
        }
        if let Some((user, _)) = a.switch {
            self.send(News::Switch { user });
        }
    }
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/chat/lobby", get(lobby_history).post(lobby_post))
        .route("/api/chat/lobby/ws", get(lobby_ws))
        .route(
            "/api/games/{id}/chat/{channel}",
            get(game_history).post(game_post),
        )
        .route("/api/games/{id}/chat/{channel}/ws", get(game_ws))
        .route("/api/account/settings", get(settings).post(set_settings))
        .method_not_allowed_fallback(crate::error::wrong_method)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

fn stored(e: sqlx::Error) -> ApiError {
    ApiError::internal(format!("the chat's storage failed, nothing changed: {e}"))
}

/// Who is asking in a room: the account whose switch counts (the logged-in one, else the
/// seat's), and the poster they would be (None: reading only, with the reason).
struct Reader {
    room: String,
    account: Option<String>,
    poster: Result<Poster, ApiError>,
}

struct Poster {
    /// The rate limit's key: `user:<id>` or `seat:<game>:<side>`.
    key: String,
    by: Option<String>,
    seat: Option<String>,
}

fn login_first(what: &str) -> ApiError {
    ApiError::new(
        Code::LoginRequired,
        format!("log in to write in {what}; anyone may read it"),
    )
}

async fn lobby_reader(app: &App, headers: &HeaderMap) -> Reader {
    let me = current_user(app, headers).await;
    Reader {
        room: "lobby".into(),
        account: me.as_ref().map(|m| m.0.clone()),
        poster: match me {
            Some((id, name)) => Ok(Poster {
                key: format!("user:{id}"),
                by: Some(name),
                seat: None,
            }),
            None => Err(login_first("the lobby's chat")),
        },
    }
}

/// The reader of game `id`'s `channel`: the players' channel only with a seat's token (403
/// otherwise), the spectators' for anyone (writing: a logged-in account not seated here).
async fn game_reader(
    app: &App,
    id: &str,
    channel: &str,
    seat_token: Option<&str>,
    headers: &HeaderMap,
) -> Result<Reader, ApiError> {
    if channel != "players" && channel != "spectators" {
        return Err(ApiError::not_found(format!(
            "no chat channel '{channel}' (players or spectators)"
        )));
    }
    let slot = app.find(id).await?;
    let (seat, white_user, black_user) = {
        let live = slot.live.lock().await;
        (
            seat_token.and_then(|t| live.seat_of(t)),
            live.row.white_user.clone(),
            live.row.black_user.clone(),
        )
    };
    let me = current_user(app, headers).await;
    let room = format!("game:{id}:{channel}");
    if channel == "players" {
        let Some(side) = seat else {
            return Err(ApiError::new(
                Code::Forbidden,
                "the players' channel is the players': it takes a seat's token",
            ));
        };
        let seat_user = match side {
            Side::White => white_user,
            Side::Black => black_user,
        };
        let by = match &seat_user {
            Some(u) => app
                .store
                .user(u)
                .await
                .map_err(stored)?
                .map(|(name, _)| name),
            None => None,
        };
        let side = if side == Side::White {
            "white"
        } else {
            "black"
        };
        return Ok(Reader {
            room,
            account: me.map(|m| m.0).or(seat_user),
            poster: Ok(Poster {
                key: format!("seat:{id}:{side}"),
                by,
                seat: Some(side.into()),
            }),
        });
    }
    let poster = match &me {
        None => Err(login_first("the spectators' chat")),
        Some((uid, _)) if white_user.as_ref() == Some(uid) || black_user.as_ref() == Some(uid) => {
            Err(ApiError::new(
                Code::Forbidden,
                "you play in this game: players talk in the players' channel",
            ))
        }
        Some((uid, name)) => Ok(Poster {
            key: format!("user:{uid}"),
            by: Some(name.clone()),
            seat: None,
        }),
    };
    Ok(Reader {
        room,
        account: me.map(|m| m.0),
        poster,
    })
}

async fn chat_on(app: &App, account: &Option<String>) -> Result<bool, ApiError> {
    match account {
        Some(u) => app.store.chat_on(u).await.map_err(stored),
        None => Ok(true),
    }
}

/// The room's newest lines (none when the reader's account has chat off).
async fn history(app: &App, reader: &Reader) -> Result<Value, ApiError> {
    let on = chat_on(app, &reader.account).await?;
    let lines = if on {
        app.store
            .chat_lines(&reader.room, HISTORY)
            .await
            .map_err(stored)?
    } else {
        vec![]
    };
    Ok(json!({
        "room": reader.room,
        "chat": on,
        "can_post": reader.poster.is_ok(),
        "lines": lines,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewLine {
    text: String,
    /// A player's seat token (the players' channel).
    token: Option<String>,
}

async fn post(app: &App, reader: Reader, text: String, address: String) -> Answer {
    let poster = reader.poster?;
    check_text(&text).map_err(ApiError::invalid)?;
    let line = ChatLine {
        address,
        id: token()[..16].to_string(),
        room: reader.room,
        poster: poster.key,
        by: poster.by,
        seat: poster.seat,
        text,
        at_ms: line_ms(),
    };
    match app.store.add_chat_line(&line).await.map_err(stored)? {
        Ok(()) => {}
        Err(Refused::Limit(why)) => return Err(ApiError::new(Code::LimitReached, why)),
    }
    app.chat.send(News::Line(line.clone()));
    Ok(Json(
        serde_json::to_value(&line).map_err(|e| ApiError::internal(e.to_string()))?,
    ))
}

async fn lobby_history(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let reader = lobby_reader(&app, &headers).await;
    Ok(Json(history(&app, &reader).await?))
}

async fn lobby_post(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: NewLine = body(raw)?;
    let reader = lobby_reader(&app, &headers).await;
    let from = address(&app, &headers, conn);
    post(&app, reader, req.text, from).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatQuery {
    token: Option<String>,
}

async fn game_history(
    State(app): State<Arc<App>>,
    ApiPath((id, channel)): ApiPath<(String, String)>,
    ApiQuery(q): ApiQuery<SeatQuery>,
    headers: HeaderMap,
) -> Answer {
    let reader = game_reader(&app, &id, &channel, q.token.as_deref(), &headers).await?;
    Ok(Json(history(&app, &reader).await?))
}

async fn game_post(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    ApiPath((id, channel)): ApiPath<(String, String)>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: NewLine = body(raw)?;
    let reader = game_reader(&app, &id, &channel, req.token.as_deref(), &headers).await?;
    let from = address(&app, &headers, conn);
    post(&app, reader, req.text, from).await
}

async fn lobby_ws(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let admitted = sockets::admit(&app, upgrade, &headers, conn, None)?;
    let reader = lobby_reader(&app, &headers).await;
    Ok(admitted.on_upgrade(move |socket| follow(socket, app, reader)))
}

async fn game_ws(
    State(app): State<Arc<App>>,
    ApiPath((id, channel)): ApiPath<(String, String)>,
    ApiQuery(q): ApiQuery<SeatQuery>,
    Conn(conn): Conn,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let reader = game_reader(&app, &id, &channel, q.token.as_deref(), &headers).await?;
    let admitted = sockets::admit(&app, upgrade, &headers, conn, Some(&id))?;
    Ok(admitted.on_upgrade(move |socket| follow(socket, app, reader)))
}

/// A room's socket: `{"type": "history", ...}` (as the history answer) on connecting, after
/// falling behind and when the account's switch changes; `{"type": "line", "line": {...}}`
/// for every new line while chat is on.
async fn follow(mut socket: Sock, app: Arc<App>, reader: Reader) {
    let mut news = app.chat.news.subscribe();
    let mut on = true;
    let mut resend = true;
    loop {
        if resend {
            resend = false;
            let Ok(mut h) = history(&app, &reader).await else {
                return;
            };
            on = h["chat"] == true;
            h["type"] = "history".into();
            if !socket.send(h.to_string()).await {
                return;
            }
        }
        match socket.until(news.recv()).await {
            None => return,
            Some(Ok(n)) => match &*n {
                News::Line(line) if on && line.room == reader.room => {
                    let m = json!({"type": "line", "line": line});
                    if !socket.send(m.to_string()).await {
                        return;
                    }
                }
                News::Switch { user, .. } if reader.account.as_ref() == Some(user) => {
                    resend = true;
                }
                _ => {}
            },
            Some(Err(broadcast::error::RecvError::Lagged(_))) => resend = true,
            Some(Err(broadcast::error::RecvError::Closed)) => return,
        }
    }
}

async fn settings(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let Some((id, _)) = current_user(&app, &headers).await else {
        return Err(ApiError::new(
            Code::LoginRequired,
            "settings are an account's; log in first",
        ));
    };
    Ok(Json(json!({"chat": chat_on(&app, &Some(id)).await?})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    chat: bool,
}

async fn set_settings(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Settings = body(raw)?;
    let Some((id, _)) = current_user(&app, &headers).await else {
        return Err(ApiError::new(
            Code::LoginRequired,
            "settings are an account's; log in first",
        ));
    };
    app.store.set_chat_on(&id, req.chat).await.map_err(stored)?;
    app.chat.send(News::Switch { user: id });
    Ok(Json(json!({"chat": req.chat})))
}
