//! Command rules: the chesimal chain to the leader (RULES.md section 2) and Chieftain
//! activation (section 5), plus what ends a game mid-turn.

use crate::common;
use cohort_rules::Rules;
use cohort_rules::{Illegal, Outcome, Side, StepList};
use common::*;

/// Chesimals I position with White's group 1 as given and two Black royal kings far away.
fn chesimals(white: &[(&str, &str)]) -> cohort_rules::Position {
    let mut units: Vec<(&str, &str)> = white.to_vec();
    units.extend([("p12", "k(2)"), ("a12", "k(3)")]);
    pos("chesimals-1", &place(16, 12, &units, 'w'))
}

#[test]
fn chain_links_through_units_that_already_moved() {
    // Chief c1, Guards c2 d2 (linked), Guard e4 (two squares from d2: not linked).
    let mut p = chesimals(&[
        ("c1", "C(1)"),
        ("c2", "G(1)"),
        ("d2", "G(1)"),
        ("e4", "G(1)"),
        ("h1", "K(2)"),
    ]);
    assert!(!legal(&p, "e4-e5"), "e4 is not linked yet");
    play(&mut p, "c2-d3"); // d3 touches d2 and e4: the moved Guard is a link
    assert!(legal(&p, "e4-e5"), "linked through the Guard that moved");
    assert!(!legal(&p, "d3-d4"), "the moved Guard may not move again");
}

#[test]
fn a_unit_may_move_into_isolation_and_cuts_the_chain() {
    // Chief c1, Guard c2, Guard c3 linked only through c2.
    let mut p = chesimals(&[
        ("c1", "C(1)"),
        ("c2", "G(1)"),
        ("c3", "G(1)"),
        ("h1", "K(2)"),
    ]);
    assert!(legal(&p, "c3-c4"));
    play(&mut p, "c2-d1"); // d1 still touches the chief; c3 now touches nothing of group 1
    assert!(!legal(&p, "c3-c4"), "c3 lost its chain");
    let err = p.parse_step("c3-c4").unwrap_err();
    assert_eq!(err.illegal, Some(Illegal::NotLinked), "{err}");
    // A knight of a royal chesimal leaping away from everything is legal.
    let mut p = chesimals(&[("f2", "K(2)"), ("e2", "N(2)"), ("c1", "C(1)")]);
    play(&mut p, "e2-c3");
    assert!(
        legal(&p, "f2-f3"),
        "the king still moves after its knight left"
    );
}

#[test]
fn leaderless_chesimal_is_frozen_and_others_are_not_links() {
    // Group 1 lost its chief; its guard touches group 2's king but links run within a chesimal.
    let p = chesimals(&[("c2", "G(1)"), ("d2", "K(2)"), ("e1", "N(2)")]);
    assert!(!legal(&p, "c2-c3"));
    assert_eq!(
        p.parse_step("c2-c3").unwrap_err().illegal,
        Some(Illegal::LeaderLost { group: 0 })
    );
    assert!(legal(&p, "d2-d3") && legal(&p, "e1-f3"));
    // A group-1 guard touching only group 2's king is not linked to group 1's chief.
    let p = chesimals(&[("a1", "C(1)"), ("c2", "G(1)"), ("d2", "K(2)")]);
    assert!(!legal(&p, "c2-c3"));
}

#[test]
fn a_turn_moves_one_chesimal_and_each_unit_once() {
    let mut p = chesimals(&[
        ("c1", "C(1)"),
        ("c2", "G(1)"),
        ("h1", "K(2)"),
        ("h2", "G(2)"),
    ]);
    play(&mut p, "c2-c3");
    assert!(!legal(&p, "h2-h3"), "group 2 cannot join a turn of group 1");
    assert_eq!(
        p.parse_step("h2-h3").unwrap_err().illegal,
        Some(Illegal::OtherChesimal {
            chosen: 0,
            group: 1
        })
    );
    assert_eq!(
        p.parse_step("c3-c4").unwrap_err().illegal,
        Some(Illegal::AlreadyMoved)
    );
    assert!(legal(&p, "end") && legal(&p, "c1-d2"));
    play(&mut p, "end");
    assert_eq!(p.side_to_move(), Side::Black);
}

#[test]
fn when_nothing_can_move_end_is_the_only_step() {
    let mut p = chesimals(&[("c1", "C(1)"), ("h1", "K(2)")]);
    play(&mut p, "c1-c3");
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    assert_eq!(list.len(), 1);
    assert!(list.as_slice()[0].is_end());
}

#[test]
fn the_game_ends_the_moment_the_last_royal_falls() {
    // White's ortho chief o11 with Guards n12 and o12 beside Black's two kings p12 and m12.
    let units = [
        ("c1", "C(1)"),
        ("h1", "K(2)"),
        ("o11", "C(4)"),
        ("n12", "G(4)"),
        ("o12", "G(4)"),
        ("p12", "k(2)"),
        ("m12", "k(3)"),
    ];
    let mut p = pos("chesimals-1", &place(16, 12, &units, 'w'));
    play(&mut p, "o11xp12");
    assert_eq!(p.outcome(), None);
    assert!(legal(&p, "end"));
    play(&mut p, "n12xm12");
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::White)));
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    assert!(list.is_empty(), "no step after victory, not even end");
}

// Chieftain activation. mini-Chieftain; Black's Chieftain waits on h8.

#[test]
fn activation_range_is_three_at_the_moment_the_move_starts() {
    // Chieftains a1 b1; Man e4 is 4 from both (inactive), Man d4 is 3 from a1 (active).
    let p = pos(
        "mini-chieftain",
        &place(
            8,
            8,
            &[
                ("a1", "C"),
                ("b1", "C"),
                ("e5", "M"),
                ("d4", "M"),
                ("h8", "c"),
            ],
            'w',
        ),
    );
    assert!(!legal(&p, "e5-e6"));
    assert!(legal(&p, "d4-d5"));
    assert_eq!(
        p.parse_step("e5-e6").unwrap_err().illegal,
        Some(Illegal::NoActivator { range: 3 })
    );
}

#[test]
fn a_moved_chieftain_activates_from_its_new_square() {
    let mut p = pos(
        "mini-chieftain",
        &place(
            8,
            8,
            &[("a1", "C"), ("b1", "C"), ("e5", "M"), ("h8", "c")],
            'w',
        ),
    );
    assert!(!legal(&p, "e5-e6"));
    play(&mut p, "a1-c3"); // b1 activates it (or it activates itself)
    assert!(
        legal(&p, "e5-e6"),
        "c3 is two squares from e5, and one activation is left"
    );
    play(&mut p, "e5-e6");
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    assert_eq!(list.len(), 1, "two chieftains, two moves: only end remains");
}

#[test]
fn two_chieftains_covering_one_piece_are_matched() {
    // d1 is 3 from both Chieftains (a1, g1); b2 only from a1; f2 only from g1.
    let start = pos(
        "mini-chieftain",
        &place(
            8,
            8,
            &[
                ("a1", "C"),
                ("g1", "C"),
                ("d1", "M"),
                ("b2", "M"),
                ("f2", "M"),
                ("h8", "c"),
            ],
            'w',
        ),
    );
    // The shared piece first: whichever follows can still be matched.
    let mut p = start.clone();
    play(&mut p, "d1-d2");
    assert!(legal(&p, "b2-b3") && legal(&p, "f2-f3"));
    play(&mut p, "b2-b3");
    assert!(!legal(&p, "f2-f3"), "both activations are used");
    // A piece only a1 covers, then the shared one (must take g1), then nothing.
    let mut p = start.clone();
    play(&mut p, "b2-b3");
    assert!(legal(&p, "d1-d2"));
    assert!(!legal(&p, "a1-a2"), "a1 already activated b2; g1 is 6 away");
    play(&mut p, "d1-d2");
    assert!(!legal(&p, "f2-f3"));
    // b2 (a1) and f2 (g1): both fine; the chieftains cannot be reused.
    let mut p = start.clone();
    play(&mut p, "b2-b3 f2-f3");
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    assert_eq!(list.len(), 1);
}

#[test]
fn moves_per_turn_equal_the_chieftains_at_the_start() {
    // One Chieftain left: one move a turn.
    let mut p = pos(
        "mini-chieftain",
        &place(
            8,
            8,
            &[("a1", "C"), ("b2", "M"), ("c2", "M"), ("h8", "c")],
            'w',
        ),
    );
    play(&mut p, "b2-b3");
    assert!(!legal(&p, "c2-c3"));
    assert!(legal(&p, "end"));
}

// The models are parameters of the data file: a new command-control game is a new file.

fn custom(text: &str) -> std::sync::Arc<cohort_rules::Variant> {
    cohort_rules::parse_variants("custom.ini", text, &cohort_rules::builtin_variants())
        .unwrap()
        .remove(0)
}

#[test]
fn activations_per_leader_is_a_parameter() {
    let v = custom("[double]\nbase = mini-chieftain\nname = D\nactivations = 2\n");
    let text = place(
        8,
        8,
        &[
            ("a1", "C"),
            ("b2", "M"),
            ("c2", "M"),
            ("d2", "M"),
            ("h8", "c"),
        ],
        'w',
    );
    let mut p = cohort_rules::Position::parse(&v, &text).unwrap();
    play(&mut p, "b2-b3 c2-c3");
    assert!(!legal(&p, "d2-d3"), "one Chieftain, two activations");
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    assert_eq!(list.len(), 1);
}

#[test]
fn which_units_a_leader_activates_is_a_parameter() {
    // Chieftains that activate only Men: the Knight and the Chieftain itself stay put.
    let v = custom("[men-only]\nbase = mini-chieftain\nname = M\nactivates C = M\n");
    let text = place(
        8,
        8,
        &[("a1", "C"), ("b2", "M"), ("b1", "N"), ("h8", "c")],
        'w',
    );
    let p = cohort_rules::Position::parse(&v, &text).unwrap();
    assert!(legal(&p, "b2-b3"));
    assert!(!legal(&p, "b1-c3") && !legal(&p, "a1-a2"));
    // A chesimal whose chief activates only Guards: the chief is frozen, its guards move.
    let v = custom("[guards-only]\nbase = chesimals-1\nname = G\nactivates C = G\n");
    let text = place(
        16,
        12,
        &[
            ("c1", "C(1)"),
            ("c2", "G(1)"),
            ("b1", "E(1)"),
            ("h1", "K(2)"),
            ("p12", "k(2)"),
            ("a12", "k(3)"),
        ],
        'w',
    );
    let p = cohort_rules::Position::parse(&v, &text).unwrap();
    assert!(legal(&p, "c2-c3"));
    assert!(!legal(&p, "c1-d2") && !legal(&p, "b1-a2"));
    assert!(legal(&p, "h1-h2"), "group 2's King is not restricted");
}

#[test]
fn a_bad_activation_line_names_the_field() {
    let err = cohort_rules::parse_variants(
        "x.ini",
        "[x]\nbase = mini-chieftain\nname = X\nactivates M = M\n",
        &cohort_rules::builtin_variants(),
    )
    .unwrap_err();
    assert_eq!((err.line, err.field.as_str()), (4, "activates M"), "{err}");
}
