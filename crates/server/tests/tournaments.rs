//! Tournaments (docs/server.md, "Tournaments"): a Swiss paired round after round as its
//! games end, with byes, no repeated pairing and its standings; an Arena pairing players
//! again as their games end and finishing after its time; a restart in the middle of a
//! round; two instances directing one tournament; and the refusals.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use cohort_server::{App, Config};
use serde_json::{json, Value};

use crate::common::{postgres_url, send, signup, temp_db, with_fresh_database};

async fn tour(
    app: &Arc<App>,
    cookie: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (s, v, _) = send(app, method, path, cookie, body).await;
    (s, v)
}

fn swiss(rounds: i64) -> Value {
    json!({"name": "Autumn Swiss", "kind": "swiss", "variant": "chesimals-1",
           "clock": {"minutes": 5, "increment": 3}, "rated": true, "rounds": rounds})
}

/// `cookie`'s account asks `action` (join, withdraw, start) of tournament `id`.
async fn act(app: &Arc<App>, cookie: &str, id: &str, action: &str) -> (StatusCode, Value) {
    tour(
        app,
        cookie,
        "POST",
        &format!("/api/tournaments/{id}/{action}"),
        Some(json!({})),
    )
    .await
}

/// `cookie`'s account joins tournament `id`.
async fn join(app: &Arc<App>, cookie: &str, id: &str) {
    let (s, v) = act(app, cookie, id, "join").await;
    assert_eq!(s, StatusCode::OK, "joining: {v}");
}

/// Sign up `names` and join each to tournament `id`: their cookies.
async fn players(app: &Arc<App>, id: &str, names: &[&str]) -> Vec<String> {
    let mut cookies = vec![];
    for n in names {
        let c = signup(app, n).await;
        join(app, &c, id).await;
        cookies.push(c);
    }
    cookies
}

/// `who`'s game under way, as its page gives it: (game id, seat token).
async fn my_game(app: &Arc<App>, id: &str, cookie: &str) -> Option<(String, String)> {
    let (_, v) = tour(app, cookie, "GET", &format!("/api/tournaments/{id}"), None).await;
    let link = v["me"]["game"]["link"].as_str()?;
    let (path, token) = link.split_once("?token=").unwrap();
    Some((
        path.trim_start_matches("/game/").to_string(),
        token.to_string(),
    ))
}

/// Wait until `f` holds of the tournament (up to `within`): the tournament then.
async fn until(app: &Arc<App>, id: &str, within: Duration, f: impl Fn(&Value) -> bool) -> Value {
    let t0 = Instant::now();
    loop {
        let (_, v) = tour(app, "", "GET", &format!("/api/tournaments/{id}"), None).await;
        if f(&v) {
            return v;
        }
        assert!(t0.elapsed() < within, "not within {within:?}: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// End game `game` with the side of `token` resigning.
async fn resign(app: &Arc<App>, game: &str, token: &str) {
    let (s, v, _) = send(
        app,
        "POST",
        &format!("/api/games/{game}/resign"),
        "",
        Some(json!({"token": token})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "resign: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_five_plays_three_rounds_with_a_bye_each_and_no_repeat() {
    let (_dir, url) = temp_db("tour-swiss");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let creator = signup(&app, "director").await;
    let (s, t) = tour(&app, &creator, "POST", "/api/tournaments", Some(swiss(3))).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(t["status"], "created");
    assert_eq!(t["variant_name"], "Chesimals I", "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let names = ["ann", "ben", "cat", "dan", "eve"];
    let cookies = players(&app, &id, &names).await;
    // Only its creator starts it.
    let (s, v) = act(&app, &cookies[0], &id, "start").await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("forbidden")),
        "{v}"
    );
    let (s, v) = act(&app, &creator, &id, "start").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    for round in 1..=3 {
        let v = until(&app, &id, Duration::from_secs(3), |v| v["round"] == round).await;
        let r = &v["paired_rounds"][round as usize - 1];
        assert_eq!(r["games"].as_array().unwrap().len(), 2, "{r}");
        let bye = r["bye"]
            .as_str()
            .expect("a bye with five players")
            .to_string();
        assert!(byes.insert(bye.clone()), "{bye} had a bye twice: {v}");
        for g in r["games"].as_array().unwrap() {
            let pair = {
                let mut p = [g["white"].as_str().unwrap(), g["black"].as_str().unwrap()];
                p.sort();
                format!("{}-{}", p[0], p[1])
            };
            assert!(met.insert(pair.clone()), "{pair} met twice: {v}");
        }
        // Every game of the round ends: the higher in the alphabet resigns.
        // Every seat first: the next round is paired as soon as the last game ends.
        let mut seats = vec![];
        for (i, n) in names.iter().enumerate() {
            let seat = my_game(&app, &id, &cookies[i]).await;
            assert_eq!(seat.is_none(), *n == bye, "{n}: {seat:?}");
            seats.push(seat);
        }
        let t0 = Instant::now();
        for (i, n) in names.iter().enumerate() {
            let Some((game, token)) = seats[i].clone() else {
                continue;
            };
            // The game page finds its tournament and round.
            let (_, of) = tour(
                &app,
                "",
                "GET",
                &format!("/api/games/{game}/tournament"),
                None,
            )
            .await;
            assert_eq!(
                (
                    of["tournament"]["id"].as_str(),
                    of["tournament"]["round"].as_i64()
                ),
                (Some(id.as_str()), Some(round)),
                "{of}"
            );
            // An abort is refused: a tournament game is played out.
            let (s, a, _) = send(
                &app,
                "POST",
                &format!("/api/games/{game}/abort"),
                "",
                Some(json!({"token": token})),
            )
            .await;
            assert_eq!(
                (s, a["code"].as_str()),
                (StatusCode::CONFLICT, Some("tournament_game")),
                "{a}"
            );
            let g = r["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["game"] == game.as_str())
                .unwrap()
                .clone();
            let other = if g["white"] == *n {
                g["black"].as_str().unwrap()
            } else {
                g["white"].as_str().unwrap()
            };
            if *n > other {
                resign(&app, &game, &token).await;
            }
        }
        if round < 3 {
            until(&app, &id, Duration::from_secs(3), |v| {
                v["round"] == round + 1
            })
            .await;
            eprintln!(
                "round {} paired {} ms after the last game ended",
                round + 1,
                t0.elapsed().as_millis()
            );
        }
    }
    let v = until(&app, &id, Duration::from_secs(3), |v| {
        v["status"] == "finished"
    })
    .await;
    // Points: a win for the lower name of each pair, a point for each bye.
    let mut expected = std::collections::HashMap::new();
    for r in v["paired_rounds"].as_array().unwrap() {
        *expected
            .entry(r["bye"].as_str().unwrap().to_string())
            .or_insert(0.0) += 1.0;
        for g in r["games"].as_array().unwrap() {
            let (w, b) = (g["white"].as_str().unwrap(), g["black"].as_str().unwrap());
            let winner = w.min(b);
            assert_eq!(g["result"], if winner == w { "1-0" } else { "0-1" }, "{g}");
            *expected.entry(winner.to_string()).or_insert(0.0) += 1.0;
        }
    }
    let standings = v["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 5);
    for s in standings {
        let got = s["points"].as_f64().unwrap();
        assert_eq!(
            got,
            expected
                .get(s["username"].as_str().unwrap())
                .copied()
                .unwrap_or(0.0),
            "{s}"
        );
    }
    let pts: Vec<f64> = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .collect();
    assert!(
        pts.windows(2).all(|w| w[0] >= w[1]),
        "standings in order: {pts:?}"
    );
    assert_eq!(v["crosstable"].as_array().unwrap().len(), 5);
    assert_eq!(v["crosstable"][0]["cells"].as_array().unwrap().len(), 3);
    // Finished: no joining.
    let (s, j) = act(&app, &creator, &id, "join").await;
    assert_eq!(
        (s, j["code"].as_str()),
        (StatusCode::CONFLICT, Some("tournament_closed")),
        "{j}"
    );
    app.store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_pairs_players_again_as_their_games_end_and_finishes_after_its_time() {
    let (_dir, url) = temp_db("tour-arena");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let creator = signup(&app, "host").await;
    let (s, t) = tour(
        &app,
        &creator,
        "POST",
        "/api/tournaments",
        Some(json!({
        "name": "Blitz arena", "kind": "arena", "variant": "chieftain",
        "clock": {"minutes": 1, "increment": 0}, "minutes": 10})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let names = ["ann", "ben", "cat", "dan"];
    let cookies = players(&app, &id, &names).await;
    let (s, v) = act(&app, &creator, &id, "start").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(
        v["ends_ms"].as_i64().unwrap() > v["now_ms"].as_i64().unwrap() + 9 * 60_000,
        "{v}"
    );
    // Three times: every game ends (ann always wins; else the first in the alphabet
    // resigns), and everyone is in a new game within 2 s.
    let mut slowest = Duration::ZERO;
    for _ in 0..3 {
        until(&app, &id, Duration::from_secs(3), |v| {
            v["standings"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| !s["playing"].is_null())
        })
        .await;
        let mut seats = vec![];
        for c in &cookies {
            seats.push(my_game(&app, &id, c).await);
        }
        let mut ended = vec![];
        for (i, n) in names.iter().enumerate() {
            let Some((game, token)) = seats[i].clone() else {
                continue;
            };
            if ended.contains(&game) {
                continue;
            }
            // The side of `n` resigns unless `n` is ann.
            if *n != "ann" {
                resign(&app, &game, &token).await;
                ended.push(game);
            }
        }
        let t0 = Instant::now();
        let v = until(&app, &id, Duration::from_secs(5), |v| {
            v["standings"].as_array().unwrap().iter().all(|s| {
                !s["playing"].is_null()
                    && !ended.contains(&s["playing"].as_str().unwrap().to_string())
            })
        })
        .await;
        slowest = slowest.max(t0.elapsed());
        assert!(
            t0.elapsed() < Duration::from_secs(2),
            "paired again after {:?}: {v}",
            t0.elapsed()
        );
    }
    eprintln!("slowest re-pairing: {} ms", slowest.as_millis());
    let v = until(&app, &id, Duration::from_secs(1), |_| true).await;
    // ann won all three: on fire from the third (2 + 2 + 4).
    let ann = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["username"] == "ann")
        .unwrap()
        .clone();
    assert_eq!(ann["sheet"], json!([2, 2, 4]), "{v}");
    assert_eq!(ann["on_fire"], true);
    assert_eq!(v["standings"][0]["username"], "ann");
    for s in v["standings"].as_array().unwrap() {
        let sum: i64 = s["sheet"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_i64().unwrap())
            .sum();
        assert_eq!(s["points"].as_i64().unwrap(), sum, "{s}");
    }
    // Its time is up (moved to now in storage): no new game, and once the games under way
    // end it is finished.
    {
        use sqlx::Executor;
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        pool.execute(
            sqlx::query("UPDATE tournaments SET ends_ms = $1, version = version + 1")
                .bind(cohort_server::store::now_ms()),
        )
        .await
        .unwrap();
        pool.close().await;
    }
    for (i, _) in names.iter().enumerate() {
        if let Some((game, token)) = my_game(&app, &id, &cookies[i]).await {
            let (_, g) = tour(&app, "", "GET", &format!("/api/games/{game}"), None).await;
            if g["result"].is_null() {
                resign(&app, &game, &token).await;
            }
        }
    }
    let v = until(&app, &id, Duration::from_secs(3), |v| {
        v["status"] == "finished"
    })
    .await;
    assert!(
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["playing"].is_null()),
        "{v}"
    );
    app.store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_survives_a_restart_in_the_middle_of_a_round() {
    let (_dir, url) = temp_db("tour-restart");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let creator = signup(&app, "boss").await;
    let (_, t) = tour(&app, &creator, "POST", "/api/tournaments", Some(swiss(2))).await;
    let id = t["id"].as_str().unwrap().to_string();
    let cookies = players(&app, &id, &["ann", "ben", "cat", "dan"]).await;
    act(&app, &creator, &id, "start").await;
    until(&app, &id, Duration::from_secs(3), |v| v["round"] == 1).await;
    // One game ends before the restart, the other after.
    let (g0, t0) = my_game(&app, &id, &cookies[0]).await.unwrap();
    resign(&app, &g0, &t0).await;
    until(&app, &id, Duration::from_secs(3), |v| {
        v["paired_rounds"][0]["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| !g["result"].is_null())
    })
    .await;
    app.store.close().await;
    drop(app);
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let v = until(&app, &id, Duration::from_secs(1), |_| true).await;
    assert_eq!(
        (v["status"].as_str(), v["round"].as_i64()),
        (Some("running"), Some(1)),
        "{v}"
    );
    let mut ended = false;
    for c in cookies.iter().skip(1) {
        if let Some((g, t)) = my_game(&app, &id, c).await {
            if g != g0 {
                resign(&app, &g, &t).await;
                ended = true;
                break;
            }
        }
    }
    assert!(
        ended,
        "the second game of round 1 was there after the restart"
    );
    let v = until(&app, &id, Duration::from_secs(3), |v| v["round"] == 2).await;
    let total: f64 = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 2.0, "both results of round 1 counted once: {v}");
    app.store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_say_what_is_wrong_and_change_nothing() {
    let (_dir, url) = temp_db("tour-refusals");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let (s, v) = tour(&app, "", "POST", "/api/tournaments", Some(swiss(3))).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("login_required")),
        "{v}"
    );
    let me = signup(&app, "maker").await;
    for (body, field) in [
        (
            json!({"name": "x", "kind": "round-robin", "variant": "chesimals-1", "clock": {"minutes": 5}, "rounds": 3}),
            "kind",
        ),
        (
            json!({"name": "x", "kind": "swiss", "variant": "nope", "clock": {"minutes": 5}, "rounds": 3}),
            "variant",
        ),
        (
            json!({"name": "x", "kind": "swiss", "variant": "chesimals-1", "clock": {"minutes": 5}, "rounds": 0}),
            "rounds",
        ),
        (
            json!({"name": "x", "kind": "swiss", "variant": "chesimals-1", "clock": {}, "rounds": 3}),
            "clock",
        ),
        (
            json!({"name": "x", "kind": "arena", "variant": "chesimals-1", "clock": {"days": 2}, "minutes": 30}),
            "clock",
        ),
        (
            json!({"name": "x", "kind": "arena", "variant": "chesimals-1", "clock": {"minutes": 1}}),
            "minutes",
        ),
        (
            json!({"name": " ", "kind": "arena", "variant": "chesimals-1", "clock": {"minutes": 1}, "minutes": 5}),
            "name",
        ),
        (
            json!({"name": "x", "kind": "swiss", "variant": "chesimals-1", "clock": {"minutes": 5}, "rounds": 3, "bye": 2}),
            "bye",
        ),
        (
            json!({"name": "x", "kind": "swiss", "variant": "chesimals-1", "clock": {"minutes": 5}, "rounds": 3, "starts_in_minutes": -1}),
            "starts_in_minutes",
        ),
    ] {
        let (s, v) = tour(&app, &me, "POST", "/api/tournaments", Some(body.clone())).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(field),
            "{body}: the message names {field}: {v}"
        );
    }
    let (_, list) = tour(&app, "", "GET", "/api/tournaments", None).await;
    assert_eq!(list["tournaments"], json!([]), "nothing was created");
    // Three open tournaments per account.
    for _ in 0..3 {
        let (s, v) = tour(&app, &me, "POST", "/api/tournaments", Some(swiss(3))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (s, v) = tour(&app, &me, "POST", "/api/tournaments", Some(swiss(3))).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("limit_reached")),
        "{v}"
    );
    let (_, list) = tour(&app, "", "GET", "/api/tournaments", None).await;
    assert_eq!(list["tournaments"].as_array().unwrap().len(), 3);
    let id = list["tournaments"][0]["id"].as_str().unwrap().to_string();
    // A Swiss of one player does not start.
    let (s, _) = act(&app, &me, &id, "join").await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = act(&app, &me, &id, "start").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Withdrawing before the start leaves the list; twice is refused.
    let (s, v) = act(&app, &me, &id, "withdraw").await;
    assert_eq!((s, v["players"].as_i64()), (StatusCode::OK, Some(0)), "{v}");
    let (s, _) = act(&app, &me, &id, "withdraw").await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, g) = tour(
        &app,
        "",
        "POST",
        "/api/games",
        Some(json!({"variant": "chesimals-1", "white": "human", "black": "human"})),
    )
    .await;
    let (s, of) = tour(
        &app,
        "",
        "GET",
        &format!("/api/games/{}/tournament", g["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(
        (s, &of["tournament"]),
        (StatusCode::OK, &Value::Null),
        "a game of no tournament: {of}"
    );
    let (s, v) = tour(&app, "", "GET", "/api/tournaments/nope", None).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found")),
        "{v}"
    );
    app.store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_pair_each_round_once() {
    let Some(url) = postgres_url("two_instances_pair_each_round_once") else {
        return;
    };
    with_fresh_database(&url, "cohort_tour_", |db| async move {
        let a = App::open_with(&db, Config::default()).await.unwrap();
        let b = App::open_with(&db, Config::default()).await.unwrap();
        let creator = signup(&a, "host").await;
        let (_, t) = tour(&a, &creator, "POST", "/api/tournaments", Some(swiss(3))).await;
        let id = t["id"].as_str().unwrap().to_string();
        let names = ["pl1", "pl2", "pl3", "pl4", "pl5", "pl6"];
        let mut cookies = vec![];
        for (i, n) in names.iter().enumerate() {
            let app = if i % 2 == 0 { &a } else { &b };
            let c = signup(app, n).await;
            join(app, &c, &id).await;
            cookies.push(c);
        }
        act(&b, &creator, &id, "start").await;
        for round in 1..=2 {
            let v = until(&a, &id, Duration::from_secs(5), |v| v["round"] == round).await;
            tokio::time::sleep(Duration::from_millis(600)).await;
            let v2 = until(&b, &id, Duration::from_secs(1), |_| true).await;
            assert_eq!(
                v["paired_rounds"], v2["paired_rounds"],
                "both instances see one pairing"
            );
            assert_eq!(
                v2["paired_rounds"][round as usize - 1]["games"]
                    .as_array()
                    .unwrap()
                    .len(),
                3,
                "{v2}"
            );
            assert_eq!(v2["round"], round, "paired once: {v2}");
            // Games end on both instances.
            let mut seats = vec![];
            for (i, c) in cookies.iter().enumerate() {
                let app = if i % 2 == 0 { &a } else { &b };
                seats.push(my_game(app, &id, c).await);
            }
            for (i, seat) in seats.into_iter().enumerate() {
                let app = if i % 2 == 0 { &a } else { &b };
                if let Some((g, t)) = seat {
                    let (_, gv) = tour(app, "", "GET", &format!("/api/games/{g}"), None).await;
                    if gv["result"].is_null() {
                        resign(app, &g, &t).await;
                    }
                }
            }
        }
        until(&a, &id, Duration::from_secs(5), |v| v["round"] == 3).await;
        a.store.close().await;
        b.store.close().await;
    })
    .await;
}

/// A Swiss in an uploaded variant, by correspondence (days per turn), that starts at its
/// time without its creator: its games are of that variant and clock, unrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_variant_by_correspondence_starts_at_its_time() {
    let (_dir, url) = temp_db("tour-uploaded");
    let app = App::open_with(&url, Config::default()).await.unwrap();
    let creator = signup(&app, "maker").await;
    let text = "[tiny-test]\nbase = mini-chieftain\nname = Tiny Test Chieftain\nboard = 6x6\n\
                piece C = Chieftain, K^, leader royal\nsetup = 1ccm2/6/6/6/6/2CMC1 w\n";
    let mut body = json!({"name": "Tiny by mail", "kind": "swiss", "variant": "tiny-test",
        "variant_text": text, "clock": {"days": 2}, "rounds": 1, "starts_in_minutes": 0.02});
    // Rated games of an uploaded variant are refused.
    body["rated"] = true.into();
    let (s, v) = tour(
        &app,
        &creator,
        "POST",
        "/api/tournaments",
        Some(body.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    body["rated"] = false.into();
    let (s, t) = tour(&app, &creator, "POST", "/api/tournaments", Some(body)).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(
        (t["variant_name"].as_str(), t["custom"].as_bool()),
        (Some("Tiny Test Chieftain"), Some(true)),
        "{t}"
    );
    assert_eq!(t["time_control"], "2 days per turn", "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let cookies = players(&app, &id, &["ann", "ben"]).await;
    // Nobody presses start: the director starts it about a second later.
    let v = until(&app, &id, Duration::from_secs(5), |v| v["round"] == 1).await;
    assert_eq!(v["status"], "running", "{v}");
    let (game, _) = my_game(&app, &id, &cookies[0]).await.expect("ann's game");
    let (_, g) = tour(&app, "", "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(g["variant"], "tiny-test", "{g}");
    assert_eq!(g["rated"], false, "{g}");
    assert!(
        g["clock"].to_string().contains("day") || g["time_control"].to_string().contains("day"),
        "a correspondence clock: {g}"
    );
    app.store.close().await;
}

/// A player who withdraws during a Swiss is not paired again (the others play on, with a
/// bye when they are odd); a player who never makes its first step forfeits and is
/// withdrawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn withdrawn_and_forfeiting_players_are_not_paired_again() {
    let (_dir, url) = temp_db("tour-withdraw");
    let config = Config {
        first_step_window: Duration::from_millis(1000),
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    let creator = signup(&app, "chair").await;
    let (_, t) = tour(&app, &creator, "POST", "/api/tournaments", Some(swiss(3))).await;
    let id = t["id"].as_str().unwrap().to_string();
    let names = ["ann", "ben", "cat", "dan"];
    let cookies = players(&app, &id, &names).await;
    act(&app, &creator, &id, "start").await;
    until(&app, &id, Duration::from_secs(3), |v| v["round"] == 1).await;
    // dan withdraws during round 1: his game goes on, and is played out.
    let (s, v) = act(&app, &cookies[3], &id, "withdraw").await;
    assert_eq!(
        (s, v["me"]["withdrawn"].as_bool()),
        (StatusCode::OK, Some(true)),
        "{v}"
    );
    let mut seats = vec![];
    for c in &cookies {
        seats.push(my_game(&app, &id, c).await);
    }
    assert!(
        seats[3].is_some(),
        "a withdrawn player's game under way goes on"
    );
    // Round 1 ends: Black resigns every game; the forfeit comes in round 2.
    let mut ended = vec![];
    for seat in &seats {
        let Some((g, tok)) = seat else { continue };
        if ended.contains(g) {
            continue;
        }
        let (_, gv) = tour(
            &app,
            "",
            "GET",
            &format!("/api/games/{g}?token={tok}"),
            None,
        )
        .await;
        if gv["seat"] == "black" {
            resign(&app, g, tok).await;
            ended.push(g.clone());
        }
    }
    let v = until(&app, &id, Duration::from_secs(3), |v| v["round"] == 2).await;
    let r2 = &v["paired_rounds"][1];
    assert_eq!(
        r2["games"].as_array().unwrap().len(),
        1,
        "three players left: one game and a bye: {r2}"
    );
    let playing: Vec<&str> = r2["games"][0]["white"]
        .as_str()
        .into_iter()
        .chain(r2["games"][0]["black"].as_str())
        .chain(r2["bye"].as_str())
        .collect();
    assert!(!playing.contains(&"dan"), "dan is not paired again: {r2}");
    // Round 2's game: nobody moves. The first-step window aborts it: White, who never
    // moved, loses it and is withdrawn.
    let white = r2["games"][0]["white"].as_str().unwrap().to_string();
    let v = until(&app, &id, Duration::from_secs(6), |v| {
        v["round"] == 3 || v["status"] == "finished"
    })
    .await;
    let r2 = &v["paired_rounds"][1];
    assert_eq!(
        r2["games"][0]["result"], "0-1",
        "the side that never moved forfeits: {v}"
    );
    let line = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["username"] == white.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        line["withdrawn"], true,
        "{white} forfeited and is withdrawn: {line}"
    );
    app.store.close().await;
}
