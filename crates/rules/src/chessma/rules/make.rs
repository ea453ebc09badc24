//! Make and unmake: each piece's move with its own captures, reported as it happens.

use super::capture::*;
use super::*;
use crate::chessma::board::*;
use crate::chessma::tables::{opposite, NONE};

impl Game<'_> {
    /// Make `m` (pseudo-legal); returns the saved state and how many pieces it captured.
    #[inline(always)]
    pub(crate) fn make(&mut self, m: Mv) -> (Saved, u32) {
        self.make_reporting(m, &mut ())
    }

    /// `make`, telling `report` what the move does as it does it.
    pub(crate) fn make_reporting<R: Report>(&mut self, m: Mv, report: &mut R) -> (Saved, u32) {
        let t = self.t;
        // A push's displaced pieces, read before the board changes.
        let pushed = match m.how {
            How::Push { sheet, .. } => self.push_moves(m.from, m.to, sheet as usize),
            _ => None,
        };
        let b = &mut *self.b;
        let saved = b.save();
        let s = b.side;
        let me = (s as u8) << 4;
        let mut captured = 0u32;
        let mut new_ep = ([NONE; 3], NONE);
        match m.how {
            How::Drop(k) => {
                report.placed(m.to, k | me);
                b.set(m.to, k | me);
                b.add_pocket(s, k, -1);
            }
            How::Castle => {
                let king = b.cell(m.from);
                let row = rank(m.from);
                let (rf, rt) = if file(m.to) == 7 { (8, 6) } else { (1, 4) };
                let rook = b.cell(sq(rf, row));
                report.moved(m.from, m.to, king);
                report.moved(sq(rf, row), sq(rt, row), rook);
                b.set(m.from, EMPTY);
                b.set(sq(rf, row), EMPTY);
                b.set(m.to, king);
                b.set(sq(rt, row), rook);
            }
            How::EnPassant => {
                let pawn = b.cell(m.from);
                report.moved(m.from, m.to, pawn);
                report.removed(b.ep_victim, b.cell(b.ep_victim), false);
                b.set(m.from, EMPTY);
                b.set(m.to, pawn);
                b.set(b.ep_victim, EMPTY);
                captured = 1;
            }
            How::Swap => {
                let (a, c) = (b.cell(m.from), b.cell(m.to));
                report.moved(m.from, m.to, a);
                report.moved(m.to, m.from, c);
                if m.promo != 0 {
                    report.changed(m.from, c, m.promo | (c & BLACK));
                }
                b.set(
                    m.from,
                    if m.promo != 0 {
                        m.promo | (c & BLACK)
                    } else {
                        c
                    },
                );
                b.set(m.to, a);
            }
            How::Push { sheet, .. } => {
                let game = Game { t, b };
                let chain = game
                    .push_result(m.from, m.to, sheet as usize)
                    .expect("a legal push");
                let b = game.b;
                let dir = t.line[sheet as usize][m.from as usize][m.to as usize] as usize - 1;
                let pusher = b.cell(m.from);
                report.moved(m.from, m.to, pusher);
                if let Some((moves, n)) = pushed {
                    for &(from, to) in &moves[..n] {
                        report.moved(from, to, b.cell(from));
                    }
                }
                b.set(m.from, EMPTY);
                b.set(m.to, EMPTY);
                // The pieces along the line are laid out again as `chain` says (a Chameleon's
                // push moves the Pusher alone and leaves the others where they stand).
                if kind(pusher) != X {
                    for &q in t.rays[sheet as usize][m.to as usize][dir].as_slice() {
                        if b.cell(q) != EMPTY {
                            b.set(q, EMPTY);
                        }
                    }
                }
                for &(q, c) in chain.iter() {
                    if c == EMPTY {
                        break;
                    }
                    b.set(q, c);
                }
                b.set(m.to, pusher);
            }
            How::Plain | How::Teleport => {
                let mover = b.cell(m.from);
                let kd = kind(mover);
                let target = b.cell(m.to);
                b.set(m.from, EMPTY);
                if target != EMPTY {
                    report.removed(m.to, target, false);
                    captured += 1;
                }
                report.moved(m.from, m.to, mover);
                if m.promo != 0 {
                    report.changed(m.to, mover, m.promo | me);
                }
                b.set(m.to, if m.promo != 0 { m.promo | me } else { mover });
                if kd == P {
                    let dist =
                        t.level[rank(m.to) as usize].abs_diff(t.level[rank(m.from) as usize]);
                    if dist >= 2 && file(m.from) == file(m.to) {
                        let mut ep = [NONE; 3];
                        let sh = (0..t.sheets).find(|&x| m.sheets >> x & 1 != 0).unwrap_or(0);
                        let dir = if s == 0 { 0 } else { 2 };
                        for (i, &q) in t.rays[sh][m.from as usize][dir]
                            .as_slice()
                            .iter()
                            .enumerate()
                        {
                            if q == m.to || i >= 3 {
                                break;
                            }
                            ep[i] = q;
                        }
                        new_ep = (ep, m.to);
                    }
                } else if kd >= I {
                    captured += self.effects(m, kd, report);
                }
            }
        }
        let b = &mut *self.b;
        if b.ep != new_ep.0 || b.ep_victim != new_ep.1 {
            b.set_ep(new_ep.0, new_ep.1);
        }
        b.flip_side();
        (saved, captured)
    }

    /// The Ultima captures of a piece of kind `kd` just arrived by `m` (mover on `m.to`).
    pub(super) fn effects<R: Report>(&mut self, m: Mv, kd: u8, report: &mut R) -> u32 {
        let t = self.t;
        let b = &mut *self.b;
        let s = b.side;
        let mut caps = Caps::new();
        let chameleon = kd == X;
        let line_move = m.how == How::Plain;
        for sh in 0..t.sheets {
            if m.sheets >> sh & 1 == 0 || !line_move {
                continue;
            }
            let dir = t.line[sh][m.from as usize][m.to as usize];
            if dir == 0 {
                continue;
            }
            let dir = dir as usize - 1;
            if kd == W || chameleon {
                let behind = t.rays[sh][m.from as usize][opposite(dir)].first();
                if behind != NONE {
                    let c = b.cell(behind);
                    if c != EMPTY && side(c) != s && (!chameleon || kind(c) == W) {
                        caps.add(behind, false);
                    }
                }
            }
            if kd == L || chameleon {
                for &q in t.rays[sh][m.from as usize][dir].as_slice() {
                    if q == m.to {
                        break;
                    }
                    let c = b.cell(q);
                    if c != EMPTY && side(c) != s {
                        caps.add(q, false);
                    }
                }
            }
        }
        if kd == C || chameleon {
            b.coordinate(t, s, m.to, chameleon.then_some(C), &mut caps);
        }
        if kd == E || chameleon {
            b.enclose(t, s, m.to, chameleon, &mut caps);
        }
        let n = caps.n as u32;
        for i in 0..caps.n {
            let q = caps.sq[i];
            let c = b.cell(q);
            report.removed(q, c, caps.pocket[i]);
            if caps.pocket[i] {
                b.add_pocket(s, kind(c), 1);
            }
            b.set(q, EMPTY);
        }
        if kd == E && caps.pocket[..caps.n].contains(&true) {
            report.changed(m.to, E | (s as u8) << 4, ES | (s as u8) << 4);
            b.set(m.to, ES | (s as u8) << 4);
        }
        n
    }

    pub(crate) fn unmake(&mut self, saved: Saved) {
        self.b.restore(saved);
        self.b.side ^= 1;
    }
}
