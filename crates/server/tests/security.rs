//! Security and fairness (docs/server.md, "Security", issue 27): each test runs a real
//! server on a socket (tests/common, `Server`) and speaks HTTP/1.1 to it. Parallel log-in
//! guesses are all counted; `next=` is a path of this site only; forwarded addresses are
//! believed only from the configured proxy; a lock-out an attacker cannot turn against the
//! owner; per-caller shares of the server-wide caps; half-sent requests closed in time; no
//! rating change before two turns; sessions purged and ended everywhere; security headers
//! on every answer; every body limited; a time forfeit recorded as one.

use crate::common;

use cohort_rules::Rules;
use std::time::{Duration, Instant};

use cohort_server::clock::{Clock, TimeControl};
use cohort_server::store::{now_ms, GameRow};
use cohort_server::{App, Config};
use common::{temp_db, Server};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A proxy on this machine: connections from 127.0.0.1 are the proxy's.
fn behind_local_proxy() -> Config {
    Config {
        behind_proxy: true,
        ..Config::default()
    }
}

async fn signup(s: &Server, name: &str, headers: &[(&str, &str)]) -> String {
    let a = s
        .post(
            "/api/account/signup",
            headers,
            json!({"username": name, "password": format!("{name}'s password")}),
        )
        .await;
    assert_eq!(a.status, 200, "sign-up {name}: {}", a.raw);
    a.cookie()
}

async fn log_in(s: &Server, name: &str, password: &str, from: Option<&str>) -> common::Http {
    let xff;
    let headers: Vec<(&str, &str)> = match from {
        Some(ip) => {
            xff = ip.to_string();
            vec![("X-Forwarded-For", xff.as_str())]
        }
        None => vec![],
    };
    s.post(
        "/api/account/login",
        &headers,
        json!({"username": name, "password": password}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_log_in_guesses_are_all_counted() {
    let s = Server::start("sec-parallel", Config::default()).await;
    signup(&s, "alice", &[]).await;
    // 30 guesses at once for one name from one address: only 5 may be tried.
    let guesses = (0..30).map(|i| {
        let addr = s.addr;
        tokio::spawn(async move {
            common::http(
                addr,
                "POST",
                "/api/account/login",
                &[],
                Some(&json!({"username": "alice", "password": format!("guess {i}")}).to_string()),
            )
            .await
        })
    });
    let mut statuses = vec![];
    for g in guesses.collect::<Vec<_>>() {
        let a = g.await.unwrap();
        if a.status == 429 {
            assert_eq!(a.body["code"], "rate_limited", "{}", a.raw);
            assert!(a.header("retry-after").is_some());
        }
        statuses.push(a.status);
    }
    let tried = statuses.iter().filter(|&&c| c == 401).count();
    let refused = statuses.iter().filter(|&&c| c == 429).count();
    assert_eq!(
        (tried, refused),
        (5, 25),
        "5 guesses tried, the 6th and later refused: {statuses:?}"
    );
    // Even the right password waits now, from that address.
    let a = log_in(&s, "alice", "alice's password", None).await;
    assert_eq!(a.status, 429, "{}", a.raw);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn next_accepts_only_paths_of_this_site() {
    let s = Server::start("sec-next", Config::default()).await;
    // `/\evil.example` and `/<tab>/evil.example` (and the same percent-encoded once more):
    // browsers read both as //evil.example. The page is told to go to `/` instead.
    for (query, want) in [
        ("next=/%5Cevil.example", "/"),
        ("next=/%09/evil.example", "/"),
        ("next=/%2509/evil.example", "/"),
        ("next=%2F%2Fevil.example", "/"),
        ("next=https://evil.example/", "/"),
        ("next=/game/abc%3Ftoken%3D12", "/game/abc?token=12"),
        ("next=/lobby", "/lobby"),
    ] {
        let a = s.get(&format!("/login?{query}"), &[]).await;
        assert_eq!(a.status, 200, "{query}: {}", a.raw);
        let attr = format!(r#"data-next="{}""#, want.replace('&', "&amp;"));
        assert!(a.raw.contains(&attr), "{query}: want {attr} in {}", a.raw);
    }
    // Without `next`: the lobby, as before.
    let a = s.get("/login", &[]).await;
    assert!(a.raw.contains(r#"data-next="/lobby""#), "{}", a.raw);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_addresses_are_believed_only_from_the_proxy() {
    // The proxy is 10.9.9.9: this test's connections (127.0.0.1) are not the proxy's, so
    // their X-Forwarded-For is the client's own say and is ignored.
    let s = Server::start(
        "sec-proxy-other",
        Config {
            behind_proxy: true,
            trusted_proxies: vec!["10.9.9.9".parse().unwrap()],
            ..Config::default()
        },
    )
    .await;
    for i in 0..20 {
        let a = log_in(
            &s,
            &format!("nobody{i}"),
            "guess",
            Some(&format!("10.1.0.{i}")),
        )
        .await;
        assert_eq!(a.status, 401, "failure {i}: {}", a.raw);
    }
    let a = log_in(&s, "nobody99", "guess", Some("10.1.0.99")).await;
    assert_eq!(
        a.status, 429,
        "a spoofed X-Forwarded-For from a non-proxy must not escape the per-address limit: {}",
        a.raw
    );
    assert!(a.body["error"]
        .as_str()
        .unwrap()
        .contains("from this address"));
    // Nor X-Forwarded-Proto: no Secure cookie over plain HTTP.
    let a = s
        .post(
            "/api/account/signup",
            &[("X-Forwarded-Proto", "https")],
            json!({"username": "carol", "password": "carol's password"}),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.raw);
    assert!(!a.header("set-cookie").unwrap().contains("Secure"));
    s.stop().await;

    // From the proxy (127.0.0.1, `--behind-proxy` without an address): the rightmost entry
    // that is not a proxy is the client; what the client put to its left does not count.
    let s = Server::start("sec-proxy-local", behind_local_proxy()).await;
    for i in 0..20 {
        let xff = format!("6.6.6.{i}, 203.0.113.7");
        let a = log_in(&s, &format!("nobody{i}"), "guess", Some(&xff)).await;
        assert_eq!(a.status, 401, "failure {i}: {}", a.raw);
    }
    let a = log_in(
        &s,
        "nobody99",
        "guess",
        Some("7.7.7.7, 203.0.113.7, 127.0.0.1"),
    )
    .await;
    assert_eq!(a.status, 429, "203.0.113.7 is limited: {}", a.raw);
    let a = log_in(&s, "nobody99", "guess", Some("203.0.113.7, 203.0.113.8")).await;
    assert_eq!(a.status, 401, "203.0.113.8 is another client: {}", a.raw);
    let a = s
        .post(
            "/api/account/signup",
            &[("X-Forwarded-Proto", "https")],
            json!({"username": "carol", "password": "carol's password"}),
        )
        .await;
    assert!(a.header("set-cookie").unwrap().contains("Secure"), "{a:?}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lock_out_cannot_be_turned_against_the_owner() {
    let s = Server::start("sec-lockout", behind_local_proxy()).await;
    signup(&s, "alice", &[("X-Forwarded-For", "198.51.100.2")]).await;
    // Someone guesses alice's password from one address until it is locked there.
    let mut locked = false;
    for i in 0..10 {
        let a = log_in(&s, "alice", &format!("guess {i}"), Some("198.51.100.66")).await;
        assert!(a.status == 401 || a.status == 429, "{}", a.raw);
        locked |= a.status == 429;
    }
    assert!(locked, "the guessing address is locked out");
    let a = log_in(&s, "alice", "alice's password", Some("198.51.100.66")).await;
    assert_eq!(a.status, 429, "{}", a.raw);
    // Meanwhile alice, from her own address, logs in with her password.
    let a = log_in(&s, "alice", "alice's password", Some("198.51.100.2")).await;
    assert_eq!(a.status, 200, "the owner is not locked out: {}", a.raw);
    assert_eq!(a.body["username"], "alice");
    s.stop().await;
}

const TINY: &str = "[tiny]
base = mini-chieftain
name = Tiny Chieftain
board = 6x6
setup = 1ccm2/6/6/6/6/2CMC1 w
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_caller_cannot_fill_a_server_wide_cap() {
    let s = Server::start(
        "sec-shares",
        Config {
            ai_workers: 1,
            max_ai_games: 4,
            max_custom_games: 8,
            ..behind_local_proxy()
        },
    )
    .await;
    let a = [("X-Forwarded-For", "192.0.2.1")];
    let b = [("X-Forwarded-For", "192.0.2.2")];
    // AI against AI: 4 at most, a quarter (1) per caller.
    let ai = json!({"variant": "micro-chieftain", "white": "ai", "black": "ai",
                    "ai": {"agent": "random", "time_ms": 50}});
    let r = s.post("/api/games", &a, ai.clone()).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let r = s.post("/api/games", &a, ai.clone()).await;
    assert_eq!(
        r.status, 429,
        "one caller holds a quarter at most: {}",
        r.raw
    );
    assert_eq!(r.body["code"], "limit_reached");
    assert!(
        r.body["error"].as_str().unwrap().contains("share"),
        "{}",
        r.raw
    );
    let r = s.post("/api/games", &b, ai.clone()).await;
    assert_eq!(r.status, 200, "another caller still gets a slot: {}", r.raw);
    // Custom variants: 8 at most, 2 per caller.
    let custom =
        json!({"variant": "tiny", "variant_text": TINY, "white": "human", "black": "human"});
    for _ in 0..2 {
        let r = s.post("/api/games", &a, custom.clone()).await;
        assert_eq!(r.status, 200, "{}", r.raw);
    }
    let r = s.post("/api/games", &a, custom.clone()).await;
    assert_eq!(r.status, 429, "{}", r.raw);
    assert_eq!(r.body["code"], "limit_reached");
    let r = s.post("/api/games", &b, custom.clone()).await;
    assert_eq!(r.status, 200, "another caller still gets a slot: {}", r.raw);
    s.stop().await;
}

/// Read from `stream` until it is closed (true) or `within` passes (false).
async fn closed_within(stream: &mut tokio::net::TcpStream, within: Duration) -> (bool, String) {
    let mut got = vec![];
    let mut buf = [0u8; 4096];
    let end = Instant::now() + within;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return (false, String::from_utf8_lossy(&got).to_string()),
            Ok(Ok(0)) | Ok(Err(_)) => return (true, String::from_utf8_lossy(&got).to_string()),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_are_closed_within_the_timeout() {
    let s = Server::start(
        "sec-timeouts",
        Config {
            header_timeout: Duration::from_secs(1),
            body_timeout: Duration::from_secs(1),
            ..Config::default()
        },
    )
    .await;
    let t0 = Instant::now();
    // Half a request line.
    let mut half_line = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    half_line.write_all(b"GET /api/varia").await.unwrap();
    // Headers never finished.
    let mut half_head = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    half_head
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
        .await
        .unwrap();
    // Nothing at all.
    let mut silent = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    // A body promised and never sent whole.
    let mut half_body = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    half_body
        .write_all(
            b"POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"username\"",
        )
        .await
        .unwrap();
    for (what, stream) in [
        ("half a request line", &mut half_line),
        ("half the headers", &mut half_head),
        ("an idle connection", &mut silent),
    ] {
        let (closed, _) = closed_within(stream, Duration::from_secs(4)).await;
        assert!(closed, "{what}: still open after 4 s (timeout 1 s)");
    }
    let (closed, got) = closed_within(&mut half_body, Duration::from_secs(4)).await;
    assert!(closed, "half a body: still open after 4 s (timeout 1 s)");
    let answer = common::parse_http(got.as_bytes());
    assert_eq!(answer.status, 408, "{got}");
    assert_eq!(answer.body["code"], "request_timeout", "{got}");
    assert!(t0.elapsed() < Duration::from_secs(5));
    // The server still answers.
    let a = s.get("/api/variants", &[]).await;
    assert_eq!(a.status, 200);
    s.stop().await;
}

/// Alice posts a rated challenge, Bob accepts: (game id, alice's token, bob's token,
/// alice's colour).
async fn rated_game(s: &Server, alice: &str, bob: &str) -> (String, String, String, String) {
    let c = s
        .post(
            "/api/challenges",
            &[("Cookie", alice)],
            json!({"variant": "chess", "clock": {"minutes": 5, "increment": 3}, "colour": "white", "rated": true}),
        )
        .await;
    assert_eq!(c.status, 200, "{}", c.raw);
    let id = c.body["id"].as_str().unwrap();
    let token = c.body["token"].as_str().unwrap();
    let acc = s
        .post(
            &format!("/api/challenges/{id}/accept"),
            &[("Cookie", bob)],
            json!({}),
        )
        .await;
    assert_eq!(acc.status, 200, "{}", acc.raw);
    let st = s
        .get(&format!("/api/challenges/{id}?token={token}"), &[])
        .await;
    let link = st.body["link"].as_str().unwrap();
    let alice_token = link.split("token=").nth(1).unwrap().to_string();
    (
        acc.body["game"].as_str().unwrap().to_string(),
        alice_token,
        acc.body["token"].as_str().unwrap().to_string(),
        "white".into(),
    )
}

/// Play `steps` in turn order (White first), each its own one-step turn, then `loser`
/// resigns; the game's view after it.
async fn play_and_resign(
    s: &Server,
    game: &str,
    (white, black): (&str, &str),
    steps: &[&str],
    loser: &str,
) -> Value {
    for (i, step) in steps.iter().enumerate() {
        let token = if i % 2 == 0 { white } else { black };
        let r = s
            .post(
                &format!("/api/games/{game}/step"),
                &[],
                json!({"token": token, "step": step}),
            )
            .await;
        assert_eq!(r.status, 200, "{step}: {}", r.raw);
    }
    let r = s
        .post(
            &format!("/api/games/{game}/resign"),
            &[],
            json!({"token": loser}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    s.get(&format!("/api/games/{game}"), &[]).await.body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_rating_change_without_two_turns_by_each_side() {
    let s = Server::start("sec-rating", Config::default()).await;
    let alice = signup(&s, "alice", &[]).await;
    let bob = signup(&s, "bob", &[]).await;
    // Resigned before any move, or after one turn each (the farm the probe found: +-162 for
    // a turn each and a resignation): the game ends, unrated, and says so.
    for steps in [&[][..], &["e2-e4", "e7-e5"][..]] {
        let (game, alice_token, bob_token, _) = rated_game(&s, &alice, &bob).await;
        let v = play_and_resign(&s, &game, (&alice_token, &bob_token), steps, &bob_token).await;
        assert_eq!(v["result"]["winner"], "white", "{}", v["result"]);
        assert!(
            v["rating_change"].is_null(),
            "no rating change after {steps:?}: {}",
            v["rating_change"]
        );
        let why = v["result"]["unrated"].as_str().unwrap_or_default();
        assert!(
            why.contains("fewer than two turns by each side"),
            "{}",
            v["result"]
        );
        let p = s.get("/api/players/alice", &[]).await.body;
        assert_eq!(p["ratings"], json!([]), "{p}");
        let rec = s
            .get(&format!("/api/games/{game}/record?format=json"), &[])
            .await
            .body;
        assert!(
            rec["unrated"]
                .as_str()
                .unwrap_or_default()
                .contains("fewer than two turns"),
            "{rec}"
        );
    }
    // Two turns each, then a resignation: rated.
    let (game, alice_token, bob_token, _) = rated_game(&s, &alice, &bob).await;
    let steps = ["e2-e4", "e7-e5", "g1-f3", "b8-c6"];
    let v = play_and_resign(&s, &game, (&alice_token, &bob_token), &steps, &bob_token).await;
    assert!(
        v["rating_change"]["white"]["delta"].as_i64().unwrap() > 0,
        "{v}"
    );
    assert!(v["result"].get("unrated").is_none(), "{}", v["result"]);
    s.stop().await;
}

/// The rematch loop the probe ran (1500 -> 1806 in 0.5 s): the same two accounts' rated
/// games change ratings at most `MAX_RATED_PAIR_GAMES` times in a day; later ones are
/// unrated and say why. Another pair is not held back by it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_rematch_loop_farms_no_rating() {
    use cohort_server::glicko::{MAX_RATED_PAIR_GAMES, PAIR_WINDOW_MS};
    let s = Server::start("sec-farm", Config::default()).await;
    let alice = signup(&s, "alice", &[]).await;
    let bob = signup(&s, "bob", &[]).await;
    let carol = signup(&s, "carol", &[]).await;
    let steps = ["e2-e4", "e7-e5", "g1-f3", "b8-c6"];
    let rating = |p: &Value| p["ratings"][0]["rating"].as_i64().unwrap();
    let mut after_limit = None;
    for n in 1..=MAX_RATED_PAIR_GAMES + 3 {
        let (game, alice_token, bob_token, _) = rated_game(&s, &alice, &bob).await;
        let v = play_and_resign(&s, &game, (&alice_token, &bob_token), &steps, &bob_token).await;
        let p = s.get("/api/players/alice", &[]).await.body;
        if n <= MAX_RATED_PAIR_GAMES {
            assert!(
                v["rating_change"]["white"]["delta"].as_i64().unwrap() > 0,
                "game {n}: {v}"
            );
            after_limit = Some(rating(&p));
        } else {
            assert!(
                v["rating_change"].is_null(),
                "game {n}: {}",
                v["rating_change"]
            );
            let why = v["result"]["unrated"].as_str().unwrap_or_default();
            let hours = PAIR_WINDOW_MS / 3_600_000;
            assert!(
                why.contains("same two accounts") && why.contains(&format!("{hours} hours")),
                "game {n}: {}",
                v["result"]
            );
            assert_eq!(
                Some(rating(&p)),
                after_limit,
                "game {n} moved alice's rating"
            );
            assert_eq!(p["ratings"][0]["games"], MAX_RATED_PAIR_GAMES, "{p}");
        }
    }
    // Alice against another account: rated again.
    let (game, alice_token, carol_token, _) = rated_game(&s, &alice, &carol).await;
    let v = play_and_resign(
        &s,
        &game,
        (&alice_token, &carol_token),
        &steps,
        &carol_token,
    )
    .await;
    assert!(
        v["rating_change"]["white"]["delta"].as_i64().unwrap() > 0,
        "{v}"
    );
    s.stop().await;
}

/// A rated challenge without a clock is refused (a game without one holds the pairing for
/// ever and costs nothing in time); with a clock it is posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_needs_a_clock() {
    let s = Server::start("sec-rated-clock", Config::default()).await;
    let alice = signup(&s, "alice", &[]).await;
    let c = s
        .post(
            "/api/challenges",
            &[("Cookie", &alice)],
            json!({"variant": "chess", "rated": true}),
        )
        .await;
    assert_eq!(c.status, 400, "{}", c.raw);
    assert_eq!(c.body["code"], "invalid_field", "{}", c.raw);
    assert!(
        c.body["error"].as_str().unwrap().contains("needs a clock"),
        "{}",
        c.raw
    );
    let listed = s.get("/api/challenges", &[]).await.body;
    assert_eq!(listed, json!([]), "nothing posted: {listed}");
    for clock in [json!({"minutes": 3, "increment": 2}), json!({"days": 2})] {
        let c = s
            .post(
                "/api/challenges",
                &[("Cookie", &alice)],
                json!({"variant": "chess", "rated": true, "clock": clock}),
            )
            .await;
        assert_eq!(c.status, 200, "{clock}: {}", c.raw);
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_out_everywhere_and_expired_sessions_purged() {
    let s = Server::start("sec-sessions", Config::default()).await;
    let first = signup(&s, "alice", &[]).await;
    let second = log_in(&s, "alice", "alice's password", None).await.cookie();
    for c in [&first, &second] {
        let me = s.get("/api/account", &[("Cookie", c)]).await;
        assert_eq!(me.body["username"], "alice");
    }
    let out = s
        .send(
            "POST",
            "/api/account/logout-everywhere",
            &[("Cookie", &first)],
            None,
        )
        .await;
    assert_eq!(out.status, 200, "{}", out.raw);
    assert_eq!(out.body["sessions_ended"], 2, "{}", out.raw);
    for c in [&first, &second] {
        let me = s.get("/api/account", &[("Cookie", c)]).await;
        assert!(me.body["username"].is_null(), "{}", me.raw);
    }
    // Without a session: 401 login_required.
    let out = s
        .send("POST", "/api/account/logout-everywhere", &[], None)
        .await;
    assert_eq!(out.status, 401, "{}", out.raw);
    assert_eq!(out.body["code"], "login_required");
    // An expired session is purged at the next log-in, not only at start-up.
    s.app
        .store
        .create_session("expired-session", "alice", 1, 2)
        .await
        .unwrap();
    let a = log_in(&s, "alice", "alice's password", None).await;
    assert_eq!(a.status, 200, "{}", a.raw);
    assert!(
        s.app
            .store
            .session_user("expired-session", 0)
            .await
            .unwrap()
            .is_none(),
        "the expired session's row is gone"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_headers_on_every_answer() {
    let s = Server::start("sec-headers", Config::default()).await;
    let g = s
        .post(
            "/api/games",
            &[],
            json!({"variant": "chess", "white": "human", "black": "human"}),
        )
        .await;
    let id = g.body["id"].as_str().unwrap().to_string();
    for (path, status) in [
        ("/".to_string(), 200),
        (format!("/game/{id}"), 200),
        (format!("/api/games/{id}"), 200),
        ("/api/variants".to_string(), 200),
        ("/static/app.js".to_string(), 200),
        ("/wasm/cohort.js".to_string(), 200),
        ("/login".to_string(), 200),
        ("/no-such-page".to_string(), 404),
        ("/api/no-such-route".to_string(), 404),
        ("/game/not-a-game!".to_string(), 404),
    ] {
        let a = s.get(&path, &[]).await;
        assert_eq!(a.status, status, "{path}: {}", a.raw);
        assert_eq!(
            a.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(a.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(a.header("referrer-policy"), Some("same-origin"), "{path}");
        let csp = a.header("content-security-policy").unwrap_or_default();
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(part), "{path}: {part} not in {csp:?}");
        }
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
    }
    // The pages have no inline script or style for the policy to block.
    let home = s.get("/", &[]).await.raw;
    assert!(
        !home.contains("<script>") && !home.contains("style="),
        "{home}"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_body_is_limited() {
    let s = Server::start("sec-bodies", Config::default()).await;
    let c = s
        .post("/api/challenges", &[], json!({"variant": "chess"}))
        .await;
    let id = c.body["id"].as_str().unwrap().to_string();
    // A 1 MB body to accept a challenge: 413, and the challenge is still open.
    let big = format!("{{\"pad\": \"{}\"}}", "x".repeat(1 << 20));
    for path in [
        format!("/api/challenges/{id}/accept"),
        "/api/account/logout".to_string(),
        "/api/account/login".to_string(),
        "/api/games".to_string(),
    ] {
        let a = s.send("POST", &path, &[], Some(&big)).await;
        assert_eq!(a.status, 413, "{path}: {}", a.raw);
        assert_eq!(a.body["code"], "too_large", "{path}");
    }
    let st = s.get(&format!("/api/challenges/{id}"), &[]).await;
    assert_eq!(st.body["state"], "open", "{}", st.raw);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_lost_on_time_is_recorded_as_a_time_forfeit() {
    let (dir, url) = temp_db("sec-termination");
    let app = App::open(&url).await.unwrap();
    let now = now_ms();
    let mut clock = Clock::start(
        TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 0,
        },
        now,
    );
    clock.remaining_ms[0] = 300;
    let row = GameRow {
        id: "flagged".into(),
        variant: "chess".into(),
        start: cohort_rules::builtin("chess").unwrap().start().to_text(),
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
    };
    app.store.insert_game(&row).await.unwrap();
    app.store.close().await;
    drop(app);
    let s = Server::start_on(dir, &url, Config::default()).await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    let v: Value = s.get("/api/games/flagged", &[]).await.body;
    assert_eq!(v["result"]["reason"], "time forfeit", "{}", v["result"]);
    let rec = s.get("/api/games/flagged/record", &[]).await;
    assert!(
        rec.raw.contains("[Termination \"time forfeit\"]") && rec.raw.contains("[Result \"0-1\"]"),
        "{}",
        rec.raw
    );
    assert!(!rec.raw.contains("resignation"), "{}", rec.raw);
    s.stop().await;
}

#[test]
fn database_passwords_are_masked() {
    assert_eq!(
        cohort_server::mask_password("postgres://cohort:s3cret@db.example:5432/cohort"),
        "postgres://cohort:***@db.example:5432/cohort"
    );
    assert_eq!(
        cohort_server::mask_password("postgresql://u:p@w@host/db?sslmode=require"),
        "postgresql://u:***@host/db?sslmode=require"
    );
    for plain in [
        "sqlite://cohort.db",
        "postgres://host/db",
        "postgres://user@host/db",
    ] {
        assert_eq!(cohort_server::mask_password(plain), plain);
    }
}

/// An unknown page answers 404 with a page in the site's frame that says what was asked
/// (escaped) and links home; an unknown API route stays a JSON error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_pages_answer_a_page_that_says_so() {
    let s = Server::start("sec-404", Config::default()).await;
    for (path, shown) in [
        ("/no-such-page", "/no-such-page"),
        ("/rules/no-such-game", "/rules/no-such-game"),
        ("/game/not-a-game!", "/game/not-a-game!"),
        // Shown as the address bar shows it, never decoded into markup.
        (
            "/x%3Cscript%3Ealert(1)%3C/script%3E",
            "/x%3Cscript%3Ealert(1)%3C/script%3E",
        ),
    ] {
        let a = s.get(path, &[]).await;
        assert_eq!(a.status, 404, "{path}");
        assert!(
            a.header("content-type")
                .unwrap_or_default()
                .starts_with("text/html"),
            "{path}: {:?}",
            a.header("content-type")
        );
        assert!(a.raw.contains("Page not found"), "{path}: {}", a.raw);
        assert!(a.raw.contains(shown), "{path}: {shown} not in {}", a.raw);
        assert!(!a.raw.contains("<script>"), "{path}: {}", a.raw);
        assert!(a.raw.contains(r#"<a href="/">"#), "{path}: no way home");
    }
    let api = s.get("/api/no-such-route", &[]).await;
    assert_eq!(api.status, 404);
    assert_eq!(api.body["code"], "not_found", "{}", api.raw);
    s.stop().await;
}

/// The local-play page (docs/wasm.md, "Local play"): served at /local with relative addresses
/// and "Continue on the server" allowed; its script embedded as the other static files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_play_page_is_served() {
    let s = Server::start("sec-local", Config::default()).await;
    let a = s.get("/local", &[]).await;
    assert_eq!(a.status, 200);
    assert!(a.raw.contains(r#"data-page="local""#), "{}", a.raw);
    assert!(a.raw.contains(r#"data-site="server""#), "{}", a.raw);
    assert!(a.raw.contains(r#"src="static/local.js""#), "{}", a.raw);
    assert!(!a.raw.contains("/api/"), "the page asks no API at load");
    let js = s.get("/static/local.js", &[]).await;
    assert_eq!(js.status, 200);
    assert!(
        js.raw.contains("../wasm/cohort.js"),
        "local.js imports the module relatively"
    );
    s.stop().await;
}

/// The WebAssembly build's files (docs/wasm.md): the JavaScript embedded, the module read from
/// the file COHORT_WASM names, served as application/wasm; a clear 404 when it is not built.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wasm_files_are_served_with_their_types() {
    let s = Server::start("sec-wasm", Config::default()).await;
    for file in ["cohort.js", "worker.js"] {
        let a = s.get(&format!("/wasm/{file}"), &[]).await;
        assert_eq!(a.status, 200, "{file}");
        assert_eq!(a.header("content-type"), Some("text/javascript"), "{file}");
        assert!(a.raw.contains("Cohort"), "{file}");
    }
    let csp = s.get("/", &[]).await;
    let csp = csp.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
    // Only this test reads COHORT_WASM.
    let file = std::env::temp_dir().join(format!("cohort-wasm-test-{}.wasm", std::process::id()));
    std::fs::write(&file, b"\0asm\x01\0\0\0").unwrap();
    std::env::set_var("COHORT_WASM", &file);
    let a = s.get("/wasm/cohort.wasm", &[]).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/wasm"));
    std::fs::remove_file(&file).unwrap();
    let a = s.get("/wasm/cohort.wasm", &[]).await;
    assert_eq!(a.status, 404);
    assert!(a.raw.contains("scripts/wasm-build"), "{}", a.raw);
    std::env::remove_var("COHORT_WASM");
    assert_eq!(s.get("/wasm/other.js", &[]).await.status, 404);
    s.stop().await;
}
