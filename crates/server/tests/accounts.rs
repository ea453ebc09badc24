//! Security of accounts, sessions and seats (docs/server.md, "Security"): passwords stored as
//! argon2id, log-in limited per user name and per address, the session cookie's flags, no
//! request from another site acting for a logged-in player, no seat moving without its token,
//! and every error of the new routes answered in JSON.

use crate::common;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode};
use cohort_server::{router, App, Config};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Value,
    raw: String,
}

async fn send(
    app: &Arc<App>,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
    from: Option<&str>,
) -> Answer {
    let mut b = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    if body.is_some() {
        b = b.header("content-type", "application/json");
    }
    if let Some(ip) = from {
        let addr: SocketAddr = format!("{ip}:40000").parse().unwrap();
        b = b.extension(ConnectInfo(addr));
    }
    let req = b
        .body(body.map_or_else(Body::empty, |v| Body::from(v.to_string())))
        .unwrap();
    let resp = router(app.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let raw = String::from_utf8_lossy(&bytes).to_string();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer {
        status,
        headers,
        body,
        raw,
    }
}

async fn get(app: &Arc<App>, uri: &str, headers: &[(&str, &str)]) -> Answer {
    send(app, "GET", uri, headers, None, None).await
}

async fn post(app: &Arc<App>, uri: &str, headers: &[(&str, &str)], body: Option<Value>) -> Answer {
    send(app, "POST", uri, headers, body, None).await
}

/// An error: the status, a JSON content type, and `{"error": "<sentence>"}`.
fn assert_json_error(a: &Answer, status: StatusCode, words: &[&str], what: &str) {
    assert_eq!(a.status, status, "{what}: {}", a.raw);
    let ct = a
        .headers
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    assert!(
        ct.starts_with("application/json"),
        "{what}: content type {ct}"
    );
    let msg = a.body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: no error field: {}", a.raw));
    for w in words {
        assert!(msg.contains(w), "{what}: '{msg}' lacks '{w}'");
    }
    let code = a.body["code"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: no code field: {}", a.raw));
    assert!(!code.is_empty(), "{what}: empty code");
}

/// The session cookie (name=value) of a response's Set-Cookie, and the whole header.
fn session_cookie(a: &Answer) -> (String, String) {
    let set = a
        .headers
        .get("set-cookie")
        .unwrap_or_else(|| panic!("no Set-Cookie: {}", a.raw))
        .to_str()
        .unwrap()
        .to_string();
    let pair = set.split(';').next().unwrap().trim().to_string();
    (pair, set)
}

async fn signup(app: &Arc<App>, name: &str, password: &str) -> String {
    let a = post(
        app,
        "/api/account/signup",
        &[],
        Some(json!({"username": name, "password": password})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "signup {name}: {}", a.raw);
    session_cookie(&a).0
}

/// POST a log-in, as if from the address `from` when given.
async fn log_in(app: &Arc<App>, name: &str, password: &str, from: Option<&str>) -> Answer {
    let body = json!({"username": name, "password": password});
    send(app, "POST", "/api/account/login", &[], Some(body), from).await
}

async fn open(tag: &str, config: Config) -> (std::path::PathBuf, String, Arc<App>) {
    let (dir, url) = common::temp_db(tag);
    let app = App::open_with(&url, config).await.unwrap();
    (dir, url, app)
}

#[tokio::test]
async fn passwords_are_stored_as_argon2id_never_in_plain() {
    let (dir, url, app) = open("argon", Config::default()).await;
    let password = "correct horse battery";
    signup(&app, "Alice", password).await;
    // The row itself, read with SQL from the database file.
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    use sqlx::Row;
    let rows = sqlx::query("SELECT id, name, password_hash FROM users")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    let id: String = rows[0].try_get(0).unwrap();
    let hash: String = rows[0].try_get(2).unwrap();
    assert_eq!(id, "alice", "the id is the lower-case name");
    assert!(hash.starts_with("$argon2id$v=19$"), "PHC string: {hash}");
    assert!(!hash.contains(password), "no plaintext in the hash");
    // Nothing anywhere in the database holds the password.
    for table in ["users", "sessions"] {
        let all = sqlx::query(&format!("SELECT * FROM {table}"))
            .fetch_all(&pool)
            .await
            .unwrap();
        for r in &all {
            for i in 0..r.len() {
                if let Ok(text) = r.try_get::<String, _>(i) {
                    assert!(
                        !text.contains(password),
                        "{table} column {i} holds the password"
                    );
                }
            }
        }
    }
    // The session is stored as a hash, not as the cookie's secret.
    let cookie = signup(&app, "Bob", "another password").await;
    let secret = cookie.split('=').nth(1).unwrap();
    let sessions: Vec<String> = sqlx::query("SELECT id_hash FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get(0).unwrap())
        .collect();
    assert_eq!(sessions.len(), 2);
    assert!(sessions.iter().all(|s| s != secret && s.len() == 64));
    // Two accounts with the same password get different salts.
    signup(&app, "Carol", password).await;
    let hashes: Vec<String> =
        sqlx::query("SELECT password_hash FROM users WHERE id IN ('alice', 'carol')")
            .fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get(0).unwrap())
            .collect();
    assert_ne!(hashes[0], hashes[1]);
    // Log-in: the right password opens a session, a wrong one is 401 JSON.
    let ok = log_in(&app, "ALICE", password, None).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.raw);
    assert_eq!(ok.body["username"], "Alice");
    let bad = log_in(&app, "alice", "wrong password", None).await;
    assert_json_error(
        &bad,
        StatusCode::UNAUTHORIZED,
        &["wrong username or password"],
        "wrong password",
    );
    assert!(bad.headers.get("set-cookie").is_none());
    pool.close().await;
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn log_in_is_rate_limited_per_user_name_and_per_address() {
    let (dir, _, app) = open("ratelimit", Config::default()).await;
    signup(&app, "alice", "alice's password").await;
    signup(&app, "bob", "bob's password").await;
    // Per user name and address: five failures from one address, then even the right
    // password waits there (docs/server.md: a lock-out an attacker cannot turn against the
    // owner, who logs in from elsewhere).
    for i in 0..cohort_server_limits::USER {
        let a = log_in(&app, "alice", "guess", Some("10.0.1.1")).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "attempt {i}: {}", a.raw);
    }
    let a = log_in(&app, "alice", "alice's password", Some("10.0.1.1")).await;
    assert_json_error(
        &a,
        StatusCode::TOO_MANY_REQUESTS,
        &["too many failed log-ins for this user name", "try again in"],
        "6th log-in",
    );
    let retry: i64 = a.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(retry > 0 && retry <= 15 * 60, "Retry-After {retry}");
    // From another address the owner logs in; another user is not affected.
    let a = log_in(&app, "alice", "alice's password", Some("10.0.1.99")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.raw);
    let a = log_in(&app, "bob", "bob's password", Some("10.0.1.1")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.raw);
    // Per address: twenty failures over many names from one address block that address.
    for i in 0..cohort_server_limits::ADDRESS {
        let a = log_in(&app, &format!("nobody{i}"), "guess", Some("10.0.2.1")).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "attempt {i}: {}", a.raw);
    }
    let a = log_in(&app, "bob", "bob's password", Some("10.0.2.1")).await;
    assert_json_error(
        &a,
        StatusCode::TOO_MANY_REQUESTS,
        &["from this address"],
        "21st from one address",
    );
    let a = log_in(&app, "bob", "bob's password", Some("10.0.2.2")).await;
    assert_eq!(a.status, StatusCode::OK, "another address: {}", a.raw);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The limits as the server has them (kept here so the test fails if they grow unnoticed).
mod cohort_server_limits {
    pub const USER: usize = 5;
    pub const ADDRESS: usize = 20;
}

#[tokio::test]
async fn session_cookie_flags_and_log_out() {
    let (dir, _, app) = open("cookies", Config::default()).await;
    let a = post(
        &app,
        "/api/account/signup",
        &[],
        Some(json!({"username": "alice", "password": "alice's password"})),
    )
    .await;
    let (cookie, set) = session_cookie(&a);
    assert!(
        cookie.starts_with("cohort_session=") && cookie.len() == "cohort_session=".len() + 32,
        "{set}"
    );
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(set.contains(flag), "{flag} missing: {set}");
    }
    assert!(
        !set.contains("Secure"),
        "plain HTTP without the flag: no Secure: {set}"
    );
    let me = get(&app, "/api/account", &[("cookie", &cookie)]).await;
    assert_eq!(me.body["username"], "alice");
    // Log-out ends the session on the server, not only in the browser.
    let out = post(&app, "/api/account/logout", &[("cookie", &cookie)], None).await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.raw);
    let (_, cleared) = session_cookie(&out);
    assert!(
        cleared.contains("Max-Age=0") && cleared.contains("HttpOnly"),
        "{cleared}"
    );
    let me = get(&app, "/api/account", &[("cookie", &cookie)]).await;
    assert!(
        me.body["username"].is_null(),
        "the old cookie is dead: {}",
        me.raw
    );
    app.store.close().await;
    // --secure-cookies: Secure always; --behind-proxy: Secure when the proxy says https.
    let (dir2, _, app) = open(
        "cookies-secure",
        Config {
            secure_cookies: true,
            ..Config::default()
        },
    )
    .await;
    let a = post(
        &app,
        "/api/account/signup",
        &[],
        Some(json!({"username": "alice", "password": "alice's password"})),
    )
    .await;
    assert!(
        session_cookie(&a).1.contains("; Secure"),
        "{}",
        session_cookie(&a).1
    );
    app.store.close().await;
    let (dir3, _, app) = open(
        "cookies-proxy",
        Config {
            behind_proxy: true,
            ..Config::default()
        },
    )
    .await;
    // (From the proxy: 127.0.0.1, `--behind-proxy` without an address.)
    let a = send(
        &app,
        "POST",
        "/api/account/signup",
        &[("x-forwarded-proto", "https")],
        Some(json!({"username": "alice", "password": "alice's password"})),
        Some("127.0.0.1"),
    )
    .await;
    assert!(session_cookie(&a).1.contains("; Secure"));
    let a = send(
        &app,
        "POST",
        "/api/account/signup",
        &[("x-forwarded-proto", "http")],
        Some(json!({"username": "bob", "password": "bob's password"})),
        Some("127.0.0.1"),
    )
    .await;
    assert!(!session_cookie(&a).1.contains("Secure"));
    app.store.close().await;
    for d in [dir, dir2, dir3] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A rated lobby game between alice (White) and bob (Black): (game id, white token, black
/// token, alice's cookie, bob's cookie).
async fn rated_game(app: &Arc<App>) -> (String, String, String, String, String) {
    let alice = signup(app, "alice", "alice's password").await;
    let bob = signup(app, "bob", "bob's password").await;
    let c = send(app, "POST", "/api/challenges", &[("cookie", &alice)],
        Some(json!({"variant": "micro-chieftain", "clock": {"minutes": 5, "increment": 3}, "colour": "white", "rated": true})), None).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.raw);
    let id = c.body["id"].as_str().unwrap().to_string();
    let tok = c.body["token"].as_str().unwrap().to_string();
    let a = post(
        app,
        &format!("/api/challenges/{id}/accept"),
        &[("cookie", &bob)],
        Some(json!({})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.raw);
    assert_eq!(a.body["seat"], "black");
    let game = a.body["game"].as_str().unwrap().to_string();
    let black = a.body["token"].as_str().unwrap().to_string();
    let s = get(app, &format!("/api/challenges/{id}?token={tok}"), &[]).await;
    assert_eq!(s.body["state"], "accepted");
    let link = s.body["link"].as_str().unwrap();
    let white = link.split("token=").nth(1).unwrap().to_string();
    (game, white, black, alice, bob)
}

#[tokio::test]
async fn another_site_cannot_act_for_a_logged_in_player() {
    let (dir, _, app) = open("csrf", Config::default()).await;
    let (game, white, _black, alice, _bob) = rated_game(&app).await;
    let before = common::get(&app, &format!("/api/games/{game}")).await;
    let legal = before["legal"][0]["text"].as_str().unwrap().to_string();
    let evil = [
        ("cookie", alice.as_str()),
        ("host", "cohort.example"),
        ("origin", "https://evil.example"),
    ];
    let fetch_cross = [
        ("cookie", alice.as_str()),
        ("host", "cohort.example"),
        ("sec-fetch-site", "cross-site"),
    ];
    let same_site = [
        ("cookie", alice.as_str()),
        ("host", "cohort.example"),
        ("sec-fetch-site", "same-site"),
    ];
    let null_origin = [
        ("cookie", alice.as_str()),
        ("host", "cohort.example"),
        ("origin", "null"),
    ];
    for headers in [
        &evil[..],
        &fetch_cross[..],
        &same_site[..],
        &null_origin[..],
    ] {
        let what = format!("{:?}", headers[2]);
        let a = post(
            &app,
            "/api/challenges",
            headers,
            Some(
                json!({"variant": "chess", "clock": {"minutes": 5, "increment": 3}, "rated": true}),
            ),
        )
        .await;
        assert_json_error(
            &a,
            StatusCode::FORBIDDEN,
            &["another site"],
            &format!("challenge {what}"),
        );
        let a = post(
            &app,
            &format!("/api/games/{game}/step"),
            headers,
            Some(json!({"token": white, "step": legal})),
        )
        .await;
        assert_json_error(
            &a,
            StatusCode::FORBIDDEN,
            &["another site"],
            &format!("step {what}"),
        );
        let a = post(
            &app,
            &format!("/api/games/{game}/resign"),
            headers,
            Some(json!({"token": white})),
        )
        .await;
        assert_json_error(
            &a,
            StatusCode::FORBIDDEN,
            &["another site"],
            &format!("resign {what}"),
        );
        let a = send(&app, "POST", "/api/account/logout", headers, None, None).await;
        assert_json_error(
            &a,
            StatusCode::FORBIDDEN,
            &["another site"],
            &format!("logout {what}"),
        );
        let a = post(
            &app,
            "/api/account/login",
            headers,
            Some(json!({"username": "bob", "password": "bob's password"})),
        )
        .await;
        assert_json_error(
            &a,
            StatusCode::FORBIDDEN,
            &["another site"],
            &format!("login {what}"),
        );
    }
    // Nothing changed: no challenge, the game as it was, alice still logged in.
    let open = common::get(&app, "/api/challenges").await;
    assert_eq!(open.as_array().unwrap().len(), 0, "{open}");
    let after = common::get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(after["version"], before["version"]);
    assert!(after["result"].is_null());
    let me = get(&app, "/api/account", &[("cookie", &alice)]).await;
    assert_eq!(me.body["username"], "alice");
    // Our own pages (same origin) act.
    let ours = [
        ("cookie", alice.as_str()),
        ("host", "cohort.example"),
        ("origin", "https://cohort.example"),
        ("sec-fetch-site", "same-origin"),
    ];
    let a = post(
        &app,
        "/api/challenges",
        &ours,
        Some(json!({"variant": "chess", "clock": {"minutes": 5, "increment": 3}, "rated": true})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.raw);
    let a = post(
        &app,
        &format!("/api/games/{game}/step"),
        &ours,
        Some(json!({"token": white, "step": legal})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.raw);
    // Behind a proxy the public host is X-Forwarded-Host; without --behind-proxy it is not
    // believed.
    let proxied = [
        ("host", "127.0.0.1:8080"),
        ("x-forwarded-host", "cohort.example"),
        ("origin", "https://cohort.example"),
    ];
    let a = post(
        &app,
        "/api/challenges",
        &proxied,
        Some(json!({"variant": "chess"})),
    )
    .await;
    assert_json_error(
        &a,
        StatusCode::FORBIDDEN,
        &["another site"],
        "X-Forwarded-Host without --behind-proxy",
    );
    let (proxy_dir, proxy_url) = common::temp_db("csrf-proxy");
    let behind = App::open_with(
        &proxy_url,
        Config {
            behind_proxy: true,
            ..Config::default()
        },
    )
    .await
    .unwrap();
    let a = send(
        &behind,
        "POST",
        "/api/challenges",
        &proxied,
        Some(json!({"variant": "chess"})),
        Some("127.0.0.1"),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "behind a proxy: {}", a.raw);
    // Not from the proxy: X-Forwarded-Host is not believed.
    let a = send(
        &behind,
        "POST",
        "/api/challenges",
        &proxied,
        Some(json!({"variant": "chess"})),
        Some("192.0.2.9"),
    )
    .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "not the proxy: {}", a.raw);
    behind.store.close().await;
    let _ = std::fs::remove_dir_all(proxy_dir);
    // Reading stays open to everyone (GET is never refused for its origin).
    let a = get(&app, &format!("/api/games/{game}"), &evil).await;
    assert_eq!(a.status, StatusCode::OK);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn no_seat_moves_without_its_token_not_even_its_logged_in_player() {
    let (dir, _, app) = open("seats", Config::default()).await;
    let (game, white, black, alice, bob) = rated_game(&app).await;
    let view = common::get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(view["accounts"]["white"], "alice");
    assert_eq!(view["accounts"]["black"], "bob");
    assert_eq!(view["rated"], true);
    // Its record names the players by their accounts, not "human".
    let record = common::get(&app, &format!("/api/games/{game}/record?format=json")).await;
    assert_eq!(
        (&record["white"], &record["black"]),
        (&json!("alice"), &json!("bob"))
    );
    let text = record["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("[White \"alice\"]") && text.contains("[Black \"bob\"]"),
        "{record}"
    );
    let legal = view["legal"][0]["text"].as_str().unwrap().to_string();
    let step = format!("/api/games/{game}/step");
    // A session is no seat: alice's cookie without the token, or with a wrong one.
    let a = post(
        &app,
        &step,
        &[("cookie", &alice)],
        Some(json!({"step": legal})),
    )
    .await;
    assert_json_error(&a, StatusCode::BAD_REQUEST, &["token"], "no token");
    let a = post(
        &app,
        &step,
        &[("cookie", &alice)],
        Some(json!({"token": "", "step": legal})),
    )
    .await;
    assert_json_error(&a, StatusCode::FORBIDDEN, &["holds no seat"], "empty token");
    let a = post(
        &app,
        &step,
        &[("cookie", &alice)],
        Some(json!({"token": "f".repeat(32), "step": legal})),
    )
    .await;
    assert_json_error(
        &a,
        StatusCode::FORBIDDEN,
        &["holds no seat"],
        "made-up token",
    );
    // Black's token is Black's: it cannot move White's units.
    let a = post(
        &app,
        &step,
        &[("cookie", &bob)],
        Some(json!({"token": black, "step": legal})),
    )
    .await;
    assert_json_error(&a, StatusCode::CONFLICT, &["White's turn"], "Black's token");
    let after = common::get(&app, &format!("/api/games/{game}")).await;
    assert_eq!(after["version"], view["version"], "nothing moved");
    // The player page gives a seat's link (its token) to that player only.
    let page = |cookie: Option<String>| {
        let app = app.clone();
        async move {
            let h: Vec<(&str, &str)> = cookie
                .as_deref()
                .map(|c| vec![("cookie", c)])
                .unwrap_or_default();
            send(&app, "GET", "/api/players/alice", &h, None, None)
                .await
                .body
        }
    };
    let own = page(Some(alice.clone())).await;
    assert_eq!(own["me"], true);
    let g = &own["playing"][0];
    assert_eq!(g["id"], game.as_str());
    assert_eq!(g["your_turn"], true);
    assert_eq!(g["link"], format!("/game/{game}?token={white}"));
    for other in [page(Some(bob.clone())).await, page(None).await] {
        assert_eq!(other["me"], false);
        assert!(other["playing"][0]["link"].is_null(), "{other}");
        assert!(
            !other.to_string().contains(&white),
            "alice's token leaked: {other}"
        );
    }
    // The right token moves.
    let a = post(
        &app,
        &step,
        &[],
        Some(json!({"token": white, "step": legal})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.raw);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn every_error_of_accounts_and_lobby_is_json() {
    let (dir, _, app) = open("errors", Config::default()).await;
    let alice = signup(&app, "alice", "alice's password").await;
    let c = post(
        &app,
        "/api/challenges",
        &[("cookie", &alice)],
        Some(json!({"variant": "chess", "clock": {"minutes": 5, "increment": 3}, "rated": true})),
    )
    .await;
    let cid = c.body["id"].as_str().unwrap().to_string();
    type Case<'a> = (
        &'a str,
        String,
        Vec<(&'a str, &'a str)>,
        Option<&'a str>,
        StatusCode,
        Vec<&'a str>,
    );
    let cases: Vec<Case> = vec![
        (
            "POST",
            "/api/account/signup".into(),
            vec![],
            Some("{not json"),
            StatusCode::BAD_REQUEST,
            vec!["malformed JSON"],
        ),
        (
            "POST",
            "/api/account/signup".into(),
            vec![],
            Some(r#"{"username": "x y z", "password": "12345678"}"#),
            StatusCode::BAD_REQUEST,
            vec!["username"],
        ),
        (
            "POST",
            "/api/account/signup".into(),
            vec![],
            Some(r#"{"username": "zed", "password": "short"}"#),
            StatusCode::BAD_REQUEST,
            vec!["password", "8"],
        ),
        (
            "POST",
            "/api/account/signup".into(),
            vec![],
            Some(r#"{"username": "ALICE", "password": "a fine password"}"#),
            StatusCode::CONFLICT,
            vec!["taken"],
        ),
        (
            "POST",
            "/api/account/signup".into(),
            vec![],
            Some(r#"{"username": "zed"}"#),
            StatusCode::BAD_REQUEST,
            vec!["missing field", "password"],
        ),
        (
            "POST",
            "/api/account/login".into(),
            vec![],
            Some(r#"{"username": "zed", "password": 5}"#),
            StatusCode::BAD_REQUEST,
            vec!["invalid type"],
        ),
        (
            "GET",
            "/api/account/login".into(),
            vec![],
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            vec!["does not take GET"],
        ),
        (
            "GET",
            "/api/players/nobody".into(),
            vec![],
            None,
            StatusCode::NOT_FOUND,
            vec!["no player"],
        ),
        (
            "POST",
            "/api/challenges".into(),
            vec![],
            Some(r#"{"variant": "chess", "rated": true}"#),
            StatusCode::UNAUTHORIZED,
            vec!["log in"],
        ),
        (
            "POST",
            "/api/challenges".into(),
            vec![],
            Some(r#"{"variant": "nope"}"#),
            StatusCode::BAD_REQUEST,
            vec!["variant", "nope"],
        ),
        (
            "POST",
            "/api/challenges".into(),
            vec![],
            Some(r#"{"variant": "chess", "clock": {"minutes": 0}}"#),
            StatusCode::BAD_REQUEST,
            vec!["clock.minutes"],
        ),
        (
            "POST",
            "/api/challenges".into(),
            vec![],
            Some(r#"{"variant": "chess", "clock": {"minutes": 1, "days": 1}}"#),
            StatusCode::BAD_REQUEST,
            vec!["not both"],
        ),
        (
            "POST",
            "/api/challenges".into(),
            vec![],
            Some(r#"{"variant": "chess", "colour": "green"}"#),
            StatusCode::BAD_REQUEST,
            vec!["colour", "green"],
        ),
        (
            "POST",
            "/api/challenges".into(),
            vec![],
            Some(r#"{"variant": "chess", "extra": 1}"#),
            StatusCode::BAD_REQUEST,
            vec!["unknown field"],
        ),
        (
            "GET",
            "/api/challenges/nothere".into(),
            vec![],
            None,
            StatusCode::NOT_FOUND,
            vec!["no challenge"],
        ),
        (
            "POST",
            format!("/api/challenges/{cid}/accept"),
            vec![],
            Some("{}"),
            StatusCode::UNAUTHORIZED,
            vec!["rated", "log in"],
        ),
        (
            "POST",
            format!("/api/challenges/{cid}/accept"),
            vec![("cookie", alice.as_str())],
            Some("{}"),
            StatusCode::CONFLICT,
            vec!["your own challenge"],
        ),
        (
            "POST",
            format!("/api/challenges/{cid}/accept"),
            vec![],
            Some("[1"),
            StatusCode::BAD_REQUEST,
            vec!["request body"],
        ),
        (
            "POST",
            format!("/api/challenges/{cid}/cancel"),
            vec![],
            Some(r#"{"token": "wrong"}"#),
            StatusCode::FORBIDDEN,
            vec!["creator"],
        ),
        (
            "POST",
            "/api/challenges/nothere/cancel".into(),
            vec![],
            Some("{}"),
            StatusCode::NOT_FOUND,
            vec!["no challenge"],
        ),
        (
            "DELETE",
            "/api/challenges".into(),
            vec![],
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            vec!["does not take DELETE"],
        ),
        (
            "POST",
            "/api/games".into(),
            vec![],
            Some(
                r#"{"variant": "chess", "white": "human", "black": "human", "clock": {"days": 99}}"#,
            ),
            StatusCode::BAD_REQUEST,
            vec!["clock.days"],
        ),
        (
            "POST",
            "/api/games".into(),
            vec![],
            Some(
                r#"{"variant": "chess", "white": "human", "black": "human", "clock": {"minutes": "1"}}"#,
            ),
            StatusCode::BAD_REQUEST,
            vec!["invalid type"],
        ),
    ];
    for (method, uri, headers, body, status, words) in cases {
        let body = body.map(|b| serde_json::from_str(b).unwrap_or(Value::String(b.into())));
        // Raw bodies that are not JSON go as they are.
        let a = match &body {
            Some(Value::String(raw)) => {
                let mut b = Request::builder()
                    .method(method)
                    .uri(&uri)
                    .header("content-type", "application/json");
                for (k, v) in &headers {
                    b = b.header(*k, *v);
                }
                let resp = router(app.clone())
                    .oneshot(b.body(Body::from(raw.clone())).unwrap())
                    .await
                    .unwrap();
                let status = resp.status();
                let h = resp.headers().clone();
                let bytes = resp.into_body().collect().await.unwrap().to_bytes();
                Answer {
                    status,
                    headers: h,
                    body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                    raw: String::from_utf8_lossy(&bytes).into(),
                }
            }
            _ => send(&app, method, &uri, &headers, body, None).await,
        };
        assert_json_error(&a, status, &words, &format!("{method} {uri}"));
    }
    // The lobby is limited per creator.
    for i in 0..3 {
        let a = send(
            &app,
            "POST",
            "/api/challenges",
            &[],
            Some(json!({"variant": "chess"})),
            Some("10.0.3.1"),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "challenge {i}: {}", a.raw);
    }
    let a = send(
        &app,
        "POST",
        "/api/challenges",
        &[],
        Some(json!({"variant": "chess"})),
        Some("10.0.3.1"),
    )
    .await;
    assert_json_error(
        &a,
        StatusCode::TOO_MANY_REQUESTS,
        &["at most 3"],
        "4th challenge",
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Sign-up refuses the passwords and names an attacker tries first: common passwords, only
/// spaces, one character repeated, the user name itself, and names that would pass for the
/// site's own (each named in the answer); a good pair is accepted.
#[tokio::test]
async fn weak_passwords_and_reserved_names_are_refused() {
    let (_dir, _url, app) = open("policy", Config::default()).await;
    let cases = [
        ("zed", "password123", "common"),
        ("zed", "PassWord123", "common"),
        ("zed", "        ", "spaces"),
        ("zed", "aaaaaaaaaaaa", "repeated"),
        ("zedekiah", "zedekiah", "user name"),
        ("zedekiah", "Zedekiah1", "user name"),
        ("admin", "a fine password", "reserved"),
        ("Root", "a fine password", "reserved"),
        ("moderator", "a fine password", "reserved"),
    ];
    for (name, password, says) in cases {
        let a = post(
            &app,
            "/api/account/signup",
            &[],
            Some(json!({"username": name, "password": password})),
        )
        .await;
        assert_eq!(
            a.status,
            StatusCode::BAD_REQUEST,
            "{name} / {password:?}: {}",
            a.raw
        );
        assert_eq!(a.body["code"], "invalid_field", "{}", a.raw);
        let error = a.body["error"].as_str().unwrap();
        assert!(error.contains(says), "{name} / {password:?}: {error}");
        assert!(
            app.store
                .user(&name.to_lowercase())
                .await
                .unwrap()
                .is_none(),
            "{name} stored"
        );
    }
    signup(&app, "zedekiah", "zedekiah plays chesimals").await;
}

/// Log-ins in a loop keep at most `MAX_SESSIONS` sessions of an account: the oldest end,
/// the newest work.
#[tokio::test]
async fn an_account_keeps_at_most_its_newest_sessions() {
    use cohort_server::accounts::MAX_SESSIONS;
    let (_dir, _url, app) = open("sessions-cap", Config::default()).await;
    let first = signup(&app, "alice", "alice's password").await;
    let mut cookies = vec![first];
    for _ in 0..MAX_SESSIONS + 4 {
        let a = log_in(&app, "alice", "alice's password", None).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.raw);
        cookies.push(session_cookie(&a).0);
        // Sessions are ordered by their creation time in milliseconds.
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    let mut live = 0;
    for (i, c) in cookies.iter().enumerate() {
        let me = send(&app, "GET", "/api/account", &[("cookie", c)], None, None).await;
        let works = me.body["username"] == "alice";
        live += works as i64;
        let newest = i >= cookies.len() - MAX_SESSIONS as usize;
        assert_eq!(
            works,
            newest,
            "session {i} of {}: {}",
            cookies.len(),
            me.raw
        );
    }
    assert_eq!(live, MAX_SESSIONS);
}

/// Who is online (issue 45): an account that asked anything within five minutes is listed
/// by `GET /api/players/online` and its player page says so; one seen earlier is not.
#[tokio::test]
async fn who_is_online() {
    let (dir, url, app) = open("online", Config::default()).await;
    let alice = signup(&app, "alice", "alice's password").await;
    signup(&app, "bob", "bob's password").await;
    let _ = get(&app, "/api/account", &[("cookie", &alice)]).await;
    // bob last asked an hour ago.
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    let hour_ago = cohort_server::store::now_ms() - 3_600_000;
    sqlx::query("UPDATE users SET seen_ms = $1 WHERE id = 'bob'")
        .bind(hour_ago)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let online = get(&app, "/api/players/online", &[]).await;
    assert_eq!(online.status, StatusCode::OK, "{}", online.raw);
    assert_eq!(online.body["online"], json!(["alice"]), "{}", online.raw);
    assert_eq!(online.body["window_s"], 300);
    let a = get(&app, "/api/players/alice", &[]).await;
    assert_eq!(a.body["online"], true, "{}", a.raw);
    let b = get(&app, "/api/players/bob", &[]).await;
    assert_eq!(b.body["online"], false, "{}", b.raw);
    assert_eq!(b.body["seen_ms"], hour_ago, "{}", b.raw);
    // "online" is no one's name.
    let taken = post(
        &app,
        "/api/account/signup",
        &[],
        Some(json!({"username": "online", "password": "a long password here"})),
    )
    .await;
    assert_eq!(taken.status, StatusCode::BAD_REQUEST, "{}", taken.raw);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
