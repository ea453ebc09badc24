//! Why a position string cannot be read (NOTATION.md), typed: what is wrong and where (the
//! field, rank, row or token at fault), for the unit board's strings, FEN and Chessma 84's.
//! `Display` words each as the readers always have (tests and players read these lines).

use std::fmt;

use crate::bitboard::Square;
use crate::outcome::Side;

/// A malformed position string: the first fault found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing but white space.
    Empty,
    /// The board without a side to move after it.
    MissingSide,
    /// The side-to-move field is neither `w` nor `b`.
    BadSide { found: String },
    /// A field after the side to move, in a variant that takes none.
    ExtraField { field: String, variant: String },
    /// Chessma 84: a field after the pockets.
    ExtraAfterPockets { field: String },
    /// The unit board has `found` ranks where the variant has `needs`.
    RankCount {
        found: usize,
        variant: String,
        needs: u8,
    },
    /// A rank of the unit board or of a FEN (`rank`: from 0, the first rank) is wrong.
    Rank { rank: u8, problem: RankProblem },
    /// Lifeform: the piece written after `~` on a rank (`rank` from 0), after the Hand
    /// `hand`, cannot be pinned there.
    Pin {
        rank: u8,
        hand: char,
        pinned: char,
        problem: PinProblem,
    },
    /// The units cannot all stand on the board.
    Unit(UnitProblem),
    /// Placement variants: a letter of the pieces to place is wrong.
    ToPlace(PocketProblem),
    /// So many units that one turn could have more legal steps than a step list holds.
    TooManySteps { bound: usize, most: usize },
    /// FIDE: not 2 to 6 fields.
    FenFields { found: usize },
    /// FIDE: the variant has no piece of this FEN letter.
    MissingPiece { letter: char },
    /// FIDE: the board has `found` ranks, not 8.
    FenRanks { found: usize },
    /// FIDE: a side has `count` kings, not one.
    FenKings { side: Side, count: u32 },
    /// FIDE: a castling letter that is not one of KQkq.
    FenCastlingLetter { letter: char },
    /// FIDE: the castling right `right` without its king and rook on their squares.
    CastlingNeeds { right: char },
    /// FIDE: the en passant field is not a square.
    FenEnPassantSquare { found: String },
    /// FIDE: the en passant square `square` is not behind a pawn that just stepped twice.
    NoDoubleStep { square: String },
    /// FIDE: a move counter that is not a number.
    BadCounter { found: String },
    /// FIDE: the side not to move is in check.
    FenCheck,
    /// Chessma 84: the board has `found` rows, not `needs`.
    RowCount { found: usize, needs: u8 },
    /// Chessma 84: a row (by its label) is wrong.
    Row { row: String, problem: RowProblem },
    /// Chessma 84: a side has `count` Kings, not one.
    ChessmaKings { side: Side, count: u32 },
    /// Chessma 84: a castling letter that is not one of KQkq.
    CastlingLetter { letter: char },
    /// Chessma 84: the en passant field is wrong.
    EnPassant(EnPassantProblem),
    /// Chessma 84: the pockets are wrong.
    Pockets(PocketProblem),
    /// Chessma 84: the side not to move is in check.
    ChessmaCheck { side: Side },
    /// The variant names a family that is neither built in nor registered.
    UnknownFamily { name: String, known: String },
    /// A family from outside the rules crate refuses the string, in its own words.
    Family { message: String },
}

/// What is wrong with a rank of the unit board or of a FEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RankProblem {
    /// A run of empty squares written `0`, `05` or too large to read.
    BadCount { run: String },
    /// A letter that is no piece of the variant.
    NotAPiece { letter: char, variant: String },
    /// A group number opened with `(` and never closed.
    Unclosed,
    /// A group number in a variant without groups.
    NoGroups { variant: String, found: String },
    /// A group number outside 1..`groups`.
    BadGroup { found: String, groups: usize },
    /// A unit without its group number, in a variant with groups.
    GroupMissing { letter: char },
    /// More than the board's `files` files.
    TooManyFiles { files: u8 },
    /// `found` files where the board has `files`.
    FileCount { found: u32, files: u8 },
    /// FIDE: a letter that is no chess piece.
    NotAChessPiece { letter: char },
    /// FIDE: a pawn on the first or last rank.
    PawnOnEdge,
    /// FIDE: `found` files, not 8.
    ChessFileCount { found: u8 },
}

/// Why the piece written after `~` cannot be pinned there (Lifeform).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinProblem {
    /// The variant is not Lifeform (`variant`: its id).
    NotLifeform { variant: String },
    /// The piece before `~` is not a Hand.
    NotAHand,
    /// The pinned letter is no piece of the variant.
    NotAPiece { letter: char, variant: String },
    /// The pinned piece is the Hand's own side's.
    OwnPiece,
    /// Hair is never pinned.
    Hair,
    /// The pinned unit cannot stand on the board.
    Unit(UnitProblem),
}

/// Why a unit cannot be added to the board being set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitProblem {
    /// More units than a board holds (`most`).
    TooMany { most: usize },
    /// Chain model: a second leader of `side`'s group `group` (from 0), on `square`.
    TwoLeaders {
        side: Side,
        group: u8,
        square: Square,
    },
    /// Range model: `side`'s leaders have more activations a turn than `most`.
    TooManyActivations { side: Side, most: usize },
}

/// What is wrong with a pocket (Chessma 84's `pockets`, a placement variant's pieces to
/// place).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PocketProblem {
    /// Pieces to place: a letter that is no piece of `variant`.
    NotAPiece { letter: char, variant: String },
    /// Pieces to place: more than 64 of one letter.
    TooMany { letter: char },
    /// Chessma 84: a letter that is no piece letter.
    NotALetter { letter: char },
    /// Chessma 84: `'` after a letter other than an Encloser's.
    OnlyEncloserSpent,
    /// Chessma 84: a King in a pocket.
    King,
    /// Chessma 84: more than 15 pieces of a kind.
    Full,
}

/// What is wrong with Chessma 84's en passant field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnPassantProblem {
    /// A name that is no square.
    NotASquare { found: String },
    /// More than two squares, or an occupied one (`field`: the whole field).
    NotPassed { field: String },
    /// No pawn of `side` beyond the squares.
    NoPawn { side: Side, field: String },
}

/// What is wrong with a row of Chessma 84's board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowProblem {
    /// More cells than the board's `files`.
    TooManyCells { files: u8 },
    /// `*` (no square) written on a cell that is a square.
    StarOnSquare { square: String },
    /// A run of empty squares written `0`, `05` or too large to read.
    BadCount { run: String },
    /// A run of `run` empty squares over a cell that is no square.
    RunCrossesHole { run: u8 },
    /// A letter that is no piece of Chessma 84.
    NotAPiece { letter: char },
    /// `'` after a letter other than an Encloser's.
    OnlyEncloserSpent,
    /// A piece on a cell that is no square (`column`: the file's label).
    NoSquare { column: String },
    /// `found` cells where the board has `needs`.
    CellCount { found: u8, needs: u8 },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use PositionError::*;
        match self {
            Empty => f.write_str("empty position string"),
            MissingSide => f.write_str("missing side to move ('w' or 'b') after the board"),
            BadSide { found } => write!(f, "side to move must be 'w' or 'b', found '{found}'"),
            ExtraField { field, variant } => write!(
                f,
                "unexpected field '{field}' after the side to move ({variant} takes no more fields)"
            ),
            ExtraAfterPockets { field } => {
                write!(f, "unexpected field '{field}' after the pockets")
            }
            RankCount {
                found,
                variant,
                needs,
            } => write!(
                f,
                "board has {found} ranks separated by '/', {variant} needs {needs}"
            ),
            Rank { rank, problem } => write!(f, "rank {}: {problem}", rank + 1),
            Pin {
                rank,
                hand,
                pinned,
                problem,
            } => write!(f, "rank {}: '{hand}~{pinned}': {problem}", rank + 1),
            Unit(problem) => write!(f, "{problem}"),
            ToPlace(problem) => write!(f, "pieces to place: {problem}"),
            TooManySteps { bound, most } => write!(
                f,
                "these units could have up to {bound} legal steps in one turn, more than the \
                 {most} a step list holds; use fewer units or shorter moves"
            ),
            FenFields { found } => write!(
                f,
                "a chess position is FEN: <board> <side> [castling] [en passant] [halfmove] [fullmove], found {found} fields"
            ),
            MissingPiece { letter } => write!(f, "the variant lacks piece '{letter}'"),
            FenRanks { found } => write!(f, "FEN board has {found} ranks, chess needs 8"),
            FenKings { side, count } => write!(
                f,
                "{} has {count} kings; chess needs exactly one",
                side.name()
            ),
            FenCastlingLetter { letter } => {
                write!(f, "castling field: '{letter}' is not one of KQkq")
            }
            CastlingNeeds { right } => {
                let what = match right {
                    'K' => "White king on e1 and rook on h1",
                    'Q' => "White king on e1 and rook on a1",
                    'k' => "Black king on e8 and rook on h8",
                    _ => "Black king on e8 and rook on a8",
                };
                write!(f, "castling right '{right}' needs the {what}")
            }
            FenEnPassantSquare { found } => {
                write!(f, "en passant field: '{found}' is not a square")
            }
            NoDoubleStep { square } => write!(
                f,
                "en passant square {square} does not follow a double step"
            ),
            BadCounter { found } => write!(f, "'{found}' is not a move counter"),
            FenCheck => f.write_str("the side not to move is in check"),
            RowCount { found, needs } => write!(
                f,
                "board has {found} rows separated by '/', chessma needs {needs}"
            ),
            Row {
                row,
                problem: RowProblem::CellCount { found, needs },
            } => write!(f, "row {row} has {found} cells, chessma needs {needs}"),
            Row { row, problem } => write!(f, "row {row}: {problem}"),
            ChessmaKings { side, count } => write!(
                f,
                "{} has {count} Kings; a position needs exactly one each",
                side.name()
            ),
            CastlingLetter { letter } => {
                write!(f, "castling rights are KQkq or '-', found '{letter}'")
            }
            EnPassant(problem) => write!(f, "en passant: {problem}"),
            Pockets(problem) => write!(f, "pockets: {problem}"),
            ChessmaCheck { side } => {
                write!(f, "the side not to move ({}) is in check", side.name())
            }
            UnknownFamily { name, known } => {
                write!(f, "no game family '{name}' is registered (known: {known})")
            }
            Family { message } => f.write_str(message),
        }
    }
}

impl fmt::Display for RankProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use RankProblem::*;
        match self {
            BadCount { run } => write!(f, "bad empty-square count '{run}'"),
            NotAPiece { letter, variant } => write!(f, "'{letter}' is not a piece of {variant}"),
            Unclosed => f.write_str("'(' without ')'"),
            NoGroups { variant, found } => {
                write!(f, "{variant} has no groups, found '({found})'")
            }
            BadGroup { found, groups } => write!(f, "group '({found})' must be 1..{groups}"),
            GroupMissing { letter } => write!(
                f,
                "unit '{letter}' needs a group number, like '{letter}(1)'"
            ),
            TooManyFiles { files } => write!(f, "more than {files} files"),
            FileCount { found, files } => {
                write!(f, "{found} files described, the board has {files}")
            }
            NotAChessPiece { letter } => write!(f, "'{letter}' is not a chess piece"),
            PawnOnEdge => f.write_str("a pawn cannot stand on the first or last rank"),
            ChessFileCount { found } => write!(f, "{found} files described, chess has 8"),
        }
    }
}

impl fmt::Display for PinProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PinProblem::NotLifeform { variant } => write!(
                f,
                "a pinned piece ('~') exists only in Lifeform, not in {variant}"
            ),
            PinProblem::NotAHand => f.write_str("only a Hand can pin ('~' must follow a Hand)"),
            PinProblem::NotAPiece { letter, variant } => {
                write!(f, "'{letter}' is not a piece of {variant}")
            }
            PinProblem::OwnPiece => f.write_str("a Hand pins only an enemy piece"),
            PinProblem::Hair => f.write_str("Hair cannot be pinned"),
            PinProblem::Unit(problem) => write!(f, "{problem}"),
        }
    }
}

impl fmt::Display for UnitProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            UnitProblem::TooMany { most } => write!(f, "more than {most} units"),
            // The square as `Square`'s Debug writes it (a1 to p16), as it always was.
            UnitProblem::TwoLeaders {
                side,
                group,
                square,
            } => write!(
                f,
                "{}'s group ({}) has two leaders; the second is on {square:?}",
                side.name(),
                group + 1
            ),
            UnitProblem::TooManyActivations { side, most } => {
                write!(f, "{} has more than {most} activations a turn", side.name())
            }
        }
    }
}

impl fmt::Display for PocketProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use PocketProblem::*;
        match self {
            NotAPiece { letter, variant } => write!(f, "'{letter}' is not a piece of {variant}"),
            TooMany { letter } => write!(f, "too many '{letter}'"),
            NotALetter { letter } => write!(f, "'{letter}' is not a piece letter"),
            OnlyEncloserSpent => f.write_str("only an Encloser takes a ' (spent)"),
            King => f.write_str("a King is never in a pocket"),
            Full => f.write_str("at most 15 pieces of a kind"),
        }
    }
}

impl fmt::Display for EnPassantProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EnPassantProblem::NotASquare { found } => write!(f, "'{found}' is not a square"),
            EnPassantProblem::NotPassed { field } => write!(
                f,
                "'{field}' is not the one or two empty squares a pawn passed"
            ),
            EnPassantProblem::NoPawn { side, field } => {
                write!(f, "no {} pawn stands beyond {field}", side.name())
            }
        }
    }
}

impl fmt::Display for RowProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use RowProblem::*;
        match self {
            TooManyCells { files } => write!(f, "more than {files} cells"),
            StarOnSquare { square } => write!(f, "'*' on {square}, which is a square"),
            BadCount { run } => write!(f, "bad empty-square count '{run}'"),
            RunCrossesHole { run } => write!(
                f,
                "the run of {run} empty squares crosses a cell that does not exist (write it '*')"
            ),
            NotAPiece { letter } => write!(f, "'{letter}' is not a piece of chessma-84"),
            OnlyEncloserSpent => f.write_str("only an Encloser takes a ' (spent)"),
            NoSquare { column } => {
                write!(f, "a piece where no square exists (column {column})")
            }
            // Written with its row by `PositionError` ("row 5 has 9 cells, ...").
            CellCount { found, needs } => {
                write!(f, "has {found} cells, chessma needs {needs}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl From<UnitProblem> for PositionError {
    fn from(problem: UnitProblem) -> PositionError {
        PositionError::Unit(problem)
    }
}
