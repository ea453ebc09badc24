//! Regression tests for what used to fail after a variant loaded, and for positions whose
//! game is already over (NOTATION.md: no legal steps).

use crate::common;
use cohort_rules::Rules;
use cohort_rules::{
    builtin, builtin_variants, parse_variants, perft::perft, Outcome, Position, PositionError,
    Side, StepList,
};
use common::*;

/// A 16x16 board of leapers: 24 destinations each on an open board.
fn dense_leapers(rows_of_units: usize) -> String {
    let mut rows = vec!["16".to_string(); 16];
    for r in 0..rows_of_units {
        rows[r] = "x".repeat(16);
        rows[15 - r] = "X".repeat(16);
    }
    rows[15] = format!("K{}", "X".repeat(15));
    rows[0] = format!("k{}", "x".repeat(15));
    format!(
        "[dense]\nname = Dense\nboard = 16x16\npiece K = King, K, royal\npiece X = Leaper, NCZ\n\
         command = single\nsetup = {} w\n",
        rows.join("/")
    )
}

#[test]
fn a_variant_that_could_overflow_the_step_list_is_refused_at_load() {
    // Before the fix this loaded, and `perft --divide` then panicked on the 2048-step list.
    let err = parse_variants("dense.ini", &dense_leapers(6), &[]).expect_err("refused");
    assert_eq!(err.field, "setup", "{err}");
    assert!(err.message.contains("legal steps"), "{err}");
    // A sparser one loads, and every position of it generates without panicking.
    let v = parse_variants("dense.ini", &dense_leapers(2), &[])
        .expect("loads")
        .remove(0);
    let mut p = v.start();
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    // Counted from the rules, not read off the output: White's King a1 is hemmed in by its
    // own Leapers; a Leaper (N, C and Z: 24 leaps) lands only on ranks 3-14, as ranks 1-2
    // are White's own and Black on ranks 15-16 is out of reach: 278 leaps in all. Black's
    // are the mirror image, and no White step changes them (no capture; leapers jump).
    assert_eq!(list.len(), 278);
    assert_eq!(perft(&mut p, 2), 278 * 278);
}

#[test]
fn a_dense_position_string_is_refused_not_played() {
    let v = parse_variants("dense.ini", &dense_leapers(2), &[])
        .expect("loads")
        .remove(0);
    // 128 White Leapers: up to 24 destinations each, far beyond 2048 in all.
    let mut rows = vec!["X".repeat(16); 16];
    for row in rows.iter_mut().take(8) {
        *row = "16".into();
    }
    rows[0] = "k15".into();
    let e = Position::parse(&v, &format!("{} w", rows.join("/"))).expect_err("refused");
    assert!(
        matches!(e, PositionError::TooManySteps { bound, most: 2048 } if bound > 2048),
        "{e}"
    );
}

#[test]
fn a_position_whose_game_is_over_has_no_legal_steps() {
    // Chesimals I: Black has lost both royal chiefs.
    let p = pos(
        "chesimals-1",
        &place(
            16,
            12,
            &[
                ("c1", "C(1)"),
                ("c2", "G(1)"),
                ("f2", "K(2)"),
                ("a12", "g(1)"),
            ],
            'w',
        ),
    );
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::White)));
    assert_eq!(p.count_steps(), 0);
    assert_eq!(perft(&mut p.clone(), 2), 0);
    // Chesimal Fusion: White's two Kings are gone, Black to move.
    let p = pos(
        "chesimal-fusion-1",
        &place(
            16,
            12,
            &[
                ("b2", "C(1)"),
                ("b3", "P(1)"),
                ("f11", "k(2)"),
                ("f10", "p(2)"),
            ],
            'b',
        ),
    );
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(p.count_steps(), 0);
    // Lifeform: White has no Head.
    let v = builtin("lifeform").unwrap();
    let p = Position::parse(&v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(perft(&mut p.clone(), 1), 0);
    // Lifeform: Head and Torso apart with no common Limb (no Neck): lost too.
    let p = Position::parse(&v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ2NK w").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::Black)));
    // The start is not over.
    assert_eq!(v.start().outcome(), None);
    // ../shared/testdata/lifeform-perft.tsv (independent implementations): 4 steps from
    // the start.
    assert_eq!(
        v.start().to_text(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
    );
    assert_eq!(v.start().count_steps(), 4);
}

/// `value=N` gives a piece's worth as data; a value that is not a whole number in range is
/// refused at load, with its line and field.
#[test]
fn piece_values_are_data_checked_at_load() {
    let file = |flags: &str| {
        format!(
            "[t]\nname = T\nboard = 8x8\npiece K = King, K, royal\npiece R = Rook, R{flags}\n\
             command = single\nsetup = 4k3/8/8/8/8/8/8/R3K3 w\n"
        )
    };
    let v = parse_variants("t.ini", &file(", value=480"), &[])
        .expect("loads")
        .remove(0);
    let rook = v.pieces.iter().find(|p| p.letter == 'R').unwrap();
    assert_eq!(rook.value, Some(480));
    assert_eq!(
        v.pieces[0].value, None,
        "no value: the engine's own from mobility"
    );
    for bad in [
        ", value=abc",
        ", value=-5",
        ", value=100001",
        ", value=3 value=4",
    ] {
        let err = parse_variants("t.ini", &file(bad), &[]).expect_err(bad);
        assert_eq!(err.line, 5, "{bad}: {err}");
        assert_eq!(err.field, "piece R", "{bad}: {err}");
    }
    // The built-in chess and Chessma 84 carry the classical values.
    let chess = builtin("chess").unwrap();
    let q = chess.pieces.iter().find(|p| p.letter == 'Q').unwrap();
    assert_eq!(q.value, Some(900));
}

#[test]
fn a_values_line_sets_the_engines_worth_of_kinds_and_names_what_it_refuses() {
    let base = builtin_variants();
    let text = "[tuned]\nbase = chesimals-1\nvalues = C=812 G=190,N=333\n";
    let v = parse_variants("tuned.ini", text, &base)
        .expect("loads")
        .remove(0);
    let value = |l: char| v.pieces[v.kind_of_letter(l).unwrap()].value;
    assert_eq!(
        (value('C'), value('G'), value('N')),
        (Some(812), Some(190), Some(333))
    );
    // Kinds the line does not name keep what they had (none in Chesimals: from mobility).
    assert_eq!(value('W'), None);
    for (line, needle) in [
        ("values = Q=900", "no piece 'Q'"),
        ("values = C=lots", "'C=lots'"),
        ("values = C", "'C'"),
        ("values = C=-5", "'C=-5'"),
    ] {
        let text = format!("[tuned]\nbase = chesimals-1\n{line}\n");
        let err = parse_variants("tuned.ini", &text, &base).expect_err(line);
        assert_eq!(
            (err.field.as_str(), err.line),
            ("values", 3),
            "{line}: {err}"
        );
        assert!(err.message.contains(needle), "{line}: {err}");
    }
}
