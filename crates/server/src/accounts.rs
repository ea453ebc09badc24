//! Optional accounts (docs/server.md, "Accounts" and "Security"): sign-up and log-in with a
//! user name and password (stored as an argon2id PHC string), a session cookie (HttpOnly,
//! SameSite=Lax, Secure over TLS), log-out, failed log-ins limited per user name and per
//! address, the player page's data, and the check that keeps other sites from acting for a
//! logged-in player (`same_origin`). Anonymous play needs none of it.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use blake2::{Blake2s256, Digest};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{body, Answer, ApiError, ApiPath, Code, MAX_BODY};
use crate::store::now_ms;
use crate::token;
use crate::view::side_name;
use crate::App;

/// The session cookie's name.
pub const COOKIE: &str = "cohort_session";
/// How long a session lasts.
const SESSION_MS: i64 = 30 * 86_400_000;
/// Failed log-ins allowed per user name, and per address, in one window.
pub const USER_FAILURES: u32 = 5;
pub const ADDRESS_FAILURES: u32 = 20;
/// Sign-ups allowed per address in one window (each costs an argon2id hash).
pub const ADDRESS_SIGNUPS: u32 = 10;
/// The window of the limits.
pub const WINDOW_MS: i64 = 15 * 60_000;

/// Counts per key ("user:<id>", "ip:<address>", "signup:<address>") in a fixed window.
#[derive(Default)]
pub struct Limiter {
    counts: std::sync::Mutex<HashMap<String, (u32, i64)>>,
}

impl Limiter {
    /// Milliseconds until `key` may try again, if it has used up `limit`.
    fn blocked(&self, key: &str, limit: u32, now: i64) -> Option<i64> {
        let counts = self.counts.lock().unwrap();
        match counts.get(key) {
            Some(&(n, start)) if n >= limit && now - start < WINDOW_MS => {
                Some(WINDOW_MS - (now - start))
            }
            _ => None,
        }
    }

    fn count(&self, key: &str, now: i64) {
        let mut counts = self.counts.lock().unwrap();
        if counts.len() > 100_000 {
            counts.retain(|_, (_, start)| now - *start < WINDOW_MS);
        }
        let e = counts.entry(key.to_string()).or_insert((0, now));
        if now - e.1 >= WINDOW_MS {
            *e = (0, now);
        }
        e.0 += 1;
    }

    fn clear(&self, key: &str) {
        self.counts.lock().unwrap().remove(key);
    }
}

fn too_many(what: &str, wait_ms: i64) -> Response {
    let secs = (wait_ms + 999) / 1000;
    let mut r = ApiError::new(
        Code::RateLimited,
        format!("too many {what}; try again in {secs} s"),
    )
    .into_response();
    if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/account", get(me))
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/players/{name}", get(player))
        .method_not_allowed_fallback(crate::error::wrong_method)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Refuse a state-changing request to the API that comes from another site: a browser says
/// where a request comes from in `Sec-Fetch-Site` and `Origin`, and a page of another site
/// cannot hide them. Requests without either (command-line clients) are not a browser's
/// ambient-cookie requests and pass. Every POST under /api is checked, so no other site can
/// act for a logged-in player (nor log someone in or out).
pub async fn same_origin(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let path = req.uri().path();
    if safe || !(path == "/api" || path.starts_with("/api/")) {
        return next.run(req).await;
    }
    let h = req.headers();
    if let Some(site) = h.get("sec-fetch-site") {
        // "none": typed by the user; "same-origin": our own pages.
        if !matches!(site.as_bytes(), b"same-origin" | b"none") {
            return cross_site(&format!(
                "Sec-Fetch-Site: {}",
                String::from_utf8_lossy(site.as_bytes())
            ));
        }
    }
    if let Some(origin) = h.get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes()).to_string();
        // Behind a proxy the public host is the one the proxy was asked for.
        let forwarded = if app.config.behind_proxy {
            h.get("x-forwarded-host")
        } else {
            None
        };
        let host = forwarded
            .or_else(|| h.get(header::HOST))
            .map(|v| String::from_utf8_lossy(v.as_bytes()).to_string());
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        if host.is_none() || authority != host.as_deref() {
            return cross_site(&format!("Origin: {origin}"));
        }
    }
    next.run(req).await
}

fn cross_site(what: &str) -> Response {
    ApiError::new(
        Code::CrossSite,
        format!("a request from another site cannot act here ({what})"),
    )
    .into_response()
}

/// The connection's address, when the server was started with it (not in tests through
/// the router alone).
pub(crate) struct Conn(pub Option<SocketAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Conn {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Conn(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0),
        ))
    }
}

/// The client's address: the connection's, or behind a proxy the first `X-Forwarded-For`.
pub(crate) fn address(app: &App, headers: &HeaderMap, conn: Option<SocketAddr>) -> String {
    if app.config.behind_proxy {
        if let Some(first) = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
        {
            return first.trim().to_string();
        }
    }
    conn.map_or_else(|| "unknown".to_string(), |a| a.ip().to_string())
}

fn session_hash(secret: &str) -> String {
    Blake2s256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn cookie_secret(headers: &HeaderMap) -> Option<String> {
    for v in headers.get_all(header::COOKIE) {
        let Ok(text) = v.to_str() else { continue };
        for part in text.split(';') {
            if let Some((k, v)) = part.trim().split_once('=') {
                if k == COOKIE && v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Some(v.to_string());
                }
            }
        }
    }
    None
}

/// The logged-in account of a request: (id, name).
pub(crate) async fn current_user(app: &App, headers: &HeaderMap) -> Option<(String, String)> {
    let secret = cookie_secret(headers)?;
    app.store
        .session_user(&session_hash(&secret), now_ms())
        .await
        .ok()
        .flatten()
}

fn secure(app: &App, headers: &HeaderMap) -> bool {
    app.config.secure_cookies
        || (app.config.behind_proxy
            && headers
                .get("x-forwarded-proto")
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https")))
}

fn set_cookie(app: &App, headers: &HeaderMap, value: &str, max_age_s: i64) -> HeaderValue {
    let text = format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{}",
        if secure(app, headers) { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&text).expect("a cookie of hex digits")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
}

/// A user name: 3 to 20 letters, digits, `_` or `-`; its id is the lower-case form.
fn check_name(name: &str) -> Result<String, ApiError> {
    let ok = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(name.to_ascii_lowercase())
    } else {
        Err(ApiError::invalid(
            "username: 3 to 20 letters, digits, '_' or '-'",
        ))
    }
}

fn hash_password(password: String) -> Result<String, String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

fn verify_password(password: String, hash: String) -> bool {
    PasswordHash::new(&hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash to check unknown names against, so that they take as long as known ones.
fn decoy_hash() -> String {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY
        .get_or_init(|| hash_password(token()).expect("argon2id hashes"))
        .clone()
}

async fn start_session(
    app: &App,
    headers: &HeaderMap,
    id: &str,
    name: &str,
) -> Result<Response, ApiError> {
    let secret = token();
    let now = now_ms();
    app.store
        .create_session(&session_hash(&secret), id, now, now + SESSION_MS)
        .await
        .map_err(|e| ApiError::internal(format!("storing the session failed: {e}")))?;
    let mut r = Json(json!({ "username": name })).into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        set_cookie(app, headers, &secret, SESSION_MS / 1000),
    );
    Ok(r)
}

async fn signup(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    let c: Credentials = body(raw).map_err(IntoResponse::into_response)?;
    let id = check_name(&c.username).map_err(IntoResponse::into_response)?;
    if !(8..=256).contains(&c.password.chars().count()) {
        return Err(ApiError::invalid("password: 8 to 256 characters").into_response());
    }
    let now = now_ms();
    let key = format!("signup:{}", address(&app, &headers, conn));
    if let Some(wait) = app.limiter.blocked(&key, ADDRESS_SIGNUPS, now) {
        return Err(too_many("sign-ups from this address", wait));
    }
    app.limiter.count(&key, now);
    let hash = tokio::task::spawn_blocking(move || hash_password(c.password))
        .await
        .map_err(|e| ApiError::internal(e.to_string()).into_response())?
        .map_err(|e| ApiError::internal(format!("hashing failed: {e}")).into_response())?;
    let created = app
        .store
        .create_user(&id, &c.username, &hash, now)
        .await
        .map_err(|e| {
            ApiError::internal(format!("storing the account failed: {e}")).into_response()
        })?;
    if !created {
        return Err(ApiError::new(
            Code::NameTaken,
            format!("username: '{}' is taken; choose another", c.username),
        )
        .into_response());
    }
    start_session(&app, &headers, &id, &c.username)
        .await
        .map_err(IntoResponse::into_response)
}

async fn login(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    let c: Credentials = body(raw).map_err(IntoResponse::into_response)?;
    if c.username.len() > 64 || c.password.len() > 1024 {
        return Err(ApiError::invalid("username or password too long").into_response());
    }
    let id = c.username.to_ascii_lowercase();
    let now = now_ms();
    let user_key = format!("user:{id}");
    let ip_key = format!("ip:{}", address(&app, &headers, conn));
    if let Some(wait) = app.limiter.blocked(&user_key, USER_FAILURES, now) {
        return Err(too_many("failed log-ins for this user name", wait));
    }
    if let Some(wait) = app.limiter.blocked(&ip_key, ADDRESS_FAILURES, now) {
        return Err(too_many("failed log-ins from this address", wait));
    }
    let found = app.store.user(&id).await.map_err(|e| {
        ApiError::internal(format!("reading the account failed: {e}")).into_response()
    })?;
    let (name, hash, known) = match found {
        Some((name, hash)) => (name, hash, true),
        None => (String::new(), decoy_hash(), false),
    };
    let password = c.password;
    let ok = tokio::task::spawn_blocking(move || verify_password(password, hash))
        .await
        .unwrap_or(false)
        && known;
    if !ok {
        app.limiter.count(&user_key, now);
        app.limiter.count(&ip_key, now);
        return Err(
            ApiError::new(Code::BadCredentials, "wrong username or password").into_response(),
        );
    }
    app.limiter.clear(&user_key);
    start_session(&app, &headers, &id, &name)
        .await
        .map_err(IntoResponse::into_response)
}

async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(secret) = cookie_secret(&headers) {
        app.store
            .delete_session(&session_hash(&secret))
            .await
            .map_err(|e| ApiError::internal(format!("ending the session failed: {e}")))?;
    }
    let mut r = Json(json!({ "username": null })).into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, set_cookie(&app, &headers, "", 0));
    Ok(r)
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    Ok(Json(match current_user(&app, &headers).await {
        Some((_, name)) => json!({ "username": name }),
        None => json!({ "username": null }),
    }))
}

/// A player's page: ratings, games in progress ("your turn" when it is the player's), and
/// finished games with their rating change. Seat links (with the seat's token) only for the
/// player themself.
async fn player(
    State(app): State<Arc<App>>,
    ApiPath(name): ApiPath<String>,
    headers: HeaderMap,
) -> Answer {
    let id = name.to_ascii_lowercase();
    let Some((display, _)) = app
        .store
        .user(&id)
        .await
        .map_err(|e| ApiError::internal(format!("reading the account failed: {e}")))?
    else {
        return Err(ApiError::not_found(format!("no player '{name}'")));
    };
    let viewer = current_user(&app, &headers).await;
    let me = viewer.as_ref().is_some_and(|v| v.0 == id);
    let ratings: Vec<Value> = app
        .store
        .ratings_of(&id)
        .await
        .map_err(|e| ApiError::internal(format!("reading ratings failed: {e}")))?
        .into_iter()
        .map(|(variant, r, games)| {
            json!({"variant": variant, "rating": r.rating.round() as i64,
                   "rd": r.rd.round() as i64, "games": games})
        })
        .collect();
    let rows = app
        .store
        .games_of(&id, 100)
        .await
        .map_err(|e| ApiError::internal(format!("reading games failed: {e}")))?;
    let (mut playing, mut finished) = (vec![], vec![]);
    for row in rows {
        let Ok(Some(slot)) = app.slot(&row.id).await else {
            continue;
        };
        let live = slot.live.lock().await;
        let seat = if live.row.white_user.as_deref() == Some(id.as_str()) {
            cohort_rules::Side::White
        } else {
            cohort_rules::Side::Black
        };
        let opponent = match seat {
            cohort_rules::Side::White => live.row.black_user.clone(),
            cohort_rules::Side::Black => live.row.white_user.clone(),
        };
        let v = live.view(None);
        let mut g = json!({
            "id": live.row.id,
            "variant": live.row.variant,
            "name": v["name"],
            "seat": side_name(seat),
            "opponent": opponent,
            "time_control": live.row.clock.control.describe(),
            "rated": live.row.rated,
            "clock": v["clock"],
            "updated_ms": live.row.updated_ms,
        });
        if me {
            let tok = match seat {
                cohort_rules::Side::White => &live.row.white_token,
                cohort_rules::Side::Black => &live.row.black_token,
            };
            g["link"] = format!("/game/{}?token={tok}", live.row.id).into();
        }
        if v["result"].is_null() {
            g["your_turn"] = (live.to_move() == seat).into();
            playing.push(g);
        } else {
            g["result"] = v["result"].clone();
            g["rating_change"] = v["rating_change"][side_name(seat)].clone();
            finished.push(g);
        }
    }
    Ok(Json(json!({
        "username": display,
        "me": me,
        "ratings": ratings,
        "playing": playing,
        "finished": finished,
    })))
}
