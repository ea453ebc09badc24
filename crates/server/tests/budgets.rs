//! Budgets and caps per address as well as per account (docs/server.md, "Security";
//! issue 47, items 4, 7 and 10): ten accounts on one address share one analysis budget,
//! analyses that cost nothing are limited in number, and budgets hold against requests
//! sent at once (SQLite and PostgreSQL).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use cohort_server::{router, App, Config};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::common::*;

/// A request through the router as if from `ip` (a connection's address), with a session
/// `cookie` ("" for none): its status, body and the session cookie it set ("" for none).
pub(crate) async fn from(
    app: &Arc<App>,
    ip: &str,
    cookie: &str,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value, String) {
    let addr: SocketAddr = format!("{ip}:40000").parse().unwrap();
    let mut b = Request::builder()
        .method(method)
        .uri(uri)
        .extension(ConnectInfo(addr));
    if !cookie.is_empty() {
        b = b.header("cookie", cookie);
    }
    if body.is_some() {
        b = b.header("content-type", "application/json");
    }
    let req = b
        .body(body.map_or_else(Body::empty, |v| Body::from(v.to_string())))
        .unwrap();
    let resp = router(app.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let set = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or("")
        .to_string();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        set,
    )
}

/// Sign `name` up from `ip`: its session cookie.
pub(crate) async fn account(app: &Arc<App>, ip: &str, name: &str) -> String {
    let (s, v, cookie) = from(
        app,
        ip,
        "",
        "POST",
        "/api/account/signup",
        Some(json!({"username": name, "password": format!("{name}'s long password")})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "sign-up {name}: {v}");
    assert!(!cookie.is_empty());
    cookie
}

fn limited(v: &Value) -> bool {
    v["code"] == "limit_reached"
}

#[tokio::test]
async fn ten_accounts_on_one_address_get_one_analysis_budget_between_them() {
    let (_dir, url) = temp_db("budgets-accounts");
    let config = Config {
        analysis_ms_per_hour: 1000,
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    let one = json!({"variant": "chess", "ms": 600});
    let mut accepted = 0;
    let mut refusal = Value::Null;
    for i in 0..10 {
        let cookie = account(&app, "203.0.113.7", &format!("sock{i}")).await;
        let (s, v, _) = from(
            &app,
            "203.0.113.7",
            &cookie,
            "POST",
            "/api/analysis",
            Some(one.clone()),
        )
        .await;
        match s {
            StatusCode::OK => accepted += 1,
            StatusCode::TOO_MANY_REQUESTS if limited(&v) => refusal = v,
            _ => panic!("account {i}: {s} {v}"),
        }
    }
    println!(
        "ten accounts on one address: {accepted} of 10 analyses of 0.6 s accepted on a 1 s budget"
    );
    assert_eq!(accepted, 1, "{refusal}");
    let error = refusal["error"].as_str().unwrap();
    assert!(
        error.contains("your address (all its accounts together) has 0.4 s left"),
        "{error}"
    );
    assert!(
        error.contains("enough frees in 59 min") || error.contains("enough frees in 60 min"),
        "{error}"
    );
    assert_eq!(refusal["left_ms"], 400, "{refusal}");
    assert!(
        refusal["retry_after_s"].as_i64().unwrap() > 3500,
        "{refusal}"
    );
    // Another address has its own budget, and so has its account.
    let other = account(&app, "198.51.100.9", "elsewhere").await;
    let (s, v, _) = from(
        &app,
        "198.51.100.9",
        &other,
        "POST",
        "/api/analysis",
        Some(one.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The account's own budget still counts on its own: spent from one address, it is
    // spent from any.
    let (s, v, _) = from(
        &app,
        "198.51.100.10",
        &other,
        "POST",
        "/api/analysis",
        Some(one),
    )
    .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("you have 0.4 s left"),
        "{v}"
    );
    app.store.close().await;
}

#[tokio::test]
async fn analyses_that_cost_nothing_are_limited_in_number() {
    let (_dir, url) = temp_db("budgets-free");
    let config = Config {
        analyses_per_hour: 5,
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    let id = crate::analysis::fools_mate(&app).await;
    // The final position: mate, nothing to search, no cost.
    let free = json!({"game": id, "at": 5});
    let (mut accepted, mut refused) = (0, Value::Null);
    for _ in 0..20 {
        let (s, v, _) = from(
            &app,
            "203.0.113.7",
            "",
            "POST",
            "/api/analysis",
            Some(free.clone()),
        )
        .await;
        match s {
            StatusCode::OK => {
                assert_eq!(v["cost_ms"], 0, "{v}");
                accepted += 1
            }
            StatusCode::TOO_MANY_REQUESTS if limited(&v) => refused = v,
            _ => panic!("{s} {v}"),
        }
    }
    println!("20 analyses of a finished position at once: {accepted} accepted (limit 5 an hour)");
    assert_eq!(accepted, 5, "{refused}");
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.contains("started 5 analyses in the last hour"),
        "{error}"
    );
    assert!(
        refused["retry_after_s"].as_i64().unwrap() > 3500,
        "{refused}"
    );
    // An account on that address is refused too (the address started them); elsewhere the
    // account starts its own.
    let cookie = account(&app, "203.0.113.7", "hopper").await;
    let (s, v, _) = from(
        &app,
        "203.0.113.7",
        &cookie,
        "POST",
        "/api/analysis",
        Some(free.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let (s, v, _) = from(
        &app,
        "198.51.100.9",
        &cookie,
        "POST",
        "/api/analysis",
        Some(free),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    app.store.close().await;
}

/// 16 analyses of 0.6 s sent at once on a budget of 1 s: exactly one is accepted.
async fn sixteen_at_once(url: String) {
    let config = Config {
        analysis_ms_per_hour: 1000,
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move {
                post(
                    &app,
                    "/api/analysis",
                    json!({"variant": "chess", "ms": 600}),
                )
                .await
            })
        })
        .collect();
    let mut accepted = 0;
    for t in tasks {
        let (s, v) = t.await.unwrap();
        match s {
            StatusCode::OK => accepted += 1,
            StatusCode::TOO_MANY_REQUESTS if limited(&v) => {}
            _ => panic!("{s} {v}"),
        }
    }
    println!("16 analyses of 0.6 s at once on a 1 s budget ({url}): {accepted} accepted");
    assert_eq!(accepted, 1);
    app.store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_analyses_at_once_get_one_budget_on_sqlite() {
    let (_dir, url) = temp_db("budgets-at-once");
    sixteen_at_once(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_analyses_at_once_get_one_budget_on_postgres() {
    let Some(url) = postgres_url("sixteen_analyses_at_once_get_one_budget_on_postgres") else {
        return;
    };
    with_fresh_database(&url, "cohort_budgets_", sixteen_at_once).await;
}

/// 16 chat lines of one poster stored at once: exactly the burst limit (5) is accepted.
async fn chat_lines_at_once(url: String) {
    use cohort_server::chat::{ChatLine, BURST_LINES};
    let app = App::open_with(&url, Config::default()).await.unwrap();
    // Readers at once first, so that the pool holds several connections (on PostgreSQL)
    // and the posts below really run side by side.
    let readers: Vec<_> = (0..8)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move { app.store.chat_lines("lobby", 1).await.unwrap() })
        })
        .collect();
    for r in readers {
        r.await.unwrap();
    }
    let now = cohort_server::store::now_ms();
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let app = app.clone();
            let line = ChatLine {
                id: format!("line{i}"),
                room: "lobby".into(),
                poster: "user:flood".into(),
                by: Some("flood".into()),
                seat: None,
                text: format!("line {i}"),
                at_ms: now,
                address: "192.0.2.1".into(),
            };
            tokio::spawn(async move { app.store.add_chat_line(&line).await.unwrap().is_ok() })
        })
        .collect();
    let mut accepted = 0;
    for t in tasks {
        accepted += t.await.unwrap() as i64;
    }
    println!("16 chat lines at once ({url}): {accepted} accepted (limit {BURST_LINES})");
    assert_eq!(accepted, BURST_LINES);
    app.store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_chat_lines_at_once_get_the_limit_on_sqlite() {
    let (_dir, url) = temp_db("budgets-chat-at-once");
    chat_lines_at_once(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_chat_lines_at_once_get_the_limit_on_postgres() {
    let Some(url) = postgres_url("sixteen_chat_lines_at_once_get_the_limit_on_postgres") else {
        return;
    };
    with_fresh_database(&url, "cohort_budgets_", chat_lines_at_once).await;
}

const TINY: &str = "[tiny]
base = mini-chieftain
name = Tiny Chieftain
board = 6x6
setup = 1ccm2/6/6/6/6/2CMC1 w
";

/// Ten accounts on one address create games of each capped kind: together they get the
/// address's share (a quarter of the cap), not ten shares.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shares_of_the_caps_are_per_address_whatever_the_accounts() {
    let (_dir, url) = temp_db("budgets-shares");
    let config = Config {
        ai_workers: 1,
        max_ai_games: 4,
        max_custom_games: 8,
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    // Searches of 2 s: no game ends (and gives its slot back) while the test runs (random
    // play at 50 ms could finish one during the ten sign-ups on a loaded machine).
    let ai = json!({"variant": "micro-chieftain", "white": "ai", "black": "ai",
                    "ai": {"agent": "engine", "time_ms": 2000}});
    let custom =
        json!({"variant": "tiny", "variant_text": TINY, "white": "human", "black": "human"});
    let (mut ai_games, mut custom_games) = (0, 0);
    for i in 0..10 {
        let cookie = account(&app, "203.0.113.7", &format!("many{i}")).await;
        let (s, v, _) = from(
            &app,
            "203.0.113.7",
            &cookie,
            "POST",
            "/api/games",
            Some(ai.clone()),
        )
        .await;
        match s {
            StatusCode::OK => ai_games += 1,
            _ => assert!(limited(&v), "{s} {v}"),
        }
        let (s, v, _) = from(
            &app,
            "203.0.113.7",
            &cookie,
            "POST",
            "/api/games",
            Some(custom.clone()),
        )
        .await;
        match s {
            StatusCode::OK => custom_games += 1,
            _ => assert!(limited(&v), "{s} {v}"),
        }
    }
    println!("ten accounts on one address: {ai_games} AI-against-AI games (cap 4), {custom_games} custom-variant games (cap 8)");
    assert_eq!((ai_games, custom_games), (1, 2));
    // Another address gets its share.
    let (s, v, _) = from(&app, "198.51.100.9", "", "POST", "/api/games", Some(custom)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    app.store.close().await;
}

/// Ten accounts on one address post challenges: three are open at most from the address;
/// an account elsewhere posts its own.
#[tokio::test]
async fn open_challenges_are_capped_per_address() {
    let (_dir, url) = temp_db("budgets-challenges");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let challenge = json!({"variant": "chess"});
    let mut open = 0;
    let mut refusal = Value::Null;
    for i in 0..10 {
        let cookie = account(&app, "203.0.113.7", &format!("poster{i}")).await;
        let (s, v, _) = from(
            &app,
            "203.0.113.7",
            &cookie,
            "POST",
            "/api/challenges",
            Some(challenge.clone()),
        )
        .await;
        match s {
            StatusCode::OK => open += 1,
            _ if limited(&v) => refusal = v,
            _ => panic!("{s} {v}"),
        }
    }
    println!("ten accounts on one address: {open} open challenges posted");
    assert_eq!(open, 3, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .unwrap()
            .contains("from one address"),
        "{refusal}"
    );
    // A visitor on that address is refused as well; another address is not.
    let (s, _, _) = from(
        &app,
        "203.0.113.7",
        "",
        "POST",
        "/api/challenges",
        Some(challenge.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    let (s, v, _) = from(
        &app,
        "198.51.100.9",
        "",
        "POST",
        "/api/challenges",
        Some(challenge),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    app.store.close().await;
}

async fn log_in(
    app: &Arc<App>,
    ip: &str,
    cookie: &str,
    name: &str,
    password: &str,
) -> (StatusCode, Value) {
    let (s, v, _) = from(
        app,
        ip,
        cookie,
        "POST",
        "/api/account/login",
        Some(json!({"username": name, "password": password})),
    )
    .await;
    (s, v)
}

/// 40 addresses guess 6 times each at one account: past the ceiling (10 failures) the
/// guesses wait, so few are checked at all; the owner's right password from its own
/// address (or a browser with its session) still works at once.
#[tokio::test]
async fn guesses_from_many_addresses_are_slowed_but_the_owner_gets_in() {
    use cohort_server::login_guard::ACCOUNT_FAILURES;
    let (_dir, url) = temp_db("budgets-guesses");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let cookie = account(&app, "203.0.113.7", "alice").await;
    let (mut wrong, mut slowed) = (0, 0);
    for a in 0..40 {
        for g in 0..6 {
            let (s, v) = log_in(
                &app,
                &format!("198.51.100.{a}"),
                "",
                "alice",
                &format!("guess {a} {g}"),
            )
            .await;
            match s {
                StatusCode::UNAUTHORIZED => wrong += 1,
                StatusCode::TOO_MANY_REQUESTS => slowed += 1,
                _ => panic!("{s} {v}"),
            }
        }
    }
    println!(
        "40 addresses x 6 guesses at one account: {wrong} checked (401), {slowed} refused (429)"
    );
    // A guess let through once the wait (1 s, then 2 s...) has passed, at most a few.
    assert!(
        (ACCOUNT_FAILURES..=ACCOUNT_FAILURES + 3).contains(&wrong),
        "{wrong} checked"
    );
    // From an address it never logged in from, even the owner waits now...
    let (s, v) = log_in(&app, "192.0.2.50", "", "alice", "alice's long password").await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("many addresses"),
        "{v}"
    );
    // ...but from its own address, or with its session, at once.
    let (s, v) = log_in(&app, "203.0.113.7", "", "alice", "alice's long password").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = log_in(
        &app,
        "192.0.2.51",
        &cookie,
        "alice",
        "alice's long password",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    app.store.close().await;
}

/// Successful log-ins of one account from one address: ten in ten minutes, then 429; the
/// owner's log-in from elsewhere is not held up.
#[tokio::test]
async fn successful_log_ins_are_limited_per_account_and_address() {
    use cohort_server::login_guard::LOGINS_PER_ADDRESS;
    let (_dir, url) = temp_db("budgets-logins");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    account(&app, "203.0.113.7", "bob").await;
    let mut ok = 0;
    let mut refusal = Value::Null;
    for _ in 0..LOGINS_PER_ADDRESS + 5 {
        let (s, v) = log_in(&app, "198.51.100.1", "", "bob", "bob's long password").await;
        match s {
            StatusCode::OK => ok += 1,
            StatusCode::TOO_MANY_REQUESTS => refusal = v,
            _ => panic!("{s} {v}"),
        }
    }
    println!(
        "{} log-ins of one account from one address: {ok} accepted",
        LOGINS_PER_ADDRESS + 5
    );
    assert_eq!(ok, LOGINS_PER_ADDRESS, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .unwrap()
            .contains("log-ins to this account from this address"),
        "{refusal}"
    );
    let (s, v) = log_in(&app, "203.0.113.7", "", "bob", "bob's long password").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    app.store.close().await;
}

/// An anonymous correspondence challenge accepted two hours after its creator last looked,
/// and read by the creator more than an hour after that: the creator gets the seat link.
#[tokio::test]
async fn a_correspondence_creator_who_comes_back_later_gets_the_game() {
    use cohort_server::challenges::{Caps, Challenge};
    use cohort_server::clock::TimeControl;
    use cohort_server::store::now_ms;
    let (_dir, url) = temp_db("budgets-corr");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let posted = now_ms() - 2 * 3_600_000;
    let c = Challenge {
        id: "corr000001".into(),
        secret: "0123456789abcdef0123456789abcdef".into(),
        owner: "ip:203.0.113.7".into(),
        address: "ip:203.0.113.7".into(),
        variant: "chess".into(),
        control: TimeControl::Correspondence {
            per_turn_ms: 86_400_000,
        },
        colour: "white".into(),
        created_ms: posted,
        seen_ms: posted,
        ..Challenge::default()
    };
    let caps = Caps {
        open: 10,
        each: 3,
        here: 3,
    };
    assert!(app.store.add_challenge(&c, caps).await.unwrap().is_ok());
    let (s, v, _) = from(
        &app,
        "198.51.100.9",
        "",
        "POST",
        "/api/challenges/corr000001/accept",
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The lobby is read (its reading deletes what is no longer kept), now and 61 minutes on.
    for later in [0, 61 * 60_000] {
        app.store.open_challenges(now_ms() + later).await.unwrap();
    }
    let (s, v, _) = from(
        &app,
        "203.0.113.7",
        "",
        "GET",
        &format!("/api/challenges/corr000001?token={}", c.secret),
        None,
    )
    .await;
    println!("the creator, back after an hour: {s} {}", v["state"]);
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["state"], "accepted", "{v}");
    assert!(
        v["link"]
            .as_str()
            .unwrap()
            .contains(v["game"].as_str().unwrap()),
        "{v}"
    );
    app.store.close().await;
}

/// With `--public-origin`, a request for another host is refused 421 (behind the proxy,
/// the host it forwards); the public host and loopback names pass. Without it, any host.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_is_checked_when_the_public_origin_is_set() {
    let s = Server::start(
        "budgets-host",
        Config {
            public_origin: Some("https://cohort.example.org".into()),
            behind_proxy: true,
            ..Config::default()
        },
    )
    .await;
    let with = |k: &'static str, v: &'static str| [(k, v)];
    let r = s.get("/api/variants", &with("Host", "evil.example")).await;
    println!("Host: evil.example with --public-origin: {}", r.status);
    assert_eq!(r.status, 421, "{}", r.raw);
    assert_eq!(r.body["code"], "wrong_host", "{}", r.raw);
    let r = s
        .get("/api/variants", &with("Host", "cohort.example.org"))
        .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // On the machine itself (the test's own Host: 127.0.0.1:port).
    let r = s.get("/api/variants", &[]).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // Behind the proxy (127.0.0.1 here), the host it was asked for.
    let r = s
        .get("/api/variants", &with("X-Forwarded-Host", "evil.example"))
        .await;
    assert_eq!(r.status, 421, "{}", r.raw);
    let r = s
        .get(
            "/api/variants",
            &with("X-Forwarded-Host", "cohort.example.org"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    s.stop().await;
    let s = Server::start("budgets-host-local", Config::default()).await;
    let r = s.get("/api/variants", &with("Host", "evil.example")).await;
    assert_eq!(r.status, 200, "no --public-origin, no check: {}", r.raw);
    s.stop().await;
}

/// Custom-variant games without a clock in which nothing happens hold no place in the
/// caps after `idle_game_release` (here 1 s): adjourned, still there to be played on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_without_a_clock_give_their_place_in_the_caps_back() {
    let (_dir, url) = temp_db("budgets-idle");
    let config = Config {
        max_custom_games: 8,
        idle_game_release: std::time::Duration::from_millis(1000),
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    let custom =
        json!({"variant": "tiny", "variant_text": TINY, "white": "human", "black": "human"});
    let mut held = vec![];
    for _ in 0..2 {
        let (s, v, _) = from(
            &app,
            "203.0.113.7",
            "",
            "POST",
            "/api/games",
            Some(custom.clone()),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        held.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v, _) = from(
        &app,
        "203.0.113.7",
        "",
        "POST",
        "/api/games",
        Some(custom.clone()),
    )
    .await;
    assert_eq!(
        s,
        StatusCode::TOO_MANY_REQUESTS,
        "the share (2) is held: {v}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let (s, v, _) = from(&app, "203.0.113.7", "", "POST", "/api/games", Some(custom)).await;
    println!("after 1.3 s without a step, a third custom game: {s}");
    assert_eq!(s, StatusCode::OK, "the idle games are adjourned: {v}");
    // The adjourned games are still there, not finished.
    let v = get(&app, &format!("/api/games/{}", held[0])).await;
    assert!(v["result"].is_null(), "{v}");
    app.store.close().await;
}
