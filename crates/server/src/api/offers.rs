//! What the players of a game in progress may agree on besides a draw: taking back the last
//! turn (`POST /api/games/<id>/takeback`: one side asks, the other accepts or declines) and
//! aborting a game that has not really begun (`POST /api/games/<id>/abort`). Both go
//! through [`play::apply`](super::play::apply) like every change; the request that stands is
//! stored in the game's row (`takeback_offer`), so every instance sees it.
//!
//! A takeback removes the last completed turn, whoever played it, with the steps of the turn
//! in progress: the side that played that turn is to move again. Asked right after one's own
//! turn (the usual case), that is the asker's turn. Time is not given back (`Clock::take_back`).

use cohort_rules::Side;

use crate::error::{ApiError, Code};
use crate::live::{LiveGame, ABORT_BEFORE_TURNS};
use crate::store::Change;
use crate::view::side_name;

/// Offer, accept or decline a takeback for `seat`. Changes `live` only when it answers Ok.
pub(crate) fn takeback(
    live: &mut LiveGame,
    seat: Side,
    what: &str,
    now: i64,
) -> Result<Change<'static>, ApiError> {
    let standing = live.row.takeback_offer.clone();
    let theirs = Some(side_name(seat.other()));
    match what {
        "offer" => {
            if live.seat_kind(seat.other()) == "ai" {
                return Err(ApiError::new(
                    Code::AiDeclinesTakebacks,
                    "the AI does not take back turns; play on",
                ));
            }
            if standing.is_some() {
                return Err(ApiError::new(
                    Code::TakebackOfferStanding,
                    "a takeback request already stands",
                ));
            }
            if live.turns_played() == 0 {
                return Err(ApiError::new(
                    Code::NothingToTakeBack,
                    "no turn has been completed yet: there is nothing to take back",
                ));
            }
            live.row.takeback_offer = Some(side_name(seat).into());
            Ok(Change::Row)
        }
        "accept" => {
            if standing.as_deref() != theirs {
                return Err(ApiError::new(
                    Code::NoTakebackOffer,
                    "there is no takeback request to accept",
                ));
            }
            let keep = steps_before_last_turn(live).ok_or_else(|| {
                ApiError::new(Code::NothingToTakeBack, "there is no turn to take back")
            })?;
            let steps: Vec<String> = live
                .turns
                .iter()
                .flat_map(|t| t.1.iter().cloned())
                .take(keep)
                .collect();
            let was_to_move = live.to_move();
            let mut row = live.row.clone();
            row.takeback_offer = None;
            // The position before the turn stood as it was once: the rules replay the game up
            // to there (repetition counts and removals included).
            let mut back = LiveGame::replay_in(live.variant().clone(), row, &steps)
                .map_err(|e| ApiError::internal(format!("the game cannot be replayed: {e}")))?;
            back.row.draw_offer = None;
            back.row.clock.take_back(was_to_move, back.to_move(), now);
            *live = back;
            Ok(Change::Takeback {
                from_ply: keep as i64,
            })
        }
        "decline" => {
            if standing.as_deref() != theirs {
                return Err(ApiError::new(
                    Code::NoTakebackOffer,
                    "there is no takeback request to decline",
                ));
            }
            live.row.takeback_offer = None;
            Ok(Change::Row)
        }
        _ => Err(ApiError::invalid(format!(
            "action: '{what}' is not offer, accept or decline"
        ))),
    }
}

/// How many steps come before the last completed turn (None: no turn completed yet).
fn steps_before_last_turn(live: &LiveGame) -> Option<usize> {
    // A game in progress: every turn but the last (the one in progress) is completed.
    let completed = live.turns.len().checked_sub(1)?;
    if completed == 0 {
        return None;
    }
    Some(live.turns[..completed - 1].iter().map(|t| t.1.len()).sum())
}

/// Abort the game for either seat: only before `ABORT_BEFORE_TURNS` turns are completed.
pub(crate) fn abort(live: &mut LiveGame) -> Result<Change<'static>, ApiError> {
    let played = live.turns_played();
    if played >= ABORT_BEFORE_TURNS {
        return Err(ApiError::new(
            Code::TooLateToAbort,
            format!(
                "{played} turns have been played: a game can be aborted only before both sides \
                 have played a turn; resign instead"
            ),
        ));
    }
    live.abort();
    Ok(Change::Row)
}
