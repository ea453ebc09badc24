//! The AI's turns: searched in the background (through the scheduler, sched.rs) and played
//! step by step through the same path as a person's steps.

use cohort_rules::Rules;
use std::sync::Arc;
use std::time::Duration;

use cohort_engine::Limits;

use crate::api::play::{apply, Action};
use crate::api::timer::arm_clock;
use crate::clock::TimeControl;
use crate::live::LiveGame;
use crate::sched::Class;
use crate::store::now_ms;
use crate::{App, Slot};

/// If the side to move is the AI's, search in the background and play its turn step by step
/// through the same path as a person's steps.
pub async fn kick_ai(app: &Arc<App>, id: &str, slot: &Arc<Slot>) {
    let (game, agent, time_ms, side, ticket) = {
        let mut live = slot.live.lock().await;
        if !live.wants_ai() || live.ai_thinking {
            return;
        }
        live.ai_thinking = true;
        slot.publish(&live);
        let class = if live.row.white == "ai" && live.row.black == "ai" {
            Class::Bulk
        } else {
            Class::Human
        };
        (
            live.game.clone(),
            live.row.ai_agent.clone(),
            // Games stored before the limit was lowered search no longer than it; on a live
            // clock, at most a tenth of what the AI has left (its thinking counts on it).
            ai_time(&live, app.config.ai_max_time_ms),
            live.to_move(),
            // Queued now, in the order the turns came.
            app.scheduler.request(id, class),
        )
    };
    let app = app.clone();
    let slot = slot.clone();
    let id = id.to_string();
    tokio::spawn(async move {
        let permit = ticket.granted().await;
        let seed = cohort_engine::Rng::new(game.steps().len() as u64 + 1).below(1 << 30) as u64;
        let choice = tokio::task::spawn_blocking(move || {
            let variant = game.position().variant().clone();
            let mut agent = cohort_engine::agent(&agent, &variant)?;
            let limits = Limits {
                time: Some(Duration::from_millis(time_ms)),
                nodes: None,
                seed,
                threads: 1,
            };
            Some(agent.choose_turn(&game, &limits))
        })
        .await;
        drop(permit);
        let mut live = slot.live.lock().await;
        live.ai_thinking = false;
        // A search that failed (a panic) is not tried again and again: the game waits.
        let failed = choice.is_err();
        match choice {
            Ok(Some(choice)) => {
                for step in choice.steps {
                    // The game may have changed meanwhile (a resignation): then stop.
                    if live.game.result().is_some() || live.to_move() != side {
                        break;
                    }
                    // Written in the position it is played in (capture marks depend on it).
                    let text = live.game.position().step_text(step);
                    if let Err(e) = apply(&app, &mut live, side, Action::Step(text)).await {
                        eprintln!("cohort serve: game {id}: the AI's step was refused: {e}");
                        break;
                    }
                    slot.publish(&live);
                }
            }
            Ok(None) => eprintln!("cohort serve: game {id}: unknown agent"),
            Err(e) => eprintln!("cohort serve: game {id}: the AI failed: {e}"),
        }
        slot.publish(&live);
        drop(live);
        arm_clock(&app, &id, &slot).await;
        // Both seats may be the AI's: then the next turn is its too.
        if !failed {
            kick_ai_later(app, id, slot);
        }
    });
}

/// The AI's time for its turn: its setting, the server's cap, and its clock.
fn ai_time(live: &LiveGame, cap: u64) -> u64 {
    let mut t = (live.row.ai_time_ms as u64).min(cap);
    let c = &live.row.clock;
    if let TimeControl::Live { .. } = c.control {
        let side = live.to_move();
        let left = c.left(side, side, now_ms()).max(0) as u64;
        t = t.min((left / 10).max(50));
    }
    t
}

/// `kick_ai` from a new task (a plain function: the AI's task cannot contain itself).
fn kick_ai_later(app: Arc<App>, id: String, slot: Arc<Slot>) {
    tokio::spawn(async move { kick_ai(&app, &id, &slot).await });
}
