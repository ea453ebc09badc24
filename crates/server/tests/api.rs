//! The HTTP API of docs/server.md through the router (no socket): seats and tokens, bad
//! input answered with an error and no change, undo inside a turn, the AI's reply, and a
//! restart that resumes the game from storage.

use cohort_rules::Rules;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cohort_server::{router, App};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::common;
use common::*;

#[tokio::test(flavor = "multi_thread")]
async fn seats_bad_input_and_undo() {
    let (dir, url) = temp_db("seats");
    let app = App::open(&url).await.unwrap();
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "chesimals-1", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let black = created["tokens"]["black"].as_str().unwrap().to_string();
    assert_ne!(white, black);
    let step_uri = format!("/api/games/{id}/step");
    let before = get(&app, &format!("/api/games/{id}")).await;

    // Every kind of bad request: an error message, and the game unchanged.
    // (body, status, code, reason of an illegal step)
    let bad: Vec<(Value, StatusCode, &str, Option<&str>)> = vec![
        (
            json!({"token": black, "step": "c2-c4"}),
            StatusCode::CONFLICT,
            "not_your_turn",
            None,
        ), // Black's token, White's turn
        (
            json!({"token": "0".repeat(32), "step": "c2-c4"}),
            StatusCode::FORBIDDEN,
            "forbidden",
            None,
        ),
        (
            json!({"token": white, "step": "c2-c9"}),
            StatusCode::BAD_REQUEST,
            "illegal_step",
            Some("cannot_reach"),
        ), // illegal
        (
            json!({"token": white, "step": "b11-b10"}),
            StatusCode::BAD_REQUEST,
            "illegal_step",
            Some("not_your_unit"),
        ), // Black's unit
        (
            json!({"token": white, "step": "hello"}),
            StatusCode::BAD_REQUEST,
            "bad_step",
            None,
        ),
        (
            json!({"token": white}),
            StatusCode::BAD_REQUEST,
            "bad_request",
            None,
        ),
        (
            json!({"token": white, "step": "end"}),
            StatusCode::BAD_REQUEST,
            "illegal_step",
            Some("end_too_early"),
        ), // end before a move
    ];
    for (body, status, code, reason) in bad {
        let (s, v) = post(&app, &step_uri, body.clone()).await;
        assert_eq!(s, status, "{body} -> {v}");
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}: {v}"
        );
        assert_eq!(v["code"], code, "{body}: {v}");
        assert_eq!(v["reason"].as_str(), reason, "{body}: {v}");
    }
    let (s, v) = call(&app, "POST", &step_uri, Body::from("{not json")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_json", "{v}");
    let (s, v) = call(&app, "POST", &step_uri, Body::from(vec![b' '; 100_000])).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(v["code"], "too_large", "{v}");
    let (s, v) = post(
        &app,
        "/api/games/nosuchgame/step",
        json!({"token": white, "step": "c2-c4"}),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, v) = post(
        &app,
        "/api/games",
        json!({"variant": "nope", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let after = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(before, after, "bad requests changed the game");

    // A legal multi-unit turn, with an undo inside it.
    let legal = after["legal"].as_array().unwrap().clone();
    let first = legal[0]["text"].as_str().unwrap().to_string();
    let (s, v) = post(&app, &step_uri, json!({"token": white, "step": first})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["turn_steps"], json!([first]));
    assert_eq!(v["seat"], "white");
    let second = v["legal"][0]["text"].as_str().unwrap().to_string();
    let (_, v) = post(&app, &step_uri, json!({"token": white, "step": second})).await;
    assert_eq!(v["turn_steps"].as_array().unwrap().len(), 2);
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/undo"),
        json!({"token": white}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["turn_steps"], json!([first]));
    let (s, v) = post(&app, &step_uri, json!({"token": white, "step": "end"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["turns"][0]["steps"], json!([first, "end"]));
    // White can no longer undo (the turn is over), nor move.
    let (s, _) = post(
        &app,
        &format!("/api/games/{id}/undo"),
        json!({"token": white}),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT);

    // Draw offer and acceptance end the game; afterwards no step is taken.
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/draw"),
        json!({"token": black, "action": "offer"}),
    )
    .await;
    assert_eq!(
        (s, v["draw_offer"].clone()),
        (StatusCode::OK, json!("black"))
    );
    let (s, _) = post(
        &app,
        &format!("/api/games/{id}/draw"),
        json!({"token": black, "action": "accept"}),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "one cannot accept one's own offer");
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/draw"),
        json!({"token": white, "action": "accept"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["result"]["reason"], "agreement");
    assert_eq!(
        v["movable"],
        json!([]),
        "nothing may move once the game is over"
    );
    let (s, _) = post(&app, &step_uri, json!({"token": black, "step": "end"})).await;
    assert_eq!(s, StatusCode::CONFLICT);

    // The record, and a restart from storage that finds the same game.
    let (s, record) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/record?format=json"),
        Body::empty(),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(record["turns"], json!([[first]]));
    assert_eq!(record["result"], "1/2-1/2");
    // The default is the text record of docs/records.md, which replays to the same game.
    let resp = router(app.clone())
        .oneshot(
            Request::builder()
                .uri(format!("/api/games/{id}/record"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert_eq!(record["text"], json!(text));
    assert!(text.contains(&format!("\n1. {first}\n1/2-1/2\n")), "{text}");
    assert!(
        text.contains("[Result \"1/2-1/2\"]") && text.contains("[Termination \"agreement\"]"),
        "{text}"
    );
    let parsed = cohort_engine::record::Record::parse(&text).unwrap();
    let replayed = parsed.replay(&parsed.variant(None).unwrap()).unwrap();
    assert_eq!(
        replayed.game.position().to_text(),
        record_position(&app, &id).await
    );
    let (s, e) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/record?format=pgn"),
        Body::empty(),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().contains("format"), "{e}");
    let final_view = get(&app, &format!("/api/games/{id}")).await;
    app.store.close().await;
    let reopened = App::open(&url).await.unwrap();
    let again = get(&reopened, &format!("/api/games/{id}")).await;
    assert_eq!(again, final_view);
    // Replay: the position after the first step, replayed as heavy work (off the async
    // workers, issue 47: `?at=` replays held a worker up to 114 ms).
    assert_eq!(reopened.heavy_peak(), 0, "no heavy work yet");
    let at1 = get(&reopened, &format!("/api/games/{id}?at=1")).await;
    assert_eq!(at1["replay"]["step"], json!(first));
    assert_eq!(at1["turn_steps"], json!([first]));
    assert_eq!(reopened.heavy_peak(), 1, "the replay ran as heavy work");
    reopened.store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ai_replies_and_resumes_after_restart() {
    let (dir, url) = temp_db("ai");
    let app = App::open(&url).await.unwrap();
    let (_, created) = post(&app, "/api/games", json!({"variant": "mini-chieftain", "white": "human", "black": "ai", "ai": {"agent": "engine", "time_ms": 100}})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    assert!(
        created["tokens"]["black"].is_null(),
        "an AI seat has no token"
    );
    post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": white, "step": "d2-d3"}),
    )
    .await;
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": white, "step": "end"}),
    )
    .await;
    assert_eq!((s, v["to_move"].clone()), (StatusCode::OK, json!("black")));
    let mut view = Value::Null;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        view = get(&app, &format!("/api/games/{id}")).await;
        if view["to_move"] == "white" && !view["ai_thinking"].as_bool().unwrap() {
            break;
        }
    }
    assert_eq!(view["to_move"], "white", "the AI did not reply: {view}");
    let turns = view["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[1]["side"], "black");
    assert_eq!(turns[1]["steps"].as_array().unwrap().last().unwrap(), "end");
    // Two AI seats: the AI plays one turn after the other by itself.
    let (_, both) = post(&app, "/api/games", json!({"variant": "chesimals-1", "white": "ai", "black": "ai", "ai": {"agent": "random", "time_ms": 50}})).await;
    let both_id = both["id"].as_str().unwrap().to_string();
    let mut turns = 0;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        turns = get(&app, &format!("/api/games/{both_id}")).await["turns"]
            .as_array()
            .unwrap()
            .len();
        if turns >= 4 {
            break;
        }
    }
    assert!(turns >= 4, "AI against AI stopped after {turns} turns");
    app.store.close().await;
    let reopened = App::open(&url).await.unwrap();
    let again = get(&reopened, &format!("/api/games/{id}")).await;
    assert_eq!(again["position"], view["position"]);
    reopened.store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Regression: the captured lists were always empty (the view filtered the units on the
/// board for the ones that are not).
#[tokio::test(flavor = "multi_thread")]
async fn captured_units_are_listed() {
    let (dir, url) = temp_db("captured");
    let app = App::open(&url).await.unwrap();
    // mini-Chieftain: a White Man on d4 next to a Black Man on e5.
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "human",
               "position": "hnsccsnh/mmmm1mmm/8/4m3/3M4/8/MMM1MMMM/HNSCCSNH w"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let before = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(before["captured"]["black"], json!([]));
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": white, "step": "d4xe5"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let after = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(
        after["captured"]["black"],
        json!(["m"]),
        "{}",
        after["captured"]
    );
    assert_eq!(after["captured"]["white"], json!([]));
    let _ = std::fs::remove_dir_all(dir);
}

/// A request as raw as a client can send it: status, content type and body text.
async fn raw_call(
    app: &std::sync::Arc<App>,
    method: &str,
    uri: &str,
    body: &str,
) -> (StatusCode, String, String) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = router(app.clone()).oneshot(req).await.unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn every_api_error_is_a_json_error_body() {
    let (dir, url) = temp_db("errors");
    let app = App::open(&url).await.unwrap();
    let (_, created) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "human"}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let before = get(&app, &format!("/api/games/{id}")).await;
    let step = format!("/api/games/{id}/step");
    let ok_step = json!({"token": white, "step": "d2-d3"}).to_string();
    // (method, path, body, status, code, words the message must contain)
    let cases: Vec<(&str, String, String, StatusCode, &str, Vec<&str>)> = vec![
        // Query strings of the wrong type.
        ("GET", format!("/api/games/{id}?at=abc"), String::new(), StatusCode::BAD_REQUEST, "bad_request", vec!["query", "at"]),
        ("GET", format!("/api/games/{id}?at=-1"), String::new(), StatusCode::BAD_REQUEST, "bad_request", vec!["query", "at"]),
        ("GET", format!("/api/games/{id}?at="), String::new(), StatusCode::BAD_REQUEST, "bad_request", vec!["query", "at"]),
        ("GET", format!("/api/games/{id}?at=99"), String::new(), StatusCode::BAD_REQUEST, "invalid_field", vec!["at", "steps"]),
        // Paths that do not decode.
        ("GET", "/api/games/%FF".into(), String::new(), StatusCode::BAD_REQUEST, "bad_request", vec!["path"]),
        ("GET", "/api/games/%FF/record".into(), String::new(), StatusCode::BAD_REQUEST, "bad_request", vec!["path"]),
        ("POST", "/api/games/%FF/step".into(), ok_step.clone(), StatusCode::BAD_REQUEST, "bad_request", vec!["path"]),
        // JSON bodies: malformed, wrong types, missing and unknown fields.
        ("POST", step.clone(), "{not json".into(), StatusCode::BAD_REQUEST, "bad_json", vec!["malformed JSON"]),
        ("POST", step.clone(), String::new(), StatusCode::BAD_REQUEST, "bad_json", vec!["JSON"]),
        ("POST", step.clone(), "[1, 2]".into(), StatusCode::BAD_REQUEST, "bad_request", vec!["body"]),
        ("POST", step.clone(), json!({"token": 5, "step": "d2-d3"}).to_string(), StatusCode::BAD_REQUEST, "bad_request", vec!["invalid type"]),
        ("POST", step.clone(), json!({"step": "d2-d3"}).to_string(), StatusCode::BAD_REQUEST, "bad_request", vec!["missing field", "token"]),
        ("POST", step.clone(), json!({"token": white, "step": "d2-d3", "x": 1}).to_string(), StatusCode::BAD_REQUEST, "bad_request", vec!["unknown field", "x"]),
        ("POST", format!("/api/games/{id}/draw"), json!({"token": white, "action": 3}).to_string(), StatusCode::BAD_REQUEST, "bad_request", vec!["invalid type"]),
        ("POST", "/api/games".into(), json!({"variant": 5, "white": "human", "black": "human"}).to_string(), StatusCode::BAD_REQUEST, "bad_request", vec!["invalid type"]),
        ("POST", "/api/games".into(), json!({"white": "human", "black": "human"}).to_string(), StatusCode::BAD_REQUEST, "bad_request", vec!["missing field", "variant"]),
        ("POST", "/api/games".into(), json!({"variant": "chess", "white": "human", "black": "ai", "ai": {"agent": "engine", "time_ms": "fast"}}).to_string(), StatusCode::BAD_REQUEST, "bad_request", vec!["invalid type"]),
        // Routes that do not exist, and methods a route does not take.
        ("GET", "/api/nope".into(), String::new(), StatusCode::NOT_FOUND, "not_found", vec!["/api/nope"]),
        ("GET", "/api".into(), String::new(), StatusCode::NOT_FOUND, "not_found", vec!["/api"]),
        ("POST", format!("/api/games/{id}/castle"), ok_step.clone(), StatusCode::NOT_FOUND, "not_found", vec!["castle"]),
        ("GET", format!("/api/games/{id}/step/more"), String::new(), StatusCode::NOT_FOUND, "not_found", vec!["more"]),
        ("GET", step.clone(), String::new(), StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", vec!["GET"]),
        ("DELETE", "/api/games".into(), String::new(), StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", vec!["DELETE"]),
        // The WebSocket route asked without a WebSocket handshake.
        ("GET", format!("/api/games/{id}/ws"), String::new(), StatusCode::BAD_REQUEST, "not_websocket", vec!["WebSocket"]),
    ];
    for (method, uri, body, status, expected, words) in cases {
        let (s, kind, text) = raw_call(&app, method, &uri, &body).await;
        let what = format!("{method} {uri} {body} -> {s} {kind} {text}");
        assert_eq!(s, status, "{what}");
        assert!(kind.starts_with("application/json"), "not JSON: {what}");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {what}"));
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("not an object: {what}"));
        let mut keys: Vec<&str> = obj.keys().map(|k| k.as_str()).collect();
        keys.sort();
        assert_eq!(
            keys,
            ["code", "error"],
            "the error body is {{\"error\": ..., \"code\": ...}} only: {what}"
        );
        let code = v["code"].as_str().unwrap();
        assert!(
            code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "code not snake_case: {what}"
        );
        // Each case names its code (docs/server.md, "Errors"): any other fails.
        assert_eq!(code, expected, "{what}");
        let msg = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error: {what}"));
        for w in words {
            assert!(msg.contains(w), "'{w}' not in the message: {what}");
        }
    }
    // Pages outside /api keep their plain 404.
    let (s, _, _) = raw_call(&app, "GET", "/nope", "").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(
        get(&app, &format!("/api/games/{id}")).await,
        before,
        "an error changed the game"
    );
    app.store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

async fn record_position(app: &std::sync::Arc<App>, id: &str) -> String {
    get(app, &format!("/api/games/{id}")).await["position"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Two servers on one database (issue 26's first finding: a game played on B stayed at its
/// first version on A, which refused Black's move with "it is White's turn"). Each server's
/// copy of a game is a cache of storage, brought up to date before it answers or acts.
#[tokio::test(flavor = "multi_thread")]
async fn a_game_changed_by_another_server_is_played_on_from_storage() {
    let (dir, url) = temp_db("two-servers");
    let a = App::open(&url).await.unwrap();
    let b = App::open(&url).await.unwrap();
    let (s, created) = post(
        &a,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let black = created["tokens"]["black"].as_str().unwrap().to_string();
    let step = format!("/api/games/{id}/step");
    // A holds the game (it made it); White's move goes to B, Black's to A.
    let (s, v) = post(&b, &step, json!({"token": white, "step": "e2-e4"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(&a, &step, json!({"token": black, "step": "e7-e5"})).await;
    assert_eq!(
        s,
        StatusCode::OK,
        "A took Black's move on B's position: {v}"
    );
    // B's copy is behind now: it catches up before White's next move.
    let (s, v) = post(&b, &step, json!({"token": white, "step": "g1-f3"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Both show the same game, as storage has it.
    let (va, vb) = (
        get(&a, &format!("/api/games/{id}")).await,
        get(&b, &format!("/api/games/{id}")).await,
    );
    assert_eq!(va["version"], vb["version"]);
    assert_eq!(va["position"], vb["position"]);
    assert_eq!(va["to_move"], "black");
    let moves: Vec<Value> = va["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["steps"][0].clone())
        .collect();
    assert_eq!(moves, [json!("e2-e4"), json!("e7-e5"), json!("g1-f3")]);
    // A move that is not legal in storage's position is still refused by either.
    let (s, v) = post(&a, &step, json!({"token": white, "step": "f1-c4"})).await;
    assert_eq!(s, StatusCode::CONFLICT, "White moving on Black's turn: {v}");
    a.store.close().await;
    b.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A step posted as data: its index in the view's `steps` at the view's `version` plays that
/// listed step; an index from an earlier version is refused as stale, one past the list as
/// a bad step, and text and index together as a bad request; each refusal changes nothing.
#[tokio::test(flavor = "multi_thread")]
async fn steps_posted_by_their_index_in_the_view() {
    let (dir, url) = temp_db("index");
    let app = App::open(&url).await.unwrap();
    let (_, created) = post(
        &app,
        "/api/games",
        json!({"variant": "chesimals-1", "white": "human", "black": "human"}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    let step_uri = format!("/api/games/{id}/step");
    let view = get(&app, &format!("/api/games/{id}")).await;
    let version = view["version"].as_i64().unwrap();
    let steps = view["steps"].as_array().unwrap().clone();
    // The last listed step, to show that the index, not the first step, is played.
    let pick = steps.len() - 1;
    assert_eq!(steps[pick]["index"], json!(pick));
    let text = steps[pick]["text"].as_str().unwrap().to_string();

    let bad: Vec<(Value, StatusCode, &str)> = vec![
        (
            json!({"token": white, "index": steps.len(), "version": version}),
            StatusCode::BAD_REQUEST,
            "bad_step",
        ),
        (
            json!({"token": white, "index": 0, "version": version - 1}),
            StatusCode::CONFLICT,
            "stale_step",
        ),
        (
            json!({"token": white, "index": 0}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"token": white, "index": 0, "version": version, "step": text}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ];
    for (body, status, code) in bad {
        let (s, v) = post(&app, &step_uri, body.clone()).await;
        assert_eq!(s, status, "{body} -> {v}");
        assert_eq!(v["code"], code, "{body}: {v}");
    }
    assert_eq!(
        get(&app, &format!("/api/games/{id}")).await,
        view,
        "refused posts changed the game"
    );
    let (s, v) = post(
        &app,
        &step_uri,
        json!({"token": white, "index": pick, "version": version}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["turn_steps"], json!([text]), "the listed step was played");
    assert!(v["version"].as_i64().unwrap() > version);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `GET /api/ai/levels`: eight levels per variant in the engine's words; games of one-step
/// turns (chess) have their own table, with no greedy moves; a bad variant or parameter is
/// an error that names it.
#[tokio::test(flavor = "multi_thread")]
async fn ai_levels_are_per_variant() {
    let (dir, url) = temp_db("ai-levels");
    let app = App::open(&url).await.unwrap();
    let about = |v: &Value| -> Vec<String> {
        let levels = v["levels"].as_array().unwrap();
        assert_eq!(levels.len(), 8, "{v}");
        assert_eq!(v["default"], 3, "{v}");
        for (i, l) in levels.iter().enumerate() {
            assert_eq!(l["agent"], format!("level{}", i + 1), "{l}");
        }
        levels
            .iter()
            .map(|l| l["about"].as_str().unwrap().to_string())
            .collect()
    };
    let chess = about(&get(&app, "/api/ai/levels?variant=chess").await);
    let chesimals = about(&get(&app, "/api/ai/levels?variant=chesimals-1").await);
    assert_eq!(about(&get(&app, "/api/ai/levels").await), chesimals);
    assert!(chesimals[0].contains("greedy"), "{}", chesimals[0]);
    assert!(chess.iter().all(|a| !a.contains("greedy")), "{chess:?}");
    assert!(chess[0].contains("200 nodes"), "{}", chess[0]);
    assert_ne!(chess[..7], chesimals[..7]);
    assert_eq!(chess[7], chesimals[7]);
    let (s, e) = call(&app, "GET", "/api/ai/levels?variant=nope", Body::empty()).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
    assert!(e.to_string().contains("nope"), "{e}");
    let (s, e) = call(&app, "GET", "/api/ai/levels?colour=red", Body::empty()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(e.to_string().contains("colour"), "{e}");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
