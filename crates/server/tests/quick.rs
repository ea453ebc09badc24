//! Quick pairing (docs/server.md, "Quick pairing"): `POST /api/quick` starts a game with a
//! player waiting for the same game, or posts a seek that the next one takes; ratings out
//! of range are kept apart; two asking at once meet in one game.

use std::sync::Arc;

use axum::http::StatusCode;
use cohort_server::{App, Config};
use serde_json::{json, Value};

use crate::common::{send, signup, temp_db};

async fn quick(app: &Arc<App>, cookie: &str, body: Value) -> (StatusCode, Value) {
    let (s, v, _) = send(app, "POST", "/api/quick", cookie, Some(body)).await;
    (s, v)
}

fn five_three() -> Value {
    json!({"variant": "chesimals-1", "clock": {"minutes": 5, "increment": 3}, "rated": true})
}

/// The seek's creator's view of it: (state, link).
async fn seek_state(app: &Arc<App>, seek: &Value) -> (String, Option<String>) {
    let (s, v, _) = send(
        app,
        "GET",
        &format!(
            "/api/challenges/{}?token={}",
            seek["id"].as_str().unwrap(),
            seek["token"].as_str().unwrap()
        ),
        "",
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    (
        v["state"].as_str().unwrap().to_string(),
        v["link"].as_str().map(str::to_string),
    )
}

/// Set `user`'s rating in chesimals-1 (as if from rated games), in the database itself.
async fn set_rating(url: &str, user: &str, rating: f64) {
    use sqlx::Executor;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    pool.execute(
        sqlx::query(
            "INSERT INTO ratings (user_id, variant, rating, rd, vol, games) VALUES ($1, 'chesimals-1', $2, 60.0, 0.06, 30)",
        )
        .bind(user)
        .bind(rating),
    )
    .await
    .unwrap();
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_second_player_asking_for_the_same_game_starts_it() {
    let (dir, url) = temp_db("quick-pair");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let (alice, bob, carol) = (
        signup(&app, "alice").await,
        signup(&app, "bob").await,
        signup(&app, "carol").await,
    );
    let (s, seek) = quick(&app, &alice, five_three()).await;
    assert_eq!(s, StatusCode::OK, "{seek}");
    assert_eq!(seek["paired"], false, "{seek}");
    assert_eq!(seek["rating_range"], json!([1200, 1800]), "{seek}");
    // The seek is in the lobby like any challenge.
    let (_, open, _) = send(&app, "GET", "/api/challenges", "", None).await;
    assert_eq!(open.as_array().unwrap().len(), 1, "{open}");
    // Another clock or variant does not meet it: carol's 3+2 is a seek of its own.
    let (_, other) = quick(
        &app,
        &carol,
        json!({"variant": "chesimals-1", "clock": {"minutes": 3, "increment": 2}, "rated": true}),
    )
    .await;
    assert_eq!(other["paired"], false, "{other}");
    // bob asks for the same game: it starts at once, alice's seek accepted.
    let (s, game) = quick(&app, &bob, five_three()).await;
    assert_eq!(s, StatusCode::OK, "{game}");
    assert_eq!(game["paired"], true, "{game}");
    let (state, link) = seek_state(&app, &seek).await;
    assert_eq!(state, "accepted");
    let link = link.unwrap();
    let id = game["game"].as_str().unwrap();
    assert!(link.starts_with(&format!("/game/{id}?token=")), "{link}");
    let (_, view, _) = send(&app, "GET", &format!("/api/games/{id}"), "", None).await;
    assert_eq!(view["variant"], "chesimals-1", "{view}");
    let names = [
        view["accounts"]["white"].clone(),
        view["accounts"]["black"].clone(),
    ];
    assert!(
        names.contains(&json!("alice")) && names.contains(&json!("bob")),
        "{view}"
    );
    // Its record says the clock and that it is rated (docs/records.md).
    let (_, record, _) = send(
        &app,
        "GET",
        &format!("/api/games/{id}/record?format=json"),
        "",
        None,
    )
    .await;
    let text = record["text"].as_str().unwrap();
    assert!(
        text.contains("[TimeControl \"300+3\"]") && text.contains("[Rated \"yes\"]"),
        "{text}"
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_out_of_range_do_not_meet() {
    let (dir, url) = temp_db("quick-range");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let alice = signup(&app, "alice").await;
    let bob = signup(&app, "bob").await;
    set_rating(&url, "bob", 2100.0).await;
    // alice (1500) seeks within 300: bob (2100) is out of her range, so he posts his own.
    let (_, seek) = quick(&app, &alice, five_three()).await;
    assert_eq!(seek["paired"], false);
    let (_, his) = quick(&app, &bob, five_three()).await;
    assert_eq!(his["paired"], false, "{his}");
    assert_eq!(his["rating_range"], json!([1800, 2400]), "{his}");
    // Nor can he accept her seek from the lobby.
    let (s, v, _) = send(
        &app,
        "POST",
        &format!("/api/challenges/{}/accept", seek["id"].as_str().unwrap()),
        &bob,
        Some(json!({})),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "rating_out_of_range", "{v}");
    assert!(v["error"].as_str().unwrap().contains("1200 to 1800"), "{v}");
    // A wider range meets him.
    let carol = signup(&app, "carol").await;
    set_rating(&url, "carol", 1600.0).await;
    let mut wide = five_three();
    wide["range"] = json!(600);
    let (_, game) = quick(&app, &carol, wide).await;
    assert_eq!(game["paired"], true, "{game}");
    // The closest rating first: alice (1500) for carol (1600), not bob (2100).
    assert_eq!(seek_state(&app, &seek).await.0, "accepted");
    assert_eq!(seek_state(&app, &his).await.0, "open");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_asking_at_once_meet_in_one_game() {
    let (dir, url) = temp_db("quick-race");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    // Four rounds: eight sign-ups, under the per-address limit of ten.
    for round in 0..4 {
        let a = signup(&app, &format!("racea{round}")).await;
        let b = signup(&app, &format!("raceb{round}")).await;
        let (ra, rb) = tokio::join!(quick(&app, &a, five_three()), quick(&app, &b, five_three()));
        assert_eq!(
            (ra.0, rb.0),
            (StatusCode::OK, StatusCode::OK),
            "{} {}",
            ra.1,
            rb.1
        );
        // One got the game, the other's seek was accepted by it: both in one game.
        let games: Vec<String> = [&ra.1, &rb.1]
            .iter()
            .filter(|v| v["paired"] == true)
            .map(|v| v["game"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(games.len(), 1, "round {round}: {} {}", ra.1, rb.1);
        let seek = if ra.1["paired"] == true { &rb.1 } else { &ra.1 };
        let (state, link) = seek_state(&app, seek).await;
        assert_eq!(state, "accepted", "round {round}: {seek}");
        assert!(link.unwrap().contains(&games[0]));
    }
    // Nobody is left waiting.
    let (_, open, _) = send(&app, "GET", "/api/challenges", "", None).await;
    assert_eq!(open.as_array().unwrap().len(), 0, "{open}");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn bad_quick_requests_say_what_is_wrong() {
    let (dir, url) = temp_db("quick-bad");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    for (body, status, code, words) in [
        (
            json!({"variant": "chesimals-1", "range": 10}),
            StatusCode::BAD_REQUEST,
            "invalid_field",
            "range: 10",
        ),
        (
            json!({"variant": "nope"}),
            StatusCode::BAD_REQUEST,
            "unknown_variant",
            "nope",
        ),
        (
            five_three(),
            StatusCode::UNAUTHORIZED,
            "login_required",
            "log in",
        ),
        (
            json!({"variant": "chess", "colour": "white"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
            "unknown field `colour`",
        ),
    ] {
        let (s, v) = quick(&app, "", body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert_eq!(v["code"], code, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(words), "{body}: {v}");
    }
    // Nothing was posted.
    let (_, open, _) = send(&app, "GET", "/api/challenges", "", None).await;
    assert_eq!(open.as_array().unwrap().len(), 0, "{open}");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
