//! The analysis board's API (docs/server.md, "Analysis"). A *source* names a position: a
//! game (`game`, with `at` steps of it, default all) or a variant (`variant`, with
//! `position`, default its start), then `steps` played from there (free moves).
//!
//! - `POST /api/analysis/view` `{source}`: that position as a game view (its legal steps,
//!   its board), so the board can play free moves from any point. Costs no search.
//! - `POST /api/analysis` `{source, ms?}`: start an analysis. A finished game named alone
//!   (`{"game": id}`) is analysed turn by turn; any other source is one position. A game in
//!   progress is refused (its players would have the engine at hand). It costs its owner's
//!   hourly budget (analysis.rs) when it is asked for, and is then a job in the AI's queue
//!   (jobs.rs, kind "analysis", bulk class, shared by caller with its owner as the caller),
//!   taken by any instance's workers or a `cohort worker` ([`run_job`]), which store its
//!   points as they come; a taker that dies stops renewing, and the next one goes on from
//!   the points stored.
//! - `GET /api/analysis/<id>`: its progress and points, from storage (any instance).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use cohort_engine::EngineAgent;
use cohort_rules::{builtin, Game, Outcome, Position, Rules, Side, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::accounts::current_user;
use crate::admission::Caller;
use crate::analysis::{mark_turns, Analysis, Budget, Point, Refusal, SavedAnalysis, STALE_MS};
use crate::error::{body, body_with, Answer, ApiError, ApiPath, Code};
use crate::jobs::AiJob;
use crate::live::LiveGame;
use crate::sched::Permit;
use crate::store::{now_ms, GameRow};
use crate::view::{side_name, step_fields};
use crate::{token, App};

/// Free moves from a point: at most this many.
const MAX_STEPS: usize = 1000;
/// Search time per position: the default and the bounds a request may ask for.
const DEFAULT_MS: u64 = 300;
const MS_RANGE: (u64, u64) = (50, 3000);
/// A whole-game analysis covers at most this many turns (each point holds its game).
const MAX_TURNS: usize = 500;
/// The longest line kept for a point, in steps.
const LINE_STEPS: usize = 24;
/// A saved analysis (`POST /api/games/<id>/analysis`): its body at most this many bytes,
/// each caller at most this many saves an hour.
pub const SAVED_MAX: usize = 512 * 1024;
pub const SAVES_PER_HOUR: i64 = 30;

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/analysis", post(start))
        .route("/api/analysis/view", post(view))
        .route("/api/analysis/{id}", get(read))
        .route("/api/games/{id}/analysis", post(save).get(saved))
        .with_state(app)
}

#[derive(Deserialize, Serialize, Clone)]
#[serde(deny_unknown_fields)]
struct Source {
    game: Option<String>,
    at: Option<usize>,
    variant: Option<String>,
    position: Option<String>,
    #[serde(default)]
    steps: Vec<String>,
    /// Search time per position (`POST /api/analysis` only).
    ms: Option<u64>,
}

/// A source made concrete: the game it replays (its row, with both seats people and no
/// ending outside the rules), the steps to play, and for a game's source what it is.
struct Resolved {
    variant: Arc<Variant>,
    row: GameRow,
    base: Vec<String>,
    game: Option<String>,
    /// The game named is over (a whole-game analysis needs it).
    finished: bool,
    /// A game's turns, each with its steps (none for a variant's source).
    turns: Vec<crate::live::Turn>,
}

async fn resolve(app: &Arc<App>, s: &Source) -> Result<Resolved, ApiError> {
    if s.steps.len() > MAX_STEPS {
        return Err(ApiError::invalid(format!(
            "steps: at most {MAX_STEPS} free moves"
        )));
    }
    match (&s.game, &s.variant) {
        (Some(_), Some(_)) => Err(ApiError::invalid(
            "game, variant: name a game or a variant, not both",
        )),
        (None, None) => Err(ApiError::invalid(
            "game or variant: name what to analyse (a game's id, or a variant with a position)",
        )),
        (Some(id), None) => {
            if s.position.is_some() {
                return Err(ApiError::invalid(
                    "position: a game's positions come from its steps; say which with `at`",
                ));
            }
            let slot = app.find(id).await?;
            let mut live = slot.live.lock().await;
            crate::api::play::refresh(app, &mut live).await?;
            let all: Vec<String> = live.turns.iter().flat_map(|t| t.1.clone()).collect();
            let at = s.at.unwrap_or(all.len());
            if at > all.len() {
                return Err(ApiError::invalid(format!(
                    "at: the game has {} steps",
                    all.len()
                )));
            }
            let mut row = live.row.clone();
            row.ending = None;
            Ok(Resolved {
                variant: live.variant().clone(),
                row,
                base: all[..at].to_vec(),
                game: Some(id.clone()),
                finished: live.game.result().is_some(),
                turns: live.turns.clone(),
            })
        }
        (None, Some(name)) => {
            if s.at.is_some() {
                return Err(ApiError::invalid("at: only with a game"));
            }
            let variant = builtin(name).ok_or_else(|| {
                ApiError::new(
                    Code::UnknownVariant,
                    format!("unknown variant '{name}' (GET /api/variants lists them)"),
                )
            })?;
            let start = match &s.position {
                Some(p) => Position::parse(&variant, p)
                    .map_err(|e| ApiError::invalid(format!("position: {e}")))?,
                None => variant.start(),
            };
            let row = GameRow {
                id: "analysis".into(),
                variant: name.clone(),
                start: start.to_text(),
                ..GameRow::default()
            };
            Ok(Resolved {
                variant,
                row,
                base: vec![],
                game: None,
                finished: true,
                turns: vec![],
            })
        }
    }
}

impl Resolved {
    /// The position after the base steps and `free` (each free step checked, its error
    /// naming it). Off the request threads: a game's steps may be many.
    async fn play(self, app: &App, free: Vec<String>) -> Result<LiveGame, ApiError> {
        let Resolved {
            variant,
            mut row,
            base,
            ..
        } = self;
        row.white = "human".into();
        row.black = "human".into();
        app.heavy
            .run(move || {
                let mut live =
                    LiveGame::replay_in(variant, row, &base).map_err(ApiError::internal)?;
                for (i, s) in free.iter().enumerate() {
                    live.play(s).map_err(|e| {
                        let mut err = ApiError::step(s, &e);
                        err.message = format!("steps[{i}]: {}", err.message);
                        err
                    })?;
                }
                Ok(live)
            })
            .await?
    }
}

/// `POST /api/analysis/view`: the source's position as a game view.
async fn view(State(app): State<Arc<App>>, raw: Result<Bytes, BytesRejection>) -> Answer {
    let req: Source = body(raw)?;
    if req.ms.is_some() {
        return Err(ApiError::invalid("ms: only when starting an analysis"));
    }
    let resolved = resolve(&app, &req).await?;
    let live = resolved.play(&app, req.steps.clone()).await?;
    let mut v = live.view(None);
    v["analysis_steps"] = req.steps.len().into();
    Ok(Json(v))
}

/// One position to search, and what was played from it in the game.
struct Work {
    at: usize,
    game: Game,
    played: Vec<String>,
}

/// `POST /api/analysis`: start one, charged to its owner's budget.
async fn start(
    State(app): State<Arc<App>>,
    caller: Caller,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Source = body(raw)?;
    let ms = req.ms.unwrap_or(DEFAULT_MS);
    if !(MS_RANGE.0..=MS_RANGE.1).contains(&ms) {
        return Err(ApiError::invalid(format!(
            "ms: {ms}; a position gets {} to {} ms",
            MS_RANGE.0, MS_RANGE.1
        )));
    }
    let (work, whole, game_id, variant_id) = work_of(&app, &req).await?;
    let searched = work.iter().filter(|w| w.game.result().is_none()).count();
    let cost = (searched as u64 * ms) as i64;
    let owner = match current_user(&app, &headers).await {
        Some((id, _)) => format!("user:{id}"),
        None => caller.0.clone(),
    };
    let now = now_ms();
    let a = Analysis {
        id: token(),
        owner,
        address: caller.0,
        game: game_id,
        variant: variant_id,
        state: "running".into(),
        error: None,
        total: work.len(),
        ms,
        points: vec![],
        created_ms: now,
        updated_ms: now,
    };
    let budget = Budget {
        ms: app.config.analysis_ms_per_hour as i64,
        count: app.config.analyses_per_hour as i64,
    };
    let stored = app
        .store
        .add_analysis(&a, cost, budget)
        .await
        .map_err(|e| ApiError::internal(format!("storing the analysis failed: {e}")))?;
    let left = match stored {
        Ok(left) => left,
        Err(refusal) => return Err(over_budget(&refusal, budget, cost, searched, ms)),
    };
    // Its taker works the positions out again from the source (any instance can).
    let payload = json!({"analysis": a.id, "source": req}).to_string();
    if let Err(e) = app
        .store
        .queue_analysis(&a.id, &a.owner, &payload, now)
        .await
    {
        let mut failed = a.clone();
        failed.state = "failed".into();
        failed.error = Some("not queued: storage failed".into());
        let _ = app.store.update_analysis(&failed).await;
        return Err(ApiError::internal(format!(
            "queueing the analysis failed: {e}"
        )));
    }
    app.jobs_ready.notify_one();
    let mut answer = json!({
        "id": a.id,
        "total": a.total,
        "ms": ms,
        "cost_ms": cost,
        "left_ms": left,
    });
    if let (true, Some(g)) = (whole, &a.game) {
        // The page that shows it, with the game.
        answer["link"] = format!("/analysis?game={g}&analysis={}", a.id).into();
    }
    Ok(Json(answer))
}

/// The refusal (429) of an analysis a payer cannot pay: whose budget, what is left, and
/// when enough frees (`left_ms`, `retry_after_s`).
fn over_budget(r: &Refusal, budget: Budget, cost: i64, searched: usize, ms: u64) -> ApiError {
    let secs = |ms: i64| ms as f64 / 1000.0;
    let whose = if r.shared {
        "your address (all its accounts together) has"
    } else {
        "you have"
    };
    let what = if r.too_many {
        format!(
            "{whose} started {} analyses in the last hour, this server's limit",
            budget.count
        )
    } else {
        format!(
            "this analysis needs {:.1} s of search ({searched} positions at {ms} ms); {whose} {:.1} s left of {:.0} s an hour",
            secs(cost),
            secs(r.left_ms),
            secs(budget.ms)
        )
    };
    let when = match r.free_in_ms {
        Some(wait) => format!("; enough frees in {}", minutes(wait)),
        None => "; it costs more than a whole hour's budget (fewer positions or less time each)"
            .to_string(),
    };
    let mut err =
        ApiError::new(Code::LimitReached, format!("{what}{when}")).with("left_ms", r.left_ms);
    if let Some(wait) = r.free_in_ms {
        err = err.with("retry_after_s", (wait + 999) / 1000);
    }
    err
}

/// A wait as "12 min 5 s" (or "40 s").
fn minutes(ms: i64) -> String {
    let s = (ms + 999) / 1000;
    match s / 60 {
        0 => format!("{s} s"),
        m => format!("{m} min {} s", s % 60),
    }
}

/// The positions an analysis of `req` searches, whether it is a whole game's, and the game
/// and variant it is of.
async fn work_of(
    app: &Arc<App>,
    req: &Source,
) -> Result<(Vec<Work>, bool, Option<String>, String), ApiError> {
    let resolved = resolve(app, req).await?;
    if !resolved.finished {
        return Err(ApiError::new(
            Code::GameNotOver,
            "the game is in progress: its analysis opens when it ends",
        ));
    }
    let whole = req.game.is_some() && req.at.is_none() && req.steps.is_empty();
    let (variant_id, game_id) = (resolved.row.variant.clone(), resolved.game.clone());
    let work = if whole {
        let played = resolved.turns.iter().filter(|t| !t.1.is_empty()).count();
        if played > MAX_TURNS {
            return Err(ApiError::invalid(format!(
                "game: {played} turns; an analysis covers at most {MAX_TURNS} (analyse a point of it with `at`)"
            )));
        }
        let Resolved {
            variant,
            row,
            turns,
            ..
        } = resolved;
        app.heavy
            .run(move || turn_starts(variant, row, &turns))
            .await??
    } else {
        let live = resolved.play(app, req.steps.clone()).await?;
        vec![Work {
            at: live.game.steps().len(),
            game: live.game.clone(),
            played: vec![],
        }]
    };
    Ok((work, whole, game_id, variant_id))
}

/// The position before each turn of a game, with the turn played from it, and the
/// position after its last step.
fn turn_starts(
    variant: Arc<Variant>,
    row: GameRow,
    turns: &[crate::live::Turn],
) -> Result<Vec<Work>, ApiError> {
    let mut live = LiveGame::replay_in(variant, row, &[]).map_err(ApiError::internal)?;
    let mut out = vec![];
    let mut at = 0;
    for (_, steps) in turns.iter().filter(|t| !t.1.is_empty()) {
        out.push(Work {
            at,
            game: live.game.clone(),
            played: steps.clone(),
        });
        for s in steps {
            live.play(s)
                .map_err(|e| ApiError::internal(format!("step {} ('{s}'): {e}", at + 1)))?;
            at += 1;
        }
    }
    out.push(Work {
        at,
        game: live.game.clone(),
        played: vec![],
    });
    Ok(out)
}

/// What an analysis job carries (jobs.rs, its payload).
#[derive(Deserialize)]
struct Queued {
    analysis: String,
    source: Source,
}

/// An analysis job taken from the queue (api/ai.rs): search the positions not yet stored,
/// one after another on this job's worker, store the points as they come, and renew the
/// lease meanwhile. A job taken over (its lease ran out) stops here; its new taker goes on
/// from the points stored.
pub(crate) async fn run_job(app: Arc<App>, job: AiJob, permit: Permit) {
    let key = job.game_id.clone();
    let me = app.instance.clone();
    let queued: Queued = match serde_json::from_str(&job.payload) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("cohort serve: job {key}: not an analysis ({e}); parked");
            let _ = app.store.park_ai(&key, &me).await;
            return;
        }
    };
    let mut a = match app.store.analysis(&queued.analysis).await {
        Ok(Some(a)) if a.state == "running" => a,
        // Gone, or over already: nothing to do.
        Ok(_) => {
            let _ = app.store.finish_ai(&key, &me).await;
            return;
        }
        Err(e) => {
            eprintln!("cohort serve: analysis {}: not read: {e}", queued.analysis);
            let _ = app.store.give_back_ai(&key, &me).await;
            return;
        }
    };
    let work = match work_of(&app, &queued.source).await {
        Ok((work, ..)) => work,
        Err(e) => {
            a.state = "failed".into();
            a.error = Some(format!("its positions could not be set up: {}", e.message));
            a.updated_ms = now_ms();
            let _ = app.store.update_analysis(&a).await;
            let _ = app.store.finish_ai(&key, &me).await;
            return;
        }
    };
    if run(&app, &key, &mut a, work).await {
        let _ = app.store.finish_ai(&key, &me).await;
    }
    drop(permit);
}

/// Search each position not yet stored in turn and store the points as they come. False
/// if the job is no longer this taker's (it stopped there) or storage failed.
async fn run(app: &Arc<App>, key: &str, a: &mut Analysis, work: Vec<Work>) -> bool {
    let mut engine: Option<EngineAgent> = None;
    let lease = app.config.ai_lease;
    let mut renew = tokio::time::interval(lease / 3);
    renew.tick().await;
    let done = a.points.len();
    for w in work.into_iter().skip(done) {
        let point = match w.game.result() {
            Some((outcome, _)) => Point {
                at: w.at,
                side: None,
                score: match outcome {
                    Outcome::Win(Side::White) => cohort_engine::search::WIN,
                    Outcome::Win(Side::Black) => -cohort_engine::search::WIN,
                    Outcome::Draw => 0,
                },
                decisive: outcome != Outcome::Draw,
                ..Point::default()
            },
            None => {
                let ms = a.ms;
                let mine = engine.take();
                let search = tokio::task::spawn_blocking(move || {
                    let variant = w.game.position().variant().clone();
                    let mut e = mine.unwrap_or_else(|| EngineAgent::new(&variant));
                    // A turn played here other than the engine's is judged against the
                    // engine's at the same effort (cohort_engine::marks::review).
                    let played = cohort_engine::marks::steps_of(&w.game, &w.played);
                    let r = cohort_engine::marks::review(
                        &mut e,
                        &w.game,
                        played.as_deref(),
                        Duration::from_millis(ms),
                    );
                    let mut point = point_of(&w, &r.choice);
                    if let Some(j) = r.judged {
                        let white = w.game.position().side_to_move() == Side::White;
                        let white_view = |s: i32| if white { s } else { -s };
                        point.best_after = Some(white_view(j.best_after));
                        point.played_after = Some(white_view(j.played_after));
                    }
                    (e, point)
                });
                tokio::pin!(search);
                // Renewed three times a lease, as an AI turn's (api/ai.rs).
                let searched = loop {
                    tokio::select! {
                        r = &mut search => break r,
                        _ = renew.tick() => {
                            let until = now_ms() + lease.as_millis() as i64;
                            if let Ok(false) = app.store.renew_ai(key, &app.instance, until).await {
                                eprintln!("cohort serve: analysis {}: taken over; stopped here", a.id);
                                return false;
                            }
                        }
                    }
                };
                match searched {
                    Ok((e, p)) => {
                        engine = Some(e);
                        p
                    }
                    Err(err) => {
                        a.state = "failed".into();
                        a.error = Some(format!("the search failed: {err}"));
                        a.updated_ms = now_ms();
                        let _ = app.store.update_analysis(a).await;
                        return true;
                    }
                }
            }
        };
        a.points.push(point);
        mark_turns(&mut a.points);
        if a.points.len() == a.total {
            a.state = "done".into();
        }
        a.updated_ms = now_ms();
        if let Err(e) = app.store.update_analysis(a).await {
            eprintln!("cohort serve: analysis {}: not stored: {e}", a.id);
            return false;
        }
    }
    true
}

/// A searched point: the engine's turn, its score for White, its line.
fn point_of(w: &Work, c: &cohort_engine::TurnChoice) -> Point {
    let pos = w.game.position();
    let side = pos.side_to_move();
    let variant = pos.variant();
    let mut p = pos.clone();
    let mut best = vec![];
    let mut moves = vec![];
    for s in &c.steps {
        best.push(p.step_text(*s));
        moves.push(Value::Object(step_fields(variant, *s)));
        p.make(*s);
    }
    let mut p = pos.clone();
    let line: Vec<String> =
        c.pv.iter()
            .take(LINE_STEPS)
            .map(|s| {
                let t = p.step_text(*s);
                p.make(*s);
                t
            })
            .collect();
    let white = if side == Side::White {
        c.score
    } else {
        -c.score
    };
    Point {
        at: w.at,
        side: Some(side_name(side).to_string()),
        score: white,
        decisive: c.score.abs() >= cohort_engine::search::WIN - 1000,
        best,
        moves,
        line: line.join(" "),
        depth: c.stats.depth,
        played: w.played.clone(),
        loss: 0.0,
        mark: None,
        best_after: None,
        played_after: None,
    }
}

/// `GET /api/analysis/<id>`.
async fn read(State(app): State<Arc<App>>, ApiPath(id): ApiPath<String>) -> Answer {
    let none = || ApiError::not_found(format!("no analysis '{id}'"));
    if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(none());
    }
    let mut a = app
        .store
        .analysis(&id)
        .await
        .map_err(|e| ApiError::internal(format!("reading the analysis failed: {e}")))?
        .ok_or_else(none)?;
    // Running, without news for long, and no longer in the job queue (a job waiting for a
    // worker, or taken over from a taker that died, is not stale).
    let queued = || async {
        let job = app.store.ai_job(&format!("analysis:{id}")).await;
        matches!(job, Ok(Some(j)) if j.lease_until_ms != i64::MAX)
    };
    if a.state == "running" && now_ms() - a.updated_ms > STALE_MS && !queued().await {
        a.state = "failed".into();
        a.error = Some("cut short: the server running it stopped; start it again".into());
    }
    let mut v = serde_json::to_value(&a).expect("an analysis is JSON");
    v["done"] = a.points.len().into();
    Ok(Json(v))
}

/// A point of an analysis made elsewhere (a browser), as `POST /api/games/<id>/analysis`
/// takes it: the server's point fields; `loss` and `mark` are computed again here.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PointIn {
    at: usize,
    side: Option<String>,
    score: i32,
    #[serde(default)]
    decisive: bool,
    #[serde(default)]
    best: Vec<String>,
    #[serde(default)]
    moves: Vec<Value>,
    #[serde(default)]
    line: String,
    #[serde(default)]
    depth: u32,
    #[serde(default)]
    played: Vec<String>,
    #[serde(default)]
    #[allow(dead_code)]
    loss: Option<f64>,
    #[serde(default)]
    #[allow(dead_code)]
    mark: Option<String>,
    /// The judged scores (cohort_engine::marks::judge), for White.
    #[serde(default)]
    best_after: Option<i32>,
    #[serde(default)]
    played_after: Option<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    #[serde(default)]
    ms: Option<u64>,
    points: Vec<PointIn>,
}

/// Each point's fields within bounds, and the points the game's: one before each turn (its
/// `at`, its side, the turn played) and one after the last step.
fn check_points(points: &[PointIn], turns: &[crate::live::Turn]) -> Result<(), ApiError> {
    let bad = |i: usize, msg: String| ApiError::invalid(format!("points[{i}].{msg}"));
    let turns: Vec<&crate::live::Turn> = turns.iter().filter(|t| !t.1.is_empty()).collect();
    if points.len() != turns.len() + 1 {
        return Err(ApiError::invalid(format!(
            "points: {} points; the game has {} turns, so {} points (one before each turn and one after the last)",
            points.len(),
            turns.len(),
            turns.len() + 1
        )));
    }
    let win = cohort_engine::search::WIN;
    let mut at = 0;
    for (i, p) in points.iter().enumerate() {
        if p.at != at {
            return Err(bad(
                i,
                format!("at: {}; the game's point {i} is after {at} steps", p.at),
            ));
        }
        if p.score.abs() > win {
            return Err(bad(
                i,
                format!("score: {} out of range (-{win} to {win})", p.score),
            ));
        }
        if p.depth > 256 {
            return Err(bad(
                i,
                format!("depth: {} out of range (0 to 256)", p.depth),
            ));
        }
        if p.best.len() > 64 || p.best.iter().any(|t| t.is_empty() || t.len() > 64) {
            return Err(bad(
                i,
                "best: at most 64 step texts of 1 to 64 bytes".into(),
            ));
        }
        if p.moves.len() > 64
            || p.moves
                .iter()
                .any(|m| !m.is_object() || m.to_string().len() > 1024)
        {
            return Err(bad(i, "moves: at most 64 steps as objects".into()));
        }
        if p.line.len() > 4096 {
            return Err(bad(i, "line: at most 4096 bytes".into()));
        }
        match (&p.side, turns.get(i)) {
            (Some(s), Some((side, steps))) => {
                if s != side_name(*side) {
                    return Err(bad(
                        i,
                        format!("side: '{s}'; {} plays turn {}", side_name(*side), i + 1),
                    ));
                }
                if &p.played != steps {
                    return Err(bad(
                        i,
                        format!(
                            "played: not the game's turn {} ({})",
                            i + 1,
                            steps.join(" ")
                        ),
                    ));
                }
                at += steps.len();
            }
            (None, Some(_)) => {
                return Err(bad(i, "side: null, but the game goes on from here".into()))
            }
            (side, None) => {
                if side
                    .as_deref()
                    .is_some_and(|s| s != "white" && s != "black")
                {
                    return Err(bad(i, "side: white, black or null".into()));
                }
                if !p.played.is_empty() {
                    return Err(bad(
                        i,
                        "played: nothing is played after the last step".into(),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// `POST /api/games/<id>/analysis` `{ms?, points}`: save an analysis of the finished game
/// made elsewhere (in the browser), replacing the one saved before; its marks are computed
/// here again from the scores. Answers it as `GET` does.
async fn save(
    State(app): State<Arc<App>>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SaveRequest = body_with(raw, SAVED_MAX)?;
    if req.ms.is_some_and(|ms| ms > 600_000) {
        return Err(ApiError::invalid("ms: at most 600000 a position"));
    }
    let slot = app.find(&id).await?;
    let turns = {
        let mut live = slot.live.lock().await;
        crate::api::play::refresh(&app, &mut live).await?;
        if live.row.ending.is_none() && live.game.result().is_none() {
            return Err(ApiError::new(
                Code::GameNotOver,
                "the game is in progress: its analysis is saved when it ends",
            ));
        }
        live.turns.clone()
    };
    check_points(&req.points, &turns)?;
    let mut points: Vec<Point> = req
        .points
        .into_iter()
        .map(|p| Point {
            at: p.at,
            side: p.side,
            score: p.score,
            decisive: p.decisive,
            best: p.best,
            moves: p.moves,
            line: p.line,
            depth: p.depth,
            played: p.played,
            loss: 0.0,
            mark: None,
            best_after: p.best_after,
            played_after: p.played_after,
        })
        .collect();
    mark_turns(&mut points);
    let saver = match current_user(&app, &headers).await {
        Some((user, _)) => format!("user:{user}"),
        None => caller.0,
    };
    let a = SavedAnalysis {
        game: id.clone(),
        saver,
        ms: req.ms.unwrap_or(0),
        points,
        saved_ms: now_ms(),
    };
    let stored = app
        .store
        .save_game_analysis(&a, SAVES_PER_HOUR)
        .await
        .map_err(|e| ApiError::internal(format!("storing the analysis failed: {e}")))?;
    if !stored {
        return Err(ApiError::new(
            Code::LimitReached,
            format!("you saved {SAVES_PER_HOUR} analyses in the last hour, this server's limit; try again later"),
        ));
    }
    Ok(Json(saved_json(&a)))
}

/// `GET /api/games/<id>/analysis`: the analysis saved with the game, `{"saved": true, ...}`,
/// or `{"saved": false}` when none is (a page asks on every finished game: no 404 noise).
async fn saved(State(app): State<Arc<App>>, ApiPath(id): ApiPath<String>) -> Answer {
    app.find(&id).await?;
    let a = app
        .store
        .game_analysis(&id)
        .await
        .map_err(|e| ApiError::internal(format!("reading the analysis failed: {e}")))?;
    Ok(Json(match a {
        Some(a) => saved_json(&a),
        None => json!({"game": id, "saved": false}),
    }))
}

fn saved_json(a: &SavedAnalysis) -> Value {
    let mut v = serde_json::to_value(a).expect("an analysis is JSON");
    v["saved"] = true.into();
    v
}
