//! A game being played: the rules' `Game`, its stored row, the turns so far, and the JSON
//! view the pages and the API show. Rebuilt from storage by replaying the stored steps.

use cohort_rules::{Explain, Rules};
use std::sync::Arc;

use cohort_rules::{
    EndReason, Game, Outcome, PlayError, Position, Side, StepKind, StepList, Variant,
};
use serde_json::{json, Value};

use crate::clock::ReplayCredit;
use crate::events::{self, removed_by, Removed};
use crate::store::GameRow;
use crate::view::{board_view, result_json, side_name, step_fields};

/// The row's `ending` of an aborted game (api/offers.rs).
pub const ABORTED: &str = "aborted";

/// A game may be aborted while fewer turns than this have been completed (api/offers.rs).
pub const ABORT_BEFORE_TURNS: usize = 2;

/// A turn in notation: who played it and its steps.
pub type Turn = (Side, Vec<String>);

#[derive(Clone)]
pub struct LiveGame {
    pub row: GameRow,
    pub game: Game,
    /// Completed turns and the turn in progress (last, possibly empty), in notation.
    pub turns: Vec<Turn>,
    /// The units each step took off the board, step by step (parallel to the steps of
    /// `turns`): captures, including those off the destination square, and the removals the
    /// rules make at a turn's end (Lifeform's regulations). See `events.rs`.
    pub removed: Vec<Vec<Removed>>,
    /// The replay of the turn in progress on the other side's page (clock.rs): credited
    /// to that side's clock when the turn ends.
    pub replay: ReplayCredit,
}

/// A step as a seat posts it (`POST /api/games/<id>/step`) or the AI chooses it.
#[derive(Clone, Debug)]
pub enum Posted {
    /// Its text (NOTATION.md).
    Text(String),
    /// Its index in the view's `steps` (the legal steps now, in the rules' order).
    Index(usize),
    /// A step chosen on a copy of the position (the AI's turn).
    Chosen(cohort_rules::Step),
}

impl LiveGame {
    /// Rebuild a game from its row and steps. Fails if a stored step is no longer legal.
    /// A custom variant's game is rebuilt from the variant file stored with it.
    pub fn replay(row: GameRow, steps: &[String]) -> Result<LiveGame, String> {
        let variant = crate::custom::variant_of(&row)?;
        LiveGame::replay_in(variant, row, steps)
    }

    /// [`LiveGame::replay`] in a variant already loaded (the game's own, for a replay).
    pub fn replay_in(
        variant: Arc<Variant>,
        row: GameRow,
        steps: &[String],
    ) -> Result<LiveGame, String> {
        let start = Position::parse(&variant, &row.start).map_err(|e| e.to_string())?;
        let mut live = LiveGame {
            turns: vec![(start.side_to_move(), vec![])],
            game: Game::new(start),
            row,
            removed: vec![],
            replay: ReplayCredit::default(),
        };
        for (i, s) in steps.iter().enumerate() {
            live.play(s)
                .map_err(|e| format!("stored step {} ('{s}'): {e}", i + 1))?;
        }
        match live.row.ending.as_deref() {
            Some("agreement") | Some("stopped") => live.game.agree_draw(),
            Some("resign white") => live.game.resign(Side::White),
            Some("resign black") | Some("time black") => live.game.resign(Side::Black),
            Some("time white") => live.game.resign(Side::White),
            Some(ABORTED) => live.game.abort(),
            _ => {}
        }
        Ok(live)
    }

    pub fn variant(&self) -> &Arc<Variant> {
        self.game.position().variant()
    }

    /// Play a step written as text on this game; returns its canonical text. Changes
    /// nothing on error.
    pub fn play(&mut self, text: &str) -> Result<String, PlayError> {
        self.play_posted(&Posted::Text(text.into()))
    }

    /// Play a step as it was posted: its text (read and checked once), its index in the
    /// legal steps listed now (legal by being listed), or a step chosen on a copy of this
    /// position (the AI's: checked once). Returns its canonical text; changes nothing on
    /// error.
    pub fn play_posted(&mut self, posted: &Posted) -> Result<String, PlayError> {
        let canonical = match posted {
            Posted::Text(text) => {
                let pos = self.game.position();
                let step = pos.parse_step(text)?;
                let canonical = pos.step_text(step);
                self.game.play_legal(step)?;
                canonical
            }
            Posted::Index(index) => {
                let step = self.game.listed_step(*index)?;
                // Written before it is made (a capture's mark reads the board).
                let canonical = self.game.position().step_text(step);
                self.game.play_legal(step)?;
                canonical
            }
            Posted::Chosen(step) => {
                let canonical = self.game.position().step_text(*step);
                self.game.play(*step)?;
                canonical
            }
        };
        self.removed.push(removed_by(&self.game));
        let last = self.turns.len() - 1;
        self.turns[last].1.push(canonical.clone());
        let to_move = self.game.position().side_to_move();
        if to_move != self.turns[last].0 && self.game.result().is_none() {
            self.turns.push((to_move, vec![]));
        }
        Ok(canonical)
    }

    pub fn undo(&mut self) -> bool {
        if self.game.undo() {
            self.removed.pop();
            let last = self.turns.len() - 1;
            self.turns[last].1.pop();
            true
        } else {
            false
        }
    }

    pub fn to_move(&self) -> Side {
        self.game.position().side_to_move()
    }

    pub fn seat_kind(&self, side: Side) -> &str {
        match side {
            Side::White => &self.row.white,
            Side::Black => &self.row.black,
        }
    }

    /// The seat a token belongs to, if any.
    pub fn seat_of(&self, token: &str) -> Option<Side> {
        if token.is_empty() {
            None
        } else if token == self.row.white_token && self.row.white == "human" {
            Some(Side::White)
        } else if token == self.row.black_token && self.row.black == "human" {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The winner as shown (a time forfeit included); None for a draw or a game going on.
    pub fn view_result_winner(&self) -> Option<Side> {
        if let Some(loser) = self.time_loser() {
            return Some(loser.other());
        }
        match self.game.result() {
            Some((Outcome::Win(side), _)) => Some(side),
            _ => None,
        }
    }

    /// Turns played to their end (a game resigned, agreed or aborted mid-turn: that turn does
    /// not count).
    pub fn turns_played(&self) -> usize {
        let closed = self.turns.len().saturating_sub(1);
        let last_closed = matches!(
            self.game.result(),
            Some((_, r)) if !matches!(r, EndReason::Resignation | EndReason::Agreement | EndReason::Aborted)
        ) && self.time_loser().is_none()
            && self.turns.last().is_some_and(|t| !t.1.is_empty());
        closed + usize::from(last_closed)
    }

    /// The side that lost on time, if the game ended so.
    pub fn time_loser(&self) -> Option<Side> {
        match self.row.ending.as_deref() {
            Some("time white") => Some(Side::White),
            Some("time black") => Some(Side::Black),
            _ => None,
        }
    }

    /// Has the side to move run out of time at `now` (game not over yet)?
    pub fn flag_fallen(&self, now: i64) -> bool {
        self.game.result().is_none() && self.row.clock.flagged(self.to_move(), now)
    }

    /// When a live game still waiting for its first step is aborted (ms since the epoch):
    /// `window_ms` after it was created. None once a step was played.
    pub fn first_step_deadline(&self, window_ms: i64) -> Option<i64> {
        let over = self.game.result().is_some();
        (self.row.clock.waits_for_first_step(over) && self.game.steps().is_empty())
            .then(|| self.row.created_ms + window_ms)
    }

    /// Abort the game (either seat's request, or no first step in time). The caller stores
    /// the row.
    pub fn abort(&mut self) {
        self.game.abort();
        self.row.ending = Some(ABORTED.into());
        self.row.draw_offer = None;
        self.row.takeback_offer = None;
        self.row.finished = true;
    }

    /// End the game on time: the side to move loses. The caller stores the row.
    pub fn end_on_time(&mut self, now: i64) {
        let loser = self.to_move();
        self.row.clock.stop(loser, now);
        self.row.clock.remaining_ms[loser.index()] = 0;
        self.game.resign(loser);
        self.row.ending = Some(format!("time {}", side_name(loser)));
        self.row.draw_offer = None;
        self.row.finished = true;
    }

    /// The clock as the pages show it: each side's time left now, which side's runs.
    pub fn clock_view(&self, now: i64) -> Value {
        let c = &self.row.clock;
        if !c.active() {
            return Value::Null;
        }
        let (base, inc) = c.control.stored();
        let to_move = self.to_move();
        let running = c.running() && self.game.result().is_none();
        json!({
            "kind": c.control.kind(),
            "control": c.control.describe(),
            "base_ms": base,
            "inc_ms": inc,
            "white_ms": c.left(Side::White, to_move, now).max(0),
            "black_ms": c.left(Side::Black, to_move, now).max(0),
            "running": if running { Value::from(side_name(to_move)) } else { Value::Null },
            // The running side's time starts this much later: the replay of the turn before
            // is credited (clock.rs). The page counts down only after it.
            "starts_in_ms": if running { c.starts_in(now) } else { 0 },
        })
    }

    pub fn wants_ai(&self) -> bool {
        self.game.result().is_none()
            && self.seat_kind(self.to_move()) == "ai"
            && self.game.position().at_turn_start()
    }

    /// Who plays each seat: the AI as "agent N ms", a person as "human".
    pub fn players(&self) -> Value {
        let player = |side: Side| -> Value {
            if self.seat_kind(side) == "ai" {
                format!("{} {} ms", self.row.ai_agent, self.row.ai_time_ms).into()
            } else {
                "human".into()
            }
        };
        json!({"white": player(Side::White), "black": player(Side::Black)})
    }

    /// The game as a list shows it (`GET /api/games`): no board, no legal steps, so that a
    /// list of a hundred games costs next to nothing.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.row.id,
            "variant": self.row.variant,
            "name": self.variant().name,
            "players": self.players(),
            "to_move": side_name(self.to_move()),
            "turns": self.turns.iter().filter(|t| !t.1.is_empty()).count(),
            "result": result_json(self.game.result(), self.time_loser()),
            "updated_ms": self.row.updated_ms,
        })
    }

    /// The game as the pages show it; `seat` is the viewer's.
    pub fn view(&self, seat: Option<Side>) -> Value {
        let mut v = board_view(self.game.position(), self.game.removed_units());
        let pos = self.game.position();
        let mut list = StepList::new();
        self.game.legal_steps(&mut list);
        let geo = &pos.variant().geometry;
        // The legal steps as data (docs/server.md `steps`): what each takes comes from the
        // rules (`capture_squares_of`), by any capture method, before the step is made.
        let mut steps: Vec<Value> = Vec::with_capacity(list.len());
        let mut legal: Vec<Value> = Vec::with_capacity(list.len());
        let captures = pos.capture_squares_of(list.as_slice());
        for (index, (s, taken)) in list.iter().zip(captures).enumerate() {
            let text = pos.step_text(*s);
            let removes: Vec<String> = taken.into_iter().map(|q| geo.square_name(q)).collect();
            let mut step = step_fields(pos.variant(), *s);
            step.insert("text".into(), text.clone().into());
            // What a seat posts to play it (with the view's `version`): no text to read.
            step.insert("index".into(), index.into());
            // The units a click may start it from (the rules say: an Ataxx clone comes from
            // any adjacent stone).
            let origins: Vec<String> = pos
                .step_origins(*s)
                .iter()
                .map(|q| geo.square_name(q))
                .collect();
            step.insert("origins".into(), origins.into());
            step.insert("removes".into(), removes.clone().into());
            steps.push(Value::Object(step));
            if s.is_end() {
                continue;
            }
            // `captures`: what the step takes, wherever it stands (Chessma 84: on either
            // board), the same squares as the step's `removes`, in every game.
            legal.push(json!({
                "from": if matches!(s.kind, StepKind::Drop(_)) { Value::Null } else { geo.square_name(s.from).into() },
                "to": geo.square_name(s.to),
                "text": text,
                "captures": removes,
            }));
        }
        let can_end = list.iter().any(|s| s.is_end());
        let (done, current): (&[Turn], Option<&Turn>) = if self.game.result().is_none() {
            (&self.turns[..self.turns.len() - 1], self.turns.last())
        } else {
            (&self.turns[..], None)
        };
        // The removals of each step, cut along the turns (`removed` is flat, step by step).
        let mut at = 0;
        let mut cut = |n: usize| -> Value {
            let part = self.removed.get(at..at + n).unwrap_or(&[]);
            at += n;
            Value::Array(part.iter().map(|r| events::list_json(r)).collect())
        };
        // The played steps as data, cut along the turns like the removals (the rules' steps
        // are parallel to the steps of `turns`).
        let played = self.game.steps();
        let mut played_at = 0;
        let mut cut_moves = |n: usize| -> Value {
            let part = played.get(played_at..played_at + n).unwrap_or(&[]);
            played_at += n;
            Value::Array(
                part.iter()
                    .map(|s| Value::Object(step_fields(pos.variant(), *s)))
                    .collect(),
            )
        };
        let turns: Vec<Value> = done
            .iter()
            .map(|(side, steps)| (side, steps, cut(steps.len()), cut_moves(steps.len())))
            .filter(|t| !t.1.is_empty())
            .map(|(side, steps, removed, moves)| {
                json!({"side": side_name(*side), "steps": steps, "removed": removed, "moves": moves})
            })
            .collect();
        let turn_removed = cut(current.map_or(0, |t| t.1.len()));
        let turn_moves = cut_moves(current.map_or(0, |t| t.1.len()));
        let preview = if can_end {
            events::end_preview(&self.game, &list).map(|(removed, result)| {
                json!({"removed": events::list_json(&removed), "result": result})
            })
        } else {
            None
        };
        let o = v.as_object_mut().expect("board view is an object");
        o.insert("id".into(), self.row.id.clone().into());
        o.insert("version".into(), self.row.version.into());
        o.insert("legal".into(), legal.into());
        o.insert("steps".into(), steps.into());
        o.insert("turn_moves".into(), turn_moves);
        o.insert("can_end".into(), can_end.into());
        let turn_steps = current.map(|t| t.1.clone()).unwrap_or_default();
        o.insert("can_undo".into(), (!turn_steps.is_empty()).into());
        o.insert("turn_steps".into(), turn_steps.into());
        o.insert("turn_removed".into(), turn_removed);
        o.insert("end_preview".into(), preview.into());
        o.insert("turns".into(), turns.into());
        o.insert("players".into(), self.players());
        // The AI is to move: its search is queued or under way on some instance (api/ai.rs).
        o.insert("ai_thinking".into(), self.wants_ai().into());
        o.insert("draw_offer".into(), self.row.draw_offer.clone().into());
        // Takebacks, aborts and rematches (api/offers.rs, api/rematch.rs): the side asking,
        // whether the game may still be aborted, the side offering a rematch and the id of
        // the rematch once made (its seats' tokens only through `rematch/seat`).
        o.insert(
            "takeback_offer".into(),
            self.row.takeback_offer.clone().into(),
        );
        o.insert(
            "can_abort".into(),
            (self.game.result().is_none() && self.turns_played() < ABORT_BEFORE_TURNS).into(),
        );
        o.insert(
            "rematch_offer".into(),
            self.row.rematch_offer.clone().into(),
        );
        o.insert("rematch".into(), self.row.rematch_id.clone().into());
        o.insert(
            "result".into(),
            result_json(self.game.result(), self.time_loser()),
        );
        o.insert("clock".into(), self.clock_view(crate::store::now_ms()));
        o.insert(
            "accounts".into(),
            json!({"white": self.row.white_user, "black": self.row.black_user}),
        );
        o.insert("rated".into(), self.row.rated.into());
        let change: Value = self
            .row
            .rating_change
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or(Value::Null);
        // A rated game that ended before two turns were played: no change, and why.
        let unrated = change.get("unrated").cloned();
        if let (Some(why), Some(r)) = (&unrated, o.get_mut("result")) {
            if r.is_object() {
                r["unrated"] = why.clone();
            }
        }
        o.insert("unrated".into(), unrated.clone().unwrap_or(Value::Null));
        o.insert(
            "rating_change".into(),
            if unrated.is_some() {
                Value::Null
            } else {
                change
            },
        );
        if self.game.result().is_some() {
            // Over by a rule of the game (not only by a capture): nothing may move, and no
            // unit needs a reason why not.
            o.insert("movable".into(), Value::Array(vec![]));
            o.insert("why_not".into(), Value::Object(Default::default()));
        }
        o.insert("seat".into(), seat.map(side_name).into());
        o.insert("custom".into(), (!self.row.variant_text.is_empty()).into());
        v
    }

    /// Who plays `side`, as records name them: the AI as `agent:ms`, a player with an account
    /// by the account's name, anyone else as `human`.
    pub fn player_label(&self, side: Side) -> String {
        let account = match side {
            Side::White => &self.row.white_user,
            Side::Black => &self.row.black_user,
        };
        if self.seat_kind(side) == "ai" {
            format!("{}:{}", self.row.ai_agent, self.row.ai_time_ms)
        } else if let Some(name) = account {
            name.clone()
        } else {
            "human".to_string()
        }
    }

    /// The game record in the text format of docs/records.md.
    pub fn record_text(&self) -> String {
        let mut r = cohort_engine::record::Record::from_game(&self.game);
        let player = |side: Side| self.player_label(side);
        r.set_tag("Event", format!("cohort serve, game {}", self.row.id));
        r.set_tag(
            "Date",
            cohort_engine::record::date_of_unix_ms(self.row.created_ms),
        );
        r.set_tag("White", player(Side::White));
        r.set_tag("Black", player(Side::Black));
        r.set_tag("TimeControl", pgn_time_control(&self.row.clock.control));
        r.set_tag("Rated", if self.row.rated { "yes" } else { "no" });
        if self.time_loser().is_some() {
            // The rules' game records a flag fall as the loser's resignation; PGN's word
            // for it is "time forfeit".
            r.set_tag("Termination", "time forfeit");
        }
        if !self.row.variant_text.is_empty() {
            // A custom variant: the record carries its file, so it replays anywhere.
            r.set_tag("VariantFile", self.row.variant_text.clone());
        }
        r.to_text()
    }

    /// The game record as JSON (`?format=json`): the turns as `cohort match` writes them
    /// (`end` implied), every step, and the text record.
    pub fn record(&self) -> Value {
        let (result, mut reason) = match self.game.result() {
            Some((_, r @ EndReason::Aborted)) => ("*", r.describe()),
            Some((Outcome::Win(Side::White), r)) => ("1-0", r.describe()),
            Some((Outcome::Win(Side::Black), r)) => ("0-1", r.describe()),
            Some((Outcome::Draw, r)) => ("1/2-1/2", r.describe()),
            None => ("*", "unfinished"),
        };
        if self.time_loser().is_some() {
            reason = "time forfeit";
        }
        let played: Vec<&(Side, Vec<String>)> =
            self.turns.iter().filter(|t| !t.1.is_empty()).collect();
        let turns: Vec<Vec<&String>> = played
            .iter()
            .map(|t| t.1.iter().filter(|s| *s != "end").collect())
            .collect();
        let sides: Vec<&str> = played.iter().map(|t| side_name(t.0)).collect();
        let steps: Vec<String> = self.turns.iter().flat_map(|t| t.1.clone()).collect();
        let player = |side: Side| self.player_label(side);
        let mut record = json!({
            "id": self.row.id,
            "variant": self.row.variant,
            "variant_name": self.variant().name,
            "start": self.row.start,
            "white": player(Side::White),
            "black": player(Side::Black),
            "result": result,
            "reason": reason,
            "turns": turns,
            "sides": sides,
            "steps": steps,
            "text": self.record_text(),
            "time_control": self.row.clock.control.describe(),
            "accounts": {"white": self.row.white_user, "black": self.row.black_user},
            "rated": self.row.rated,
        });
        // A rated game that ended too early: why it changed no rating.
        if let Some(why) = self
            .row
            .rating_change
            .as_deref()
            .and_then(|t| serde_json::from_str::<Value>(t).ok())
            .and_then(|c| c.get("unrated").cloned())
        {
            record["unrated"] = why;
        }
        if !self.row.variant_text.is_empty() {
            // A custom variant: the record carries its file, so it replays anywhere.
            record["variant_file"] = self.row.variant_text.clone().into();
        }
        record
    }
}

/// A time control as PGN's `TimeControl` tag writes it: `300+3` (seconds, then the
/// increment), `1/86400` (a turn in each period of 86400 s: correspondence), `-` (none).
fn pgn_time_control(control: &crate::clock::TimeControl) -> String {
    use crate::clock::TimeControl;
    match *control {
        TimeControl::None => "-".into(),
        TimeControl::Live { base_ms, inc_ms } => {
            let secs = |ms: i64| {
                if ms % 1000 == 0 {
                    (ms / 1000).to_string()
                } else {
                    format!("{}", ms as f64 / 1000.0)
                }
            };
            format!("{}+{}", secs(base_ms), secs(inc_ms))
        }
        TimeControl::Correspondence { per_turn_ms } => format!("1/{}", per_turn_ms / 1000),
    }
}
