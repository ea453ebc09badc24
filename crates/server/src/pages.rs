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
        "alerts.js",
        "text/javascript",
        include_str!("../../../web/static/alerts.js"),
    ),
    (
        "lobby.js",
        "text/javascript",
        include_str!("../../../web/static/lobby.js"),
    ),
    (
        "chat.js",
        "text/javascript",
        include_str!("../../../web/static/chat.js"),
    ),
    (
        "analysis.js",
        "text/javascript",
        include_str!("../../../web/static/analysis.js"),
    ),
    (
        "local.js",
        "text/javascript",
        include_str!("../../../web/static/local.js"),
    ),
    (
        "tournaments.js",
        "text/javascript",
        include_str!("../../../web/static/tournaments.js"),
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
        .route("/local", get(|| async { Html(local_page(true)) }))
        .route("/lobby", get(|| async { shell("lobby", "") }))
        .route("/analysis", get(|| async { shell("analysis", "") }))
        .route("/tournaments", get(|| async { shell("tournaments", "") }))
        .route("/tournament/{id}", get(tournament_page))
        .route("/login", get(login_page))
        .route("/player/{name}", get(player_page))
        .route("/static/{file}", get(static_file))
        .route("/wasm/{file}", get(wasm_file))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
}

/// The local-play page (web/static/local.html, docs/wasm.md "Local play"): the game against
/// the engine in the browser, on the WebAssembly module. Its addresses are relative
/// (`static/...`, `wasm/...`), so the same page works at `/local` and as `local.html` of the
/// static site `cohort site` writes. `on_server`: the page may offer "Continue on the
/// server" (the static site has no server).
pub fn local_page(on_server: bool) -> String {
    let html = include_str!("../../../web/static/local.html");
    if on_server {
        html.replace(r#"data-site="static""#, r#"data-site="server""#)
    } else {
        html.to_string()
    }
}

/// The files of the static site `cohort site` writes, but the module: its path in the site
/// (`static/...`, `wasm/...`) and its text, as `cohort serve` serves them (embedded).
pub fn site_files() -> Vec<(String, &'static str)> {
    let mut files: Vec<(String, &'static str)> = STATIC
        .iter()
        .map(|&(name, _, text)| (format!("static/{name}"), text))
        .collect();
    files.extend(
        WASM_JS
            .iter()
            .map(|&(name, text)| (format!("wasm/{name}"), text)),
    );
    files
}

/// A page of the static site `cohort site` writes (docs/wasm.md, "cohort site"): the shell
/// of `page` ("analysis", "rules") with relative addresses (`static/...`), marked
/// `data-site="static"` (no server behind it: the scripts read their data from the module and
/// from files next to the page), and only the scripts those pages use (no account, chat or
/// game scripts, which ask the server).
pub fn site_page(page: &str) -> String {
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Cohort</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="static/style.css"><link rel="stylesheet" href="static/play.css"></head>
<body data-page="{page}" data-game="" data-site="static">
<header><a href="./">Cohort</a></header><main id="app"></main>
<script src="static/pieces.js"></script><script src="static/board.js"></script>
<script src="static/common.js"></script><script src="static/move-list.js"></script>
<script src="static/rules-page.js"></script><script src="static/analysis.js"></script><script src="static/app.js"></script></body></html>
"#
    )
}

fn shell(page: &str, game: &str) -> Html<String> {
    shell_with(page, game, "")
}

/// The page shell; `extra` holds further attributes of `<body>` (already escaped).
fn shell_with(page: &str, game: &str, extra: &str) -> Html<String> {
    Html(format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Cohort</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"><link rel="stylesheet" href="/static/play.css"></head>
<body data-page="{page}" data-game="{game}"{extra}>
<header><a href="/">Cohort</a><nav id="account" class="account"></nav></header><main id="app"></main>
<script src="/static/pieces.js"></script><script src="/static/board.js"></script><script src="/static/custom.js"></script>
<script src="/static/account.js"></script><script src="/static/alerts.js"></script><script src="/static/clock.js"></script><script src="/static/chat.js"></script><script src="/static/lobby.js"></script>
<script src="/static/common.js"></script><script src="/static/home.js"></script><script src="/static/game-state.js"></script>
<script src="/static/move-input.js"></script><script src="/static/move-list.js"></script><script src="/static/panels.js"></script>
<script src="/static/game-page.js"></script><script src="/static/replay.js"></script><script src="/static/rules-page.js"></script>
<script src="/static/analysis.js"></script><script src="/static/tournaments.js"></script><script src="/static/app.js"></script><script src="/static/records.js"></script></body></html>
"#
    ))
}

#[derive(Deserialize)]
struct Ignored {}

#[derive(Deserialize)]
struct LoginQuery {
    next: Option<String>,
}

/// Where the log-in page goes after a log-in: `next` if it is a path of this site, else `/`
/// (`/lobby` when there is no `next`). The page reads it from `data-next`.
async fn login_page(
    q: Result<Query<LoginQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let next = match q.ok().and_then(|q| q.0.next) {
        None => "/lobby".to_string(),
        Some(n) if safe_next(&n) => n,
        Some(_) => "/".to_string(),
    };
    shell_with(
        "login",
        "",
        &format!(r#" data-next="{}""#, escape_attr(&next)),
    )
    .into_response()
}

/// Whether `next` (already percent-decoded once, as the query gives it) is a path of this
/// site: it starts with one `/` (not `//`), and neither it nor its percent-decoded form has
/// a backslash, a control character or white space (browsers drop tabs and newlines and
/// read `\` as `/`, which would make `/\evil.example` or `/%09/evil.example` another site).
pub fn safe_next(next: &str) -> bool {
    fn plain(p: &str) -> bool {
        p.starts_with('/')
            && !p.starts_with("//")
            && !p
                .chars()
                .any(|c| c == '\\' || c.is_control() || c.is_whitespace())
    }
    next.len() <= 1024 && plain(next) && plain(&percent_decode(next))
}

/// `%XX` escapes decoded (bytes that do not make UTF-8 become U+FFFD).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn escape_attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn next_is_a_path_of_this_site_only() {
        for ok in [
            "/",
            "/lobby",
            "/game/abc?token=12",
            "/player/al_ice",
            "/rules/chess%2Dx",
        ] {
            assert!(safe_next(ok), "{ok} refused");
        }
        for bad in [
            "/\\evil.example",
            "/\t/evil.example",
            "/%09/evil.example",
            "/%5Cevil.example",
            "//evil.example",
            "/%2F/evil.example",
            "https://evil.example",
            "evil.example",
            "",
            "/ /evil.example",
            "/\n/evil.example",
        ] {
            assert!(!safe_next(bad), "{bad:?} accepted");
        }
    }
}

/// A page for an address the site has no page at: 404, in the site's frame, saying what was
/// asked and where to go; plain HTML (no script), so it shows even where scripts do not run.
pub fn not_found_page(path: &str, why: &str) -> Response {
    let shown: String = path.chars().take(200).collect();
    let html = format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Not found - Cohort</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"></head>
<body data-page="not-found">
<header><a href="/">Cohort</a></header>
<main><h1>Page not found</h1>
<p>Cohort has no page at <code data-testid="missing-path">{}</code>. {}</p>
<p><a href="/">Home: play a game</a> &middot; <a href="/lobby">Lobby</a> &middot; <a href="/record">Open a record</a></p>
</main></body></html>
"#,
        escape_attr(&shown),
        escape_attr(why)
    );
    (StatusCode::NOT_FOUND, Html(html)).into_response()
}

async fn game_page(Path(id): Path<String>, _q: Query<Ignored>) -> Response {
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return not_found_page(&format!("/game/{id}"), "There is no game with this id.");
    }
    shell("game", &id).into_response()
}

/// A variant's rules page (app.js draws it from `GET /api/variants/<id>`).
async fn rules_page(Path(id): Path<String>) -> Response {
    if cohort_rules::builtin(&id).is_none() {
        return not_found_page(
            &format!("/rules/{id}"),
            "Cohort has no game by this name; the home page lists every one.",
        );
    }
    shell("rules", "").into_response()
}

/// A tournament's page (web/static/tournaments.js draws it from `GET /api/tournaments/<id>`
/// and its WebSocket); the id is given to the page in `data-tournament`.
async fn tournament_page(Path(id): Path<String>) -> Response {
    let ok = (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !ok {
        return not_found_page(
            &format!("/tournament/{id}"),
            "There is no tournament with this id; /tournaments lists them.",
        );
    }
    shell_with(
        "tournament",
        "",
        &format!(r#" data-tournament="{}""#, escape_attr(&id)),
    )
    .into_response()
}

async fn player_page(Path(name): Path<String>) -> Response {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !ok {
        return not_found_page(
            &format!("/player/{name}"),
            "A player's name has 1 to 64 letters, digits, '_' or '-'.",
        );
    }
    shell("player", "").into_response()
}

/// The WebAssembly build (docs/wasm.md): its JavaScript embedded as the static files are,
/// the module read from disk on each request (scripts/wasm-build writes it; it is not in
/// the repository): `COHORT_WASM` names the file, else `COHORT_STATIC_DIR`/wasm/cohort.wasm,
/// else web/static/wasm/cohort.wasm of the source tree this server was built from.
const WASM_JS: &[(&str, &str)] = &[
    (
        "cohort.js",
        include_str!("../../../web/static/wasm/cohort.js"),
    ),
    (
        "worker.js",
        include_str!("../../../web/static/wasm/worker.js"),
    ),
];

/// Where `cohort serve` reads the WebAssembly module from (and `cohort site` copies it from).
pub fn wasm_path() -> std::path::PathBuf {
    if let Ok(file) = std::env::var("COHORT_WASM") {
        return file.into();
    }
    if let Ok(dir) = std::env::var("COHORT_STATIC_DIR") {
        return std::path::Path::new(&dir).join("wasm/cohort.wasm");
    }
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/static/wasm/cohort.wasm")
}

async fn wasm_file(Path(file): Path<String>) -> Response {
    if file == "cohort.wasm" {
        let path = wasm_path();
        return match std::fs::read(&path) {
            Ok(bytes) => (
                [
                    (header::CONTENT_TYPE, "application/wasm"),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                bytes,
            )
                .into_response(),
            Err(e) => (
                StatusCode::NOT_FOUND,
                format!(
                    "cohort.wasm is not built ({}: {e}); run scripts/wasm-build, or set COHORT_WASM to the file",
                    path.display()
                ),
            )
                .into_response(),
        };
    }
    let Some(&(name, embedded)) = WASM_JS.iter().find(|f| f.0 == file) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let text = match std::env::var("COHORT_STATIC_DIR") {
        Ok(dir) => std::fs::read_to_string(std::path::Path::new(&dir).join("wasm").join(name))
            .unwrap_or_else(|_| embedded.to_string()),
        Err(_) => embedded.to_string(),
    };
    (
        [
            (header::CONTENT_TYPE, "text/javascript"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
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
