//! Chessma 84's piece diagrams (diagram.rs through `Explain::piece_targets`, chessma/targets.rs):
//! the squares come from the rules' own moves on the two boards (RULES-DETAILS 7.1: a move
//! lies on one board; twin rows 1/1' and 8/8'; the corners z0 i0 z9 i9), not from the Betza
//! letters on the 10x12 frame. The expected squares are worked out by hand from 7.1-7.4.

use crate::common;

use cohort_rules::diagram::{kind_targets, piece_diagram};
use cohort_rules::{builtin, Bitboard, Position, Rules, Side};

fn sorted(p: &Position, b: Bitboard) -> Vec<String> {
    let mut v: Vec<String> = b
        .iter()
        .map(|s| p.variant().geometry.square_name(s))
        .collect();
    v.sort();
    v
}

/// (moves, captures) of `letter` of `side` on `square`: on an empty board, or on `p`'s board.
fn diagram(
    p: &Position,
    letter: char,
    side: Side,
    square: &str,
    on_board: bool,
) -> (Vec<String>, Vec<String>) {
    let v = p.variant();
    let kind = v.kind_of_letter(letter).unwrap();
    let from = v.geometry.parse_square(square).unwrap();
    let (m, c) = kind_targets(p, kind, side, from, on_board);
    (sorted(p, m), sorted(p, c))
}

fn start() -> Position {
    builtin("chessma-84").unwrap().start()
}

use common::names;

// The issue's example: a Knight on b1 (board A only) leaps to z0 on board A. d1' is not a
// Knight's square from b1: b1 is on board A alone, d1' on board B alone, and a move lies on
// one board (the frame's plain 10x12 grid, where 1' sits under 1, gave d1' and missed z0).
#[test]
fn knight_on_b1_reaches_the_corner_on_its_own_board() {
    let p = start();
    let (moves, captures) = diagram(&p, 'N', Side::White, "b1", false);
    // Board A from b1: (-2,-1) z0, (-1,+2) a3, (+1,+2) c3, (+2,+1) d2; the others leave it.
    assert_eq!(moves, names("z0 a3 c3 d2"));
    assert_eq!(captures, moves);
    assert!(!moves.contains(&"d1'".to_string()));
    // From the twin square b1' (board B alone): the same four, by board B's grid.
    assert_eq!(
        diagram(&p, 'N', Side::White, "b1'", false).0,
        names("z0 a3 c3 d2")
    );
    // Black's Knight on b8: the mirror image.
    assert_eq!(
        diagram(&p, 'N', Side::Black, "b8", false).0,
        names("z9 a6 c6 d7")
    );
    // On the start position: d2 holds a White Pawn; z0, a3, c3 are free.
    assert_eq!(
        diagram(&p, 'N', Side::White, "b1", true),
        (names("z0 a3 c3"), vec![])
    );
    // The whole diagram says so too (the real Knight on b1).
    let kind = p.variant().kind_of_letter('N').unwrap();
    let b1 = p.variant().geometry.parse_square("b1").unwrap();
    let d = piece_diagram(&p, kind, Side::White, b1);
    assert_eq!(sorted(&p, d.empty_moves), names("z0 a3 c3 d2"));
    assert_eq!(sorted(&p, d.board_moves), names("z0 a3 c3"));
    assert_eq!(sorted(&p, d.legal_now.unwrap()), names("z0 a3 c3"));
}

// A Queen on d4 (the frame's middle): its lines on board A, and on board B those through
// the twin rows.
#[test]
fn queen_on_d4_reaches_both_boards() {
    let p = start();
    let (moves, captures) = diagram(&p, 'Q', Side::White, "d4", false);
    // Board A: up d5-d8 (4), down d3-d1 (3), right e4-h4 (4), left c4-a4 (3), e5-i9 (5),
    // c5-a7 (3), e3-g1 (3), c3-z0 (4): 29. Board B ends the same lines on d8', d1', h8' and
    // g1' instead, and c3-b2-a1'-z0: 5 more squares, 34 in all.
    assert_eq!(moves.len(), 34, "{moves:?}");
    let primed: Vec<&String> = moves.iter().filter(|s| s.ends_with('\'')).collect();
    assert_eq!(primed, ["a1'", "d1'", "d8'", "g1'", "h8'"]);
    for corner in ["z0", "i9"] {
        assert!(moves.contains(&corner.to_string()), "{corner}");
    }
    assert_eq!(captures, moves, "a Queen captures where it moves");
}

// No diagram square is a hole of the frame: every kind, on every square, both sides, on an
// empty board and on the start position.
#[test]
fn a_diagram_never_includes_a_hole() {
    let p = start();
    let v = p.variant().clone();
    let squares = v.geometry.squares;
    let frame = Bitboard::from_iter(
        (0..v.geometry.ranks)
            .flat_map(|r| (0..v.geometry.files).map(move |f| cohort_rules::Square::new(f, r))),
    );
    assert_eq!((frame & !squares).count(), 120 - 84);
    for kind in 0..v.pieces.len() {
        for from in squares.iter() {
            for side in [Side::White, Side::Black] {
                for on_board in [false, true] {
                    let (m, c) = kind_targets(&p, kind, side, from, on_board);
                    assert!(
                        (m | c) & !squares == Bitboard::EMPTY,
                        "{} on {}: {:?}",
                        v.pieces[kind].letter,
                        v.geometry.square_name(from),
                        sorted(&p, (m | c) & !squares)
                    );
                    assert!(!(m | c).has(from), "not its own square");
                }
            }
        }
    }
}

// Pawns: forward on both boards where the rows fork, captures on both boards' diagonals.
#[test]
fn pawns_on_the_twin_rows() {
    let p = start();
    assert_eq!(
        diagram(&p, 'P', Side::White, "e7", false),
        (names("e8 e8'"), names("d8 f8 d8' f8'"))
    );
    // From 1': a run of up to three squares (RULES-DETAILS 7.7), captures on rank 2.
    assert_eq!(
        diagram(&p, 'P', Side::White, "e1'", false),
        (names("e2 e3 e4"), names("d2 f2"))
    );
    assert_eq!(
        diagram(&p, 'P', Side::Black, "e2", false),
        (names("e1 e1'"), names("d1 f1 d1' f1'"))
    );
}

// The Ultima pieces on an empty board: capture squares by each piece's own method.
#[test]
fn ultima_capture_squares_on_an_empty_board() {
    let p = start();
    // Withdrawer d2: its 11 neighbours (7.1: e2 has 11), each with room to withdraw from on
    // one board: c1 and c1' both (the inventor's d2-g5 example takes both).
    let (moves, captures) = diagram(&p, 'W', Side::White, "d2", false);
    assert_eq!(captures, names("c1 d1 e1 c1' d1' e1' c2 e2 c3 d3 e3"));
    assert!(moves.contains(&"d1'".to_string()) && moves.contains(&"h6".to_string()));
    // Withdrawer d4: its 8 neighbours.
    assert_eq!(
        diagram(&p, 'W', Side::White, "d4", false).1,
        names("c3 c4 c5 d3 d5 e3 e4 e5")
    );
    // Long Leaper d4: every square of the Queen's 34 with a square beyond it on the same
    // board: board A 3+2+3+2+4+2+2+3 = 21, board B adds h8' (i9 beyond) and a1' (z0).
    let (moves, captures) = diagram(&p, 'L', Side::White, "d4", false);
    assert_eq!(moves.len(), 34);
    assert_eq!(captures.len(), 23, "{captures:?}");
    assert!(captures.contains(&"h8'".to_string()) && captures.contains(&"a1'".to_string()));
    assert!(!captures.contains(&"d8'".to_string()) && !captures.contains(&"i9".to_string()));
    // Chameleon d4: a lone Queen on any of its 34 line squares, a lone Knight on its 8
    // Knight squares (b3 b5 c2 c6 e2 e6 f3 f5); nothing else is out of those lines.
    let (moves, captures) = diagram(&p, 'X', Side::White, "d4", false);
    assert_eq!(moves.len(), 34);
    assert_eq!(captures.len(), 42, "{captures:?}");
    for k in ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"] {
        assert!(captures.contains(&k.to_string()), "{k}");
    }
    // No King for the Coordinator, no lone unit an Encloser can enclose; the Immobilizer,
    // Pusher and Swapper never capture. All move as Queens.
    for letter in ['C', 'E', 'I', 'U', 'S'] {
        let (moves, captures) = diagram(&p, letter, Side::White, "d4", false);
        assert_eq!((moves.len(), captures.len()), (34, 0), "{letter}");
    }
    // Nor from any other square: every square but a corner has two orthogonal neighbours
    // (a lone unit keeps a liberty), and a unit on a corner is never enclosed.
    let geo = &p.variant().geometry;
    for from in geo.squares.iter() {
        for letter in ['C', 'E'] {
            let name = geo.square_name(from);
            assert_eq!(
                diagram(&p, letter, Side::White, &name, false).1,
                Vec::<String>::new(),
                "{letter} {name}"
            );
        }
    }
}

// The Ultima pieces on a board: the units their moves take.
#[test]
fn ultima_captures_on_a_board() {
    let p = start();
    // A Withdrawer on d6 of the start position: it withdraws from c7, d7, e7 (to e5, d5,
    // c5). Its moves: d5-d3, e6-h6, c6-a6, e5-g3, c5-a3 (16); d7, c7, e7 block the others.
    let (moves, captures) = diagram(&p, 'W', Side::White, "d6", true);
    assert_eq!(captures, names("c7 d7 e7"));
    assert_eq!(moves.len(), 16, "{moves:?}");
    // The inventor's Coordinator example: King g1, the Coordinator arriving on f1' takes f1
    // and g1' (the count between them is 0 on both).
    let q = common::chessma_pos(
        &[
            ("g1", "K"),
            ("f4", "C"),
            ("f1", "r"),
            ("g1'", "n"),
            ("h7", "k"),
        ],
        "w - - -",
    );
    let (moves, captures) = diagram(&q, 'C', Side::White, "f4", true);
    assert!(moves.contains(&"f1'".to_string()), "{moves:?}");
    assert!(
        captures.contains(&"f1".to_string()) && captures.contains(&"g1'".to_string()),
        "{captures:?}"
    );
    // The same Coordinator for Black's side (not to move): its King is h7, so no capture
    // on White's rows; its diagram is still drawn.
    let (_, captures) = diagram(&q, 'C', Side::Black, "f4", true);
    assert!(!captures.contains(&"f1".to_string()), "{captures:?}");
}
