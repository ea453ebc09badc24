//! Families written outside this crate, behind one boxed object (`OutsideGame`): the
//! `Position` enum holds one in its `Outside` arm, so that everything written on `Position`
//! (games, records, matches, the server, the web) plays it as it plays a built-in family.
//! Each call goes through a virtual call; docs/benchmarks.md gives the search speed this
//! costs against the same family searched directly.
//!
//! The traits are not object safe (an associated undo type, generic callbacks), so a
//! family is wrapped in `Holder`, which keeps the family's undo records on a stack of its
//! own and hands out its depth as the undo: steps are always taken back last first.

use std::sync::Arc;

use crate::bitboard::{Bitboard, Square};
use crate::effects::Effects;
use crate::error::{Illegal, StepError};
use crate::interface::{Explain, Family, Rules, SearchHooks};
use crate::outcome::{EndReason, Outcome, Side, Unit};
use crate::profile::SearchProfile;
use crate::step::{Step, StepList};
use crate::variant::Variant;
use crate::view::{Checker, CommandView, RulesText};

/// A position of a family from outside this crate.
pub struct OutsideGame(Box<dyn Erased>);

/// What `OutsideGame::unmake` needs: the depth of the family's own undo stack before the
/// step (the record itself stays with the family).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutsideUndo(u32);

impl OutsideGame {
    /// Wrap a position of any family.
    pub fn new<R: Family>(game: R) -> OutsideGame {
        OutsideGame(Box::new(Holder {
            game,
            undos: Vec::new(),
        }))
    }
}

impl Clone for OutsideGame {
    fn clone(&self) -> Self {
        OutsideGame(self.0.clone_box())
    }
}

/// A family's position and the undo records of the steps made on it and not yet taken back.
#[derive(Clone)]
struct Holder<R: Family> {
    game: R,
    undos: Vec<R::Undo>,
}

impl<R: Family> Holder<R> {
    #[inline]
    fn push(&mut self, undo: R::Undo) -> OutsideUndo {
        self.undos.push(undo);
        OutsideUndo(self.undos.len() as u32 - 1)
    }
}

/// `Erased` (the three traits in one object-safe form), `Holder`'s implementation of it for
/// every family, and `OutsideGame`'s `Rules`, `SearchHooks` and `Explain` through it: the methods that only pass their
/// arguments on are listed once, here; those that handle undo records or callbacks are
/// written out below the list.
macro_rules! forwarding {
    (
        core { $(fn $c:ident(&self $(, $ca:ident: $ct:ty)*) -> $cr:ty;)* }
        hooks { $(fn $h:ident(&self $(, $ha:ident: $ht:ty)*) -> $hr:ty;)* }
        explain { $(fn $e:ident(&self $(, $ea:ident: $et:ty)*) -> $er:ty;)* }
    ) => {
        trait Erased: Send + Sync {
            fn clone_box(&self) -> Box<dyn Erased>;
            fn make_if_legal(&mut self, step: Step) -> Option<OutsideUndo>;
            fn make(&mut self, step: Step) -> OutsideUndo;
            fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> OutsideUndo;
            fn unmake(&mut self, step: Step, undo: OutsideUndo);
            fn for_each_unit(&self, f: &mut dyn FnMut(Unit));
            $(fn $c(&self $(, $ca: $ct)*) -> $cr;)*
            $(fn $h(&self $(, $ha: $ht)*) -> $hr;)*
            $(fn $e(&self $(, $ea: $et)*) -> $er;)*
        }

        impl<R: Family> Erased for Holder<R> {
            fn clone_box(&self) -> Box<dyn Erased> {
                Box::new(self.clone())
            }
            fn make_if_legal(&mut self, step: Step) -> Option<OutsideUndo> {
                let undo = self.game.make_if_legal(step)?;
                Some(self.push(undo))
            }
            fn make(&mut self, step: Step) -> OutsideUndo {
                let undo = self.game.make(step);
                self.push(undo)
            }
            fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> OutsideUndo {
                let undo = self.game.make_reporting(step, fx);
                self.push(undo)
            }
            fn unmake(&mut self, step: Step, undo: OutsideUndo) {
                assert_eq!(
                    undo.0 as usize + 1,
                    self.undos.len(),
                    "steps are taken back last first"
                );
                let record = self.undos.pop().expect("an undo record");
                self.game.unmake(step, record)
            }
            fn for_each_unit(&self, f: &mut dyn FnMut(Unit)) {
                self.game.for_each_unit(f)
            }
            $(fn $c(&self $(, $ca: $ct)*) -> $cr {
                self.game.$c($($ca),*)
            })*
            $(fn $h(&self $(, $ha: $ht)*) -> $hr {
                self.game.$h($($ha),*)
            })*
            $(fn $e(&self $(, $ea: $et)*) -> $er {
                self.game.$e($($ea),*)
            })*
        }

        /// The wrapped family, through the object.
        impl Rules for OutsideGame {
            type Undo = OutsideUndo;
            fn make(&mut self, step: Step) -> OutsideUndo {
                self.0.make(step)
            }
            fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> OutsideUndo {
                self.0.make_reporting(step, fx)
            }
            fn unmake(&mut self, step: Step, undo: OutsideUndo) {
                self.0.unmake(step, undo)
            }
            fn for_each_unit(&self, mut f: impl FnMut(Unit)) {
                self.0.for_each_unit(&mut f)
            }
            $(fn $c(&self $(, $ca: $ct)*) -> $cr {
                self.0.$c($($ca),*)
            })*
        }

        impl SearchHooks for OutsideGame {
            /// The wrapped family may list pseudo-legal candidates.
            const CANDIDATES_ARE_LEGAL: bool = false;
            fn make_if_legal(&mut self, step: Step) -> Option<OutsideUndo> {
                self.0.make_if_legal(step)
            }
            $(fn $h(&self $(, $ha: $ht)*) -> $hr {
                self.0.$h($($ha),*)
            })*
        }

        impl Explain for OutsideGame {
            $(fn $e(&self $(, $ea: $et)*) -> $er {
                self.0.$e($($ea),*)
            })*
        }
    };
}

forwarding! {
    core {
        fn variant(&self) -> &Arc<Variant>;
        fn side_to_move(&self) -> Side;
        fn outcome(&self) -> Option<Outcome>;
        fn end_reason(&self) -> EndReason;
        fn at_turn_start(&self) -> bool;
        fn hash(&self) -> u64;
        fn compute_hash(&self) -> u64;
        fn legal_steps(&self, list: &mut StepList) -> ();
        fn count_steps(&self) -> u64;
        fn is_legal(&self, step: Step) -> bool;
        fn without_steps(&self) -> (Outcome, EndReason);
        fn unit_at(&self, sq: Square) -> Option<Unit>;
        fn in_hand(&self, side: Side, kind: u8) -> u8;
        fn automatic_draw(&self) -> Option<EndReason>;
        fn to_text(&self) -> String;
        fn step_text(&self, step: Step) -> String;
        fn parse_step(&self, text: &str) -> Result<Step, StepError>;
    }
    hooks {
        fn candidate_steps(&self, list: &mut StepList) -> ();
        fn has_legal_step(&self) -> bool;
        fn own_perft(&self, depth: u32, made: bool) -> Option<u64>;
        fn search_profile(&self) -> SearchProfile;
        fn commanded(&self, side: Side) -> Bitboard;
        fn may_capture_elsewhere(&self, step: Step) -> bool;
        fn destinations(&self, from: Square) -> Bitboard;
        fn occupied(&self, side: Side) -> Bitboard;
        fn units_of(&self, side: Side, kind: u8) -> Bitboard;
        fn royals(&self, side: Side) -> Bitboard;
        fn frozen(&self, side: Side) -> Bitboard;
        fn in_check(&self) -> bool;
        fn moved_this_turn(&self) -> Bitboard;
    }
    explain {
        fn pinned_at(&self, sq: Square) -> Option<Unit>;
        fn movable_units(&self) -> Bitboard;
        fn step_origins(&self, step: Step) -> Bitboard;
        fn why_not(&self, from: Square) -> Illegal;
        fn refusal(&self, step: Step) -> StepError;
        fn rules_text(&self) -> RulesText;
        fn piece_targets(&self, kind: usize, side: Side, from: Square, on_board: bool)
            -> Option<(Bitboard, Bitboard)>;
        fn command_view(&self) -> CommandView;
        fn capture_squares_of(&self, steps: &[Step]) -> Vec<Vec<Square>>;
        fn checkers(&self) -> Vec<Checker>;
    }
}
