//! A position string that cannot be read says why, typed (`PositionError`: what is wrong and
//! where) and in the words it always had, for the unit board's strings (groups, Lifeform's
//! pins and pieces to place) and Chessma 84's. FEN's are in chess.rs.

use cohort_rules::position_error::{
    EnPassantProblem, PinProblem, PocketProblem, RankProblem, RowProblem, UnitProblem,
};
use cohort_rules::Rules;
use cohort_rules::{builtin, Position, PositionError as E, Side, Square};

/// `start`'s position string with row `row` (counted from the top, from 0) written `with`.
fn row(start: &str, row: usize, with: &str) -> String {
    let (board, rest) = start.split_once(' ').unwrap();
    let mut rows: Vec<&str> = board.split('/').collect();
    rows[row] = with;
    format!("{} {rest}", rows.join("/"))
}

/// Each string is refused with the error and the words given.
fn refused(id: &str, cases: Vec<(String, E, &str)>) {
    let v = builtin(id).unwrap();
    for (text, want, words) in cases {
        let err = Position::parse(&v, &text).expect_err(&text);
        assert_eq!(err, want, "{id}: {text}");
        assert_eq!(err.to_string(), words, "{id}: {text}");
    }
}

#[test]
fn unit_board_strings_say_what_is_wrong_and_where() {
    let s = &builtin("chesimals-0.75").unwrap().start().to_text();
    let id = "chesimals-0.75".to_string();
    let rank1 = |problem| E::Rank { rank: 0, problem };
    let board = s.split_once(' ').unwrap().0;
    let eleven = s.split_once('/').unwrap().1;
    refused(
        &id,
        vec![
            (String::new(), E::Empty, "empty position string"),
            (
                board.to_string(),
                E::MissingSide,
                "missing side to move ('w' or 'b') after the board",
            ),
            (
                format!("{board} x"),
                E::BadSide { found: "x".into() },
                "side to move must be 'w' or 'b', found 'x'",
            ),
            (
                format!("{s} KQ"),
                E::ExtraField {
                    field: "KQ".into(),
                    variant: id.clone(),
                },
                "unexpected field 'KQ' after the side to move (chesimals-0.75 takes no more fields)",
            ),
            (
                eleven.to_string(),
                E::RankCount {
                    found: 11,
                    variant: id.clone(),
                    needs: 12,
                },
                "board has 11 ranks separated by '/', chesimals-0.75 needs 12",
            ),
            (
                row(s, 11, "6G(1)G(1)G(1)07"),
                rank1(RankProblem::BadCount { run: "07".into() }),
                "rank 1: bad empty-square count '07'",
            ),
            (
                row(s, 11, "6G(1)Y(1)G(1)7"),
                rank1(RankProblem::NotAPiece {
                    letter: 'Y',
                    variant: id.clone(),
                }),
                "rank 1: 'Y' is not a piece of chesimals-0.75",
            ),
            (
                row(s, 11, "6G(1)G(1)G(17"),
                rank1(RankProblem::Unclosed),
                "rank 1: '(' without ')'",
            ),
            (
                row(s, 11, "6G(1)G(1)G(9)7"),
                rank1(RankProblem::BadGroup {
                    found: "9".into(),
                    groups: 1,
                }),
                "rank 1: group '(9)' must be 1..1",
            ),
            (
                row(s, 11, "6G(1)G(1)G7"),
                rank1(RankProblem::GroupMissing { letter: 'G' }),
                "rank 1: unit 'G' needs a group number, like 'G(1)'",
            ),
            (
                row(s, 11, "16G(1)"),
                rank1(RankProblem::TooManyFiles { files: 16 }),
                "rank 1: more than 16 files",
            ),
            (
                row(s, 11, "6G(1)G(1)G(1)6"),
                rank1(RankProblem::FileCount {
                    found: 15,
                    files: 16,
                }),
                "rank 1: 15 files described, the board has 16",
            ),
            (
                row(s, 11, "6G(1)C(1)G(1)7"),
                E::Unit(UnitProblem::TwoLeaders {
                    side: Side::White,
                    group: 0,
                    square: Square::new(7, 0),
                }),
                "White's group (1) has two leaders; the second is on h1",
            ),
            (
                row(s, 11, "6G(1)~gG(1)G(1)7"),
                E::Pin {
                    rank: 0,
                    hand: 'G',
                    pinned: 'g',
                    problem: PinProblem::NotLifeform {
                        variant: id.clone(),
                    },
                },
                "rank 1: 'G~g': a pinned piece ('~') exists only in Lifeform, not in chesimals-0.75",
            ),
        ],
    );
}

#[test]
fn lifeform_pins_and_pieces_to_place_say_what_is_wrong() {
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w";
    let pin = |hand, pinned, problem| E::Pin {
        rank: 0,
        hand,
        pinned,
        problem,
    };
    refused(
        "lifeform",
        vec![
            (
                row(s, 7, "RNBQK(1)BNR"),
                E::Rank {
                    rank: 0,
                    problem: RankProblem::NoGroups {
                        variant: "lifeform".into(),
                        found: "1".into(),
                    },
                },
                "rank 1: lifeform has no groups, found '(1)'",
            ),
            (
                row(s, 7, "RN~bBQKBNR"),
                pin('N', 'b', PinProblem::NotAHand),
                "rank 1: 'N~b': only a Hand can pin ('~' must follow a Hand)",
            ),
            (
                row(s, 7, "RNB~NQKBNR"),
                pin('B', 'N', PinProblem::OwnPiece),
                "rank 1: 'B~N': a Hand pins only an enemy piece",
            ),
            (
                row(s, 7, "RNB~rQKBNR"),
                pin('B', 'r', PinProblem::Hair),
                "rank 1: 'B~r': Hair cannot be pinned",
            ),
            (
                row(s, 7, "RNB~yQKBNR"),
                pin(
                    'B',
                    'y',
                    PinProblem::NotAPiece {
                        letter: 'y',
                        variant: "lifeform".into(),
                    },
                ),
                "rank 1: 'B~y': 'y' is not a piece of lifeform",
            ),
        ],
    );
    let empty = "8/8/8/8/8/8/8/8 w";
    refused(
        "lifeform-free",
        vec![
            (
                format!("{empty} KQY"),
                E::ToPlace(PocketProblem::NotAPiece {
                    letter: 'Y',
                    variant: "lifeform-free".into(),
                }),
                "pieces to place: 'Y' is not a piece of lifeform-free",
            ),
            (
                format!("{empty} {}", "P".repeat(65)),
                E::ToPlace(PocketProblem::TooMany { letter: 'P' }),
                "pieces to place: too many 'P'",
            ),
        ],
    );
}

#[test]
fn chessma_strings_say_what_is_wrong_and_where() {
    let s = &builtin("chessma-84").unwrap().start().to_text();
    let board = s.split_once(' ').unwrap().0;
    let eleven = s.split_once('/').unwrap().1;
    // Row 4 from the top is rank 6.
    let six = |problem| E::Row {
        row: "6".into(),
        problem,
    };
    let fields = |rest: &str| format!("{board} {rest}");
    refused(
        "chessma-84",
        vec![
            (String::new(), E::Empty, "empty position string"),
            (
                board.to_string(),
                E::MissingSide,
                "missing side to move ('w' or 'b') after the board",
            ),
            (
                fields("x"),
                E::BadSide { found: "x".into() },
                "side to move must be 'w' or 'b', found 'x'",
            ),
            (
                fields("w KQkq - - x"),
                E::ExtraAfterPockets { field: "x".into() },
                "unexpected field 'x' after the pockets",
            ),
            (
                eleven.to_string(),
                E::RowCount {
                    found: 11,
                    needs: 12,
                },
                "board has 11 rows separated by '/', chessma needs 12",
            ),
            (
                row(s, 4, "*8**"),
                six(RowProblem::TooManyCells { files: 10 }),
                "row 6: more than 10 cells",
            ),
            (
                row(s, 4, "**7*"),
                six(RowProblem::StarOnSquare {
                    square: "a6".into(),
                }),
                "row 6: '*' on a6, which is a square",
            ),
            (
                row(s, 4, "*08*"),
                six(RowProblem::BadCount { run: "08".into() }),
                "row 6: bad empty-square count '08'",
            ),
            (
                row(s, 4, "9*"),
                six(RowProblem::RunCrossesHole { run: 9 }),
                "row 6: the run of 9 empty squares crosses a cell that does not exist (write it '*')",
            ),
            (
                row(s, 4, "*Y7*"),
                six(RowProblem::NotAPiece { letter: 'Y' }),
                "row 6: 'Y' is not a piece of chessma-84",
            ),
            (
                row(s, 4, "*Q'7*"),
                six(RowProblem::OnlyEncloserSpent),
                "row 6: only an Encloser takes a ' (spent)",
            ),
            (
                row(s, 4, "Q8*"),
                six(RowProblem::NoSquare {
                    column: "z".into(),
                }),
                "row 6: a piece where no square exists (column z)",
            ),
            (
                row(s, 4, "*8"),
                six(RowProblem::CellCount { found: 9, needs: 10 }),
                "row 6 has 9 cells, chessma needs 10",
            ),
            (
                row(s, 2, "*rnbq1bnr*"),
                E::ChessmaKings {
                    side: Side::Black,
                    count: 0,
                },
                "Black has 0 Kings; a position needs exactly one each",
            ),
            (
                fields("w KQkx - -"),
                E::CastlingLetter { letter: 'x' },
                "castling rights are KQkq or '-', found 'x'",
            ),
            (
                fields("w KQkq j9 -"),
                E::EnPassant(EnPassantProblem::NotASquare {
                    found: "j9".into(),
                }),
                "en passant: 'j9' is not a square",
            ),
            (
                fields("w KQkq e2 -"),
                E::EnPassant(EnPassantProblem::NotPassed {
                    field: "e2".into(),
                }),
                "en passant: 'e2' is not the one or two empty squares a pawn passed",
            ),
            (
                fields("w KQkq e3 -"),
                E::EnPassant(EnPassantProblem::NoPawn {
                    side: Side::Black,
                    field: "e3".into(),
                }),
                "en passant: no Black pawn stands beyond e3",
            ),
            (
                fields("w KQkq - Y"),
                E::Pockets(PocketProblem::NotALetter { letter: 'Y' }),
                "pockets: 'Y' is not a piece letter",
            ),
            (
                fields("w KQkq - Q'"),
                E::Pockets(PocketProblem::OnlyEncloserSpent),
                "pockets: only an Encloser takes a ' (spent)",
            ),
            (
                fields("w KQkq - k"),
                E::Pockets(PocketProblem::King),
                "pockets: a King is never in a pocket",
            ),
            (
                fields(&format!("w KQkq - {}", "p".repeat(16))),
                E::Pockets(PocketProblem::Full),
                "pockets: at most 15 pieces of a kind",
            ),
            (
                "1********1/*8*/*4k3*/*8*/*8*/*8*/*8*/*8*/*8*/*4R3*/*8*/1********K w - - -".into(),
                E::ChessmaCheck { side: Side::Black },
                "the side not to move (Black) is in check",
            ),
        ],
    );
}
