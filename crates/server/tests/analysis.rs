//! The analysis board's API (docs/server.md, "Analysis"): a finished game analysed turn by
//! turn (a point per turn, the blunder marked, the engine's own turn found), one position,
//! free moves from any point, the refusals (a game in progress, bad steps, an empty
//! budget), and that the searches wait for the AI's scheduler.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use cohort_server::sched::Class;
use cohort_server::{App, Config};
use serde_json::{json, Value};

use crate::common;
use common::*;

async fn open(tag: &str, config: Config) -> Arc<App> {
    let (_dir, url) = temp_db(tag);
    App::open_with(&url, config).await.unwrap()
}

/// A chess game between two people, played to its end: the fool's mate with colours
/// swapped (1. e4 f6 2. d4 g5 3. Qh5#). Its id.
pub(crate) async fn fools_mate(app: &Arc<App>) -> String {
    let (s, g) = post(
        app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    for (i, text) in ["e2-e4", "f7-f6", "d2-d4", "g7-g5", "d1-h5"]
        .iter()
        .enumerate()
    {
        let side = if i % 2 == 0 { "white" } else { "black" };
        let (s, v) = post(
            app,
            &format!("/api/games/{id}/step"),
            json!({"token": g["tokens"][side], "step": text}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{text}: {v}");
    }
    id
}

/// Poll an analysis until it is no longer running (at most 60 s).
async fn finished(app: &Arc<App>, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let a = get(app, &format!("/api/analysis/{id}")).await;
        if a["state"] != "running" {
            return a;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still running: {a}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_finished_game_gets_a_point_per_turn_with_the_blunder_marked() {
    let app = open("analysis-game", Config::default()).await;
    let id = fools_mate(&app).await;
    let (s, started) = post(&app, "/api/analysis", json!({"game": id, "ms": 200})).await;
    assert_eq!(s, StatusCode::OK, "{started}");
    // Five positions searched (the last one is mate: no search, no cost).
    assert_eq!(started["total"], 6, "{started}");
    assert_eq!(started["cost_ms"], 1000, "{started}");
    let a = finished(&app, started["id"].as_str().unwrap()).await;
    assert_eq!(a["state"], "done", "{a}");
    let points = a["points"].as_array().unwrap();
    let at: Vec<u64> = points.iter().map(|p| p["at"].as_u64().unwrap()).collect();
    assert_eq!(at, [0, 1, 2, 3, 4, 5]);
    let played: Vec<Vec<String>> = points.iter().map(|p| texts(&p["played"])).collect();
    assert_eq!(played[1], ["f7-f6"]);
    assert_eq!(played[3], ["g7-g5"]);
    assert!(played[5].is_empty());
    // Before White's third turn the engine finds the mate that was played: no mark.
    assert_eq!(texts(&points[4]["best"]), ["d1-h5"], "{}", points[4]);
    assert_eq!(points[4]["decisive"], true);
    assert!(
        points[4]["score"].as_i64().unwrap() > 100_000,
        "{}",
        points[4]
    );
    assert_eq!(points[4]["mark"], Value::Null);
    // g5 allowed it: a blunder, all of Black's expected score lost.
    assert_eq!(points[3]["mark"], "blunder", "{}", points[3]);
    assert!(points[3]["loss"].as_f64().unwrap() > 0.4, "{}", points[3]);
    // Judged at the best turn's effort: the positions after the best turn and after g5,
    // both searched to one depth (scores for White: g5 lets White mate).
    let (best_after, played_after) = (
        points[3]["best_after"].as_i64().expect("judged"),
        points[3]["played_after"].as_i64().expect("judged"),
    );
    assert!(
        played_after > 100_000 && best_after < played_after,
        "{}",
        points[3]
    );
    // The engine's own turn (the mate) needs no judging.
    assert!(points[4].get("best_after").is_none(), "{}", points[4]);
    // The end: White has won, nothing to play.
    assert_eq!(points[5]["side"], Value::Null);
    assert!(points[5]["score"].as_i64().unwrap() > 100_000);
    // Arrows: the best turn's steps as data.
    assert_eq!(points[4]["moves"][0]["from"], "d1");
    assert_eq!(points[4]["moves"][0]["to"], "h5");
}

#[tokio::test]
async fn one_position_gets_the_turn_the_engine_plays() {
    let app = open("analysis-position", Config::default()).await;
    // Mini Chieftain: the Chieftain on g1 moves to e3 and so activates the Knight, which
    // takes the last enemy Chieftain (issue 28's example): a win inside the turn.
    let (s, started) = post(
        &app,
        "/api/analysis",
        json!({"variant": "mini-chieftain", "position": "c6m/8/1N6/8/8/8/8/6CC w", "ms": 400}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{started}");
    let a = finished(&app, started["id"].as_str().unwrap()).await;
    let p = &a["points"][0];
    assert_eq!(p["side"], "white");
    assert_eq!(p["decisive"], true, "{p}");
    let best = texts(&p["best"]);
    assert_eq!(best.last().map(String::as_str), Some("b6xa8"), "{p}");
    // Played out, that turn wins.
    let (s, v) = post(
        &app,
        "/api/analysis/view",
        json!({"variant": "mini-chieftain", "position": "c6m/8/1N6/8/8/8/8/6CC w", "steps": best}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["winner"], "white", "{}", v["result"]);
}

#[tokio::test]
async fn free_moves_from_any_point_and_their_refusals() {
    let app = open("analysis-free", Config::default()).await;
    let id = fools_mate(&app).await;
    // A point of the game is the replay's position there.
    let past = get(&app, &format!("/api/games/{id}?at=2")).await;
    let (s, v) = post(&app, "/api/analysis/view", json!({"game": id, "at": 2})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["position"], past["position"]);
    assert_eq!(v["to_move"], "white");
    assert!(v["legal"].as_array().unwrap().len() > 20);
    // Free moves from there, another line than the game's.
    let (s, v) = post(
        &app,
        "/api/analysis/view",
        json!({"game": id, "at": 2, "steps": ["g1-f3", "b8-c6"]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "white");
    assert!(v["units"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["square"] == "f3" && u["letter"] == "N"));
    // An illegal free move names itself; a bad source is refused with the field.
    for (body, code, needle) in [
        (
            json!({"game": id, "at": 2, "steps": ["g1-f3", "b8-b6"]}),
            "illegal_step",
            "steps[1]",
        ),
        (json!({"game": id, "at": 99}), "invalid_field", "at:"),
        (
            json!({"variant": "chess", "game": id}),
            "invalid_field",
            "not both",
        ),
        (json!({"variant": "nope"}), "unknown_variant", "nope"),
        (
            json!({"variant": "chess", "position": "xyz"}),
            "invalid_field",
            "position:",
        ),
        (
            json!({"variant": "chess", "ms": 100}),
            "invalid_field",
            "ms:",
        ),
    ] {
        let (s, v) = post(&app, "/api/analysis/view", body.clone()).await;
        assert_eq!(v["code"], code, "{body}: {v}");
        assert!(s.is_client_error(), "{body}: {s}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
    }
    let (s, v) = post(&app, "/api/analysis", json!({"game": id, "ms": 5})).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_field")),
        "{v}"
    );
    let (s, v) = call(
        &app,
        "GET",
        "/api/analysis/0123456789abcdef0123456789abcdef",
        axum::body::Body::empty(),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found")),
        "{v}"
    );
}

#[tokio::test]
async fn a_game_in_progress_is_not_analysed() {
    let app = open("analysis-live", Config::default()).await;
    let (_, g) = post(
        &app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    for body in [json!({"game": id}), json!({"game": id, "at": 0})] {
        let (s, v) = post(&app, "/api/analysis", body).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::CONFLICT, Some("game_not_over")),
            "{v}"
        );
    }
}

#[tokio::test]
async fn the_hourly_budget_refuses_what_it_cannot_pay_and_says_what_is_left() {
    let (_dir, url) = temp_db("analysis-budget");
    budget(url).await;
}

#[tokio::test]
async fn the_hourly_budget_holds_on_postgres() {
    let Some(url) = postgres_url("the_hourly_budget_holds_on_postgres") else {
        return;
    };
    with_fresh_database(&url, "cohort_analysis_", budget).await;
}

/// The budget's rules on the database at `url`; then a game analysed there to its end.
async fn budget(url: String) {
    let config = Config {
        analysis_ms_per_hour: 1000,
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    let one = json!({"variant": "chess", "ms": 600});
    let (s, v) = post(&app, "/api/analysis", one.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["left_ms"], 400, "{v}");
    let first = v["id"].as_str().unwrap().to_string();
    let (s, v) = post(&app, "/api/analysis", one.clone()).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("limit_reached")),
        "{v}"
    );
    assert_eq!(v["left_ms"], 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("0.4 s left"), "{v}");
    // What fits is still taken.
    let (s, v) = post(
        &app,
        "/api/analysis",
        json!({"variant": "chess", "ms": 400}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["left_ms"], 0, "{v}");
    // A whole game costs its positions: refused at once, nothing spent.
    let id = fools_mate(&app).await;
    let (s, v) = post(&app, "/api/analysis", json!({"game": id, "ms": 50})).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    // The first analyses ran to their end, stored where every instance reads them.
    let a = finished(&app, first.as_str()).await;
    assert_eq!(
        (a["state"].as_str(), a["points"].as_array().map(Vec::len)),
        (Some("done"), Some(1)),
        "{a}"
    );
    app.store.close().await;
}

#[tokio::test]
async fn an_analysis_waits_for_a_worker_of_the_ais_scheduler() {
    let config = Config {
        ai_workers: 1,
        ..Config::default()
    };
    let app = open("analysis-sched", config).await;
    // A person's game holds the only worker.
    let held = app
        .scheduler
        .try_start(Class::Human)
        .expect("a free worker");
    let (s, v) = post(
        &app,
        "/api/analysis",
        json!({"variant": "chess", "ms": 100}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let a = get(&app, &format!("/api/analysis/{id}")).await;
    assert_eq!(
        (a["state"].as_str(), a["done"].as_u64()),
        (Some("running"), Some(0)),
        "{a}"
    );
    // It waits in the job queue, untaken.
    let job = app
        .store
        .ai_job(&format!("analysis:{id}"))
        .await
        .unwrap()
        .expect("the analysis is a job");
    assert_eq!((job.kind.as_str(), job.owner.as_str()), ("analysis", ""));
    drop(held);
    let a = finished(&app, &id).await;
    assert_eq!(
        (a["state"].as_str(), a["done"].as_u64()),
        (Some("done"), Some(1)),
        "{a}"
    );
}

/// An instance with no workers (`--ai-workers 0`) takes an analysis (no 503: it used to
/// answer that it runs no searches), and a worker on the same database (`cohort worker` is
/// an `App` with workers and no HTTP) runs it; the instance reads its progress and points.
#[tokio::test(flavor = "multi_thread")]
async fn an_instance_without_workers_takes_an_analysis_a_worker_runs_it() {
    let Some(url) = postgres_url("an_instance_without_workers_takes_an_analysis_a_worker_runs_it")
    else {
        return;
    };
    with_fresh_database(&url, "cohort_analysis_jobs", |db| async move {
        let front = App::open_with(
            &db,
            Config {
                ai_workers: 0,
                ..Config::default()
            },
        )
        .await
        .unwrap();
        let id = fools_mate(&front).await;
        let (s, v) = post(&front, "/api/analysis", json!({"game": id, "ms": 100})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let analysis = v["id"].as_str().unwrap().to_string();
        // Nobody takes it yet.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let a = get(&front, &format!("/api/analysis/{analysis}")).await;
        assert_eq!(
            (a["state"].as_str(), a["done"].as_u64()),
            (Some("running"), Some(0)),
            "{a}"
        );
        let worker = App::open_with(
            &db,
            Config {
                ai_workers: 1,
                ..Config::default()
            },
        )
        .await
        .unwrap();
        let a = finished(&front, &analysis).await;
        assert_eq!(a["state"], "done", "{a}");
        assert_eq!(a["done"], a["total"], "{a}");
        assert_eq!(a["points"].as_array().unwrap().len(), 6, "{a}");
        worker.store.close().await;
        front.store.close().await;
    })
    .await;
}
