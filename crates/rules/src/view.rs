//! The plain data the rules give an interface: the command picture of a position
//! (`CommandView`), a leader's command for its diagram (`LeaderCommand`), how a variant's
//! command rules show (`CommandPresentation`), the rules in sentences (`RulesText`) and the
//! enemy units that give check (`Checker`).
//! A leaf: squares, sets and steps only. Each command model fills these in its own module
//! (command/, the `Describe` trait); the interface (interface.rs) returns them.

use crate::bitboard::{Bitboard, Square};
use crate::step::Step;

/// A leader of the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderView {
    pub square: Square,
    /// It may still activate a unit this turn (range and lead models); always true for chains.
    pub available: bool,
    /// Range model: the squares it commands (king distance `range`), else empty.
    pub zone: Bitboard,
}

/// Lead model: the leader leading the turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeadingView {
    pub square: Square,
    /// The mode's name (`ortho`, `dia`), empty when the leader kind has one way to lead.
    pub mode: String,
    /// Activations of the turn, the leader's own included, and how many are used.
    pub budget: u8,
    pub used: u8,
    /// Activations still open to units other than the leader.
    pub others_left: u8,
    /// Piece kinds (indices into the variant's pieces) it may activate, besides itself.
    pub activates: Vec<u8>,
    /// Kinds that move differently when it activates them: (kind, Betza moves).
    pub remap: Vec<(u8, String)>,
}

/// The command picture of a position, for the side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandView {
    pub leaders: Vec<LeaderView>,
    /// Pairs of adjacent units through which a chain runs from a leader (chain and lead).
    pub links: Vec<(Square, Square)>,
    /// Unit moves made this turn and the most the turn allows now (None: no fixed cap).
    pub moves: u8,
    pub moves_cap: Option<u8>,
    /// Range model: how far (king distance) each leader commands.
    pub range: Option<u8>,
    pub leading: Option<LeadingView>,
    /// Lead model at a turn start: each legal `lead` step with what that leader and mode
    /// would allow (`used` 0). Empty otherwise.
    pub lead_options: Vec<(Step, LeadingView)>,
}

/// A leader's command, in the words of its model (a piece diagram shows it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderCommand {
    /// The model's name as a variant file writes it (`chain`, `range`, `lead`).
    pub model: &'static str,
    /// One sentence for people.
    pub text: String,
    /// Kinds it activates (bit k = kind k).
    pub activates: u16,
    /// Squares it reaches on an empty board, and the own units it activates on the board
    /// (itself left out): the units its model lets move when it commands at a turn start.
    pub reach_empty: Bitboard,
    pub reach_board: Bitboard,
    /// Range model: how far it commands (king distance).
    pub range: Option<u8>,
    /// Chain and lead models: whether links run through any friendly unit (else through
    /// the leader's own group).
    pub links_any_friendly: Option<bool>,
    /// Chain model: the most unit moves a turn (0: no cap beyond once per unit).
    pub cap: Option<u8>,
    /// Lead model: its ways of leading (indices into `Variant::lead_modes`).
    pub modes: Option<Vec<usize>>,
}

/// How a variant's command rules show in an interface, the same in every position: what
/// the controls offer and the sentences the hints say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandPresentation {
    /// A turn is one step (FIDE chess, Chessma 84): no End-turn button, nothing to undo
    /// inside a turn.
    pub one_step_turns: bool,
    /// The command overlay (chains, ranges) has something to draw.
    pub shows_command: bool,
    /// The rule that lets a unit move under a leader, in one sentence (the chain's links, a
    /// leader's range); None where the model has none.
    pub link_rule: Option<String>,
    /// What the command overlay draws, in one sentence; None where it draws nothing.
    pub legend: Option<String>,
}

/// The rules of a variant in sentences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesText {
    /// How a turn is made under the command settings, one statement each.
    pub command: Vec<String>,
    /// How the game is won and lost, one statement each.
    pub victory: Vec<String>,
    /// How the game is drawn, one statement each.
    pub draws: Vec<String>,
    /// How each piece moves and captures, by letter, in the variant's order.
    pub pieces: Vec<(char, String)>,
    /// Further rules, each a title and its statements.
    pub sections: Vec<(String, Vec<String>)>,
}

/// An enemy unit that gives check: it could take the side to move's King now
/// (`Explain::checkers`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Checker {
    pub square: Square,
    /// The unit's kind (an index into the variant's pieces).
    pub kind: u8,
    pub how: CheckHow,
}

/// How a checking unit would take the King: the capture method the rules found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckHow {
    /// By moving onto the King's square (the orthodox pieces).
    Attack,
    /// A Chameleon next to the King, taking it by a King's step as it imitates the King.
    AsKing,
    /// A Withdrawer next to the King, moving directly away from it.
    Withdrawal,
    /// A Long Leaper on the King's line, leaping over it onto the empty square beyond.
    LongLeap,
    /// A Coordinator moving to a square that coordinates with its own King.
    Coordination,
    /// An unspent Encloser filling the last liberty of the King's group (by a move or a
    /// teleport).
    Enclosure,
}

impl CheckHow {
    /// The method in words, to follow "the Rook on e8": "attacks the King".
    pub fn describe(self) -> &'static str {
        match self {
            CheckHow::Attack => "attacks the King",
            CheckHow::AsKing => "can take the King by a King's step, imitating it",
            CheckHow::Withdrawal => "can take the King by withdrawing from it",
            CheckHow::LongLeap => "can take the King by leaping over it",
            CheckHow::Coordination => "can take the King by coordinating with its own King",
            CheckHow::Enclosure => "can take the King by enclosing its group",
        }
    }
}
