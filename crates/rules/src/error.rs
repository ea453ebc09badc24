//! Why the rules refuse a step, typed: `Illegal` (the rules' reason, with `Unfinished` for
//! Lifeform's placement), `StepError` (a step read from text: malformed, or refused with its
//! reason), `TurnError` (a whole turn read from text) and `PlayError` (what `Game::play`
//! answers). No module's errors are told apart by their words.

use std::fmt;

/// Why a step is illegal: the rules' answer, typed; `Display` words it for a player and
/// `code` names it for programs (stable snake_case, listed in docs/server.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over; no step is legal.
    GameOver,
    /// `end` before the turn has a unit move.
    EndTooEarly,
    /// Lifeform's placement: `end` with the body unfinished (what is missing).
    PlacementUnfinished(Unfinished),
    NoUnit,
    /// The unit belongs to the side not to move.
    NotYourUnit,
    /// The unit may move now but not to that square.
    CannotReach,
    AlreadyMoved,
    /// Chain model: the turn moves another chesimal.
    OtherChesimal {
        chosen: u8,
        group: u8,
    },
    /// Chain model: the unit's chesimal has lost its leader.
    LeaderLost {
        group: u8,
    },
    /// No chain of adjacent units links it to its (leading) leader.
    NotLinked,
    /// The turn's cap of unit moves is reached.
    CapReached {
        cap: u8,
    },
    /// Range model: no leader with an activation left is within `range`.
    NoActivator {
        range: u8,
    },
    /// The leader may not activate this kind (`activates`, a lead mode).
    NotActivatable,
    /// Lead model: the turn starts with `lead`.
    NeedsLead,
    /// Lead model: `lead` when the turn already has its leader.
    LeaderAlreadyNamed,
    /// Lead model: `lead` on a piece that does not lead.
    NotALeader,
    /// Lead model: `lead` that no unit move could follow.
    LeadWithoutMove,
    /// Lead model: every activation is used.
    BudgetUsed {
        budget: u8,
    },
    /// Lead model: the activations for other units are used; only the leader may move.
    OthersUsed {
        others: u8,
    },
    /// Lifeform: Hair and Limbs move only as followers, after the main move.
    FollowerOnly,
    /// Lifeform: the piece is pinned under an enemy Hand.
    Pinned,
    /// Lifeform: not next to the main piece's start square (or pinned).
    NotAFollower,
    /// Lifeform: the main move is made; only followers remain.
    MainMoveMade,
    /// Drops are for the placement phase.
    NotPlacing,
    NoneLeftToPlace,
    Occupied,
    OutsidePlacementZone {
        ranks: u8,
    },
    /// FIDE chess and Chessma 84: the King is in check and the move does not answer it.
    InCheck,
    /// FIDE chess and Chessma 84: the move reaches the last rank and must name a promotion.
    MustPromote,
    /// FIDE chess and Chessma 84: no legal move of the piece does that (blocked, or it
    /// would leave the own King in check).
    NoSuchMove,
    /// Chessma 84: the piece has no legal move at all.
    NoLegalMove,
    /// Chessma 84: the piece is frozen by an enemy Immobilizer.
    Frozen,
    /// Chessma 84: the drop is not possible (nothing in the pocket, square taken, or it
    /// captures, gives check or leaves the King in check).
    DropRefused,
    /// Chessma 84: a push that ends differently on the two boards must name its board.
    BoardNotNamed,
    /// Chessma 84: the squares make a legal step, written another way (a promotion or
    /// board the step does not have).
    WrittenOtherwise,
    /// A step the rules cannot play here (a pin, push or promotion in a variant that has
    /// none): no legal step does that.
    NoSuchStep,
}

impl Illegal {
    /// A stable snake_case name of the reason, for programs (the server's `reason`).
    pub fn code(&self) -> &'static str {
        match self {
            Illegal::GameOver => "game_over",
            Illegal::EndTooEarly => "end_too_early",
            Illegal::PlacementUnfinished(_) => "placement_unfinished",
            Illegal::NoUnit => "no_unit",
            Illegal::NotYourUnit => "not_your_unit",
            Illegal::CannotReach => "cannot_reach",
            Illegal::AlreadyMoved => "already_moved",
            Illegal::OtherChesimal { .. } => "other_chesimal",
            Illegal::LeaderLost { .. } => "leader_lost",
            Illegal::NotLinked => "not_linked",
            Illegal::CapReached { .. } => "cap_reached",
            Illegal::NoActivator { .. } => "no_activator",
            Illegal::NotActivatable => "not_activatable",
            Illegal::NeedsLead => "needs_lead",
            Illegal::LeaderAlreadyNamed => "leader_already_named",
            Illegal::NotALeader => "not_a_leader",
            Illegal::LeadWithoutMove => "lead_without_move",
            Illegal::BudgetUsed { .. } => "budget_used",
            Illegal::OthersUsed { .. } => "others_used",
            Illegal::FollowerOnly => "follower_only",
            Illegal::Pinned => "pinned",
            Illegal::NotAFollower => "not_a_follower",
            Illegal::MainMoveMade => "main_move_made",
            Illegal::NotPlacing => "not_placing",
            Illegal::NoneLeftToPlace => "none_left_to_place",
            Illegal::Occupied => "occupied",
            Illegal::OutsidePlacementZone { .. } => "outside_placement_zone",
            Illegal::InCheck => "in_check",
            Illegal::MustPromote => "must_promote",
            Illegal::NoSuchMove => "no_such_move",
            Illegal::NoLegalMove => "no_legal_move",
            Illegal::Frozen => "frozen",
            Illegal::DropRefused => "drop_refused",
            Illegal::BoardNotNamed => "board_not_named",
            Illegal::WrittenOtherwise => "written_otherwise",
            Illegal::NoSuchStep => "no_such_step",
        }
    }

    /// Every reason once (payloads zero), for the documentation's list and its test.
    pub fn all() -> Vec<Illegal> {
        vec![
            Illegal::GameOver,
            Illegal::EndTooEarly,
            Illegal::PlacementUnfinished(Unfinished::NoNeck),
            Illegal::NoUnit,
            Illegal::NotYourUnit,
            Illegal::CannotReach,
            Illegal::AlreadyMoved,
            Illegal::OtherChesimal {
                chosen: 0,
                group: 0,
            },
            Illegal::LeaderLost { group: 0 },
            Illegal::NotLinked,
            Illegal::CapReached { cap: 0 },
            Illegal::NoActivator { range: 0 },
            Illegal::NotActivatable,
            Illegal::NeedsLead,
            Illegal::LeaderAlreadyNamed,
            Illegal::NotALeader,
            Illegal::LeadWithoutMove,
            Illegal::BudgetUsed { budget: 0 },
            Illegal::OthersUsed { others: 0 },
            Illegal::FollowerOnly,
            Illegal::Pinned,
            Illegal::NotAFollower,
            Illegal::MainMoveMade,
            Illegal::NotPlacing,
            Illegal::NoneLeftToPlace,
            Illegal::Occupied,
            Illegal::OutsidePlacementZone { ranks: 0 },
            Illegal::InCheck,
            Illegal::MustPromote,
            Illegal::NoSuchMove,
            Illegal::NoLegalMove,
            Illegal::Frozen,
            Illegal::DropRefused,
            Illegal::BoardNotNamed,
            Illegal::WrittenOtherwise,
            Illegal::NoSuchStep,
        ]
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::EndTooEarly => write!(f, "'end' needs at least one unit move in the turn first"),
            Illegal::PlacementUnfinished(why) => write!(f, "the placement is not finished: {why}"),
            Illegal::NoUnit => write!(f, "there is no unit there"),
            Illegal::NotYourUnit => write!(f, "that unit is not the side to move's"),
            Illegal::CannotReach => write!(f, "the unit cannot reach that square"),
            Illegal::AlreadyMoved => write!(f, "the unit has already moved this turn"),
            Illegal::OtherChesimal { chosen, group } => write!(
                f,
                "this turn moves chesimal ({}); the unit belongs to chesimal ({})",
                chosen + 1,
                group + 1
            ),
            Illegal::LeaderLost { group } => {
                write!(f, "chesimal ({}) has lost its leader and cannot move", group + 1)
            }
            Illegal::NotLinked => write!(
                f,
                "the unit is not linked to its leader by a chain of adjacent units"
            ),
            Illegal::CapReached { cap } => write!(f, "this turn has used all {cap} activations"),
            Illegal::NoActivator { range } => write!(
                f,
                "no leader with an activation left is within {range} squares"
            ),
            Illegal::NotActivatable => write!(f, "the leader does not activate this kind"),
            Illegal::NeedsLead => write!(
                f,
                "a turn starts by naming its leader: lead:<square> (a Prince adds :ortho or :dia)"
            ),
            Illegal::LeaderAlreadyNamed => write!(f, "this turn already has its leader"),
            Illegal::NotALeader => write!(f, "that piece does not lead"),
            Illegal::LeadWithoutMove => write!(
                f,
                "no unit move would then be legal (a lead must be followed by one)"
            ),
            Illegal::BudgetUsed { budget } => {
                write!(f, "the leading leader has used all {budget} activations")
            }
            Illegal::OthersUsed { others } => write!(
                f,
                "the leading leader has activated {others} other units, its most; only it may still move"
            ),
            Illegal::FollowerOnly => {
                write!(f, "Hair and Limbs move only as followers, after the main move")
            }
            Illegal::Pinned => write!(f, "the piece is pinned"),
            Illegal::NotAFollower => write!(
                f,
                "it did not stand next to the main piece's start square, or is pinned"
            ),
            Illegal::MainMoveMade => write!(
                f,
                "this turn's main move is made; only follower steps of Hair and Limbs remain"
            ),
            Illegal::NotPlacing => write!(f, "pieces are placed only in the placement phase"),
            Illegal::NoneLeftToPlace => write!(f, "no piece of that kind is left to place"),
            Illegal::Occupied => write!(f, "the square is occupied"),
            Illegal::OutsidePlacementZone { ranks } => {
                write!(f, "a side places on its first {ranks} ranks only")
            }
            Illegal::InCheck => write!(f, "the King is in check and this does not answer it"),
            Illegal::MustPromote => write!(f, "the move promotes: name the piece it becomes"),
            Illegal::NoSuchMove => write!(
                f,
                "no legal move does that (the piece cannot go there, or it would leave its King in check)"
            ),
            Illegal::NoLegalMove => write!(f, "the piece has no legal move"),
            Illegal::Frozen => write!(f, "the piece is frozen by an enemy Immobilizer"),
            Illegal::DropRefused => write!(
                f,
                "no such piece in the pocket, or the square is taken, or the drop captures, gives check or leaves the King in check"
            ),
            Illegal::BoardNotNamed => write!(
                f,
                "the push ends differently on the two boards; add /A or /B"
            ),
            Illegal::WrittenOtherwise => {
                write!(f, "a legal step joins these squares, written differently")
            }
            Illegal::NoSuchStep => write!(f, "no legal step does that here"),
        }
    }
}

/// What keeps Lifeform's placement from ending (`Illegal::PlacementUnfinished`): the first
/// fault found, naming the piece at fault by its square as the variant writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfinished {
    /// Pieces are still in the side's pocket (`count` of them, all kinds together).
    PiecesLeft { count: u32 },
    /// A Limb linked to the Torso neither directly nor through adjacent Limbs.
    LimbUnlinked { square: String },
    /// A Hand or Foot (`piece`: its kind's name) not next to a Limb linked to the Torso.
    NotNextToLimb { piece: String, square: String },
    /// Hair linked to none of the Head, Torso, a Hand or a Foot.
    HairUnlinked { square: String },
    /// The Head and the Torso are not joined by a Neck.
    NoNeck,
}

impl fmt::Display for Unfinished {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Unfinished::PiecesLeft { count } => write!(f, "{count} piece(s) still to place"),
            Unfinished::LimbUnlinked { square } => write!(
                f,
                "the Limb on {square} is not linked to the Torso (next to it, or through adjacent Limbs)"
            ),
            Unfinished::NotNextToLimb { piece, square } => write!(
                f,
                "the {piece} on {square} is not next to a Limb linked to the Torso"
            ),
            Unfinished::HairUnlinked { square } => write!(
                f,
                "the Hair on {square} is not linked to the Head, Torso, a Hand or a Foot"
            ),
            Unfinished::NoNeck => write!(
                f,
                "the Head and the Torso need a Neck: adjacent, or both next to one Limb"
            ),
        }
    }
}

/// A step that cannot be played: malformed text (`illegal` is None), or a well-formed step
/// the rules refuse now, with the typed reason. `Display` gives the whole message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    pub illegal: Option<Illegal>,
    pub message: String,
}

impl StepError {
    pub(crate) fn new(illegal: Illegal, message: String) -> StepError {
        StepError {
            illegal: Some(illegal),
            message,
        }
    }
    pub(crate) fn syntax(message: String) -> StepError {
        StepError {
            illegal: None,
            message,
        }
    }
    /// `text` names no step the rules could play here (`Illegal::NoSuchStep`).
    pub(crate) fn no_such_step(text: &str) -> StepError {
        let illegal = Illegal::NoSuchStep;
        let message = format!("{text} is illegal: {illegal}");
        StepError::new(illegal, message)
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StepError {}

impl From<StepError> for String {
    fn from(e: StepError) -> String {
        e.message
    }
}

/// Why `apply_turn` (common.rs) refused a turn written as text; the position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The text has no steps.
    Empty,
    /// The step at `index` (counted from 0 among the turn's words), written `word`, follows
    /// a step that ended the turn.
    AlreadyEnded { index: usize, word: String },
    /// The step at `index`, written `word`, cannot be played: why.
    Step {
        index: usize,
        word: String,
        error: StepError,
    },
    /// Every step was played but the turn cannot be closed with `end`: why.
    Closing(StepError),
}

impl TurnError {
    /// The step error inside, where one step (or the closing `end`) was refused.
    pub fn step_error(&self) -> Option<&StepError> {
        match self {
            TurnError::Step { error, .. } | TurnError::Closing(error) => Some(error),
            TurnError::Empty | TurnError::AlreadyEnded { .. } => None,
        }
    }
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TurnError::Empty => f.write_str("the turn has no steps"),
            TurnError::AlreadyEnded { index, word } => {
                write!(f, "step {} '{word}': the turn already ended", index + 1)
            }
            TurnError::Step { index, word, error } => {
                write!(f, "step {} '{word}': {error}", index + 1)
            }
            TurnError::Closing(error) => write!(f, "closing the turn: {error}"),
        }
    }
}

impl std::error::Error for TurnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.step_error().map(|e| e as _)
    }
}

/// Why `Game::play` or `Game::play_text` refused a step; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game has a result; no step is legal.
    GameOver,
    /// The rules refuse the step now: the typed reason, and the whole sentence (naming the
    /// step, piece and squares).
    Illegal { reason: Illegal, message: String },
    /// The text is not a step of this variant.
    Parse(StepError),
}

impl PlayError {
    /// A stable snake_case name of the kind: `game_over`, `illegal_step` or `bad_step`.
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::GameOver => "game_over",
            PlayError::Illegal { .. } => "illegal_step",
            PlayError::Parse(_) => "bad_step",
        }
    }
    /// The rules' reason, for an illegal step.
    pub fn reason(&self) -> Option<&Illegal> {
        match self {
            PlayError::Illegal { reason, .. } => Some(reason),
            _ => None,
        }
    }
}

impl From<StepError> for PlayError {
    fn from(e: StepError) -> PlayError {
        match e.illegal {
            Some(Illegal::GameOver) => PlayError::GameOver,
            Some(reason) => PlayError::Illegal {
                reason,
                message: e.message,
            },
            None => PlayError::Parse(e),
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::Illegal { message, .. } => f.write_str(message),
            PlayError::Parse(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<PlayError> for String {
    fn from(e: PlayError) -> String {
        e.to_string()
    }
}
