//! Cohort's rules core: geometry, piece movement, positions, turn state, command models,
//! variants and notation for chess variants whose turns are made of many unit moves.
//! No I/O, no search: the engine, server and command line build on this.

pub mod bitboard;
pub mod body;
mod chess;
mod chessma;
pub mod command;
mod common;
pub mod describe;
pub mod diagram;
pub mod effects;
pub mod error;
pub mod family;
pub mod game;
pub mod geometry;
pub mod interface;
mod journal;
mod load;
pub mod movement;
mod notation;
pub mod outcome;
mod outside;
pub mod perft;
pub mod position_error;
pub mod profile;
pub mod registry;
pub mod rules_text;
mod sheets;
pub mod step;
mod step_io;
pub mod unit_board;
pub mod variant;
pub mod view;
mod words;
mod zobrist;

pub use bitboard::{Bitboard, Square};
pub use body::{BodyPhase, BodyTurn};
pub use command::{ChainTurn, CommandTurn, LeadTurn, RangeTurn};
pub use common::{all_units, apply_turn, pocket};
pub use effects::{Effect, Effects};
pub use error::{Illegal, PlayError, StepError, TurnError, Unfinished};
pub use family::{
    AnyUndo, BodyGame, ChessmaGame, CommandGame, FideGame, OutsideGame, OutsideUndo, Position,
    Visit,
};
pub use game::{EndReason, Game};
pub use interface::{Explain, Family, Rules, SearchHooks};
pub use load::{builtin_variants, parse_variants, register, variant_warnings};
pub use outcome::{Outcome, Side, Unit};
pub use profile::SearchProfile;
pub use registry::FamilyEntry;
pub use step::{Step, StepKind, StepList};
pub use unit_board::{PositionError, Undo};
pub use variant::{BodyRole, CommandModel, LeadMode, Variant, VariantError};
pub use view::{
    CheckHow, Checker, CommandPresentation, CommandView, LeaderCommand, LeaderView, LeadingView,
    RulesText,
};

use std::sync::Arc;

/// Look up a built-in variant by id.
pub fn builtin(id: &str) -> Option<Arc<Variant>> {
    builtin_variants().into_iter().find(|v| v.id == id)
}
