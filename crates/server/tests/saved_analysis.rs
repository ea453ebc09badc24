//! Analyses made in a browser and saved with their finished game (docs/server.md, "Saved
//! analyses"): `POST /api/games/<id>/analysis` accepted for a finished game and read back
//! (its marks computed again by the server's rule), refused for a game in progress, for a
//! malformed or out-of-range analysis, for one that is not the game's turns, and for one
//! over the size limit; nothing stored by a refusal; the per-caller hourly limit; on SQLite
//! and on PostgreSQL.

use std::sync::Arc;

use axum::body::Body;
use axum::http::StatusCode;
use cohort_server::{App, Config};
use serde_json::{json, Value};

use crate::common;
use common::*;

const PLAYED: [&str; 5] = ["e2-e4", "f7-f6", "d2-d4", "g7-g5", "d1-h5"];

/// A chess game between two people: the fool's mate with colours swapped (1. e4 f6 2. d4 g5
/// 3. Qh5#), played to `steps` steps. Its id and its tokens.
async fn game(app: &Arc<App>, steps: usize) -> (String, Value) {
    let (s, g) = post(
        app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    for (i, text) in PLAYED.iter().take(steps).enumerate() {
        let side = if i % 2 == 0 { "white" } else { "black" };
        let (s, v) = post(
            app,
            &format!("/api/games/{id}/step"),
            json!({"token": g["tokens"][side], "step": text}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{text}: {v}");
    }
    (id, g["tokens"].clone())
}

/// The analysis a browser would send for the fool's mate: a point before each turn and the
/// mate; Black's g5 loses the game (+50 to a forced win for White).
fn points() -> Value {
    let best = ["e2-e4", "e7-e5", "g1-f3", "e7-e6", "d1-h5"];
    let scores = [30, 20, 60, 50, 100_000 - 1];
    let sides = ["white", "black", "white", "black", "white"];
    let mut p: Vec<Value> = (0..5)
        .map(|i| {
            json!({
                "at": i, "side": sides[i], "score": scores[i], "decisive": i == 4,
                "best": [best[i]], "moves": [{"from": &best[i][..2], "to": &best[i][3..], "kind": "move"}],
                "line": best[i], "depth": 6, "played": [PLAYED[i]], "loss": 0, "mark": null,
            })
        })
        .collect();
    p.push(
        json!({"at": 5, "side": null, "score": 100_000, "decisive": true, "best": [], "moves": [],
        "line": "", "depth": 0, "played": [], "loss": 0, "mark": null}),
    );
    Value::Array(p)
}

#[tokio::test]
async fn a_saved_analysis_is_read_back_and_refusals_change_nothing() {
    let (_dir, url) = temp_db("saved-analysis");
    saved(url).await;
}

#[tokio::test]
async fn saved_analyses_on_postgres() {
    let Some(url) = postgres_url("saved_analyses_on_postgres") else {
        return;
    };
    with_fresh_database(&url, "cohort_saved_analysis_", saved).await;
}

async fn saved(url: String) {
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let (id, _) = game(&app, 5).await;
    let path = format!("/api/games/{id}/analysis");
    // Nothing saved yet: said so, not a 404.
    let none = get(&app, &path).await;
    assert_eq!(none["saved"], false, "{none}");

    // Refused: malformed, out of range, not the game's turns; nothing stored.
    let mut wrong_count = points();
    wrong_count.as_array_mut().unwrap().pop();
    let mut far = points();
    far[2]["score"] = json!(5_000_000);
    let mut not_played = points();
    not_played[1]["played"] = json!(["e7-e5"]);
    let mut wrong_side = points();
    wrong_side[0]["side"] = json!("black");
    let mut wrong_at = points();
    wrong_at[3]["at"] = json!(7);
    let mut unknown = points();
    unknown[0]["extra"] = json!(1);
    let mut deep = points();
    deep[0]["depth"] = json!(100_000);
    for (what, body, code, says) in [
        (
            "points not a list",
            json!({"points": "many"}),
            "bad_request",
            "expected a sequence",
        ),
        ("no points", json!({}), "bad_request", "points"),
        (
            "a point short",
            json!({"points": wrong_count}),
            "invalid_field",
            "the game has 5 turns, so 6 points",
        ),
        (
            "a score out of range",
            json!({"points": far}),
            "invalid_field",
            "points[2].score",
        ),
        (
            "a turn not played",
            json!({"points": not_played}),
            "invalid_field",
            "points[1].played",
        ),
        (
            "the wrong side",
            json!({"points": wrong_side}),
            "invalid_field",
            "points[0].side",
        ),
        (
            "the wrong step count",
            json!({"points": wrong_at}),
            "invalid_field",
            "points[3].at",
        ),
        (
            "an unknown field",
            json!({"points": unknown}),
            "bad_request",
            "extra",
        ),
        (
            "a depth out of range",
            json!({"points": deep}),
            "invalid_field",
            "points[0].depth",
        ),
        (
            "ms out of range",
            json!({"ms": 10_000_000, "points": points()}),
            "invalid_field",
            "ms",
        ),
    ] {
        let (s, v) = post(&app, &path, body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{what}: {v}");
        assert_eq!(v["code"], code, "{what}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{what}: {v}");
    }
    let (s, v) = call(&app, "POST", &path, Body::from("{\"points\": [")).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_json")),
        "{v}"
    );
    // Too large: over the route's limit (512 KiB), refused before it is read.
    let big = json!({"points": points(), "pad": "x".repeat(600 * 1024)});
    let (s, v) = post(&app, &path, big).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert_eq!(v["code"], "too_large", "{v}");
    assert_eq!(
        get(&app, &path).await["saved"],
        false,
        "nothing stored by a refusal"
    );

    // Accepted: read back whole, the marks the server's (the browser's marks ignored).
    let mut sent = points();
    sent[0]["mark"] = json!("blunder");
    let (s, v) = post(&app, &path, json!({"ms": 200, "points": sent})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let back = get(&app, &path).await;
    assert_eq!(back["saved"], true, "{back}");
    assert_eq!(back["game"], id.as_str());
    assert_eq!(back["ms"], 200);
    let p = back["points"].as_array().unwrap();
    assert_eq!(p.len(), 6, "{back}");
    assert_eq!(
        p[0]["mark"],
        Value::Null,
        "the engine's own turn: no mark ({back})"
    );
    assert_eq!(p[3]["mark"], "blunder", "g5 threw the game away ({back})");
    assert!(p[3]["loss"].as_f64().unwrap() > 0.4, "{back}");
    assert_eq!(p[4]["best"], json!(["d1-h5"]));
    assert_eq!(p[4]["moves"][0]["to"], "h5");
    assert_eq!(p[5]["side"], Value::Null);
    // A second save replaces the first.
    let mut again = points();
    again[0]["depth"] = json!(9);
    let (s, v) = post(&app, &path, json!({"points": again})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let back = get(&app, &path).await;
    assert_eq!(back["points"][0]["depth"], 9, "{back}");
    assert_eq!(back["ms"], 0, "{back}");

    // A game in progress: refused, 409, and nothing saved.
    let (live, _) = game(&app, 2).await;
    let live_path = format!("/api/games/{live}/analysis");
    let (s, v) = post(&app, &live_path, json!({"points": points()})).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_not_over")),
        "{v}"
    );
    assert_eq!(get(&app, &live_path).await["saved"], false);
    // No such game.
    let (s, v) = post(
        &app,
        "/api/games/nosuchgame/analysis",
        json!({"points": points()}),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");

    // The hourly limit per caller: 30 saves, then 429 (nothing changed).
    for i in 2..30 {
        let (s, v) = post(&app, &path, json!({"points": points()})).await;
        assert_eq!(s, StatusCode::OK, "save {i}: {v}");
    }
    let mut last = points();
    last[0]["depth"] = json!(42);
    let (s, v) = post(&app, &path, json!({"points": last})).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("limit_reached")),
        "{v}"
    );
    assert_ne!(get(&app, &path).await["points"][0]["depth"], 42);
}
