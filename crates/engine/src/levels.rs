//! AI levels 1 to 8 (docs/engine.md, "Levels"): opponents a newcomer can beat, each a
//! notch stronger than the one below.
//!
//! A level mixes three ways of choosing a turn: a random turn, the greedy turn (the best
//! whole turn by one turn's lookahead) and the engine's, held to a number of nodes (so that
//! a level is alike on fast and slow machines; the turn's time still bounds it). Level 8 is
//! the full engine with the time it is given. Which turns are which follows from the seed
//! and the game's length, so a game is reproducible.
//!
//! Two tables, chosen by what the family says its game is like (`SearchProfile`):
//! - games of many-step turns (`MANY_STEP`): level 1 plays most of its turns at random,
//!   level 2 half of them, and the rest greedily; from level 3 the engine plays more turns
//!   level by level, held to nodes that double with the level. A greedy turn is the kind of
//!   mistake a newcomer makes (it takes what it sees and misses the reply), a random one the
//!   blunder that breaks a locked front; the engine held to fewer nodes alone shuffled to
//!   draws by the quiet-turn rule.
//! - games of one-step turns (`ONE_STEP`: chess, Chessma 84): no greedy turns. A greedy
//!   chess move cannot mate: on the many-step table levels 1 to 4 drew most of their chess
//!   games (level 1 against greedy 35 of 40). The engine plays every turn that is not
//!   random, from 200 nodes at level 1 (which still mates a lone king) to 30,000 at level 7.
//!
//! Agent names: `level1` to `level8`; `mix-R-G-N` plays any mixture (for fitting the
//! tables). Each level's strength, from matches against its neighbours and greedy, is in
//! docs/engine.md's level tables.

use std::sync::Arc;

use cohort_rules::{Game, SearchHooks, Variant};

use crate::{Agent, EngineAgent, GreedyAgent, Limits, RandomAgent, Rng, TurnChoice};

/// The levels, weakest first.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;
/// The level the pages offer first: a newcomer's fair opponent.
pub const DEFAULT: u8 = 3;

/// How a level chooses its turns: the share of turns (in percent) played at random, and
/// played greedily (one turn's lookahead); the engine plays the others, held to `nodes`
/// nodes (the first step's search gets them, each later step a quarter: `Limits::nodes`;
/// 0: the time alone bounds it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mixture {
    pub random: u32,
    pub greedy: u32,
    pub nodes: u64,
}

const fn mix(random: u32, greedy: u32, nodes: u64) -> Mixture {
    Mixture {
        random,
        greedy,
        nodes,
    }
}

/// The levels' mixtures in games of many-step turns, weakest first. Every level below 8
/// plays some turns at random: where fronts lock (Chieftain Chess), an engine held to fewer
/// nodes and greedy turns drew every game with the level above by the quiet-turn rule, and a
/// random turn is what breaks a wall (docs/engine.md, "Levels").
const MANY_STEP: [Mixture; 8] = [
    mix(80, 20, 0),
    mix(50, 50, 0),
    mix(30, 50, 12_000),
    mix(20, 42, 25_000),
    mix(9, 26, 50_000),
    mix(6, 14, 100_000),
    mix(3, 7, 200_000),
    mix(0, 0, 0),
];

/// The levels' mixtures in games of one-step turns (chess, Chessma 84), weakest first: the
/// engine held to few nodes in place of greedy moves, which cannot mate (docs/engine.md).
const ONE_STEP: [Mixture; 8] = [
    mix(80, 0, 200),
    mix(60, 0, 300),
    mix(45, 0, 500),
    mix(32, 0, 1_000),
    mix(22, 0, 3_000),
    mix(12, 0, 10_000),
    mix(6, 0, 30_000),
    mix(0, 0, 0),
];

/// The level table of `variant`: by what its family says its game is like.
fn table(variant: &Arc<Variant>) -> &'static [Mixture; 8] {
    if variant.start().search_profile().one_step_turns {
        &ONE_STEP
    } else {
        &MANY_STEP
    }
}

/// A mixture an agent name spells out, `mix-R-G-N` (R turns in 100 at random, G greedy, the
/// engine held to N nodes in the others): the fitting of the level table tries these.
pub fn mixture_of(name: &str) -> Option<Mixture> {
    let mut parts = name.strip_prefix("mix-")?.split('-');
    let random = parts.next()?.parse::<u32>().ok()?;
    let greedy = parts.next()?.parse::<u32>().ok()?;
    let nodes = parts.next()?.parse::<u64>().ok()?;
    (parts.next().is_none() && random + greedy <= 100).then_some(mix(random, greedy, nodes))
}

/// The level an agent name names (`level1` to `level8`), if it names one.
pub fn level_of(name: &str) -> Option<u8> {
    let n = name.strip_prefix("level")?.parse::<u8>().ok()?;
    LEVELS.contains(&n).then_some(n)
}

/// The mixture of a level (1 to 8) in `variant`.
pub fn mixture(level: u8, variant: &Arc<Variant>) -> Mixture {
    table(variant)[(level.clamp(1, 8) - 1) as usize]
}

/// What a player reads about a level (1 to 8) in `variant`, from the level's mixture.
pub fn describe(level: u8, variant: &Arc<Variant>) -> String {
    describe_mixture(mixture(level, variant))
}

/// What a player reads about each level (1 to 8, weakest first) in `variant`: its table
/// looked up once (`GET /api/ai/levels` lists them all).
pub fn describe_all(variant: &Arc<Variant>) -> impl Iterator<Item = (u8, String)> {
    let table = table(variant);
    LEVELS.map(move |n| (n, describe_mixture(table[(n - 1) as usize])))
}

fn describe_mixture(m: Mixture) -> String {
    let engine = 100 - m.random - m.greedy;
    if engine == 100 && m.nodes == 0 {
        return "the full engine, with all its time".into();
    }
    let greedy = "greedy (the best its own turn can do, blind to the reply)";
    if engine == 0 {
        return format!(
            "a beginner: {} turns in 100 at random, {} {greedy}",
            m.random, m.greedy
        );
    }
    let nodes = match m.nodes {
        0 => "with all its time".to_string(),
        n if n < 1000 => format!("held to {n} nodes"),
        n => format!("held to {}k nodes", n / 1000),
    };
    let mut words = format!("the engine in {engine} turns of 100 ({nodes})");
    if m.random >= 50 {
        words.insert_str(0, "a beginner: ");
    }
    if m.greedy > 0 {
        words += &format!(", {} {greedy}", m.greedy);
    }
    if m.random > 0 {
        words += &format!(", {} at random", m.random);
    }
    words
}

/// An AI level (`levelN` in agent names), or any mixture (`mix-R-G-N`).
pub struct LevelAgent {
    name: String,
    mixture: Mixture,
    engine: EngineAgent,
    greedy: GreedyAgent,
}

impl LevelAgent {
    /// Level `level` (1 to 8) in `variant`; None for another number.
    pub fn new(level: u8, variant: &Arc<Variant>) -> Option<LevelAgent> {
        LEVELS
            .contains(&level)
            .then(|| LevelAgent::mixed(format!("level{level}"), mixture(level, variant), variant))
    }

    /// An agent playing `mixture`, named `name`.
    pub fn mixed(name: String, mixture: Mixture, variant: &Arc<Variant>) -> LevelAgent {
        LevelAgent {
            name,
            mixture,
            engine: EngineAgent::new(variant),
            greedy: GreedyAgent::new(variant),
        }
    }
}

impl Agent for LevelAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose_turn(&mut self, game: &Game, limits: &Limits) -> TurnChoice {
        // Which kind of turn this one is: by the seed and the game's length (reproducible).
        let mut rng = Rng::new(limits.seed ^ 0x5eed_1e7e1 ^ (game.steps().len() as u64) << 8);
        let roll = rng.below(100) as u32;
        let m = self.mixture;
        if roll < m.random {
            return RandomAgent.choose_turn(game, limits);
        }
        if roll < m.random + m.greedy {
            return self.greedy.choose_turn(game, limits);
        }
        let engine_limits = match m.nodes {
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
        let chesimals = cohort_rules::builtin("chesimals-1").unwrap();
        let chess = cohort_rules::builtin("chess").unwrap();
        let chessma = cohort_rules::builtin("chessma-84").unwrap();
        assert_eq!(
            describe(1, &chesimals),
            "a beginner: 80 turns in 100 at random, 20 greedy (the best its own turn can do, \
             blind to the reply)"
        );
        assert_eq!(
            describe(4, &chesimals),
            "the engine in 38 turns of 100 (held to 25k nodes), 42 greedy (the best its own \
             turn can do, blind to the reply), 20 at random"
        );
        // Games of one-step turns have their own table: no greedy moves.
        assert_eq!(
            describe(1, &chess),
            "a beginner: the engine in 20 turns of 100 (held to 200 nodes), 80 at random"
        );
        assert_eq!(
            describe(5, &chessma),
            "the engine in 78 turns of 100 (held to 3k nodes), 22 at random"
        );
        for v in [&chesimals, &chess] {
            assert_eq!(describe(8, v), "the full engine, with all its time");
            let all: Vec<(u8, String)> = describe_all(v).collect();
            assert_eq!(all.len(), 8);
            assert!(all.iter().all(|(n, about)| *about == describe(*n, v)));
        }
        // Stronger level by level: no more random turns, no more turns off the engine,
        // no fewer nodes for the engine's turns (0: only the time bounds them), and one of
        // them strictly.
        let nodes = |m: Mixture| match (m.random + m.greedy, m.nodes) {
            (100, _) => 0,
            (_, 0) => u64::MAX,
            (_, n) => n,
        };
        for (name, table) in [("many-step", &MANY_STEP), ("one-step", &ONE_STEP)] {
            for i in 1..8 {
                let (lo, hi) = (table[i - 1], table[i]);
                assert!(
                    hi.random <= lo.random
                        && hi.random + hi.greedy <= lo.random + lo.greedy
                        && nodes(hi) >= nodes(lo)
                        && hi != lo,
                    "{name}: level {} is no stronger than level {i}",
                    i + 1
                );
            }
            assert_eq!(table[7], mix(0, 0, 0), "{name}: level 8 is the full engine");
        }
        assert_eq!(mixture_of("mix-5-10-80000"), Some(mix(5, 10, 80_000)));
        for bad in [
            "mix-5-10",
            "mix-60-50-0",
            "mix-a-1-2",
            "mix-1-2-3-4",
            "level3",
        ] {
            assert_eq!(mixture_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_level_plays_a_legal_turn_and_the_same_one_for_the_same_seed() {
        for id in ["chesimals-1", "chess"] {
            let v = cohort_rules::builtin(id).unwrap();
            levels_play_legal_turns(&v);
        }
    }

    fn levels_play_legal_turns(v: &Arc<Variant>) {
        let game = Game::new(v.start());
        let limits = Limits {
            time: None,
            nodes: Some(2_000),
            seed: 7,
            threads: 1,
            clock: None,
        };
        for level in LEVELS {
            let mut a = LevelAgent::new(level, v).unwrap();
            let t1 = a.choose_turn(&game, &limits);
            let t2 = LevelAgent::new(level, v)
                .unwrap()
                .choose_turn(&game, &limits);
            assert!(!t1.steps.is_empty(), "level {level}");
            assert_eq!(t1.steps, t2.steps, "level {level}: reproducible");
            let mut g = game.clone();
            for s in &t1.steps {
                assert!(g.play(*s).is_ok(), "level {level}: {s:?} is legal");
            }
        }
        assert!(LevelAgent::new(9, v).is_none());
    }
}
