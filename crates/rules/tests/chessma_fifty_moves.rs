//! Chessma 84's fifty-move rule is FIDE's (RULES-DETAILS 7.5): a capture by ANY method and a
//! pawn move restart the count. The game reads captures from what each step reports, so a
//! Withdrawer's, Long Leaper's, Coordinator's, Encloser's or Chameleon's capture counts as a
//! replacement does.

use cohort_rules::Rules;
use cohort_rules::{Effects, Game, Position, Side, StepList};

use crate::common;
use common::chessma_pos as pos;

/// The legal steps of the side to move from `from` (any square when None), with what each
/// would do.
fn steps_from(p: &Position, from: Option<&str>) -> Vec<(cohort_rules::Step, Effects)> {
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    let geo = &p.variant().geometry;
    list.iter()
        .filter(|s| from.is_none_or(|f| geo.square_name(s.from) == f))
        .map(|&s| {
            let mut q = p.clone();
            let mut fx = Effects::new();
            q.make_reporting(s, &mut fx);
            (s, fx)
        })
        .collect()
}

/// Black makes a quiet King move (the count goes to 1), then White's piece on `from` makes
/// a move that captures exactly the units on `taken`: the count must be back at 0. A quiet
/// move of White's instead leaves it at 2.
fn capture_restarts_the_count(method: &str, pieces: &[(&str, &str)], from: &str, taken: &[&str]) {
    let start = pos(pieces, "b - - -");
    let mut game = Game::new(start.clone());
    let king = start.variant().kind_of_letter('K').unwrap() as u8;
    let (black_quiet, _) = steps_from(&start, None)
        .into_iter()
        .find(|(s, fx)| {
            !fx.captures()
                && start
                    .unit_at(s.from)
                    .is_some_and(|u| u.side == Side::Black && u.kind == king)
        })
        .unwrap_or_else(|| panic!("{method}: Black's King has no quiet move"));
    game.play(black_quiet).unwrap();
    assert_eq!(game.quiet_turns(), 1, "{method}: a quiet turn is counted");

    let now = game.position().clone();
    let geo = &now.variant().geometry;
    let (capture, fx) = steps_from(&now, Some(from))
        .into_iter()
        .find(|(_, fx)| fx.captures())
        .unwrap_or_else(|| panic!("{method}: no capture from {from} in {}", now.to_text()));
    let mut removed: Vec<String> = fx.removed().map(|r| geo.square_name(r.2)).collect();
    removed.sort();
    let mut expected: Vec<String> = taken.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(
        removed,
        expected,
        "{method}: {} takes",
        now.step_text(capture)
    );

    let mut quiet_game = game.clone();
    game.play(capture).unwrap();
    assert_eq!(
        game.quiet_turns(),
        0,
        "{method}: {} restarts the count",
        now.step_text(capture)
    );
    // The control: a quiet move of a piece that is not a pawn keeps counting.
    let pawn = now.variant().kind_of_letter('P').unwrap() as u8;
    let (quiet, _) = steps_from(&now, None)
        .into_iter()
        .find(|(s, fx)| !fx.captures() && now.unit_at(s.from).is_some_and(|u| u.kind != pawn))
        .expect("White has a quiet move");
    quiet_game.play(quiet).unwrap();
    assert_eq!(quiet_game.quiet_turns(), 2, "{method}: a quiet move counts");
}

#[test]
fn a_replacement_capture_restarts_the_count() {
    let pieces = [("h1", "K"), ("a8", "k"), ("d1", "R"), ("d5", "n")];
    capture_restarts_the_count("replacement", &pieces, "d1", &["d5"]);
}

#[test]
fn a_withdrawal_restarts_the_count() {
    // The Withdrawer on e4 moves away from the pawn on e3 (RULES-DETAILS 7: Withdrawer).
    let pieces = [("h1", "K"), ("a8", "k"), ("e4", "W"), ("e3", "p")];
    capture_restarts_the_count("withdrawal", &pieces, "e4", &["e3"]);
}

#[test]
fn a_long_leap_restarts_the_count() {
    let pieces = [("h1", "K"), ("a8", "k"), ("c4", "L"), ("d4", "p")];
    capture_restarts_the_count("long leap", &pieces, "c4", &["d4"]);
}

#[test]
fn a_coordination_restarts_the_count() {
    // The author's example: King g1, the Coordinator arriving on f1' takes on f1 (the
    // Coordinator's file and the King's rank; nothing between, on either side).
    let pieces = [("g1", "K"), ("a8", "k"), ("f5", "C"), ("f1", "n")];
    capture_restarts_the_count("coordination", &pieces, "f5", &["f1"]);
}

#[test]
fn an_enclosure_restarts_the_count() {
    // The Encloser teleports to a6, the Rook on a7's last liberty (a8 and a8' hold Knights,
    // b7 a Bishop): the Rook goes to White's pocket.
    let pieces = [
        ("e1", "K"),
        ("h5", "k"),
        ("a7", "r"),
        ("b7", "B"),
        ("a8", "N"),
        ("a8'", "N"),
        ("h2", "E"),
    ];
    capture_restarts_the_count("enclosure", &pieces, "h2", &["a7"]);
}

#[test]
fn a_chameleons_capture_restarts_the_count() {
    // The Chameleon takes a Knight by a Knight's move.
    let pieces = [("e1", "K"), ("h8", "k"), ("d4", "X"), ("e6", "n")];
    capture_restarts_the_count("chameleon", &pieces, "d4", &["e6"]);
}

#[test]
fn a_pawn_move_restarts_the_count() {
    let start = pos(&[("h1", "K"), ("a8", "k"), ("e2", "P")], "b - - -");
    let mut game = Game::new(start);
    game.play_text("a8-b8").unwrap();
    assert_eq!(game.quiet_turns(), 1);
    game.play_text("e2-e3").unwrap();
    assert_eq!(game.quiet_turns(), 0, "a pawn move restarts the count");
    game.play_text("b8-a8").unwrap();
    game.play_text("h1-g1").unwrap();
    assert_eq!(game.quiet_turns(), 2, "King moves do not");
}
