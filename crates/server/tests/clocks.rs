//! Clocks through the API (docs/server.md, "Clocks"): the clock switches only when a turn
//! ends, the server's timer ends a game whose flag falls with nobody asking, a restart keeps
//! time running from the stored timestamps, the AI's thinking counts on its clock, and a flag
//! fall in a rated game changes both ratings.

use crate::common;

use cohort_rules::Rules;
use std::time::Duration;

use axum::http::StatusCode;
use cohort_rules::builtin;
use cohort_server::clock::{Clock, TimeControl};
use cohort_server::store::{now_ms, GameRow};
use cohort_server::App;
use common::{get, post, temp_db};
use serde_json::json;

fn ms(v: &serde_json::Value, side: &str) -> i64 {
    v["clock"][format!("{side}_ms")].as_i64().unwrap()
}

#[tokio::test]
async fn the_clock_switches_at_the_end_of_a_turn_not_at_each_step() {
    let (dir, url) = temp_db("clock-switch");
    let app = App::open(&url).await.unwrap();
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "human",
        "clock": {"minutes": 1, "increment": 2}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap();
    let white = created["tokens"]["white"].as_str().unwrap();
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(v["clock"]["kind"], "live");
    assert_eq!(v["clock"]["control"], "1+2");
    // No time runs before White's first step.
    assert!(v["clock"]["running"].is_null(), "{}", v["clock"]);
    assert_eq!(ms(&v, "white"), 60_000);
    assert_eq!(ms(&v, "black"), 60_000);
    // One step of White's turn: White's clock runs from it.
    let step = v["legal"][0]["text"].as_str().unwrap();
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": white, "step": step}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["clock"]["running"], "white", "the turn goes on");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert!(
        ms(&v, "white") <= 59_700,
        "White's time ran: {}",
        ms(&v, "white")
    );
    // End of the turn: White gets the increment, Black's time runs.
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": white, "step": "end"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["clock"]["running"], "black");
    let w = ms(&v, "white");
    assert!(w > 61_000 && w <= 61_700, "about 59.7 s left plus 2 s: {w}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(ms(&v, "white"), w, "White's time stands");
    // Black's runs once its page has replayed White's two steps (2 x 550 ms).
    assert_eq!(ms(&v, "black"), 60_000, "{}", v["clock"]);
    assert!(v["clock"]["starts_in_ms"].as_i64().unwrap() > 300);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert!(ms(&v, "black") <= 59_800);
    // A game without a clock shows none.
    let (_, plain) = post(
        &app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    let v = get(
        &app,
        &format!("/api/games/{}", plain["id"].as_str().unwrap()),
    )
    .await;
    assert!(v["clock"].is_null());
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A stored game whose clock gives White `white_ms` from now on.
fn row_with_clock(id: &str, control: TimeControl, white_ms: i64) -> GameRow {
    let now = now_ms();
    let mut clock = Clock::start(control, now);
    clock.remaining_ms[0] = white_ms;
    GameRow {
        id: id.into(),
        variant: "chess".into(),
        start: builtin("chess").unwrap().start().to_text(),
        white: "human".into(),
        black: "human".into(),
        ai_agent: "engine".into(),
        ai_time_ms: 200,
        white_token: "a".repeat(32),
        black_token: "b".repeat(32),
        version: 1,
        created_ms: now,
        updated_ms: now,
        clock,
        ..GameRow::default()
    }
}

#[tokio::test]
async fn the_servers_timer_ends_the_game_when_the_flag_falls() {
    let (dir, url) = temp_db("clock-flag");
    let app = App::open(&url).await.unwrap();
    app.store
        .insert_game(&row_with_clock(
            "flagsoon",
            TimeControl::Live {
                base_ms: 60_000,
                inc_ms: 0,
            },
            400,
        ))
        .await
        .unwrap();
    app.store.close().await;
    drop(app);
    // Opened again: the game is resumed and its clock armed; nobody sends a request.
    let app = App::open(&url).await.unwrap();
    let v = get(&app, "/api/games/flagsoon").await;
    assert!(v["result"].is_null(), "not yet: {}", v["clock"]);
    tokio::time::sleep(Duration::from_millis(900)).await;
    // Stored, not only in memory: read the row itself.
    let (row, _) = app.store.game("flagsoon").await.unwrap().unwrap();
    assert!(row.finished);
    assert_eq!(row.ending.as_deref(), Some("time white"));
    assert_eq!(row.clock.remaining_ms[0], 0);
    let v = get(&app, "/api/games/flagsoon").await;
    assert_eq!(v["result"]["winner"], "black");
    assert_eq!(v["result"]["reason"], "time forfeit");
    assert_eq!(v["result"]["text"], "Black wins (time forfeit)");
    assert!(v["clock"]["running"].is_null());
    let rec = get(&app, "/api/games/flagsoon/record?format=json").await;
    assert_eq!(rec["result"], "0-1");
    assert_eq!(rec["reason"], "time forfeit");
    // A step after the flag: 409, nothing stored.
    let (s, e) = post(
        &app,
        "/api/games/flagsoon/step",
        json!({"token": "a".repeat(32), "step": "e2-e4"}),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert!(app.store.steps("flagsoon").await.unwrap().is_empty());
    app.store.close().await;
    // Time that ran out while the server was down ends the game on start.
    let app2 = App::open(&url).await.unwrap();
    app2.store
        .insert_game(&row_with_clock(
            "flagdown",
            TimeControl::Correspondence {
                per_turn_ms: 86_400_000,
            },
            -5_000,
        ))
        .await
        .unwrap();
    app2.store.close().await;
    drop(app2);
    let app3 = App::open(&url).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let v = get(&app3, "/api/games/flagdown").await;
    assert_eq!(v["result"]["reason"], "time forfeit", "{}", v["result"]);
    app3.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_restart_keeps_the_clock_running_from_the_stored_timestamp() {
    let (dir, url) = temp_db("clock-restart");
    let app = App::open(&url).await.unwrap();
    let (_, created) = post(
        &app,
        "/api/games",
        json!({"variant": "chess", "white": "human", "black": "human",
        "clock": {"days": 2}}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap();
    for step in ["e2-e4"] {
        let (s, v) = post(
            &app,
            &format!("/api/games/{id}/step"),
            json!({"token": white, "step": step}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let before = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(before["clock"]["running"], "black");
    assert_eq!(before["clock"]["control"], "2 days per turn");
    let t0 = now_ms();
    app.store.close().await;
    drop(app);
    tokio::time::sleep(Duration::from_millis(700)).await;
    let app = App::open(&url).await.unwrap();
    let after = get(&app, &format!("/api/games/{id}")).await;
    let elapsed = now_ms() - t0;
    // Black's time ran on while the server was down, by the time that passed.
    // (Less the replay of White's one-step turn, 550 ms, during which no time runs.)
    let used = ms(&before, "black") - ms(&after, "black");
    assert!(
        used >= 700 - 550 && used <= elapsed + 50,
        "used {used} ms of {elapsed}"
    );
    assert_eq!(
        ms(&after, "white"),
        ms(&before, "white"),
        "White's time stands"
    );
    assert_eq!(after["clock"]["running"], "black");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_ais_thinking_counts_on_its_clock() {
    let (dir, url) = temp_db("clock-ai");
    let app = App::open(&url).await.unwrap();
    let (_, created) = post(
        &app,
        "/api/games",
        json!({"variant": "micro-chieftain", "white": "ai", "black": "human",
        "ai": {"agent": "engine", "time_ms": 300}, "clock": {"minutes": 1, "increment": 0}}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut v = get(&app, &format!("/api/games/{id}")).await;
    for _ in 0..100 {
        if v["to_move"] == "black" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        v = get(&app, &format!("/api/games/{id}")).await;
    }
    assert_eq!(v["to_move"], "black", "the AI played its turn");
    let used = 60_000 - ms(&v, "white");
    assert!(
        used >= 200,
        "the AI's search (300 ms) is on its clock: {used} ms"
    );
    assert_eq!(v["clock"]["running"], "black");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_flag_fall_in_a_rated_game_changes_both_ratings() {
    let (dir, url) = temp_db("clock-rated");
    let app = App::open(&url).await.unwrap();
    for name in ["alice", "bob"] {
        let (s, v) = post(
            &app,
            "/api/account/signup",
            json!({"username": name, "password": "a long password"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    // White's clock has 700 ms (no increment); two turns each are played (a game with
    // fewer is not rated: tests/security.rs), then White's flag falls.
    let mut row = row_with_clock(
        "ratedflag",
        TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 0,
        },
        700,
    );
    row.white_user = Some("alice".into());
    row.black_user = Some("bob".into());
    row.rated = true;
    app.store.insert_game(&row).await.unwrap();
    app.store.close().await;
    drop(app);
    let app = App::open(&url).await.unwrap();
    for (token, step) in [
        ("a".repeat(32), "e2-e4"),
        ("b".repeat(32), "e7-e5"),
        ("a".repeat(32), "g1-f3"),
        ("b".repeat(32), "b8-c6"),
    ] {
        let (s, v) = post(
            &app,
            "/api/games/ratedflag/step",
            json!({"token": token, "step": step}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    // White's time runs 550 ms after Black's turn (its replay on White's page).
    tokio::time::sleep(Duration::from_millis(1200 + 550)).await;
    let v = get(&app, "/api/games/ratedflag").await;
    assert_eq!(v["result"]["reason"], "time forfeit");
    let rc = &v["rating_change"];
    assert_eq!(rc["white"]["user"], "alice");
    assert_eq!(rc["white"]["before"], 1500);
    assert!(rc["white"]["delta"].as_i64().unwrap() < -100, "{rc}");
    assert_eq!(
        rc["black"]["delta"],
        -rc["white"]["delta"].as_i64().unwrap(),
        "{rc}"
    );
    let bob = get(&app, "/api/players/bob").await;
    assert_eq!(bob["ratings"][0]["variant"], "chess");
    assert_eq!(bob["ratings"][0]["rating"], rc["black"]["after"]);
    assert_eq!(bob["ratings"][0]["games"], 1);
    assert_eq!(
        bob["finished"][0]["rating_change"]["delta"],
        rc["black"]["delta"]
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Play `n` steps of the side to move (the first legal ones, no end), then `end`; returns
/// the view after the turn.
async fn play_turn_of(
    app: &std::sync::Arc<App>,
    id: &str,
    token: &str,
    n: usize,
) -> serde_json::Value {
    for _ in 0..n {
        let v = get(app, &format!("/api/games/{id}")).await;
        let step = v["legal"][0]["text"].as_str().unwrap().to_string();
        let (s, v) = post(
            app,
            &format!("/api/games/{id}/step"),
            json!({"token": token, "step": step}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (s, v) = post(
        app,
        &format!("/api/games/{id}/step"),
        json!({"token": token, "step": "end"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn the_replay_of_a_nine_step_turn_costs_the_other_side_nothing() {
    let (dir, url) = temp_db("clock-replay");
    let app = App::open(&url).await.unwrap();
    let (s, created) = post(
        &app,
        "/api/games",
        json!({"variant": "chesimals-1", "white": "human", "black": "human",
        "clock": {"minutes": 1, "increment": 0}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap();
    let white = created["tokens"]["white"].as_str().unwrap();
    let black = created["tokens"]["black"].as_str().unwrap();
    // White's turn: nine steps and `end`, posted as fast as the API answers. Black's page
    // replays them at 550 ms a step: about 5.5 s.
    let t0 = now_ms();
    let v = play_turn_of(&app, id, white, 9).await;
    let posting = now_ms() - t0;
    assert_eq!(
        v["turns"][0]["steps"].as_array().unwrap().len(),
        10,
        "{}",
        v["turns"]
    );
    assert_eq!(v["clock"]["running"], "black");
    let credit = v["clock"]["starts_in_ms"].as_i64().unwrap();
    assert!(
        credit >= 10 * 550 - posting - 50 && credit <= 10 * 550,
        "Black's time starts after the replay: {credit} ms (posting took {posting} ms)"
    );
    // During the replay Black's time stands, on the server and in what the page is told.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(
        ms(&v, "black"),
        60_000,
        "no time ran during the replay: {}",
        v["clock"]
    );
    assert!(v["clock"]["starts_in_ms"].as_i64().unwrap() <= credit - 1400);
    // After the replay Black's time runs from where the replay ended.
    tokio::time::sleep(Duration::from_millis(credit as u64 - 1500 + 700)).await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    let black_left = ms(&v, "black");
    assert!(
        (59_000..=59_350).contains(&black_left),
        "Black thought 0.7 s after the replay: {black_left} ms left"
    );
    assert_eq!(v["clock"]["starts_in_ms"], 0);
    // Black ends a turn of one step: charged only its own thinking.
    let v = play_turn_of(&app, id, black, 1).await;
    assert_eq!(v["clock"]["running"], "white");
    assert!(ms(&v, "black") <= black_left && ms(&v, "black") > 58_500);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_live_clock_waits_for_the_first_step_and_a_game_without_one_is_aborted_unrated() {
    let (dir, url) = temp_db("clock-first-step");
    let config = cohort_server::Config {
        first_step_window: Duration::from_millis(1200),
        ..cohort_server::Config::default()
    };
    let app = App::open_with(&url, config.clone()).await.unwrap();
    let (_, created) = post(
        &app,
        "/api/games",
        json!({"variant": "mini-chieftain", "white": "human", "black": "human",
        "clock": {"minutes": 1, "increment": 0}}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["tokens"]["white"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(
        ms(&v, "white"),
        60_000,
        "White's time does not run before its first step"
    );
    assert!(v["clock"]["running"].is_null(), "{}", v["clock"]);
    // White's first step starts White's clock; the game is not aborted after the window.
    let step = v["legal"][0]["text"].as_str().unwrap();
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/step"),
        json!({"token": white, "step": step}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["clock"]["running"], "white");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let v = get(&app, &format!("/api/games/{id}")).await;
    assert!(v["result"].is_null(), "{}", v["result"]);
    let w = ms(&v, "white");
    assert!(
        (58_700..=58_850).contains(&w),
        "White's time ran from its first step: {w}"
    );

    // A rated game between two accounts in which White plays no step: aborted by the
    // server's timer once the window is over (1.2 s here), with no rating change.
    for name in ["alice", "bob"] {
        let (s, v) = post(
            &app,
            "/api/account/signup",
            json!({"username": name, "password": "a long password"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let mut row = row_with_clock(
        "nostart",
        TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 0,
        },
        60_000,
    );
    row.clock = Clock::waiting(row.clock.control, row.created_ms);
    row.white_user = Some("alice".into());
    row.black_user = Some("bob".into());
    row.rated = true;
    app.store.insert_game(&row).await.unwrap();
    app.store.close().await;
    drop(app);
    // Opened again: the game is resumed and its timer armed; nobody sends a request.
    let app = App::open_with(&url, config).await.unwrap();
    let v = get(&app, "/api/games/nostart").await;
    assert!(v["result"].is_null(), "not yet: {}", v["result"]);
    assert_eq!(ms(&v, "white"), 60_000);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (stored, _) = app.store.game("nostart").await.unwrap().unwrap();
    assert!(stored.finished);
    assert_eq!(stored.ending.as_deref(), Some("aborted"));
    let v = get(&app, "/api/games/nostart").await;
    assert_eq!(v["result"]["reason"], "aborted", "{}", v["result"]);
    assert_eq!(v["unrated"], "the game was aborted");
    assert!(v["rating_change"].is_null());
    let alice = get(&app, "/api/players/alice").await;
    assert!(
        alice["ratings"].as_array().is_none_or(|r| r.is_empty()),
        "no rating: {}",
        alice["ratings"]
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
