//! Cohort's rules and engine for WebAssembly (docs/wasm.md). The calls are plain Rust here,
//! each answering text (JSON or a position) or an error message, so that they are tested
//! natively; exports.rs wraps them as `extern "C"` exports on wasm32, passing strings
//! through linear memory, and web/static/wasm/cohort.js wraps those for JavaScript.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use cohort_engine::{EngineAgent, Limits, Watch};
use cohort_rules::{
    builtin_variants, parse_variants, perft, Effect, EndReason, Explain, Game, Outcome, PlayError,
    Position, Rules, Side, Square, Step, StepList, Variant,
};
use cohort_view::{board_view, side_name, step_fields};
use serde_json::{json, Map, Value};

#[cfg(target_arch = "wasm32")]
mod exports;

/// Register the families from outside the rules crate (Ataxx, Breakthrough); every call
/// that loads a variant does it first (later calls change nothing).
pub fn init() {
    cohort_families::register();
}

/// The built-in variants (those of the outside families too): `[{id, name}]`.
pub fn variants_json() -> String {
    init();
    let list: Vec<Value> = builtin_variants()
        .iter()
        .map(|v| json!({"id": v.id, "name": v.name}))
        .collect();
    Value::Array(list).to_string()
}

/// A variant by id among the built-ins, else read from `text` as a variant file (its first
/// variant; it may name built-ins as `base`).
pub fn load_variant(name_or_text: &str) -> Result<Arc<Variant>, String> {
    init();
    let all = builtin_variants();
    let key = name_or_text.trim();
    if let Some(v) = all.iter().find(|v| v.id == key) {
        return Ok(v.clone());
    }
    // One word that is no variant id: an unknown name, not a variant file.
    if !key.contains(char::is_whitespace) {
        let ids: Vec<&str> = all.iter().map(|v| v.id.as_str()).collect();
        return Err(format!(
            "unknown variant '{key}' (known: {}; or pass a variant file's text)",
            ids.join(", ")
        ));
    }
    let parsed = parse_variants("variant", name_or_text, &all).map_err(|e| e.to_string())?;
    parsed
        .into_iter()
        .next()
        .ok_or_else(|| "the variant file defines no variant".to_string())
}

/// A game as the JavaScript API holds it: the rules' `Game` (it keeps the game's counters and
/// result), the steps made since its start (to take back across turns) and the engine, made
/// on the first search and kept (its table learns across searches).
pub struct Session {
    variant: Arc<Variant>,
    start: Position,
    game: Game,
    steps: Vec<Step>,
    engine: Option<EngineAgent>,
}

impl Session {
    /// A game of a variant (id or variant file text), from its start or `position`.
    pub fn new(variant: &str, position: Option<&str>) -> Result<Session, String> {
        let variant = load_variant(variant)?;
        let start = match position {
            None => variant.start(),
            Some(t) => Position::parse(&variant, t).map_err(|e| format!("position: {e}"))?,
        };
        Ok(Session {
            game: Game::new(start.clone()),
            variant,
            start,
            steps: Vec::new(),
            engine: None,
        })
    }

    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// `{variant, name}` of the game's variant.
    pub fn info_json(&self) -> String {
        json!({"variant": self.variant.id, "name": self.variant.name}).to_string()
    }

    pub fn position(&self) -> String {
        self.game.position().to_text()
    }

    /// Start again from the position `text`; the game is unchanged when it does not read.
    pub fn set_position(&mut self, text: &str) -> Result<(), String> {
        let pos = Position::parse(&self.variant, text).map_err(|e| format!("position: {e}"))?;
        self.game = Game::new(pos.clone());
        self.start = pos;
        self.steps.clear();
        Ok(())
    }

    pub fn side_to_move(&self) -> &'static str {
        side_name(self.game.position().side_to_move())
    }

    fn square(&self, sq: Square) -> Value {
        Value::from(self.variant.geometry.square_name(sq))
    }

    /// The legal steps as data, as the server's game view lists them (docs/server.md
    /// `steps`): index, text, from, to, kind, promote, drop, lead_mode, sheet, origins,
    /// removes. Empty when the game is over.
    pub fn legal_steps_json(&self) -> String {
        let pos = self.game.position();
        let mut list = StepList::new();
        self.game.legal_steps(&mut list);
        let captures = pos.capture_squares_of(list.as_slice());
        let names = |b: &[Square]| -> Vec<Value> { b.iter().map(|&q| self.square(q)).collect() };
        let steps: Vec<Value> = list
            .iter()
            .zip(captures)
            .enumerate()
            .map(|(index, (s, taken))| {
                let mut m = step_fields(&self.variant, *s);
                m.insert("text".into(), pos.step_text(*s).into());
                m.insert("index".into(), index.into());
                let origins: Vec<Square> = pos.step_origins(*s).iter().collect();
                m.insert("origins".into(), names(&origins).into());
                m.insert("removes".into(), names(&taken).into());
                Value::Object(m)
            })
            .collect();
        Value::Array(steps).to_string()
    }

    /// Play one step, given by its index in `legal_steps` or as text; answers what it did
    /// (the rules' effects), the step's text, the side to move and the result after it.
    pub fn make(&mut self, step: StepArg) -> Result<String, String> {
        let step = match step {
            StepArg::Index(i) => self.game.listed_step(i).map_err(|e| e.to_string())?,
            StepArg::Text(t) => {
                if self.game.result().is_some() {
                    return Err(PlayError::GameOver.to_string());
                }
                // `parse_step` reads only a legal step, or says why not (the rules' words).
                self.game
                    .position()
                    .parse_step(t.trim())
                    .map_err(|e| PlayError::from(e).to_string())?
            }
        };
        let text = self.game.position().step_text(step);
        self.game.play_legal(step).map_err(|e| e.to_string())?;
        self.steps.push(step);
        Ok(json!({
            "step": text,
            "effects": self.effects_json(),
            "sideToMove": self.side_to_move(),
            "outcome": self.outcome_value(),
        })
        .to_string())
    }

    fn effects_json(&self) -> Vec<Value> {
        let v = &self.variant;
        let letter = |kind: u8, side: Side| {
            let l = v.pieces.get(kind as usize).map_or('?', |p| p.letter);
            if side == Side::White {
                l.to_string()
            } else {
                l.to_ascii_lowercase().to_string()
            }
        };
        self.game
            .last_effects()
            .iter()
            .map(|e| match *e {
                Effect::Moved {
                    side,
                    kind,
                    from,
                    to,
                } => json!({"type": "moved", "side": side_name(side), "letter": letter(kind, side),
                    "from": self.square(from), "to": self.square(to)}),
                Effect::Removed {
                    side,
                    kind,
                    square,
                    capture,
                } => json!({"type": "removed", "side": side_name(side), "letter": letter(kind, side),
                    "square": self.square(square), "capture": capture}),
                Effect::Placed { side, kind, square } => json!({"type": "added",
                    "side": side_name(side), "letter": letter(kind, side), "square": self.square(square)}),
                Effect::KindChanged {
                    side,
                    square,
                    from,
                    to,
                } => json!({"type": "kind-changed", "side": side_name(side), "square": self.square(square),
                    "from": letter(from, side), "to": letter(to, side)}),
                Effect::Pocketed { side, kind } => json!({"type": "pocketed",
                    "side": side_name(side), "letter": letter(kind, side)}),
                Effect::SideChanged { side, kind, square } => json!({"type": "side-changed",
                    "side": side_name(side), "letter": letter(kind, side), "square": self.square(square)}),
                Effect::Pinned { side, kind, square } => json!({"type": "pinned",
                    "side": side_name(side), "letter": letter(kind, side), "square": self.square(square)}),
            })
            .collect()
    }

    /// Take back the last step (across turns, and after the game ended). False when no step
    /// was made since the start (or the last `set_position`).
    pub fn unmake(&mut self) -> bool {
        if self.steps.is_empty() {
            return false;
        }
        self.steps.pop();
        // The game takes back a step of the turn in progress itself; an earlier one is
        // replayed from the start (the game's counters and repetitions with it).
        if !self.game.undo() {
            let mut game = Game::new(self.start.clone());
            for &s in &self.steps {
                // Each was legal when it was made, from the same start.
                let _ = game.play_legal(s);
            }
            self.game = game;
        }
        true
    }

    fn outcome_value(&self) -> Value {
        match self.game.result() {
            None => Value::Null,
            Some((Outcome::Win(side), reason)) => json!({
                "result": if side == Side::White { "1-0" } else { "0-1" },
                "winner": side_name(side),
                "reason": reason.describe(),
                "text": format!("{} wins ({})", side.name(), reason.describe()),
                // For White, in the engine's units (an analysis's finished point).
                "score": if side == Side::White { cohort_engine::search::WIN } else { -cohort_engine::search::WIN },
            }),
            Some((Outcome::Draw, reason)) => json!({
                "result": if reason == EndReason::Aborted { "*" } else { "1/2-1/2" },
                "winner": null,
                "reason": reason.describe(),
                "text": format!("Draw ({})", reason.describe()),
                "score": 0,
            }),
        }
    }

    /// The result and why the game ended, or `null`.
    pub fn outcome_json(&self) -> String {
        self.outcome_value().to_string()
    }

    /// What a board shows: the server's board view (cohort-view's `board_view`: units,
    /// movable units, pockets, captured units, checked royals and their checkers, frozen
    /// units, the command picture, the board's layout) with the game's `outcome`. When the
    /// game is over by any rule (repetition too), nothing may move, no royal is shown in
    /// check, no unit gives check and no unit needs a reason why not.
    pub fn view_json(&self) -> String {
        let mut view = board_view(self.game.position(), self.game.removed_units());
        let o = view.as_object_mut().expect("a board view is an object");
        if self.game.result().is_some() {
            o.insert("movable".into(), Value::Array(vec![]));
            o.insert("check".into(), Value::Array(vec![]));
            o.insert("checkers".into(), Value::Array(vec![]));
            o.insert("why_not".into(), Value::Object(Map::new()));
        }
        o.insert("outcome".into(), self.outcome_value());
        view.to_string()
    }

    /// Step perft from the game's position (NOTATION.md; the rules' `perft::perft`, as
    /// `cohort perft` counts).
    pub fn perft(&self, depth: u32) -> u64 {
        perft::perft(&mut self.game.position().clone(), depth)
    }

    /// The engine's turn from the game's position within `ms` milliseconds and/or `nodes`
    /// nodes (one search thread). `info` hears each finished depth of each step's search as
    /// JSON `{depth, score, nodes, line, made}`; it answers true to stop the search (the
    /// turn is then finished with the best steps found so far). The answer: `{turn, score,
    /// pv, depth, nodes, nodes_per_second, ms}`; the game is not changed.
    pub fn search(
        &mut self,
        ms: Option<u64>,
        nodes: Option<u64>,
        info: &mut dyn FnMut(&str) -> bool,
    ) -> Result<String, String> {
        if let Some((o, r)) = self.game.result() {
            return Err(format!(
                "the game is already over ({}, {})",
                match o {
                    Outcome::Win(s) => format!("{} wins", s.name()),
                    Outcome::Draw => "draw".into(),
                },
                r.describe()
            ));
        }
        if ms == Some(0) || nodes == Some(0) {
            return Err("search: ms and nodes must be at least 1".into());
        }
        let variant = self.variant.clone();
        let engine = self
            .engine
            .get_or_insert_with(|| EngineAgent::new(&variant));
        // Neither limit: a second.
        let time = match (ms, nodes) {
            (None, None) => Some(1000),
            (ms, _) => ms,
        };
        // At most a day: the turn's shares of it are computed in durations.
        let limits = Limits {
            time: time.map(|t| Duration::from_millis(t.min(86_400_000))),
            nodes,
            seed: 1,
            threads: 1,
            clock: None,
        };
        let root = self.game.position().clone();
        let stop = AtomicBool::new(false);
        let mut report = |made: &[Step], out: &cohort_engine::search::Outcome_, n: u64| {
            let mut p = root.clone();
            for &s in made {
                p.make(s);
            }
            let msg = json!({
                "depth": out.depth,
                "score": out.score,
                "decisive": out.score.abs() >= cohort_engine::search::WIN - 1000,
                "nodes": n,
                "line": line_texts(&p, &out.pv),
                "made": line_texts(&root, made),
            });
            if info(&msg.to_string()) {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let choice = engine.choose_turn_watched(
            &self.game,
            &limits,
            Watch {
                stop: Some(&stop),
                max_depth: 64,
                report: &mut report,
            },
        );
        let st = &choice.stats;
        let side = root.side_to_move();
        let moves: Vec<Value> = choice
            .steps
            .iter()
            .map(|&s| Value::Object(step_fields(&self.variant, s)))
            .collect();
        Ok(json!({
            "turn": line_texts(&root, &choice.steps),
            "moves": moves,
            "side": side_name(side),
            "score": choice.score,
            "white_score": if side == Side::White { choice.score } else { -choice.score },
            "decisive": choice.score.abs() >= cohort_engine::search::WIN - 1000,
            "pv": line_texts(&root, &choice.pv),
            "depth": st.depth,
            "nodes": st.nodes,
            "nodes_per_second": st.nodes_per_second().round(),
            "ms": st.elapsed.as_secs_f64() * 1000.0,
            "stopped": stop.load(Ordering::SeqCst),
        })
        .to_string())
    }
}

/// Marks on a game's turns (docs/server.md, "Marks"), the server's rule
/// (cohort_engine::marks): `points_json` is an analysis's points in order (`side`, `score`
/// for White, `best`, `played`, as the server's analyses write them); each point gets
/// `loss` and `mark` from the point after it. Other fields are kept.
pub fn marks_json(points_json: &str) -> Result<String, String> {
    let mut points: Vec<Value> =
        serde_json::from_str(points_json).map_err(|e| format!("marks: the points: {e}"))?;
    let score = |p: &Value, i: usize| -> Result<i32, String> {
        p.get("score")
            .and_then(Value::as_i64)
            .and_then(|s| i32::try_from(s).ok())
            .ok_or_else(|| format!("marks: points[{i}].score: a whole number"))
    };
    for i in 0..points.len() {
        if !points[i].is_object() {
            return Err(format!("marks: points[{i}]: an object"));
        }
        score(&points[i], i)?;
    }
    for i in 0..points.len().saturating_sub(1) {
        let side = match points[i].get("side") {
            Some(Value::String(s)) if s == "white" || s == "black" => s.clone(),
            _ => continue,
        };
        let (before, after) = (score(&points[i], i)?, score(&points[i + 1], i + 1)?);
        let played = points[i].get("played").cloned().unwrap_or(Value::Null);
        let best = points[i].get("best").cloned().unwrap_or(Value::Null);
        let own = played.as_array().is_none_or(|a| a.is_empty()) || played == best;
        let (loss, mark) = cohort_engine::marks::turn_mark(side == "white", before, after, own);
        let p = points[i].as_object_mut().expect("checked");
        p.insert("loss".into(), loss.into());
        p.insert("mark".into(), mark.map_or(Value::Null, Value::from));
    }
    Ok(Value::Array(points).to_string())
}

/// A step to make: its index in the legal list or its text.
pub enum StepArg<'a> {
    Index(usize),
    Text(&'a str),
}

/// The texts of a line of steps from `pos`, each written on the position before it.
fn line_texts(pos: &Position, steps: &[Step]) -> Vec<String> {
    let mut p = pos.clone();
    steps
        .iter()
        .map(|&s| {
            let t = p.step_text(s);
            p.make(s);
            t
        })
        .collect()
}

#[cfg(test)]
mod tests;
