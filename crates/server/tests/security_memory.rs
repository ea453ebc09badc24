//! Password hashing is bounded (docs/server.md, "Security"): 200 log-ins at once, each from
//! its own address (through a trusted proxy) and for a name of its own, so that none is
//! turned away by a rate limit and every one costs an argon2id hash (19 MiB); at most
//! `max_hashes` hashes run at once, and the process's peak resident memory stays under the
//! bound docs/server.md states. Alone in its test binary, so that the peak measured is this
//! test's.

mod common;

use cohort_server::Config;
use common::Server;
use serde_json::json;

/// The bound of docs/server.md: the whole process (server and test) during 200 parallel
/// log-ins, with 2 hashes at once.
const PEAK_RSS_MIB: u64 = 100;

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
    let s = Server::start(
        "sec-memory",
        Config {
            behind_proxy: true,
            max_hashes: 2,
            ..Config::default()
        },
    )
    .await;
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
    assert!(
        peak < PEAK_RSS_MIB,
        "peak resident memory {peak} MiB, over {PEAK_RSS_MIB} MiB"
    );
    assert!(after < PEAK_RSS_MIB, "resident memory after: {after} MiB");
    s.stop().await;
}
