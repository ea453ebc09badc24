//! The tactical suite: every position of tests/tactics.tsv, where the side to move can
//! capture the last enemy royal(s) this turn ("win"), or must stop the opponent doing so
//! next turn ("defend"). The engine plays its turn under a fixed node budget (about what it
//! searches in 0.2 s here; fixed so the test is deterministic) and the answer is checked
//! exactly by brute force (src/tactics.rs).

use cohort_engine::tactics::win_this_turn;
use cohort_engine::{Agent, EngineAgent, Limits};
use cohort_rules::Rules;
use cohort_rules::{builtin, Game, Outcome, Position, Side, StepList};
use std::collections::HashMap;

const NODES: u64 = 300_000;

/// Can the side to move win (take the last enemy royal(s)) at some point of its current
/// turn, by any sequence of legal steps of that turn, `end` included, whatever its length?
/// Exact: searched with a bound on the unit moves of 1, 2, 3, ... until a win is found or
/// no sequence was cut short by the bound (then every sequence of the turn was searched).
/// A position (with its turn state, which the hash includes) already searched with at
/// least as many moves left is not searched again.
fn wins_this_whole_turn(pos: &mut Position) -> bool {
    let mover = pos.side_to_move();
    for bound in 1.. {
        let mut searched = HashMap::new();
        let mut cut = false;
        if whole_turn(pos, mover, bound, &mut searched, &mut cut) {
            return true;
        }
        if !cut {
            return false;
        }
    }
    unreachable!()
}

fn whole_turn(
    pos: &mut Position,
    mover: Side,
    left: u32,
    searched: &mut HashMap<u64, u32>,
    cut: &mut bool,
) -> bool {
    match pos.outcome() {
        Some(outcome) => return outcome == Outcome::Win(mover),
        None if pos.side_to_move() != mover => return false,
        None => {}
    }
    if searched.get(&pos.hash()).is_some_and(|&done| done >= left) {
        return false;
    }
    searched.insert(pos.hash(), left);
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &step in list.iter() {
        if left == 0 && !step.is_end() {
            *cut = true;
            continue;
        }
        let undo = pos.make(step);
        let won = whole_turn(pos, mover, left - !step.is_end() as u32, searched, cut);
        pos.unmake(step, undo);
        if won {
            return true;
        }
    }
    false
}

#[test]
fn engine_solves_every_tactical_position() {
    solve_the_suite(1);
}

/// With two search threads (the root's steps shared, src/split.rs) the answers hold too: the
/// node budget bounds the main thread's search, the helper adds to it.
#[test]
fn engine_with_two_threads_solves_every_tactical_position() {
    solve_the_suite(2);
}

fn solve_the_suite(threads: usize) {
    let text = include_str!("tactics.tsv");
    let (mut failures, mut counts) = (Vec::new(), std::collections::BTreeMap::new());
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (id, kind, fen) = (f[0], f[1], f[3]);
        let v = builtin(id).unwrap();
        let pos = Position::parse(&v, fen).unwrap();
        let mover = pos.side_to_move();
        let game = Game::new(pos.clone());
        let mut engine = EngineAgent::new(&v);
        // COHORT_TACTICS_MS=200 runs the suite on the clock instead (docs/benchmarks.md).
        let limits = match std::env::var("COHORT_TACTICS_MS")
            .ok()
            .and_then(|m| m.parse().ok())
        {
            Some(ms) => Limits {
                time: Some(std::time::Duration::from_millis(ms)),
                nodes: None,
                seed: 1,
                threads,
                clock: None,
            },
            None => Limits {
                time: None,
                nodes: Some(NODES),
                seed: 1,
                threads,
                clock: None,
            },
        };
        let choice = engine.choose_turn(&game, &limits);
        let mut after = pos.clone();
        for &s in &choice.steps {
            assert!(
                after.is_legal(s),
                "{id} {fen}: illegal step {}",
                after.step_text(s)
            );
            after.make(s);
        }
        let family = if id.starts_with("chesimals") {
            "chesimals"
        } else {
            "chieftain"
        };
        *counts.entry(family).or_insert(0) += 1;
        let ok = match kind {
            "win" => after.outcome() == Some(Outcome::Win(mover)),
            // The defence must hold against every win the opponent has in its whole next
            // turn, however many steps that turn takes (a Chieftain turn moves up to one
            // piece per Chieftain), not only against wins in `max_moves` moves.
            "defend" => {
                after.outcome() == Some(Outcome::Win(mover)) || !wins_this_whole_turn(&mut after)
            }
            other => panic!("unknown kind {other}"),
        };
        if !ok {
            failures.push(format!("{id} {kind} {fen}"));
        }
    }
    assert!(
        counts.values().all(|&n| n >= 30),
        "at least 30 positions per family: {counts:?}"
    );
    assert!(
        failures.is_empty(),
        "{} missed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn suite_answers_are_real() {
    // Each "win" position really has a win this turn; each "defend" one really is threatened.
    // Both also by the whole-turn search the defences are judged with.
    for line in include_str!("tactics.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let v = builtin(f[0]).unwrap();
        let mut pos = Position::parse(&v, f[3]).unwrap();
        match f[1] {
            "win" => {
                assert!(win_this_turn(&mut pos.clone(), 3).is_some(), "{line}");
                assert!(wins_this_whole_turn(&mut pos), "{line}");
            }
            _ => {
                let mut threat = cohort_engine::tactics::other_side_to_move(&pos).unwrap();
                assert!(win_this_turn(&mut threat.clone(), 2).is_some(), "{line}");
                assert!(wins_this_whole_turn(&mut threat), "{line}");
            }
        }
    }
}
