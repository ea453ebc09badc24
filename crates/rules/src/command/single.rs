//! The single model (FIDE chess, Chessma 84, and any variant with `command = single`): one
//! unit moves and the turn ends with that move. Every own unit may move; the generation is
//! the shared movers x destinations of command/mod.rs, and nothing of the turn is the
//! model's own. What it says of itself: one sentence, no leaders, no overlay.

use crate::command::Describe;
use crate::variant::Variant;

/// The single model (no settings).
#[derive(Copy, Clone)]
pub(crate) struct Single;

impl Describe for Single {
    fn rules(&self, _v: &Variant) -> Vec<String> {
        vec!["One unit moves, and the turn ends with that move.".into()]
    }
}
