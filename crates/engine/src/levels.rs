//! AI levels 1 to 8 (docs/engine.md, "Levels"): opponents a newcomer can beat, each a
//! notch stronger than the one below.
//!
//! A level mixes three ways of choosing a turn: a random turn, the greedy turn (the best
//! whole turn by one turn's lookahead) and the engine's. Level 1 plays half its turns at
//! random and the rest greedily; level 2 is greedy; levels 3 to 7 play greedily in 70, 50,
//! 30, 15 and 5 turns of 100 and the engine's turn otherwise, held to 50,000 nodes (so
//! that they are alike on fast and slow machines; the turn's time still bounds it); level
//! 8 is the full engine with the time it is given. Which turns are which follows from the
//! seed and the game's length, so a game is reproducible. A greedy turn is the kind of
//! mistake a newcomer makes (it takes what it sees and misses the reply), and a mixture
//! gives decisive games where the engine held to fewer nodes shuffled to draws by the
//! quiet-turn rule (docs/engine.md).
//!
//! Agent names: `level1` to `level8`. Each level's strength, from matches against its
//! neighbours, is in docs/engine.md's level table.

use std::sync::Arc;

use cohort_rules::{Game, Variant};

use crate::{Agent, EngineAgent, GreedyAgent, Limits, RandomAgent, Rng, TurnChoice};

/// The levels, weakest first.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;
/// The level the pages offer first: a newcomer's fair opponent.
pub const DEFAULT: u8 = 3;

/// Per level, the share of turns (in percent) played at random, and played greedily (one
/// turn's lookahead); the others are the engine's.
const RANDOM_PERCENT: [u32; 8] = [50, 0, 0, 0, 0, 0, 0, 0];
const GREEDY_PERCENT: [u32; 8] = [50, 100, 70, 50, 30, 15, 5, 0];
/// Per level, the nodes of an engine turn (the first step's search gets them, each later
/// step a quarter: `Limits::nodes`); 0: the time alone bounds it.
const NODES: [u64; 8] = [0, 0, 50_000, 50_000, 50_000, 50_000, 50_000, 0];

/// The level an agent name names (`level1` to `level8`), if it names one.
pub fn level_of(name: &str) -> Option<u8> {
    let n = name.strip_prefix("level")?.parse::<u8>().ok()?;
    LEVELS.contains(&n).then_some(n)
}

/// What a player reads about a level (1 to 8), from the level's mixture.
pub fn describe(level: u8) -> String {
    let i = (level.clamp(1, 8) - 1) as usize;
    let (random, greedy) = (RANDOM_PERCENT[i], GREEDY_PERCENT[i]);
    match (random, greedy) {
        (0, 0) => "the full engine, with all its time".into(),
        (0, 100) => "greedy: the best of what its own turn can do, blind to the reply".into(),
        (r, g) if r > 0 => format!("a beginner: {r} turns in 100 at random, {g} greedy"),
        (_, g) => format!(
            "the engine in {} turns of 100 (held to {}k nodes), greedy in the others",
            100 - g,
            NODES[i] / 1000
        ),
    }
}

/// An AI level: `levelN` in agent names.
pub struct LevelAgent {
    level: u8,
    engine: EngineAgent,
    greedy: GreedyAgent,
}

impl LevelAgent {
    /// Level `level` (1 to 8) in `variant`; None for another number.
    pub fn new(level: u8, variant: &Arc<Variant>) -> Option<LevelAgent> {
        LEVELS.contains(&level).then(|| LevelAgent {
            level,
            engine: EngineAgent::new(variant),
            greedy: GreedyAgent::new(variant),
        })
    }
}

impl Agent for LevelAgent {
    fn name(&self) -> String {
        format!("level{}", self.level)
    }

    fn choose_turn(&mut self, game: &Game, limits: &Limits) -> TurnChoice {
        // Which kind of turn this one is: by the seed and the game's length (reproducible).
        let mut rng = Rng::new(limits.seed ^ 0x5eed_1e7e1 ^ (game.steps().len() as u64) << 8);
        let roll = rng.below(100) as u32;
        let i = self.level as usize - 1;
        if roll < RANDOM_PERCENT[i] {
            return RandomAgent.choose_turn(game, limits);
        }
        if roll < RANDOM_PERCENT[i] + GREEDY_PERCENT[i] {
            return self.greedy.choose_turn(game, limits);
        }
        let engine_limits = match NODES[i] {
            0 => limits.clone(),
            cap => Limits {
                nodes: Some(limits.nodes.map_or(cap, |n| n.min(cap))),
                ..limits.clone()
            },
        };
        self.engine.choose_turn(game, &engine_limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_named_and_described_from_their_mixture() {
        assert_eq!(level_of("level1"), Some(1));
        assert_eq!(level_of("level8"), Some(8));
        for bad in ["level0", "level9", "level", "levelx", "engine", "level-1"] {
            assert_eq!(level_of(bad), None, "{bad}");
        }
        assert!(
            describe(1).contains("50 turns in 100 at random"),
            "{}",
            describe(1)
        );
        assert!(
            describe(4).contains("the engine in 50 turns of 100"),
            "{}",
            describe(4)
        );
        assert!(describe(8).contains("full engine"));
        // Stronger level by level: fewer random and greedy turns.
        for i in 1..8 {
            assert!(
                RANDOM_PERCENT[i] + GREEDY_PERCENT[i]
                    < RANDOM_PERCENT[i - 1] + GREEDY_PERCENT[i - 1]
                    || RANDOM_PERCENT[i] < RANDOM_PERCENT[i - 1]
            );
        }
    }

    #[test]
    fn a_level_plays_a_legal_turn_and_the_same_one_for_the_same_seed() {
        let v = cohort_rules::builtin("chesimals-1").unwrap();
        let game = Game::new(v.start());
        let limits = Limits {
            time: None,
            nodes: Some(2_000),
            seed: 7,
            threads: 1,
            clock: None,
        };
        for level in LEVELS {
            let mut a = LevelAgent::new(level, &v).unwrap();
            let t1 = a.choose_turn(&game, &limits);
            let t2 = LevelAgent::new(level, &v)
                .unwrap()
                .choose_turn(&game, &limits);
            assert!(!t1.steps.is_empty(), "level {level}");
            assert_eq!(t1.steps, t2.steps, "level {level}: reproducible");
            let mut g = game.clone();
            for s in &t1.steps {
                assert!(g.play(*s).is_ok(), "level {level}: {s:?} is legal");
            }
        }
        assert!(LevelAgent::new(9, &v).is_none());
    }
}
