//! The turn planner, for games whose turns are long (a chesimal of nine units, four
//! Chieftains): a step-level search cannot see past the end of such a turn, so the planner
//! works with whole turns. A beam search per group proposes candidate turns; each is judged
//! by the opponent's best candidate reply (a two-turn minimax on the evaluation), after an
//! exact check that no reply of at most two unit moves captures the last royal unit.

use crate::time::Instant;

use cohort_rules::{Family, Step, StepList};

use crate::eval::{score_for, Weights};
use crate::search::WIN;
use crate::tactics;

/// What the planner may spend: a deadline and/or a number of evaluated steps.
pub struct Budget {
    pub deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    pub nodes: u64,
}

impl Budget {
    fn spent(&self) -> bool {
        self.node_limit.is_some_and(|n| self.nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A whole turn, the position after it, and its score for the side that played it.
pub struct Candidate<R> {
    pub steps: Vec<Step>,
    pub pos: R,
    pub score: i32,
}

/// Up to `keep` distinct whole turns for the side to move, best first by the evaluation,
/// from a beam of width `beam` per group (the group of the turn's first unit).
pub fn candidates<R: Family>(
    root: &R,
    w: &Weights,
    beam: usize,
    keep: usize,
    budget: &mut Budget,
) -> Vec<Candidate<R>> {
    let mover = root.side_to_move();
    let mut finals: Vec<Candidate<R>> = Vec::new();
    // The partial turns being extended: position, steps so far, group.
    let mut frontier: Vec<(R, Vec<Step>, u8)> = vec![(root.clone(), vec![], u8::MAX)];
    let mut list = StepList::new();
    while !frontier.is_empty() {
        // (score, group, parent, step) of every extension that keeps the turn open.
        let mut children: Vec<(i32, u8, usize, Step)> = Vec::new();
        for (i, (p, steps, group)) in frontier.iter_mut().enumerate() {
            p.legal_steps(&mut list);
            for &s in list.iter() {
                budget.nodes += 1;
                let g = if *group == u8::MAX {
                    p.unit_at(s.from).map_or(0, |u| u.group)
                } else {
                    *group
                };
                let undo = p.make(s);
                let score = score_for(p, mover, w);
                if s.is_end() || p.side_to_move() != mover || p.outcome().is_some() {
                    let mut done = steps.clone();
                    done.push(s);
                    finals.push(Candidate {
                        steps: done,
                        pos: p.clone(),
                        score,
                    });
                } else {
                    children.push((score, g, i, s));
                }
                p.unmake(s, undo);
            }
        }
        if budget.spent() && !finals.is_empty() {
            break;
        }
        // The best `beam` extensions of each group, distinct positions only.
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        let mut taken: Vec<(u8, usize)> = Vec::new();
        let mut seen: Vec<u64> = Vec::new();
        let mut next = Vec::new();
        for &(_, g, parent, s) in &children {
            let count = taken.iter().find(|t| t.0 == g).map_or(0, |t| t.1);
            if count >= beam {
                continue;
            }
            let (p, steps, _) = &frontier[parent];
            let mut q = p.clone();
            q.make(s);
            if seen.contains(&q.hash()) {
                continue;
            }
            seen.push(q.hash());
            match taken.iter_mut().find(|t| t.0 == g) {
                Some(t) => t.1 += 1,
                None => taken.push((g, 1)),
            }
            let mut steps = steps.clone();
            steps.push(s);
            next.push((q, steps, g));
        }
        frontier = next;
    }
    finals.sort_by_key(|c| std::cmp::Reverse(c.score));
    // Distinct positions, and at most two turns per first step: the best turns of a beam
    // are mostly one turn with a step more or less, and the minimax needs real choices.
    let mut distinct: Vec<Candidate<R>> = Vec::new();
    for c in finals {
        if distinct.len() >= keep {
            break;
        }
        let same_start = distinct.iter().filter(|d| d.steps[0] == c.steps[0]).count();
        if same_start < 2 && !distinct.iter().any(|d| d.pos.hash() == c.pos.hash()) {
            distinct.push(c);
        }
    }
    distinct
}

/// The best whole turn by a two-turn minimax over candidate turns, and its score. None if
/// the side to move has no turn to propose.
pub fn plan<R: Family>(root: &R, w: &Weights, budget: &mut Budget) -> Option<(Vec<Step>, i32)> {
    let mover = root.side_to_move();
    let mine = candidates(root, w, 6, 16, budget);
    let mut best: Option<(i32, Vec<Step>)> = None;
    for c in mine {
        if best.is_some() && budget.spent() {
            break;
        }
        let score = match c.pos.outcome() {
            Some(_) => score_for(&c.pos, mover, w),
            None => {
                let mut q = c.pos.clone();
                if tactics::win_this_turn(&mut q, 2).is_some() {
                    -WIN + 1
                } else {
                    let replies = candidates(&c.pos, w, 4, 6, budget);
                    replies.first().map_or(c.score, |r| -r.score)
                }
            }
        };
        if score >= WIN {
            return Some((c.steps, score));
        }
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((score, c.steps));
        }
    }
    best.map(|(s, steps)| (steps, s))
}
