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

/// A turn judged at the best turn's effort: the positions after the best turn found and
/// after the turn played, each searched to the same depth, scored for the side that moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    pub best_after: i32,
    pub played_after: i32,
    /// The depth both were searched to, in steps (0: one of them ended the game).
    pub depth: u32,
}

/// Judge the turn `played` at `game` against the engine's `best` turn there (issue 46: a
/// root search's score and the next position's come from searches of different depths
/// and horizons, and in games of many-step turns that difference alone marked the engine's
/// own turns as mistakes). The position after `best` is searched for `time`; the position
/// after `played` then to the depth that search reached (at most `NODE_FACTOR` times its
/// nodes, so a harder position cannot run away). Scores are for the side that moved.
/// None when a turn is not legal here.
pub fn judge(
    engine: &crate::EngineAgent,
    game: &cohort_rules::Game,
    best: &[cohort_rules::Step],
    played: &[cohort_rules::Step],
    time: std::time::Duration,
) -> Option<Judged> {
    use crate::search::WIN;
    use cohort_rules::{Outcome, Rules};
    let mover = game.position().side_to_move();
    let after = |steps: &[cohort_rules::Step]| -> Option<cohort_rules::Game> {
        let mut g = game.clone();
        for &s in steps {
            g.play(s).ok()?;
        }
        Some(g)
    };
    let (gb, gp) = (after(best)?, after(played)?);
    let over = |g: &cohort_rules::Game| {
        g.result().map(|(o, _)| match o {
            Outcome::Win(s) if s == mover => WIN,
            Outcome::Win(_) => -WIN,
            Outcome::Draw => 0,
        })
    };
    let limits = |time: Option<std::time::Duration>, nodes: Option<u64>| crate::Limits {
        time,
        nodes,
        seed: 1,
        threads: 1,
        clock: None,
    };
    // The side to move after a whole turn is the opponent: its score, negated.
    let for_mover = |g: &cohort_rules::Game, score: i32| {
        if g.position().side_to_move() == mover {
            score
        } else {
            -score
        }
    };
    let (best_after, depth, nodes) = match over(&gb) {
        Some(s) => (s, 0, 0),
        None => {
            let (out, stats) =
                engine.think(gb.position(), &limits(Some(time), None), None, |_, _| {});
            (for_mover(&gb, out.score), out.depth, stats.nodes)
        }
    };
    let played_after = match over(&gp) {
        Some(s) => s,
        None if depth == 0 => {
            let (out, _) = engine.think(gp.position(), &limits(Some(time), None), None, |_, _| {});
            for_mover(&gp, out.score)
        }
        None => {
            let cap = (nodes * NODE_FACTOR).max(10_000);
            let (out, _) = engine.think_limited(
                gp.position(),
                &limits(None, Some(cap)),
                depth,
                None,
                |_, _| {},
            );
            for_mover(&gp, out.score)
        }
    };
    Some(Judged {
        best_after,
        played_after,
        depth,
    })
}

/// How many times the nodes of the best turn's search the played turn's may take.
pub const NODE_FACTOR: u64 = 4;

/// [`turn_mark`] from a [`Judged`] turn: the mover's expected score after the best turn,
/// less after the played one.
pub fn judged_mark(judged: &Judged) -> (f64, Option<&'static str>) {
    let loss = (expected(judged.best_after) - expected(judged.played_after)).max(0.0);
    ((loss * 1000.0).round() / 1000.0, classify(loss))
}

/// The steps of a turn given as texts, read one after another from `game`'s position; None
/// when one does not read or is not legal there.
pub fn steps_of(game: &cohort_rules::Game, texts: &[String]) -> Option<Vec<cohort_rules::Step>> {
    use cohort_rules::Rules;
    let mut pos = game.position().clone();
    let mut steps = Vec::with_capacity(texts.len());
    for t in texts {
        let s = pos.parse_step(t).ok()?;
        if !pos.is_legal(s) {
            return None;
        }
        pos.make(s);
        steps.push(s);
    }
    Some(steps)
}

/// One point of a game's analysis, as the server, the browser and `cohort review` search
/// it: the engine's turn at `game` and, when a turn `played` there differs from it, that
/// turn judged at the best turn's effort ([`judge`]). With a played turn the point's `time`
/// is shared: half to find the best turn, a quarter to search after it (the search after
/// the played turn is held to its depth).
pub struct Review {
    pub choice: crate::TurnChoice,
    pub judged: Option<Judged>,
}

pub fn review(
    engine: &mut crate::EngineAgent,
    game: &cohort_rules::Game,
    played: Option<&[cohort_rules::Step]>,
    time: std::time::Duration,
) -> Review {
    let judging = played.is_some_and(|p| !p.is_empty());
    let limits = crate::Limits {
        time: Some(if judging { time / 2 } else { time }),
        nodes: None,
        seed: 1,
        threads: 1,
        clock: None,
    };
    let choice = crate::Agent::choose_turn(engine, game, &limits);
    let judged = match played {
        Some(p) if judging && p != choice.steps.as_slice() => judge(
            engine,
            game,
            &choice.steps,
            p,
            (time / 4).max(std::time::Duration::from_millis(1)),
        ),
        _ => None,
    };
    Review { choice, judged }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cohort_rules::Game;

    fn game_after(variant: &str, texts: &[&str]) -> Game {
        let v = cohort_rules::builtin(variant).unwrap();
        let mut g = Game::new(v.start());
        let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        for s in steps_of(&g, &texts).unwrap() {
            g.play(s).unwrap();
        }
        g
    }

    #[test]
    fn a_queen_left_to_be_taken_is_judged_a_blunder_and_the_best_turn_loses_nothing() {
        let g = game_after("chess", &["e2-e4", "d7-d5"]);
        let v = cohort_rules::builtin("chess").unwrap();
        let engine = crate::EngineAgent::new(&v);
        let t = std::time::Duration::from_millis(200);
        let best = steps_of(&g, &["e4xd5".to_string()]).unwrap();
        let blunder = steps_of(&g, &["d1-g4".to_string()]).unwrap();
        let same = judge(&engine, &g, &best, &best, t).unwrap();
        assert_eq!(same.best_after, same.played_after, "{same:?}");
        assert_eq!(judged_mark(&same), (0.0, None));
        let j = judge(&engine, &g, &best, &blunder, t).unwrap();
        assert!(j.depth >= 2, "{j:?}");
        assert!(
            j.best_after - j.played_after > 500,
            "the queen is lost: {j:?}"
        );
        assert_eq!(judged_mark(&j).1, Some("blunder"), "{j:?}");
        // Not a turn of this position: no judgement.
        let wrong = steps_of(&g, &["e7-e5".to_string()]);
        assert!(wrong.is_none());
    }

    #[test]
    fn a_many_step_turn_is_judged_after_its_last_step() {
        // Chesimals I: the engine's own turn against itself judges level.
        let v = cohort_rules::builtin("chesimals-1").unwrap();
        let g = Game::new(v.start());
        let mut engine = crate::EngineAgent::new(&v);
        let limits = crate::Limits {
            time: None,
            nodes: Some(20_000),
            seed: 1,
            threads: 1,
            clock: None,
        };
        let best = crate::Agent::choose_turn(&mut engine, &g, &limits).steps;
        assert!(best.len() > 1, "a turn of several steps: {best:?}");
        let j = judge(
            &engine,
            &g,
            &best,
            &best,
            std::time::Duration::from_millis(100),
        )
        .unwrap();
        assert_eq!(j.best_after, j.played_after);
        assert!(j.depth >= 1);
    }
}
