//! Variants as data: an INI-like file a player can read and edit (in the spirit of
//! Fairy-Stockfish's variants.ini), validated with errors that name the file, line and field.
//!
//! ```text
//! [chesimals-2]                 # a section per variant, named by its id
//! base = chesimals-1            # start from another variant (earlier in the file or built in)
//! name = Chesimals II
//! board = 16x12
//! piece G = Guard, K2           # letter = name, moves (see movement.rs), flags: leader royal
//! group 1 = dia, yellow, green  # chesimal name, White's colour, Black's colour
//! command = chain               # chain | range | single
//! setup = <position string>
//! ```
//! The full list of fields is in docs/variants.md.
//!
//! This module holds what a variant is; file.rs reads the file format (sections, `base`,
//! the field list, warnings, the built-in files), build.rs turns one section's fields into a
//! checked `Variant`, board.rs its board (a rectangle or sheets).

mod board;
mod build;
mod file;
mod lead;

pub use file::BUILTIN_FILES;
pub(crate) use file::{builtin_unchecked, parse_variants_with, warnings_with, SetupFacts};

use std::fmt;
use std::sync::Arc;

use crate::bitboard::Bitboard;
use crate::geometry::Geometry;
use crate::movement::MoveSet;

pub const MAX_KINDS: usize = 16;
pub const MAX_GROUPS: usize = 8;
/// Most leaders a side may have under the range model (subsets of them fit a u64).
pub const MAX_ACTIVATORS: usize = 6;

/// One kind of unit.
pub struct PieceKind {
    /// Upper-case letter; White writes it upper case, Black lower case.
    pub letter: char,
    pub name: String,
    pub moves: String,
    /// Capturing all of a side's royal units wins (victory = royals).
    pub royal: bool,
    /// Leads a chesimal (chain model) or activates units (range model).
    pub leader: bool,
    /// Body model: the part of the body this piece is.
    pub role: Option<BodyRole>,
    /// The engine's worth of one unit (`value=N`, centipawns); None: from its mobility.
    pub value: Option<i32>,
    pub(crate) movesets: [MoveSet; 2],
    /// The most destinations one unit of this kind can have on any square, for each side
    /// (an empty board for moves, a full enemy one for captures): bounds the step list.
    pub(crate) max_steps: [u16; 2],
}

/// The most steps a unit with these tables can have on any square of `geo`.
pub(crate) fn max_steps(sets: &[&MoveSet], geo: &Geometry) -> u16 {
    let mut most = 0;
    for sq in geo.squares.iter() {
        let others = geo.squares & !Bitboard::from_square(sq);
        let n: u32 = sets
            .iter()
            .map(|m| {
                m.destinations(geo, sq, others, Bitboard::EMPTY).count()
                    + m.destinations(geo, sq, Bitboard::EMPTY, others).count()
            })
            .max()
            .unwrap_or(0);
        most = most.max(n);
    }
    most as u16
}

/// Lifeform Chess body parts (RULES.md section 6), named in a piece's flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BodyRole {
    Head,
    Torso,
    Hand,
    Foot,
    Hair,
    Limb,
}

impl BodyRole {
    fn from_flag(flag: &str) -> Option<BodyRole> {
        Some(match flag {
            "head" => BodyRole::Head,
            "torso" => BodyRole::Torso,
            "hand" => BodyRole::Hand,
            "foot" => BodyRole::Foot,
            "hair" => BodyRole::Hair,
            "limb" => BodyRole::Limb,
            _ => return None,
        })
    }
}

/// Which units may move in a turn: the named rule models of the command family. (Lifeform's
/// body is a family of its own, `family = body`, whose rules are no command model; its
/// variants keep `Single` here.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandModel {
    /// One unit moves and the turn closes with it (FIDE chess).
    Single,
    /// Chesimals: the turn picks one group; a unit may start a move while it is linked to the
    /// group's living leader by a chain of adjacent units.
    Chain {
        /// [ruling] links run through the same group only (`group`), or any friendly unit.
        links_any_friendly: bool,
        /// Most unit moves in a turn (0: no cap beyond once per unit).
        cap: u8,
        /// A unit may move again while still linked (Chesimals 0.75 "hyper").
        reactivate: bool,
    },
    /// Chieftain: each leader activates one unit per turn within `range` (king distance),
    /// measured when that unit's move starts.
    Range { range: u8, activations: u8 },
    /// Chesimal Fusion: the turn starts by declaring a leader (and its mode), the step `lead`;
    /// that leader then spends its own activations (`Variant::lead_modes`) on units of the kinds
    /// its mode allows, each linked to it by a chain of adjacent units when its move starts.
    Lead {
        /// Links run through any friendly unit (`links = friendly`, Fusion) or the leader's group.
        links_any_friendly: bool,
    },
}

/// What a leader kind does when it leads a turn under the lead model, in one of its modes
/// (`lead C ortho = budget 9, activates KCWP, P moves W`).
pub struct LeadMode {
    /// The leader's piece kind.
    pub leader: u8,
    /// The mode's name (`ortho`), empty for a leader kind with one way of leading.
    pub name: String,
    /// Unit moves (activations) in the turn, the leader's own move included.
    pub budget: u8,
    /// Of those, the most that go to units other than the leader itself.
    pub others: u8,
    /// Kinds it may activate besides itself (bit k = piece kind k).
    pub activates: u16,
    /// Kinds that move differently when this leader activates them: (kind, moves, tables).
    pub remap: Vec<(u8, String, Box<[MoveSet; 2]>)>,
}

impl LeadMode {
    /// The tables a unit of `kind` moves by when this mode activates it.
    #[inline(always)]
    pub(crate) fn moveset<'a>(
        &'a self,
        kind: u8,
        side: usize,
        own: &'a [MoveSet; 2],
    ) -> &'a MoveSet {
        for (k, _, sets) in &self.remap {
            if *k == kind {
                return &sets[side];
            }
        }
        &own[side]
    }
}

impl CommandModel {
    /// The model's name as a variant file writes it (`command = ...`).
    pub fn name(&self) -> &'static str {
        match self {
            CommandModel::Single => "single",
            CommandModel::Chain { .. } => "chain",
            CommandModel::Range { .. } => "range",
            CommandModel::Lead { .. } => "lead",
        }
    }

    /// A turn is one step (FIDE chess, Chessma 84): the turn ends with its first move.
    pub fn one_step_turns(&self) -> bool {
        matches!(self, CommandModel::Single)
    }

    /// Range model: how far (king distance) a leader commands.
    pub fn range(&self) -> Option<u8> {
        match *self {
            CommandModel::Range { range, .. } => Some(range),
            _ => None,
        }
    }

    /// A turn moves the units of one group, each linked to the group's leader (chain model).
    pub fn one_group_a_turn(&self) -> bool {
        matches!(self, CommandModel::Chain { .. })
    }

    /// A turn begins by declaring the leader that leads it (lead model).
    pub fn declared_leader(&self) -> bool {
        matches!(self, CommandModel::Lead { .. })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Victory {
    /// Capture every enemy royal unit; the game ends the moment the last one falls.
    CaptureRoyals,
    /// FIDE chess: checkmate wins; stalemate, the fifty-move rule, repetition and
    /// insufficient material draw.
    Checkmate,
    /// Lifeform: judged at the end of each turn, after the regulations' removals: a side whose
    /// Head or Torso is gone, or whose Head and Torso lost their Neck, loses (both: a draw).
    Body,
}

/// What a side with no legal turn at the start of its turn gets. [ruling] loss by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoLegalTurn {
    Loss,
    Draw,
}

/// A placement phase: what each side places, and on how many of its first ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub counts: [u8; MAX_KINDS],
    pub ranks: u8,
    /// [ruling] a finished placement must also give Head and Torso a Neck (`placement-neck`).
    pub neck: bool,
}

pub struct Group {
    pub name: String,
    /// Display colours for White's and Black's group of this number.
    pub colours: [String; 2],
}

pub struct Variant {
    pub id: String,
    /// The family that plays it (`family`): `command`, `body`, `fide`, `chessma`, or the
    /// name of a family registered from outside the rules crate (registry.rs).
    pub family: String,
    pub name: String,
    pub summary: String,
    /// What is reconstructed rather than sourced (empty if nothing).
    pub reconstructed: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceKind>,
    pub groups: Vec<Group>,
    pub command: CommandModel,
    pub victory: Victory,
    pub no_legal_turn: NoLegalTurn,
    /// Repetitions of a turn-start position that draw (0: rule off).
    pub repetition: u8,
    /// Consecutive turns without a capture that draw (0: rule off).
    pub quiet_turns: u16,
    /// Kinds (bit k = kind k) whose moves restart the quiet count as a capture does
    /// (`quiet-resets = P`: Chessma 84's fifty-move rule counts pawn moves, as FIDE's does).
    pub quiet_resets: u64,
    pub setup: String,
    /// Free set-up: each side first places these units on its first ranks (`K@e1` steps).
    pub placement: Option<Placement>,
    /// `rules = fide`: FIDE chess on its dedicated 8x8 core (positions are FEN).
    pub fide: bool,
    /// `rules = chessma`: Chessma 84 on its dedicated core over the board's sheets.
    pub(crate) chessma: Option<Arc<crate::sheets::Tables>>,
    /// For each leader kind, the kinds it may activate (bit k = piece kind k). All by default.
    pub activates: [u16; MAX_KINDS],
    /// Some leader may not activate every kind (`activates X = ...` lines).
    pub restricted_activation: bool,
    /// Lead model: every way a leader kind may lead a turn (`lead X [mode] = ...` lines).
    pub lead_modes: Vec<LeadMode>,
    pub(crate) range_box: Box<[Bitboard; 256]>,
}

/// The families of the rules crate itself; any other `family` is registered from outside.
pub const BUILT_IN_FAMILIES: [&str; 4] = ["command", "body", "fide", "chessma"];

impl PieceKind {
    /// The most destinations a unit of this kind can have on any square of the board, moves
    /// and captures counted apart, by its own moves or as any lead mode moves it.
    pub fn most_destinations(&self) -> u16 {
        self.max_steps[0].max(self.max_steps[1])
    }
}

/// The family of Lifeform Chess (`family = body`, or `command = body` in a variant file).
pub const BODY_FAMILY: &str = "body";

impl Variant {
    /// Whether Lifeform's body family plays the variant (`family = body`).
    pub fn is_body(&self) -> bool {
        self.family == BODY_FAMILY
    }
    /// The name of the rules that say which units move in a turn, as a variant file writes
    /// `command = ...`: the command model's, or `body` for the body family.
    pub fn command_name(&self) -> &str {
        if self.is_body() {
            BODY_FAMILY
        } else {
            self.command.name()
        }
    }
    /// A turn is one step (FIDE chess, Chessma 84, `command = single`): never in the body
    /// family, whose turns are a main move, follower steps and `end`.
    pub fn one_step_turns(&self) -> bool {
        !self.is_body() && self.command.one_step_turns()
    }
    /// Units may share a square, one pinning another (Lifeform's body).
    pub fn stacked_units(&self) -> bool {
        self.is_body()
    }
    /// Whether the variant runs on the Chessma 84 rules (`rules = chessma`).
    pub fn is_chessma(&self) -> bool {
        self.chessma.is_some()
    }
    /// Whether pieces capture in Ultima's ways too (withdrawal, long leap, coordination,
    /// enclosure, a Chameleon's imitation), not only by moving onto the enemy (Chessma 84).
    pub fn ultima_captures(&self) -> bool {
        self.chessma.is_some()
    }
    pub fn kind_of_letter(&self, letter: char) -> Option<usize> {
        self.pieces
            .iter()
            .position(|p| p.letter == letter.to_ascii_uppercase())
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Variant({})", self.id)
    }
}

/// A malformed variant file: where, which field, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantError {
    pub file: String,
    pub line: usize,
    pub field: String,
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        } else {
            write!(
                f,
                "{}:{}: field '{}': {}",
                self.file, self.line, self.field, self.message
            )
        }
    }
}

impl std::error::Error for VariantError {}
