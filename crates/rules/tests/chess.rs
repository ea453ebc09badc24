//! FIDE chess against the published perft values (chessprogramming.org "Perft Results"),
//! and the game rules: checkmate, stalemate, fifty moves, repetition, insufficient material.

use cohort_rules::Rules;
use cohort_rules::{builtin, perft::perft, EndReason, Game, Outcome, Position, Side};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS4_MIRRORED: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

fn chess(fen: &str) -> Position {
    Position::parse(&builtin("chess").unwrap(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn check(fen: &str, expected: &[u64]) {
    let mut p = chess(fen);
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut p, d as u32 + 1), n, "{fen} depth {}", d + 1);
    }
    assert_eq!(
        p.to_text(),
        chess(fen).to_text(),
        "perft leaves the position as it was"
    );
}

#[test]
fn perft_start_position_to_depth_6() {
    check(START, &[20, 400, 8902, 197281, 4865609, 119060324]);
}

#[test]
fn perft_kiwipete_to_depth_5() {
    check(KIWIPETE, &[48, 2039, 97862, 4085603, 193690690]);
}

#[test]
fn perft_position_3_to_depth_6() {
    check(POS3, &[14, 191, 2812, 43238, 674624, 11030083]);
}

#[test]
fn perft_position_4_and_its_mirror_to_depth_5() {
    check(POS4, &[6, 264, 9467, 422333, 15833292]);
    check(POS4_MIRRORED, &[6, 264, 9467, 422333, 15833292]);
}

#[test]
fn perft_positions_5_and_6_to_depth_5() {
    check(POS5, &[44, 1486, 62379, 2103487, 89941194]);
    check(POS6, &[46, 2079, 89890, 3894594, 164075551]);
}

fn play(g: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn checkmate_and_stalemate_end_the_game() {
    let mut g = Game::new(chess(START));
    play(&mut g, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(
        g.result(),
        Some((Outcome::Win(Side::Black), EndReason::Checkmate))
    );
    let g = Game::new(chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
    assert_eq!(g.result(), Some((Outcome::Draw, EndReason::Stalemate)));
}

#[test]
fn fifty_moves_repetition_and_insufficient_material_draw() {
    let mut g = Game::new(chess("8/8/4k3/8/8/3RK3/8/8 w - - 99 80"));
    play(&mut g, "d3d1");
    assert_eq!(g.result(), Some((Outcome::Draw, EndReason::FiftyMoves)));
    let mut g = Game::new(chess(START));
    play(&mut g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(g.result(), None);
    play(&mut g, "f6g8");
    assert_eq!(g.result(), Some((Outcome::Draw, EndReason::Repetition)));
    let mut g = Game::new(chess("8/8/4k3/8/8/3rK3/8/2B5 w - - 0 1"));
    play(&mut g, "e3d3");
    assert_eq!(
        g.result(),
        Some((Outcome::Draw, EndReason::InsufficientMaterial))
    );
}

#[test]
fn special_moves_in_both_notations() {
    let mut p = chess("r3k2r/8/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1");
    let ep = p.parse_step("e5xd6").unwrap();
    let castle = p.parse_step("e1g1").unwrap();
    assert!(
        p.parse_step("e1c1").is_err(),
        "c1 is attacked by the pawn on b2"
    );
    let undo = p.make(ep);
    assert_eq!(p.to_text(), "r3k2r/8/3P4/8/8/8/1p6/R3K2R b KQkq - 0 1");
    p.unmake(ep, undo);
    p.make(castle);
    assert_eq!(p.to_text(), "r3k2r/8/8/3pP3/8/8/1p6/R4RK1 b kq - 1 1");
    let promo = p.parse_step("b2-b1=N").unwrap();
    assert_eq!(p.step_uci(promo), "b2b1n");
    let e = p.parse_step("b2b1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "b2b1 is illegal: a pawn reaching the last rank must promote (add q, r, b or n)"
    );
    assert_eq!(e.illegal, Some(cohort_rules::Illegal::MustPromote), "{e}");
    p.make(promo);
    assert!(p.to_text().starts_with("r3k2r/8/8/3pP3/8/8/8/Rn3RK1 w"));
}

#[test]
fn bad_fen_is_refused_with_a_reason() {
    use cohort_rules::position_error::{PositionError as E, RankProblem};
    let v = builtin("chess").unwrap();
    let rank = |rank, problem| E::Rank { rank, problem };
    for (fen, want, words) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            E::FenRanks { found: 7 },
            "FEN board has 7 ranks, chess needs 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
            E::FenKings {
                side: Side::White,
                count: 0,
            },
            "White has 0 kings; chess needs exactly one",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            E::NoDoubleStep {
                square: "e3".into(),
            },
            "en passant square e3 does not follow a double step",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            E::FenEnPassantSquare { found: "e9".into() },
            "en passant field: 'e9' is not a square",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            E::CastlingNeeds { right: 'K' },
            "castling right 'K' needs the White king on e1 and rook on h1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w X - 0 1",
            E::FenCastlingLetter { letter: 'X' },
            "castling field: 'X' is not one of KQkq",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
            E::FenCheck,
            "the side not to move is in check",
        ),
        (
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            rank(7, RankProblem::PawnOnEdge),
            "rank 8: a pawn cannot stand on the first or last rank",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2Z w - - 0 1",
            rank(0, RankProblem::NotAChessPiece { letter: 'Z' }),
            "rank 1: 'Z' is not a chess piece",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
            rank(0, RankProblem::ChessFileCount { found: 7 }),
            "rank 1: 7 files described, chess has 8",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            E::BadSide { found: "x".into() },
            "side to move must be 'w' or 'b', found 'x'",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            E::BadCounter { found: "x".into() },
            "'x' is not a move counter",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3",
            E::FenFields { found: 1 },
            "a chess position is FEN: <board> <side> [castling] [en passant] [halfmove] \
             [fullmove], found 1 fields",
        ),
        // Found by the fuzzer: the file count used to overflow.
        (
            "4k3/8/8/8/8/8/8/4K3888888888888888888888888888888888888 w - - 0 1",
            rank(0, RankProblem::TooManyFiles { files: 8 }),
            "rank 1: more than 8 files",
        ),
    ] {
        let err = Position::parse(&v, fen).unwrap_err();
        assert_eq!(err, want, "{fen}");
        assert_eq!(err.to_string(), words, "{fen}");
    }
}
