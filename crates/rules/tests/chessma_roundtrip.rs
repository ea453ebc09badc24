//! Chessma 84: at every node of a small tree, the position string read back gives the same
//! legal step count and hash (no state hides outside the position string).

use cohort_rules::Rules;
use cohort_rules::{builtin, Position, StepList};

fn walk(pos: &mut Position, depth: u32, bad: &mut u32) {
    let text = pos.to_text();
    let v = pos.variant().clone();
    let re = Position::parse(&v, &text).unwrap();
    if re.count_steps() != pos.count_steps() || re.hash() != pos.hash() {
        if *bad < 5 {
            eprintln!(
                "MISMATCH at {text}: {} vs {} hash {} {}",
                pos.count_steps(),
                re.count_steps(),
                pos.hash(),
                re.hash()
            );
        }
        *bad += 1;
    }
    if depth == 0 {
        return;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.iter() {
        let u = pos.make(s);
        walk(pos, depth - 1, bad);
        pos.unmake(s, u);
    }
}

#[test]
fn position_strings_round_trip_at_every_node() {
    let v = builtin("chessma-84").unwrap();
    // The start, and a middle game with pockets, a spent Encloser and Ultima pieces about.
    let middle = "i********x/*u1lwcep1*/*rnbqkbr1*/*ppppppP1*/*4pn2*/*3N4*/*3PLB2*/*3Q2E'1*/*PPP1PP1P*/*R3KBNR*/*1U1WC1SX*/I********1 w KQq - S";
    for text in [None, Some(middle)] {
        let mut pos = match text {
            None => v.start(),
            Some(t) => Position::parse(&v, t).unwrap(),
        };
        let mut bad = 0;
        walk(&mut pos, 2, &mut bad);
        assert_eq!(bad, 0, "{text:?}");
    }
}
