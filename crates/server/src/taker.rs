//! The job taker (docs/server.md, "Fair AI compute"): takes jobs from the queue (jobs.rs)
//! while a worker of this instance's scheduler (sched.rs) is free, and runs each: an AI
//! turn (api/ai.rs) or an analysis (analysis_api.rs). A module of its own so that neither
//! of those depends on the other.

use std::time::Duration;

use crate::sched::Class;
use crate::store::now_ms;
use crate::{analysis_api, api, App};

/// This instance's taker: while a worker is free, take the next job (from any instance) and
/// run it: the next caller's (jobs.rs), the last free worker only for a caller with no
/// search under way. Wakes when a job is queued here or announced by another instance, when
/// a worker frees up, and every quarter lease (a lease that ran out). Ends with the app or
/// its store.
pub(crate) async fn take_jobs(app: std::sync::Weak<App>) {
    let Some(strong) = app.upgrade() else { return };
    let mut closed = strong.store.closed();
    let tick =
        (strong.config.ai_lease / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
    drop(strong);
    loop {
        let Some(app) = app.upgrade() else { return };
        if *closed.borrow() {
            return;
        }
        // While a worker is free for a person's game; an AI-against-AI game may take it
        // only if one is left for people (sched.rs).
        while app.scheduler.can_start(Class::Human) {
            let bulk = app.scheduler.can_start(Class::Bulk);
            // With two workers or more the last free one is kept for callers with no search
            // under way: one caller's games never hold every worker (jobs.rs).
            let idle_callers = app.scheduler.workers() >= 2 && app.scheduler.free() == 1;
            let lease = app.config.ai_lease.as_millis() as i64;
            let job = match app
                .store
                .take_ai(&app.instance, now_ms(), lease, bulk, idle_callers)
                .await
            {
                Ok(Some(job)) => job,
                Ok(None) => break,
                Err(e) => {
                    if !*closed.borrow() {
                        eprintln!("cohort serve: taking an AI job: {e}");
                    }
                    break;
                }
            };
            let Some(permit) = app.scheduler.try_start(job.class) else {
                // A worker was taken meanwhile (only tests hold them by hand): give it back.
                let _ = app.store.give_back_ai(&job.game_id, &app.instance).await;
                break;
            };
            if job.kind == "analysis" {
                tokio::spawn(analysis_api::run_job(app.clone(), job, permit));
            } else {
                tokio::spawn(api::ai::run_job(app.clone(), job, permit));
            }
        }
        let (sched, ready) = (app.scheduler.clone(), app.jobs_ready.clone());
        drop(app);
        tokio::select! {
            _ = sched.freed.notified() => {}
            _ = ready.notified() => {}
            _ = closed.changed() => return,
            _ = tokio::time::sleep(tick) => {}
        }
    }
}
