//! Every agent plays only legal, complete turns in every built-in variant, and the
//! engine is deterministic under a node limit.

use cohort_engine::matches::play_game;
use cohort_engine::{agent, Agent, EngineAgent, Limits};
use cohort_rules::{builtin_variants, Game};

fn limits(nodes: u64, seed: u64) -> Limits {
    Limits {
        time: None,
        nodes: Some(nodes),
        seed,
        threads: 1,
    }
}

#[test]
fn agents_play_legal_games_in_every_variant() {
    for v in builtin_variants() {
        for (a, b) in [
            ("engine", "random"),
            ("greedy", "engine"),
            ("random", "greedy"),
            ("planner", "engine"),
        ] {
            let mut x = agent(a, &v).unwrap();
            let mut y = agent(b, &v).unwrap();
            let r = play_game(
                v.start(),
                x.as_mut(),
                &limits(3000, 1),
                y.as_mut(),
                &limits(3000, 2),
                40,
            );
            assert_eq!(r.illegal, None, "{} {a} vs {b}", v.id);
            assert!(!r.turns.is_empty(), "{} {a} vs {b}", v.id);
            assert!(["1-0", "0-1", "1/2-1/2"].contains(&r.result.as_str()));
        }
    }
}

#[test]
fn engine_is_deterministic_for_a_seed_and_node_limit() {
    let v = cohort_rules::builtin("chieftain").unwrap();
    let game = Game::new(v.start());
    let a = EngineAgent::new(&v).choose_turn(&game, &limits(20_000, 5));
    let b = EngineAgent::new(&v).choose_turn(&game, &limits(20_000, 5));
    assert_eq!(a.steps, b.steps);
    assert_eq!(a.stats.nodes, b.stats.nodes);
    assert!(a.steps.last().unwrap().is_end());
}

#[test]
fn greedy_beats_random_and_engine_beats_greedy_in_mini_chieftain() {
    // A small deterministic sample (node-limited); the real matches are in docs/benchmarks.md.
    let v = cohort_rules::builtin("mini-chieftain").unwrap();
    let mut score = [0.0, 0.0];
    for seed in 0..4u64 {
        for (i, (a, b)) in [("greedy", "random"), ("engine", "greedy")]
            .iter()
            .enumerate()
        {
            let mut x = agent(a, &v).unwrap();
            let mut y = agent(b, &v).unwrap();
            let (lx, ly) = (limits(30_000, seed), limits(30_000, seed + 100));
            let r = if seed % 2 == 0 {
                play_game(v.start(), x.as_mut(), &lx, y.as_mut(), &ly, 200)
            } else {
                play_game(v.start(), y.as_mut(), &ly, x.as_mut(), &lx, 200)
            };
            score[i] += if seed % 2 == 0 {
                r.white_score()
            } else {
                1.0 - r.white_score()
            };
        }
    }
    assert!(score[0] >= 3.0, "greedy vs random scored {}/4", score[0]);
    assert!(score[1] >= 3.0, "engine vs greedy scored {}/4", score[1]);
}
