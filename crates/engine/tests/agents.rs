//! Every agent plays only legal, complete turns in every built-in variant, and the
//! engine is deterministic under a node limit.

use cohort_engine::matches::play_game;
use cohort_engine::{agent, Agent, EngineAgent, Limits};
use cohort_rules::Rules;
use cohort_rules::{builtin_variants, Game};

fn limits(nodes: u64, seed: u64) -> Limits {
    Limits {
        time: None,
        nodes: Some(nodes),
        seed,
        threads: 1,
        clock: None,
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
            // The record replays legally to the result it states: the rules' own verdict,
            // or the turn cap of 40 with the game still going.
            let mut g = cohort_rules::Game::new(v.start());
            for turn in &r.turns {
                let side = g.position().side_to_move();
                for s in turn {
                    g.play_text(s)
                        .unwrap_or_else(|e| panic!("{} {a} vs {b}: {s}: {e}", v.id));
                }
                if g.result().is_none() && g.position().side_to_move() == side {
                    g.play_text("end").unwrap();
                }
            }
            let (result, reason) = match g.result() {
                Some((cohort_rules::Outcome::Win(cohort_rules::Side::White), why)) => {
                    ("1-0", why.describe().to_string())
                }
                Some((cohort_rules::Outcome::Win(cohort_rules::Side::Black), why)) => {
                    ("0-1", why.describe().to_string())
                }
                Some((cohort_rules::Outcome::Draw, why)) => ("1/2-1/2", why.describe().to_string()),
                None => {
                    assert_eq!(
                        r.turns.len(),
                        40,
                        "{} {a} vs {b}: unfinished before the cap",
                        v.id
                    );
                    ("1/2-1/2", "turn cap (40)".to_string())
                }
            };
            assert_eq!(
                (r.result.as_str(), r.reason.clone()),
                (result, reason),
                "{} {a} vs {b}",
                v.id
            );
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

#[test]
fn engine_runs_the_last_chieftain_down_in_chieftain_chess() {
    // Two ends of real games that the engine drew by the 100-turn quiet rule before it learnt
    // to hunt: its army stands on the far rank (where the push for locked fronts took it) and
    // the opponent's last Chieftain wanders behind it. Now it must win both, well inside the
    // 100 quiet turns, as White and as Black, against the greedy agent.
    let v = cohort_rules::builtin("chieftain").unwrap();
    for (text, engine_plays_white) in [
        ("MMMHMMM1MCCM4/2C13/16/16/16/16/16/16/16/16/16/14c1 w", true),
        ("14C1/16/16/16/16/16/16/16/16/16/16/m1mcmcm3cmmm2 w", false),
    ] {
        let start = cohort_rules::Position::parse(&v, text).unwrap();
        let mut engine = agent("engine", &v).unwrap();
        let mut greedy = agent("greedy", &v).unwrap();
        let (e, g) = (limits(20_000, 1), limits(20_000, 2));
        let (white, wl, black, bl) = if engine_plays_white {
            (engine.as_mut(), &e, greedy.as_mut(), &g)
        } else {
            (greedy.as_mut(), &g, engine.as_mut(), &e)
        };
        let r = play_game(start, white, wl, black, bl, 100);
        let won = if engine_plays_white { "1-0" } else { "0-1" };
        assert_eq!(
            (r.result.as_str(), r.reason.as_str()),
            (won, "victory"),
            "{text}: {} turns",
            r.turns.len()
        );
        assert!(r.turns.len() < 90, "{text}: took {} turns", r.turns.len());
    }
}

/// On a clock (`Limits::clock`) a side whose turn takes longer than its clock has left
/// loses, that turn unplayed; each turn is planned from the clock as it stands.
#[test]
fn a_side_whose_clock_runs_out_loses_the_game() {
    /// Random turns, each after a pause longer than half the clock it starts with.
    struct Slow(Vec<Option<std::time::Duration>>);
    impl Agent for Slow {
        fn name(&self) -> String {
            "slow".into()
        }
        fn choose_turn(&mut self, game: &Game, limits: &Limits) -> cohort_engine::TurnChoice {
            self.0.push(limits.time);
            std::thread::sleep(std::time::Duration::from_millis(60));
            agent("random", game.position().variant())
                .unwrap()
                .choose_turn(game, limits)
        }
    }
    let v = cohort_rules::builtin("chieftain").unwrap();
    let on_clock = Limits {
        time: None,
        nodes: None,
        seed: 1,
        threads: 1,
        clock: Some(cohort_engine::Clock::new(100, 0)),
    };
    let mut slow = Slow(vec![]);
    let mut quick = agent("random", &v).unwrap();
    let r = play_game(
        v.start(),
        &mut slow,
        &on_clock,
        quick.as_mut(),
        &on_clock,
        40,
    );
    assert_eq!(
        (r.result.as_str(), r.reason.as_str()),
        ("0-1", "out of time")
    );
    // 100 ms, less 60 for the first turn: the second turn runs out, unplayed.
    assert_eq!(r.turns.len(), 2, "{:?}", r.turns);
    assert_eq!(r.min_clock_ms[0], Some(0));
    assert!(
        r.min_clock_ms[1].is_some_and(|ms| ms > 50),
        "{:?}",
        r.min_clock_ms
    );
    // Each turn was planned from the clock left: 100 ms, then less.
    assert_eq!(slow.0.len(), 2);
    assert!(slow.0[0] > slow.0[1], "{:?}", slow.0);
}
