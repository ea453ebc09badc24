//! A seat's actions on a game: a step, taking one back, resigning, the draw offers, the
//! takeback requests and aborting (`POST /api/games/<id>/{step,undo,resign,draw,takeback,
//! abort}`, each with the seat's token), and the
//! creator's stop of an AI-against-AI game. Each goes through [`play::apply`].

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;

use crate::api::play::{self, rate_if_finished, Action};
use crate::api::{ai::kick_ai, timer::arm_clock};
use crate::error::{body, Answer, ApiError, ApiPath, Code};
use crate::live::Posted;
use crate::store::{now_ms, Change};
use crate::view::side_name;
use crate::App;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    token: String,
    /// The step as text (NOTATION.md) ...
    step: Option<String>,
    /// ... or as data: its index in the view's `steps`, listed at the view's `version`.
    index: Option<usize>,
    version: Option<i64>,
    action: Option<String>,
}

pub(super) async fn step(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    let posted = match (&a.step, a.index, a.version) {
        (Some(text), None, None) => Posted::Text(text.clone()),
        (None, Some(index), Some(_)) => Posted::Index(index),
        (None, Some(_), None) => {
            return Err(ApiError::new(
                Code::BadRequest,
                "missing field 'version': an index means a step of the view at that version",
            ))
        }
        (None, None, _) => {
            return Err(ApiError::new(
                Code::BadRequest,
                "missing field 'step' (or 'index' and 'version')",
            ))
        }
        _ => {
            return Err(ApiError::new(
                Code::BadRequest,
                "give the step as 'step' or as 'index' and 'version', not both",
            ))
        }
    };
    let version = a.version;
    act(s, id, a, Action::Step(posted, version)).await
}
pub(super) async fn undo(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    act(s, id, a, Action::Undo).await
}
pub(super) async fn resign(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    act(s, id, a, Action::Resign).await
}
pub(super) async fn draw(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    let what = offer_action(&a)?;
    act(s, id, a, Action::Draw(what)).await
}

pub(super) async fn takeback(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    let what = offer_action(&a)?;
    act(s, id, a, Action::Takeback(what)).await
}
pub(super) async fn abort(
    s: State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let a: Act = body(raw)?;
    // A tournament game is played out: aborting would take a pairing from the round.
    let in_tournament =
        s.0.store
            .tournament_of_game(&id)
            .await
            .map_err(|e| ApiError::internal(format!("reading the game failed: {e}")))?;
    if in_tournament.is_some() {
        return Err(ApiError::new(
            Code::TournamentGame,
            "a tournament game cannot be aborted; resign instead",
        ));
    }
    act(s, id, a, Action::Abort).await
}

/// The `action` of a draw or takeback request: offer, accept or decline (checked by the
/// action itself).
fn offer_action(a: &Act) -> Result<String, ApiError> {
    a.action.clone().ok_or_else(|| {
        ApiError::new(
            Code::BadRequest,
            "missing field 'action' (offer, accept or decline)",
        )
    })
}

async fn act(State(app): State<Arc<App>>, id: String, a: Act, action: Action) -> Answer {
    let slot = app.find(&id).await?;
    let view = {
        let mut live = slot.live.lock().await;
        let seat = live.seat_of(&a.token).ok_or_else(|| {
            ApiError::new(Code::Forbidden, "this token holds no seat in this game")
        })?;
        let before = live.row.version;
        if let Err(e) = play::apply(&app, &mut live, seat, action).await {
            if live.row.version != before {
                // The flag had fallen: the game ended on time before the action.
                rate_if_finished(&app, &mut live).await;
                slot.publish(&live);
            }
            return Err(e);
        }
        rate_if_finished(&app, &mut live).await;
        // One view serves the watchers (no seat) and, with the seat, the answer.
        let mut view = live.view(None);
        if slot.updates.receiver_count() > 0 {
            slot.publish_view(live.row.version, &view);
        }
        view["seat"] = side_name(seat).into();
        view
    };
    arm_clock(&app, &id, &slot).await;
    kick_ai(&app, &id, &slot).await;
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StopReq {
    token: Option<String>,
}

/// Stop an AI-against-AI game: its creator's token ends it as a draw by agreement.
pub(super) async fn stop(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    // No body at all is the same as no token.
    let req: StopReq = match &raw {
        Ok(b) if b.iter().all(|c| c.is_ascii_whitespace()) => StopReq { token: None },
        _ => body(raw)?,
    };
    let slot = app.find(&id).await?;
    let mut live = slot.live.lock().await;
    let holder = &live.row.creator_token;
    let right = match &req.token {
        Some(t) => !holder.is_empty() && t == holder,
        None => false,
    };
    if !right {
        return Err(ApiError::new(
            Code::Forbidden,
            if holder.is_empty() {
                "only an AI-against-AI game created with a creator token can be stopped"
            } else {
                "this token is not the creator's token of this game"
            },
        ));
    }
    play::refresh(&app, &mut live).await?;
    if live.game.result().is_some() {
        return Err(ApiError::new(Code::GameOver, "the game is over"));
    }
    let mover = live.to_move();
    live.row.clock.stop(mover, now_ms());
    live.game.agree_draw();
    live.row.ending = Some("stopped".into());
    live.row.draw_offer = None;
    live.row.version += 1;
    live.row.updated_ms = now_ms();
    live.row.finished = true;
    // A search under way finds the game over and plays nothing.
    play::store_or_restore(&app, &mut live, Change::Row).await?;
    let view = live.view(None);
    slot.publish_view(live.row.version, &view);
    Ok(Json(view))
}
