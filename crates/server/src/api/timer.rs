//! The clock's timer: a task per game that ends it on time when the side to move's flag
//! falls, or aborts it when its first step does not come in time, whether or not anyone
//! sends a request.

use std::sync::Arc;
use std::time::Duration;

use crate::api::play::{rate_if_finished, settle_clock};
use crate::store::now_ms;
use crate::{App, Slot};

/// When game `live` must be looked at by the timer: its flag falls, or its start window
/// ends with no first step.
fn next_deadline(app: &App, live: &crate::live::LiveGame) -> Option<i64> {
    if live.game.result().is_some() {
        return None;
    }
    let window = app.config.first_step_window.as_millis() as i64;
    live.first_step_deadline(window)
        .or_else(|| live.row.clock.deadline(live.to_move()))
}

/// Watch the clock of game `id`: when the side to move's flag falls, the game ends on time
/// (stored, shown to the watchers, rated); when no first step came within the start
/// window, it is aborted (unrated); whether or not anyone sends a request. Called after
/// every change; the timer it replaces is cancelled.
pub(crate) async fn arm_clock(app: &Arc<App>, id: &str, slot: &Arc<Slot>) {
    let deadline = {
        let live = slot.live.lock().await;
        next_deadline(app, &live)
    };
    let mut timer = slot.timer.lock().unwrap();
    if let Some(old) = timer.take() {
        old.abort();
    }
    let Some(mut deadline) = deadline else {
        return;
    };
    let (app, slot2, id) = (app.clone(), slot.clone(), id.to_string());
    let task = tokio::spawn(async move {
        loop {
            let wait = (deadline - now_ms()).max(0) as u64;
            tokio::time::sleep(Duration::from_millis(wait)).await;
            let mut live = slot2.live.lock().await;
            if live.game.result().is_some() {
                return;
            }
            match settle_clock(&app, &mut live).await {
                Ok(true) => {
                    rate_if_finished(&app, &mut live).await;
                    slot2.publish(&live);
                    return;
                }
                // Another instance on the database ended it first: show storage's game.
                Ok(false) if live.game.result().is_some() => {
                    slot2.publish(&live);
                    return;
                }
                Ok(false) => match next_deadline(&app, &live) {
                    // The clock moved on (a turn ended): wait for the new deadline.
                    Some(d) => deadline = d,
                    None => return,
                },
                // Another instance stored the end on time first (its version won): `live`
                // is storage's game again.
                Err(_) if live.game.result().is_some() => {
                    slot2.publish(&live);
                    return;
                }
                Err(e) => {
                    eprintln!("cohort serve: game {id}: {e}; trying again in a second");
                    deadline = now_ms() + 1000;
                }
            }
        }
    });
    *timer = Some(task.abort_handle());
}
