//! Fair AI compute (docs/server.md): the cap on the AI's time per turn, the creator's token
//! that stops an AI-against-AI game (and a stopped game stays stopped after a restart), and
//! the limit on AI-against-AI games in progress. The AI's searches are held back by taking
//! the scheduler's only worker, so the games do not move while the test looks at them.

use std::time::Duration;

use axum::body::Body;
use axum::http::StatusCode;
use cohort_server::sched::Class;
use cohort_server::{App, Config};
use serde_json::{json, Value};

use crate::common;
use common::*;

fn config(max_time: u64, max_games: usize) -> Config {
    Config {
        ai_workers: 1,
        ai_max_time_ms: max_time,
        max_ai_games: max_games,
        ..Config::default()
    }
}

fn ai_game(time_ms: u64) -> Value {
    json!({"variant": "mini-chieftain", "white": "ai", "black": "ai",
           "ai": {"agent": "random", "time_ms": time_ms}})
}

fn assert_error(s: StatusCode, v: &Value, status: StatusCode, words: &[&str]) {
    assert_eq!(s, status, "{v}");
    let msg = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {v}"));
    for w in words {
        assert!(msg.contains(w), "'{w}' not in '{msg}'");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ai_time_per_turn_is_capped() {
    let (dir, url) = temp_db("cap");
    let app = App::open_with(&url, config(500, 4)).await.unwrap();
    let human_ai = |t: u64| {
        json!({"variant": "chesimals-1", "white": "human", "black": "ai",
               "ai": {"agent": "engine", "time_ms": t}})
    };
    let (s, v) = post(&app, "/api/games", human_ai(501)).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, &["ai.time_ms", "500"]);
    let (s, v) = post(&app, "/api/games", ai_game(3000)).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, &["ai.time_ms", "500"]);
    let (s, v) = post(&app, "/api/games", human_ai(500)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let listed = get(&app, "/api/games").await;
    assert_eq!(
        listed.as_array().unwrap().len(),
        1,
        "a refused game was stored"
    );
    app.store.close().await;
    // The default limit is 5000 ms.
    let app = App::open(&url).await.unwrap();
    assert_eq!(app.config.ai_max_time_ms, 5000);
    let (s, v) = post(&app, "/api/games", human_ai(5001)).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, &["5000"]);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_creator_token_stops_an_ai_game_for_good() {
    let (dir, url) = temp_db("stop");
    let app = App::open_with(&url, config(5000, 4)).await.unwrap();
    // Hold the only worker: the AI's first search waits, the game stands still.
    let hold = app
        .scheduler
        .request("test", Class::Human)
        .try_granted()
        .ok()
        .unwrap();
    let (s, created) = post(&app, "/api/games", ai_game(50)).await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let creator = created["creator_token"].as_str().unwrap().to_string();
    assert_eq!(creator.len(), 32);
    assert!(creator.bytes().all(|b| b.is_ascii_hexdigit()));
    assert!(created["tokens"]["white"].is_null() && created["tokens"]["black"].is_null());
    // A human game's creation has no creator token, and its seat tokens stop nothing.
    let (_, human) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "human"}),
    )
    .await;
    assert!(human["creator_token"].is_null());
    let hid = human["id"].as_str().unwrap();
    let htoken = human["tokens"]["white"].as_str().unwrap();
    let (s, v) = post(
        &app,
        &format!("/api/games/{hid}/stop"),
        json!({"token": htoken}),
    )
    .await;
    assert_error(s, &v, StatusCode::FORBIDDEN, &["AI-against-AI"]);

    let stop = format!("/api/games/{id}/stop");
    let before = get(&app, &format!("/api/games/{id}")).await;
    assert!(before["result"].is_null());
    // Wrong token, no token (empty body, or no field): 403, nothing changes.
    let (s, v) = post(&app, &stop, json!({"token": "0".repeat(32)})).await;
    assert_error(s, &v, StatusCode::FORBIDDEN, &["creator"]);
    let (s, v) = post(&app, &stop, json!({})).await;
    assert_error(s, &v, StatusCode::FORBIDDEN, &["creator"]);
    let (s, v) = call(&app, "POST", &stop, Body::empty()).await;
    assert_error(s, &v, StatusCode::FORBIDDEN, &["creator"]);
    let (s, v) = post(&app, &stop, json!({"token": htoken})).await;
    assert_error(s, &v, StatusCode::FORBIDDEN, &["creator"]);
    assert_eq!(get(&app, &format!("/api/games/{id}")).await, before);

    // The right token: a draw by agreement, stored as finished.
    let (s, v) = post(&app, &stop, json!({"token": creator})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["winner"], Value::Null);
    assert_eq!(v["result"]["reason"], "agreement");
    let (s, v) = post(&app, &stop, json!({"token": creator})).await;
    assert_error(s, &v, StatusCode::CONFLICT, &["over"]);
    // The held search now runs, finds the game over and plays nothing.
    drop(hold);
    let mut view = Value::Null;
    for _ in 0..100 {
        view = get(&app, &format!("/api/games/{id}")).await;
        if view["ai_thinking"] == false {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(view["ai_thinking"], false);
    // The game over, the view says so at once; the job is done once its taker has looked.
    // (Closed before that, the store would give the job back, and the reopened app below
    // would take it.)
    ai_moved(&app, &[&id]).await;
    assert_eq!(
        view["turns"], before["turns"],
        "the AI played after the stop"
    );
    let record = get(&app, &format!("/api/games/{id}/record?format=json")).await;
    assert_eq!(record["result"], "1/2-1/2");
    assert_eq!(app.store.count_ai_games(0).await.unwrap(), 0);
    app.store.close().await;

    // After a restart the game is still over and the AI does not take it up again.
    let reopened = App::open_with(&url, config(5000, 4)).await.unwrap();
    let again = get(&reopened, &format!("/api/games/{id}")).await;
    assert_eq!(again["result"]["reason"], "agreement");
    assert_eq!(again["ai_thinking"], false);
    assert_eq!(again["turns"], before["turns"]);
    assert_eq!(
        (reopened.scheduler.running(), reopened.scheduler.waiting()),
        (0, 0)
    );
    reopened.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn ai_against_ai_games_are_limited() {
    let (dir, url) = temp_db("limit");
    let app = App::open_with(&url, config(5000, 2)).await.unwrap();
    let hold = app
        .scheduler
        .request("test", Class::Human)
        .try_granted()
        .ok()
        .unwrap();
    let mut creators = vec![];
    // The engine at 2 s a turn: after the restart below (where no worker is held) neither
    // game can end while the test looks.
    let slow = json!({"variant": "mini-chieftain", "white": "ai", "black": "ai",
                      "ai": {"agent": "engine", "time_ms": 2000}});
    for _ in 0..2 {
        let (s, v) = post(&app, "/api/games", slow.clone()).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        creators.push((
            v["id"].as_str().unwrap().to_string(),
            v["creator_token"].as_str().unwrap().to_string(),
        ));
    }
    let (s, v) = post(&app, "/api/games", ai_game(50)).await;
    assert_error(
        s,
        &v,
        StatusCode::TOO_MANY_REQUESTS,
        &["at most 2", "AI-against-AI"],
    );
    assert_eq!(get(&app, "/api/games").await.as_array().unwrap().len(), 2);
    // Games with a person are not counted.
    let (s, v) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "ai"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Still refused after a restart (the count is the stored games').
    app.store.close().await;
    let app = App::open_with(&url, config(5000, 2)).await.unwrap();
    let (s, v) = post(&app, "/api/games", ai_game(50)).await;
    assert_error(s, &v, StatusCode::TOO_MANY_REQUESTS, &["at most 2"]);
    // One ends: the next is accepted.
    let (id, token) = &creators[0];
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/stop"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post(&app, "/api/games", ai_game(50)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    drop(hold);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// `POST` from the address `ip` (the caller the server counts).
async fn post_from(
    app: &std::sync::Arc<App>,
    ip: &str,
    uri: &str,
    v: Value,
) -> (StatusCode, Value) {
    use axum::extract::ConnectInfo;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let addr: std::net::SocketAddr = format!("{ip}:40000").parse().unwrap();
    let req = axum::http::Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json")
        .extension(ConnectInfo(addr))
        .body(Body::from(v.to_string()))
        .unwrap();
    let resp = cohort_server::router(app.clone())
        .oneshot(req)
        .await
        .unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A game where the AI (White) is to move at once: the engine, `time_ms` a turn.
fn ai_to_move(time_ms: u64) -> Value {
    json!({"variant": "mini-chieftain", "white": "ai", "black": "human",
           "ai": {"agent": "engine", "time_ms": time_ms}})
}

/// One worker; one caller queues six games with the AI to move, then another caller one:
/// the other caller's search is the second served, not the seventh (as it was when workers
/// were shared by game, oldest first).
#[tokio::test(flavor = "multi_thread")]
async fn one_callers_games_do_not_starve_anothers() {
    let (dir, url) = temp_db("by_caller");
    // No cap on one caller's games with the AI to move: the order alone is tested.
    let lifted = Config {
        ai_games_per_caller: 100,
        ..config(5000, 4)
    };
    let app = App::open_with(&url, lifted).await.unwrap();
    let hold = app
        .scheduler
        .request("test", Class::Human)
        .try_granted()
        .ok()
        .unwrap();
    let mut bulk = vec![];
    for _ in 0..6 {
        let (s, v) = post_from(&app, "10.0.0.1", "/api/games", ai_to_move(100)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        bulk.push(v["id"].as_str().unwrap().to_string());
        // Queued in this order, a millisecond apart at least.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let (s, v) = post_from(&app, "10.0.0.2", "/api/games", ai_to_move(100)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let victim = v["id"].as_str().unwrap().to_string();
    let job = app.store.ai_job(&victim).await.unwrap().unwrap();
    assert_eq!(job.caller, "ip:10.0.0.2");
    drop(hold);
    // Until the victim's job is done (its turn played), count the first caller's done.
    let started = std::time::Instant::now();
    while app.store.ai_job(&victim).await.unwrap().is_some() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the victim's AI never moved"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let mut done_before = 0;
    for id in &bulk {
        if app.store.ai_job(id).await.unwrap().is_none() {
            done_before += 1;
        }
    }
    assert!(
        done_before <= 2,
        "{done_before} of the first caller's 6 searches were done before the other caller's one"
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Until the AI's job in each of `ids` is done (its turn played, or nothing to play).
async fn ai_moved(app: &std::sync::Arc<App>, ids: &[&str]) {
    let started = std::time::Instant::now();
    for id in ids {
        while app.store.ai_job(id).await.unwrap().is_some() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the AI never moved in {id}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// `--ai-games-per-caller` (2 here): a caller with two games whose AI is to move is refused
/// its next game with an AI seat, and a rematch against the AI, with 429 and nothing stored;
/// another caller is not; the first caller's games go on (its steps are taken, even past
/// the cap), and once the AI has moved a new game is accepted again.
#[tokio::test(flavor = "multi_thread")]
async fn games_with_the_ai_to_move_are_capped_per_caller() {
    let (dir, url) = temp_db("per_caller");
    let capped = Config {
        ai_games_per_caller: 2,
        ..config(5000, 4)
    };
    let app = App::open_with(&url, capped).await.unwrap();
    let hold = app
        .scheduler
        .request("test", Class::Human)
        .try_granted()
        .ok()
        .unwrap();
    let chess = |white: &str, black: &str| {
        json!({"variant": "chess", "white": white, "black": black,
               "ai": {"agent": "random", "time_ms": 50}})
    };
    let mut mine = vec![];
    for _ in 0..2 {
        let (s, v) = post_from(&app, "10.0.0.1", "/api/games", chess("ai", "human")).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        mine.push((
            v["id"].as_str().unwrap().to_string(),
            v["tokens"]["black"].as_str().unwrap().to_string(),
        ));
    }
    // Any game with an AI seat is refused now, whoever is to move in it.
    for (white, black) in [("ai", "human"), ("human", "ai")] {
        let (s, v) = post_from(&app, "10.0.0.1", "/api/games", chess(white, black)).await;
        assert_error(
            s,
            &v,
            StatusCode::TOO_MANY_REQUESTS,
            &["2 games with the AI to move", "limit per caller (2)"],
        );
        assert_eq!(v["code"], "limit_reached");
    }
    assert_eq!(get(&app, "/api/games").await.as_array().unwrap().len(), 2);
    // A game of people only is not counted; another caller is not refused.
    let (s, v) = post_from(&app, "10.0.0.1", "/api/games", chess("human", "human")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post_from(&app, "10.0.0.2", "/api/games", chess("ai", "human")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let other = v["id"].as_str().unwrap().to_string();

    // The AI moves in every game: the first caller may create one again.
    drop(hold);
    ai_moved(&app, &[&mine[0].0, &mine[1].0, &other]).await;
    let hold = app
        .scheduler
        .request("test", Class::Human)
        .try_granted()
        .ok()
        .unwrap();
    let (s, v) = post_from(&app, "10.0.0.1", "/api/games", chess("ai", "human")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Its games go on: a step in each is taken, the second past the cap.
    for (id, token) in &mine {
        let view = get(&app, &format!("/api/games/{id}?token={token}")).await;
        let step = view["legal"][0]["text"].as_str().unwrap().to_string();
        let (s, v) = post_from(
            &app,
            "10.0.0.1",
            &format!("/api/games/{id}/step"),
            json!({"token": token, "step": step}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    assert_eq!(app.store.count_ai_jobs_of("ip:10.0.0.1").await.unwrap(), 3);
    let (s, v) = post_from(&app, "10.0.0.1", "/api/games", chess("human", "ai")).await;
    assert_error(
        s,
        &v,
        StatusCode::TOO_MANY_REQUESTS,
        &["3 games with the AI to move"],
    );
    // A rematch against the AI is a new game like any other: refused, none made.
    let (id, token) = &mine[0];
    let (s, v) = post_from(
        &app,
        "10.0.0.1",
        &format!("/api/games/{id}/resign"),
        json!({"token": token}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post_from(
        &app,
        "10.0.0.1",
        &format!("/api/games/{id}/rematch"),
        json!({"token": token, "action": "offer"}),
    )
    .await;
    assert_error(
        s,
        &v,
        StatusCode::TOO_MANY_REQUESTS,
        &["games with the AI to move"],
    );
    assert!(get(&app, &format!("/api/games/{id}")).await["rematch"].is_null());
    drop(hold);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
