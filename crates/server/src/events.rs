//! What each step takes off the board, for the move list and the board's animation: the
//! units a step captured (on its destination square or elsewhere) and those the rules remove
//! when a turn ends (Lifeform's regulations). Read from what the rules report a step did
//! (`Game::last_effects`): nothing here compares boards or guesses a capture.

use cohort_rules::Rules;
use cohort_rules::{Game, Side, Step, StepList};
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

/// The units the last step took off the board, as the rules report it (its effects).
pub fn removed_by(game: &Game) -> Vec<Removed> {
    let v = game.position().variant();
    game.last_effects()
        .removed()
        .map(|(side, kind, square, _)| {
            let l = v.pieces[kind as usize].letter;
            Removed {
                square: v.geometry.square_name(square),
                letter: if side == Side::White {
                    l.to_string()
                } else {
                    l.to_ascii_lowercase().to_string()
                },
                side,
            }
        })
        .collect()
}

/// What ending the turn now would do, played on a copy of the game: the units the rules
/// would remove (Lifeform's regulations) and the result it would bring. None when the turn
/// may not end now.
pub fn end_preview(game: &Game, legal: &StepList) -> Option<(Vec<Removed>, Option<String>)> {
    let end: Step = *legal.iter().find(|s| s.is_end())?;
    let mut copy = game.clone();
    copy.play(end).ok()?;
    let removed = removed_by(&copy);
    let result = copy.result().map(|r| {
        crate::view::result_json(Some(r), None)["text"]
            .as_str()
            .unwrap_or("")
            .to_string()
    });
    Some((removed, result))
}
