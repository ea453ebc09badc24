//! Lifeform Chess, a test per rule and ruling of RULES.md section 6 (and NOTATION.md's
//! Lifeform section). Letters: K Head, Q Torso, B Hand, N Foot, R Hair, P Limb.

use crate::common;
use cohort_rules::Rules;
use cohort_rules::{Illegal, Outcome, Position, Side, StepList, TurnError, Unfinished};
use common::*;

fn lf(units: &[(&str, &str)], side: char) -> Position {
    pos("lifeform", &place(8, 8, units, side))
}

fn steps(p: &Position) -> Vec<String> {
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    let mut v: Vec<String> = list.iter().map(|s| p.step_text(*s)).collect();
    v.sort();
    v
}

fn steps_from(p: &Position, from: &str) -> Vec<String> {
    steps(p)
        .into_iter()
        .filter(|s| s.starts_with(from))
        .collect()
}

#[test]
fn standard_array_has_four_first_moves_all_by_hands() {
    let p = cohort_rules::builtin("lifeform").unwrap().start();
    assert_eq!(steps(&p), names("c1-b3 c1-d3 f1-e3 f1-g3"));
}

#[test]
fn followers_are_the_hair_and_limbs_next_to_the_start_square() {
    let mut p = cohort_rules::builtin("lifeform").unwrap().start();
    play(&mut p, "c1-b3");
    // b2 c2 d2 stood next to c1; the vacated c1 is open to them; b3 is taken.
    assert_eq!(steps_from(&p, "b2"), names("b2-a3 b2-c1 b2-c3"));
    assert_eq!(steps_from(&p, "c2"), names("c2-c1 c2-c3 c2-d3"));
    assert_eq!(steps_from(&p, "d2"), names("d2-c1 d2-c3 d2-d3 d2-e3"));
    assert!(steps_from(&p, "e2").is_empty(), "e2 was not next to c1");
    assert!(
        steps_from(&p, "b1").is_empty() && steps_from(&p, "d1").is_empty(),
        "Feet and Torso do not follow"
    );
    assert!(legal(&p, "end"), "end is legal at once after the main move");
    assert!(!legal(&p, "b2-b3"), "NOTATION.md: c1-b3 b2-b3 is not legal");
    play(&mut p, "c2-c1");
    assert!(!legal(&p, "c1-c2"), "each follower steps once");
    assert!(legal(&p, "d2-c2"), "into the square a follower left");
}

#[test]
fn hair_and_limbs_never_move_on_their_own_and_the_torso_never_captures() {
    let p = lf(
        &[
            ("d1", "Q"),
            ("e1", "K"),
            ("d2", "P"),
            ("c1", "R"),
            ("e2", "n"),
            ("d8", "q"),
            ("e8", "k"),
        ],
        'w',
    );
    let err = p.parse_step("d2-d3").unwrap_err();
    assert_eq!(err.illegal, Some(Illegal::FollowerOnly), "{err}");
    assert!(p.parse_step("c1-b1").is_err());
    assert!(!legal(&p, "d1xe2"), "the Torso never captures");
    assert!(legal(&p, "e1xe2"), "the Head captures");
}

#[test]
fn hair_can_be_neither_captured_nor_pinned() {
    let p = lf(
        &[
            ("d1", "Q"),
            ("e1", "K"),
            ("d2", "P"),
            ("c3", "B"),
            ("e3", "r"),
            ("e4", "q"),
            ("f4", "k"),
        ],
        'w',
    );
    assert!(!legal(&p, "c3xe3") && !legal(&p, "c3~e3"));
    assert!(
        steps(&p).iter().all(|s| !s.ends_with("e3")),
        "{:?}",
        steps(&p)
    );
}

#[test]
fn a_hand_on_an_enemy_piece_captures_or_pins_two_distinct_steps() {
    // Testdata position: White Hand d2 can reach the Black Limb on d4 by a rook slide.
    let p = pos("lifeform", "8/8/5k2/4q3/3p4/2P5/1P1B4/KQ6 w");
    let s = steps(&p);
    assert!(s.contains(&"d2xd4".to_string()) && s.contains(&"d2~d4".to_string()));
    let mut pinned = p.clone();
    cohort_rules::apply_turn(&mut pinned, "d2~d4").unwrap();
    assert_eq!(pinned.to_text(), "8/8/5k2/4q3/3B~p4/2P5/1P6/KQ6 b");
    // A pin is not a capture: a Limb may still capture in the same turn.
    let mut q = p.clone();
    play(&mut q, "d2~d4");
    assert!(!q.body_turn().unwrap().body.captured);
}

#[test]
fn a_shared_square_cannot_be_entered_and_the_pinned_piece_cannot_move() {
    let p = pos("lifeform", "8/8/5k2/4q3/3B~p4/2P5/1P6/KQ6 b");
    // The Black Torso e5 is adjacent to d4 but may not enter it (it never captures anyway);
    // no Black piece may capture the pinning Hand; the pinned Limb never follows.
    assert!(
        steps(&p).iter().all(|s| !s.ends_with("d4")),
        "{:?}",
        steps(&p)
    );
    assert!(steps_from(&p, "d4").is_empty());
    // The pinned Limb still links Black's body: after Black's turn it is not removed.
    let mut q = p.clone();
    cohort_rules::apply_turn(&mut q, "f6-f7").unwrap();
    assert!(q.to_text().contains("B~p"), "{}", q.to_text());
}

#[test]
fn a_freed_piece_stays_and_a_follower_limb_may_capture_it() {
    let mut p = pos("lifeform", "8/8/5k2/4q3/3B~p4/2P5/1P6/KQ6 w");
    play(&mut p, "d4-d2");
    assert_eq!(
        p.unit_at(p.variant().geometry.parse_square("d4").unwrap())
            .unwrap()
            .side,
        Side::Black
    );
    assert!(
        legal(&p, "c3xd4"),
        "c3 stood next to d4 and the main move captured nothing"
    );
}

#[test]
fn at_most_one_capture_per_turn() {
    // White Foot e3 with Limbs d4 and f4 beside it; Black Limbs e5 and g5 within their reach.
    let units = [
        ("a1", "Q"),
        ("b1", "K"),
        ("b2", "P"),
        ("c3", "P"),
        ("d4", "P"),
        ("f4", "P"),
        ("e3", "N"),
        ("e5", "p"),
        ("g5", "p"),
        ("f7", "q"),
        ("g8", "k"),
    ];
    let mut p = lf(&units, 'w');
    play(&mut p, "e3-e2");
    assert!(
        legal(&p, "d4xe5") && legal(&p, "f4xg5"),
        "no capture yet: one follower Limb may capture"
    );
    play(&mut p, "d4xe5");
    assert!(!legal(&p, "f4xg5"), "only one capture a turn");
    assert!(legal(&p, "f4-f5"));
    // When the main move captured, no follower captures.
    let mut p = lf(&units, 'w');
    play(&mut p, "e3xe5");
    assert!(!legal(&p, "f4xg5"));
    assert!(
        steps(&p).iter().all(|s| !s.contains('x')),
        "{:?}",
        steps(&p)
    );
}

#[test]
fn regulations_remove_until_stable() {
    // White Hand b3 hangs on Limb c2; White Hair a4 hangs on the Hand. Black's Foot takes c2:
    // round 1 removes the Hand (and the Black Foot, cut off from its body), round 2 the Hair.
    let units = [
        ("d1", "Q"),
        ("e1", "K"),
        ("c2", "P"),
        ("b3", "B"),
        ("a4", "R"),
        ("c8", "n"),
        ("d8", "q"),
        ("e8", "k"),
        ("d7", "p"),
    ];
    let mut p = lf(&units, 'b');
    cohort_rules::apply_turn(&mut p, "c8xc2").unwrap();
    let text = p.to_text();
    assert_eq!(
        text,
        place(
            8,
            8,
            &[
                ("d1", "Q"),
                ("e1", "K"),
                ("d8", "q"),
                ("e8", "k"),
                ("d7", "p")
            ],
            'w'
        ),
        "{text}"
    );
    assert_eq!(p.outcome(), None);
}

#[test]
fn loss_is_judged_at_the_end_of_the_turn_and_followers_may_mend_a_neck() {
    // Head e1 and Torso d1; the Head steps to f2, breaking the Neck; Limb d2 (next to e1) mends it.
    let units = [
        ("d1", "Q"),
        ("e1", "K"),
        ("d2", "P"),
        ("d8", "q"),
        ("e8", "k"),
    ];
    let mut broken = lf(&units, 'w');
    cohort_rules::apply_turn(&mut broken, "e1-f2").unwrap();
    assert_eq!(
        broken.outcome(),
        Some(Outcome::Win(Side::Black)),
        "a self-inflicted loss is legal and loses"
    );
    assert!(steps(&broken).is_empty(), "no step after the game ended");
    let mut mended = lf(&units, 'w');
    cohort_rules::apply_turn(&mut mended, "e1-f2 d2-e1").unwrap();
    assert_eq!(mended.outcome(), None);
}

#[test]
fn capturing_the_enemy_head_mid_turn_leaves_followers_and_end() {
    let units = [
        ("a1", "Q"),
        ("b1", "K"),
        ("b2", "P"),
        ("c3", "P"),
        ("d4", "N"),
        ("h8", "k"),
        ("h7", "q"),
    ];
    let mut p = lf(&units, 'w');
    play(&mut p, "d4xh8");
    assert_eq!(p.outcome(), None, "loss is never judged mid-turn");
    assert!(legal(&p, "end") && legal(&p, "c3-d4"));
    play(&mut p, "c3-d4 end");
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::White)));
}

#[test]
fn losing_both_bodies_in_one_turn_is_a_draw() {
    // The White Head takes the Black Torso f5 but leaves its own Torso d3 without a Neck.
    let units = [("d3", "Q"), ("e4", "K"), ("f5", "q"), ("g6", "k")];
    let mut p = lf(&units, 'w');
    cohort_rules::apply_turn(&mut p, "e4xf5").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Draw));
}

// lifeform-free: the placement phase (NOTATION.md).

const WHITE_ARRAY: &str =
    "K@e1 Q@d1 B@c1 B@f1 N@b1 N@g1 R@a1 R@h1 P@a2 P@b2 P@c2 P@d2 P@e2 P@f2 P@g2 P@h2";

#[test]
fn free_setup_white_then_black_then_play() {
    let mut p = cohort_rules::builtin("lifeform-free").unwrap().start();
    assert_eq!(steps(&p).len(), 6 * 24, "six kinds to place on 24 squares");
    assert!(!legal(&p, "end"));
    cohort_rules::apply_turn(&mut p, WHITE_ARRAY).unwrap();
    assert_eq!(p.side_to_move(), Side::Black);
    assert!(
        p.to_text().ends_with(" b kqbbnnrrpppppppp"),
        "{}",
        p.to_text()
    );
    assert_eq!(
        p.parse_step("k@e4").unwrap_err().illegal,
        Some(Illegal::OutsidePlacementZone { ranks: 3 })
    );
    cohort_rules::apply_turn(
        &mut p,
        &WHITE_ARRAY
            .to_lowercase()
            .replace('1', "8")
            .replace('2', "7"),
    )
    .unwrap();
    // Now the standard array, White to move, nothing left to place.
    let standard = cohort_rules::builtin("lifeform").unwrap().start();
    assert_eq!(p.to_text(), format!("{} -", standard.to_text()));
    assert_eq!(steps(&p), steps(&standard));
}

#[test]
fn a_placement_breaking_a_regulation_is_refused_naming_the_piece() {
    let p = cohort_rules::builtin("lifeform-free").unwrap().start();
    let mut q = p.clone();
    let err = cohort_rules::apply_turn(&mut q, &WHITE_ARRAY.replace("R@a1", "R@a3")).unwrap_err();
    let hair = Unfinished::HairUnlinked {
        square: "a3".into(),
    };
    assert_eq!(
        closing(&err),
        Some(&Illegal::PlacementUnfinished(hair)),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "closing the turn: the placement is not finished: \
         the Hair on a3 is not linked to the Head, Torso, a Hand or a Foot"
    );
    assert_eq!(q.to_text(), p.to_text(), "a refused turn changes nothing");
    let err = cohort_rules::apply_turn(
        &mut q,
        &WHITE_ARRAY.replace("K@e1", "K@h3").replace("R@h1", "R@e1"),
    )
    .unwrap_err();
    let no_neck = Illegal::PlacementUnfinished(Unfinished::NoNeck);
    assert_eq!(closing(&err), Some(&no_neck), "{err}");
    let err = cohort_rules::apply_turn(&mut q, "K@e1 Q@d1").unwrap_err();
    let left = Unfinished::PiecesLeft { count: 14 };
    assert_eq!(
        closing(&err),
        Some(&Illegal::PlacementUnfinished(left)),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "closing the turn: the placement is not finished: 14 piece(s) still to place"
    );
    let err = cohort_rules::apply_turn(&mut q, "K@e1 K@e2").unwrap_err();
    let TurnError::Step { index, word, error } = &err else {
        panic!("{err:?}");
    };
    assert_eq!((*index, word.as_str()), (1, "K@e2"), "{err}");
    assert_eq!(error.illegal, Some(Illegal::NoneLeftToPlace), "{err}");
    assert_eq!(
        err.to_string(),
        "step 2 'K@e2': K@e2 is illegal: White has no Head left to place"
    );
}

/// The rules' reason for a turn refused at its closing `end` (None for any other refusal).
fn closing(err: &TurnError) -> Option<&Illegal> {
    match err {
        TurnError::Closing(e) => e.illegal.as_ref(),
        _ => None,
    }
}

#[test]
fn the_neck_requirement_of_a_placement_is_a_variant_option() {
    let v = cohort_rules::parse_variants(
        "x.ini",
        "[free-no-neck]\nbase = lifeform-free\nname = F\nplacement-neck = no\n",
        &cohort_rules::builtin_variants(),
    )
    .unwrap()
    .remove(0);
    let mut p = v.start();
    // Head away from the Torso: refused by default (see above), accepted with the option off.
    cohort_rules::apply_turn(
        &mut p,
        &WHITE_ARRAY.replace("K@e1", "K@h3").replace("R@h1", "R@e1"),
    )
    .unwrap();
    assert_eq!(p.side_to_move(), Side::Black);
}
