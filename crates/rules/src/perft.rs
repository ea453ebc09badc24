//! Step perft (NOTATION.md): count sequences of legal steps, written once against `Rules`
//! and run on each family's own position. Leaves are counted without being made
//! (`count_steps`) unless the made-leaf form is asked for, which every figure states.

use crate::family::{Position, Visit};
use crate::interface::Family;
use crate::step::{Step, StepList};

/// Number of legal step sequences of length `depth` from `pos`, on its family's own type.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    pos.clone().visit(Perft { depth, made: false })
}

/// Perft that makes and unmakes every leaf step too (for comparison with `perft`, whose
/// leaves are only counted).
pub fn perft_made(pos: &mut Position, depth: u32) -> u64 {
    pos.clone().visit(Perft { depth, made: true })
}

/// Perft per first step, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Step, u64)> {
    pos.clone().visit(Divide { depth })
}

struct Perft {
    depth: u32,
    made: bool,
}
impl Visit for Perft {
    type Output = u64;
    fn visit<R: Family>(self, mut game: R) -> u64 {
        if self.made {
            count_made(&mut game, self.depth)
        } else {
            count(&mut game, self.depth)
        }
    }
}

struct Divide {
    depth: u32,
}
impl Visit for Divide {
    type Output = Vec<(Step, u64)>;
    fn visit<R: Family>(self, mut game: R) -> Vec<(Step, u64)> {
        divide_of(&mut game, self.depth)
    }
}

/// Perft of any family: the family's own count where it has one, else leaves counted.
pub fn count<R: Family>(pos: &mut R, depth: u32) -> u64 {
    match pos.own_perft(depth, false) {
        Some(n) => n,
        None => counted(pos, depth),
    }
}

fn counted<R: Family>(pos: &mut R, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_steps(),
        _ => {
            let mut list = StepList::new();
            pos.legal_steps(&mut list);
            let mut nodes = 0;
            for &step in list.iter() {
                let undo = pos.make(step);
                nodes += counted(pos, depth - 1);
                pos.unmake(step, undo);
            }
            nodes
        }
    }
}

/// Perft of any family with every leaf made and unmade.
pub fn count_made<R: Family>(pos: &mut R, depth: u32) -> u64 {
    match pos.own_perft(depth, true) {
        Some(n) => n,
        None => made(pos, depth),
    }
}

fn made<R: Family>(pos: &mut R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    if depth == 1 {
        // The last ply: each leaf is made and unmade here rather than in a call that
        // would only return 1 (a call per leaf was a tenth of the time).
        for &step in list.iter() {
            let undo = pos.make(step);
            pos.unmake(step, undo);
        }
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &step in list.iter() {
        let undo = pos.make(step);
        nodes += made(pos, depth - 1);
        pos.unmake(step, undo);
    }
    nodes
}

/// Perft per first step of any family, in generation order.
pub fn divide_of<R: Family>(pos: &mut R, depth: u32) -> Vec<(Step, u64)> {
    if depth == 0 {
        return vec![];
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    list.iter()
        .map(|&step| {
            let undo = pos.make(step);
            let n = count(pos, depth - 1);
            pos.unmake(step, undo);
            (step, n)
        })
        .collect()
}
