//! `Explain::checkers`: the enemy units that give check, and how (RULES-DETAILS 7.6 X1 and
//! 7.7 for Chessma 84; FIDE chess). Each position is built for one point; a walk over many
//! positions holds the answer to `in_check` (the same attack code gives both).

use crate::common;

use cohort_rules::{builtin, CheckHow, Explain, Position, Rules, SearchHooks, StepList};

/// The checkers as "square Piece how", sorted by square name.
fn checkers(p: &Position) -> Vec<String> {
    let v = p.variant();
    let mut out: Vec<String> = p
        .checkers()
        .iter()
        .map(|c| {
            format!(
                "{} {} {:?}",
                v.geometry.square_name(c.square),
                v.pieces[c.kind as usize].name,
                c.how
            )
        })
        .collect();
    out.sort();
    out
}

fn chessma(pieces: &[(&str, &str)]) -> Position {
    common::chessma_pos(pieces, "w - - -")
}

/// White's King on e4 and Black's on h8 (a8 when h8 is in the way), with `extra`.
fn king_e4(extra: &[(&'static str, &'static str)]) -> Position {
    let mut v = vec![("e4", "K"), ("a8", "k")];
    v.extend_from_slice(extra);
    chessma(&v)
}

#[test]
fn chessma_orthodox_checker_is_named() {
    let p = king_e4(&[("e8", "r")]);
    assert!(p.in_check());
    assert_eq!(checkers(&p), ["e8 Rook Attack"]);
    let p = king_e4(&[("d6", "n")]);
    assert_eq!(checkers(&p), ["d6 Knight Attack"]);
    let p = king_e4(&[("f5", "p")]);
    assert_eq!(checkers(&p), ["f5 Pawn Attack"]);
    // A Queen on a shared rank is seen along both sheets' rays: named once.
    let p = king_e4(&[("e6", "q")]);
    assert_eq!(checkers(&p), ["e6 Queen Attack"]);
    // The Rook's line onto the King runs through board B's row 8' too: e8' checks e4.
    let p = king_e4(&[("e8'", "r")]);
    assert_eq!(checkers(&p), ["e8' Rook Attack"]);
}

#[test]
fn chessma_ultima_checkers_say_how() {
    assert_eq!(
        checkers(&king_e4(&[("e7", "l")])),
        ["e7 Long Leaper LongLeap"]
    );
    assert_eq!(
        checkers(&king_e4(&[("e5", "w")])),
        ["e5 Withdrawer Withdrawal"]
    );
    assert_eq!(checkers(&king_e4(&[("d5", "x")])), ["d5 Chameleon AsKing"]);
    // The Coordinator with its King on White's King's file (RULES-DETAILS 7.4).
    let p = chessma(&[("e1", "K"), ("e8", "k"), ("a5", "c")]);
    assert_eq!(checkers(&p), ["a5 Coordinator Coordination"]);
    // The unspent Encloser teleports to b2, the last liberty of the King on b1 (walls: a
    // Pusher and a Swapper, which give no check themselves).
    let walls = [("b1", "K"), ("a1", "u"), ("c1", "s"), ("h8", "k")];
    let p = chessma(&[walls.as_slice(), &[("h6", "e")]].concat());
    assert_eq!(checkers(&p), ["h6 Encloser Enclosure"]);
    // The words for each method.
    assert_eq!(
        CheckHow::LongLeap.describe(),
        "can take the King by leaping over it"
    );
    assert_eq!(CheckHow::Attack.describe(), "attacks the King");
}

#[test]
fn chessma_double_check_names_both() {
    // A Knight on d6 and a Long Leaper on e7 (the Knight is off the e-file).
    let p = king_e4(&[("d6", "n"), ("e7", "l")]);
    assert_eq!(
        checkers(&p),
        ["d6 Knight Attack", "e7 Long Leaper LongLeap"]
    );
    // An orthodox and an Ultima piece, and a third by another method.
    let p = king_e4(&[("b4", "r"), ("e5", "w"), ("f3", "x")]);
    assert_eq!(
        checkers(&p),
        [
            "b4 Rook Attack",
            "e5 Withdrawer Withdrawal",
            "f3 Chameleon AsKing"
        ]
    );
}

#[test]
fn chessma_frozen_or_blocked_pieces_give_no_check() {
    // A White Immobilizer next to the Rook: frozen, it cannot take (X1).
    let p = king_e4(&[("e8", "r"), ("d8", "I")]);
    assert!(!p.in_check());
    assert!(checkers(&p).is_empty());
    // Frozen Rook, free Knight: only the Knight checks.
    let p = king_e4(&[("e8", "r"), ("d8", "I"), ("d6", "n")]);
    assert_eq!(checkers(&p), ["d6 Knight Attack"]);
    // The Long Leaper cannot land beyond the King.
    let p = king_e4(&[("e7", "l"), ("e3", "P")]);
    assert!(checkers(&p).is_empty());
    // Immobilizer, Pusher and Swapper next to the King never check.
    for piece in ["i", "u", "s"] {
        assert!(checkers(&king_e4(&[("e5", piece)])).is_empty(), "{piece}");
    }
}

#[test]
fn chess_checkers_single_and_double() {
    let v = builtin("chess").unwrap();
    let p = Position::parse(&v, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1").unwrap();
    assert_eq!(checkers(&p), ["a1 Rook Attack"]);
    // Rook on h1 and Bishop on b4.
    let p = Position::parse(&v, "4k3/8/8/8/1b6/8/8/4K2r w - - 0 1").unwrap();
    assert_eq!(checkers(&p), ["b4 Bishop Attack", "h1 Rook Attack"]);
    // Not in check: nobody.
    let p = v.start();
    assert!(checkers(&p).is_empty());
}

/// Along games played from the start and from the shared perft positions (first legal step
/// each turn, rotated by the ply): `checkers` is empty exactly where `in_check` is false, and
/// every checker is an enemy unit.
#[test]
fn checkers_agree_with_in_check_along_games() {
    let mut starts = vec![
        builtin("chessma-84").unwrap().start(),
        builtin("chess").unwrap().start(),
    ];
    let v = builtin("chessma-84").unwrap();
    let data = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/testdata/chessma-perft.tsv"),
    )
    .unwrap();
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        if let Some(text) = line.split('\t').nth(3) {
            starts.push(Position::parse(&v, text).unwrap());
        }
    }
    let (mut seen, mut in_check) = (0, 0);
    for start in starts {
        let mut p = start;
        let mut list = StepList::new();
        for ply in 0..60usize {
            let side = p.side_to_move();
            let found = p.checkers();
            assert_eq!(!found.is_empty(), p.in_check(), "{}", p.to_text());
            for c in &found {
                let u = p.unit_at(c.square).expect("a checker stands on its square");
                assert_eq!(u.side, side.other(), "{}", p.to_text());
            }
            seen += 1;
            in_check += usize::from(p.in_check());
            p.legal_steps(&mut list);
            if list.is_empty() {
                break;
            }
            let step = list.iter().copied().nth((ply * 7) % list.len()).unwrap();
            p.make(step);
        }
    }
    assert!(
        seen > 500 && in_check > 0,
        "{seen} positions, {in_check} in check"
    );
}
