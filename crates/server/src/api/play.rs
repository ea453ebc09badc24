//! The one path every change of a game takes, a person's or the AI's: [`apply`] an action
//! to the game in memory and store it. The game in memory is a cache of storage: it is
//! brought up to date before each action ([`refresh`]: another server on the same database
//! may have changed it) and taken from storage again when storing fails. Also ending a game
//! on time ([`settle_clock`]) and rating a finished rated game.

use cohort_rules::Side;

use crate::api::offers;
use crate::clock::ReplayCredit;
use crate::error::{ApiError, Code};
use crate::glicko::{MAX_RATED_PAIR_GAMES, PAIR_WINDOW_MS};
use crate::live::{LiveGame, Posted};
use crate::store::{now_ms, Change};
use crate::view::side_name;
use crate::App;

/// What a seat does.
pub(crate) enum Action {
    /// A step, and for one posted by its index the view's version it was listed in.
    Step(Posted, Option<i64>),
    Undo,
    Resign,
    Draw(String),
    /// "offer", "accept" or "decline" a takeback of the last turn (api/offers.rs).
    Takeback(String),
    /// End a game that has not really begun (api/offers.rs).
    Abort,
}

/// Bring the game in memory up to storage's version, if another server on the same database
/// changed it since: storage is the one truth, the copy here a cache.
pub(crate) async fn refresh(app: &App, live: &mut LiveGame) -> Result<(), ApiError> {
    let stored = app.store.version(&live.row.id).await.map_err(|e| {
        ApiError::internal(format!("reading the game failed, nothing changed: {e}"))
    })?;
    if stored == Some(live.row.version) {
        return Ok(());
    }
    reload(app, live).await
}

/// Take the game from storage again. Where storage only added steps to the ones here (the
/// usual case: another instance took the next steps), those steps are played on the copy
/// here; otherwise (an undo, an ending outside the rules) the whole game is replayed.
pub(crate) async fn reload(app: &App, live: &mut LiveGame) -> Result<(), ApiError> {
    let id = live.row.id.clone();
    let (row, steps) = match app.store.game(&id).await {
        Ok(Some(found)) => found,
        Ok(None) => return Err(ApiError::not_found(format!("no game '{id}'"))),
        Err(e) => {
            return Err(ApiError::internal(format!(
                "reading game {id} failed, nothing changed: {e}"
            )))
        }
    };
    let here = live.turns.iter().flat_map(|t| t.1.iter());
    let known = here.clone().count();
    let extends = known <= steps.len()
        && here.zip(&steps).all(|(a, b)| a == b)
        && row.ending == live.row.ending
        && live.game.result().is_none();
    if extends {
        let mut caught_up = true;
        for s in &steps[known..] {
            if live.play(s).is_err() {
                caught_up = false;
                break;
            }
        }
        if caught_up {
            live.row = row;
            return Ok(());
        }
    }
    *live = LiveGame::replay(row, &steps)
        .map_err(|e| ApiError::internal(format!("game {id} cannot be replayed: {e}")))?;
    Ok(())
}

/// Store the change made to `live`; if storage refuses it, `live` is storage's game again
/// (or, if storage cannot be read either, the game leaves memory and is read on next use).
pub(crate) async fn store_or_restore(
    app: &App,
    live: &mut LiveGame,
    change: Change<'_>,
) -> Result<(), ApiError> {
    let Err(e) = app.store.commit(&live.row, change).await else {
        return Ok(());
    };
    if reload(app, live).await.is_err() {
        app.forget(&live.row.id);
    }
    Err(ApiError::internal(format!(
        "storing the change failed, nothing changed: {e}"
    )))
}

/// End the game on time if the side to move's flag has fallen, or abort it if its first
/// step did not come within the start window (`--first-step-seconds`); stored before it
/// counts. True if it ended now.
pub(crate) async fn settle_clock(app: &App, live: &mut LiveGame) -> Result<bool, ApiError> {
    refresh(app, live).await?;
    let now = now_ms();
    let window = app.config.first_step_window.as_millis() as i64;
    if live.first_step_deadline(window).is_some_and(|d| d <= now) {
        live.abort();
    } else if live.flag_fallen(now) {
        live.end_on_time(now);
    } else {
        return Ok(false);
    }
    live.row.version += 1;
    live.row.updated_ms = now;
    store_or_restore(app, live, Change::Row).await?;
    Ok(true)
}

/// Turns a rated game must have played (two by each side) for its result to change
/// ratings: fewer, and a won game costs the loser nothing but a resignation.
pub const MIN_RATED_TURNS: usize = 4;
const UNRATED_WHY: &str = "fewer than two turns by each side were played";
const ABORTED_WHY: &str = "the game was aborted";

/// A rated game between two accounts that has just ended: apply the rating change (once).
pub(crate) async fn rate_if_finished(app: &App, live: &mut LiveGame) {
    let row = &live.row;
    if row.finished {
        // It may be a tournament's game: its director counts it at once (director.rs).
        app.tournaments.poke();
    }
    if !row.finished || !row.rated || row.rating_change.is_some() {
        return;
    }
    let (Some(w), Some(b)) = (row.white_user.clone(), row.black_user.clone()) else {
        return;
    };
    // No rating farming: a game rates only once both sides have played a turn.
    if live.turns_played() < MIN_RATED_TURNS {
        let why = if row.ending.as_deref() == Some(crate::live::ABORTED) {
            ABORTED_WHY
        } else {
            UNRATED_WHY
        };
        match app.store.mark_unrated(&row.id, why).await {
            Ok(change) => live.row.rating_change = Some(change),
            Err(e) => eprintln!("cohort serve: game {}: marking unrated failed: {e}", row.id),
        }
        // Storage's version moved on with the mark: take it.
        let _ = refresh(app, live).await;
        return;
    }
    let score = match live.view_result_winner() {
        Some(Side::White) => 1.0,
        Some(Side::Black) => 0.0,
        None => 0.5,
    };
    match app
        .store
        .rate_game(
            &row.id,
            &row.variant,
            &w,
            &b,
            score,
            (MAX_RATED_PAIR_GAMES, PAIR_WINDOW_MS),
        )
        .await
    {
        Ok(change) => live.row.rating_change = Some(change),
        Err(e) => eprintln!("cohort serve: game {}: rating failed: {e}", row.id),
    }
    // Storage's version moved on with the rating: take it.
    if let Err(e) = refresh(app, live).await {
        eprintln!(
            "cohort serve: game {}: reading the rated game failed: {e}",
            live.row.id
        );
    }
}

/// Carry out `action` for `seat` on a copy of the game, store it, then keep the copy.
pub(crate) async fn apply(
    app: &App,
    live: &mut LiveGame,
    seat: Side,
    action: Action,
) -> Result<(), ApiError> {
    if live.game.result().is_some() {
        return Err(ApiError::new(Code::GameOver, "the game is over"));
    }
    // The clock first: a flag that has fallen ends the game before anything is played.
    if settle_clock(app, live).await? {
        let why = if live.row.ending.as_deref() == Some(crate::live::ABORTED) {
            "it was aborted: no first step came in time".to_string()
        } else {
            format!("{}'s time ran out", live.to_move().name())
        };
        return Err(ApiError::new(
            Code::GameOver,
            format!("the game is over: {why}"),
        ));
    }
    // settle_clock above brought the game up to storage's version.
    let mover = live.to_move();
    let next = &mut *live;
    let mut text = String::new();
    let now = now_ms();
    let change = match action {
        Action::Step(posted, listed_at) => {
            if seat != mover {
                return Err(ApiError::new(
                    Code::NotYourTurn,
                    format!("it is {}'s turn, not {}'s", mover.name(), seat.name()),
                ));
            }
            let said = match &posted {
                Posted::Text(t) if t.len() > 32 => {
                    return Err(ApiError::new(Code::BadStep, "step: too long to be a step"))
                }
                Posted::Text(t) => t.clone(),
                Posted::Index(i) => format!("#{i}"),
                Posted::Chosen(s) => cohort_rules::Rules::step_text(next.game.position(), *s),
            };
            if let Some(v) = listed_at.filter(|&v| v != next.row.version) {
                return Err(ApiError::new(
                    Code::StaleStep,
                    format!(
                        "step {said}: listed at version {v}, and the game is at version {}: read it again",
                        next.row.version
                    ),
                ));
            }
            text = next
                .play_posted(&posted)
                .map_err(|e| ApiError::step(&said, &e))?;
            // White's first step starts a live clock; every step adds to the replay the
            // other side's page will show.
            next.row.clock.first_step(now);
            next.replay.step(now);
            // Any step answers a takeback request: it stood for the turns as they were.
            next.row.takeback_offer = None;
            // Playing on instead of answering declines the opponent's draw offer.
            if next.to_move() != mover
                && next.row.draw_offer.as_deref() == Some(side_name(mover.other()))
            {
                next.row.draw_offer = None;
            }
            Change::Step {
                ply: next.game.steps().len() as i64 - 1,
                text: "",
            }
        }
        Action::Undo => {
            if seat != mover {
                return Err(ApiError::new(
                    Code::NotYourTurn,
                    format!("it is {}'s turn", mover.name()),
                ));
            }
            let ply = next.game.steps().len() as i64 - 1;
            if !next.undo() {
                return Err(ApiError::new(
                    Code::NothingToUndo,
                    "no step of this turn to take back",
                ));
            }
            next.replay.unstep();
            next.row.takeback_offer = None;
            Change::Unstep { ply }
        }
        Action::Takeback(what) => offers::takeback(next, seat, &what, now)?,
        Action::Abort => offers::abort(next)?,
        Action::Resign => {
            next.game.resign(seat);
            next.row.ending = Some(format!("resign {}", side_name(seat)));
            Change::Row
        }
        Action::Draw(what) => {
            let offer = next.row.draw_offer.clone();
            let other = side_name(seat.other());
            match what.as_str() {
                "offer" => {
                    if next.seat_kind(seat.other()) == "ai" {
                        return Err(ApiError::new(
                            Code::AiDeclinesDraws,
                            "the AI does not take draw offers; play on or resign",
                        ));
                    }
                    if offer.is_some() {
                        return Err(ApiError::new(
                            Code::DrawOfferStanding,
                            "a draw offer is already standing",
                        ));
                    }
                    next.row.draw_offer = Some(side_name(seat).into());
                }
                "accept" => {
                    if offer.as_deref() != Some(other) {
                        return Err(ApiError::new(
                            Code::NoDrawOffer,
                            "there is no draw offer to accept",
                        ));
                    }
                    next.game.agree_draw();
                    next.row.ending = Some("agreement".into());
                    next.row.draw_offer = None;
                }
                "decline" => {
                    if offer.as_deref() != Some(other) {
                        return Err(ApiError::new(
                            Code::NoDrawOffer,
                            "there is no draw offer to decline",
                        ));
                    }
                    next.row.draw_offer = None;
                }
                _ => {
                    return Err(ApiError::invalid(format!(
                        "action: '{what}' is not offer, accept or decline"
                    )))
                }
            }
            Change::Row
        }
    };
    let change = match change {
        Change::Step { ply, .. } => Change::Step { ply, text: &text },
        other => other,
    };
    next.row.version += 1;
    next.row.updated_ms = now;
    next.row.finished = next.game.result().is_some();
    // The clock switches only when a turn ends, and stops when the game does. A takeback
    // set it already (offers::takeback): the side to move changed without a turn ending.
    if next.row.finished {
        next.row.clock.stop(mover, now);
        next.row.takeback_offer = None;
    } else if next.to_move() != mover && !matches!(change, Change::Takeback { .. }) {
        // The other side's time starts once its page has replayed the turn (the AI watches
        // no replay: its time runs at once).
        let turn_steps = next.turns.iter().rev().nth(1).map_or(0, |t| t.1.len());
        let credit = if next.seat_kind(next.to_move()) == "ai" {
            0
        } else {
            next.replay.at_turn_end(turn_steps, now)
        };
        next.row.clock.switch(mover, now, credit);
        next.replay = ReplayCredit::default();
    }
    if matches!(change, Change::Takeback { .. }) {
        next.replay = ReplayCredit::default();
    }
    store_or_restore(app, next, change).await
}
