//! Cohort's AI. One interface, [`Agent`], plays a whole turn: `random` (uniform legal steps),
//! `greedy` (best turn by one-turn lookahead on the evaluation) and `engine` (turn-aware
//! alpha-beta over steps, see search.rs). The match runner plays agents against each other.

pub mod eval;
pub mod levels;
pub mod marks;
pub mod matches;
pub mod planner;
pub mod record;
pub mod search;
mod split;
pub mod sprt;
pub mod tactics;
pub mod time;
pub mod tune;

pub use sprt::{los, Hypothesis, Sprt};

use crate::time::Instant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use cohort_rules::{Family, Game, Position, Rules, SearchHooks, Step, StepList, Variant, Visit};

use eval::{score_for, Weights};
use search::Searcher;

/// What an agent may spend on one turn. Deterministic for a seed and a node limit.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Time for the whole turn; the agent stops in time to answer within it.
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    pub seed: u64,
    /// Search threads (1: deterministic for a seed and node limit).
    pub threads: usize,
    /// The game's clocks when it is played on time (`go wtime ...`, `cohort match --clock`):
    /// `time` is then the turn's planned time, and the engine may spend up to
    /// `Clock::turn_cap` on a turn whose first search is unsettled (`EngineAgent::turn_from`).
    pub clock: Option<Clock>,
}

/// Both sides' clocks, in milliseconds, at the start of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left, White's then Black's.
    pub left_ms: [u64; 2],
    /// Added after each of the side's turns.
    pub inc_ms: [u64; 2],
    /// Turns to play before the clock is topped up (None: unknown, 30 assumed).
    pub turns_to_go: Option<u64>,
}

impl Clock {
    /// The same clock for both sides.
    pub fn new(left_ms: u64, inc_ms: u64) -> Clock {
        Clock {
            left_ms: [left_ms; 2],
            inc_ms: [inc_ms; 2],
            turns_to_go: None,
        }
    }

    /// The planned time of `side`'s turn (`clock_turn_time`).
    pub fn turn_time(&self, side: cohort_rules::Side) -> Duration {
        let s = side.index();
        Duration::from_millis(clock_turn_time(
            self.left_ms[s],
            self.inc_ms[s],
            self.turns_to_go.unwrap_or(30),
        ))
    }

    /// The most a critical turn of `side` may take: three planned turns, and never more
    /// than a quarter of what is left (nor less than the planned time).
    pub fn turn_cap(&self, side: cohort_rules::Side) -> Duration {
        let planned = self.turn_time(side);
        let quarter = Duration::from_millis(self.left_ms[side.index()] / 4);
        (planned * 3).min(quarter).max(planned)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Some(Duration::from_millis(200)),
            nodes: None,
            seed: 1,
            threads: 1,
            clock: None,
        }
    }
}

/// The time to spend on one turn, in milliseconds, for a side with `left_ms` on its clock,
/// `inc_ms` added after each turn and `turns_to_go` turns to play before the clock is
/// topped up (30 when unknown): an even share of the clock plus three quarters of the
/// increment, never more than half of what is left, and at least 1. One rule for
/// `cohort engine`, `cohort uci` and the server's AI.
pub fn clock_turn_time(left_ms: u64, inc_ms: u64, turns_to_go: u64) -> u64 {
    (left_ms / turns_to_go.max(1) + inc_ms * 3 / 4)
        .min(left_ms / 2)
        .max(1)
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub depth: u32,
    pub elapsed: Duration,
    pub tt_probes: u64,
    pub tt_hits: u64,
}

impl Stats {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// Count a later search of the same turn in: its nodes and table probes (the depth and
    /// time stay the first search's).
    pub fn add_search(&mut self, more: &Stats) {
        self.nodes += more.nodes;
        self.tt_probes += more.tt_probes;
        self.tt_hits += more.tt_hits;
    }
    pub fn tt_hit_rate(&self) -> f64 {
        self.tt_hits as f64 / (self.tt_probes.max(1)) as f64
    }
}

/// A chosen turn: its steps (ending with `end` unless the game ended mid-turn), the score
/// for the side that played it, and the principal variation beyond it.
#[derive(Clone, Debug, Default)]
pub struct TurnChoice {
    pub steps: Vec<Step>,
    /// The first step's search's score, for the side to move.
    pub score: i32,
    /// The turn's steps, then the line its last search expects after them.
    pub pv: Vec<Step>,
    pub stats: Stats,
}

pub trait Agent: Send {
    fn name(&self) -> String;
    /// Choose every step of the side to move's turn. The game must not be over.
    fn choose_turn(&mut self, game: &Game, limits: &Limits) -> TurnChoice;
}

/// The agents built by name alone (`agent`), besides the levels and mixtures.
const PLAIN_AGENTS: [&str; 4] = ["random", "greedy", "engine", "planner"];

/// Whether `agent` builds an agent of this name (no variant needed to say so).
pub fn is_agent(name: &str) -> bool {
    PLAIN_AGENTS.contains(&name)
        || levels::level_of(name).is_some()
        || levels::mixture_of(name).is_some()
}

/// Build an agent from its name: `random`, `greedy`, `engine`, a level, `level1` to
/// `level8`, or a mixture `mix-R-G-N` as the levels mix their turns (levels.rs).
pub fn agent(name: &str, variant: &Arc<Variant>) -> Option<Box<dyn Agent>> {
    if let Some(level) = levels::level_of(name) {
        return Some(Box::new(levels::LevelAgent::new(level, variant)?));
    }
    if let Some(mixture) = levels::mixture_of(name) {
        return Some(Box::new(levels::LevelAgent::mixed(
            name.into(),
            mixture,
            variant,
        )));
    }
    match name {
        "random" => Some(Box::new(RandomAgent)),
        "greedy" => Some(Box::new(GreedyAgent {
            weights: Weights::new(variant),
        })),
        "engine" => Some(Box::new(EngineAgent::new(variant))),
        "planner" => Some(Box::new(EngineAgent::with_planner(variant))),
        _ => None,
    }
}

/// xorshift64*: small, fast, seeded.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// A placement turn (free set-up) built to form a valid body: Torso, then Limbs chained to
/// it, the Head next to the Torso, Hands and Feet next to a Limb, Hair next to any of those.
/// Random among the squares that keep the body connected; None if no try succeeded.
pub fn body_placement(pos: &Position, rng: &mut Rng) -> Option<Vec<Step>> {
    use cohort_rules::BodyRole::*;
    let v = pos.variant().clone();
    let side = pos.side_to_move();
    let role = |k: usize| v.pieces[k].role;
    let order = [Torso, Limb, Head, Hand, Foot, Hair];
    for _ in 0..200 {
        let mut p = pos.clone();
        let mut steps = Vec::new();
        let mut stuck = false;
        for want in order {
            while let Some(kind) = (0..v.pieces.len())
                .find(|&k| role(k) == Some(want) && cohort_rules::pocket(&p, side)[k] > 0)
            {
                let mut list = StepList::new();
                p.legal_steps(&mut list);
                let anchor_roles: &[cohort_rules::BodyRole] = match want {
                    Torso => &[],
                    Limb | Head => &[Torso, Limb],
                    Hand | Foot => &[Limb],
                    Hair => &[Head, Torso, Hand, Foot, Hair],
                };
                let anchors: cohort_rules::Bitboard = cohort_rules::all_units(&p)
                    .filter(|u| {
                        u.side == side
                            && role(u.kind as usize).is_some_and(|r| anchor_roles.contains(&r))
                    })
                    .map(|u| u.square)
                    .collect();
                let spots: Vec<Step> = list
                    .iter()
                    .copied()
                    .filter(|s| s.kind == cohort_rules::StepKind::Drop(kind as u8))
                    .filter(|s| {
                        want == Torso
                            || (anchors.king_dilate() & cohort_rules::Bitboard::from_square(s.to))
                                .any()
                    })
                    .filter(|s| {
                        want != Head
                            || cohort_rules::all_units(&p).any(|u| {
                                u.side == side
                                    && role(u.kind as usize) == Some(Torso)
                                    && u.square.distance(s.to) == 1
                            })
                    })
                    .collect();
                if spots.is_empty() {
                    stuck = true;
                    break;
                }
                let s = spots[rng.below(spots.len())];
                p.make(s);
                steps.push(s);
            }
            if stuck {
                break;
            }
        }
        if !stuck && p.is_legal(Step::END) {
            steps.push(Step::END);
            return Some(steps);
        }
    }
    None
}

/// During a free set-up every agent places a valid body (`body_placement`); None when the
/// side to move has nothing to place (or is inside its turn).
pub fn placement_turn(game: &Game, seed: u64) -> Option<TurnChoice> {
    let pos = game.position();
    if cohort_rules::pocket(pos, pos.side_to_move())
        .iter()
        .all(|&n| n == 0)
        || !pos.at_turn_start()
    {
        return None;
    }
    let mut rng = Rng::new(seed ^ 0xB0D1);
    body_placement(pos, &mut rng).map(|steps| TurnChoice {
        steps,
        ..TurnChoice::default()
    })
}

/// Plays the steps of a turn from `pos` until the side changes or the game ends.
fn finish_turn<R: Family>(pos: &mut R, mut pick: impl FnMut(&R, &StepList) -> Step) -> Vec<Step> {
    let side = pos.side_to_move();
    let mut steps = Vec::new();
    let mut list = StepList::new();
    while pos.side_to_move() == side && pos.outcome().is_none() {
        pos.legal_steps(&mut list);
        if list.is_empty() {
            break;
        }
        let s = pick(pos, &list);
        pos.make(s);
        steps.push(s);
    }
    steps
}

/// The greedy agent's turn, on the family's own position type.
struct GreedyTurn<'a> {
    weights: &'a Weights,
    budget: Option<std::time::Duration>,
    started: Instant,
    seed: u64,
}

impl Visit for GreedyTurn<'_> {
    /// Nodes, and the best turn with its score (times 64, ties broken by the seed).
    type Output = (u64, Option<(i32, Vec<Step>)>);
    fn visit<R: Family>(self, root: R) -> Self::Output {
        let mover = root.side_to_move();
        let mut first = StepList::new();
        root.legal_steps(&mut first);
        let mut best: Option<(i32, Vec<Step>)> = None;
        let mut nodes = 0u64;
        let mut rng = Rng::new(self.seed);
        // Nine tenths of the time: a turn always has its first candidate, then as many more as fit.
        let (budget, started) = (self.budget, self.started);
        for &s0 in first.iter() {
            if best.is_some() && budget.is_some_and(|b| started.elapsed() >= b) {
                break;
            }
            let mut pos = root.clone();
            pos.make(s0);
            let mut steps = vec![s0];
            // Extend the turn unless this step closed it (chess) or ended the game.
            if pos.side_to_move() == mover {
                steps.extend(finish_turn(&mut pos, |p, list| {
                    let mut best = (i32::MIN, list.as_slice()[0]);
                    let mut q = p.clone();
                    for &s in list.iter() {
                        let undo = q.make(s);
                        nodes += 1;
                        let v = score_for(&q, mover, self.weights);
                        q.unmake(s, undo);
                        if v > best.0 {
                            best = (v, s);
                        }
                    }
                    best.1
                }));
            }
            // Ties broken by the seed, so equal turns do not always go to the first unit.
            let score = score_for(&pos, mover, self.weights) * 64 + rng.below(64) as i32;
            if best.as_ref().is_none_or(|b| score > b.0) {
                best = Some((score, steps));
            }
        }
        (nodes, best)
    }
}

/// Uniform over the legal steps at every step of the turn.
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose_turn(&mut self, game: &Game, limits: &Limits) -> TurnChoice {
        if let Some(choice) = placement_turn(game, limits.seed) {
            return choice;
        }
        let started = Instant::now();
        let mut rng = Rng::new(limits.seed ^ game.steps().len() as u64);
        let mut pos = game.position().clone();
        let steps = finish_turn(&mut pos, |_, list| list.as_slice()[rng.below(list.len())]);
        TurnChoice {
            stats: Stats {
                nodes: steps.len() as u64,
                elapsed: started.elapsed(),
                ..Stats::default()
            },
            steps,
            ..TurnChoice::default()
        }
    }
}

/// One-turn lookahead: from every first step, extend the turn greedily (the step whose
/// result evaluates best for the mover, `end` included) and keep the best whole turn.
pub struct GreedyAgent {
    weights: Weights,
}

impl GreedyAgent {
    pub fn new(variant: &Arc<Variant>) -> GreedyAgent {
        GreedyAgent {
            weights: Weights::new(variant),
        }
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose_turn(&mut self, game: &Game, limits: &Limits) -> TurnChoice {
        if let Some(choice) = placement_turn(game, limits.seed) {
            return choice;
        }
        let started = Instant::now();
        let seed = limits.seed ^ game.steps().len() as u64;
        let best = game.position().clone().visit(GreedyTurn {
            weights: &self.weights,
            budget: limits.time.map(|t| t * 9 / 10),
            started,
            seed,
        });
        let (nodes, (score, steps)) = (best.0, best.1.unwrap_or_default());
        TurnChoice {
            steps,
            score: score / 64,
            pv: vec![],
            stats: Stats {
                nodes,
                elapsed: started.elapsed(),
                ..Stats::default()
            },
        }
    }
}

/// Whether the side to move has at least twice the opponent's material, royal units
/// not counted.
fn far_ahead(pos: &Position, w: &Weights) -> bool {
    let me = pos.side_to_move();
    let mut material = [0i64; 2];
    for u in cohort_rules::all_units(pos) {
        if !w.royal[u.kind as usize] {
            material[u.side.index()] += w.value[u.kind as usize] as i64;
        }
    }
    let (mine, theirs) = (material[me.index()], material[1 - me.index()]);
    mine > 0 && theirs * 2 <= mine
}

/// Turn-aware alpha-beta over steps with iterative deepening (search.rs).
pub struct EngineAgent {
    weights: Weights,
    /// The `planner` agent (experimental): in games of long turns (the chain model, or three
    /// or more activating leaders) the turn planner (planner.rs) chooses the turn when the
    /// step search finds no decisive tactic. Measured weaker than the plain engine so far
    /// (docs/benchmarks.md), hence not the default.
    long_turns: bool,
    /// Fronts lock (three or more leaders with a range, Chieftain Chess; the lead model,
    /// Chesimal Fusion): the hunt when far ahead; see `adapt_to`.
    locking_fronts: bool,
    /// Long turns (Chesimals: up to a dozen steps of one side), where plain alpha-beta
    /// prunes little; late quiet steps inside a turn are searched shallower first.
    reduce_in_turn: bool,
    /// A turn is one step: its first search may take all of the turn's time.
    one_step_turns: bool,
    /// Kept across searches (and turns); shared by the search threads.
    table: search::Table,
    /// Quiescence looks for captures off the destination square too (`Searcher::ultima`).
    ultima: bool,
    /// Deepest search of each step of a turn, in steps (64: no limit but time and nodes).
    max_depth: u32,
    /// The game's turn starts a search may repeat (search.rs, `Searcher::seen`); set by
    /// `adapt_to` for each turn.
    seen: Vec<u64>,
    /// How near the quiet-turn draw the game is (`Searcher::quiet_pull`); set by `adapt_to`.
    quiet_pull: i32,
}

/// A fall of the first search's score, from two finished depths before to the end, that
/// makes a turn critical (`critical`).
const CRITICAL_FALL: i32 = 30;

/// Whether the first search of a turn is unsettled enough to deserve more time on a clock:
/// its best step changed at its last finished depth (or in the depth it was stopped in), or
/// its score fell by `CRITICAL_FALL` or more since two depths before (compared two depths
/// apart because scores swing with the side that ends the line).
fn critical(depths: &[(Option<Step>, i32)], out: &search::Outcome_) -> bool {
    let n = depths.len();
    if n < 3 || out.score.abs() >= search::WIN - 1000 {
        return false;
    }
    let changed = depths[n - 1].0 != depths[n - 2].0 || out.best != depths[n - 1].0;
    let fell = out.score < depths[n - 3].1 - CRITICAL_FALL;
    changed || fell
}

/// The engine's contempt for draws, in the evaluation's units (a Chieftain Man is worth
/// 152): it would rather play on a little behind than repeat an equal position or let the
/// game end drawn. Against 114ee5a in chieftain, 40 cut the repetitions from 26 games in
/// 100 to 13 and scored +89 +- 49, where 0 scored +56 +- 46 on the same openings
/// (docs/benchmarks.md, eighteenth session).
const CONTEMPT: i32 = 40;

/// Half the width of the aspiration window of each depth after the first
/// (`Searcher::aspiration`).
const ASPIRATION: i32 = 0;

/// Null moves at turn starts, in every family that has them (`SearchHooks::make_null`).
/// With the one-step games' reductions, against f644466 at 100 ms a turn: chess +295,
/// chessma-84 +56; with reverse futility at turn starts (`FUTILITY_IN_LONG_TURNS`):
/// chesimals-1 +56, chesimal-fusion-1 +45 (docs/engine.md, "Null moves and reductions").
const NULL_MOVE: bool = true;

/// Reverse futility at turn starts in games of many-step turns too (one-step games have
/// it with their reductions, `Searcher::one_step`).
const FUTILITY_IN_LONG_TURNS: bool = true;

/// Near the quiet-turn draw, lines without a capture scored towards the draw
/// (`Searcher::quiet_pull`). Built, measured, off: against f644466 in chieftain, where 97
/// games in 100 were drawn by the rule, it traded more (182 turns a game instead of 114)
/// and still drew 99 (0-99-1).
const QUIET_PULL: bool = false;

/// Quiescence also makes the steps that may capture off their destination (Chessma 84's
/// Ultima pieces, `SearchHooks::may_capture_elsewhere`). Built and measured: it halves the nodes
/// searched a second and won no more games (docs/engine.md), so it is off.
const ULTIMA_QUIESCENCE: bool = false;

impl EngineAgent {
    pub fn new(variant: &Arc<Variant>) -> EngineAgent {
        // The family says what its game is like; the engine tests no model.
        let profile = variant.start().search_profile();
        EngineAgent {
            long_turns: false,
            locking_fronts: profile.locking_fronts,
            reduce_in_turn: profile.reduce_in_turn,
            one_step_turns: profile.one_step_turns,
            weights: Weights::with_profile(variant, &profile),
            table: search::Table::new(18),
            ultima: ULTIMA_QUIESCENCE && variant.ultima_captures(),
            max_depth: 64,
            seen: Vec::new(),
            quiet_pull: 0,
        }
    }

    /// Search each step of a turn at most `depth` steps deep (`cohort balance --depth`):
    /// with no time limit the engine's play is then a function of the position alone.
    pub fn set_max_depth(&mut self, depth: u32) {
        self.max_depth = depth.clamp(1, 64);
    }

    /// The engine with the turn planner for long turns (the `planner` agent).
    pub fn with_planner(variant: &Arc<Variant>) -> EngineAgent {
        EngineAgent {
            long_turns: variant.start().search_profile().long_turns,
            ..EngineAgent::new(variant)
        }
    }

    /// Set the evaluation for the state of `game` as `choose_turn` does (Chieftain Chess and
    /// Chesimal Fusion: run the enemy royals down when far ahead); the table is cleared when
    /// the evaluation changes.
    pub fn adapt_to(&mut self, game: &Game) {
        self.seen = game.repeatable_turn_starts().to_vec();
        // Far ahead in material: run the enemy royals down (otherwise the army stands on
        // the far side, the last royals wander behind it and the quiet-turn rule draws a won
        // game). There was also a push forward after three turns without a capture (80 a
        // rank): it beat `greedy`, but against 114ee5a the engine without it scored +177
        // instead of +104 in Chieftain Chess and +200 instead of +45 in Fusion
        // (docs/benchmarks.md, nineteenth session), so it went.
        self.quiet_pull = match game.position().variant().quiet_turns {
            0 => 0,
            limit => (game.quiet_turns() as i32 * 1000 / limit as i32).min(1000),
        };
        let hunt = if self.locking_fronts && far_ahead(game.position(), &self.weights) {
            20
        } else {
            0
        };
        if hunt != self.weights.hunt {
            self.weights.hunt = hunt;
            self.table.clear();
        }
    }

    /// A search to exactly `depth` steps with no time limit (deterministic; `cohort bench`).
    pub fn think_to_depth(&self, pos: &Position, depth: u32) -> (search::Outcome_, Stats) {
        let unlimited = Limits {
            time: None,
            nodes: None,
            seed: 0,
            threads: 1,
            clock: None,
        };
        self.think_limited(pos, &unlimited, depth, None, |_, _| {})
    }

    /// Search from `pos` within the limits and return the root step, score, line and stats.
    pub fn think(
        &self,
        pos: &Position,
        limits: &Limits,
        stop: Option<&AtomicBool>,
        report: impl FnMut(&search::Outcome_, u64),
    ) -> (search::Outcome_, Stats) {
        self.think_limited(pos, limits, 64, stop, report)
    }

    /// `think` that also stops after `max_depth` steps (UCI `go depth`). The search runs on
    /// the family's own position type (`Position::visit`): chess and Chessma 84 on their cores.
    pub fn think_limited(
        &self,
        pos: &Position,
        limits: &Limits,
        max_depth: u32,
        stop: Option<&AtomicBool>,
        report: impl FnMut(&search::Outcome_, u64),
    ) -> (search::Outcome_, Stats) {
        pos.clone().visit(Think {
            agent: self,
            limits,
            max_depth,
            stop,
            report,
        })
    }

    /// A searcher with the engine's settings, its table and weights (one per thread).
    fn searcher<'s>(
        &'s self,
        deadline: Option<(Instant, Duration)>,
        stop: Option<&'s AtomicBool>,
    ) -> Searcher<'s> {
        let mut s = Searcher::new(&self.weights, &self.table);
        s.deadline = deadline;
        s.stop = stop;
        s.reduce_in_turn = self.reduce_in_turn;
        s.prune_late = self.reduce_in_turn;
        s.seen = self.seen.clone();
        s.contempt = CONTEMPT;
        s.aspiration = ASPIRATION;
        s.ultima = self.ultima;
        s.null_move = NULL_MOVE;
        s.one_step = self.one_step_turns;
        s.futility = self.one_step_turns || FUTILITY_IN_LONG_TURNS;
        s.quiet_pull = if QUIET_PULL { self.quiet_pull } else { 0 };
        s
    }

    /// `think_limited` on a position of any family.
    pub fn think_on<R: Family>(
        &self,
        pos: &R,
        limits: &Limits,
        max_depth: u32,
        stop: Option<&AtomicBool>,
        report: impl FnMut(&search::Outcome_, u64),
    ) -> (search::Outcome_, Stats) {
        let started = Instant::now();
        let deadline = limits.time.map(|t| (started, t));
        let split = split::SplitRoot::default();
        let mut s = self.searcher(deadline, stop);
        s.node_limit = limits.nodes.unwrap_or(u64::MAX);
        // More threads: the root's steps are shared among them (split.rs); helpers stop
        // when the main thread's search ends.
        // wasm32 has no threads: one search thread there, whatever was asked.
        let threads = if cfg!(target_arch = "wasm32") {
            1
        } else {
            limits.threads.max(1)
        };
        if threads > 1 {
            s.split = Some(&split);
        }
        let (out, helper_nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    let mut helper = self.searcher(deadline, Some(split.done_flag()));
                    helper.split = Some(&split);
                    let mut p = pos.clone();
                    scope.spawn(move || {
                        helper.help(&mut p);
                        helper.nodes
                    })
                })
                .collect();
            let mut p = pos.clone();
            let out = s.think(&mut p, max_depth, report);
            split.finish();
            let nodes: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            (out, nodes)
        });
        let stats = Stats {
            nodes: s.nodes + helper_nodes,
            depth: out.depth,
            elapsed: started.elapsed(),
            tt_probes: s.tt_probes,
            tt_hits: s.tt_hits,
        };
        (out, stats)
    }
}

/// A search handed to the family of the position (`Position::visit`).
struct Think<'a, F> {
    agent: &'a EngineAgent,
    limits: &'a Limits,
    max_depth: u32,
    stop: Option<&'a AtomicBool>,
    report: F,
}

impl<F: FnMut(&search::Outcome_, u64)> Visit for Think<'_, F> {
    type Output = (search::Outcome_, Stats);
    fn visit<R: Family>(self, game: R) -> Self::Output {
        self.agent
            .think_on(&game, self.limits, self.max_depth, self.stop, self.report)
    }
}

/// What a turn search tells and heeds besides its limits (`cohort analyze`, the engine
/// protocol): each finished depth of each step's search, with the turn's steps made before
/// it, and a flag that stops it (the steps still to choose are then the quickest legal ones).
pub struct Watch<'a> {
    pub stop: Option<&'a AtomicBool>,
    /// Deepest search of each step, in steps.
    pub max_depth: u32,
    pub report: &'a mut dyn FnMut(&[Step], &search::Outcome_, u64),
}

impl Agent for EngineAgent {
    fn name(&self) -> String {
        if self.long_turns { "planner" } else { "engine" }.into()
    }
    fn choose_turn(&mut self, game: &Game, limits: &Limits) -> TurnChoice {
        let max_depth = self.max_depth;
        self.choose_turn_watched(
            game,
            limits,
            Watch {
                stop: None,
                max_depth,
                report: &mut |_, _, _| {},
            },
        )
    }
}

impl EngineAgent {
    /// The turn the engine plays (`Agent::choose_turn`), reporting and stoppable.
    pub fn choose_turn_watched(
        &mut self,
        game: &Game,
        limits: &Limits,
        mut watch: Watch,
    ) -> TurnChoice {
        self.adapt_to(game);
        if let Some(choice) = placement_turn(game, limits.seed) {
            return choice;
        }
        let started = Instant::now();
        let pos = game.position();
        if self.long_turns && pos.at_turn_start() {
            // A third of the budget for the step search: it finds the wins and forced losses
            // within its horizon. Otherwise the planner chooses the whole turn.
            let tactical = Limits {
                time: limits.time.map(|t| t * 35 / 100),
                nodes: limits.nodes.map(|n| n * 35 / 100),
                seed: limits.seed,
                threads: limits.threads,
                clock: None,
            };
            let (out, stats) = self.think(pos, &tactical, None, |_, _| {});
            if out.score.abs() < search::WIN - 1000 {
                let mut budget = planner::Budget {
                    deadline: limits.time.map(|t| started + t * 85 / 100),
                    node_limit: limits.nodes.map(|n| n * 65 / 100),
                    nodes: 0,
                };
                if let Some((steps, score)) = planner::plan(pos, &self.weights, &mut budget) {
                    return TurnChoice {
                        steps,
                        score,
                        pv: vec![],
                        stats: Stats {
                            nodes: stats.nodes + budget.nodes,
                            depth: stats.depth,
                            elapsed: started.elapsed(),
                            tt_probes: stats.tt_probes,
                            tt_hits: stats.tt_hits,
                        },
                    };
                }
            }
        }
        pos.clone().visit(TurnSearch {
            agent: self,
            limits,
            started,
            watch: &mut watch,
        })
    }
}

/// The engine's turn on the family's own position type (`EngineAgent::turn_on`).
struct TurnSearch<'a, 'w> {
    agent: &'a EngineAgent,
    limits: &'a Limits,
    started: Instant,
    watch: &'a mut Watch<'w>,
}

impl Visit for TurnSearch<'_, '_> {
    type Output = TurnChoice;
    fn visit<R: Family>(self, pos: R) -> TurnChoice {
        self.agent
            .turn_from(pos, self.limits, self.started, self.watch)
    }
}

impl EngineAgent {
    /// The engine's whole turn from `pos`, a position of any family (the outside families
    /// play through this): one search per step.
    pub fn turn_on<R: Family>(&self, pos: &R, limits: &Limits) -> TurnChoice {
        let mut watch = Watch {
            stop: None,
            max_depth: self.max_depth,
            report: &mut |_, _, _| {},
        };
        self.turn_from(pos.clone(), limits, Instant::now(), &mut watch)
    }

    fn turn_from<R: Family>(
        &self,
        mut pos: R,
        limits: &Limits,
        started: Instant,
        watch: &mut Watch,
    ) -> TurnChoice {
        let side = pos.side_to_move();
        let mut choice = TurnChoice::default();
        let mut last_pv = Vec::new();
        // One search per step of the turn, each with the time left, so that every step is
        // chosen knowing the steps already made. The first search gets most of the budget;
        // where a turn is one step, all of it (a margin kept for the answer to go out).
        let first_share = if self.one_step_turns { (9, 10) } else { (3, 5) };
        // On a clock, a turn whose first search is unsettled may take up to the clock's cap
        // (`critical`); the steps after it then share what is left of the cap.
        let cap = limits
            .clock
            .map(|c| c.turn_cap(side))
            .filter(|&cap| limits.time.is_some_and(|t| cap > t));
        let mut budget = limits.time;
        while pos.side_to_move() == side && pos.outcome().is_none() {
            let left = budget.map(|t| t.saturating_sub(started.elapsed()));
            let mut step_limits = Limits {
                time: left.map(|l| {
                    if choice.steps.is_empty() {
                        l * first_share.0 / first_share.1
                    } else {
                        l / 3
                    }
                }),
                nodes: limits
                    .nodes
                    .map(|n| if choice.steps.is_empty() { n } else { n / 4 }),
                seed: limits.seed,
                threads: limits.threads,
                clock: None,
            };
            // No time even for depth 1, or told to stop: the first legal step (`end` if
            // possible).
            let quickest = |pos: &R| {
                let mut list = StepList::new();
                pos.legal_steps(&mut list);
                list.iter()
                    .find(|s| s.is_end())
                    .or(list.iter().next())
                    .copied()
            };
            if watch
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst))
            {
                let Some(s) = quickest(&pos) else { break };
                pos.make(s);
                choice.steps.push(s);
                continue;
            }
            let first = choice.steps.is_empty();
            // The first search's finished depths: best step and score of each.
            let mut depths: Vec<(Option<Step>, i32)> = Vec::new();
            let (mut out, mut stats) = {
                let (report, made) = (&mut *watch.report, &choice.steps);
                self.think_on(&pos, &step_limits, watch.max_depth, watch.stop, |o, n| {
                    if first {
                        depths.push((o.best, o.score));
                    }
                    report(made, o, n)
                })
            };
            let stopped = watch
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst));
            if let Some(cap) = cap.filter(|_| first && !stopped && critical(&depths, &out)) {
                // More time for this turn: the first step is searched again (the table keeps
                // what the first search learnt) with its share of the cap.
                budget = Some(cap);
                let left = cap.saturating_sub(started.elapsed());
                step_limits.time = Some(left * first_share.0 / first_share.1);
                let (report, made) = (&mut *watch.report, &choice.steps);
                let (again, more) =
                    self.think_on(&pos, &step_limits, watch.max_depth, watch.stop, |o, n| {
                        report(made, o, n)
                    });
                if again.best.is_some() {
                    out = again;
                }
                stats.add_search(&more);
                stats.depth = stats.depth.max(more.depth);
            }
            let step = match out
                .best
                .filter(|&s| pos.is_legal(s))
                .or_else(|| quickest(&pos))
            {
                Some(s) => s,
                None => break,
            };
            last_pv = out.pv.clone();
            if choice.steps.is_empty() {
                choice.score = out.score;
                choice.stats = stats;
            } else {
                choice.stats.add_search(&stats);
            }
            pos.make(step);
            choice.steps.push(step);
        }
        // The line behind the turn: its steps, then what the last search expects after them.
        choice.pv = choice.steps.clone();
        if last_pv.first() == choice.steps.last() {
            choice.pv.extend_from_slice(last_pv.get(1..).unwrap_or(&[]));
        }
        choice.stats.elapsed = started.elapsed();
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cohort_rules::{Side, Square, StepKind};

    fn step(from: u8, to: u8) -> Option<Step> {
        Some(Step {
            from: Square::new(from, 0),
            to: Square::new(to, 0),
            kind: StepKind::Move,
        })
    }

    fn out(best: Option<Step>, score: i32) -> search::Outcome_ {
        search::Outcome_ {
            best,
            score,
            pv: vec![],
            depth: 5,
        }
    }

    /// More time goes to a turn whose best step changed at the end, or whose score fell;
    /// not to a settled one, nor to one whose search is too short to tell, nor to a won one.
    #[test]
    fn a_turn_is_critical_when_its_first_search_is_unsettled() {
        let (a, b) = (step(1, 2), step(3, 4));
        let settled = [(a, 10), (a, 12), (a, 11), (a, 14)];
        assert!(!critical(&settled, &out(a, 14)));
        // The best step changed at the last finished depth, or in the depth cut short.
        let changed = [(a, 10), (a, 12), (a, 11), (b, 14)];
        assert!(critical(&changed, &out(b, 14)));
        assert!(critical(&settled, &out(b, 20)));
        // The score fell by more than CRITICAL_FALL since two depths before.
        let falling = [(a, 10), (a, 60), (a, 11), (a, 60 - CRITICAL_FALL - 1)];
        assert!(critical(&falling, &out(a, 60 - CRITICAL_FALL - 1)));
        let within = [(a, 10), (a, 60), (a, 11), (a, 60 - CRITICAL_FALL)];
        assert!(!critical(&within, &out(a, 60 - CRITICAL_FALL)));
        // Too few depths to tell; a won game needs no more time.
        assert!(!critical(&changed[..2], &out(b, 12)));
        assert!(!critical(&changed, &out(b, search::WIN - 5)));
    }

    /// The cap of a critical turn is three planned turns, at most a quarter of the clock,
    /// never less than the planned time.
    #[test]
    fn a_critical_turn_may_take_three_planned_turns_within_a_quarter_of_the_clock() {
        let c = Clock::new(30_000, 0);
        assert_eq!(c.turn_time(Side::White), Duration::from_millis(1000));
        assert_eq!(c.turn_cap(Side::White), Duration::from_millis(3000));
        // Little left: the quarter binds.
        let low = Clock {
            left_ms: [30_000, 400],
            inc_ms: [0, 1000],
            turns_to_go: None,
        };
        assert_eq!(low.turn_time(Side::Black), Duration::from_millis(200));
        assert_eq!(low.turn_cap(Side::Black), Duration::from_millis(200));
        let mid = Clock {
            left_ms: [30_000, 3000],
            inc_ms: [0, 100],
            turns_to_go: None,
        };
        assert_eq!(mid.turn_time(Side::Black), Duration::from_millis(175));
        assert_eq!(mid.turn_cap(Side::Black), Duration::from_millis(525));
    }
}
