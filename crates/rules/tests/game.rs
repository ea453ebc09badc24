//! Games: the draw rules of RULES.md section 8, loss without a legal turn, undo in a turn.

mod common;
use cohort_rules::{builtin_variants, parse_variants, EndReason, Game, Outcome, Position, Side};
use common::*;

fn variant_from(text: &str) -> std::sync::Arc<cohort_rules::Variant> {
    parse_variants("test.ini", text, &builtin_variants())
        .unwrap()
        .remove(0)
}

/// Shuffle the two Chieftains on a2/a7 back and forth.
fn shuffle(g: &mut Game, turns: usize) {
    shuffle_from(g, 0, turns);
}

#[test]
fn threefold_repetition_at_turn_starts_draws() {
    let v = cohort_rules::builtin("mini-chieftain").unwrap();
    let mut g = Game::new(Position::parse(&v, "c7/8/8/8/8/8/8/C7 w").unwrap());
    shuffle(&mut g, 7);
    assert_eq!(g.result(), None, "the start position has occurred twice");
    shuffle_from(&mut g, 7, 1);
    assert_eq!(g.result(), Some((Outcome::Draw, EndReason::Repetition)));
    assert!(
        g.play_text("a1-a2").is_err(),
        "no step after the game ended"
    );
}

fn shuffle_from(g: &mut Game, start: usize, turns: usize) {
    let cycle = ["a1-a2", "a8-a7", "a2-a1", "a7-a8"];
    for t in start..start + turns {
        g.play_text(cycle[t % 4]).unwrap();
        g.play_text("end").unwrap();
    }
}

#[test]
fn quiet_turns_draw_and_a_capture_resets_the_count() {
    let v = variant_from("[quiet]\nbase = mini-chieftain\nname = Q\nrepetition = 0\nquiet-turns = 6\nsetup = c7/8/8/8/8/8/m7/C7 w\n");
    let mut g = Game::new(Position::parse(&v, "c7/8/8/8/8/8/m7/C7 w").unwrap());
    g.play_text("a1xa2").unwrap();
    g.play_text("end").unwrap();
    assert_eq!(g.quiet_turns(), 0, "a capture turn resets the count");
    shuffle_from(&mut g, 1, 5);
    assert_eq!(g.quiet_turns(), 5);
    assert_eq!(g.result(), None);
    shuffle_from(&mut g, 6, 1);
    assert_eq!(g.result(), Some((Outcome::Draw, EndReason::QuietTurns)));
}

#[test]
fn no_legal_turn_loses_or_draws_by_option() {
    // White's royal King a1 is boxed in by leaderless Guards of group 1: no legal turn.
    let boxed = place(
        16,
        12,
        &[
            ("a1", "K(2)"),
            ("a2", "G(1)"),
            ("b1", "G(1)"),
            ("b2", "G(1)"),
            ("a3", "G(1)"),
            ("b3", "G(1)"),
            ("c1", "G(1)"),
            ("c2", "G(1)"),
            ("c3", "G(1)"),
            ("p12", "k(2)"),
            ("a12", "k(3)"),
        ],
        'w',
    );
    let v = cohort_rules::builtin("chesimals-1").unwrap();
    let g = Game::new(Position::parse(&v, &boxed).unwrap());
    assert_eq!(
        g.result(),
        Some((Outcome::Win(Side::Black), EndReason::NoLegalTurn))
    );
    let v = variant_from("[drawn]\nbase = chesimals-1\nname = D\nno-legal-turn = draw\n");
    let g = Game::new(Position::parse(&v, &boxed).unwrap());
    assert_eq!(g.result(), Some((Outcome::Draw, EndReason::NoLegalTurn)));
}

#[test]
fn undo_works_inside_a_turn_only() {
    let v = cohort_rules::builtin("mini-chieftain").unwrap();
    let mut g = Game::new(v.start());
    let start = g.position().to_text();
    g.play_text("d2-d3").unwrap();
    assert!(g.undo());
    assert_eq!(g.position().to_text(), start);
    assert_eq!(g.position().hash(), v.start().hash());
    g.play_text("d2-d3").unwrap();
    g.play_text("end").unwrap();
    assert!(!g.undo(), "a finished turn is not taken back");
    assert_eq!(g.steps().len(), 2);
}

#[test]
fn a_regulation_removal_is_not_a_capture() {
    // White's Hand leaps away from its Limb and is removed at the end of the turn.
    let v = cohort_rules::builtin("lifeform").unwrap();
    let text = place(
        8,
        8,
        &[
            ("d1", "Q"),
            ("e1", "K"),
            ("d2", "P"),
            ("c3", "B"),
            ("d8", "q"),
            ("e8", "k"),
        ],
        'w',
    );
    let mut g = Game::new(Position::parse(&v, &text).unwrap());
    g.play_text("c3-b5").unwrap();
    g.play_text("end").unwrap();
    assert!(
        g.position()
            .to_text()
            .starts_with("3qk3/8/8/8/8/8/3P4/3QK3"),
        "{}",
        g.position().to_text()
    );
    assert_eq!(g.quiet_turns(), 1, "the removal did not reset the count");
}
