//! Game records on the server (docs/records.md): the record endpoint's text, replaying a
//! record step by step (`POST /api/records/replay`), and continuing one as a new game.

use axum::body::Body;
use axum::http::StatusCode;
use cohort_engine::record::Record;
use cohort_rules::Rules;
use cohort_rules::{builtin, Game};
use cohort_server::App;
use serde_json::{json, Value};

use crate::common;
use common::*;

/// A mini-Chieftain record of a few turns, written by the library from a real game.
fn sample() -> (String, Game) {
    let v = builtin("mini-chieftain").unwrap();
    let mut g = Game::new(v.start());
    for s in [
        "d2-d3", "end", "d7-d6", "e7-e6", "end", "e2-e3", "end", "c7-c6", "end",
    ] {
        g.play_text(s).unwrap();
    }
    (Record::from_game(&g).to_text(), g)
}

#[tokio::test]
async fn a_record_replays_step_by_step_and_errors_name_turn_and_step() {
    let (dir, url) = temp_db("records-replay");
    let app = App::open(&url).await.unwrap();
    let (text, game) = sample();
    let (s, v) = post(&app, "/api/records/replay", json!({"record": text})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["variant"], "mini-chieftain");
    assert_eq!(v["at"], 0);
    assert_eq!(v["steps"].as_array().unwrap().len(), game.steps().len());
    let t = &v["turns"][1];
    for (k, want) in [
        ("number", json!(1)),
        ("side", json!("black")),
        ("steps", json!(["d7-d6", "e7-e6"])),
        ("open", json!(false)),
        ("end_at", json!(5)),
        // Each step up to end_at (the end included): what it removed, and the step as data.
        ("removed", json!([[], [], []])),
    ] {
        assert_eq!(t[k], want, "turn 1 {k}: {t}");
    }
    let kinds: Vec<&str> = t["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["move", "move", "end"], "{t}");
    assert_eq!(t["moves"][0]["from"], "d7", "{t}");
    assert_eq!(
        v["view"]["position"],
        builtin("mini-chieftain").unwrap().start().to_text()
    );
    // Step by step, the position is the game's after as many steps.
    let mut g = Game::new(game.start().clone());
    for (i, &step) in game.steps().iter().enumerate() {
        let t = g.position().step_text(step);
        g.play(step).unwrap();
        let (s, v) = post(
            &app,
            "/api/records/replay",
            json!({"record": text, "at": i + 1}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(
            v["view"]["position"],
            g.position().to_text(),
            "after step {}",
            i + 1
        );
        assert_eq!(v["step"], json!(t));
    }
    let (s, v) = post(
        &app,
        "/api/records/replay",
        json!({"record": text, "at": 99}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("the record has 9 steps"),
        "{v}"
    );
    // Corrupted at turn 2, White's second step: named, as on the command line.
    let bad = text.replace("2. e2-e3", "2. e2-e3,e3-e6");
    let (s, v) = post(&app, "/api/records/replay", json!({"record": bad})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("record: turn 2 (White), step 2 'e3-e6': "),
        "{v}"
    );
    let (s, v) = post(&app, "/api/records/replay", json!({"record": "1. d2-d3 *"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("record line 1: no [Variant"),
        "{v}"
    );
    // A long record passes the 16 KiB limit of other requests; beyond the records' limit, 413.
    let long = text.replace("\n*\n", &format!("\n{}*\n", "{ a comment }\n".repeat(2000)));
    assert!(long.len() > 20_000);
    let (s, v) = post(&app, "/api/records/replay", json!({"record": long})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, _) = call(
        &app,
        "POST",
        "/api/records/replay",
        Body::from(vec![b' '; 600_000]),
    )
    .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_record_continues_as_a_new_game_against_the_ai() {
    let (dir, url) = temp_db("records-continue");
    let app = App::open(&url).await.unwrap();
    let (text, _) = sample();
    let games = |v: Value| v.as_array().unwrap().len();
    // Refused: another variant, a position as well, a step past the end, a corrupt record.
    for (body, needle) in [
        (
            json!({"variant": "chieftain", "white": "human", "black": "ai", "record": text}),
            "differs from the record's variant",
        ),
        (
            json!({"variant": "mini-chieftain", "white": "human", "black": "ai", "record": text, "position": "8/8/8/8/8/8/8/8 w"}),
            "position",
        ),
        (
            json!({"variant": "mini-chieftain", "white": "human", "black": "ai", "record": text, "at": 10}),
            "the record has 9 steps",
        ),
        (
            json!({"variant": "mini-chieftain", "white": "human", "black": "ai", "at": 3}),
            "only with a record",
        ),
        (
            json!({"variant": "mini-chieftain", "white": "human", "black": "ai", "record": text.replace("d7-d6", "d7-d4")}),
            "turn 1 (Black), step 1 'd7-d4'",
        ),
    ] {
        let (s, v) = post(&app, "/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
    }
    assert_eq!(games(get(&app, "/api/games").await), 0, "nothing stored");
    // From after Black's first turn (5 steps): White (human) to move, Black the AI.
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "ai",
               "ai": {"agent": "random", "time_ms": 50}, "record": text, "at": 5}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"]["white"].as_str().unwrap().to_string();
    let view = get(&app, &format!("/api/games/{id}?token={token}")).await;
    assert_eq!(view["seat"], "white");
    assert_eq!(view["to_move"], "white");
    // The turns as played (each entry also lists what its steps removed: nothing here).
    let turns: Vec<Value> = view["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| json!({"side": t["side"], "steps": t["steps"]}))
        .collect();
    assert_eq!(
        Value::from(turns),
        json!([{"side": "white", "steps": ["d2-d3", "end"]}, {"side": "black", "steps": ["d7-d6", "e7-e6", "end"]}])
    );
    // It goes on: White plays, the AI answers.
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": token, "step": "c2-c3"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, _) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": token, "step": "end"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let mut answered = false;
    for _ in 0..100 {
        let v = get(&app, &format!("/api/games/{id}")).await;
        if v["to_move"] == "white" && v["turns"].as_array().unwrap().len() == 4 {
            answered = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(answered, "the AI answered the continued game");
    // Stored with its first steps: after a restart the game is the same.
    let before = get(&app, &format!("/api/games/{id}")).await;
    app.store.close().await;
    let again = App::open(&url).await.unwrap();
    assert_eq!(
        get(&again, &format!("/api/games/{id}")).await["turns"],
        before["turns"]
    );
    again.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Record replays run off the request threads, at most `max_heavy` at once (heavy.rs): 20
/// sent together are all answered, never more than two replaying at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn record_replays_run_at_most_max_heavy_at_once() {
    let (dir, url) = temp_db("records-heavy");
    let config = cohort_server::Config {
        max_heavy: 2,
        ..Default::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    // A long game: random legal steps of chesimals-1, until it ends or 3000 steps.
    let v = builtin("chesimals-1").unwrap();
    let mut g = Game::new(v.start());
    let mut x: u64 = 0x9e3779b97f4a7c15;
    while g.result().is_none() && g.steps().len() < 3000 {
        let mut list = cohort_rules::StepList::new();
        g.legal_steps(&mut list);
        if list.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let step = list.as_slice()[(x % list.len() as u64) as usize];
        g.play(step).unwrap();
    }
    let text = Record::from_game(&g).to_text();
    let n = g.steps().len();
    assert!(n > 100, "a long record: {n} steps");
    let mut calls = vec![];
    for _ in 0..20 {
        let (app, text) = (app.clone(), text.clone());
        calls.push(tokio::spawn(async move {
            post(
                &app,
                "/api/records/replay",
                json!({"record": text, "at": n}),
            )
            .await
        }));
    }
    for c in calls {
        let (s, v) = c.await.unwrap();
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["at"], n);
    }
    let peak = app.heavy_peak();
    assert!((1..=2).contains(&peak), "{peak} replays ran at once");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A record as the local-play page writes it (docs/wasm.md, "Local play": the `Position` tag
/// always, a last turn left open, `,...`) continues on the server at the same position, in
/// the middle of the person's turn: "Continue on the server". A record the rules refuse is
/// an error answer, and nothing is stored.
#[tokio::test]
async fn a_local_record_with_an_open_turn_continues_mid_turn() {
    let (dir, url) = temp_db("records-local");
    let app = App::open(&url).await.unwrap();
    let v = builtin("mini-chieftain").unwrap();
    let mut g = Game::new(v.start());
    for s in ["d2-d3", "end", "d7-d6", "e7-e6", "end", "e2-e3"] {
        g.play_text(s).unwrap();
    }
    let text = format!(
        "[Event \"cohort local play\"]\n[Date \"2026.11.28\"]\n[White \"human\"]\n[Black \"engine:200\"]\n\
         [Result \"*\"]\n[Variant \"mini-chieftain\"]\n[Position \"{}\"]\n\n1. d2-d3 d7-d6,e7-e6\n2. e2-e3,...\n*\n",
        v.start().to_text()
    );
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "ai",
               "ai": {"agent": "engine", "time_ms": 200}, "record": text}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap();
    assert!(created["links"]["white"]
        .as_str()
        .unwrap()
        .starts_with(&format!("/game/{id}?token=")));
    let view = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(view["position"], json!(g.position().to_text()));
    assert_eq!(view["to_move"], "white");
    // A corrupt one (an illegal step in the open turn): refused, named.
    let bad = text.replace("2. e2-e3,...", "2. e2-e6,...");
    let (s, v) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "ai", "record": bad}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("turn 2 (White), step 1"),
        "{v}"
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
