//! What the command family owns on the shared unit core: the indexes its models read
//! (`CommandOwner`: the chain model's leaders, the range model's activators) and where a
//! turn stands (`CommandTurn`: the common part and each command model's own part, which
//! only that model reads or writes; the rules are in the model's module). Each part hashes
//! itself.

use crate::bitboard::Bitboard;
use crate::outcome::{Unit, NO_UNIT};
use crate::position_error::UnitProblem;
use crate::unit_board::{common_turn_key, Owner, Turn, UnitBoard};
use crate::variant::{CommandModel, PieceKind, Variant, MAX_ACTIVATORS, MAX_GROUPS};
use crate::zobrist::ZOBRIST;

/// A position of the command family.
pub(crate) type CommandBoard = UnitBoard<CommandOwner>;

/// Which command model runs a position, copied from the variant into the position so that
/// the hot paths dispatch on one byte.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    Single,
    Chain,
    Range,
    Lead,
}

impl Model {
    pub(crate) fn of(variant: &Variant) -> Model {
        match variant.command {
            CommandModel::Single => Model::Single,
            CommandModel::Chain { .. } => Model::Chain,
            CommandModel::Range { .. } => Model::Range,
            CommandModel::Lead { .. } => Model::Lead,
        }
    }
}

/// The command family's own indexes on the unit core.
#[derive(Clone)]
pub(crate) struct CommandOwner {
    /// The variant's command model (a copy of what the variant says, for dispatch).
    pub(crate) model: Model,
    /// Index for the chain model: the living leader of each group, or NO_UNIT once captured.
    pub(crate) leaders: [[u8; MAX_GROUPS]; 2],
    /// Index for the range model: the side's leader units, in id order, once per activation;
    /// bit i of a subset is entry i.
    pub(crate) activators: [[u8; MAX_ACTIVATORS]; 2],
    pub(crate) activator_count: [u8; 2],
}

impl Owner for CommandOwner {
    type Turn = CommandTurn;

    fn new(variant: &Variant) -> CommandOwner {
        CommandOwner {
            model: Model::of(variant),
            leaders: [[NO_UNIT; MAX_GROUPS]; 2],
            activators: [[NO_UNIT; MAX_ACTIVATORS]; 2],
            activator_count: [0; 2],
        }
    }

    /// A leader enters the chain model's index (one per group) or the range model's (once
    /// per activation).
    fn added(
        &mut self,
        v: &Variant,
        kind: &PieceKind,
        id: u8,
        unit: &Unit,
    ) -> Result<(), UnitProblem> {
        if !kind.leader {
            return Ok(());
        }
        let (s, g) = (unit.side.index(), unit.group as usize);
        match v.command {
            CommandModel::Chain { .. } => {
                if self.leaders[s][g] != NO_UNIT {
                    return Err(UnitProblem::TwoLeaders {
                        side: unit.side,
                        group: unit.group,
                        square: unit.square,
                    });
                }
                self.leaders[s][g] = id;
            }
            CommandModel::Range { activations, .. } => {
                // A leader with k activations a turn stands for k leaders in the matching.
                for _ in 0..activations {
                    let n = self.activator_count[s] as usize;
                    if n >= MAX_ACTIVATORS {
                        return Err(UnitProblem::TooManyActivations {
                            side: unit.side,
                            most: MAX_ACTIVATORS,
                        });
                    }
                    self.activators[s][n] = id;
                    self.activator_count[s] += 1;
                }
            }
            CommandModel::Single | CommandModel::Lead { .. } => {}
        }
        Ok(())
    }

    /// A captured leader leaves its group leaderless (chain model).
    #[inline(always)]
    fn removed(&mut self, kind: &PieceKind, id: u8, unit: &Unit) {
        let g = unit.group as usize;
        if kind.leader && self.leaders[unit.side.index()][g] == id {
            self.leaders[unit.side.index()][g] = NO_UNIT;
        }
    }

    /// The capture of a chain model's leader taken back: it leads its group again.
    fn restored(&mut self, kind: &PieceKind, id: u8, unit: &Unit) {
        let (s, g) = (unit.side.index(), unit.group as usize);
        if kind.leader && self.model == Model::Chain && self.leaders[s][g] == NO_UNIT {
            self.leaders[s][g] = id;
        }
    }
}

/// Where the current turn of the command family stands. A fresh turn is
/// `CommandTurn::default()`.
///
/// The common part counts the unit moves and marks where the moved units stand; each
/// command model keeps its own part in a type of its own (only the variant's model reads
/// or writes its part). Aligned to 32 bytes (64 in all) so that saving and restoring it
/// are two whole, aligned vector moves, and `moved` comes first so that it lies within one of
/// them: a board straddling the two stores of a restore cannot be forwarded from them, and
/// reading it right after `unmake` stalled every `make` (a quarter of its time).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C, align(32))]
pub struct CommandTurn {
    /// Squares of the units that moved this turn (where they stand now).
    pub moved: Bitboard,
    /// Unit moves made so far this turn.
    pub moves: u8,
    pub chain: ChainTurn,
    pub range: RangeTurn,
    pub lead: LeadTurn,
}

impl Turn for CommandTurn {
    /// The hash of a turn state: the common part and each model's part.
    #[inline(always)]
    fn key(&self) -> u64 {
        common_turn_key(self.moves, self.moved)
            ^ self.chain.key()
            ^ self.range.key()
            ^ self.lead.key()
    }
    #[inline(always)]
    fn moved(&self) -> Bitboard {
        self.moved
    }
}

/// The chain model's part of the turn: the chesimal this turn moves, fixed by its first step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ChainTurn {
    pub group: Option<u8>,
}

impl ChainTurn {
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        self.group.map_or(0, |g| ZOBRIST.chosen[g as usize])
    }
}

/// The range model's part of the turn: bit `s` is set when the moves so far can be matched
/// to distinct leaders making up the subset `s` (bit i of s = the side's i-th activation
/// slot). A fresh turn has only the empty subset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RangeTurn {
    pub feasible: u64,
}

impl Default for RangeTurn {
    fn default() -> Self {
        RangeTurn { feasible: 1 }
    }
}

impl RangeTurn {
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        ZOBRIST.feasible_key(self.feasible)
    }
}

/// The lead model's part of the turn: the unit id of the leader leading it (NO_UNIT before
/// `lead`) and the index of its mode in `Variant::lead_modes`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeadTurn {
    pub leader: u8,
    pub mode: u8,
}

impl Default for LeadTurn {
    fn default() -> Self {
        LeadTurn {
            leader: NO_UNIT,
            mode: 0,
        }
    }
}

impl LeadTurn {
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        if self.leader == NO_UNIT {
            0
        } else {
            ZOBRIST.lead[self.leader as usize] ^ ZOBRIST.lead_mode[self.mode as usize & 63]
        }
    }
}
