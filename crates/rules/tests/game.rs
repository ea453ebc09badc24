//! Games: the draw rules of RULES.md section 8, loss without a legal turn, undo in a turn.

use crate::common;
use cohort_rules::Rules;
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

/// `Game::play` and `play_text` answer typed errors: the rules' reason of an illegal step,
/// malformed text, or a game that is over.
#[test]
fn play_errors_are_typed() {
    use cohort_rules::{Illegal, PlayError};
    let chess = cohort_rules::builtin("chess").unwrap();
    let mut g = Game::new(chess.start());
    let e = g.play_text("e7e5").unwrap_err();
    assert_eq!(e.reason(), Some(&Illegal::NotYourUnit), "{e}");
    assert_eq!(e.code(), "illegal_step");
    let e = g.play_text("e2e5").unwrap_err();
    assert_eq!(e.reason(), Some(&Illegal::NoSuchMove), "{e}");
    let e = g.play_text("hello").unwrap_err();
    assert!(matches!(e, PlayError::Parse(_)), "{e:?}");
    assert_eq!(e.code(), "bad_step");
    // A Step value, not text: the same reason as its text.
    let step = g.position().parse_step("e2e4").unwrap();
    let mut other = Game::new(chess.start());
    other.play_text("e2e4").unwrap();
    let e = other.play(step).unwrap_err();
    assert_eq!(e.reason(), Some(&Illegal::NoUnit), "{e}");
    g.resign(Side::White);
    assert_eq!(g.play_text("e2e4").unwrap_err(), PlayError::GameOver);

    // Chesimals: after the turn's first step, a unit of another chesimal.
    let v = cohort_rules::builtin("chesimals-1").unwrap();
    let mut g = Game::new(v.start());
    let mut list = cohort_rules::StepList::new();
    g.legal_steps(&mut list);
    g.play(*list.iter().next().unwrap()).unwrap();
    let pos = g.position().clone();
    let geo = &v.geometry;
    let mut found = false;
    for u in cohort_rules::all_units(&pos).filter(|u| u.alive && u.side == Side::White) {
        for to in geo.squares.iter() {
            let text = format!("{}-{}", geo.square_name(u.square), geo.square_name(to));
            if let Err(e) = g.play_text(&text) {
                if let Some(Illegal::OtherChesimal { chosen, group }) = e.reason() {
                    assert_ne!(chosen, group);
                    assert_eq!(e.reason().unwrap().code(), "other_chesimal");
                    found = true;
                }
            }
        }
    }
    assert!(found, "no step of another chesimal");
}

#[test]
fn the_repeatable_turn_starts_are_those_since_the_last_capture() {
    let chess = cohort_rules::builtin("chess").unwrap();
    let mut g = Game::new(chess.start());
    let start = g.position().hash();
    for s in ["g1-f3", "g8-f6", "f3-g1", "f6-g8"] {
        g.play_text(s).unwrap();
    }
    // Back where it started: five turn starts, the first and the last the same.
    let seen = g.repeatable_turn_starts().to_vec();
    assert_eq!(seen.len(), 5);
    assert_eq!((seen[0], seen[4]), (start, start));
    // A capture changes the units for good: only the turn starts after it remain.
    for s in ["e2-e4", "d7-d5", "e4xd5"] {
        g.play_text(s).unwrap();
    }
    assert_eq!(g.repeatable_turn_starts(), &[g.position().hash()]);
    // A variant without the repetition rule has none to repeat.
    let v = variant_from("[norep]\nbase = chess\nrepetition = 0\n");
    let g = Game::new(v.start());
    assert!(g.repeatable_turn_starts().is_empty());
}
