//! Chessma 84 (RULES.md 7, RULES-DETAILS.md 7.6 and 7.7): the shared perft numbers and the
//! inventor's worked examples (read at test time), and a test per settled point and per
//! open question X1-X8, each on a position built for it.

use crate::common;

use std::path::PathBuf;

use cohort_rules::{builtin, perft::perft, EndReason, Game, Outcome, Position, Side, StepList};
use cohort_rules::{Explain, Rules, SearchHooks};

fn testdata(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/testdata")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Every row of the shared chessma-perft.tsv (34 when this was written) counted by `count`;
/// all rows that differ are listed together. `count` must leave the position as it found it.
fn check_every_row(count: fn(&mut Position, u32) -> u64) {
    let v = builtin("chessma-84").expect("chessma-84 is built in");
    let data = rows(&testdata("chessma-perft.tsv"));
    assert!(
        data.len() >= 34,
        "chessma-perft.tsv has {} rows",
        data.len()
    );
    let mut wrong = Vec::new();
    for row in &data {
        assert_eq!(row[0], "chessma-84", "{row:?}");
        let depth: u32 = row[1].parse().unwrap();
        let expected: u64 = row[2].parse().unwrap();
        let position = row.get(3).map(String::as_str);
        let mut pos = match position {
            Some(p) => Position::parse(&v, p).unwrap_or_else(|e| panic!("{p}: {e}")),
            None => v.start(),
        };
        let (text, hash) = (pos.to_text(), pos.hash());
        let got = count(&mut pos, depth);
        assert_eq!((pos.to_text(), pos.hash()), (text, hash), "unmake restores");
        if got != expected {
            wrong.push(format!(
                "depth {depth} {}: expected {expected}, got {got}",
                position.unwrap_or("start")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn perft_numbers_of_the_shared_testdata() {
    check_every_row(perft);
}

/// Perft through the path the server and the engine use: `Position::legal_steps` lists the
/// steps, `make`/`unmake` play them; the last ply counts the listed steps. Nothing of
/// `perft.rs` or of the Chessma core's own recursion is used.
fn perft_by_listed_steps(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &step in list.iter() {
        let undo = pos.make(step);
        nodes += perft_by_listed_steps(pos, depth - 1);
        pos.unmake(step, undo);
    }
    nodes
}

#[test]
fn perft_numbers_of_the_shared_testdata_by_listed_steps() {
    check_every_row(perft_by_listed_steps);
}

#[test]
fn the_inventors_worked_examples() {
    let v = builtin("chessma-84").unwrap();
    let data = rows(&testdata("chessma-examples.tsv"));
    assert!(data.len() >= 12);
    for row in &data {
        let (name, start, step, want) = (&row[0], &row[1], &row[2], &row[3]);
        let mut pos = Position::parse(&v, start).unwrap_or_else(|e| panic!("{name}: {e}"));
        cohort_rules::apply_turn(&mut pos, step).unwrap_or_else(|e| panic!("{name}: {step}: {e}"));
        assert_eq!(&pos.to_text(), want, "{name}: {step}");
    }
}

// ---- positions built for one rule each

/// A position from (square, piece) pairs: `pos(&[("e1", "K"), ("e8", "k")], "w - - -")`.
fn pos(pieces: &[(&str, &str)], rest: &str) -> Position {
    common::chessma_pos(pieces, rest)
}

fn steps(p: &Position) -> Vec<String> {
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    list.iter().map(|&s| p.step_text(s)).collect()
}

fn has(p: &Position, step: &str) -> bool {
    steps(p).iter().any(|s| s == step)
}

fn after(p: &Position, step: &str) -> Position {
    let mut q = p.clone();
    cohort_rules::apply_turn(&mut q, step).unwrap_or_else(|e| panic!("{step}: {e}"));
    q
}

/// The piece on a square, as its letter (upper case White, lower case Black).
fn piece(p: &Position, square: &str) -> Option<char> {
    let v = p.variant();
    let sq = v
        .geometry
        .parse_square(square)
        .unwrap_or_else(|| panic!("{square} is no square"));
    p.unit_at(sq).map(|u| {
        let letter = v.pieces[u.kind as usize].letter;
        match u.side {
            Side::White => letter,
            Side::Black => letter.to_ascii_lowercase(),
        }
    })
}

// 7.7: lines run on one sheet; adjacency is the union.
#[test]
fn lines_stay_on_one_board_and_adjacency_is_the_union() {
    let p = pos(&[("d1", "R"), ("a5", "K"), ("h5", "k")], "w - - -");
    assert!(has(&p, "d1-d8") && has(&p, "d1-h1"));
    for off in ["d1-c1'", "d1-d1'", "d1-d8'"] {
        assert!(!has(&p, off), "{off}");
    }
    let q = pos(&[("d2", "R"), ("a5", "K"), ("h5", "k")], "w - - -");
    assert!(has(&q, "d2-d1'") && has(&q, "d2-d1") && has(&q, "d2-d8'"));
    // King-neighbours of e2: 11 squares (7.1).
    let k = pos(&[("e2", "K"), ("h6", "k")], "w - - -");
    assert_eq!(steps(&k).len(), 11);
    // A corner touches only the a/h squares diagonally: z0 to a1 and a1'.
    let c = pos(&[("z0", "K"), ("h6", "k")], "w - - -");
    let mut s = steps(&c);
    s.sort();
    assert_eq!(s, vec!["z0-a1", "z0-a1'"]);
}

// X1: check by every capture method of an unfrozen piece; not by I, U or S.
#[test]
fn check_by_every_capture_method() {
    let w = |extra: &[(&'static str, &'static str)]| {
        let mut v = vec![("e4", "K")];
        v.extend_from_slice(extra);
        v
    };
    // Withdrawer next to the King with room to withdraw.
    assert!(pos(&w(&[("e5", "w"), ("h8", "k")]), "w - - -").in_check());
    assert!(!pos(&w(&[("e5", "w"), ("e6", "p"), ("h8", "k")]), "w - - -").in_check());
    // Long Leaper over the King, landing beyond it.
    assert!(pos(&w(&[("e7", "l"), ("a8", "k")]), "w - - -").in_check());
    assert!(!pos(&w(&[("e7", "l"), ("e3", "P"), ("a8", "k")]), "w - - -").in_check());
    // Coordinator: Kings on one file, it reaches a square of White's rank with equal counts.
    assert!(pos(&[("e1", "K"), ("e8", "k"), ("a5", "c")], "w - - -").in_check());
    // Chameleon next to the King (imitating it).
    assert!(pos(&w(&[("d5", "x"), ("h8", "k")]), "w - - -").in_check());
    // Encloser (7.7: "enclosure by an unspent Encloser's move or teleport"). White's King
    // b1 has three orthogonal neighbours, a1, c1 and b2 (b1' is not adjacent: 7.1). A Black
    // Pusher on a1 and a Black Swapper on c1 are walls that give no check themselves, so b2
    // is the King's last liberty. An unspent Encloser can teleport there and enclose the
    // King: check. Spent (E') it cannot teleport, and without it nothing captures the King:
    // no check either way.
    let walls = [("b1", "K"), ("a1", "u"), ("c1", "s"), ("h8", "k")];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut v = walls.to_vec();
        v.extend_from_slice(extra);
        pos(&v, "w - - -")
    };
    assert!(
        with(&[("h6", "e")]).in_check(),
        "b1's one liberty b2 can be filled by the unspent Encloser"
    );
    assert!(
        !with(&[("h6", "e'")]).in_check(),
        "a spent Encloser cannot teleport, so it gives no check"
    );
    assert!(
        !with(&[]).in_check(),
        "the Pusher and Swapper walls give no check by themselves"
    );
    // With b2 held by a White Knight the King's group (b1, b2) keeps the liberties a2, c2,
    // b3 and b1': one Encloser move cannot close it.
    assert!(
        !with(&[("h6", "e"), ("b2", "N")]).in_check(),
        "several liberties: no check"
    );
    // Immobilizer, Pusher, Swapper next to the King: no check.
    for p in ["i", "u", "s"] {
        assert!(
            !pos(&w(&[("e5", p), ("h8", "k")]), "w - - -").in_check(),
            "{p}"
        );
    }
    // A frozen piece gives no check: a Rook frozen by a White Immobilizer.
    assert!(!pos(&w(&[("e8", "r"), ("d8", "I"), ("h6", "k")]), "w - - -").in_check());
    assert!(pos(&w(&[("e8", "r"), ("h6", "k")]), "w - - -").in_check());
}

// 7.7: a pinned piece still gives check; a position with the side not to move in check is
// refused.
#[test]
fn pinned_pieces_check_and_impossible_positions_are_refused() {
    let v = builtin("chessma-84").unwrap();
    // Black's Rook e5 is pinned to its King e8 by White's Rook? No: pinned against the King
    // on the other line: it still checks White's King on e1 along the file.
    let p = pos(
        &[("e1", "K"), ("e5", "r"), ("a5", "R"), ("h5", "k")],
        "w - - -",
    );
    assert!(p.in_check());
    let bad = "1********1/*8*/*4k3*/*8*/*8*/*8*/*8*/*8*/*8*/*4R3*/*8*/1********K w - - -";
    assert!(
        Position::parse(&v, bad).is_err(),
        "Black to reply while in check"
    );
}

// 7.7 Encloser: the Go rule, corner pieces never enclosed, teleports must capture, frozen
// and spent Enclosers cannot teleport, pockets and drops.
#[test]
fn encloser_rules() {
    // White Encloser h2 teleports to a6 to enclose Black's Rook on a7 (b7 and a8 White).
    let base = [
        ("e1", "K"),
        ("h5", "k"),
        ("a7", "r"),
        ("b7", "B"),
        ("a8", "N"),
        ("a8'", "N"),
        ("h2", "E"),
    ];
    let p = pos(&base, "w - - -");
    assert!(has(&p, "h2xa6"), "{:?}", steps(&p));
    let q = after(&p, "h2xa6");
    assert!(
        q.to_text().contains("*E'7*"),
        "spent Encloser on a6: {}",
        q.to_text()
    );
    assert!(
        q.to_text().ends_with(" R"),
        "the Rook goes to White's pocket: {}",
        q.to_text()
    );
    // No teleport where nothing is enclosed.
    assert!(!steps(&p)
        .iter()
        .any(|s| s.starts_with("h2") && s.ends_with("a5")));
    // Spent: no teleport. Frozen: no teleport.
    let mut spent = base.to_vec();
    spent[6] = ("h2", "E'");
    assert!(!has(&pos(&spent, "w - - -"), "h2xa6"));
    let mut frozen = base.to_vec();
    frozen.push(("g3", "i"));
    assert!(!has(&pos(&frozen, "w - - -"), "h2xa6"));
    // A piece on a corner is never enclosed.
    let corner = pos(
        &[
            ("e1", "K"),
            ("h5", "k"),
            ("z9", "r"),
            ("a8", "B"),
            ("h2", "E"),
        ],
        "w - - -",
    );
    assert!(!steps(&corner)
        .iter()
        .any(|s| s.contains('x') && s.starts_with("h2")));
    // The square the Encloser leaves counts as empty: from b7, a wall of the group, a step to
    // a6 opens b7 and encloses nothing.
    let leave = pos(
        &[
            ("e1", "K"),
            ("h5", "k"),
            ("a7", "r"),
            ("b7", "E"),
            ("a8", "N"),
            ("a8'", "N"),
        ],
        "w - - -",
    );
    assert!(
        has(&leave, "b7-a6") && !has(&leave, "b7xa6"),
        "{:?}",
        steps(&leave)
    );
    // Drops: any empty square, no capture, no check; a Pawn not on its last rows.
    let d = pos(&[("e1", "K"), ("e8", "k")], "w - - RP");
    assert!(has(&d, "R@a3"));
    assert!(!has(&d, "R@e5"), "a drop may not give check");
    assert!(
        !has(&d, "P@d8")
            && !has(&d, "P@d8'")
            && !has(&d, "P@z9")
            && has(&d, "P@a7")
            && !has(&d, "P@d7"),
        "d7 would check"
    );
    // X7: a drop that immobilizes the King is no check, so it is allowed.
    let x7 = pos(&[("e1", "K"), ("e8", "k")], "w - - I");
    assert!(has(&x7, "I@e7"));
}

// 7.7 Chameleon: it encloses only Enclosers and never takes en passant; imitations.
#[test]
fn chameleon_rules() {
    // It takes a Queen by a Queen's move, but not a Knight by a Queen's move (7.4: "captures
    // a piece only by that piece's own capture method"). The Chameleon a1' sees f6 along the
    // diagonal b2-c3-d4-e5 of board B; White's King h1 is not in check, so the only question
    // is the target's kind.
    let on_f6 = |target: &'static str| {
        pos(
            &[("h1", "K"), ("h8", "k"), ("a1'", "X"), ("f6", target)],
            "w - - -",
        )
    };
    let queen = on_f6("q");
    assert!(!queen.in_check());
    assert!(has(&queen, "a1'xf6"), "{:?}", steps(&queen));
    let knight = on_f6("n");
    assert!(!knight.in_check());
    assert!(
        has(&knight, "a1'-e5"),
        "the Chameleon can move: {:?}",
        steps(&knight)
    );
    assert!(
        !steps(&knight).iter().any(|s| s.ends_with("f6")),
        "{:?}",
        steps(&knight)
    );
    // Knight by a Knight's leap.
    let n = pos(
        &[("e1", "K"), ("h8", "k"), ("d4", "X"), ("e6", "n")],
        "w - - -",
    );
    assert!(has(&n, "d4xe6"));
    // No en passant: Black's pawn ran d7-d5 past d6; a Chameleon on c5 cannot take it.
    let ep = pos(
        &[
            ("e1", "K"),
            ("h8", "k"),
            ("c5", "X"),
            ("d5", "p"),
            ("e5", "P"),
        ],
        "w - d6 -",
    );
    assert!(has(&ep, "e5xd6") && !has(&ep, "c5xd6"));
    // Immobilizer and Chameleon next to each other freeze each other.
    let f = pos(
        &[("e1", "K"), ("h8", "k"), ("d4", "X"), ("d5", "i")],
        "w - - -",
    );
    assert!(!steps(&f).iter().any(|s| s.starts_with("d4")));
    // A Chameleon pushes a Pusher alone, "for the other pieces shouldn't be pushed": the
    // Pusher c4 slides to c6, before the Knight c7, which stays; with c5 taken, no push.
    let push = pos(
        &[
            ("e1", "K"),
            ("h8", "k"),
            ("c3", "X"),
            ("c4", "u"),
            ("c7", "n"),
        ],
        "w - - -",
    );
    let pushed = after(&push, "c3-c4");
    let board = pushed.to_text();
    assert!(
        board.contains("*2n5*/*2u5*/*8*/*2X5*"),
        "Pusher on c6, Knight still on c7: {board}"
    );
    let blocked = pos(
        &[
            ("e1", "K"),
            ("h8", "k"),
            ("c3", "X"),
            ("c4", "u"),
            ("c5", "n"),
        ],
        "w - - -",
    );
    assert!(!has(&blocked, "c3-c4"), "the next square must be free");
}

// 7.4 Swapper, unfrozen pieces: the swap is legal on a clear line and exchanges the two.
#[test]
fn swapper_exchanges_places_with_an_unfrozen_piece() {
    // 7.4 Swapper: "exchanges places with any piece (either colour) a Queen's move away
    // (clear line, one board)". An unfrozen Swapper e3 and an unfrozen Black Knight e6: the
    // swap is legal and afterwards the Knight stands on e3 and the Swapper on e6.
    let free = pos(
        &[("e1", "K"), ("h5", "k"), ("e3", "S"), ("e6", "n")],
        "w - - -",
    );
    assert!(has(&free, "e3-e6"), "{:?}", steps(&free));
    let swapped = after(&free, "e3-e6");
    assert_eq!(
        (piece(&swapped, "e3"), piece(&swapped, "e6")),
        (Some('n'), Some('S')),
        "{}",
        swapped.to_text()
    );
    // With its own Rook on a3 (either colour): the Rook goes to e3, the Swapper to a3.
    let own = after(
        &pos(
            &[("e1", "K"), ("h5", "k"), ("e3", "S"), ("a3", "R")],
            "w - - -",
        ),
        "e3-a3",
    );
    assert_eq!(
        (piece(&own, "e3"), piece(&own, "a3")),
        (Some('R'), Some('S'))
    );
    // A clear line only: with a Pawn on e4 the Swapper reaches e4 but not e6.
    let blocked = pos(
        &[
            ("e1", "K"),
            ("h5", "k"),
            ("e3", "S"),
            ("e4", "p"),
            ("e6", "n"),
        ],
        "w - - -",
    );
    assert!(has(&blocked, "e3-e4") && !has(&blocked, "e3-e6"));
    // A frozen Swapper does not swap: Black's Immobilizer f4 touches e3.
    let stuck = pos(
        &[
            ("e1", "K"),
            ("h5", "k"),
            ("e3", "S"),
            ("e6", "n"),
            ("f4", "i"),
        ],
        "w - - -",
    );
    assert!(!steps(&stuck).iter().any(|s| s.starts_with("e3")));
}

// 7.7: Swapper and Pusher move Kings and frozen pieces; a push moves the pushed piece; a
// pushed Pawn does not promote; the /A /B fork.
#[test]
fn swapper_and_pusher_rules() {
    // Swap with the enemy King (a queen's move away).
    let k = pos(&[("e1", "K"), ("h5", "k"), ("e5", "S")], "w - - -");
    assert!(has(&k, "e5-h5"));
    let k2 = after(&k, "e5-h5");
    assert_eq!((piece(&k2, "e5"), piece(&k2, "h5")), (Some('k'), Some('S')));
    // 7.7: frozen pieces can be swapped: the Knight e6 is frozen by White's Immobilizer d7,
    // and the swap still exchanges it with the Swapper.
    let frozen = pos(
        &[
            ("e1", "K"),
            ("h5", "k"),
            ("e3", "S"),
            ("e6", "n"),
            ("d7", "I"),
        ],
        "w - - -",
    );
    assert!(has(&frozen, "e3-e6"), "{:?}", steps(&frozen));
    let f2 = after(&frozen, "e3-e6");
    assert_eq!((piece(&f2, "e3"), piece(&f2, "e6")), (Some('n'), Some('S')));
    // Push must move the pushed piece: a Rook against the edge cannot be pushed.
    let edge = pos(
        &[
            ("e1", "K"),
            ("a5", "k"),
            ("h4", "U"),
            ("h7", "r"),
            ("h8", "n"),
            ("h8'", "n"),
        ],
        "w - - -",
    );
    assert!(!steps(&edge).iter().any(|s| s.starts_with("h4-h7")));
    // A pushed Pawn does not promote; the push along the file forks into /A and /B.
    let pawn = pos(
        &[("e1", "K"), ("a5", "k"), ("c5", "U"), ("c6", "p")],
        "w - - -",
    );
    let s = steps(&pawn);
    assert!(
        s.contains(&"c5-c6/A".to_string()) && s.contains(&"c5-c6/B".to_string()),
        "{s:?}"
    );
    // A fork whose two pushes move the same pieces to the same squares is one step: the
    // Pawn c6 ends on c7 on both boards, the Rook c8 and the Knight c8' stay where they are.
    let same = pos(
        &[
            ("e1", "K"),
            ("a5", "k"),
            ("c5", "U"),
            ("c6", "p"),
            ("c8", "r"),
            ("c8'", "n"),
        ],
        "w - - -",
    );
    let s = steps(&same);
    assert!(s.contains(&"c5-c6".to_string()), "{s:?}");
    assert!(
        !s.iter().any(|x| x.ends_with("/A") || x.ends_with("/B")),
        "{s:?}"
    );
    // With c8' empty the Pawn goes on to c8' on board B: two steps again.
    let forked = pos(
        &[
            ("e1", "K"),
            ("a5", "k"),
            ("c5", "U"),
            ("c6", "p"),
            ("c8", "r"),
        ],
        "w - - -",
    );
    let s = steps(&forked);
    assert!(
        s.contains(&"c5-c6/A".to_string()) && s.contains(&"c5-c6/B".to_string()),
        "{s:?}"
    );
    let up = pos(
        &[("e1", "K"), ("a5", "k"), ("c5", "U"), ("c6", "P")],
        "w - - -",
    );
    assert!(
        !steps(&up).iter().any(|s| s.starts_with("c5-c6")),
        "own pieces are not pushed"
    );
    let pushed = after(&pawn, "c5-c6/A");
    assert!(
        pushed.to_text().contains("*2p5*"),
        "the pawn stays a pawn on c8: {}",
        pushed.to_text()
    );
    // Swap promotion: the Swapper on d8 takes a White Pawn from d2 to d8; 12 choices.
    let sp = pos(
        &[("e1", "K"), ("a5", "k"), ("d8", "S"), ("d2", "P")],
        "w - - -",
    );
    assert_eq!(
        steps(&sp)
            .iter()
            .filter(|s| s.starts_with("d8-d2="))
            .count(),
        12
    );
}

// X5, 7.7: promotion on 8, 8' and the far corners into 12 kinds; runs and en passant.
#[test]
fn pawn_rules() {
    let p = pos(&[("e1", "K"), ("a5", "k"), ("c7", "P")], "w - - -");
    let s = steps(&p);
    assert_eq!(s.iter().filter(|t| t.starts_with("c7-c8=")).count(), 12);
    assert_eq!(s.iter().filter(|t| t.starts_with("c7-c8'=")).count(), 12);
    // From 1' a pawn runs up to three squares; passing squares allow en passant next move.
    let run = pos(
        &[("e1", "K"), ("a5", "k"), ("c1'", "P"), ("d4", "p")],
        "w - - -",
    );
    assert!(has(&run, "c1'-c2") && has(&run, "c1'-c3") && has(&run, "c1'-c4"));
    let ran = after(&run, "c1'-c4");
    assert!(ran.to_text().contains(" c2,c3 "), "{}", ran.to_text());
    assert!(has(&ran, "d4xc3"));
    let later = after(&after(&ran, "a5-a6"), "e1-e2");
    assert!(!has(&later, "d4xc3"), "en passant only on the next move");
    // From 2 one or two squares.
    let two = pos(&[("e1", "K"), ("a5", "k"), ("c2", "P")], "w - - -");
    assert!(has(&two, "c2-c4") && !has(&two, "c2-c5"));
}

// 7.7: the Long Leaper moves without capturing only when it has no legal capture.
#[test]
fn long_leaper_must_capture() {
    let p = pos(
        &[("e1", "K"), ("a8", "k"), ("c3", "L"), ("c5", "p")],
        "w - - -",
    );
    let s: Vec<String> = steps(&p)
        .into_iter()
        .filter(|t| t.starts_with("c3"))
        .collect();
    assert!(!s.is_empty() && s.iter().all(|t| t.contains('x')), "{s:?}");
    let q = pos(&[("e1", "K"), ("a8", "k"), ("c3", "L")], "w - - -");
    assert!(has(&q, "c3-c4"));
}

// X2: the Coordinator's counts with twin rows.
#[test]
fn coordinator_counts_twin_rows_as_adjacent() {
    // King g1, Coordinator arriving on f1' takes f1 and g1' (counts 0 = 0).
    let p = pos(
        &[
            ("g1", "K"),
            ("a5", "k"),
            ("f4", "C"),
            ("f1", "n"),
            ("g1'", "r"),
        ],
        "w - - -",
    );
    let q = after(&p, "f4xf1'");
    assert!(
        q.unit_at(cohort_rules::Square::new(7, 1)).is_none(),
        "g1' taken"
    );
    assert!(
        q.unit_at(cohort_rules::Square::new(6, 2)).is_none(),
        "f1 taken"
    );
    // A piece between: no capture.
    // A piece between the target and the King: King h1, own Knight g1, target f1.
    let blocked = pos(
        &[
            ("h1", "K"),
            ("g1", "N"),
            ("a5", "k"),
            ("f4", "C"),
            ("f1", "b"),
        ],
        "w - - -",
    );
    assert!(has(&blocked, "f4-f1'") && !has(&blocked, "f4xf1'"));
}

// X8: castling on board A; rights end when the squares change; frozen King or Rook.
#[test]
fn castling() {
    let p = pos(
        &[("e1", "K"), ("h1", "R"), ("a1", "R"), ("e8", "k")],
        "w KQ - -",
    );
    assert!(has(&p, "e1-g1") && has(&p, "e1-c1"));
    let attacked = pos(
        &[
            ("e1", "K"),
            ("h1", "R"),
            ("a1", "R"),
            ("e8", "k"),
            ("f5", "r"),
        ],
        "w KQ - -",
    );
    assert!(!has(&attacked, "e1-g1") && has(&attacked, "e1-c1"));
    let frozen = pos(
        &[("e1", "K"), ("h1", "R"), ("e8", "k"), ("h2", "i")],
        "w K - -",
    );
    assert!(!has(&frozen, "e1-g1"));
    let q = after(&after(&p, "h1-h2"), "e8-e7");
    assert!(
        !has(&after(&after(&q, "h2-h1"), "e7-e8"), "e1-g1"),
        "the right ended when h1 changed"
    );
}

// 7.5: checkmate wins; stalemate on a corner loses; elsewhere it is a draw.
#[test]
fn stalemate_on_a_corner_loses() {
    let v = builtin("chessma-84").unwrap();
    // Black King z9 with no move: a8 and a8' covered, not in check.
    // Black King z9, its two neighbours a8 and a8' held by Rooks on h8 and h8'.
    let corner = "k********1/*7R*/*7R*/*8*/*8*/*8*/*8*/*8*/*8*/*4K3*/*8*/1********1 b - - -";
    let p = Position::parse(&v, corner).unwrap();
    assert_eq!(p.count_steps(), 0);
    assert!(!p.in_check());
    let g = Game::new(p);
    assert_eq!(
        g.result(),
        Some((Outcome::Win(Side::White), EndReason::CornerStalemate))
    );
}

/// The search's candidates (pseudo-legal in Chessma 84) and `make_if_legal` accept exactly
/// the legal steps, with the same position after each, along random games; and
/// `has_legal_step` agrees with the legal list.
#[test]
fn candidates_made_if_legal_are_the_legal_steps() {
    let v = cohort_rules::builtin("chessma-84").unwrap();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let (mut list, mut cands) = (StepList::new(), StepList::new());
    let mut refused = 0;
    let mut checked = 0;
    for _ in 0..12 {
        let mut game = Position::parse(&v, &v.setup).unwrap();
        for _ in 0..80 {
            game.legal_steps(&mut list);
            game.candidate_steps(&mut cands);
            assert_eq!(
                game.has_legal_step(),
                !list.is_empty(),
                "{}",
                game.to_text()
            );
            for &s in cands.iter() {
                let before = game.to_text();
                match game.make_if_legal(s) {
                    Some(undo) => {
                        assert!(
                            list.contains(s),
                            "{} accepted in {before}",
                            game.step_text(s)
                        );
                        let after = game.to_text();
                        game.unmake(s, undo);
                        let mut check = game.clone();
                        let undo2 = check.make(s);
                        assert_eq!(check.to_text(), after);
                        check.unmake(s, undo2);
                    }
                    None => {
                        refused += 1;
                        assert!(
                            !list.contains(s),
                            "{} refused in {before}",
                            game.step_text(s)
                        );
                    }
                }
                assert_eq!(game.to_text(), before, "position restored");
                checked += 1;
            }
            for &s in list.iter() {
                assert!(
                    cands.contains(s),
                    "legal {} not among the candidates",
                    game.step_text(s)
                );
            }
            if list.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let s = list.as_slice()[(rng % list.len() as u64) as usize];
            game.make(s);
        }
    }
    assert!(checked > 10_000, "{checked} candidates tried");
    assert!(refused > 0, "some candidates are illegal");
}

/// `may_capture_elsewhere` is true for every legal step that takes a unit off a square
/// other than its destination, along random games (the search makes only those steps to
/// find such captures), and such captures occur.
#[test]
fn every_capture_off_the_destination_is_announced() {
    let v = cohort_rules::builtin("chessma-84").unwrap();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut list = StepList::new();
    let mut fx = cohort_rules::Effects::new();
    let (mut elsewhere, mut announced, mut checked) = (0, 0, 0);
    for _ in 0..16 {
        let mut game = Position::parse(&v, &v.setup).unwrap();
        for _ in 0..100 {
            game.legal_steps(&mut list);
            if list.is_empty() {
                break;
            }
            for &s in list.iter() {
                let says = game.may_capture_elsewhere(s);
                announced += says as u32;
                let undo = game.make_reporting(s, &mut fx);
                let off = fx.removed().any(|(_, _, sq, _)| sq != s.to);
                game.unmake(s, undo);
                if off {
                    elsewhere += 1;
                    assert!(says, "{} in {}", game.step_text(s), game.to_text());
                }
                checked += 1;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let s = list.as_slice()[(rng % list.len() as u64) as usize];
            game.make(s);
        }
    }
    assert!(
        elsewhere > 0,
        "no capture off a destination in {checked} steps"
    );
    assert!(announced < checked, "not every step is announced");
}

/// Chessma 84 answers `capture_squares_of` from one generation of its moves (no decode per
/// step): the squares it names are those that each step's own report removes as captures,
/// along random games, and some steps capture off their destination.
#[test]
fn capture_squares_come_from_each_steps_own_report() {
    let v = cohort_rules::builtin("chessma-84").unwrap();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut list = StepList::new();
    let mut fx = cohort_rules::Effects::new();
    let (mut captures, mut off) = (0, 0);
    for _ in 0..8 {
        let mut game = Position::parse(&v, &v.setup).unwrap();
        for _ in 0..80 {
            game.legal_steps(&mut list);
            if list.is_empty() {
                break;
            }
            let named = game.capture_squares_of(list.as_slice());
            assert_eq!(named.len(), list.len());
            for (&s, squares) in list.iter().zip(&named) {
                let undo = game.make_reporting(s, &mut fx);
                let reported: Vec<_> = fx.removed().filter(|r| r.3).map(|r| r.2).collect();
                game.unmake(s, undo);
                assert_eq!(
                    squares,
                    &reported,
                    "{} in {}",
                    game.step_text(s),
                    game.to_text()
                );
                captures += reported.len();
                off += reported.iter().filter(|&&q| q != s.to).count();
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let s = list.as_slice()[(rng % list.len() as u64) as usize];
            game.make(s);
        }
    }
    assert!(
        captures > 0 && off > 0,
        "{captures} captures, {off} off the destination"
    );
}
