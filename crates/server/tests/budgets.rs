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
