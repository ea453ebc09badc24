//! Marks on a game's turns (?!, ?, ??) from the engine's scores before and after each turn:
//! the one rule the server's analyses (crates/server/src/analysis.rs) and the browser's
//! (crates/wasm, `marks`) both apply, so a game analysed anywhere is marked the same.

/// Expected score (0 to 1) of a score for White: the logistic `cohort tune` fits with its
/// scale at 1 (400 units give odds of ten to one); forced wins and losses are 1 and 0.
pub fn expected(score: i32) -> f64 {
    crate::tune::expected(score as f64, 1.0)
}

/// A turn's mark from what it lost in expected score for its side: 0.15 or more a blunder,
/// 0.10 a mistake, 0.05 an inaccuracy (the thresholds of lichess's analysis, on a 0-1
/// scale).
pub fn classify(loss: f64) -> Option<&'static str> {
    if loss >= 0.15 {
        Some("blunder")
    } else if loss >= 0.10 {
        Some("mistake")
    } else if loss >= 0.05 {
        Some("inaccuracy")
    } else {
        None
    }
}

/// What one turn lost and its mark: `white` whether White played it, `before` and `after`
/// the scores for White of the points before and after it, `engines_own` whether the turn
/// played is the engine's own choice there (or none was played): such a turn loses nothing.
/// The loss is rounded to thousandths.
pub fn turn_mark(
    white: bool,
    before: i32,
    after: i32,
    engines_own: bool,
) -> (f64, Option<&'static str>) {
    if engines_own {
        return (0.0, None);
    }
    let mover = |s: i32| {
        if white {
            expected(s)
        } else {
            1.0 - expected(s)
        }
    };
    let loss = (mover(before) - mover(after)).max(0.0);
    ((loss * 1000.0).round() / 1000.0, classify(loss))
}
