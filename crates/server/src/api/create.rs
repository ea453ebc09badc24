//! Creating a game: `POST /api/games` (seats, AI, clock, a start position, a custom variant
//! or a record to continue), and [`launch`], which the lobby's accepted challenges use too.

use cohort_rules::Rules;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::Json;
use cohort_rules::{builtin, Side};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::admission::{admit, ai_room_for, created, room_for_one, within_share, Caller};
use crate::api::{ai::kick_ai, timer::arm_clock};
use crate::clock::{Clock, TimeControl};
use crate::error::{body_with, Answer, ApiError, Code};
use crate::live::LiveGame;
use crate::store::{now_ms, GameRow};
use crate::{custom, records, token, App};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: String,
    white: String,
    black: String,
    ai: Option<AiSpec>,
    /// A start position other than the variant's (NOTATION.md position string).
    position: Option<String>,
    /// A custom variant: the variant file that defines `variant` (at most 64 KiB).
    variant_text: Option<String>,
    /// A game record (docs/records.md) to continue: its start and its first `at` steps
    /// (default: all of them) are the new game's.
    record: Option<String>,
    at: Option<usize>,
    /// A clock: `{"minutes": 1, "increment": 1}` or `{"days": 3}` (docs/server.md, "Clocks").
    clock: Option<ClockSpec>,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockSpec {
    pub minutes: Option<f64>,
    pub increment: Option<i64>,
    pub days: Option<i64>,
}

impl ClockSpec {
    pub fn control(&self, at: &str) -> Result<TimeControl, ApiError> {
        TimeControl::from_request(self.minutes, self.increment, self.days, at)
            .map_err(ApiError::invalid)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AiSpec {
    agent: String,
    time_ms: u64,
}

pub(super) async fn create_game(
    State(app): State<Arc<App>>,
    caller: Caller,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    // Only a variant file or a record may make a request this long.
    let req: NewGame = body_with(raw, records::MAX_RECORD.max(custom::MAX_BODY))?;
    let variant = match &req.variant_text {
        Some(text) => custom::pick(&custom::load(text)?, &req.variant)?,
        None => builtin(&req.variant).ok_or_else(|| {
            ApiError::new(
                Code::UnknownVariant,
                format!(
                    "unknown variant '{}' (GET /api/variants lists them)",
                    req.variant
                ),
            )
        })?,
    };
    for (seat, kind) in [("white", &req.white), ("black", &req.black)] {
        if kind != "human" && kind != "ai" {
            return Err(ApiError::invalid(format!(
                "{seat}: '{kind}' is not a seat kind (human or ai)"
            )));
        }
    }
    let ai = req.ai.unwrap_or(AiSpec {
        agent: "engine".into(),
        time_ms: 1000,
    });
    let level = cohort_engine::levels::level_of(&ai.agent).is_some();
    if !level && !matches!(ai.agent.as_str(), "engine" | "greedy" | "random") {
        return Err(ApiError::invalid(format!(
            "ai.agent: '{}' is not an agent (engine, greedy, random, or a level: level1 to level8)",
            ai.agent
        )));
    }
    let max_time = app.config.ai_max_time_ms.min(60_000);
    if !(50..=max_time).contains(&ai.time_ms) {
        return Err(ApiError::invalid(format!(
            "ai.time_ms: must be between 50 and {max_time} (this server's limit per AI turn)"
        )));
    }
    let control = req.clock.unwrap_or_default().control("clock")?;
    let ai_only = req.white == "ai" && req.black == "ai";
    let (start, steps) = match (&req.record, &req.position) {
        (Some(_), Some(_)) => {
            return Err(ApiError::invalid(
                "position: a game continued from a record starts where the record starts",
            ))
        }
        (Some(text), None) => {
            // A record of hundreds of KiB is replayed off the request threads.
            let (text, at, id) = (text.clone(), req.at, variant.id.clone());
            app.heavy
                .run(move || records::continuation(&text, at, &id))
                .await??
        }
        (None, _) if req.at.is_some() => {
            return Err(ApiError::invalid("at: only with a record"));
        }
        (None, Some(text)) => (
            cohort_rules::Position::parse(&variant, text)
                .map_err(|e| ApiError::invalid(format!("position: {e}")))?,
            vec![],
        ),
        (None, None) => (variant.start(), vec![]),
    };
    let now = now_ms();
    let id = token()[..12].to_string();
    let row = GameRow {
        id: id.clone(),
        variant: variant.id.clone(),
        start: start.to_text(),
        white: req.white.clone(),
        black: req.black.clone(),
        ai_agent: ai.agent,
        ai_time_ms: ai.time_ms as i64,
        white_token: token(),
        black_token: token(),
        creator_token: if ai_only { token() } else { String::new() },
        variant_text: req.variant_text.clone().unwrap_or_default(),
        draw_offer: None,
        ending: None,
        finished: false,
        version: 1,
        created_ms: now,
        updated_ms: now,
        clock: Clock::for_new_game(
            control,
            (if start.side_to_move() == Side::White {
                &req.white
            } else {
                &req.black
            }) == "ai",
            now,
        ),
        created_by: caller.0.clone(),
        ..GameRow::default()
    };
    let mut row = row;
    row.version += steps.len() as i64;
    let custom_caller = req.variant_text.is_some().then_some(&caller);
    launch(&app, &row, &steps, variant.clone(), custom_caller).await?;
    let seat = |kind: &str, tok: &str| {
        if kind == "human" {
            (
                Value::from(tok),
                Value::from(format!("/game/{id}?token={tok}")),
            )
        } else {
            (Value::Null, Value::Null)
        }
    };
    let (wt, wl) = seat(&row.white, &row.white_token);
    let (bt, bl) = seat(&row.black, &row.black_token);
    let mut created = json!({
        "id": id,
        "tokens": {"white": wt, "black": bt},
        "links": {"white": wl, "black": bl},
        "watch": format!("/game/{id}"),
    });
    if ai_only {
        created["creator_token"] = row.creator_token.clone().into();
    }
    Ok(Json(created))
}

/// Store a new game and start it: into memory, the AI asked for its turn, the clock armed.
/// `steps`: the first steps (a game continued from a record); `custom_caller`: who creates
/// a game of a custom variant (counted against the limits of custom.rs).
pub(crate) async fn launch(
    app: &Arc<App>,
    row: &GameRow,
    steps: &[String],
    variant: Arc<cohort_rules::Variant>,
    custom_caller: Option<&Caller>,
) -> Result<(), ApiError> {
    let ai_only = row.white == "ai" && row.black == "ai";
    let live = LiveGame::replay_in(variant, row.clone(), steps).map_err(ApiError::invalid)?;
    if live.game.result().is_some() {
        return Err(ApiError::invalid(
            "position: the game would be over before it starts",
        ));
    }
    {
        // Custom variants: counted (all callers, and this caller) under one lock.
        let _custom_gate = match custom_caller {
            Some(caller) => Some(admit(app, caller).await?),
            None => None,
        };
        // Counted and stored under one lock: two creations cannot both take the last place.
        // A game with an AI seat holds it until its AI job is queued (go_live below).
        let _gate = if row.white == "ai" || row.black == "ai" {
            Some(app.ai_games_gate.lock().await)
        } else {
            None
        };
        if ai_only {
            room_for_one(
                app.store
                    .count_ai_games(crate::admission::idle_before(app))
                    .await,
                app.config.max_ai_games,
                "AI-against-AI games",
            )?;
            within_share(
                &row.created_by,
                app.store
                    .count_ai_games_by(&row.created_by, crate::admission::idle_before(app)),
                app.config.max_ai_games,
                "AI-against-AI games",
            )
            .await?;
        }
        ai_room_for(app, row).await?;
        app.store
            .insert_game_with_steps(row, steps)
            .await
            .map_err(|e| ApiError::internal(format!("storing the game failed: {e}")))?;
        if let Some(caller) = custom_caller {
            created(app, caller);
        }
        go_live(app, live).await;
    }
    Ok(())
}

/// A game just stored, into memory: its clock armed, the AI asked for its turn.
pub(crate) async fn go_live(app: &Arc<App>, live: LiveGame) {
    let id = live.row.id.clone();
    let slot = app.insert(id.clone(), live);
    arm_clock(app, &id, &slot).await;
    kick_ai(app, &id, &slot).await;
}
