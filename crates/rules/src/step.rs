//! Steps (one unit move, or `end`) and fixed-capacity step lists.

use std::fmt;
use std::mem::MaybeUninit;

use crate::bitboard::{Bitboard, Square};

/// One step of a turn: a unit moving `from` -> `to`, or `end`, which closes the turn.
/// Four bytes; identified by its squares (NOTATION.md: one step per from/to pair).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Step {
    pub from: Square,
    pub to: Square,
    pub kind: StepKind,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum StepKind {
    Move,
    End,
    /// Lifeform: a Hand arrives on an enemy piece and pins it instead of capturing (`c4~c6`).
    Pin,
    /// Chess: a pawn move that promotes to this kind (index into the variant's pieces).
    Promote(u8),
    /// Lead model: the leader on `from` (= `to`) leads this turn in this mode (index into
    /// `Variant::lead_modes`): `lead:f2`, `lead:b2:ortho`.
    Lead(u8),
    /// Placement: a unit of this kind (index into the variant's pieces) enters on `to`
    /// (`K@e1`); `from` equals `to`.
    Drop(u8),
    /// Chessma 84: a Pusher's push along the named sheet (`f3-e4/A`), where the push would
    /// end differently on the other sheet.
    Push(u8),
    /// The side to move passes its turn (`pass`): a family whose side without a move passes
    /// (Ataxx). `from` and `to` are square 0.
    Pass,
}

impl Step {
    pub const END: Step = Step {
        from: Square::from_index(0),
        to: Square::from_index(0),
        kind: StepKind::End,
    };

    pub const PASS: Step = Step {
        from: Square::from_index(0),
        to: Square::from_index(0),
        kind: StepKind::Pass,
    };

    #[inline(always)]
    pub fn new(from: Square, to: Square) -> Step {
        Step {
            from,
            to,
            kind: StepKind::Move,
        }
    }
    pub fn drop(kind: u8, to: Square) -> Step {
        Step {
            from: to,
            to,
            kind: StepKind::Drop(kind),
        }
    }
    pub fn is_end(self) -> bool {
        self.kind == StepKind::End
    }
}

/// Largest number of legal steps in any position of the built-in variants, with room to
/// spare (a full Chieftain army in the open has a few hundred).
pub const MAX_STEPS: usize = 2048;

/// A step list on the stack: generation never allocates, and a new list costs nothing
/// (the storage is left uninitialised; `len` says how much of it is written).
pub struct StepList {
    len: usize,
    steps: [MaybeUninit<Step>; MAX_STEPS],
}

impl Default for StepList {
    #[inline(always)]
    fn default() -> Self {
        StepList {
            len: 0,
            steps: [const { MaybeUninit::uninit() }; MAX_STEPS],
        }
    }
}

impl StepList {
    #[inline(always)]
    pub fn new() -> Self {
        Self::default()
    }
    #[inline(always)]
    pub fn push(&mut self, step: Step) {
        // A variant able to exceed MAX_STEPS would be a design error; the index check fails
        // loudly rather than writing past the end.
        self.steps[self.len] = MaybeUninit::new(step);
        self.len += 1;
    }
    /// Push a move from `from` to each square of `dests`, in ascending order, with the
    /// length kept in a register (`push` reloads and stores it on every step).
    #[inline(always)]
    pub fn push_moves(&mut self, from: Square, dests: Bitboard) {
        let mut n = self.len;
        dests.iter().for_each(|to| {
            self.steps[n] = MaybeUninit::new(Step::new(from, to));
            n += 1;
        });
        self.len = n;
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[Step] {
        // SAFETY: the first `len` entries were written by `push`; Step is Copy (no drop).
        unsafe { std::slice::from_raw_parts(self.steps.as_ptr() as *const Step, self.len) }
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Step> {
        self.as_slice().iter()
    }
    pub fn contains(&self, step: Step) -> bool {
        self.as_slice().contains(&step)
    }
}

impl<'a> IntoIterator for &'a StepList {
    type Item = &'a Step;
    type IntoIter = std::slice::Iter<'a, Step>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for StepList {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
