//! Properties over random games in every built-in variant: make/unmake restores the
//! position and its hash exactly, the incremental hash equals the hash from scratch, and
//! position strings round-trip at every turn start.

use crate::common;
use cohort_rules::{builtin_variants, Position, StepList};
use cohort_rules::{Rules, SearchHooks};
use common::Rng;
use proptest::prelude::*;

/// Everything observable about a position, for exact comparison.
fn snapshot(p: &Position) -> (String, String, u64, Option<cohort_rules::Outcome>, u64) {
    (
        p.to_text(),
        format!("{:?} {:?}", p.command_turn(), p.body_turn()),
        p.hash(),
        p.outcome(),
        p.count_steps(),
    )
}

fn random_game(variant_index: usize, seed: u64, steps: usize) -> Result<(), TestCaseError> {
    let variants = builtin_variants();
    let v = &variants[variant_index % variants.len()];
    let mut p = v.start();
    let mut rng = Rng(seed | 1);
    let mut list = StepList::new();
    for _ in 0..steps {
        p.legal_steps(&mut list);
        if list.is_empty() {
            break;
        }
        // Prefer unit moves so that turns get long; `end` one time in four when legal.
        let moves: Vec<_> = list.iter().copied().filter(|s| !s.is_end()).collect();
        let step = if moves.is_empty() || (list.len() > moves.len() && rng.below(4) == 0) {
            list.as_slice()[list.len() - 1]
        } else {
            moves[rng.below(moves.len())]
        };
        // Every legal step made and unmade restores the position exactly.
        let before = snapshot(&p);
        for &s in list.iter() {
            let undo = p.make(s);
            prop_assert_eq!(
                p.hash(),
                p.compute_hash(),
                "incremental hash after {} in {}",
                p.step_text(s),
                v.id
            );
            p.unmake(s, undo);
            prop_assert_eq!(
                &snapshot(&p),
                &before,
                "unmake of {} in {}",
                p.step_text(s),
                v.id
            );
        }
        p.make(step);
        prop_assert_eq!(p.hash(), p.compute_hash());
        if p.at_turn_start() && p.outcome().is_none() {
            // A search's null move passes the turn: the other side moves, the hash follows,
            // and taking it back restores everything.
            let (before, side) = (snapshot(&p), p.side_to_move());
            if let Some(undo) = p.make_null() {
                prop_assert_eq!(p.side_to_move(), side.other());
                prop_assert!(p.at_turn_start());
                prop_assert_eq!(
                    p.hash(),
                    p.compute_hash(),
                    "hash after a null move in {}",
                    v.id
                );
                prop_assert_ne!(p.hash(), before.2);
                p.unmake_null(undo);
                prop_assert_eq!(&snapshot(&p), &before, "null move undone in {}", v.id);
            }
        }
        if p.at_turn_start() && p.outcome().is_none() {
            let text = p.to_text();
            let back = Position::parse(v, &text)
                .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(back.to_text(), text.clone());
            prop_assert_eq!(
                back.hash(),
                p.hash(),
                "hash of the parsed position {}",
                text
            );
            prop_assert_eq!(back.count_steps(), p.count_steps());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn make_unmake_hash_and_round_trip(variant in 0usize..64, seed in any::<u64>(), steps in 1usize..120) {
        random_game(variant, seed, steps)?;
    }
}

#[test]
fn every_variant_is_exercised() {
    // The proptest above picks variants by index; make sure each one gets long games too.
    for i in 0..builtin_variants().len() {
        for seed in 1..4 {
            random_game(i, seed * 7919, 300).unwrap();
        }
    }
}

#[test]
fn mid_turn_hash_depends_on_turn_state_not_on_move_order() {
    let v = cohort_rules::builtin("chieftain").unwrap();
    // Two Men moved in either order reach the same turn state and the same hash.
    let mut a = v.start();
    cohort_rules::apply_turn(&mut a, "d4-d5").unwrap(); // White's turn (one move, closed)
    let mut b = a.clone();
    let c = a.clone();
    for s in ["d9-d8", "m9-m8"] {
        let st = a.parse_step(s).unwrap();
        a.make(st);
    }
    for s in ["m9-m8", "d9-d8"] {
        let st = b.parse_step(s).unwrap();
        b.make(st);
    }
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash(), a.compute_hash());
    // The same board after `end` differs from the mid-turn one (side and turn state hashed).
    let mut ended = a.clone();
    ended.make(cohort_rules::Step::END);
    assert_ne!(ended.hash(), a.hash());
    assert_ne!(c.hash(), a.hash());
}
