//! Optional accounts (docs/server.md, "Accounts" and "Security"): sign-up and log-in with a
//! user name and password (stored as an argon2id PHC string), a session cookie (HttpOnly,
//! SameSite=Lax, Secure over TLS), log-out, failed log-ins limited per user name and per
//! address, the player page's data, and the check that keeps other sites from acting for a
//! logged-in player (`same_origin`). Anonymous play needs none of it.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
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
use crate::login_guard::Wait;
use crate::store::now_ms;
use crate::token;
use crate::view::side_name;
use crate::App;

/// The session cookie's name.
pub const COOKIE: &str = "cohort_session";
/// How long a session lasts.
const SESSION_MS: i64 = 30 * 86_400_000;
/// Live sessions an account keeps: a new log-in beyond them ends the oldest.
pub const MAX_SESSIONS: i64 = 10;
/// Failed log-ins allowed per user name from one address, and per address, in one window.
pub const USER_FAILURES: u32 = 5;
pub const ADDRESS_FAILURES: u32 = 20;
/// Sign-ups allowed per address in one window (each costs an argon2id hash).
pub const ADDRESS_SIGNUPS: u32 = 10;
/// The window of the limits.
pub const WINDOW_MS: i64 = 15 * 60_000;

/// Counts per key ("user:<id>@<address>", "ip:<address>", "signup:<address>") in a fixed
/// window. A log-in attempt is counted (reserved) before its password is hashed, so guesses
/// sent at once are all counted; a success gives its reservation back.
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
        Self::bump(&mut counts, key, now);
    }

    fn bump(counts: &mut HashMap<String, (u32, i64)>, key: &str, now: i64) {
        if counts.len() > 100_000 {
            counts.retain(|_, (_, start)| now - *start < WINDOW_MS);
        }
        let e = counts.entry(key.to_string()).or_insert((0, now));
        if now - e.1 >= WINDOW_MS {
            *e = (0, now);
        }
        e.0 += 1;
    }

    /// Count one attempt against every key at once, unless one of them has used up its
    /// limit: then nothing is counted and the answer is that key's index and the wait.
    fn reserve(&self, keys: &[(&str, u32)], now: i64) -> Result<(), (usize, i64)> {
        let mut counts = self.counts.lock().unwrap();
        for (i, &(key, limit)) in keys.iter().enumerate() {
            if let Some(&(n, start)) = counts.get(key) {
                if n >= limit && now - start < WINDOW_MS {
                    return Err((i, WINDOW_MS - (now - start)));
                }
            }
        }
        for &(key, _) in keys {
            Self::bump(&mut counts, key, now);
        }
        Ok(())
    }

    /// Give back one counted attempt (a log-in that succeeded is no failure).
    fn release(&self, key: &str) {
        if let Some(e) = self.counts.lock().unwrap().get_mut(key) {
            e.0 = e.0.saturating_sub(1);
        }
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

/// Password hashing (argon2id, 19 MiB and tens of milliseconds each): at most `max_hashes`
/// at once, each on one of that many threads of its own (so the memory the hashes take is
/// bounded and reused); others wait for a permit, and after [`HASH_WAIT`] get 503 `busy`.
pub struct Hashing {
    permits: tokio::sync::Semaphore,
    jobs: std::sync::Mutex<std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>>,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

/// How long a log-in or sign-up waits for a hashing permit before it is answered 503.
pub const HASH_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

impl Hashing {
    pub fn new(threads: usize) -> Hashing {
        let (tx, rx) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        let rx = Arc::new(std::sync::Mutex::new(rx));
        for i in 0..threads {
            let rx = rx.clone();
            let _ = std::thread::Builder::new()
                .name(format!("cohort-hash-{i}"))
                .spawn(move || loop {
                    let job = match rx.lock().unwrap().recv() {
                        Ok(job) => job,
                        Err(_) => return,
                    };
                    job();
                });
        }
        Hashing {
            permits: tokio::sync::Semaphore::new(threads),
            jobs: std::sync::Mutex::new(tx),
            running: Default::default(),
            peak: Default::default(),
        }
    }

    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// Run `f` (a hash) on the hashing threads, when a permit is free.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Response> {
        let permit = match tokio::time::timeout(HASH_WAIT, self.permits.acquire()).await {
            Ok(Ok(p)) => p,
            _ => {
                let mut r = ApiError::new(
                    Code::Busy,
                    "the server is busy checking passwords; try again in a moment",
                )
                .into_response();
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                return Err(r);
            }
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (running, peak) = (self.running.clone(), self.peak.clone());
        let job = Box::new(move || {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            let out = f();
            running.fetch_sub(1, Ordering::SeqCst);
            let _ = tx.send(out);
        });
        let sent = self.jobs.lock().unwrap().send(job).is_ok();
        let out = if sent { rx.await.ok() } else { None };
        drop(permit);
        out.ok_or_else(|| ApiError::internal("the hashing thread failed").into_response())
    }
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/account", get(me))
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/logout-everywhere", post(logout_everywhere))
        .route("/api/players/online", get(online))
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
        let peer = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        if !own_origin(&app, h, peer, &origin) {
            return cross_site(&format!("Origin: {origin}"));
        }
    }
    next.run(req).await
}

/// The host a request was sent to: `Host`, or behind a trusted proxy the host the proxy
/// was asked for (`X-Forwarded-Host`, when the proxy sets it).
pub(crate) fn request_host(
    app: &App,
    h: &HeaderMap,
    peer: Option<std::net::IpAddr>,
) -> Option<String> {
    let forwarded = if peer.is_some_and(|p| app.trusts(p)) {
        h.get("x-forwarded-host")
    } else {
        None
    };
    forwarded
        .or_else(|| h.get(header::HOST))
        .map(|v| String::from_utf8_lossy(v.as_bytes()).to_string())
}

/// Whether `origin` (a request's `Origin`) is this site: the request's own host (`Host`;
/// behind a trusted proxy, `X-Forwarded-Host` when the proxy sets it), over http or https,
/// or the configured public origin (`--public-origin`).
pub(crate) fn own_origin(
    app: &App,
    h: &HeaderMap,
    peer: Option<std::net::IpAddr>,
    origin: &str,
) -> bool {
    if let Some(public) = &app.config.public_origin {
        if origin.eq_ignore_ascii_case(public.trim_end_matches('/')) {
            return true;
        }
    }
    let host = request_host(app, h, peer);
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    host.is_some() && authority == host.as_deref()
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

/// The client's address: the connection's; but on a connection from a trusted proxy
/// (`--behind-proxy`), the rightmost `X-Forwarded-For` entry that is not itself a trusted
/// proxy (entries to its left are whatever the client chose to send).
pub(crate) fn address(app: &App, headers: &HeaderMap, conn: Option<SocketAddr>) -> String {
    let Some(peer) = conn.map(|a| a.ip().to_canonical()) else {
        return "unknown".to_string();
    };
    if !app.trusts(peer) {
        return peer.to_string();
    }
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    for entry in entries.iter().rev() {
        match parse_forwarded(entry) {
            Some(ip) if app.trusts(ip) => continue,
            Some(ip) => return ip.to_string(),
            // Not an address: the proxy did not write it; go no further left.
            None => break,
        }
    }
    peer.to_string()
}

/// An `X-Forwarded-For` entry's address (`1.2.3.4`, `::1`, `[::1]:80`, `1.2.3.4:80`).
fn parse_forwarded(entry: &str) -> Option<IpAddr> {
    let e = entry.trim();
    if let Ok(ip) = e.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    e.parse::<SocketAddr>().ok().map(|a| a.ip().to_canonical())
}

/// The client's address, for a handler that has the request's parts.
pub(crate) fn address_of(app: &App, parts: &axum::http::request::Parts) -> String {
    let conn = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    address(app, &parts.headers, conn)
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
    let now = now_ms();
    let user = app
        .store
        .session_user(&session_hash(&secret), now)
        .await
        .ok()
        .flatten()?;
    note_seen(app, &user.0, now).await;
    Some(user)
}

/// An account is online while it has asked anything within this long ("who is online").
pub const ONLINE_MS: i64 = 5 * 60_000;
/// How often an instance writes an account's last request time.
const SEEN_EVERY_MS: i64 = 60_000;

/// The account `id` asked something now: stored (at most once a minute per instance), so
/// that every instance knows who is online.
async fn note_seen(app: &App, id: &str, now: i64) {
    {
        let mut seen = app.seen.lock().unwrap();
        if seen.get(id).is_some_and(|&t| now - t < SEEN_EVERY_MS) {
            return;
        }
        seen.insert(id.to_string(), now);
    }
    // A failed write only leaves the account's presence older: nothing else depends on it.
    let _ = app.store.note_seen(id, now).await;
}

/// `GET /api/players/online`: the accounts that asked anything within the last five minutes,
/// the most recent first (at most 100): `{"online": [name], "window_s": 300}`.
async fn online(State(app): State<Arc<App>>) -> Answer {
    let names = app
        .store
        .online_users(now_ms() - ONLINE_MS, 100)
        .await
        .map_err(|e| ApiError::internal(format!("reading who is online failed: {e}")))?;
    Ok(Json(json!({"online": names, "window_s": ONLINE_MS / 1000})))
}

fn secure(app: &App, headers: &HeaderMap, conn: Option<SocketAddr>) -> bool {
    app.config.secure_cookies
        || (conn.is_some_and(|c| app.trusts(c.ip()))
            && headers
                .get("x-forwarded-proto")
                .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https")))
}

fn set_cookie(
    app: &App,
    headers: &HeaderMap,
    conn: Option<SocketAddr>,
    value: &str,
    max_age_s: i64,
) -> HeaderValue {
    let text = format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{}",
        if secure(app, headers, conn) {
            "; Secure"
        } else {
            ""
        }
    );
    HeaderValue::from_str(&text).expect("a cookie of hex digits")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
}

/// Names no one may take (lower case): they would pass for the site's own voice.
pub const RESERVED_NAMES: &[&str] = &[
    // A path of the API (`/api/players/online`), not a player.
    "online",
    "admin",
    "administrator",
    "root",
    "moderator",
    "mod",
    "mods",
    "staff",
    "support",
    "system",
    "sysop",
    "owner",
    "operator",
    "official",
    "cohort",
    "server",
    "ai",
    "engine",
    "bot",
    "anonymous",
    "guest",
    "nobody",
    "null",
    "undefined",
    "help",
    "security",
    "webmaster",
];

/// A user name: 3 to 20 letters, digits, `_` or `-`, not reserved; its id is the lower-case
/// form.
fn check_name(name: &str) -> Result<String, ApiError> {
    let ok = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !ok {
        return Err(ApiError::invalid(
            "username: 3 to 20 letters, digits, '_' or '-'",
        ));
    }
    let id = name.to_ascii_lowercase();
    if RESERVED_NAMES.contains(&id.as_str()) {
        return Err(ApiError::invalid(format!(
            "username: '{name}' is reserved; choose another"
        )));
    }
    Ok(id)
}

/// The passwords refused at sign-up (common-passwords.txt, lower case).
const COMMON_PASSWORDS: &str = include_str!("common-passwords.txt");

/// A new account's password: 8 to 256 characters, not only spaces, not one character
/// repeated, not the user name (in any case, spaces around ignored), not a common password.
pub fn check_password(name: &str, password: &str) -> Result<(), ApiError> {
    let len = password.chars().count();
    if !(8..=256).contains(&len) {
        return Err(ApiError::invalid("password: 8 to 256 characters"));
    }
    let lower = password.trim().to_lowercase();
    let mut chars = password.chars();
    let first = chars.next();
    if lower.is_empty() || chars.all(|c| Some(c) == first) {
        return Err(ApiError::invalid(
            "password: not only spaces or one character repeated",
        ));
    }
    if lower == name.to_lowercase() || (lower.contains(&name.to_lowercase()) && len < 12) {
        return Err(ApiError::invalid(
            "password: not your user name (nor a short password containing it)",
        ));
    }
    let common = COMMON_PASSWORDS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .any(|l| l == lower);
    if common {
        return Err(ApiError::invalid(
            "password: one of the most common passwords; choose a longer or less usual one",
        ));
    }
    Ok(())
}

thread_local! {
    /// The argon2 memory of this hashing thread (19 MiB for the default parameters),
    /// allocated once and used by every hash the thread computes: the memory hashes take is
    /// `max_hashes` times this, whatever the allocator keeps.
    static BLOCKS: std::cell::RefCell<Vec<argon2::Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// argon2's output for `password` and `salt` under `a` (whose parameters are `params`),
/// computed in this thread's memory.
fn argon2_output(
    a: &Argon2,
    params: &Params,
    password: &[u8],
    salt: &[u8],
) -> Result<Output, argon2::password_hash::Error> {
    let len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let blocks = params.block_count();
    if blocks > Params::default().block_count() {
        // Not a hash this server makes: computed in memory of its own, given back after.
        let mut own = vec![argon2::Block::default(); blocks];
        return Output::init_with(len, |out| {
            Ok(a.hash_password_into_with_memory(password, salt, out, &mut own[..])?)
        });
    }
    BLOCKS.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < blocks {
            b.resize(blocks, argon2::Block::default());
        }
        Output::init_with(len, |out| {
            Ok(a.hash_password_into_with_memory(password, salt, out, &mut b[..blocks])?)
        })
    })
}

fn hash_password(password: String) -> Result<String, String> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    let mut salt_buf = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_buf)
        .map_err(|e| e.to_string())?;
    let params = Params::default();
    let a = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let out =
        argon2_output(&a, &params, password.as_bytes(), salt_bytes).map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt.as_salt()),
        hash: Some(out),
    };
    Ok(phc.to_string())
}

fn verify_password(password: String, hash: String) -> bool {
    let Ok(h) = PasswordHash::new(&hash) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (h.salt, h.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(h.algorithm) else {
        return false;
    };
    let version = match h.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&h) else {
        return false;
    };
    let mut salt_buf = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let a = Argon2::new(algorithm, version, params.clone());
    // Output's == compares in constant time.
    argon2_output(&a, &params, password.as_bytes(), salt_bytes).is_ok_and(|out| out == expected)
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
    conn: Option<SocketAddr>,
    id: &str,
    name: &str,
) -> Result<Response, ApiError> {
    let secret = token();
    let now = now_ms();
    app.login_guard
        .succeeded(id, &address(app, headers, conn), now);
    app.store
        .create_session(&session_hash(&secret), id, now, now + SESSION_MS)
        .await
        .map_err(|e| ApiError::internal(format!("storing the session failed: {e}")))?;
    // At most MAX_SESSIONS live sessions an account: the oldest end (log-ins in a loop
    // store nothing more).
    app.store
        .keep_newest_sessions(id, MAX_SESSIONS)
        .await
        .map_err(|e| ApiError::internal(format!("trimming the sessions failed: {e}")))?;
    let mut r = Json(json!({ "username": name })).into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        set_cookie(app, headers, conn, &secret, SESSION_MS / 1000),
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
    check_password(&c.username, &c.password).map_err(IntoResponse::into_response)?;
    let now = now_ms();
    let key = format!("signup:{}", address(&app, &headers, conn));
    if let Some(wait) = app.limiter.blocked(&key, ADDRESS_SIGNUPS, now) {
        return Err(too_many("sign-ups from this address", wait));
    }
    app.limiter.count(&key, now);
    let hash = app
        .hashing
        .run(move || hash_password(c.password))
        .await?
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
    start_session(&app, &headers, conn, &id, &c.username)
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
    let addr = address(&app, &headers, conn);
    // One user name is locked from one address only: guesses from elsewhere do not lock
    // its owner out. Every attempt is counted before its hash, so parallel guesses count.
    let user_key = format!("user:{id}@{addr}");
    let ip_key = format!("ip:{addr}");
    if let Err((which, wait)) = app.limiter.reserve(
        &[(&user_key, USER_FAILURES), (&ip_key, ADDRESS_FAILURES)],
        now,
    ) {
        return Err(too_many(
            if which == 0 {
                "failed log-ins for this user name from this address"
            } else {
                "failed log-ins from this address"
            },
            wait,
        ));
    }
    // Per account, whatever the address: guesses from many addresses slowed past a
    // ceiling, successful log-ins from one address limited (login_guard.rs). Not for the
    // owner's own addresses, nor a browser with a live session of the account.
    let own = current_user(&app, &headers)
        .await
        .is_some_and(|(user, _)| user == id);
    if let Err(wait) = app.login_guard.admit(&id, &addr, own, now) {
        app.limiter.release(&user_key);
        app.limiter.release(&ip_key);
        return Err(match wait {
            Wait::Guesses(ms) => {
                too_many("failed log-ins for this account from many addresses", ms)
            }
            Wait::Logins(ms) => too_many("log-ins to this account from this address", ms),
        });
    }
    let found = app.store.user(&id).await.map_err(|e| {
        app.limiter.release(&user_key);
        app.limiter.release(&ip_key);
        ApiError::internal(format!("reading the account failed: {e}")).into_response()
    })?;
    let (name, hash, known) = match found {
        Some((name, hash)) => (name, Some(hash), true),
        None => (String::new(), None, false),
    };
    let password = c.password;
    let checked = app
        .hashing
        .run(move || verify_password(password, hash.unwrap_or_else(decoy_hash)))
        .await;
    let ok = match checked {
        Ok(ok) => ok && known,
        Err(busy) => {
            // Not checked: not a failure.
            app.limiter.release(&user_key);
            app.limiter.release(&ip_key);
            return Err(busy);
        }
    };
    if !ok {
        if known {
            app.login_guard.failed(&id, now);
        }
        return Err(
            ApiError::new(Code::BadCredentials, "wrong username or password").into_response(),
        );
    }
    app.limiter.clear(&user_key);
    app.limiter.release(&ip_key);
    // Log-ins also purge expired sessions (besides the hourly purge, lib.rs).
    let _ = app.store.purge_sessions(now).await;
    start_session(&app, &headers, conn, &id, &name)
        .await
        .map_err(IntoResponse::into_response)
}

async fn logout(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(secret) = cookie_secret(&headers) {
        app.store
            .delete_session(&session_hash(&secret))
            .await
            .map_err(|e| ApiError::internal(format!("ending the session failed: {e}")))?;
    }
    let mut r = Json(json!({ "username": null })).into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, set_cookie(&app, &headers, conn, "", 0));
    Ok(r)
}

/// Log out everywhere: every session of the logged-in account ends (other browsers and
/// devices too). 401 `login_required` without a session.
async fn logout_everywhere(
    State(app): State<Arc<App>>,
    Conn(conn): Conn,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Some((id, _)) = current_user(&app, &headers).await else {
        return Err(ApiError::new(
            Code::LoginRequired,
            "no session to end: log in first",
        ));
    };
    let ended = app
        .store
        .delete_sessions_of(&id)
        .await
        .map_err(|e| ApiError::internal(format!("ending the sessions failed: {e}")))?;
    let mut r = Json(json!({ "username": null, "sessions_ended": ended })).into_response();
    r.headers_mut()
        .insert(header::SET_COOKIE, set_cookie(&app, &headers, conn, "", 0));
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
    let seen_ms = app
        .store
        .seen_ms(&id)
        .await
        .map_err(|e| ApiError::internal(format!("reading the account failed: {e}")))?;
    let ratings: Vec<Value> = app
        .store
        .ratings_of(&id)
        .await
        .map_err(|e| ApiError::internal(format!("reading ratings failed: {e}")))?
        .into_iter()
        .map(|(variant, r, games)| {
            let name = cohort_rules::builtin(&variant).map(|v| v.name.clone());
            json!({"variant": variant, "name": name, "rating": r.rating.round() as i64,
                   "rd": r.rd.round() as i64, "games": games})
        })
        .collect();
    // Each variant's rating after each rated game, oldest first, from its start (the
    // player page's chart).
    let mut history = serde_json::Map::new();
    for (variant, points) in app
        .store
        .rating_history(&id)
        .await
        .map_err(|e| ApiError::internal(format!("reading ratings failed: {e}")))?
    {
        history.insert(
            variant,
            points.iter().map(|&(ms, r)| json!([ms, r])).collect(),
        );
    }
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
            "created_ms": live.row.created_ms,
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
        "online": seen_ms > now_ms() - ONLINE_MS,
        "seen_ms": seen_ms,
        "history": history,
        "playing": playing,
        "finished": finished,
    })))
}
