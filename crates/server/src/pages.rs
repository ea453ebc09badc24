//! The HTML pages (small shells; web/static/app.js and the page scripts it lists draw them) and the static files,
//! embedded at build time. With COHORT_STATIC_DIR set, static files are read from that
//! folder on every request instead, for work on the front end without rebuilding.

use axum::extract::{Path, Query};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

const STATIC: &[(&str, &str, &str)] = &[
    (
        "board.js",
        "text/javascript",
        include_str!("../../../web/static/board.js"),
    ),
    (
        "app.js",
        "text/javascript",
        include_str!("../../../web/static/app.js"),
    ),
    (
        "common.js",
        "text/javascript",
        include_str!("../../../web/static/common.js"),
    ),
    (
        "home.js",
        "text/javascript",
        include_str!("../../../web/static/home.js"),
    ),
    (
        "game-state.js",
        "text/javascript",
        include_str!("../../../web/static/game-state.js"),
    ),
    (
        "move-input.js",
        "text/javascript",
        include_str!("../../../web/static/move-input.js"),
    ),
    (
        "move-list.js",
        "text/javascript",
        include_str!("../../../web/static/move-list.js"),
    ),
    (
        "panels.js",
        "text/javascript",
        include_str!("../../../web/static/panels.js"),
    ),
    (
        "game-page.js",
        "text/javascript",
        include_str!("../../../web/static/game-page.js"),
    ),
    (
        "replay.js",
        "text/javascript",
        include_str!("../../../web/static/replay.js"),
    ),
    (
        "rules-page.js",
        "text/javascript",
        include_str!("../../../web/static/rules-page.js"),
    ),
    (
        "pieces.js",
        "text/javascript",
        include_str!("../../../web/static/pieces.js"),
    ),
    (
        "custom.js",
        "text/javascript",
        include_str!("../../../web/static/custom.js"),
    ),
    (
        "records.js",
        "text/javascript",
        include_str!("../../../web/static/records.js"),
    ),
    (
        "style.css",
        "text/css",
        include_str!("../../../web/static/style.css"),
    ),
    (
        "account.js",
        "text/javascript",
        include_str!("../../../web/static/account.js"),
    ),
    (
        "clock.js",
        "text/javascript",
        include_str!("../../../web/static/clock.js"),
    ),
    (
        "lobby.js",
        "text/javascript",
        include_str!("../../../web/static/lobby.js"),
    ),
    (
        "play.css",
        "text/css",
        include_str!("../../../web/static/play.css"),
    ),
];

pub fn router() -> Router {
    Router::new()
        .route("/", get(|| async { shell("home", "") }))
        .route("/game/{id}", get(game_page))
        .route("/rules/{id}", get(rules_page))
        .route("/record", get(|| async { shell("record", "") }))
        .route("/lobby", get(|| async { shell("lobby", "") }))
        .route("/login", get(|| async { shell("login", "") }))
        .route("/player/{name}", get(player_page))
        .route("/static/{file}", get(static_file))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
}

fn shell(page: &str, game: &str) -> Html<String> {
    Html(format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Cohort</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"><link rel="stylesheet" href="/static/play.css"></head>
<body data-page="{page}" data-game="{game}">
<header><a href="/">Cohort</a><nav id="account" class="account"></nav></header><main id="app"></main>
<script src="/static/pieces.js"></script><script src="/static/board.js"></script><script src="/static/custom.js"></script>
<script src="/static/account.js"></script><script src="/static/clock.js"></script><script src="/static/lobby.js"></script>
<script src="/static/common.js"></script><script src="/static/home.js"></script><script src="/static/game-state.js"></script>
<script src="/static/move-input.js"></script><script src="/static/move-list.js"></script><script src="/static/panels.js"></script>
<script src="/static/game-page.js"></script><script src="/static/replay.js"></script><script src="/static/rules-page.js"></script>
<script src="/static/app.js"></script><script src="/static/records.js"></script></body></html>
"#
    ))
}

#[derive(Deserialize)]
struct Ignored {}

async fn game_page(Path(id): Path<String>, _q: Query<Ignored>) -> Response {
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return (StatusCode::NOT_FOUND, "no such game").into_response();
    }
    shell("game", &id).into_response()
}

/// A variant's rules page (app.js draws it from `GET /api/variants/<id>`).
async fn rules_page(Path(id): Path<String>) -> Response {
    if cohort_rules::builtin(&id).is_none() {
        return (StatusCode::NOT_FOUND, "no such variant").into_response();
    }
    shell("rules", "").into_response()
}

async fn player_page(Path(name): Path<String>) -> Response {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !ok {
        return (StatusCode::NOT_FOUND, "no such player").into_response();
    }
    shell("player", "").into_response()
}

async fn static_file(Path(file): Path<String>) -> Response {
    let Some(&(name, mime, embedded)) = STATIC.iter().find(|f| f.0 == file) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let text = match std::env::var("COHORT_STATIC_DIR") {
        Ok(dir) => std::fs::read_to_string(std::path::Path::new(&dir).join(name))
            .unwrap_or_else(|_| embedded.to_string()),
        Err(_) => embedded.to_string(),
    };
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}
