//! RULES.md section 1, piece by piece, in real variants: blocked slides, leaps over occupied
//! squares, the inclusive third-square rule, the bent general, capture by replacement.

use crate::common;
use common::*;

// mini-Chieftain boards: Chieftains are royal leaders with activation range 3, so a piece
// next to its Chieftain may always move. Black's Chieftain waits on h8.

#[test]
fn hero_inclusive_third_square() {
    // Hero on a1, own Chieftain b1. Line a2 a3 a4 upward; along rank 1 the Chieftain on b1
    // is jumped (c1) and c1 is empty, so d1 is reached leap-then-slide in every case.
    // d1 empty, d2 empty: a2 a3 a4 all reachable.
    let p = pos("mini-chieftain", "7c/8/8/8/8/8/8/HC6 w");
    assert_eq!(dests(&p, "a1"), names("a2 a3 a4 c1 d1"));
    // d1 own, d2 empty: leap to a3, leap-then-slide to a4.
    let p = pos("mini-chieftain", "7c/8/8/8/8/8/M7/HC6 w");
    assert_eq!(dests(&p, "a1"), names("a3 a4 c1 d1"));
    // d1 empty, d2 own: a2 by step, a4 by slide-then-leap.
    let p = pos("mini-chieftain", "7c/8/8/8/8/M7/8/HC6 w");
    assert_eq!(dests(&p, "a1"), names("a2 a4 c1 d1"));
    // d1 and d2 both occupied: only the leap square, if it holds an enemy; never d3.
    let p = pos("mini-chieftain", "7c/8/8/8/8/m7/M7/HC6 w");
    assert_eq!(dests(&p, "a1"), names("a3 c1 d1"));
}

#[test]
fn shaman_inclusive_diagonal() {
    let p = pos("mini-chieftain", "7c/8/8/8/8/8/1m6/SC6 w");
    // b2 enemy (capture), c3 by leap, d4 by leap-then-slide (c3 empty).
    assert_eq!(dests(&p, "a1"), names("b2 c3 d4"));
}

#[test]
fn knight_leaps_over_occupied_squares() {
    let p = pos("mini-chieftain", "7c/8/8/8/8/8/MMM5/MNC5 w");
    assert_eq!(dests(&p, "b1"), names("a3 c3 d2"));
}

#[test]
fn man_steps_and_captures_only_enemies() {
    let p = pos("mini-chieftain", "7c/8/8/8/8/2m5/1MM5/2C5 w");
    assert_eq!(dests(&p, "b2"), names("a1 a2 a3 b1 b3 c3"));
}

#[test]
fn bent_general_needs_an_empty_first_square_and_never_returns() {
    // Chieftain a1 boxed by own Men a2, b1: b2 holds an enemy, which it may capture but not
    // pass through, so nothing lies beyond.
    let p = pos("mini-chieftain", "7c/8/8/8/8/8/Mm6/CM6 w");
    assert_eq!(dests(&p, "a1"), names("b2"));
    // With b2 empty: every square at distance 2 adjacent to b2, but never a1 itself.
    let p = pos("mini-chieftain", "7c/8/8/8/8/8/M7/CM6 w");
    assert_eq!(dests(&p, "a1"), names("b2 a3 b3 c3 c2 c1"));
    // In the open: the whole 5x5 box but the centre, each destination once.
    let p = pos("mini-chieftain", "7c/8/8/8/3C4/8/8/8 w");
    assert_eq!(dests(&p, "d4").len(), 24);
}

#[test]
fn chesimals_exclusive_warmachine_and_elephant_leap() {
    // Chesimals I: Warmachine = W or D leap, Elephant = F or A leap; both jump occupied squares.
    // White ortho chief o2 with Warmachine o3 and Guards around it.
    let mut rows = vec!["16".to_string(); 12];
    rows[0] = "15k(2)".into();
    rows[12 - 3] = "13G(4)W(4)G(4)".into(); // n3 o3 p3
    rows[12 - 2] = "14C(4)1".into(); // o2
    rows[12 - 4] = "14G(4)1".into(); // o4
    rows[11] = "K(2)15".into(); // a royal for White, or the game would be over
    let p = pos("chesimals-1", &format!("{} w", rows.join("/")));
    // o3: W to o4 (own), n3/p3 (own), o2 (own); D to o5, m3, o1 ... (q3 is off the board).
    assert_eq!(dests(&p, "o3"), names("o5 m3 o1"));
}

#[test]
fn chesimals_two_guard_is_a_linear_q2() {
    // Chesimals II: the Guard moves 1 or 2 in a line, the second only through an empty first.
    let mut rows = vec!["16".to_string(); 12];
    rows[0] = "15k(2)".into();
    rows[12 - 5] = "3G(1)12".into(); // d5
    rows[12 - 4] = "2C(1)1g(3)11".into(); // c4, enemy e4
    rows[11] = "K(2)15".into(); // a royal for White, or the game would be over
    let p = pos("chesimals-2", &format!("{} w", rows.join("/")));
    let d = dests(&p, "d5");
    assert!(
        d.contains(&"d7".to_string())
            && d.contains(&"f7".to_string())
            && d.contains(&"b7".to_string())
    );
    assert!(d.contains(&"e4".to_string()), "captures the adjacent enemy");
    assert!(!d.contains(&"f3".to_string()), "blocked by the enemy on e4");
    assert!(
        !d.contains(&"b3".to_string()),
        "blocked by its own chief on c4"
    );
    assert!(!d.contains(&"c4".to_string()));
}
