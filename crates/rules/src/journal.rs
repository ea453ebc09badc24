//! The journal of the shared unit core: every change a step makes to a `UnitBoard` goes
//! through the primitives here, which keep the core's indexes and the hash, call the
//! owner's hooks for its own indexes (`Owner`), and write a `Change` to the position's
//! journal. `unmake` reverts the journal down to the mark its `Undo` holds,
//! then restores the turn state, hash, outcome and side saved whole. This is the undo of the
//! board families (`CommandGame`, `BodyGame`): a unit's move, any number of removals,
//! stacking (Lifeform's pins), drops from a pocket. `FideGame` and `ChessmaGame` undo on
//! their own cores. The journal keeps its capacity, so steps do not allocate.

use crate::bitboard::{Bitboard, Square};
use crate::effects::{Effect, Effects};
use crate::outcome::{Outcome, Unit, NO_UNIT};
use crate::step::{Step, StepKind};
use crate::unit_board::{Change, Owner, Undo, UnitBoard};
use crate::variant::Victory;
use crate::zobrist::ZOBRIST;

impl<O: Owner> UnitBoard<O> {
    /// What `unmake` will need, taken before a step changes anything.
    #[inline(always)]
    pub(crate) fn undo_record(&self) -> Undo<O::Turn> {
        Undo {
            mark: self.journal.len() as u32,
            turn: self.turn,
            hash: self.hash,
            outcome: self.outcome,
            side: self.side,
        }
    }

    /// Take a step back: revert the journal to the mark, restore what `Undo` saved.
    #[inline(always)]
    pub fn unmake(&mut self, _step: Step, undo: Undo<O::Turn>) {
        while self.journal.len() > undo.mark as usize {
            let change = self.journal.pop().expect("above the mark");
            // The common change first, as a predictable branch rather than a jump table.
            if let Change::Moved { id, from } = change {
                self.unmove(id, from);
            } else {
                self.revert(change);
            }
        }
        self.turn = undo.turn;
        self.hash = undo.hash;
        self.outcome = undo.outcome;
        self.side = undo.side;
    }

    // ---- plain squares (every model but Lifeform's stacks)

    /// Move unit `id` to the empty square `to`.
    #[inline(always)]
    pub(crate) fn relocate(&mut self, id: u8, to: Square) {
        let u = self.units[id as usize];
        self.shift(id, to);
        self.hash ^= ZOBRIST.unit_moved(u.side, u.kind, u.group, u.square, to);
    }

    /// `relocate` without the hash.
    #[inline(always)]
    fn shift(&mut self, id: u8, to: Square) {
        let u = self.units[id as usize];
        let (s, from) = (u.side.index(), u.square);
        self.journal.push(Change::Moved { id, from });
        self.board[from.index()] = NO_UNIT;
        self.board[to.index()] = id;
        self.units[id as usize].square = to;
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.occupied[s] ^= both;
        self.groups[s][u.group as usize] ^= both;
    }

    /// Take unit `id` off the board (a capture). Capturing a side's last royal unit wins the
    /// game for the other side when the variant's victory is capturing royals.
    pub(crate) fn remove(&mut self, id: u8) {
        let u = self.units[id as usize];
        let s = u.side.index();
        self.journal.push(Change::Removed { id });
        self.units[id as usize].alive = false;
        self.board[u.square.index()] = NO_UNIT;
        self.occupied[s].clear(u.square);
        self.groups[s][u.group as usize].clear(u.square);
        self.hash ^= Self::unit_key(&u);
        let kind = &self.variant.pieces[u.kind as usize];
        if kind.royal {
            self.royals[s] -= 1;
            if self.royals[s] == 0 && self.variant.victory == Victory::CaptureRoyals {
                self.outcome = Some(Outcome::Win(u.side.other()));
            }
        }
        self.own.removed(kind, id, &u);
    }

    // ---- stacked squares (Lifeform: a Hand and the piece it pins share a square)

    /// Record a square's stack before changing it.
    fn save_stack(&mut self, sq: Square) {
        let i = sq.index();
        self.journal.push(Change::Stack {
            sq,
            top: self.board[i],
            under: self.under[i],
        });
    }

    fn save_unit(&mut self, id: u8) {
        let u = self.units[id as usize];
        self.journal.push(Change::Unit {
            id,
            square: u.square,
            alive: u.alive,
        });
    }

    /// Move the top unit of `from` to `to`. The piece it pinned on `from`, if any, stays
    /// there, free. With `pin`, the unit on `to` is pinned under the mover; otherwise it is
    /// captured (or `to` is empty).
    pub(crate) fn relocate_stacked(&mut self, from: Square, to: Square, pin: bool) {
        let id = self.board[from.index()];
        let u = self.units[id as usize];
        let s = u.side;
        self.save_stack(from);
        self.save_stack(to);
        self.save_unit(id);
        self.board[from.index()] = self.under[from.index()];
        self.under[from.index()] = NO_UNIT;
        self.shared.clear(from);
        self.occupied[s.index()].clear(from);
        let target = self.board[to.index()];
        if pin {
            self.under[to.index()] = target;
            self.shared.set(to);
        } else if target != NO_UNIT {
            self.lift(target);
        }
        self.board[to.index()] = id;
        self.occupied[s.index()].set(to);
        self.units[id as usize].square = to;
        self.toggle_part(&u, from);
        self.toggle_part(&u, to);
        self.hash ^= ZOBRIST.unit_moved(u.side, u.kind, u.group, from, to);
    }

    /// Take unit `id` off a possibly shared square (a capture; see `lift_uncaptured`),
    /// freeing whatever it shared the square with.
    pub(crate) fn lift(&mut self, id: u8) {
        let u = self.units[id as usize];
        self.save_stack(u.square);
        self.save_unit(id);
        let i = u.square.index();
        if self.board[i] == id {
            self.board[i] = self.under[i];
        }
        self.under[i] = NO_UNIT;
        self.shared.clear(u.square);
        self.occupied[u.side.index()].clear(u.square);
        self.units[id as usize].alive = false;
        self.toggle_part(&u, u.square);
        self.hash ^= Self::unit_key(&u);
    }

    /// Take unit `id` off the board by a rule of the game rather than a capture (Lifeform's
    /// regulations): `lift`, journalled so that its report says it was not captured.
    pub(crate) fn lift_uncaptured(&mut self, id: u8) {
        self.journal.push(Change::Uncaptured { id });
        self.lift(id);
    }

    /// Tell the owner that `u` came onto `sq` or left it (`Owner::toggled`).
    #[inline(always)]
    fn toggle_part(&mut self, u: &Unit, sq: Square) {
        self.own
            .toggled(&self.variant.pieces[u.kind as usize], u, sq);
    }

    /// A unit of `kind` enters from the side to move's pocket onto the empty square `to`.
    pub(crate) fn drop_unit(&mut self, kind: u8, to: Square) {
        let side = self.side;
        let s = side.index();
        self.save_stack(to);
        self.journal.push(Change::Dropped { side, kind, to });
        let id = self.units.len() as u8;
        let unit = Unit {
            square: to,
            kind,
            side,
            group: 0,
            alive: true,
        };
        self.units.push(unit);
        self.toggle_part(&unit, to);
        self.board[to.index()] = id;
        self.occupied[s].set(to);
        let n = self.pocket[s][kind as usize];
        self.pocket[s][kind as usize] = n - 1;
        self.hash ^= Self::unit_key(&unit)
            ^ ZOBRIST.pocket(s, kind as usize, n)
            ^ ZOBRIST.pocket(s, kind as usize, n - 1);
    }

    #[inline(always)]
    fn unmove(&mut self, id: u8, from: Square) {
        let u = self.units[id as usize];
        let (s, to) = (u.side.index(), u.square);
        self.board[to.index()] = NO_UNIT;
        self.board[from.index()] = id;
        self.units[id as usize].square = from;
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.occupied[s] ^= both;
        self.groups[s][u.group as usize] ^= both;
    }

    #[inline(never)]
    fn revert(&mut self, change: Change) {
        match change {
            Change::Moved { id, from } => self.unmove(id, from),
            Change::Removed { id } => {
                let u = self.units[id as usize];
                let s = u.side.index();
                self.units[id as usize].alive = true;
                self.board[u.square.index()] = id;
                self.occupied[s].set(u.square);
                self.groups[s][u.group as usize].set(u.square);
                let kind = &self.variant.pieces[u.kind as usize];
                if kind.royal {
                    self.royals[s] += 1;
                }
                self.own.restored(kind, id, &u);
            }
            Change::Stack { sq, top, under } => {
                let i = sq.index();
                self.board[i] = top;
                self.under[i] = under;
                if under == NO_UNIT {
                    self.shared.clear(sq);
                } else {
                    self.shared.set(sq);
                }
                self.occupied[0].clear(sq);
                self.occupied[1].clear(sq);
                for id in [top, under] {
                    if id != NO_UNIT {
                        let side = self.units[id as usize].side.index();
                        self.occupied[side].set(sq);
                    }
                }
            }
            Change::Unit { id, square, alive } => {
                let u = self.units[id as usize];
                if u.alive {
                    self.toggle_part(&u, u.square);
                }
                if alive {
                    self.toggle_part(&u, square);
                }
                self.units[id as usize].square = square;
                self.units[id as usize].alive = alive;
            }
            Change::Dropped { side, kind, to } => {
                let u = self.units[self.units.len() - 1];
                self.toggle_part(&u, to);
                self.units.pop();
                self.pocket[side.index()][kind as usize] += 1;
            }
            Change::Uncaptured { .. } => {}
        }
    }
}

impl<O: Owner> UnitBoard<O> {
    /// Tell what the changes journalled since `mark` did, for the step `step` just made.
    /// The journal records each change for undo; this reads it forwards once, off the hot
    /// path (search and perft make steps with `make`, which reports nothing).
    pub(crate) fn report_journal(&self, step: Step, mark: usize, fx: &mut Effects) {
        let tail = &self.journal[mark..];
        // A removal is a capture unless the rule that made it said otherwise (`Uncaptured`).
        let uncaptured = |id| {
            tail.iter()
                .any(|c| matches!(*c, Change::Uncaptured { id: k } if k == id))
        };
        for (i, change) in tail.iter().enumerate() {
            match *change {
                Change::Moved { id, from } => {
                    let u = self.units[id as usize];
                    fx.push(Effect::Moved {
                        side: u.side,
                        kind: u.kind,
                        from,
                        to: u.square,
                    });
                }
                Change::Removed { id } => {
                    let u = self.units[id as usize];
                    fx.push(Effect::Removed {
                        side: u.side,
                        kind: u.kind,
                        square: u.square,
                        capture: true,
                    });
                }
                Change::Unit { id, square, alive } => {
                    // A stacked unit's first record holds where it stood before the step.
                    let earlier = tail[..i]
                        .iter()
                        .any(|c| matches!(*c, Change::Unit { id: k, .. } if k == id));
                    let u = self.units[id as usize];
                    if earlier || !alive {
                        continue;
                    }
                    if !u.alive {
                        fx.push(Effect::Removed {
                            side: u.side,
                            kind: u.kind,
                            square,
                            capture: !uncaptured(id),
                        });
                    } else if u.square != square {
                        fx.push(Effect::Moved {
                            side: u.side,
                            kind: u.kind,
                            from: square,
                            to: u.square,
                        });
                    }
                }
                Change::Dropped { side, kind, to } => fx.push(Effect::Placed {
                    side,
                    kind,
                    square: to,
                }),
                Change::Stack { .. } | Change::Uncaptured { .. } => {}
            }
        }
        if step.kind == StepKind::Pin {
            let id = self.under[step.to.index()];
            if id != NO_UNIT {
                let u = self.units[id as usize];
                fx.push(Effect::Pinned {
                    side: u.side,
                    kind: u.kind,
                    square: u.square,
                });
            }
        }
    }
}
