//! The WebSockets' limits (docs/server.md, "Security", issue 47): each test runs a real
//! server (tests/common, `Server`) and speaks WebSocket to it on a raw TCP socket
//! (`common::Ws`), so that it can send what a browser never would. A message or frame over
//! the limit closes the socket (1009); too many messages a second close it (1008); a silent
//! socket is pinged and closed after the idle timeout, one that answers stays; the sockets
//! per address and per game are capped (429); a page of another site cannot open one (403);
//! a reader too slow loses its socket; the lobby builds one list per change for all its
//! watchers.

use crate::common;

use std::time::Duration;

use cohort_server::Config;
use common::{Server, Ws, WsEvent};
use serde_json::json;

async fn new_game(s: &Server) -> String {
    let a = s
        .post(
            "/api/games",
            &[],
            json!({"variant": "chess", "white": "human", "black": "human"}),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.raw);
    a.body["id"].as_str().unwrap().to_string()
}

async fn open(s: &Server, path: &str) -> Ws {
    Ws::open(s.addr, path, &[])
        .await
        .unwrap_or_else(|e| panic!("{path}: refused {e:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_the_limit_closes_the_socket() {
    let s = Server::start("ws-oversized", Config::default()).await;
    let game = new_game(&s).await;
    let paths = [
        "/api/challenges/watch".to_string(),
        format!("/api/games/{game}/ws"),
        "/api/chat/lobby/ws".to_string(),
        format!("/api/games/{game}/chat/spectators/ws"),
    ];
    for path in &paths {
        // A text frame announced at 64 KiB (the limit is 4 KiB): closed from its header,
        // "message too big". (Only the header is sent: payload left unread by the server
        // would make its close a reset, which may overtake the close frame.)
        let mut ws = open(&s, path).await;
        ws.text(path).await;
        ws.raw(&Ws::header(1, true, 64 * 1024)).await;
        assert_eq!(
            ws.closed_within(Duration::from_secs(3)).await,
            Some(Some(1009)),
            "{path}: a 64 KiB frame closes the socket with 1009"
        );
        // The whole 64 KiB message: the socket is closed (by a close frame or a reset).
        let mut ws = open(&s, path).await;
        ws.text(path).await;
        ws.frame(1, &vec![b'x'; 64 * 1024]).await;
        assert!(
            ws.closed_within(Duration::from_secs(3)).await.is_some(),
            "{path}: a 64 KiB message closes the socket"
        );
        // A frame announced at 45 MB, of which 100 KB are sent: refused from its header.
        let mut ws = open(&s, path).await;
        ws.text(path).await;
        ws.raw(&Ws::header(2, true, 45_000_000)).await;
        ws.raw(&vec![0u8; 100_000]).await;
        assert!(
            ws.closed_within(Duration::from_secs(3)).await.is_some(),
            "{path}: a frame announced at 45 MB closes the socket"
        );
        // A message in fragments of 1 KiB, never finished: closed once past the limit.
        let mut ws = open(&s, path).await;
        ws.text(path).await;
        let mut f = Ws::header(1, false, 1024);
        f.extend_from_slice(&[b'x'; 1024]);
        let mut sent = 0;
        for i in 0..64 {
            let mut frame = if i == 0 {
                f.clone()
            } else {
                Ws::header(0, false, 1024)
            };
            if i > 0 {
                frame.extend_from_slice(&[b'x'; 1024]);
            }
            if !ws.raw(&frame).await {
                break;
            }
            sent += 1024;
        }
        assert!(
            ws.closed_within(Duration::from_secs(3)).await.is_some(),
            "{path}: an unfinished message of {sent} bytes closes the socket"
        );
    }
    // A message within the limit is fine (and ignored): the socket stays.
    let mut ws = open(&s, &paths[0]).await;
    ws.text("lobby").await;
    ws.frame(1, b"{\"hello\": 1}").await;
    assert_eq!(
        ws.next(Duration::from_millis(500), true).await,
        WsEvent::Quiet
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_messages_a_second_close_the_socket() {
    let s = Server::start("ws-flood", Config::default()).await;
    let mut ws = open(&s, "/api/challenges/watch").await;
    ws.text("the list").await;
    // 11 pings within a quarter of a second (the limit: 10 a second), sent one by one so that
    // the server has read them all when it closes (no reset overtaking the close frame).
    for _ in 0..11 {
        if !ws.frame(9, b"").await {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut code = None;
    for _ in 0..40 {
        match ws.next(Duration::from_secs(3), false).await {
            WsEvent::Close(c, reason) => {
                assert!(reason.contains("messages in a second"), "{reason}");
                code = Some(c);
                break;
            }
            WsEvent::Gone | WsEvent::Quiet => break,
            _ => {}
        }
    }
    assert_eq!(
        code,
        Some(1008),
        "11 pings in a quarter of a second close the socket"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_socket_is_closed_after_the_idle_timeout() {
    let idle = Duration::from_millis(900);
    let s = Server::start(
        "ws-idle",
        Config {
            ws_idle_timeout: idle,
            ..Config::default()
        },
    )
    .await;
    let game = new_game(&s).await;
    for path in [
        "/api/challenges/watch".to_string(),
        format!("/api/games/{game}/ws"),
    ] {
        let mut silent = open(&s, &path).await;
        let mut answering = open(&s, &path).await;
        silent.text(&path).await;
        answering.text(&path).await;
        let t0 = std::time::Instant::now();
        let silent_side = async {
            // The server pings (every third of the timeout); this one never answers.
            assert_eq!(
                silent.next(idle, false).await,
                WsEvent::Ping,
                "{path}: a ping"
            );
            let closed = silent.closed_within(idle * 2).await;
            (closed, t0.elapsed())
        };
        // The one that answers the pings is still open three timeouts later.
        let (silent_end, answering_end) = tokio::join!(silent_side, answering.next(idle * 3, true));
        let (closed, after) = silent_end;
        assert_eq!(closed, Some(Some(1008)), "{path}: closed for its silence");
        assert!(
            after >= idle.mul_f64(0.9) && after < idle * 2,
            "{path}: closed after {after:?} (timeout {idle:?})"
        );
        assert_eq!(
            answering_end,
            WsEvent::Quiet,
            "{path}: a socket that answers the pings stays"
        );
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_are_capped_per_address_and_per_game() {
    let s = Server::start(
        "ws-caps",
        Config {
            ws_per_address: 3,
            ws_per_game: 4,
            behind_proxy: true,
            ..Config::default()
        },
    )
    .await;
    let mut held = vec![];
    for _ in 0..3 {
        held.push(open(&s, "/api/challenges/watch").await);
    }
    for path in ["/api/challenges/watch", "/api/chat/lobby/ws"] {
        let refused = Ws::open(s.addr, path, &[]).await.err();
        let (status, body) = refused.expect("a fourth socket from one address is refused");
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["code"], "limit_reached", "{body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("at most 3 WebSockets"),
            "{body}"
        );
    }
    // Another address (through the trusted proxy) has its own count.
    let other = Ws::open(
        s.addr,
        "/api/challenges/watch",
        &[("X-Forwarded-For", "10.9.8.7")],
    )
    .await;
    assert!(other.is_ok(), "another address is not refused");
    // A socket closed gives its place back.
    drop(held.pop());
    let mut reopened = None;
    for _ in 0..50 {
        if let Ok(ws) = Ws::open(s.addr, "/api/challenges/watch", &[]).await {
            reopened = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(reopened.is_some(), "a closed socket's place is given back");
    drop(held);
    drop(reopened);
    drop(other);
    // Per game: 4 sockets on one game from 4 addresses; the fifth refused.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let game = new_game(&s).await;
    let mut on_game = vec![];
    for i in 0..4 {
        let xff = format!("10.0.0.{i}");
        let path = if i % 2 == 0 {
            format!("/api/games/{game}/ws")
        } else {
            format!("/api/games/{game}/chat/spectators/ws")
        };
        let ws = Ws::open(s.addr, &path, &[("X-Forwarded-For", &xff)]).await;
        on_game.push(ws.unwrap_or_else(|e| panic!("socket {i} on the game: {e:?}")));
    }
    let refused = Ws::open(
        s.addr,
        &format!("/api/games/{game}/ws"),
        &[("X-Forwarded-For", "10.0.1.1")],
    )
    .await
    .err()
    .expect("a fifth socket on the game is refused");
    assert_eq!(refused.0, 429, "{}", refused.1);
    assert!(
        refused.1["error"].as_str().unwrap().contains("on one game"),
        "{}",
        refused.1
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_cannot_open_a_socket() {
    let s = Server::start(
        "ws-origin",
        Config {
            public_origin: Some("https://cohort.example.org".into()),
            ..Config::default()
        },
    )
    .await;
    let game = new_game(&s).await;
    let own = format!("http://{}", s.addr);
    for path in [
        "/api/challenges/watch".to_string(),
        format!("/api/games/{game}/ws"),
        "/api/chat/lobby/ws".to_string(),
        format!("/api/games/{game}/chat/spectators/ws"),
    ] {
        for evil in [
            "https://evil.example",
            "null",
            "http://127.0.0.1.evil.example",
        ] {
            let refused = Ws::open(s.addr, &path, &[("Origin", evil)]).await.err();
            let (status, body) =
                refused.unwrap_or_else(|| panic!("{path}: Origin {evil} is refused"));
            assert_eq!(status, 403, "{path}: {body}");
            assert_eq!(body["code"], "cross_site", "{path}: {body}");
        }
        for good in [own.as_str(), "https://cohort.example.org"] {
            let mut ws = Ws::open(s.addr, &path, &[("Origin", good)])
                .await
                .unwrap_or_else(|e| panic!("{path}: Origin {good} refused: {e:?}"));
            ws.text(&path).await;
        }
        // No Origin: not a browser's page (browsers always send it on a WebSocket).
        let mut ws = open(&s, &path).await;
        ws.text(&path).await;
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_lobby_builds_one_list_per_change_for_all_watchers() {
    let s = Server::start(
        "ws-lobby",
        Config {
            ws_per_address: 1000,
            ..Config::default()
        },
    )
    .await;
    let mut watchers = vec![];
    for _ in 0..200 {
        watchers.push(open(&s, "/api/challenges/watch").await);
    }
    for (i, w) in watchers.iter_mut().enumerate() {
        assert_eq!(w.text(&format!("watcher {i}")).await, json!([]));
    }
    let before = s.app.lobby_builds();
    let made = s
        .post("/api/challenges", &[], json!({"variant": "chess"}))
        .await;
    assert_eq!(made.status, 200, "{}", made.raw);
    for (i, w) in watchers.iter_mut().enumerate() {
        let list = w.text(&format!("watcher {i}")).await;
        assert_eq!(list[0]["id"], made.body["id"], "watcher {i}: {list}");
    }
    let builds = s.app.lobby_builds() - before;
    assert_eq!(
        builds, 1,
        "one change, 200 watchers: {builds} builds of the list"
    );
    // 20 changes at once (create and cancel 10 times): a few builds, not one per change
    // per watcher; every watcher ends on the same, final list.
    let before = s.app.lobby_builds();
    let mut last = vec![];
    for _ in 0..10 {
        let c = s
            .post("/api/challenges", &[], json!({"variant": "chess"}))
            .await;
        assert_eq!(c.status, 200, "{}", c.raw);
        let id = c.body["id"].as_str().unwrap().to_string();
        let t = c.body["token"].as_str().unwrap().to_string();
        let x = s
            .post(
                &format!("/api/challenges/{id}/cancel"),
                &[],
                json!({"token": t}),
            )
            .await;
        assert_eq!(x.status, 200, "{}", x.raw);
        last.push(id);
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    let builds = s.app.lobby_builds() - before;
    assert!(
        (1..=10).contains(&builds),
        "20 changes, 200 watchers: {builds} builds of the list"
    );
    // The newest list each watcher got is the final one: only the first challenge open
    // (none at all when every build found the list as it was: nothing new is sent).
    let newest = futures_util::future::join_all(watchers.iter_mut().map(|w| async move {
        let mut newest = None;
        loop {
            match w.next(Duration::from_millis(300), true).await {
                WsEvent::Text(v) => newest = Some(v),
                WsEvent::Quiet => return Ok(newest),
                other => return Err(other),
            }
        }
    }))
    .await;
    for (i, n) in newest.into_iter().enumerate() {
        let Some(list) = n.unwrap_or_else(|e| panic!("watcher {i}: {e:?}")) else {
            continue;
        };
        assert_eq!(list.as_array().unwrap().len(), 1, "watcher {i}: {list}");
        assert_eq!(list[0]["id"], made.body["id"], "watcher {i}: {list}");
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_too_slow_loses_its_socket() {
    let s = Server::start(
        "ws-slow",
        Config {
            ws_write_timeout: Duration::from_millis(300),
            lobby_debounce: Duration::ZERO,
            behind_proxy: true,
            ..Config::default()
        },
    )
    .await;
    // A watcher that reads nothing, with the smallest receive buffer.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(s.addr).await.unwrap();
    let slow = Ws::open_on(stream, s.addr, "/api/challenges/watch", &[])
        .await
        .expect("the slow watcher");
    let counted = |s: &Server| s.app.sockets.count("ip:127.0.0.1");
    assert_eq!(counted(&s), 1);
    // 200 challenges (3 from each of 67 addresses): every change sends a list of about
    // 50 KB, 10 MB in all, more than the socket's buffers hold.
    let mut gone_after = None;
    for i in 0..200 {
        let xff = format!("10.1.{}.{}", i / 3 / 250, i / 3 % 250);
        let c = s
            .post(
                "/api/challenges",
                &[("X-Forwarded-For", &xff)],
                json!({"variant": "chess"}),
            )
            .await;
        assert_eq!(c.status, 200, "{}", c.raw);
        tokio::time::sleep(Duration::from_millis(5)).await;
        if counted(&s) == 0 {
            gone_after = Some(i + 1);
            break;
        }
    }
    for _ in 0..40 {
        if gone_after.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        if counted(&s) == 0 {
            gone_after = Some(200);
        }
    }
    assert!(
        gone_after.is_some(),
        "the watcher that reads nothing still holds its socket"
    );
    drop(slow);
    s.stop().await;
}
