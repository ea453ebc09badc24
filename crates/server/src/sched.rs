//! One server-wide scheduler for the AI's searches (docs/server.md, "Fair AI compute").
//!
//! At most `workers` searches run at once. A search asks for a turn with [`Scheduler::request`]
//! (which queues it at once, in order) and waits for [`Ticket::granted`]. When a worker frees
//! up, the waiting requests are served in two classes: games with a human seat first, then
//! AI-against-AI games and analyses; inside a class, round-robin across callers (a caller
//! with several requests waiting gets one, then goes to the back of its class). The AI's
//! turns are shared by caller in the job queue (jobs.rs) before they reach a worker here.
//! AI-against-AI searches
//! also never take the last free worker when there are two or more: one is kept for the
//! games people play, so a person's game never waits behind bulk AI-against-AI play.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// Which queue a request waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A game with at least one human seat: served first.
    Human,
    /// A game of AI against AI: served when no human game waits.
    Bulk,
}

#[derive(Default)]
struct RoundRobin {
    /// Callers with waiting requests, in the order they will be served.
    order: VecDeque<String>,
    waiting: HashMap<String, VecDeque<oneshot::Sender<()>>>,
}

impl RoundRobin {
    fn push(&mut self, caller: &str, tx: oneshot::Sender<()>) {
        let q = self.waiting.entry(caller.to_string()).or_default();
        if q.is_empty() {
            self.order.push_back(caller.to_string());
        }
        q.push_back(tx);
    }

    /// The next request, round-robin across callers; None if nobody waits.
    fn pop(&mut self) -> Option<oneshot::Sender<()>> {
        let caller = self.order.pop_front()?;
        let q = self
            .waiting
            .get_mut(&caller)
            .expect("a caller in order waits");
        let tx = q.pop_front().expect("a waiting caller has a request");
        if q.is_empty() {
            self.waiting.remove(&caller);
        } else {
            self.order.push_back(caller);
        }
        Some(tx)
    }

    fn len(&self) -> usize {
        self.waiting.values().map(|q| q.len()).sum()
    }
}

#[derive(Default)]
struct Inner {
    running: usize,
    running_bulk: usize,
    human: RoundRobin,
    bulk: RoundRobin,
}

pub struct Scheduler {
    workers: usize,
    /// Told each time a worker frees up (the job taker waits on it, api/ai.rs).
    pub freed: tokio::sync::Notify,
    /// Most AI-against-AI searches at once: one worker fewer than all when there are two.
    bulk_workers: usize,
    inner: Mutex<Inner>,
}

/// The right to run one search; the worker is handed on when it is dropped.
pub struct Permit {
    sched: Arc<Scheduler>,
    class: Class,
}

/// A queued request: its place is kept from [`Scheduler::request`] on.
pub struct Ticket {
    sched: Arc<Scheduler>,
    class: Class,
    rx: Option<oneshot::Receiver<()>>,
}

impl Scheduler {
    /// `workers` may be 0: an instance that leaves every search to other machines.
    pub fn new(workers: usize) -> Arc<Scheduler> {
        Arc::new(Scheduler {
            workers,
            freed: tokio::sync::Notify::new(),
            bulk_workers: if workers >= 2 { workers - 1 } else { 1 },
            inner: Mutex::new(Inner::default()),
        })
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.inner.lock().unwrap().running
    }

    /// Workers free now.
    pub fn free(&self) -> usize {
        self.workers - self.inner.lock().unwrap().running.min(self.workers)
    }

    /// Requests waiting now (both classes).
    pub fn waiting(&self) -> usize {
        let i = self.inner.lock().unwrap();
        i.human.len() + i.bulk.len()
    }

    fn may_start(&self, i: &Inner, class: Class) -> bool {
        i.running < self.workers && (class == Class::Human || i.running_bulk < self.bulk_workers)
    }

    /// Whether a search of `class` could start now (nobody of its class waits).
    pub fn can_start(&self, class: Class) -> bool {
        let i = self.inner.lock().unwrap();
        self.may_start(&i, class)
            && i.human.len() == 0
            && (class == Class::Human || i.bulk.len() == 0)
    }

    /// A worker for a search of `class` now, if one is free and nobody of its class waits;
    /// never queues.
    pub fn try_start(self: &Arc<Scheduler>, class: Class) -> Option<Permit> {
        let mut i = self.inner.lock().unwrap();
        let queue_empty = i.human.len() == 0 && (class == Class::Human || i.bulk.len() == 0);
        if !(queue_empty && self.may_start(&i, class)) {
            return None;
        }
        i.running += 1;
        if class == Class::Bulk {
            i.running_bulk += 1;
        }
        Some(Permit {
            sched: self.clone(),
            class,
        })
    }

    /// Queue a search for `caller`. Granted at once if a worker is free and nobody of its
    /// class waits; otherwise in turn.
    pub fn request(self: &Arc<Scheduler>, caller: &str, class: Class) -> Ticket {
        let (tx, rx) = oneshot::channel();
        let mut i = self.inner.lock().unwrap();
        let queue_empty = match class {
            Class::Human => i.human.len() == 0,
            Class::Bulk => i.human.len() == 0 && i.bulk.len() == 0,
        };
        if queue_empty && self.may_start(&i, class) {
            i.running += 1;
            if class == Class::Bulk {
                i.running_bulk += 1;
            }
            let _ = tx.send(());
        } else {
            match class {
                Class::Human => i.human.push(caller, tx),
                Class::Bulk => i.bulk.push(caller, tx),
            }
        }
        Ticket {
            sched: self.clone(),
            class,
            rx: Some(rx),
        }
    }

    /// A worker of `class` is free: hand workers to whoever waits, in order.
    fn release(&self, class: Class) {
        let mut i = self.inner.lock().unwrap();
        self.release_locked(&mut i, class);
    }

    fn release_locked(&self, i: &mut Inner, class: Class) {
        i.running -= 1;
        if class == Class::Bulk {
            i.running_bulk -= 1;
        }
        self.dispatch(i);
        self.freed.notify_one();
    }

    fn dispatch(&self, i: &mut Inner) {
        loop {
            let next = if self.may_start(i, Class::Human) && i.human.len() > 0 {
                i.human.pop().map(|tx| (tx, Class::Human))
            } else if self.may_start(i, Class::Bulk) && i.bulk.len() > 0 {
                i.bulk.pop().map(|tx| (tx, Class::Bulk))
            } else {
                None
            };
            let Some((tx, class)) = next else { return };
            // A request whose waiter is gone is skipped.
            if tx.send(()).is_ok() {
                i.running += 1;
                if class == Class::Bulk {
                    i.running_bulk += 1;
                }
            }
        }
    }
}

impl Ticket {
    /// Wait for the worker.
    pub async fn granted(mut self) -> Permit {
        let rx = self.rx.as_mut().expect("a ticket is awaited once");
        // The sender lives in the queue until it is sent: it is never dropped unsent.
        rx.await
            .expect("the scheduler hands every request a worker");
        self.rx = None;
        Permit {
            sched: self.sched.clone(),
            class: self.class,
        }
    }

    /// The permit if the worker is already handed over (no waiting).
    pub fn try_granted(mut self) -> Result<Permit, Ticket> {
        let rx = self.rx.as_mut().expect("a ticket is awaited once");
        match rx.try_recv() {
            Ok(()) => {
                self.rx = None;
                Ok(Permit {
                    sched: self.sched.clone(),
                    class: self.class,
                })
            }
            Err(_) => Err(self),
        }
    }
}

impl Drop for Ticket {
    /// A ticket dropped after its worker was handed over gives the worker back.
    fn drop(&mut self) {
        if let Some(mut rx) = self.rx.take() {
            // Under the lock: no worker can be handed over between the look and the drop.
            let mut i = self.sched.inner.lock().unwrap();
            if rx.try_recv().is_ok() {
                self.sched.release_locked(&mut i, self.class);
            }
            drop(rx);
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.sched.release(self.class);
    }
}
