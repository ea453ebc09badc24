//! Bounded memory: games nobody asks for leave memory and come back from storage on demand,
//! as they were (docs/server.md, "Memory").

use std::time::Duration;

use axum::http::StatusCode;
use cohort_server::{App, Config};
use serde_json::json;

mod common;
use common::*;

/// The resident set of this process, in MiB (Linux).
fn rss_mib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS in /proc/self/status");
    kb / 1024
}

/// What this test allows the whole test process (server, database, 2,000 games created)
/// to hold once the games are idle.
const RSS_BOUND_MIB: u64 = 64;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_as_they_were() {
    let (dir, url) = temp_db("idle-unload");
    let config = Config {
        idle_unload: Duration::from_millis(400),
        ..Config::default()
    };
    let app = App::open_with(&url, config).await.unwrap();
    let mut ids = vec![];
    for i in 0..2000 {
        let (s, v) = post(
            &app,
            "/api/games",
            json!({"variant": if i % 2 == 0 { "chesimals-1" } else { "chess" }, "white": "human", "black": "human"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "game {i}: {v}");
        ids.push((
            v["id"].as_str().unwrap().to_string(),
            v["tokens"]["white"].as_str().unwrap().to_string(),
        ));
    }
    // A step in the first game, so that it has something to come back with.
    let (first, white) = &ids[0];
    let view = get(&app, &format!("/api/games/{first}")).await;
    let step = view["legal"][0]["text"].as_str().unwrap().to_string();
    let (s, played) = post(
        &app,
        &format!("/api/games/{first}/step"),
        json!({"token": white, "step": step}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{played}");
    // A game someone holds (here the test; a watcher's socket, a clock or an AI search in
    // play) stays, however idle.
    let held = app.slot(&ids[1].0).await.unwrap().unwrap();

    // Weak references to a sample of the games, each taken while it is loaded: once a game
    // is unloaded its memory must be freed, not kept somewhere (a leak in unload_idle would
    // keep them alive, and 2,000 games are only about 12 MiB: the RSS bound alone misses it).
    let mut sample = vec![];
    for (id, _) in ids.iter().skip(2).step_by(20) {
        let slot = app.slot(id).await.unwrap().unwrap();
        sample.push((id.clone(), std::sync::Arc::downgrade(&slot)));
    }

    // Left alone, the others leave memory.
    let mut waited = 0;
    while app.resident_games() > 1 && waited < 100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += 1;
    }
    assert_eq!(app.resident_games(), 1, "only the held game stays");
    let alive: Vec<&String> = sample
        .iter()
        .filter(|(_, weak)| weak.upgrade().is_some())
        .map(|(id, _)| id)
        .collect();
    assert!(
        alive.is_empty(),
        "{} of {} unloaded games are still in memory: {alive:?}",
        alive.len(),
        sample.len()
    );
    let rss = rss_mib();
    eprintln!(
        "2000 games idle: {} resident, process RSS {rss} MiB",
        app.resident_games()
    );
    assert!(
        rss < RSS_BOUND_MIB,
        "RSS {rss} MiB, bound {RSS_BOUND_MIB} MiB"
    );

    // Asked for again, a game comes back as it was, its step included, and plays on.
    let back = get(&app, &format!("/api/games/{first}")).await;
    assert_eq!(back["version"], played["version"]);
    assert_eq!(back["position"], played["position"]);
    assert_eq!(back["turn_steps"], played["turn_steps"]);
    assert_eq!(app.resident_games(), 2);
    let next = back["legal"][0]["text"].as_str().unwrap().to_string();
    let (s, v) = post(
        &app,
        &format!("/api/games/{first}/step"),
        json!({"token": white, "step": next}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    drop(held);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
