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
