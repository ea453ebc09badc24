//! Several `cohort serve` instances on one PostgreSQL database (issue 26): a change one
//! instance commits is announced on PostgreSQL's `LISTEN`/`NOTIFY` channel, and every other
//! instance holding the game brings it up to date and sends the new view to its watchers
//! (what its WebSocket forwards).

use crate::common;
use std::time::Duration;

use axum::http::StatusCode;
use cohort_server::App;
use common::{get, post, postgres_url, send, with_fresh_database};
use serde_json::{json, Value};

/// The steps of a game view's turns, in order.
fn steps_of(view: &Value) -> Vec<String> {
    view["turns"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["steps"].as_array().cloned().unwrap_or_default())
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_watcher_on_one_instance_gets_the_steps_posted_to_two_others_within_a_second() {
    let Some(url) = postgres_url("a_watcher_on_one_instance_gets_the_steps_posted_to_two_others")
    else {
        return;
    };
    with_fresh_database(&url, "cohort_instances", |db| async move {
        let (a, b, c) = (
            App::open(&db).await.unwrap(),
            App::open(&db).await.unwrap(),
            App::open(&db).await.unwrap(),
        );
        // Created on A, which holds it in memory with a watcher.
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
        let slot = a.slot(&id).await.unwrap().expect("A holds the game");
        let mut watcher = slot.updates.subscribe();
        let uri = format!("/api/games/{id}/step");
        // White's steps to B, Black's to C; A's watcher sees each.
        let plan = [
            (&b, &white, "e2-e4"),
            (&c, &black, "e7-e5"),
            (&b, &white, "g1-f3"),
            (&c, &black, "b8-c6"),
        ];
        let mut played = vec![];
        for (instance, token, step) in plan {
            let (s, v) = post(instance, &uri, json!({"token": token, "step": step})).await;
            assert_eq!(s, StatusCode::OK, "{step}: {v}");
            played.push(step.to_string());
            let update = tokio::time::timeout(Duration::from_secs(1), watcher.recv())
                .await
                .unwrap_or_else(|_| panic!("A's watcher heard nothing of {step} in 1 s"))
                .expect("the channel is open");
            let view: Value = serde_json::from_str(&update).unwrap();
            assert_eq!(steps_of(&view), played, "A's view after {step}");
        }
        // A's own copy is storage's game too: it takes White's next move.
        let (s, v) = post(&a, &uri, json!({"token": white, "step": "f1-b5"})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        for app in [&a, &b, &c] {
            app.store.close().await;
        }
    })
    .await;
}

/// The lobby is stored: a challenge posted on B shows on A and C (A's lobby watchers are
/// told within a second), survives a restart of all three, and is accepted on C once.
#[tokio::test(flavor = "multi_thread")]
async fn a_challenge_posted_on_one_instance_is_seen_everywhere_kept_over_a_restart_and_accepted_once(
) {
    let Some(url) = postgres_url("a_challenge_posted_on_one_instance_is_seen_everywhere") else {
        return;
    };
    with_fresh_database(&url, "cohort_lobby", |db| async move {
        let open3 = || async {
            (
                App::open(&db).await.unwrap(),
                App::open(&db).await.unwrap(),
                App::open(&db).await.unwrap(),
            )
        };
        let (a, b, c) = open3().await;
        let mut watcher = a.lobby_changes();
        let (s, made) = post(
            &b,
            "/api/challenges",
            json!({"variant": "chieftain", "clock": {"days": 3}, "colour": "white"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{made}");
        let id = made["id"].as_str().unwrap().to_string();
        let secret = made["token"].as_str().unwrap().to_string();
        tokio::time::timeout(Duration::from_secs(1), watcher.recv())
            .await
            .expect("A's lobby watchers told of B's challenge within 1 s")
            .expect("the channel is open");
        for app in [&a, &c] {
            let list = get(app, "/api/challenges").await;
            assert!(
                list.as_array()
                    .unwrap()
                    .iter()
                    .any(|x| x["id"] == id.as_str()),
                "{list}"
            );
        }
        // All three restart: the challenge is still open.
        for app in [&a, &b, &c] {
            app.store.close().await;
        }
        drop((a, b, c));
        let (a, b, c) = open3().await;
        let status = get(&a, &format!("/api/challenges/{id}?token={secret}")).await;
        assert_eq!(status["state"], "open", "{status}");
        // Accepted on C and on A at once: one game starts.
        let uri = format!("/api/challenges/{id}/accept");
        let (on_c, on_a) = tokio::join!(post(&c, &uri, json!({})), post(&a, &uri, json!({})));
        let wins: Vec<&Value> = [&on_c, &on_a]
            .iter()
            .filter(|(s, _)| *s == StatusCode::OK)
            .map(|(_, v)| v)
            .collect();
        assert_eq!(wins.len(), 1, "one acceptance wins: {on_c:?} {on_a:?}");
        let game = wins[0]["game"].as_str().unwrap().to_string();
        // The creator learns of it on B: accepted, with its seat link in that game.
        let status = get(&b, &format!("/api/challenges/{id}?token={secret}")).await;
        assert_eq!(status["state"], "accepted", "{status}");
        assert_eq!(status["game"], game.as_str());
        assert!(status["link"].as_str().unwrap().contains(&game), "{status}");
        assert!(get(&b, "/api/challenges")
            .await
            .as_array()
            .unwrap()
            .is_empty());
        for app in [&a, &b, &c] {
            app.store.close().await;
        }
    })
    .await;
}

async fn sign_up(app: &std::sync::Arc<App>, name: &str) -> String {
    let body = json!({"username": name, "password": format!("{name}'s password")});
    let (s, v, h) = send(app, "POST", "/api/account/signup", "", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let set = h.get("set-cookie").unwrap().to_str().unwrap();
    set.split(';').next().unwrap().to_string()
}

/// A rated 15-second game held by three instances, each with a watcher and a clock timer:
/// the flag falls once. Every watcher sees the same result, and each player's rating
/// counts one game.
#[tokio::test(flavor = "multi_thread")]
async fn a_flag_falls_once_with_three_instances_holding_the_game() {
    let Some(url) = postgres_url("a_flag_falls_once_with_three_instances_holding_the_game") else {
        return;
    };
    with_fresh_database(&url, "cohort_flag", |db| async move {
        let (a, b, c) = (
            App::open(&db).await.unwrap(),
            App::open(&db).await.unwrap(),
            App::open(&db).await.unwrap(),
        );
        let alice = sign_up(&a, "alice").await;
        let bob = sign_up(&b, "bob").await;
        // A live 1+0 game, as the issue asks: White's minute runs out about 60 s from here.
        let challenge = json!({"variant": "chess", "clock": {"minutes": 1, "increment": 0},
                               "colour": "white", "rated": true});
        let (s, made, _) = send(&a, "POST", "/api/challenges", &alice, Some(challenge)).await;
        assert_eq!(s, StatusCode::OK, "{made}");
        let id = made["id"].as_str().unwrap();
        let uri = format!("/api/challenges/{id}/accept");
        let (s, accepted, _) = send(&b, "POST", &uri, &bob, Some(json!({}))).await;
        assert_eq!(s, StatusCode::OK, "{accepted}");
        let game = accepted["game"].as_str().unwrap().to_string();
        let black = accepted["token"].as_str().unwrap().to_string();
        let status = get(
            &c,
            &format!(
                "/api/challenges/{id}?token={}",
                made["token"].as_str().unwrap()
            ),
        )
        .await;
        let white = status["link"]
            .as_str()
            .unwrap()
            .split("token=")
            .nth(1)
            .unwrap()
            .to_string();
        // Two turns each, so that the game is rated; then White's clock runs out.
        let step = format!("/api/games/{game}/step");
        for (app, token, text) in [
            (&a, &white, "e2-e4"),
            (&c, &black, "e7-e5"),
            (&a, &white, "g1-f3"),
            (&c, &black, "b8-c6"),
        ] {
            let (s, v) = post(app, &step, json!({"token": token, "step": text})).await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        let mut watchers = vec![];
        for app in [&a, &b, &c] {
            let slot = app.slot(&game).await.unwrap().expect("the game loads");
            watchers.push((slot.updates.subscribe(), slot));
        }
        let mut results = vec![];
        for (watcher, _slot) in watchers.iter_mut() {
            let ended = tokio::time::timeout(Duration::from_secs(90), async {
                loop {
                    let text = watcher.recv().await.expect("the channel is open");
                    let view: Value = serde_json::from_str(&text).unwrap();
                    if !view["result"].is_null() {
                        return view;
                    }
                }
            })
            .await
            .expect("every instance's watchers see the game end within 90 s");
            results.push(ended["result"].clone());
        }
        assert!(
            results[0]["text"].as_str().unwrap().contains("Black wins"),
            "{:?}",
            results[0]
        );
        assert!(
            results.iter().all(|r| *r == results[0]),
            "one result: {results:?}"
        );
        // The game as every instance shows it: ended once, rated once.
        for app in [&a, &b, &c] {
            let shown = get(app, &format!("/api/games/{game}")).await;
            assert_eq!(shown["result"], results[0]);
            assert!(!shown["rating_change"].is_null(), "rated: {shown}");
        }
        for name in ["alice", "bob"] {
            let player = get(&a, &format!("/api/players/{name}")).await;
            let games: i64 = player["ratings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["games"].as_i64().unwrap())
                .sum();
            assert_eq!(games, 1, "{name}'s ratings count one game: {player}");
        }
        for app in [&a, &b, &c] {
            app.store.close().await;
        }
    })
    .await;
}
