//! The scheduler of the AI's searches (crates/server/src/sched.rs): the order in which waiting
//! games are served (human games first, round-robin across games) and the limit on searches
//! running at once, with real tasks holding their worker until the test lets them go.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cohort_server::sched::{Class, Scheduler};
use tokio::sync::{mpsc, oneshot};

/// A task that waits for its worker, reports `label` and how many searches ran at that
/// moment, then holds the worker until told to let go.
fn spawn_search(
    sched: &Arc<Scheduler>,
    game: &str,
    class: Class,
    label: &'static str,
    started: mpsc::UnboundedSender<(&'static str, usize, oneshot::Sender<()>)>,
) -> tokio::task::JoinHandle<()> {
    let ticket = sched.request(game, class);
    let sched = sched.clone();
    tokio::spawn(async move {
        let permit = ticket.granted().await;
        let (done_tx, done_rx) = oneshot::channel();
        started.send((label, sched.running(), done_tx)).unwrap();
        let _ = done_rx.await;
        drop(permit);
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn human_games_first_then_round_robin_one_worker() {
    let sched = Scheduler::new(1);
    // One search runs; everything after waits.
    let busy = sched
        .request("busy", Class::Bulk)
        .try_granted()
        .ok()
        .unwrap();
    let (tx, mut rx) = mpsc::unbounded_channel();
    // Queued in this order (each request is in the queue when `request` returns).
    let queued = [
        ("A", Class::Bulk, "A1"),
        ("A", Class::Bulk, "A2"),
        ("B", Class::Bulk, "B1"),
        ("H", Class::Human, "H1"),
        ("H", Class::Human, "H2"),
        ("G", Class::Human, "G1"),
        ("C", Class::Bulk, "C1"),
        ("A", Class::Bulk, "A3"),
    ];
    let mut tasks = vec![];
    for (game, class, label) in queued {
        tasks.push(spawn_search(&sched, game, class, label, tx.clone()));
    }
    assert_eq!(sched.waiting(), queued.len());
    assert_eq!(sched.running(), 1);
    drop(busy);
    let mut order = vec![];
    for _ in 0..queued.len() {
        let (label, running, done) = rx.recv().await.unwrap();
        assert_eq!(running, 1, "{label} ran beside another search");
        // Nobody else was handed the worker while this one holds it.
        assert!(rx.try_recv().is_err());
        order.push(label);
        done.send(()).unwrap();
    }
    assert_eq!(
        order,
        ["H1", "G1", "H2", "A1", "B1", "C1", "A2", "A3"],
        "human games first, then round-robin across games"
    );
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!((sched.running(), sched.waiting()), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn at_most_n_searches_and_a_worker_kept_for_people() {
    let sched = Scheduler::new(3);
    // AI-against-AI games take two of the three workers, never the third.
    let a = sched.request("A", Class::Bulk).try_granted().ok().unwrap();
    let b = sched.request("B", Class::Bulk).try_granted().ok().unwrap();
    let c = sched
        .request("C", Class::Bulk)
        .try_granted()
        .err()
        .expect("the last worker is kept for games with a person");
    assert_eq!(sched.running(), 2);
    // A person's game starts at once, even though an AI-against-AI game waited first.
    let h = sched.request("H", Class::Human).try_granted().ok().unwrap();
    assert_eq!(sched.running(), 3);
    // Now all three are busy: another person's game waits too.
    let g = sched
        .request("G", Class::Human)
        .try_granted()
        .err()
        .unwrap();
    // A worker freed by an AI-against-AI game goes to the waiting person first.
    drop(a);
    let g = g
        .try_granted()
        .ok()
        .expect("the person's game is served first");
    let c = c.try_granted().err().expect("C waits: three searches run");
    drop(h);
    // H's worker frees: C takes it (only B of the AI-against-AI games runs, C makes two).
    let c = c.try_granted().ok().expect("C runs once a worker is free");
    assert_eq!(sched.running(), 3);
    drop((b, c, g));
    assert_eq!((sched.running(), sched.waiting()), (0, 0));

    // Real searches: 12 tasks from 6 games doing CPU work on the blocking pool; the
    // number running at once never passes the limit, and every one finishes.
    let sched = Scheduler::new(2);
    let active = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let mut tasks = vec![];
    for i in 0..12 {
        let class = if i % 3 == 0 {
            Class::Human
        } else {
            Class::Bulk
        };
        let ticket = sched.request(&format!("g{}", i % 6), class);
        let (active, most) = (active.clone(), most.clone());
        tasks.push(tokio::spawn(async move {
            let permit = ticket.granted().await;
            let now = active.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            let sum = tokio::task::spawn_blocking(|| {
                (0..3_000_000u64).fold(0u64, |s, x| s.wrapping_add(x * x) ^ (s >> 3))
            })
            .await
            .unwrap();
            active.fetch_sub(1, Ordering::SeqCst);
            drop(permit);
            sum
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert!(most.load(Ordering::SeqCst) <= 2, "more than 2 searches ran");
    assert!(most.load(Ordering::SeqCst) >= 1);
    assert_eq!((sched.running(), sched.waiting()), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_given_up_hands_its_worker_on() {
    let sched = Scheduler::new(1);
    let busy = sched.request("A", Class::Human).try_granted().ok().unwrap();
    let gone = sched.request("B", Class::Human);
    let next = sched.request("C", Class::Human);
    drop(gone); // the game went away while waiting
    drop(busy);
    let c = next.try_granted().ok().expect("C is served, B is skipped");
    assert_eq!(sched.running(), 1);
    // A ticket dropped after its worker was handed over gives it back.
    let d = sched.request("D", Class::Human);
    drop(c);
    drop(d);
    assert_eq!((sched.running(), sched.waiting()), (0, 0));
}
