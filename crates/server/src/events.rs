//! What each step takes off the board, for the move list and the board's animation: the
//! units a step captured (on its destination square or elsewhere) and those the rules remove
//! when a turn ends (Lifeform's regulations). Read from the rules' public API only: the units
//! off the board before and after the step (`Position::removed_units`, which keep the square
//! they were taken from), compared as multisets.

use cohort_rules::{Game, Position, Side, Step, StepList, Unit};
use serde_json::{json, Value};

/// One unit taken off the board: where it stood, its letter (Black's lower case), its side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removed {
    pub square: String,
    pub letter: String,
    pub side: Side,
}

impl Removed {
    pub fn json(&self) -> Value {
        json!({
            "square": self.square,
            "letter": self.letter,
            "side": crate::view::side_name(self.side),
        })
    }
}

pub fn list_json(list: &[Removed]) -> Value {
    Value::Array(list.iter().map(Removed::json).collect())
}

/// The units off the board now (captured or removed), as they stood when they left it.
pub fn off_board(pos: &Position) -> Vec<Unit> {
    pos.removed_units().copied().collect()
}

/// The units that left the board between `before` (from [`off_board`]) and `after`.
pub fn removed_by(before: &[Unit], after: &Position) -> Vec<Removed> {
    let mut left: Vec<Option<&Unit>> = before.iter().map(Some).collect();
    let mut out = vec![];
    for u in after.removed_units() {
        // A unit off the board before the step is still off it (units never come back but
        // by undo): match it once, the rest are this step's.
        if let Some(slot) = left.iter_mut().find(|s| s.is_some_and(|b| b == u)) {
            *slot = None;
            continue;
        }
        out.push(describe(after, u));
    }
    out
}

fn describe(pos: &Position, u: &Unit) -> Removed {
    let v = pos.variant();
    let l = v.pieces[u.kind as usize].letter;
    Removed {
        square: v.geometry.square_name(u.square),
        letter: if u.side == Side::White {
            l.to_string()
        } else {
            l.to_ascii_lowercase().to_string()
        },
        side: u.side,
    }
}

/// What ending the turn now would do, played on a copy of the game: the units the rules
/// would remove (Lifeform's regulations) and the result it would bring. None when the turn
/// may not end now.
pub fn end_preview(game: &Game, legal: &StepList) -> Option<(Vec<Removed>, Option<String>)> {
    let end: Step = *legal.iter().find(|s| s.is_end())?;
    let mut copy = game.clone();
    let before = off_board(copy.position());
    copy.play(end).ok()?;
    let removed = removed_by(&before, copy.position());
    let result = copy.result().map(|r| {
        crate::view::result_json(Some(r), None)["text"]
            .as_str()
            .unwrap_or("")
            .to_string()
    });
    Some((removed, result))
}
