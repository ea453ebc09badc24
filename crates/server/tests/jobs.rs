//! The AI job queue (crates/server/src/jobs.rs) on SQLite and PostgreSQL: one job per game,
//! people's games before AI-against-AI games and oldest first, takers at once never share a
//! job, a lease that runs out is taken over and its old holder can no longer renew or finish
//! it, and a store that closes gives its jobs back.

use crate::common;
use cohort_server::sched::Class;
use cohort_server::store::Store;
use common::{postgres_url, temp_db, with_fresh_database};

async fn queue_rules(store: &Store) {
    let t = 1_000_000;
    // One job per game: a second queueing of the same game changes nothing.
    assert!(store.queue_ai("bulk1", Class::Bulk, t).await.unwrap());
    assert!(store.queue_ai("human1", Class::Human, t + 1).await.unwrap());
    assert!(store.queue_ai("human2", Class::Human, t + 2).await.unwrap());
    assert!(!store.queue_ai("human1", Class::Human, t + 3).await.unwrap());
    assert_eq!(
        store.ai_job("human1").await.unwrap().unwrap().queued_ms,
        t + 1
    );

    // People's games first, oldest first; AI-against-AI only where allowed.
    let a = store
        .take_ai("A", t + 10, 1000, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((a.game_id.as_str(), a.owner.as_str()), ("human1", "A"));
    assert_eq!(a.lease_until_ms, t + 1010);
    let b = store
        .take_ai("B", t + 10, 1000, false)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(b.game_id, "human2");
    assert!(store
        .take_ai("C", t + 10, 1000, false)
        .await
        .unwrap()
        .is_none());
    let c = store
        .take_ai("C", t + 10, 1000, true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((c.game_id.as_str(), c.class), ("bulk1", Class::Bulk));
    assert!(store
        .take_ai("D", t + 10, 1000, true)
        .await
        .unwrap()
        .is_none());

    // A renewed lease holds; one that ran out is taken over, and its old holder can neither
    // renew nor finish the job any more.
    assert!(store.renew_ai("human1", "A", t + 2000).await.unwrap());
    // At t + 1500 B's and C's leases have run out, A's (renewed) has not: B's person's game.
    let d = store
        .take_ai("D", t + 1500, 2000, true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.game_id, "human2");
    let d = store
        .take_ai("D", t + 1500, 2000, true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.game_id, "bulk1");
    assert!(store
        .take_ai("D", t + 1500, 2000, true)
        .await
        .unwrap()
        .is_none());
    let d = store
        .take_ai("D", t + 2500, 2000, true)
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
        .take_ai("E", t + 1_000_000_000, 1000, true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(e.game_id, "human2");
    assert!(store
        .take_ai("F", t + 1_000_000_000, 1000, true)
        .await
        .unwrap()
        .is_none());
    // Giving back: the job is queued again at once.
    assert_eq!(store.release_ai("E").await.unwrap(), 1);
    let f = store
        .take_ai("F", t + 20, 1000, true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(f.game_id, "human2");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ai_job_queue_on_sqlite() {
    let (dir, url) = temp_db("jobs");
    let store = Store::open(&url).await.unwrap();
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
        queue_rules(&store).await;
        // 40 jobs, 8 takers at once on their own stores (connections): each job is taken
        // exactly once.
        for i in 0..40 {
            store
                .queue_ai(&format!("g{i:02}"), Class::Human, 5_000_000 + i)
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
                    .take_ai(&s.instance, 6_000_000, 60_000, true)
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
            .take_ai("Z", 6_000_001, 1000, true)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(again.owner, "Z");
        store.close().await;
    })
    .await;
}
