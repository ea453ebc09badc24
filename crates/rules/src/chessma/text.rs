//! Chessma 84 in words, for the rules page (RULES-DETAILS.md section 7): the game end of 7.5
//! and how each piece moves and captures (7.3, 7.4, with the settled points of 7.7). The
//! variant file cannot say this (its Ultima pieces are written `mQ`, a Queen that never
//! captures); `ChessmaGame::rules_text` hands it to the interface.

use crate::rules_text::{command_rules, pieces_in_words, RulesText};
use crate::variant::Variant;

/// The rules of Chessma 84 in sentences: the statements below, each piece's in place of its
/// Betza letters.
pub(crate) fn rules_text(v: &Variant) -> RulesText {
    let owned = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut pieces = pieces_in_words(v);
    for (letter, words) in pieces.iter_mut() {
        if let Some((_, own)) = PIECES.iter().find(|(c, _)| c == letter) {
            *words = own.to_string();
        }
    }
    RulesText {
        command: command_rules(v),
        victory: owned(VICTORY),
        draws: owned(DRAWS),
        pieces,
        sections: SECTIONS
            .iter()
            .map(|&(title, items)| (title.to_string(), owned(items)))
            .collect(),
    }
}

/// How the game is won or lost (7.5).
pub(crate) const VICTORY: &[&str] = &[
    "Checkmate wins. Check is judged on both boards: a King is in check when an unfrozen enemy piece could capture it by any of its ways of capturing (replacement, withdrawal, long leap, coordination, enclosure, a Chameleon's imitations) on either board.",
    "Stalemate with the stalemated King on a corner square (z0, z9, i0 or i9) is a win for the stalemating player.",
];

/// How the game is drawn (7.5).
pub(crate) const DRAWS: &[&str] = &[
    "Stalemate with the King anywhere but on a corner is a draw.",
    "The fifty-move rule applies as in FIDE chess.",
    "Threefold repetition of a position draws, as in FIDE chess.",
];

/// Each piece whose move or capture its Betza letters do not say, by letter.
pub(crate) const PIECES: &[(char, &str)] = &[
    ('K', "As in FIDE chess, one step in any direction; castling as in FIDE chess, on board A only."),
    ('P', "As in FIDE chess: one step forward, two from its second rank (one to three from rank 1 or 1', where a Swapper may put it), captures one step diagonally forward, en passant on any square it passed; promotes on either eighth rank (8 or 8') or on an opponent's corner into any piece but King and Pawn."),
    ('I', "Moves like a Queen. Never captures: it freezes every adjacent enemy piece (on either board), which then cannot move; two Immobilizers, or an Immobilizer and a Chameleon, in contact freeze each other."),
    ('U', "Moves like a Queen. Never captures: moving along an empty line onto an enemy piece, it pushes that piece, and the pieces in its way, as far as they go along the same line (where the line forks between 1 and 1' or 8 and 8', its player names the board)."),
    ('L', "Moves like a Queen. Captures by leaping over enemy pieces along one straight line, one at a time, landing on an empty square beyond each, several in one move; it never lands on an occupied square, and must capture when it can (it moves without capturing only when it has no capture)."),
    ('W', "Moves like a Queen, never onto an occupied square. Captures the adjacent enemy piece it moves directly away from (from c6 to d6-h6 it takes b6)."),
    ('C', "Moves like a Queen, never onto an occupied square. Captures together with its King: after its move, an enemy piece on its file and the King's rank, or on the King's file and its rank (up to two at once), is captured when as many pieces stand between it and the King as between it and the Coordinator; the captures are compulsory."),
    ('E', "Moves like a Queen, never onto an occupied square. Captures once per game, Go-style: the move (or a teleport from anywhere to the empty square that completes the enclosure) captures each enemy group, orthogonally connected, left with no empty orthogonal neighbour and only the Encloser's side around it; the captured pieces go to its owner's pocket and may be dropped later (a drop is a move, and neither captures nor gives check). After that capture it only moves."),
    ('S', "Moves like a Queen. Never captures: it exchanges places with any piece, of either side, a Queen's move away along a clear line on one board."),
    ('X', "Moves like a Queen. Captures each enemy piece only by that piece's own way: an orthodox piece by that piece's move (a Pawn one step diagonally forward, a King from an adjacent square), a Long Leaper by leaping it, a Withdrawer by withdrawing from it, a Coordinator by coordinating, an Encloser by enclosing it; it freezes an Immobilizer, swaps with a Swapper and pushes a Pusher (when the next square is free). Chameleons do not affect Chameleons."),
];

/// Further rules, each a titled list.
pub(crate) const SECTIONS: &[(&str, &[&str])] = &[(
    "Two boards",
    &[
        "The 84 squares are two boards of 68 squares that share ranks 2 to 7 and the four corners z0, z9, i0 and i9: board A has ranks 1 and 8, board B the twin ranks 1' and 8'.",
        "A move lies entirely on one of the two boards and may not leave its King in check on either; a move valid on both boards makes its captures on both.",
        "No piece captures, freezes or encloses a friendly piece.",
    ],
)];
