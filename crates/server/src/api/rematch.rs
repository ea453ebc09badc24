//! Rematches: after a game is over, either player offers one (`POST /api/games/<id>/rematch`,
//! `"action": "offer"`); when the other accepts (against the AI: at once), a new game starts
//! with the same variant, start, clock, AI and accounts (rated if this one was), the colours
//! swapped. The offer standing and the new game's id are stored in the finished game's row,
//! so every instance and every watcher sees them; a seat's new token is given only to that
//! seat, for its old token (`POST /api/games/<id>/rematch/seat`), never to the watchers.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::Json;
use cohort_rules::Side;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::admission::{admit, ai_room_for, created, Caller};
use crate::api::create::go_live;
use crate::api::play;
use crate::clock::Clock;
use crate::error::{body, Answer, ApiError, ApiPath, Code};
use crate::live::LiveGame;
use crate::store::{now_ms, Change, GameRow};
use crate::view::side_name;
use crate::{token, App};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchReq {
    token: String,
    action: Option<String>,
}

/// Offer, accept or decline a rematch. The answer is the finished game's view for the seat;
/// when this request made the rematch, `rematch_seat` holds the caller's seat in it.
pub(super) async fn rematch(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    caller: Caller,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: RematchReq = body(raw)?;
    let what = req.action.clone().ok_or_else(|| {
        ApiError::new(
            Code::BadRequest,
            "missing field 'action' (offer, accept or decline)",
        )
    })?;
    let slot = app.find(&id).await?;
    let mut live = slot.live.lock().await;
    play::refresh(&app, &mut live).await?;
    let seat = seat_of(&live, &req.token)?;
    if live.game.result().is_none() {
        return Err(ApiError::new(
            Code::GameNotOver,
            "the game is not over: a rematch is offered once it is",
        ));
    }
    if let Some(made) = &live.row.rematch_id {
        return Err(ApiError::new(
            Code::RematchMade,
            format!("the rematch has been made already: game {made}"),
        ));
    }
    let standing = live.row.rematch_offer.as_deref();
    let theirs = Some(side_name(seat.other()));
    let now = now_ms();
    let mut next = live.row.clone();
    let mut made = None;
    match what.as_str() {
        "offer" => {
            if standing == Some(side_name(seat)) {
                return Err(ApiError::new(
                    Code::RematchOfferStanding,
                    "your rematch offer already stands",
                ));
            }
            // Both want one (the other offered too), or the AI, which always plays on.
            if standing == theirs || live.seat_kind(seat.other()) == "ai" {
                made = Some(rematch_row(&live.row, live.turns[0].0, &caller, now));
            } else {
                next.rematch_offer = Some(side_name(seat).into());
            }
        }
        "accept" | "decline" => {
            if standing != theirs {
                return Err(ApiError::new(
                    Code::NoRematchOffer,
                    format!("there is no rematch offer to {what}"),
                ));
            }
            if what == "accept" {
                made = Some(rematch_row(&live.row, live.turns[0].0, &caller, now));
            }
            next.rematch_offer = None;
        }
        _ => {
            return Err(ApiError::invalid(format!(
                "action: '{what}' is not offer, accept or decline"
            )))
        }
    }
    next.version += 1;
    next.updated_ms = now;
    let fresh = match &made {
        Some(new) => {
            next.rematch_offer = None;
            next.rematch_id = Some(new.id.clone());
            Some(LiveGame::replay(new.clone(), &[]).map_err(|e| {
                ApiError::internal(format!(
                    "the rematch cannot be set up, nothing changed: {e}"
                ))
            })?)
        }
        None => None,
    };
    // A custom variant's rematch counts against the limits on such games like any other
    // (admission.rs), held while it is stored; the caller who made it is its creator.
    let custom = made
        .as_ref()
        .is_some_and(|new| !new.variant_text.is_empty());
    let gate = if custom {
        Some(admit(&app, &caller).await?)
    } else {
        None
    };
    // A rematch against the AI counts against the caller's games with the AI to move
    // (admission.rs), held until its AI job is queued.
    let ai_gate = match &made {
        Some(new) if new.white == "ai" || new.black == "ai" => {
            let g = app.ai_games_gate.lock().await;
            ai_room_for(&app, new).await?;
            Some(g)
        }
        _ => None,
    };
    let stored = match &made {
        Some(new) => app.store.commit_rematch(&next, new).await,
        None => app.store.commit(&next, Change::Row).await,
    };
    if custom && stored.is_ok() {
        created(&app, &caller);
    }
    drop(gate);
    if let Err(e) = stored {
        // Another instance may have answered first: take storage's game again.
        if play::reload(&app, &mut live).await.is_err() {
            app.forget(&id);
        }
        return Err(ApiError::internal(format!(
            "storing the rematch failed, nothing changed: {e}"
        )));
    }
    live.row = next;
    let mut view = live.view(None);
    slot.publish_view(live.row.version, &view);
    drop(live);
    view["seat"] = side_name(seat).into();
    if let (Some(new), Some(fresh)) = (made, fresh) {
        view["rematch_seat"] = seat_json(&new, seat.other());
        go_live(&app, fresh).await;
    }
    drop(ai_gate);
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatReq {
    token: String,
}

/// A seat's place in the rematch, for its token in the finished game: `{id, seat, token,
/// link}`. How the player who did not make the rematch learns their new token.
pub(super) async fn seat(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SeatReq = body(raw)?;
    let slot = app.find(&id).await?;
    let (seat, made) = {
        let mut live = slot.live.lock().await;
        play::refresh(&app, &mut live).await?;
        let seat = seat_of(&live, &req.token)?;
        (seat, live.row.rematch_id.clone())
    };
    let made = made.ok_or_else(|| ApiError::new(Code::NoRematch, "no rematch has been made"))?;
    let new = app.find(&made).await?;
    let new = new.live.lock().await;
    Ok(Json(seat_json(&new.row, seat.other())))
}

fn seat_of(live: &LiveGame, token: &str) -> Result<Side, ApiError> {
    live.seat_of(token)
        .ok_or_else(|| ApiError::new(Code::Forbidden, "this token holds no seat in this game"))
}

/// `side`'s seat in `game`: the game, the side, its token and the page's link.
fn seat_json(game: &GameRow, side: Side) -> Value {
    let token = match side {
        Side::White => &game.white_token,
        Side::Black => &game.black_token,
    };
    json!({
        "id": game.id,
        "seat": side_name(side),
        "token": token,
        "link": format!("/game/{}?token={token}", game.id),
    })
}

/// The rematch of the finished game `old`: the same variant, start, clock, AI and accounts
/// (rated if `old` was), each seat's kind and account on the other colour, new tokens;
/// created by `caller`.
fn rematch_row(old: &GameRow, first: Side, caller: &Caller, now: i64) -> GameRow {
    // The seats swap colours; the side to move at the start stays.
    let first_kind = if first == Side::White {
        &old.black
    } else {
        &old.white
    };
    GameRow {
        id: token()[..12].to_string(),
        variant: old.variant.clone(),
        start: old.start.clone(),
        white: old.black.clone(),
        black: old.white.clone(),
        ai_agent: old.ai_agent.clone(),
        ai_time_ms: old.ai_time_ms,
        white_token: token(),
        black_token: token(),
        variant_text: old.variant_text.clone(),
        version: 1,
        created_ms: now,
        updated_ms: now,
        clock: Clock::for_new_game(old.clock.control, first_kind == "ai", now),
        white_user: old.black_user.clone(),
        black_user: old.white_user.clone(),
        rated: old.rated,
        created_by: caller.0.clone(),
        ..GameRow::default()
    }
}
