//! The AI's turns as jobs (jobs.rs): queued in storage when the AI is to move, taken by the
//! worker pool of any instance on the database (or a `cohort worker`), searched under a
//! lease the taker renews, and played step by step through the same path as a person's
//! steps. Storage's version check keeps a turn from being played twice; a taker that dies
//! stops renewing and its job is taken over when the lease runs out.

use cohort_rules::Rules;
use std::sync::Arc;
use std::time::Duration;

use cohort_engine::Limits;

use crate::api::play::{apply, refresh, Action};
use crate::api::timer::arm_clock;
use crate::clock::TimeControl;
use crate::jobs::{caller_of, AiJob};
use crate::live::LiveGame;
use crate::live::Posted;
use crate::sched::{Class, Permit};
use crate::store::now_ms;
use crate::{App, Slot};

/// If the side to move is the AI's, queue its search (once: a job already queued or under
/// way for the game stays as it is) and wake this instance's taker.
pub async fn kick_ai(app: &Arc<App>, id: &str, slot: &Arc<Slot>) {
    let (class, caller) = {
        let live = slot.live.lock().await;
        if !live.wants_ai() {
            return;
        }
        (class_of(&live), caller_of(&live.row))
    };
    match app.store.queue_ai(id, &caller, class, now_ms()).await {
        Ok(_) => app.jobs_ready.notify_one(),
        // The game waits; the next change or restart queues it again.
        Err(e) => eprintln!("cohort serve: game {id}: the AI's search not queued: {e}"),
    }
}

fn class_of(live: &LiveGame) -> Class {
    if live.row.white == "ai" && live.row.black == "ai" {
        Class::Bulk
    } else {
        Class::Human
    }
}

/// Search the AI's turn of the job's game and play it, renewing the lease meanwhile; then
/// finish the job and queue the next one if the AI is to move again.
pub(crate) async fn run_job(app: Arc<App>, job: AiJob, permit: Permit) {
    let id = job.game_id.clone();
    let me = app.instance.clone();
    let slot = match app.slot(&id).await {
        Ok(Some(slot)) => slot,
        Ok(None) => {
            let _ = app.store.finish_ai(&id, &me).await;
            return;
        }
        Err(e) => {
            eprintln!("cohort serve: game {id}: not loaded for the AI: {e}");
            let _ = app.store.park_ai(&id, &me).await;
            return;
        }
    };
    let (game, agent, time_ms, side) = {
        let mut live = slot.live.lock().await;
        if let Err(e) = refresh(&app, &mut live).await {
            eprintln!("cohort serve: game {id}: {e}; the AI's job goes back to the queue");
            let _ = app.store.give_back_ai(&id, &me).await;
            return;
        }
        if !live.wants_ai() {
            drop(live);
            let _ = app.store.finish_ai(&id, &me).await;
            return;
        }
        (
            live.game.clone(),
            live.row.ai_agent.clone(),
            // Games stored before the limit was lowered search no longer than it; on a live
            // clock, at most a tenth of what the AI has left (its thinking counts on it).
            ai_time(&live, app.config.ai_max_time_ms),
            live.to_move(),
        )
    };
    let seed = cohort_engine::Rng::new(game.steps().len() as u64 + 1).below(1 << 30) as u64;
    let search = tokio::task::spawn_blocking(move || {
        let variant = game.position().variant().clone();
        let mut agent = cohort_engine::agent(&agent, &variant)?;
        let limits = Limits {
            time: Some(Duration::from_millis(time_ms)),
            nodes: None,
            seed,
            threads: 1,
            clock: None,
        };
        Some(agent.choose_turn(&game, &limits))
    });
    tokio::pin!(search);
    // Renewed three times a lease: a taker that stops renewing (it died) loses the job.
    let lease = app.config.ai_lease;
    let mut renew = tokio::time::interval(lease / 3);
    renew.tick().await;
    let mut mine = true;
    let choice = loop {
        tokio::select! {
            choice = &mut search => break choice,
            _ = renew.tick(), if mine => {
                let until = now_ms() + lease.as_millis() as i64;
                // A storage error keeps the search going: the lease may still hold.
                if let Ok(false) = app.store.renew_ai(&id, &me, until).await {
                    mine = false;
                }
            }
        }
    };
    drop(permit);
    if !mine {
        eprintln!(
            "cohort serve: game {id}: the AI's job was taken over; this search's turn is dropped"
        );
        return;
    }
    let mut live = slot.live.lock().await;
    match choice {
        Ok(Some(choice)) => {
            for step in choice.steps {
                // The game may have changed meanwhile (a resignation): then stop.
                if live.game.result().is_some() || live.to_move() != side {
                    break;
                }
                // The step itself: checked once against the game as it is now.
                if let Err(e) = apply(
                    &app,
                    &mut live,
                    side,
                    Action::Step(Posted::Chosen(step), None),
                )
                .await
                {
                    eprintln!("cohort serve: game {id}: the AI's step was refused: {e}");
                    break;
                }
                slot.publish(&live);
            }
            drop(live);
            if let Err(e) = app.store.finish_ai(&id, &me).await {
                eprintln!("cohort serve: game {id}: the AI's job not finished: {e}");
            }
            arm_clock(&app, &id, &slot).await;
            // Both seats may be the AI's: then the next turn is a job too (at the back of
            // its class, so AI-against-AI games take turns).
            kick_ai(&app, &id, &slot).await;
        }
        // A search that failed (a panic, an unknown agent) is not tried again and again:
        // the job is parked and the game waits.
        failed => {
            drop(live);
            match failed {
                Ok(_) => eprintln!("cohort serve: game {id}: unknown agent"),
                Err(e) => eprintln!("cohort serve: game {id}: the AI failed: {e}"),
            }
            let _ = app.store.park_ai(&id, &me).await;
        }
    }
}

/// The AI's time for its turn: its setting and the server's cap, and on a live clock at
/// most the engine's share of what it has left and of its increment
/// (`cohort_engine::clock_turn_time`, the rule `cohort engine` follows), with 50 ms kept
/// for the steps to reach the clock.
fn ai_time(live: &LiveGame, cap: u64) -> u64 {
    let t = (live.row.ai_time_ms as u64).min(cap);
    let c = &live.row.clock;
    match c.control {
        TimeControl::Live { inc_ms, .. } => {
            let side = live.to_move();
            let left = c.left(side, side, now_ms()).max(0) as u64;
            let share = cohort_engine::clock_turn_time(left, inc_ms.max(0) as u64, 30);
            t.min(share.saturating_sub(50).max(20))
        }
        _ => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::store::GameRow;

    /// A chess game with the AI's setting `setting_ms`, White to move with `white_ms` left.
    fn game(control: TimeControl, white_ms: i64, setting_ms: i64) -> LiveGame {
        let mut clock = Clock::start(control, now_ms());
        clock.remaining_ms[0] = white_ms;
        let row = GameRow {
            id: "t".into(),
            variant: "chess".into(),
            start: cohort_rules::builtin("chess").unwrap().start().to_text(),
            white: "ai".into(),
            black: "human".into(),
            ai_agent: "engine".into(),
            ai_time_ms: setting_ms,
            clock,
            ..GameRow::default()
        };
        LiveGame::replay(row, &[]).expect("a game")
    }

    /// The AI's time is its setting under the cap, cut to its share of a live clock: that
    /// share counts the increment, which comes back after the turn.
    #[test]
    fn the_ais_time_heeds_its_setting_the_cap_its_clock_and_its_increment() {
        let none = game(TimeControl::None, 0, 800);
        assert_eq!(ai_time(&none, 5000), 800);
        assert_eq!(ai_time(&none, 300), 300);
        let live = |inc_ms| TimeControl::Live {
            base_ms: 60_000,
            inc_ms,
        };
        // Plenty on the clock: the setting.
        assert_eq!(ai_time(&game(live(0), 60_000, 800), 5000), 800);
        // 3 s left, no increment: a thirtieth of it less the margin, at most.
        let short = ai_time(&game(live(0), 3_000, 800), 5000);
        assert!((20..=60).contains(&short), "{short} ms of 3 s left");
        // The same clock with a 2 s increment: most of the increment is spent.
        let with_inc = ai_time(&game(live(2_000), 3_000, 5000), 5000);
        assert!(
            (1_400..=1_600).contains(&with_inc),
            "{with_inc} ms of 3 s left and 2 s a turn"
        );
        // Never more than half of what is left, even with a large increment.
        let low = ai_time(&game(live(10_000), 1_000, 5000), 5000);
        assert!(low <= 500, "{low} ms of 1 s left");
    }
}
