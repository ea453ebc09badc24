//! Step perft (NOTATION.md): count sequences of legal steps. Leaves are counted without
//! being made (`count_steps`), which every reported figure states.

use crate::position::Position;
use crate::step::{Step, StepList};

/// Number of legal step sequences of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match pos.core_perft(depth, false) {
        Some(n) => n,
        None => counted(pos, depth),
    }
}

fn counted(pos: &mut Position, depth: u32) -> u64 {
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

/// Perft that makes and unmakes every leaf step too (for comparison with `perft`, whose
/// leaves are only counted).
pub fn perft_made(pos: &mut Position, depth: u32) -> u64 {
    match pos.core_perft(depth, true) {
        Some(n) => n,
        None => made(pos, depth),
    }
}

fn made(pos: &mut Position, depth: u32) -> u64 {
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

/// Perft per first step, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Step, u64)> {
    if depth == 0 {
        return vec![];
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    list.iter()
        .map(|&step| {
            let undo = pos.make(step);
            let n = perft(pos, depth - 1);
            pos.unmake(step, undo);
            (step, n)
        })
        .collect()
}
