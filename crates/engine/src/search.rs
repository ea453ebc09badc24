//! Turn-aware alpha-beta over single steps: the score is negated only when the side to
//! move changes (after `end`, or a chess move), so a whole multi-step turn is searched as
//! one player's sequence of choices. Iterative deepening in steps, a transposition table
//! keyed by the position hash (which covers the turn state), captures first.

use crate::time::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use std::sync::atomic::AtomicU64;

use cohort_rules::step::MAX_STEPS;
use cohort_rules::{Family, Outcome, Square, Step, StepKind, StepList};

/// The score of a won game; kept here under its old path (`search::WIN`) for callers.
pub use crate::eval::WIN;
use crate::eval::{evaluate, Weights};
use crate::split::{Job, SplitRoot};

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    depth: i8,
    bound: u8, // 0 exact, 1 lower, 2 upper
    score: i32,
    best: Option<Step>,
}

/// A transposition table that several search threads share without locks: each slot is
/// two words, the key XOR-ed with the data and the data, so a torn write reads as a miss.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
}

/// Scores this near WIN are wins or losses found at a known ply.
const MATE_BOUND: i32 = WIN - 10_000;

/// A win found `WIN - n` plies from the root is stored as its distance from the node that
/// stores it, so that the entry means the same when the node is reached at another ply.
pub(crate) fn score_to_table(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of `score_to_table` at the ply where the entry is read.
pub(crate) fn score_from_table(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

fn pack_step(s: Option<Step>) -> u64 {
    let Some(s) = s else { return 0 };
    let (tag, arg) = match s.kind {
        StepKind::Move => (1u64, 0u64),
        StepKind::End => (2, 0),
        // The tag's three bits are all taken: a pass is the turn-closing tag's second form.
        StepKind::Pass => (2, 1),
        StepKind::Pin => (3, 0),
        StepKind::Drop(k) => (4, k as u64),
        StepKind::Promote(k) => (5, k as u64),
        StepKind::Lead(m) => (6, m as u64),
        StepKind::Push(sh) => (7, sh as u64),
    };
    tag | arg << 3 | (s.from.index() as u64) << 11 | (s.to.index() as u64) << 19
}

fn unpack_step(v: u64) -> Option<Step> {
    let (from, to) = (
        Square::from_index((v >> 11) as u8),
        Square::from_index((v >> 19) as u8),
    );
    let arg = (v >> 3) as u8;
    let kind = match v & 7 {
        1 => StepKind::Move,
        2 if arg == 1 => StepKind::Pass,
        2 => StepKind::End,
        3 => StepKind::Pin,
        4 => StepKind::Drop(arg),
        5 => StepKind::Promote(arg),
        6 => StepKind::Lead(arg),
        7 => StepKind::Push(arg),
        _ => return None,
    };
    Some(Step { from, to, kind })
}

impl Entry {
    // data: step (27 bits) | depth (8) | bound (2) | score + 2^22 (23 bits)
    fn pack(&self) -> u64 {
        pack_step(self.best)
            | ((self.depth as u8) as u64) << 27
            | (self.bound as u64) << 35
            | ((self.score + (1 << 22)) as u64) << 37
    }
    fn unpack(key: u64, d: u64) -> Entry {
        Entry {
            key,
            best: unpack_step(d & ((1 << 27) - 1)),
            depth: (d >> 27) as u8 as i8,
            bound: ((d >> 35) & 3) as u8,
            score: ((d >> 37) & ((1 << 23) - 1)) as i32 - (1 << 22),
        }
    }
}

impl Table {
    pub fn new(size_pow2: u32) -> Table {
        Table {
            slots: (0..1usize << size_pow2)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }
    /// Forget everything (the evaluation changed).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
    }
    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }
    fn get(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let (k, d) = (
            slot[0].load(Ordering::Relaxed),
            slot[1].load(Ordering::Relaxed),
        );
        (k ^ d == key && d != 0).then(|| Entry::unpack(key, d))
    }
    /// The best step stored for the position with hash `key`, if any (it may be illegal
    /// there after a hash collision: check it before making it).
    pub fn best_step(&self, key: u64) -> Option<Step> {
        self.get(key).and_then(|e| e.best)
    }
    fn put(&self, e: Entry) {
        let slot = self.slot(e.key);
        let old = self.get(e.key);
        if old.is_none_or(|o| e.depth >= o.depth) {
            let d = e.pack();
            slot[0].store(e.key ^ d, Ordering::Relaxed);
            slot[1].store(d, Ordering::Relaxed);
        }
    }
}

/// Steps in search order without allocating: each step's key and index packed in one word
/// (key high, index low and inverted so that equal keys keep generation order), sorted
/// descending. Only the words for the listed steps are written (the room is not zeroed).
struct Ordered {
    packed: [std::mem::MaybeUninit<i64>; MAX_STEPS],
    len: usize,
}

impl Ordered {
    #[inline(always)]
    fn new() -> Ordered {
        Ordered {
            packed: [const { std::mem::MaybeUninit::uninit() }; MAX_STEPS],
            len: 0,
        }
    }
    #[inline(always)]
    fn push(&mut self, key: i32, i: usize) {
        self.packed[self.len].write((key as i64) << 16 | (0xFFFF - i as i64));
        self.len += 1;
    }
    fn slice(&mut self) -> &mut [i64] {
        // SAFETY: the first `len` words were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.packed.as_mut_ptr() as *mut i64, self.len) }
    }
    /// The steps best first. The first few are picked by a scan each (a cut-off usually
    /// comes among them); the rest are sorted once, when the search gets that far. The
    /// order is the full sort's either way (the packed words are distinct).
    fn iter<'a>(&'a mut self, list: &'a StepList) -> impl Iterator<Item = (i32, Step)> + 'a {
        const PICKED: usize = 3;
        let mut next = 0;
        std::iter::from_fn(move || {
            let words = self.slice();
            if next >= words.len() {
                return None;
            }
            if next < PICKED {
                let best = (next..words.len())
                    .max_by_key(|&i| words[i])
                    .unwrap_or(next);
                words.swap(next, best);
            } else if next == PICKED {
                words[PICKED..].sort_unstable_by(|a, b| b.cmp(a));
            }
            let v = words[next];
            next += 1;
            let i = 0xFFFF - (v & 0xFFFF) as usize;
            Some(((v >> 16) as i32, list.as_slice()[i]))
        })
    }
}

/// Plies with killer steps kept (deeper nodes have none).
const MAX_PLY: usize = 128;

/// Checks are extended (one-step games) only this near the root, so that a line of
/// checks cannot grow the search without end.
const MAX_EXTENDED_PLY: i32 = 48;

/// Quiet steps searched at a node inside a turn 1 and 2 steps from the horizon
/// (`Searcher::prune_late`).
const LATE_MOVES: [usize; 3] = [usize::MAX, 10, 20];

/// Roots searched this deep or deeper share their steps with the helper threads
/// (`Searcher::split`); shallower ones take less time than handing the steps out.
const SPLIT_DEPTH: i32 = 3;

pub struct Searcher<'a> {
    pub weights: &'a Weights,
    pub table: &'a Table,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<(Instant, Duration)>,
    pub stop: Option<&'a AtomicBool>,
    stopped: bool,
    /// Search late quiet steps inside a side's turn one step shallower first (set by the
    /// engine for long turns, see the search loop).
    pub reduce_in_turn: bool,
    /// History heuristic: quiet steps that caused cut-offs, by from/to square.
    history: Vec<i32>,
    /// Killer steps: the last two quiet steps that caused a cut-off at each ply, tried
    /// right after the captures (a step good after one sibling is often good after the
    /// next: in a long turn most siblings move another unit).
    killers: Vec<[Option<Step>; 2]>,
    /// Late-move pruning inside a turn: at a node this many steps from the horizon (1 or
    /// 2), quiet steps after the first `LATE_MOVES[depth]` are not searched at all.
    pub prune_late: bool,
    /// Turn-start positions already reached: the game's repeatable ones (`Game::
    /// repeatable_turn_starts`), then those on the path searched. A turn start met again
    /// scores as a draw, so the engine steers away from repetitions when it is ahead and
    /// into them when it is behind (the game's own rule draws only at the third).
    pub seen: Vec<u64>,
    /// What a draw is worth to the side the search is for (`root`): a draw scores
    /// `-contempt` for it and `+contempt` for its opponent, so that it prefers playing on in
    /// a position it judges about equal to repeating it. 0: a draw is a draw.
    pub contempt: i32,
    root: Option<cohort_rules::Side>,
    /// Half the width of the aspiration window around the previous depth's score (0: none).
    pub aspiration: i32,
    /// The best root step of the last finished depth, searched first at the next.
    root_best: Option<Step>,
    /// Steps may capture off their destination (Chessma 84's Ultima pieces): quiescence
    /// also makes the steps that may (`SearchHooks::may_capture_elsewhere`) to find them.
    pub ultima: bool,
    /// Several threads: the root's steps after the first are shared among them
    /// (split.rs). None: this thread searches the whole tree.
    pub(crate) split: Option<&'a SplitRoot>,
    /// Evaluations already made in this search, by position hash (`evaluate_cached`).
    eval_cache: Vec<u64>,
    /// Null moves at turn starts (`SearchHooks::make_null`, where the family has them): a
    /// side that could give its turn away and still reach beta is not searched further.
    pub null_move: bool,
    /// The node being searched is the answer to a null move (no second one in a row).
    after_null: bool,
    /// Where turns are one step (chess, Chessma 84): late quiet moves searched shallower
    /// first, and a move that gives check one step deeper.
    pub one_step: bool,
    /// A turn start near the horizon whose evaluation is far above beta is taken at that
    /// (reverse futility pruning).
    pub futility: bool,
    /// How near the quiet-turn draw the game is at the root, in thousandths (turns without
    /// a capture over the variant's limit; 0 where it has none). A leaf with as many units
    /// as the root (no capture on the line, so the count goes on) has its evaluation drawn
    /// that far towards the draw's score: a capture, which restarts the count, keeps its
    /// full value. The engine leaves it at 0 (`QUIET_PULL`: measured, no gain).
    pub quiet_pull: i32,
    /// Units on the board at the root (`quiet_pull`).
    root_units: u32,
}

/// Turn starts this near the horizon may stand on their evaluation when it beats beta by
/// `FUTILITY_MARGIN` a step (reverse futility pruning, `Searcher::futility`).
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 110;

/// Slots of a search's evaluation cache (a power of two; 512 KiB).
const EVAL_CACHE: usize = 1 << 16;

#[derive(Clone, Debug, Default)]
pub struct Outcome_ {
    pub best: Option<Step>,
    pub score: i32,
    pub pv: Vec<Step>,
    pub depth: u32,
}

impl<'a> Searcher<'a> {
    pub fn new(weights: &'a Weights, table: &'a Table) -> Searcher<'a> {
        Searcher {
            weights,
            table,
            tt_probes: 0,
            tt_hits: 0,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            stopped: false,
            reduce_in_turn: false,
            history: vec![0; 256 * 256],
            killers: vec![[None; 2]; MAX_PLY],
            prune_late: false,
            seen: Vec::new(),
            contempt: 0,
            root: None,
            aspiration: 0,
            root_best: None,
            ultima: false,
            split: None,
            eval_cache: vec![0; EVAL_CACHE],
            null_move: false,
            after_null: false,
            one_step: false,
            futility: false,
            quiet_pull: 0,
            root_units: 0,
        }
    }

    /// Whether the side to move has units besides its royals and pawns: without them a
    /// null move's verdict is unsafe (zugzwang, where any move loses and passing would not).
    fn has_pieces<R: Family>(&self, pos: &R) -> bool {
        let side = pos.side_to_move();
        let mut rest = pos.occupied(side) & !pos.royals(side);
        if let Some(p) = self.weights.pawn {
            rest = rest & !pos.units_of(side, p as u8);
        }
        !rest.is_empty()
    }

    /// `evaluate`, remembered by position hash: a turn's steps made in another order reach
    /// the same position, and in the command games the evaluation is most of a leaf's cost.
    /// A slot holds the hash's upper half and the score; a slot of 0 matches nothing.
    #[inline]
    fn evaluate_cached<R: Family>(&mut self, pos: &R) -> i32 {
        let key = pos.hash();
        let tag = key >> 32;
        let index = key as usize & (EVAL_CACHE - 1);
        let slot = self.eval_cache[index];
        if slot != 0 && slot >> 32 == tag {
            return slot as u32 as i32;
        }
        let mut v = evaluate(pos, self.weights);
        if self.quiet_pull > 0 && self.units(pos) == self.root_units {
            let draw = self.draw_score(pos.side_to_move());
            v = (v * (1000 - self.quiet_pull) + draw * self.quiet_pull) / 1000;
        }
        self.eval_cache[index] = tag << 32 | v as u32 as u64;
        v
    }

    fn units<R: Family>(&self, pos: &R) -> u32 {
        use cohort_rules::Side;
        pos.occupied(Side::White).count() + pos.occupied(Side::Black).count()
    }

    #[inline]
    fn killers_at(&self, ply: i32) -> [Option<Step>; 2] {
        self.killers.get(ply as usize).copied().unwrap_or([None; 2])
    }

    /// The score of a draw for `side` (to move at the node): see `contempt`.
    #[inline]
    fn draw_score(&self, side: cohort_rules::Side) -> i32 {
        match self.root {
            Some(r) if r == side => -self.contempt,
            Some(_) => self.contempt,
            None => 0,
        }
    }

    fn check_stop(&mut self) -> bool {
        if !self.stopped && self.nodes & 31 == 0 {
            let late = self.deadline.is_some_and(|(t, d)| t.elapsed() >= d);
            let told = self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
            self.stopped = late || told;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        self.stopped
    }

    /// Score of a finished or blocked position for the side to move, or None if play goes on.
    fn terminal<R: Family>(&self, pos: &R, ply: i32, has_steps: bool) -> Option<i32> {
        match pos.outcome() {
            Some(Outcome::Draw) => return Some(self.draw_score(pos.side_to_move())),
            Some(Outcome::Win(s)) => {
                return Some(if s == pos.side_to_move() {
                    WIN - ply
                } else {
                    -WIN + ply
                })
            }
            None => {}
        }
        if has_steps {
            return None;
        }
        // No step at all: the rules' verdict (checkmate, stalemate, no legal turn).
        Some(match pos.without_steps().0 {
            Outcome::Draw => self.draw_score(pos.side_to_move()),
            Outcome::Win(s) if s == pos.side_to_move() => WIN - ply,
            Outcome::Win(_) => -WIN + ply,
        })
    }

    /// Fill `o` with the steps of `list` in search order. `o` is the caller's (returning a
    /// 16 KB list by value copied it at every node, a fifth of the chess search's time).
    /// `killers`: the ply's killer steps (none in quiescence, which makes only captures).
    fn order<R: Family>(
        &self,
        pos: &R,
        list: &StepList,
        first: Option<Step>,
        killers: [Option<Step>; 2],
        o: &mut Ordered,
    ) {
        let w = self.weights;
        o.len = 0;
        // Steps are the mover's: a victim stands on an enemy square (one set test for the
        // many quiet steps instead of two unit lookups each).
        let enemy = pos.occupied(pos.side_to_move().other());
        for (i, &s) in list.iter().enumerate() {
            let key = if Some(s) == first {
                1 << 30
            } else if s.kind == StepKind::End {
                1000
            } else if let Some(victim) = enemy.has(s.to).then(|| pos.unit_at(s.to)).flatten() {
                let v = w.value[victim.kind as usize];
                let a = pos.unit_at(s.from).map_or(0, |u| w.value[u.kind as usize]);
                (1 << 20) + v * 16 - a / 16
                    + if w.royal[victim.kind as usize] {
                        1 << 24
                    } else {
                        0
                    }
            } else if matches!(s.kind, StepKind::Promote(_)) {
                1 << 19
            } else if Some(s) == killers[0] {
                // After the captures: a killer that captures here is ordered as a capture.
                1002
            } else if Some(s) == killers[1] {
                1001
            } else {
                self.history[s.from.index() * 256 + s.to.index()].min(999)
            };
            o.push(key, i);
        }
        // Best key first; equal keys keep generation order (as a stable sort would): the
        // iterator sorts as it goes.
    }

    /// Negamax over steps; `pv` receives the best line.
    pub fn search<R: Family>(
        &mut self,
        pos: &mut R,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<Step>,
    ) -> i32 {
        self.nodes += 1;
        let after_null = std::mem::take(&mut self.after_null);
        if self.check_stop() {
            return 0;
        }
        // A decided game first; then the table, which may answer before any generation.
        if pos.outcome().is_some() {
            pv.clear();
            return self.terminal(pos, ply, true).unwrap_or(0);
        }
        let key = pos.hash();
        // A repetition (see `seen`); tracked only where the game has the rule.
        let turn_start = !self.seen.is_empty() && pos.at_turn_start();
        if turn_start && ply > 0 && self.seen.contains(&key) {
            pv.clear();
            return self.draw_score(pos.side_to_move());
        }
        let mut first = None;
        if depth > 0 {
            self.tt_probes += 1;
            if let Some(e) = self.table.get(key) {
                self.tt_hits += 1;
                first = e.best;
                if e.depth as i32 >= depth && ply > 0 {
                    let score = score_from_table(e.score, ply);
                    let usable = match e.bound {
                        0 => true,
                        1 => score >= beta,
                        _ => score <= alpha,
                    };
                    if usable {
                        pv.clear();
                        pv.extend(e.best);
                        return score;
                    }
                }
            }
        }
        if ply == 0 && self.root_best.is_some() {
            // The last depth's best first, whatever the table kept in this slot since: a
            // depth cut short trusts the steps searched after it (`think`).
            first = self.root_best;
        }
        // Check is asked only where it prunes or extends (one-step games, null moves).
        let in_check =
            (self.one_step || self.null_move || self.futility) && depth > 0 && pos.in_check();
        let scout = alpha + 1 == beta && ply > 0 && beta.abs() < MATE_BOUND;
        if scout && !in_check && depth > 0 && pos.at_turn_start() {
            let stand = self.evaluate_cached(pos);
            // Reverse futility: near the horizon, a turn start far above beta stays there
            // (the side to move's turn rarely loses that much).
            if self.futility && depth <= FUTILITY_DEPTH && stand - FUTILITY_MARGIN * depth >= beta {
                pv.clear();
                return stand;
            }
            // Null move: give the turn away and search the opponent's reply shallower; if
            // the side is still at beta, its real moves (one of which is at least as good,
            // zugzwang aside) surely are.
            if self.null_move && !after_null && depth >= 3 && stand >= beta && self.has_pieces(pos)
            {
                if let Some(undo) = pos.make_null() {
                    let r = 3 + depth / 6;
                    self.after_null = true;
                    let mut line = Vec::new();
                    let v = -self.search(pos, depth - 1 - r, ply + 1, -beta, -beta + 1, &mut line);
                    self.after_null = false;
                    pos.unmake_null(undo);
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        pv.clear();
                        return if v >= MATE_BOUND { beta } else { v };
                    }
                }
            }
        }
        let exact = R::CANDIDATES_ARE_LEGAL;
        if depth <= 0 && !exact {
            // The frontier of a family whose candidates are pseudo-legal: whether any step is
            // legal is cheaper to learn than the whole list, which quiescence then generates
            // only if standing pat does not cut off.
            if let Some(t) = self.terminal(pos, ply, pos.has_legal_step()) {
                pv.clear();
                return t;
            }
            pv.clear();
            return self.quiesce(pos, alpha, beta, ply, 6, None);
        }
        // Candidates: the legal steps, or (Chessma 84) pseudo-legal ones that are tested as
        // they are made, so that steps cut off are never tested.
        let mut list = StepList::new();
        pos.candidate_steps(&mut list);
        if exact || list.is_empty() {
            // Pseudo-legal candidates: one made and taken back shows a legal step (the
            // first usually is one), cheaper than generating again.
            let has_steps = (exact && !list.is_empty())
                || list.iter().any(|&s| match pos.make_if_legal(s) {
                    Some(undo) => {
                        pos.unmake(s, undo);
                        true
                    }
                    None => false,
                });
            if let Some(t) = self.terminal(pos, ply, has_steps) {
                pv.clear();
                return t;
            }
        }
        if depth <= 0 {
            pv.clear();
            return self.quiesce(pos, alpha, beta, ply, 6, Some(&list));
        }
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_step = None;
        let mut line = Vec::new();
        let side = pos.side_to_move();
        let mut ordered = Ordered::new();
        let killers = self.killers_at(ply);
        self.order(pos, &list, first, killers, &mut ordered);
        let mut legal = 0u32;
        // Near the horizon the late quiet steps are not searched at all (a node whose steps
        // are all quiet still searches its first ones). Not at a turn's start: pruning there
        // too was measured (lifeform, 100 games: +0 +- 39).
        let late_moves = if self.prune_late && depth <= 2 && !pos.at_turn_start() {
            LATE_MOVES[depth as usize]
        } else {
            usize::MAX
        };
        if turn_start {
            self.seen.push(key);
        }
        if let Some(split) = self.split.filter(|_| ply == 0 && depth >= SPLIT_DEPTH) {
            // Several threads: the root's steps are shared among them.
            let steps: Vec<Step> = ordered.iter(&list).map(|(_, s)| s).collect();
            (best, best_step, legal) =
                self.search_root_shared(split, pos, &steps, depth, alpha, beta, pv);
        } else {
            for (i, (_, s)) in ordered.iter(&list).enumerate() {
                // Inside one side's turn every node maximises for the same player and alpha-beta
                // prunes little: late quiet steps get a shallower look first.
                let (quiet, late_quiet) = self.quiet_and_late(pos, s, depth, i);
                if quiet && i >= late_moves && legal > 0 {
                    continue;
                }
                let Some(undo) = pos.make_if_legal(s) else {
                    continue;
                };
                legal += 1;
                // One-step games: a late quiet move, not out of check, is first searched
                // shallower (late-move reductions), two steps from the twelfth move on.
                let late_reply = if self.one_step && quiet && depth >= 3 && legal >= 4 && !in_check
                {
                    1 + (depth >= 6 && legal >= 12) as i32
                } else {
                    0
                };
                // Principal variation search: every step after the first is first asked only
                // whether it beats alpha (a null window).
                let null_window = legal > 1;
                let score = self.child(
                    pos,
                    s,
                    undo,
                    side,
                    depth,
                    ply,
                    alpha,
                    beta,
                    late_quiet,
                    late_reply,
                    null_window,
                    &mut line,
                );
                if self.stopped {
                    break;
                }
                if score > best {
                    best = score;
                    best_step = Some(s);
                    pv.clear();
                    pv.push(s);
                    pv.extend_from_slice(&line);
                }
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    if quiet {
                        self.history[s.from.index() * 256 + s.to.index()] += depth * depth;
                        if let Some(k) = self.killers.get_mut(ply as usize) {
                            if k[0] != Some(s) {
                                k[1] = k[0];
                                k[0] = Some(s);
                            }
                        }
                    }
                    break;
                }
            }
        }
        if turn_start {
            self.seen.pop();
        }
        if legal == 0 && !self.stopped {
            // Every candidate was illegal: the rules' verdict, as for an empty list.
            pv.clear();
            return self.terminal(pos, ply, false).unwrap_or(0);
        }
        if !self.stopped {
            let bound = if best <= alpha0 {
                2
            } else if best >= beta {
                1
            } else {
                0
            };
            self.table.put(Entry {
                key,
                depth: depth as i8,
                bound,
                score: score_to_table(best, ply),
                best: best_step,
            });
        }
        best
    }

    /// Whether step `s` (the `i`-th in the order at a node `depth` steps from the horizon)
    /// is quiet (a move onto an empty square), and whether it is first searched a step
    /// shallower (late and quiet inside a long turn, see `child`).
    #[inline(always)]
    fn quiet_and_late<R: Family>(&self, pos: &R, s: Step, depth: i32, i: usize) -> (bool, bool) {
        // Ultima's captures take units off the destination: such a step is never quiet.
        let quiet = s.kind == StepKind::Move
            && pos.unit_at(s.to).is_none()
            && !(self.one_step && pos.may_capture_elsewhere(s));
        (quiet, self.reduce_in_turn && depth >= 2 && i >= 4 && quiet)
    }

    /// The root with several threads (`split`): the first legal step of `steps` (in search
    /// order) alone, then the rest shared with the helpers, each against the best score so
    /// far. Returns the best score, its step and the number of legal steps seen (0: none).
    #[allow(clippy::too_many_arguments)]
    fn search_root_shared<R: Family>(
        &mut self,
        split: &SplitRoot,
        pos: &mut R,
        steps: &[Step],
        depth: i32,
        alpha: i32,
        beta: i32,
        pv: &mut Vec<Step>,
    ) -> (i32, Option<Step>, u32) {
        let side = pos.side_to_move();
        let mut line = Vec::new();
        let mut skip = 0;
        // Young brothers wait: the first step's score is the bound the others must beat.
        let first = loop {
            let Some(&s) = steps.get(skip) else {
                return (-WIN - 1, None, 0);
            };
            skip += 1;
            if let Some(undo) = pos.make_if_legal(s) {
                let score = self.child(
                    pos, s, undo, side, depth, 0, alpha, beta, false, 0, false, &mut line,
                );
                break (s, score);
            }
        };
        if self.stopped {
            return (-WIN - 1, None, 1);
        }
        pv.clear();
        pv.push(first.0);
        pv.extend_from_slice(&line);
        if first.1 >= beta || skip >= steps.len() {
            return (first.1, Some(first.0), 1);
        }
        let job = split.publish(depth, beta, steps, skip, alpha.max(first.1), first.1, pv);
        self.work(split, pos, &job);
        if !self.stopped {
            let (stop, deadline) = (self.stop, self.deadline);
            let told = || {
                stop.is_some_and(|s| s.load(Ordering::Relaxed))
                    || deadline.is_some_and(|(t, d)| t.elapsed() >= d)
            };
            split.wait_idle(told);
            // A helper stops only at the deadline or when told: its last step is then
            // unfinished, and so is this depth.
            self.stopped = told();
        }
        let (score, best_line) = split.result();
        pv.clear();
        pv.extend_from_slice(&best_line);
        (score, best_line.first().copied(), 1)
    }

    /// Search steps of the shared root `job` until none is left to take, each with a null
    /// window at the best score so far; each that beats it is searched again in full and
    /// offered as the new best.
    fn work<R: Family>(&mut self, split: &SplitRoot, pos: &mut R, job: &Job) {
        let side = pos.side_to_move();
        let (mut line, mut found) = (Vec::new(), Vec::new());
        while let Some(i) = split.take(job) {
            let s = job.steps[i];
            let (_, late_quiet) = self.quiet_and_late(pos, s, job.depth, i);
            let Some(undo) = pos.make_if_legal(s) else {
                continue;
            };
            let alpha = split.alpha();
            let score = self.child(
                pos, s, undo, side, job.depth, 0, alpha, job.beta, late_quiet, 0, true, &mut line,
            );
            if self.stopped {
                break;
            }
            if score > alpha {
                found.clear();
                found.push(s);
                found.extend_from_slice(&line);
                split.offer(job, score, &found);
            }
        }
    }

    /// A helper thread: work on each root job the main thread shares until the search ends.
    pub fn help<R: Family>(&mut self, pos: &mut R) {
        let Some(split) = self.split else { return };
        self.root = Some(pos.side_to_move());
        self.root_units = self.units(pos);
        if !self.seen.is_empty() && pos.at_turn_start() {
            // As the main thread's root does (`search`): a path back to it repeats.
            self.seen.push(pos.hash());
        }
        let mut generation = 0;
        while let Some(job) = split.next_job(generation) {
            generation = job.generation;
            split.working(true);
            self.work(split, pos, &job);
            split.working(false);
            if self.stopped {
                break;
            }
        }
    }

    /// Search the position after the step `s` (made; `undo` takes it back) and return its
    /// score for `side`, the side that made it: negated only when the side to move changed.
    /// `late_quiet`: first one step shallower (inside a turn only). `late_reply`: first
    /// this many steps shallower when the turn passed to the opponent (one-step games),
    /// unless the step gives check, which is searched a step deeper. `null_window`: first
    /// with the window (alpha, alpha + 1), which only asks whether the step beats alpha;
    /// each first look that says yes is searched again as it would have been without it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn child<R: Family>(
        &mut self,
        pos: &mut R,
        s: Step,
        undo: R::Undo,
        side: cohort_rules::Side,
        depth: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
        late_quiet: bool,
        late_reply: i32,
        null_window: bool,
        line: &mut Vec<Step>,
    ) -> i32 {
        let same = pos.side_to_move() == side;
        let check = self.one_step && !same && ply < MAX_EXTENDED_PLY && pos.in_check();
        let full = depth - 1 + check as i32;
        let reduced = if same {
            late_quiet as i32
        } else if check {
            0
        } else {
            late_reply
        };
        let narrow = null_window && beta > alpha + 1;
        let first_beta = if narrow { alpha + 1 } else { beta };
        let mut v = self.look(pos, same, full - reduced, ply, alpha, first_beta, line);
        if reduced > 0 && v > alpha && !self.stopped {
            v = self.look(pos, same, full, ply, alpha, first_beta, line);
        }
        if narrow && v > alpha && v < beta && !self.stopped {
            v = self.look(pos, same, full, ply, alpha, beta, line);
        }
        pos.unmake(s, undo);
        v
    }

    /// The child's search in the parent's terms: `same` when the same side moves on.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn look<R: Family>(
        &mut self,
        pos: &mut R,
        same: bool,
        depth: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
        line: &mut Vec<Step>,
    ) -> i32 {
        line.clear();
        if same {
            self.search(pos, depth, ply + 1, alpha, beta, line)
        } else {
            -self.search(pos, depth, ply + 1, -beta, -alpha, line)
        }
    }

    /// Captures only (and `end`, which may be the quiet choice), a few plies deep.
    /// `listed`: the legal steps of `pos` when the caller has them already.
    fn quiesce<R: Family>(
        &mut self,
        pos: &mut R,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        left: i32,
        listed: Option<&StepList>,
    ) -> i32 {
        self.nodes += 1;
        // In the middle of a turn the mover may stop: the value of standing pat is then the
        // value of ending the turn, which the opponent's captures decide. (A static
        // evaluation here would credit the mover with threats it never gets to carry out.)
        let stand = if left > 1 && !pos.at_turn_start() && pos.is_legal(Step::END) {
            let undo = pos.make(Step::END);
            let v = -self.quiesce(pos, -beta, -alpha, ply + 1, left - 1, None);
            pos.unmake(Step::END, undo);
            v
        } else {
            self.evaluate_cached(pos)
        };
        if left == 0 || stand >= beta || self.check_stop() {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut own = StepList::new();
        let list = match listed {
            Some(l) => l,
            None => {
                pos.candidate_steps(&mut own);
                &own
            }
        };
        let side = pos.side_to_move();
        let mut ordered = Ordered::new();
        self.order(pos, list, None, [None; 2], &mut ordered);
        let enemies = if self.ultima {
            pos.occupied(side.other()).count()
        } else {
            0
        };
        for (key, s) in ordered.iter(list) {
            // Captures onto the victim and promotions come first; the rest is searched here
            // only where a step may capture off its destination (Ultima's withdrawal, long
            // leap, coordination, enclosure, `SearchHooks::may_capture_elsewhere`): each such step
            // is made, and kept if it took an enemy unit.
            let off_square = key < 1 << 19;
            if off_square && !self.ultima {
                break;
            }
            if off_square && !pos.may_capture_elsewhere(s) {
                continue;
            }
            let Some(undo) = pos.make_if_legal(s) else {
                continue;
            };
            if off_square && pos.occupied(side.other()).count() >= enemies {
                pos.unmake(s, undo);
                continue;
            }
            let score = if let Some(t) = self.terminal(pos, ply + 1, true) {
                if pos.side_to_move() == side {
                    t
                } else {
                    -t
                }
            } else if pos.side_to_move() == side {
                self.quiesce(pos, alpha, beta, ply + 1, left - 1, None)
            } else {
                -self.quiesce(pos, -beta, -alpha, ply + 1, left - 1, None)
            };
            pos.unmake(s, undo);
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }

    /// Iterative deepening from the root; stops at the limits, keeps the last full result.
    pub fn think<R: Family>(
        &mut self,
        pos: &mut R,
        max_depth: u32,
        mut report: impl FnMut(&Outcome_, u64),
    ) -> Outcome_ {
        let mut result = Outcome_::default();
        self.root = Some(pos.side_to_move());
        self.root_units = self.units(pos);
        for depth in 1..=max_depth {
            self.root_best = result.best;
            let mut pv = Vec::new();
            // Aspiration: a window around the last depth's score, widened to the full one
            // when the score falls outside it. A finite window lets a side's own turn cut
            // off where the full window searches every line to the end.
            let mut score;
            let mut window = if self.aspiration > 0
                && result.best.is_some()
                && result.score.abs() < MATE_BOUND
            {
                self.aspiration
            } else {
                WIN + 1
            };
            loop {
                let (lo, hi) = if window > WIN {
                    (-WIN - 1, WIN + 1)
                } else {
                    (result.score - window, result.score + window)
                };
                score = self.search(pos, depth as i32, 0, lo, hi, &mut pv);
                if self.stopped || (score > lo && score < hi) || window > WIN {
                    break;
                }
                window = (window * 4).min(WIN + 1);
            }
            if self.stopped && result.best.is_some() {
                // Cut short: the root steps searched to the end before the stop were
                // searched in order, the last depth's best first, and a line is kept only
                // for a step searched to the end. A step that beat it at this depth is the
                // better-informed answer (with a branching factor of five, most of the
                // time goes to this last, unfinished depth).
                // Only from a full window: a narrower one's score may be a bound.
                if window > WIN && pv.first().is_some_and(|&b| Some(b) != result.best) {
                    result = Outcome_ {
                        best: pv.first().copied(),
                        score,
                        pv,
                        depth: result.depth,
                    };
                }
                break;
            }
            if let Some(&b) = pv.first() {
                result = Outcome_ {
                    best: Some(b),
                    score,
                    pv,
                    depth,
                };
                report(&result, self.nodes);
            }
            if self.stopped || score.abs() >= WIN - 1000 {
                break;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cohort_rules::Rules;

    /// A queen up, the engine's best move leads to some position; once that position is
    /// one the game has seen (a repetition, a draw), the search plays another move and
    /// still scores the position as won material, not as the draw.
    #[test]
    fn a_position_seen_before_scores_as_a_draw_and_is_avoided_when_ahead() {
        let v = cohort_rules::builtin("chess").unwrap();
        let mut pos =
            cohort_rules::Position::parse(&v, "4k3/8/8/8/8/8/Q7/4K3 w").expect("a position");
        let w = Weights::new(&v);
        let table = Table::new(10);
        let mut s = Searcher::new(&w, &table);
        let first = s.think(&mut pos, 3, |_, _| {});
        let best = first.best.expect("a move");
        let undo = pos.make(best);
        let repeated = pos.hash();
        pos.unmake(best, undo);
        let table = Table::new(10);
        let mut s = Searcher::new(&w, &table);
        s.seen = vec![pos.hash(), repeated];
        let second = s.think(&mut pos, 3, |_, _| {});
        assert_ne!(second.best, Some(best), "the move into the repetition");
        assert!(second.score > 500, "still a queen up: {}", second.score);
        // With nothing seen, the same search plays the first move again.
        let table = Table::new(10);
        let mut s = Searcher::new(&w, &table);
        assert_eq!(s.think(&mut pos, 3, |_, _| {}).best, Some(best));
    }

    /// Contempt: where every move repeats a position, the search is worth exactly the draw,
    /// which costs the side searched `contempt` (and nothing without it).
    #[test]
    fn a_draw_costs_the_side_searched_its_contempt() {
        let v = cohort_rules::builtin("chess").unwrap();
        let mut pos =
            cohort_rules::Position::parse(&v, "4k3/8/8/8/8/8/8/R3K3 w").expect("a position");
        let w = Weights::new(&v);
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let mut seen = vec![pos.hash()];
        for &st in list.iter() {
            let undo = pos.make(st);
            seen.push(pos.hash());
            pos.unmake(st, undo);
        }
        for contempt in [0, 30] {
            let table = Table::new(10);
            let mut s = Searcher::new(&w, &table);
            s.seen = seen.clone();
            s.contempt = contempt;
            assert_eq!(s.think(&mut pos, 3, |_, _| {}).score, -contempt);
        }
        let table = Table::new(10);
        let mut s = Searcher::new(&w, &table);
        s.contempt = 30;
        assert!(
            s.think(&mut pos, 3, |_, _| {}).score > 300,
            "a rook up, nothing repeated"
        );
    }

    /// Two threads on one root (split.rs): the helper searches some of its steps, so the
    /// main thread searches fewer nodes than alone, and the answer is the one thread's.
    #[test]
    fn two_threads_share_the_roots_steps() {
        let v = cohort_rules::builtin("chesimals-1").unwrap();
        let pos = v.start();
        let w = Weights::new(&v);
        let alone = {
            let table = Table::new(18);
            let mut s = Searcher::new(&w, &table);
            s.reduce_in_turn = true;
            let out = s.think(&mut pos.clone(), 6, |_, _| {});
            (out, s.nodes)
        };
        let table = Table::new(18);
        let split = SplitRoot::default();
        let (out, main_nodes, helper_nodes) = std::thread::scope(|scope| {
            let mut helper = Searcher::new(&w, &table);
            helper.reduce_in_turn = true;
            helper.stop = Some(split.done_flag());
            helper.split = Some(&split);
            let mut p = pos.clone();
            let h = scope.spawn(move || {
                helper.help(&mut p);
                helper.nodes
            });
            let mut s = Searcher::new(&w, &table);
            s.reduce_in_turn = true;
            s.split = Some(&split);
            let out = s.think(&mut pos.clone(), 6, |_, _| {});
            split.finish();
            (out, s.nodes, h.join().unwrap())
        });
        assert_eq!(out.depth, 6, "the search finished its depths");
        assert!(pos.is_legal(out.best.expect("a step")));
        assert!(helper_nodes > 0, "the helper searched root steps");
        assert!(
            main_nodes < alone.1,
            "the main thread searched {main_nodes} nodes, alone {}",
            alone.1
        );
        // The same tree, split: the score of one thread (the shared table and each
        // thread's own history may order a few lines apart, hence a margin).
        assert!(
            (out.score - alone.0.score).abs() <= 30,
            "two threads {} against one {}",
            out.score,
            alone.0.score
        );
    }

    /// Late-move pruning inside a turn: a Chieftain turn (four activations) searched to the
    /// same depth visits fewer than half the nodes with it, still plays a legal step, and
    /// scores no higher than the full search (the three steps searched are all White's, so
    /// pruning only drops White's options).
    #[test]
    fn late_quiet_steps_inside_a_turn_are_pruned_near_the_horizon() {
        let v = cohort_rules::builtin("chieftain").unwrap();
        let mut pos = v.start();
        let w = Weights::new(&v);
        let mut run = |prune: bool| {
            let table = Table::new(16);
            let mut s = Searcher::new(&w, &table);
            s.reduce_in_turn = true;
            s.prune_late = prune;
            let out = s.think(&mut pos, 3, |_, _| {});
            (out, s.nodes)
        };
        let (full, full_nodes) = run(false);
        let (pruned, pruned_nodes) = run(true);
        assert!(
            pruned_nodes * 2 < full_nodes,
            "pruned {pruned_nodes} nodes, full {full_nodes}"
        );
        let best = pruned.best.expect("a step");
        assert!(pos.is_legal(best));
        assert!(
            pruned.score <= full.score,
            "pruning only drops lines: {} > {}",
            pruned.score,
            full.score
        );
    }

    /// Null moves, late-move reductions, check extensions and reverse futility (one-step
    /// games): the same search depth costs far fewer nodes, and a mate is still found. With
    /// king and pawns only (where zugzwang makes passing the best move, so that a null
    /// move would lie) no null move is tried: the search is the same node for node.
    #[test]
    fn null_moves_and_reductions_prune_but_keep_mates_and_zugzwang() {
        let v = cohort_rules::builtin("chess").unwrap();
        let w = Weights::new(&v);
        let run = |text: &str, depth: u32, null: bool, others: bool| {
            let mut pos = cohort_rules::Position::parse(&v, text).expect("a position");
            let table = Table::new(16);
            let mut s = Searcher::new(&w, &table);
            s.null_move = null;
            s.one_step = others;
            s.futility = others;
            let out = s.think(&mut pos, depth, |_, _| {});
            (out, s.nodes)
        };
        // A middlegame: the same depth, far fewer nodes.
        let middle = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ";
        let (_, plain_nodes) = run(middle, 6, false, false);
        let (_, null_nodes) = run(middle, 6, true, false);
        let (pruned, pruned_nodes) = run(middle, 6, true, true);
        assert!(
            null_nodes < plain_nodes,
            "null moves: {null_nodes} of {plain_nodes}"
        );
        assert!(
            pruned_nodes * 2 < plain_nodes,
            "pruned {pruned_nodes} nodes, plain {plain_nodes}"
        );
        assert!(pruned.best.is_some());
        // A mate behind a quiet first move (1. Rd1-d7 is no mate; 1. Rd8# is): the same mate.
        let mate = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w";
        let (plain, _) = run(mate, 5, false, false);
        let (pruned, _) = run(mate, 5, true, true);
        assert!(plain.score >= MATE_BOUND, "plain: {}", plain.score);
        assert_eq!(pruned.score, plain.score, "the same mate");
        // King and pawns: no null move, node for node.
        let pawns = "8/5k2/8/3p4/3P4/4K3/8/8 w";
        let (plain, plain_nodes) = run(pawns, 10, false, false);
        let (null, null_nodes) = run(pawns, 10, true, false);
        assert_eq!(
            (null.best, null.score, null_nodes),
            (plain.best, plain.score, plain_nodes)
        );
    }

    /// Near the quiet-turn draw a leaf with the root's units (no capture on the line) is
    /// drawn towards the draw's score by `quiet_pull`; one after a capture keeps its value.
    #[test]
    fn a_line_without_a_capture_is_drawn_towards_the_quiet_turn_draw() {
        let v = cohort_rules::builtin("chess").unwrap();
        let w = Weights::new(&v);
        let table = Table::new(10);
        let mut pos = cohort_rules::Position::parse(&v, "4k3/8/8/3p4/8/8/Q7/4K3 w").unwrap();
        let mut s = Searcher::new(&w, &table);
        s.contempt = 40;
        s.quiet_pull = 500;
        s.think(&mut pos, 1, |_, _| {});
        let plain = evaluate(&pos, &w);
        // Halfway between the evaluation and the draw, which costs White (the root) 40.
        assert_eq!(s.evaluate_cached(&pos), (plain * 500 - 40 * 500) / 1000);
        let take = pos.parse_step("a2xd5").unwrap();
        let undo = pos.make(take);
        let after = evaluate(&pos, &w);
        assert_eq!(
            s.evaluate_cached(&pos),
            after,
            "a capture restarts the count"
        );
        pos.unmake(take, undo);
        // Without the pull, the evaluation itself.
        let mut s = Searcher::new(&w, &table);
        s.contempt = 40;
        s.think(&mut pos, 1, |_, _| {});
        assert_eq!(s.evaluate_cached(&pos), plain);
        assert_ne!(plain, (plain * 500 - 40 * 500) / 1000);
    }

    /// Regression: a win found 2 plies below a node stored at ply 3 (WIN - 5 from the root)
    /// is read back at ply 7 as WIN - 9, a win 2 plies below that node; before the fix it
    /// came back as WIN - 5, a win nearer than the root could reach it.
    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let stored = score_to_table(WIN - 5, 3);
        assert_eq!(stored, WIN - 2);
        assert_eq!(score_from_table(stored, 7), WIN - 9);
        let lost = score_to_table(-WIN + 5, 3);
        assert_eq!(score_from_table(lost, 7), -WIN + 9);
        // Ordinary scores pass unchanged.
        assert_eq!(score_from_table(score_to_table(1234, 5), 9), 1234);
        // And the packed entry keeps the adjusted score.
        let table = Table::new(1);
        table.put(Entry {
            key: 42,
            depth: 3,
            bound: 0,
            score: stored,
            best: None,
        });
        let e = table.get(42).expect("stored");
        assert_eq!(score_from_table(e.score, 7), WIN - 9);
    }
}
