//! Helpers shared by the API test files: requests through the router (no socket) and a
//! temporary SQLite database.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cohort_server::{router, App};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

pub async fn call(
    app: &std::sync::Arc<App>,
    method: &str,
    uri: &str,
    body: Body,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body)
        .unwrap();
    let resp = router(app.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, v)
}

pub async fn post(app: &std::sync::Arc<App>, uri: &str, v: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Body::from(v.to_string())).await
}

pub async fn get(app: &std::sync::Arc<App>, uri: &str) -> Value {
    let (s, v) = call(app, "GET", uri, Body::empty()).await;
    assert_eq!(s, StatusCode::OK, "GET {uri}: {v}");
    v
}

/// A fresh directory and the URL of a SQLite database in it, named after the test.
pub fn temp_db(tag: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("cohort-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("games.db").display());
    (dir, url)
}

/// The PostgreSQL server a PostgreSQL test runs against: the URL in COHORT_TEST_POSTGRES
/// (`scripts/postgres-up` prints one; `scripts/test` sets it). Without it the test fails,
/// naming itself, unless the caller asked to skip with COHORT_SKIP_POSTGRES=1: then it says
/// so on standard error and the test returns None (and passes without having run).
pub fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("COHORT_TEST_POSTGRES") {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ if std::env::var("COHORT_SKIP_POSTGRES").as_deref() == Ok("1") => {
            eprintln!("{test}: skipped (COHORT_SKIP_POSTGRES=1): it did not run on PostgreSQL");
            None
        }
        _ => panic!(
            "{test}: COHORT_TEST_POSTGRES is not set: set it to a PostgreSQL URL \
             (scripts/postgres-up starts a server and prints one), or set \
             COHORT_SKIP_POSTGRES=1 to skip the PostgreSQL tests on purpose"
        ),
    }
}
