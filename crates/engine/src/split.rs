//! The root's steps shared between search threads (young brothers wait at the root).
//!
//! The main thread searches the root's first step alone, for a score the others must beat;
//! then it publishes the rest as a job, and every thread takes steps from it one at a time
//! and searches each against the best score found so far. Helper threads searching the same
//! tree deeper and sharing only the table (lazy SMP) were measured at +3 and -7 Elo against
//! one thread: two threads on one line mostly repeat each other's work, while the root's
//! steps after the first are independent searches.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use cohort_rules::Step;

/// The steps of one depth's root still to search after the first.
#[derive(Clone)]
pub struct Job {
    /// Numbers the jobs: a thread takes steps only from the job it read.
    pub generation: u32,
    pub depth: i32,
    pub beta: i32,
    /// The root's steps in search order (those before the counter's start were searched
    /// before sharing).
    pub steps: Arc<[Step]>,
}

/// The best root step found in the job `generation`, with its score and line.
struct Best {
    generation: u32,
    score: i32,
    line: Vec<Step>,
}

/// What the search threads of one root share (one per `think_on` with several threads).
pub struct SplitRoot {
    job: Mutex<Option<Job>>,
    wake: Condvar,
    /// The job's generation (high half) and the index of its next step to take (low half):
    /// taken by compare-and-swap, so a step is never taken from a job that has ended.
    next: AtomicU64,
    /// Threads working on a job: the main thread waits for them before reading the result.
    busy: AtomicUsize,
    /// The best score so far in the current job (the bound every step must beat).
    alpha: AtomicI32,
    best: Mutex<Best>,
    /// The search is over: helpers return.
    done: AtomicBool,
}

impl Default for SplitRoot {
    fn default() -> Self {
        SplitRoot {
            job: Mutex::new(None),
            wake: Condvar::new(),
            next: AtomicU64::new(0),
            busy: AtomicUsize::new(0),
            alpha: AtomicI32::new(0),
            best: Mutex::new(Best {
                generation: 0,
                score: 0,
                line: Vec::new(),
            }),
            done: AtomicBool::new(false),
        }
    }
}

impl SplitRoot {
    /// Share the root's steps after `skip`, with the bound they must beat (`alpha`) and the
    /// first step's score and line (`line` starts with the step). Returns the job, for the
    /// main thread to work on too.
    #[allow(clippy::too_many_arguments)]
    pub fn publish(
        &self,
        depth: i32,
        beta: i32,
        steps: &[Step],
        skip: usize,
        alpha: i32,
        score: i32,
        line: &[Step],
    ) -> Job {
        let mut job = self.job.lock().unwrap_or_else(|e| e.into_inner());
        let generation = job
            .as_ref()
            .map_or(1, |j| j.generation.wrapping_add(1).max(1));
        {
            let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
            best.generation = generation;
            best.score = score;
            best.line.clear();
            best.line.extend_from_slice(line);
        }
        self.alpha.store(alpha, SeqCst);
        // The counter before the job: a thread that reads the job finds its steps open.
        self.next
            .store((generation as u64) << 32 | skip as u64, SeqCst);
        let new = Job {
            generation,
            depth,
            beta,
            steps: steps.into(),
        };
        *job = Some(new.clone());
        drop(job);
        self.wake.notify_all();
        new
    }

    /// The index of the next step of `job` to search, if any is left.
    pub fn take(&self, job: &Job) -> Option<usize> {
        let mut v = self.next.load(SeqCst);
        loop {
            let index = (v & 0xFFFF_FFFF) as usize;
            if (v >> 32) as u32 != job.generation
                || index >= job.steps.len()
                || self.alpha.load(SeqCst) >= job.beta
            {
                return None;
            }
            match self.next.compare_exchange_weak(v, v + 1, SeqCst, SeqCst) {
                Ok(_) => return Some(index),
                Err(now) => v = now,
            }
        }
    }

    /// The bound a step of the current job must beat.
    pub fn alpha(&self) -> i32 {
        self.alpha.load(SeqCst)
    }

    /// A step of `job` searched to the end scored `score` with the line `line` (the step
    /// first): kept if it beats the best so far.
    pub fn offer(&self, job: &Job, score: i32, line: &[Step]) {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.generation == job.generation && score > best.score {
            best.score = score;
            best.line.clear();
            best.line.extend_from_slice(line);
            self.alpha.fetch_max(score, SeqCst);
        }
    }

    /// A helper starts (`true`) or stops working on a job.
    pub fn working(&self, on: bool) {
        if on {
            self.busy.fetch_add(1, SeqCst);
        } else {
            self.busy.fetch_sub(1, SeqCst);
        }
    }

    /// Wait until no helper works on a job (the main thread, once no step is left to take).
    /// When `stopped` says so, it stops waiting and tells the helpers to stop (`finish`).
    pub fn wait_idle(&self, stopped: impl Fn() -> bool) {
        while self.busy.load(SeqCst) > 0 {
            if stopped() {
                self.finish();
                return;
            }
            std::thread::yield_now();
        }
    }

    /// The best score and line of the current job.
    pub fn result(&self) -> (i32, Vec<Step>) {
        let best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        (best.score, best.line.clone())
    }

    /// A job newer than `seen` (a generation), waiting for one; `None` once the search is
    /// over.
    pub fn next_job(&self, seen: u32) -> Option<Job> {
        let mut job = self.job.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if self.done.load(SeqCst) {
                return None;
            }
            if let Some(j) = job.as_ref().filter(|j| j.generation != seen) {
                return Some(j.clone());
            }
            job = self
                .wake
                .wait_timeout(job, Duration::from_millis(1))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The flag helpers search under as their stop flag (`Searcher::stop`).
    pub fn done_flag(&self) -> &AtomicBool {
        &self.done
    }

    /// The search is over: helpers stop searching and return from `next_job`.
    pub fn finish(&self) {
        self.done.store(true, SeqCst);
        self.wake.notify_all();
    }
}
