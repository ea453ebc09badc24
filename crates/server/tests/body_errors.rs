//! The guard tells a request body's failures apart by their type (guard.rs): a body over its
//! route's limit, however it arrives, is 413 `too_large`; a body whose stream breaks is 400
//! `bad_json` ("unreadable request body"), even when the break's words speak of a length
//! limit; a body read whole that is not JSON is 400 `bad_json` from the route.

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use cohort_server::App;
use futures_util::stream;
use serde_json::json;

use crate::common;
use common::*;

/// A body sent in chunks without a Content-Length: only reading it finds its size.
fn streamed(chunks: Vec<Result<Bytes, std::io::Error>>) -> Body {
    Body::from_stream(stream::iter(chunks))
}

#[tokio::test(flavor = "multi_thread")]
async fn body_failures_get_their_own_codes() {
    let (dir, url) = temp_db("body-errors");
    let app = App::open(&url).await.unwrap();
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "chesimals-1", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let step_uri = format!("/api/games/{}/step", created["id"].as_str().unwrap());

    // 20 chunks of 1 KiB, past the route's 16 KiB: the limit's own error type.
    let big = (0..20).map(|_| Ok(Bytes::from(vec![b' '; 1024]))).collect();
    let (s, v) = call(&app, "POST", &step_uri, streamed(big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert_eq!(v["code"], "too_large", "{v}");
    assert_eq!(v["error"], "request body over 16384 bytes", "{v}");

    // A stream that breaks, with words a text match would take for the limit: unreadable.
    let broken = vec![
        Ok(Bytes::from_static(b"{\"token\": ")),
        Err(std::io::Error::other("length limit exceeded")),
    ];
    let (s, v) = call(&app, "POST", &step_uri, streamed(broken)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_json", "{v}");
    assert_eq!(
        v["error"], "unreadable request body: length limit exceeded",
        "{v}"
    );

    // Read whole, but not JSON: the route's refusal, with its own sentence.
    let (s, v) = call(&app, "POST", &step_uri, Body::from("{not json")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_json", "{v}");
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("malformed JSON body: ")),
        "{v}"
    );
    drop(app);
    let _ = std::fs::remove_dir_all(dir);
}
