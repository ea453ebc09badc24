//! A game being played: the rules' `Game`, its stored row, the turns so far, and the JSON
//! view the pages and the API show. Rebuilt from storage by replaying the stored steps.

use std::sync::Arc;

use cohort_rules::{
    CommandModel, EndReason, Game, Outcome, Position, Side, Square, StepKind, StepList, Variant,
};
use serde_json::{json, Value};

use crate::events::{self, removed_by, Removed};
use crate::store::GameRow;

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
    pub ai_thinking: bool,
}

pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

pub fn parse_side(text: &str) -> Option<Side> {
    match text {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

/// Display colours for the group colour names of the variant files.
pub(crate) fn colour_hex(name: &str, side: Side) -> String {
    match name {
        "yellow" => "#f2cf3a",
        "white" => "#f7f5ee",
        "grey" | "gray" => "#a9aaa6",
        "orange" => "#f08a2a",
        "green" => "#3fae5a",
        "blue" => "#3d74d9",
        "red" => "#d9443d",
        "purple" => "#9150b8",
        other if other.starts_with('#') => other,
        _ => {
            if side == Side::White {
                "#f7f5ee"
            } else {
                "#3a3a3a"
            }
        }
    }
    .to_string()
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
            ai_thinking: false,
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
            _ => {}
        }
        Ok(live)
    }

    pub fn variant(&self) -> &Arc<Variant> {
        self.game.position().variant()
    }

    /// Play a step on this game; returns its canonical text. Changes nothing on error.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        let pos = self.game.position();
        let step = pos.parse_step(text)?;
        let canonical = pos.step_text(step);
        self.game.play(step)?;
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
        })
    }

    pub fn wants_ai(&self) -> bool {
        self.game.result().is_none()
            && self.seat_kind(self.to_move()) == "ai"
            && self.game.position().at_turn_start()
    }

    /// The game as the pages show it; `seat` is the viewer's.
    pub fn view(&self, seat: Option<Side>) -> Value {
        let mut v = board_view(self.game.position());
        let pos = self.game.position();
        let mut list = StepList::new();
        self.game.legal_steps(&mut list);
        let geo = &pos.variant().geometry;
        // The legal steps as data (docs/server.md `steps`): what each takes comes from the
        // rules (`capture_squares`), by any capture method, before the step is made.
        let mut steps: Vec<Value> = Vec::with_capacity(list.len());
        let mut legal: Vec<Value> = Vec::with_capacity(list.len());
        for s in list.iter() {
            let text = pos.step_text(*s);
            let removes: Vec<String> = pos
                .capture_squares(*s)
                .into_iter()
                .map(|q| geo.square_name(q))
                .collect();
            let mut step = step_fields(pos.variant(), *s);
            step.insert("text".into(), text.clone().into());
            step.insert("removes".into(), removes.clone().into());
            steps.push(Value::Object(step));
            if s.is_end() {
                continue;
            }
            let mut old = json!({
                "from": if matches!(s.kind, StepKind::Drop(_)) { Value::Null } else { geo.square_name(s.from).into() },
                "to": geo.square_name(s.to),
                "text": text,
            });
            if pos.variant().is_chessma() {
                // Chessma 84: what the step takes, on either board, shown before it is made.
                old["captures"] = removes.into();
            }
            legal.push(old);
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
        let players = |side: Side| -> Value {
            if self.seat_kind(side) == "ai" {
                format!("{} {} ms", self.row.ai_agent, self.row.ai_time_ms).into()
            } else {
                "human".into()
            }
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
        o.insert(
            "players".into(),
            json!({"white": players(Side::White), "black": players(Side::Black)}),
        );
        o.insert("ai_thinking".into(), self.ai_thinking.into());
        o.insert("draw_offer".into(), self.row.draw_offer.clone().into());
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
        o.insert(
            "rating_change".into(),
            self.row
                .rating_change
                .as_deref()
                .and_then(|t| serde_json::from_str(t).ok())
                .unwrap_or(Value::Null),
        );
        if self.game.result().is_some() {
            // Over by a rule of the game (not only by a capture): nothing may move.
            o.insert("movable".into(), Value::Array(vec![]));
        }
        o.insert("seat".into(), seat.map(side_name).into());
        o.insert("custom".into(), (!self.row.variant_text.is_empty()).into());
        v
    }

    /// The game record in the text format of docs/records.md.
    pub fn record_text(&self) -> String {
        let mut r = cohort_engine::record::Record::from_game(&self.game);
        let player = |side: Side| {
            if self.seat_kind(side) == "ai" {
                format!("{}:{}", self.row.ai_agent, self.row.ai_time_ms)
            } else {
                "human".to_string()
            }
        };
        r.set_tag("Event", format!("cohort serve, game {}", self.row.id));
        r.set_tag(
            "Date",
            cohort_engine::record::date_of_unix_ms(self.row.created_ms),
        );
        r.set_tag("White", player(Side::White));
        r.set_tag("Black", player(Side::Black));
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
        let player = |side: Side| {
            if self.seat_kind(side) == "ai" {
                format!("{}:{}", self.row.ai_agent, self.row.ai_time_ms)
            } else {
                "human".to_string()
            }
        };
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
        if !self.row.variant_text.is_empty() {
            // A custom variant: the record carries its file, so it replays anywhere.
            record["variant_file"] = self.row.variant_text.clone().into();
        }
        record
    }
}

pub(crate) fn result_json(result: Option<(Outcome, EndReason)>, time_loser: Option<Side>) -> Value {
    if let Some(loser) = time_loser {
        let winner = loser.other();
        return json!({
            "winner": side_name(winner),
            "reason": "time forfeit",
            "text": format!("{} wins (time forfeit)", winner.name()),
        });
    }
    match result {
        None => Value::Null,
        Some((Outcome::Win(side), reason)) => json!({
            "winner": side_name(side),
            "reason": reason.describe(),
            "text": format!("{} wins ({})", side.name(), reason.describe()),
        }),
        Some((Outcome::Draw, reason)) => json!({
            "winner": null,
            "reason": reason.describe(),
            "text": format!("Draw ({})", reason.describe()),
        }),
    }
}

/// What any position shows: the board, units, who may move, captures, command drawing.
pub fn board_view(pos: &Position) -> Value {
    let v = pos.variant();
    let geo = &v.geometry;
    let name = |sq: Square| geo.square_name(sq);
    let letter = |kind: u8, side: Side| {
        let l = v.pieces[kind as usize].letter;
        if side == Side::White {
            l.to_string()
        } else {
            l.to_ascii_lowercase().to_string()
        }
    };
    let colour = |group: u8, side: Side| match v.groups.get(group as usize) {
        Some(g) => colour_hex(&g.colours[side.index()], side),
        None => colour_hex("", side),
    };
    let moved = pos.turn().moved;
    let mut units = vec![];
    for sq in geo.squares.iter() {
        if let Some(u) = pos.unit_at(sq) {
            let pinned = pos
                .pinned_at(sq)
                .map(|p| json!({"letter": letter(p.kind, p.side), "side": side_name(p.side)}));
            units.push(json!({
                "square": name(sq),
                "letter": letter(u.kind, u.side),
                "side": side_name(u.side),
                "group": u.group,
                "colour": colour(u.group, u.side),
                "moved": moved.has(sq),
                "pinned": pinned,
            }));
        }
    }
    let mut captured = [vec![], vec![]];
    for u in pos.removed_units() {
        captured[u.side.index()].push(letter(u.kind, u.side));
    }
    let mut pocket = [vec![], vec![]];
    for side in [Side::White, Side::Black] {
        for (kind, &n) in pos.pocket(side).iter().enumerate() {
            for _ in 0..n {
                pocket[side.index()].push(letter(kind as u8, side));
            }
        }
    }
    let movable: Vec<String> = pos.movable_units().iter().map(name).collect();
    let command = v.command.name();
    let pieces: serde_json::Map<String, Value> = v
        .pieces
        .iter()
        .map(|p| (p.letter.to_string(), Value::from(p.name.clone())))
        .collect();
    let letters = |pick: fn(&cohort_rules::variant::PieceKind) -> bool| -> Vec<String> {
        v.pieces
            .iter()
            .filter(|p| pick(p))
            .map(|p| p.letter.to_string())
            .collect()
    };
    json!({
        "variant": v.id,
        "name": v.name,
        "pieces": pieces,
        "leaders": letters(|p| p.leader),
        "royals": letters(|p| p.royal),
        "files": geo.files,
        "ranks": geo.ranks,
        // Boards with labelled files and ranks (Chessma 84: z..i, 0 1' 1 .. 8 8' 9).
        "file_labels": geo.file_labels,
        "rank_labels": geo.rank_labels,
        // Every square of the board, from the rules' geometry (holes and sheets included).
        "squares": squares_view(geo),
        // Pieces an enemy Immobilizer freezes (Chessma 84).
        "frozen": (pos.frozen_units(Side::White) | pos.frozen_units(Side::Black)).iter().map(name).collect::<Vec<_>>(),
        "command": command,
        "position": pos.to_text(),
        "to_move": side_name(pos.side_to_move()),
        "at_turn_start": pos.at_turn_start(),
        "units": units,
        "movable": movable,
        "captured": {"white": captured[0], "black": captured[1]},
        "pocket": {"white": pocket[0], "black": pocket[1]},
        "command_info": command_info(pos),
    })
}

/// The rules' command picture (`Position::command_view`) as JSON: leaders (with the zone each
/// commands under the range model), chain links, the turn's moves and cap, and under the lead
/// model the leader leading the turn with its budget and what it may activate.
fn command_info(pos: &Position) -> Value {
    let v = pos.variant();
    let geo = &v.geometry;
    let view = pos.command_view();
    let range = match v.command {
        CommandModel::Range { range, .. } => Some(range),
        _ => None,
    };
    let names =
        |b: cohort_rules::Bitboard| b.iter().map(|s| geo.square_name(s)).collect::<Vec<_>>();
    let lead_json = |l: &cohort_rules::LeadingView| {
        json!({
            "square": geo.square_name(l.square),
            "mode": l.mode,
            "budget": l.budget,
            "used": l.used,
            "others_left": l.others_left,
            "activates": l.activates.iter().map(|&k| v.pieces[k as usize].letter.to_string()).collect::<Vec<_>>(),
            "remap": l.remap.iter().map(|(k, m)| json!({"letter": v.pieces[*k as usize].letter.to_string(), "moves": m})).collect::<Vec<_>>(),
        })
    };
    let leading = view.leading.as_ref().map(lead_json);
    let lead_options: Vec<Value> = view
        .lead_options
        .iter()
        .map(|(step, l)| {
            let mut o = lead_json(l);
            o["step"] = pos.step_text(*step).into();
            o
        })
        .collect();
    json!({
        "leaders": view.leaders.iter().map(|l| geo.square_name(l.square)).collect::<Vec<_>>(),
        "available": view.leaders.iter().filter(|l| l.available).map(|l| geo.square_name(l.square)).collect::<Vec<_>>(),
        "zones": view.leaders.iter().map(|l| names(l.zone)).collect::<Vec<_>>(),
        "range": range,
        "links": view.links.iter().map(|(a, b)| json!([geo.square_name(*a), geo.square_name(*b)])).collect::<Vec<_>>(),
        "moves": view.moves,
        "moves_cap": view.moves_cap,
        "leading": leading,
        "lead_options": lead_options,
    })
}

/// Every square of the board as the rules' geometry knows it (docs/server.md `squares`): its
/// name, file and rank index in the frame (file 0 left, rank 0 at the bottom, as drawn from
/// White's side) and the sheets it belongs to (Chessma 84; empty for one rectangle).
pub fn squares_view(geo: &cohort_rules::geometry::Geometry) -> Value {
    Value::Array(
        geo.squares
            .iter()
            .map(|sq| {
                let sheets: Vec<&str> = geo
                    .sheets
                    .iter()
                    .filter(|s| s.squares.has(sq))
                    .map(|s| s.name.as_str())
                    .collect();
                json!({"name": geo.square_name(sq), "file": sq.file(), "rank": sq.rank(), "sheets": sheets})
            })
            .collect(),
    )
}

/// A step as data (docs/server.md `steps`), without its text and removals (which need the
/// position before it): its squares, kind and the kind's argument.
pub fn step_fields(v: &Variant, s: cohort_rules::Step) -> serde_json::Map<String, Value> {
    let geo = &v.geometry;
    let name = |q: Square| Value::from(geo.square_name(q));
    let letter = |k: u8| Value::from(v.pieces[k as usize].letter.to_string());
    let (kind, from, to) = match s.kind {
        StepKind::End => ("end", Value::Null, Value::Null),
        StepKind::Drop(_) => ("drop", Value::Null, name(s.to)),
        StepKind::Move => ("move", name(s.from), name(s.to)),
        StepKind::Pin => ("pin", name(s.from), name(s.to)),
        StepKind::Promote(_) => ("promote", name(s.from), name(s.to)),
        StepKind::Lead(_) => ("lead", name(s.from), name(s.to)),
        StepKind::Push(_) => ("push", name(s.from), name(s.to)),
    };
    let mut m = serde_json::Map::new();
    m.insert("from".into(), from);
    m.insert("to".into(), to);
    m.insert("kind".into(), kind.into());
    m.insert(
        "promote".into(),
        match s.kind {
            StepKind::Promote(k) => letter(k),
            _ => Value::Null,
        },
    );
    m.insert(
        "drop".into(),
        match s.kind {
            StepKind::Drop(k) => letter(k),
            _ => Value::Null,
        },
    );
    m.insert(
        "lead_mode".into(),
        match s.kind {
            StepKind::Lead(mode) => v
                .lead_modes
                .get(mode as usize)
                .filter(|m| !m.name.is_empty())
                .map_or(Value::Null, |m| Value::from(m.name.clone())),
            _ => Value::Null,
        },
    );
    m.insert(
        "sheet".into(),
        match s.kind {
            StepKind::Push(sheet) => geo
                .sheets
                .get(sheet as usize)
                .map_or(Value::Null, |sh| Value::from(sh.name.clone())),
            _ => Value::Null,
        },
    );
    m
}
