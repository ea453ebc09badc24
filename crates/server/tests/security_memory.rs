//! Memory stays bounded under abuse (docs/server.md, "Security"). Password hashing:  (docs/server.md, "Security"): 200 log-ins at once, each from
//! its own address (through a trusted proxy) and for a name of its own, so that none is
//! turned away by a rate limit and every one costs an argon2id hash (19 MiB); at most
//! `max_hashes` hashes run at once, and the process's peak resident memory stays under the
//! bound docs/server.md states. WebSockets (issue 47): sockets sending messages of
//! tens of megabytes, never finished, and hundreds of idle watchers from one address leave
//! the resident memory within a few MiB. Alone in their test binary, one at a time
//! (`ONE_AT_A_TIME`), so that the memory measured is the test's.

mod common;

use cohort_server::Config;
use common::{Server, Ws};
use serde_json::json;

/// The tests of this binary run one after the other: each measures the process.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The bound of docs/server.md: the whole process (server and test) during 200 parallel
/// log-ins, with 2 hashes at once.
const PEAK_RSS_MIB: u64 = 100;

/// The memory of one argon2id hash with the default parameters (19 MiB), and what the 200
/// connections and their requests may add to the peak besides the hashes.
const ARGON2_MIB: u64 = 19;
const HASH_SLACK_MIB: u64 = 24;

/// Threads of this process named as the hashing threads are (accounts.rs, `Hashing`).
fn hashing_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("cohort-hash-"))
        .count()
}

/// A field of /proc/self/status in MiB (VmRSS: now; VmHWM: the peak so far).
fn status_mib(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = s
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} not in /proc/self/status"));
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb / 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn password_hashes_are_bounded_in_number_and_memory() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start(
        "sec-memory",
        Config {
            behind_proxy: true,
            max_hashes: 2,
            ..Config::default()
        },
    )
    .await;
    // The peak so far is another test's: start it again from here (Linux, clear_refs 5).
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_mib("VmRSS:");
    let t0 = std::time::Instant::now();
    let tasks: Vec<_> = (0..200)
        .map(|i| {
            let addr = s.addr;
            tokio::spawn(async move {
                let xff = format!("10.{}.{}.1", i / 100, i % 100);
                common::http(
                    addr,
                    "POST",
                    "/api/account/login",
                    &[("X-Forwarded-For", &xff)],
                    Some(
                        &json!({"username": format!("user{i}"), "password": "a guess"}).to_string(),
                    ),
                )
                .await
            })
        })
        .collect();
    let mut statuses = vec![];
    for t in tasks {
        let a = t.await.unwrap();
        assert!(
            a.status == 401 || (a.status == 503 && a.body["code"] == "busy"),
            "{}",
            a.raw
        );
        statuses.push(a.status);
    }
    let peak = status_mib("VmHWM:");
    let after = status_mib("VmRSS:");
    eprintln!(
        "200 parallel log-ins in {:?}: RSS {before} MiB before, peak {peak} MiB, {after} MiB after; \
         at most {} hashes at once; {} answered 401",
        t0.elapsed(),
        s.app.hash_peak(),
        statuses.iter().filter(|&&c| c == 401).count()
    );
    assert!(
        s.app.hash_peak() <= 2,
        "{} hashes ran at once (at most 2)",
        s.app.hash_peak()
    );
    // Each hashing thread keeps its argon2 memory (19 MiB): there are exactly `max_hashes`
    // of them, and the peak grew by about their memory, not more. (With twice the threads
    // and the same permits, the peak still stayed under the 100 MiB bound alone.)
    let hash_threads = hashing_threads();
    assert_eq!(
        hash_threads, 2,
        "{hash_threads} hashing threads (max_hashes 2)"
    );
    assert!(
        peak - before <= 2 * ARGON2_MIB + HASH_SLACK_MIB,
        "the peak grew by {} MiB during the log-ins: more than 2 hashes' memory ({} MiB) and {HASH_SLACK_MIB} MiB",
        peak - before,
        2 * ARGON2_MIB
    );
    assert!(
        peak < PEAK_RSS_MIB,
        "peak resident memory {peak} MiB, over {PEAK_RSS_MIB} MiB"
    );
    assert!(after < PEAK_RSS_MIB, "resident memory after: {after} MiB");
    s.stop().await;
}

/// What the sockets below may add to the resident memory, in all.
const SOCKETS_GROWTH_MIB: u64 = 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn big_unfinished_messages_and_idle_sockets_leave_memory_bounded() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = Server::start("sec-ws-memory", Config::default()).await;
    let game = {
        let a = s
            .post(
                "/api/games",
                &[],
                json!({"variant": "chess", "white": "human", "black": "human"}),
            )
            .await;
        assert_eq!(a.status, 200, "{}", a.raw);
        a.body["id"].as_str().unwrap().to_string()
    };
    let before = status_mib("VmRSS:");
    // Five sockets each sending 20 MB of a message announced at 45 MB (one frame), and five
    // sending 20 MB of a message in 64 KiB fragments, never finished: on the lobby's socket
    // and on the game's. Each is closed at its first frame over the limit.
    let chunk = vec![b'x'; 64 * 1024];
    let mut sent = vec![];
    let mut held = vec![];
    for i in 0..10 {
        let path = if i % 2 == 0 {
            "/api/challenges/watch".to_string()
        } else {
            format!("/api/games/{game}/ws")
        };
        let mut ws = Ws::open(s.addr, &path, &[]).await.expect("a socket");
        let mut n = 0usize;
        if i < 5 {
            ws.raw(&Ws::header(2, true, 45_000_000)).await;
        }
        while n < 20_000_000 {
            let frame = if i < 5 {
                chunk.clone()
            } else {
                let mut f = Ws::header(if n == 0 { 2 } else { 0 }, false, chunk.len() as u64);
                f.extend_from_slice(&chunk);
                f
            };
            let wrote =
                tokio::time::timeout(std::time::Duration::from_secs(2), ws.raw(&frame)).await;
            if !matches!(wrote, Ok(true)) {
                break;
            }
            n += chunk.len();
        }
        sent.push(n);
        held.push(ws);
    }
    // 300 idle watchers from one address: 64 open (the cap), the others refused.
    let mut open = 0;
    let mut refused = 0;
    for _ in 0..300 {
        match Ws::open(s.addr, "/api/challenges/watch", &[]).await {
            Ok(ws) => {
                open += 1;
                held.push(ws);
            }
            Err((429, _)) => refused += 1,
            Err(e) => panic!("a watcher: {e:?}"),
        }
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let after = status_mib("VmRSS:");
    eprintln!(
        "10 sockets sent {:?} bytes of unfinished messages; 300 watchers: {open} open, \
         {refused} refused; RSS {before} MiB before, {after} MiB after",
        sent
    );
    assert!(
        sent.iter().all(|&n| n < 20_000_000),
        "every socket was closed before its 20 MB were sent: {sent:?}"
    );
    assert_eq!((open, refused), (64, 300 - 64), "the cap per address");
    assert!(
        after.saturating_sub(before) < SOCKETS_GROWTH_MIB,
        "resident memory grew from {before} to {after} MiB"
    );
    drop(held);
    s.stop().await;
}
