//! What every family answers alike, written once over the core trait: no family has a
//! better answer of its own, so these are free functions, not trait methods.

use crate::error::TurnError;
use crate::interface::Rules;
use crate::outcome::{Side, Unit};
use crate::step::Step;

/// Every unit on the board, in the family's order (collected: off the hot paths).
pub fn all_units<R: Rules>(pos: &R) -> impl Iterator<Item = Unit> {
    let mut all = Vec::new();
    pos.for_each_unit(|u| all.push(u));
    all.into_iter()
}
/// How many units of each kind (the variant's order) `side` holds in hand.
pub fn pocket<R: Rules>(pos: &R, side: Side) -> Vec<u8> {
    (0..pos.variant().pieces.len() as u8)
        .map(|k| pos.in_hand(side, k))
        .collect()
}
/// Play a whole turn written as steps (spaces or commas between them), closed with `end`
/// where the text does not end it. On error the position is unchanged.
pub fn apply_turn<R: Rules>(pos: &mut R, text: &str) -> Result<Vec<Step>, TurnError> {
    let start_side = pos.side_to_move();
    let mut played: Vec<(Step, R::Undo)> = Vec::new();
    let words: Vec<&str> = text
        .split([' ', ',', '\t', '\n'])
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return Err(TurnError::Empty);
    }
    let mut outcome = Ok(());
    for (i, w) in words.iter().enumerate() {
        if pos.side_to_move() != start_side {
            let word = w.to_string();
            outcome = Err(TurnError::AlreadyEnded { index: i, word });
            break;
        }
        match pos.parse_step(w) {
            Ok(step) => played.push((step, pos.make(step))),
            Err(error) => {
                let word = w.to_string();
                outcome = Err(TurnError::Step {
                    index: i,
                    word,
                    error,
                });
                break;
            }
        }
    }
    if outcome.is_ok() && pos.side_to_move() == start_side && pos.outcome().is_none() {
        match pos.parse_step("end") {
            Ok(end) => played.push((end, pos.make(end))),
            Err(e) => outcome = Err(TurnError::Closing(e)),
        }
    }
    match outcome {
        Ok(()) => Ok(played.iter().map(|p| p.0).collect()),
        Err(e) => {
            for (step, undo) in played.into_iter().rev() {
                pos.unmake(step, undo);
            }
            Err(e)
        }
    }
}
