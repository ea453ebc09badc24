//! Chat (docs/server.md, "Chat"): who may post in the players', spectators' and lobby's
//! rooms, what a line may hold, the rate limit, the history's limit, the per-account switch,
//! lines kept across a restart, and lines delivered over the room's WebSocket, also from
//! another instance on the same PostgreSQL database.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use cohort_server::chat::{ChatLine, HISTORY};
use cohort_server::{App, Config};
use common::{postgres_url, send, signup, with_fresh_database, Server};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn post(app: &Arc<App>, uri: &str, cookie: &str, body: Value) -> (StatusCode, Value) {
    let (s, v, _) = send(app, "POST", uri, cookie, Some(body)).await;
    (s, v)
}

async fn get(app: &Arc<App>, uri: &str, cookie: &str) -> (StatusCode, Value) {
    let (s, v, _) = send(app, "GET", uri, cookie, None).await;
    (s, v)
}

/// A human-against-human game: (id, white's token, black's token).
async fn new_game(app: &Arc<App>) -> (String, String, String) {
    let (s, v) = post(
        app,
        "/api/games",
        "",
        json!({"variant": "chess", "white": "human", "black": "human"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let t = |side: &str| v["tokens"][side].as_str().unwrap().to_string();
    (
        v["id"].as_str().unwrap().to_string(),
        t("white"),
        t("black"),
    )
}

fn texts(history: &Value) -> Vec<String> {
    history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

async fn open(tag: &str) -> (std::path::PathBuf, String, Arc<App>) {
    let (dir, url) = common::temp_db(tag);
    let app = App::open_with(&url, Config::default()).await.unwrap();
    (dir, url, app)
}

#[tokio::test]
async fn the_players_channel_takes_a_seat_token_and_the_spectators_an_account() {
    let (dir, _, app) = open("chat-rights").await;
    let (id, white, black) = new_game(&app).await;
    let players = format!("/api/games/{id}/chat/players");
    let spectators = format!("/api/games/{id}/chat/spectators");

    let (s, line) = post(
        &app,
        &players,
        "",
        json!({"token": white, "text": "good luck"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{line}");
    assert_eq!(line["text"], "good luck");
    assert_eq!(line["seat"], "white");
    assert_eq!(line["by"], Value::Null);
    assert_eq!(line["room"], format!("game:{id}:players"));
    assert!(
        line.get("poster").is_none(),
        "the rate limit's key stays inside"
    );

    // A wrong token, or none, neither posts nor reads the players' channel.
    for body in [
        json!({"token": "0123456789abcdef0123456789abcdef", "text": "hi"}),
        json!({"text": "hi"}),
    ] {
        let (s, v) = post(&app, &players, "", body).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
        assert_eq!(v["code"], "forbidden");
    }
    let (s, v) = get(&app, &format!("{players}?token=wrong"), "").await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    let (s, v) = get(&app, &players, "").await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");

    // Black reads White's line.
    let (s, v) = get(&app, &format!("{players}?token={black}"), "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(texts(&v), ["good luck"]);
    assert_eq!(v["can_post"], true);
    assert_eq!(v["chat"], true);

    // An anonymous spectator reads the spectators' channel but may not write in it.
    let (s, v) = get(&app, &spectators, "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["can_post"], false);
    assert_eq!(texts(&v), Vec::<String>::new());
    let (s, v) = post(&app, &spectators, "", json!({"text": "hello"})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    assert_eq!(v["code"], "login_required");

    // A logged-in spectator writes there; the players' channel does not hold it.
    let carol = signup(&app, "Carol").await;
    let (s, v) = post(&app, &spectators, &carol, json!({"text": "nice opening"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["by"], "Carol");
    assert_eq!(v["seat"], Value::Null);
    let (_, v) = get(&app, &spectators, "").await;
    assert_eq!(texts(&v), ["nice opening"]);
    let (_, v) = get(&app, &format!("{players}?token={white}"), "").await;
    assert_eq!(texts(&v), ["good luck"]);

    // Unknown channels and games.
    let (s, v) = get(&app, &format!("/api/games/{id}/chat/everyone"), "").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, v) = post(
        &app,
        "/api/games/nosuchgame/chat/players",
        "",
        json!({"token": white, "text": "x"}),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    // Bad bodies: JSON errors.
    let (s, v) = post(&app, &players, "", json!({"token": white})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_request");
    let (s, v) = post(
        &app,
        &players,
        "",
        json!({"token": white, "text": "x", "extra": 1}),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn lines_are_checked_and_returned_exactly() {
    let (dir, _, app) = open("chat-text").await;
    let (id, white, _) = new_game(&app).await;
    let players = format!("/api/games/{id}/chat/players");
    let refused = [
        "x".repeat(501),
        "é".repeat(501),
        "two\nlines".into(),
        "tab\there".into(),
        "nul\u{0}".into(),
        "bell\u{7}".into(),
        "turned \u{202E}around".into(),
        "   ".into(),
        "".into(),
    ];
    for text in &refused {
        let (s, v) = post(&app, &players, "", json!({"token": white, "text": text})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{text:?}: {v}");
        assert_eq!(v["code"], "invalid_field", "{text:?}");
    }
    let (_, v) = get(&app, &format!("{players}?token={white}"), "").await;
    assert_eq!(
        texts(&v),
        Vec::<String>::new(),
        "nothing refused was stored"
    );

    // Exactly as posted: markup, quotes, ampersands, 500 characters of two bytes each.
    let kept = [
        "<img src=x onerror=alert(1)>".to_string(),
        "a & b \"quoted\" 'single' </script>".to_string(),
        "é".repeat(500),
    ];
    for text in &kept {
        let (s, v) = post(&app, &players, "", json!({"token": white, "text": text})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["text"].as_str().unwrap(), text);
    }
    let (_, v) = get(&app, &format!("{players}?token={white}"), "").await;
    assert_eq!(texts(&v), kept);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_poster_gets_429_after_five_lines_in_ten_seconds() {
    let (dir, _, app) = open("chat-rate").await;
    let (id, white, black) = new_game(&app).await;
    let players = format!("/api/games/{id}/chat/players");
    for i in 0..5 {
        let (s, v) = post(
            &app,
            &players,
            "",
            json!({"token": white, "text": format!("line {i}")}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "line {i}: {v}");
    }
    let (s, v) = post(
        &app,
        &players,
        "",
        json!({"token": white, "text": "one too many"}),
    )
    .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["code"], "limit_reached");
    // Per poster: Black still talks.
    let (s, v) = post(
        &app,
        &players,
        "",
        json!({"token": black, "text": "slow down"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, v) = get(&app, &format!("{players}?token={black}"), "").await;
    assert_eq!(
        v["lines"].as_array().unwrap().len(),
        6,
        "the refused line is not stored"
    );

    // The ten-minute limit: with 59 older lines of Black's in the last ten minutes (stored
    // directly, 9.5 s apart: never five in ten seconds), "slow down" was the 60th.
    let now = cohort_server::store::now_ms();
    for i in 0..59 {
        let line = ChatLine {
            id: format!("old{i}"),
            room: format!("game:{id}:players"),
            poster: format!("seat:{id}:black"),
            by: None,
            seat: Some("black".into()),
            text: format!("old {i}"),
            at_ms: now - 580_000 + i * 9_500,
            address: "192.0.2.1".into(),
        };
        assert!(
            app.store.add_chat_line(&line).await.unwrap().is_ok(),
            "old {i}"
        );
    }
    let (s, v) = post(&app, &players, "", json!({"token": black, "text": "more"})).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(v["error"].as_str().unwrap().contains("600 s"), "{v}");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_history_holds_the_newest_lines_and_survives_a_restart() {
    let (dir, url, app) = open("chat-history").await;
    let (id, white, _) = new_game(&app).await;
    let now = cohort_server::store::now_ms();
    // Stored directly, from many posters (the rate limit is for one poster).
    for i in 0..HISTORY + 20 {
        let line = ChatLine {
            id: format!("l{i:03}"),
            room: format!("game:{id}:players"),
            poster: format!("poster{i}"),
            by: None,
            seat: Some("white".into()),
            text: format!("line {i}"),
            at_ms: now - 100_000 + i as i64,
            // Many addresses too (the limits are per poster and per address).
            address: format!("192.0.2.{i}"),
        };
        assert!(app.store.add_chat_line(&line).await.unwrap().is_ok());
    }
    let players = format!("/api/games/{id}/chat/players?token={white}");
    let (_, v) = get(&app, &players, "").await;
    let want: Vec<String> = (20..HISTORY + 20).map(|i| format!("line {i}")).collect();
    assert_eq!(texts(&v), want, "the newest {HISTORY}, oldest first");
    let (s, v) = post(
        &app,
        &format!("/api/games/{id}/chat/players"),
        "",
        json!({"token": white, "text": "before the restart"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    app.store.close().await;
    drop(app);

    let app = App::open_with(&url, Config::default()).await.unwrap();
    let (_, v) = get(&app, &players, "").await;
    let got = texts(&v);
    assert_eq!(got.len(), HISTORY);
    assert_eq!(got.last().unwrap(), "before the restart");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_lobby_takes_an_account_and_an_account_can_switch_chat_off() {
    let (dir, _, app) = open("chat-lobby").await;
    let (s, v) = post(&app, "/api/chat/lobby", "", json!({"text": "anyone?"})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    assert_eq!(v["code"], "login_required");
    let dave = signup(&app, "Dave").await;
    let (s, v) = post(
        &app,
        "/api/chat/lobby",
        &dave,
        json!({"text": "anyone for chess?"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["by"], "Dave");
    let (_, v) = get(&app, "/api/chat/lobby", "").await;
    assert_eq!(texts(&v), ["anyone for chess?"]);
    assert_eq!(v["can_post"], false);

    // The switch: an account's, stored; anonymous callers have none.
    let (s, v) = get(&app, "/api/account/settings", "").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    let (s, v) = post(&app, "/api/account/settings", "", json!({"chat": false})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    let (_, v) = get(&app, "/api/account/settings", &dave).await;
    assert_eq!(v, json!({"chat": true}));
    let (s, v) = post(&app, "/api/account/settings", &dave, json!({"chat": "off"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = post(&app, "/api/account/settings", &dave, json!({"chat": false})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, v) = get(&app, "/api/account/settings", &dave).await;
    assert_eq!(v, json!({"chat": false}));
    // Off: Dave's history is empty; others' is not.
    let (_, v) = get(&app, "/api/chat/lobby", &dave).await;
    assert_eq!(v["chat"], false);
    assert_eq!(texts(&v), Vec::<String>::new());
    let (_, v) = get(&app, "/api/chat/lobby", "").await;
    assert_eq!(texts(&v), ["anyone for chess?"]);
    let (s, _) = post(&app, "/api/account/settings", &dave, json!({"chat": true})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = get(&app, "/api/chat/lobby", &dave).await;
    assert_eq!(texts(&v), ["anyone for chess?"]);

    // A seated account writes in its game's players' channel, not the spectators'.
    let (s, ch) = post(
        &app,
        "/api/challenges",
        &dave,
        json!({"variant": "chess", "colour": "white"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{ch}");
    let (s, acc) = post(
        &app,
        &format!("/api/challenges/{}/accept", ch["id"].as_str().unwrap()),
        "",
        json!({}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{acc}");
    let game = acc["game"].as_str().unwrap();
    let (s, v) = post(
        &app,
        &format!("/api/games/{game}/chat/spectators"),
        &dave,
        json!({"text": "I play here"}),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A minimal WebSocket client (RFC 6455): the upgrade, then the server's text frames (the
/// server does not mask its frames).
struct Socket(tokio::net::TcpStream);

impl Socket {
    async fn open(addr: std::net::SocketAddr, path: &str, cookie: &str) -> Socket {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let cookie = if cookie.is_empty() {
            String::new()
        } else {
            format!("Cookie: {cookie}\r\n")
        };
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{cookie}\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut head = vec![];
        while !head.ends_with(b"\r\n\r\n") {
            let mut b = [0u8; 1];
            s.read_exact(&mut b).await.unwrap();
            head.push(b[0]);
        }
        let head = String::from_utf8_lossy(&head);
        assert!(head.starts_with("HTTP/1.1 101"), "{path}: {head}");
        Socket(s)
    }

    /// The next text message as JSON, or None if none comes within `wait`.
    async fn next(&mut self, wait: Duration) -> Option<Value> {
        tokio::time::timeout(wait, async {
            loop {
                let mut h = [0u8; 2];
                self.0.read_exact(&mut h).await.unwrap();
                let mut len = (h[1] & 0x7f) as u64;
                if len == 126 {
                    let mut b = [0u8; 2];
                    self.0.read_exact(&mut b).await.unwrap();
                    len = u16::from_be_bytes(b) as u64;
                } else if len == 127 {
                    let mut b = [0u8; 8];
                    self.0.read_exact(&mut b).await.unwrap();
                    len = u64::from_be_bytes(b);
                }
                let mut payload = vec![0u8; len as usize];
                self.0.read_exact(&mut payload).await.unwrap();
                if h[0] & 0x0f == 1 {
                    return serde_json::from_slice(&payload).unwrap();
                }
            }
        })
        .await
        .ok()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_socket_gets_new_lines_unless_its_account_has_chat_off() {
    let server = Server::start("chat-socket", Config::default()).await;
    let app = server.app.clone();
    let (id, white, black) = new_game(&app).await;
    let wait = Duration::from_secs(2);
    let mut black_ws = Socket::open(
        server.addr,
        &format!("/api/games/{id}/chat/players/ws?token={black}"),
        "",
    )
    .await;
    let first = black_ws.next(wait).await.expect("the history");
    assert_eq!(first["type"], "history");
    assert_eq!(first["lines"], json!([]));
    let (s, _) = post(
        &app,
        &format!("/api/games/{id}/chat/players"),
        "",
        json!({"token": white, "text": "<b>hi</b>"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let m = black_ws.next(wait).await.expect("White's line");
    assert_eq!(m["type"], "line");
    assert_eq!(m["line"]["text"], "<b>hi</b>");
    // A socket without the seat's token is refused before the upgrade.
    let r = server
        .get(&format!("/api/games/{id}/chat/players/ws"), &[])
        .await;
    assert_eq!(r.status, 403, "{}", r.raw);

    // The lobby: Erin switches chat off; her socket hears of it and gets no lines, an
    // anonymous one does.
    let erin = signup(&app, "Erin").await;
    let mut erin_ws = Socket::open(server.addr, "/api/chat/lobby/ws", &erin).await;
    let mut anon_ws = Socket::open(server.addr, "/api/chat/lobby/ws", "").await;
    assert_eq!(erin_ws.next(wait).await.unwrap()["chat"], true);
    assert_eq!(anon_ws.next(wait).await.unwrap()["type"], "history");
    let (s, _) = post(&app, "/api/account/settings", &erin, json!({"chat": false})).await;
    assert_eq!(s, StatusCode::OK);
    let m = erin_ws.next(wait).await.expect("the switch");
    assert_eq!(
        (m["type"].as_str(), m["chat"].as_bool()),
        (Some("history"), Some(false))
    );
    let (s, _) = post(
        &app,
        "/api/chat/lobby",
        &erin,
        json!({"text": "posted, then gone"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let m = anon_ws.next(wait).await.expect("the line");
    assert_eq!(m["line"]["text"], "posted, then gone");
    assert_eq!(erin_ws.next(Duration::from_millis(500)).await, None);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_line_posted_on_one_instance_reaches_a_socket_on_another() {
    let Some(url) = postgres_url("a_line_posted_on_one_instance_reaches_a_socket_on_another")
    else {
        return;
    };
    with_fresh_database(&url, "cohort_chat", |db| async move {
        let a = Server::start_on(common::temp_db("chat-pg-a").0, &db, Config::default()).await;
        let b = Server::start_on(common::temp_db("chat-pg-b").0, &db, Config::default()).await;
        let (id, white, black) = new_game(&a.app).await;
        let mut black_ws = Socket::open(
            a.addr,
            &format!("/api/games/{id}/chat/players/ws?token={black}"),
            "",
        )
        .await;
        let mut lobby_ws = Socket::open(a.addr, "/api/chat/lobby/ws", "").await;
        assert_eq!(
            black_ws.next(Duration::from_secs(2)).await.unwrap()["type"],
            "history"
        );
        assert_eq!(
            lobby_ws.next(Duration::from_secs(2)).await.unwrap()["type"],
            "history"
        );
        let (s, v) = post(
            &b.app,
            &format!("/api/games/{id}/chat/players"),
            "",
            json!({"token": white, "text": "from B"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let m = black_ws
            .next(Duration::from_secs(2))
            .await
            .expect("B's line on A's socket within 2 s");
        assert_eq!(m["line"]["text"], "from B");
        // The lobby too, and A's history reads B's lines.
        let frank = signup(&b.app, "Frank").await;
        let (s, _) = post(
            &b.app,
            "/api/chat/lobby",
            &frank,
            json!({"text": "lobby from B"}),
        )
        .await;
        assert_eq!(s, StatusCode::OK);
        let m = lobby_ws
            .next(Duration::from_secs(2))
            .await
            .expect("the lobby line");
        assert_eq!(m["line"]["text"], "lobby from B");
        let (_, v) = get(&a.app, "/api/chat/lobby", "").await;
        assert_eq!(texts(&v), ["lobby from B"]);
        // The same line is not delivered twice (B's own announcement is ignored by B, A's
        // socket got it once).
        assert_eq!(black_ws.next(Duration::from_millis(500)).await, None);
        a.stop().await;
        b.stop().await;
    })
    .await;
}

/// Every new game gives an anonymous caller two new posters (the probe stored 592 lines/s
/// from one address so): lines are limited per address too, whoever posts them.
#[tokio::test]
async fn lines_are_limited_per_address_whoever_posts_them() {
    use cohort_server::chat::{ADDRESS_BURST_LINES, BURST_LINES};
    let (dir, _url, app) = open("chat-address").await;
    let mut seats = vec![];
    for _ in 0..3 {
        let (id, white, black) = new_game(&app).await;
        seats.push((id.clone(), white));
        seats.push((id, black));
    }
    // Six posters, two lines each at most before the address's share is used up: no poster
    // reaches its own limit.
    assert!(2 * seats.len() as i64 > ADDRESS_BURST_LINES && 2 < BURST_LINES);
    let mut stored = 0;
    let mut refused = None;
    'posting: for round in 0..2 {
        for (id, token) in &seats {
            let uri = format!("/api/games/{id}/chat/players");
            let (s, v) = post(
                &app,
                &uri,
                "",
                json!({"token": token, "text": format!("r{round}")}),
            )
            .await;
            if s == StatusCode::OK {
                stored += 1;
            } else {
                refused = Some((s, v));
                break 'posting;
            }
        }
    }
    assert_eq!(
        stored, ADDRESS_BURST_LINES,
        "lines stored before the address's limit"
    );
    let (s, v) = refused.expect("a line refused");
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("from this address"),
        "{v}"
    );
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Lines older than the retention are purged; newer ones stay.
#[tokio::test]
async fn old_lines_are_purged_after_the_retention() {
    use cohort_server::chat::RETENTION_MS;
    let (dir, _url, app) = open("chat-retention").await;
    let now = cohort_server::store::now_ms();
    for (id, age) in [
        ("old", RETENTION_MS + 60_000),
        ("new", RETENTION_MS - 60_000),
    ] {
        let line = ChatLine {
            id: id.into(),
            room: "lobby".into(),
            poster: format!("user:{id}"),
            by: Some(id.into()),
            seat: None,
            text: id.into(),
            at_ms: now - age,
            address: format!("192.0.2.{}", id.len()),
        };
        assert!(app.store.add_chat_line(&line).await.unwrap().is_ok());
    }
    assert_eq!(app.store.purge_chat(now).await.unwrap(), 1);
    let left: Vec<String> = app
        .store
        .chat_lines("lobby", 10)
        .await
        .unwrap()
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert_eq!(left, vec!["new".to_string()]);
    app.store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
