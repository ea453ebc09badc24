//! The AI job queue (crates/server/src/jobs.rs) on SQLite and PostgreSQL: one job per game,
//! people's games before AI-against-AI games and oldest first, takers at once never share a
//! job, a lease that runs out is taken over and its old holder can no longer renew or finish
//! it, and a store that closes gives its jobs back.

use crate::common;
use cohort_server::sched::Class;
use cohort_server::store::Store;
use common::{postgres_url, temp_db, with_fresh_database};

/// The caller of every game in `queue_rules`: its order is that of one caller's games.
const ONE: &str = "ip:10.0.0.1";

async fn queue_rules(store: &Store) {
    let t = 1_000_000;
    // One job per game: a second queueing of the same game changes nothing.
    assert!(store.queue_ai("bulk1", ONE, Class::Bulk, t).await.unwrap());
    assert!(store
        .queue_ai("human1", ONE, Class::Human, t + 1)
        .await
        .unwrap());
    assert!(store
        .queue_ai("human2", ONE, Class::Human, t + 2)
        .await
        .unwrap());
    assert!(!store
        .queue_ai("human1", ONE, Class::Human, t + 3)
        .await
        .unwrap());
    assert_eq!(
        store.ai_job("human1").await.unwrap().unwrap().queued_ms,
        t + 1
    );

    // People's games first, oldest first; AI-against-AI only where allowed.
    let a = store
        .take_ai("A", t + 10, 1000, false, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((a.game_id.as_str(), a.owner.as_str()), ("human1", "A"));
    assert_eq!(a.lease_until_ms, t + 1010);
    let b = store
        .take_ai("B", t + 10, 1000, false, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(b.game_id, "human2");
    assert!(store
        .take_ai("C", t + 10, 1000, false, false)
        .await
        .unwrap()
        .is_none());
    let c = store
        .take_ai("C", t + 10, 1000, true, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((c.game_id.as_str(), c.class), ("bulk1", Class::Bulk));
    assert!(store
        .take_ai("D", t + 10, 1000, true, false)
        .await
        .unwrap()
        .is_none());

    // A renewed lease holds; one that ran out is taken over, and its old holder can neither
    // renew nor finish the job any more.
    assert!(store.renew_ai("human1", "A", t + 2000).await.unwrap());
    // At t + 1500 B's and C's leases have run out, A's (renewed) has not: B's person's game.
    let d = store
        .take_ai("D", t + 1500, 2000, true, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.game_id, "human2");
    let d = store
        .take_ai("D", t + 1500, 2000, true, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.game_id, "bulk1");
    assert!(store
        .take_ai("D", t + 1500, 2000, true, false)
        .await
        .unwrap()
        .is_none());
    let d = store
        .take_ai("D", t + 2500, 2000, true, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.game_id, "human1", "A's lease ran out at t + 2000");
    assert!(!store.renew_ai("human1", "A", t + 9000).await.unwrap());
    store.finish_ai("human1", "A").await.unwrap();
    assert_eq!(store.ai_job("human1").await.unwrap().unwrap().owner, "D");
    store.finish_ai("human1", "D").await.unwrap();
    assert!(store.ai_job("human1").await.unwrap().is_none());

    // A failed search's job is parked: nobody takes it, however late.
    store.park_ai("bulk1", "D").await.unwrap();
    let e = store
        .take_ai("E", t + 1_000_000_000, 1000, true, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(e.game_id, "human2");
    assert!(store
        .take_ai("F", t + 1_000_000_000, 1000, true, false)
        .await
        .unwrap()
        .is_none());
    // Giving back: the job is queued again at once.
    assert_eq!(store.release_ai("E").await.unwrap(), 1);
    let f = store
        .take_ai("F", t + 20, 1000, true, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(f.game_id, "human2");
}

/// Workers are shared by caller: the next job is one of the caller with the fewest searches
/// under way, then of the caller served longest ago; a caller's own jobs oldest first. (By
/// game, oldest first, caller a's three jobs would all go before b's.) It leaves no job.
async fn caller_rules(store: &Store) {
    let t = 9_000_000;
    for (i, game) in ["a1", "a2", "a3"].iter().enumerate() {
        store
            .queue_ai(game, "ip:a", Class::Human, t + i as i64)
            .await
            .unwrap();
    }
    store
        .queue_ai("b1", "user:b", Class::Human, t + 10)
        .await
        .unwrap();
    store
        .queue_ai("c1", "ip:c", Class::Human, t + 11)
        .await
        .unwrap();
    let take = |who: &'static str, at: i64| async move {
        store
            .take_ai(who, at, 1000, true, false)
            .await
            .unwrap()
            .unwrap()
    };
    // Nobody runs anything yet: the oldest job. Then a runs one: b and c (none under way)
    // first, oldest first; then a again.
    assert_eq!(take("W1", t + 20).await.game_id, "a1");
    assert_eq!(take("W2", t + 21).await.game_id, "b1");
    assert_eq!(take("W3", t + 22).await.game_id, "c1");
    // A pool's last free worker takes only a job of a caller with nothing under way: none.
    assert!(store
        .take_ai("W4", t + 23, 1000, true, true)
        .await
        .unwrap()
        .is_none());
    let a2 = take("W4", t + 23).await;
    assert_eq!((a2.game_id.as_str(), a2.caller.as_str()), ("a2", "ip:a"));
    // Everything done; a and b queue again, a's older: b, served longer ago, goes first.
    for (game, owner) in [("a1", "W1"), ("b1", "W2"), ("c1", "W3"), ("a2", "W4")] {
        store.finish_ai(game, owner).await.unwrap();
    }
    store
        .queue_ai("b2", "user:b", Class::Human, t + 40)
        .await
        .unwrap();
    assert_eq!(take("W5", t + 50).await.game_id, "b2");
    assert_eq!(take("W6", t + 51).await.game_id, "a3");
    store.finish_ai("b2", "W5").await.unwrap();
    store.finish_ai("a3", "W6").await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ai_job_queue_on_sqlite() {
    let (dir, url) = temp_db("jobs");
    let store = Store::open(&url).await.unwrap();
    caller_rules(&store).await;
    queue_rules(&store).await;
    store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ai_job_queue_on_postgres_and_takers_at_once() {
    let Some(url) = postgres_url("the_ai_job_queue_on_postgres_and_takers_at_once") else {
        return;
    };
    with_fresh_database(&url, "cohort_jobs", |db| async move {
        let store = Store::open(&db).await.unwrap();
        caller_rules(&store).await;
        queue_rules(&store).await;
        // 40 jobs, 8 takers at once on their own stores (connections): each job is taken
        // exactly once.
        for i in 0..40 {
            store
                .queue_ai(&format!("g{i:02}"), ONE, Class::Human, 5_000_000 + i)
                .await
                .unwrap();
        }
        let mut takers = vec![];
        // Nobody closes (and gives its jobs back) before every taker has found the queue empty.
        let all_done = std::sync::Arc::new(tokio::sync::Barrier::new(8));
        for _ in 0..8 {
            let (db, all_done) = (db.clone(), all_done.clone());
            takers.push(tokio::spawn(async move {
                let s = Store::open(&db).await.unwrap();
                let mut got = vec![];
                while let Some(j) = s
                    .take_ai(&s.instance, 6_000_000, 60_000, true, false)
                    .await
                    .unwrap()
                {
                    got.push(j.game_id);
                }
                // Closing gives back what it holds: these jobs go back to the queue.
                all_done.wait().await;
                s.close().await;
                got
            }));
        }
        let mut all = vec![];
        for t in takers {
            all.extend(t.await.unwrap());
        }
        let mut taken: Vec<_> = all.iter().filter(|g| g.starts_with('g')).cloned().collect();
        taken.sort();
        let expected: Vec<_> = (0..40).map(|i| format!("g{i:02}")).collect();
        assert_eq!(taken, expected, "each job taken exactly once");
        // Every taker closed: every job is queued again.
        let again = store
            .take_ai("Z", 6_000_001, 1000, true, false)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(again.owner, "Z");
        store.close().await;
    })
    .await;
}
