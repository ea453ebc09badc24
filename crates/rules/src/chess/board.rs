//! The 8x8 chess core: u64 bitboards, legal move generation with pins and checkers,
//! make/unmake, and a Zobrist hash. Squares are a1 = 0 .. h8 = 63.

use super::tables::TABLES;
use std::sync::LazyLock;

pub(crate) const PAWN: u8 = 0;
pub(crate) const KNIGHT: u8 = 1;
pub(crate) const BISHOP: u8 = 2;
pub(crate) const ROOK: u8 = 3;
pub(crate) const QUEEN: u8 = 4;
pub(crate) const KING: u8 = 5;
/// Mailbox entry of an empty square; a piece is `color << 3 | type`.
pub(crate) const EMPTY: u8 = 0xFF;
pub(crate) const NO_EP: u8 = 64;

pub(crate) const WHITE_OO: u8 = 1;
pub(crate) const WHITE_OOO: u8 = 2;
pub(crate) const BLACK_OO: u8 = 4;
pub(crate) const BLACK_OOO: u8 = 8;

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct ChessBoard {
    pub pieces: [u64; 6],
    pub colors: [u64; 2],
    pub mailbox: [u8; 64],
    /// 0 White, 1 Black.
    pub side: usize,
    pub castling: u8,
    /// The square a double step just passed over, or NO_EP.
    pub ep: u8,
    pub halfmove: u16,
    pub fullmove: u16,
    pub hash: u64,
}

/// What `unmake` needs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ChessUndo {
    pub captured: u8,
    pub cap_sq: u8,
    castling: u8,
    ep: u8,
    halfmove: u16,
    hash: u64,
}

/// Receives generated moves: whole destination sets for plain moves (double steps,
/// en passant and castling included, told apart by `make`), single promotions.
pub(crate) trait MoveSink {
    fn set(&mut self, from: u8, to: u64);
    fn promotion(&mut self, from: u8, to: u8, piece: u8);
}

struct Keys {
    piece: [[u64; 64]; 12],
    side: u64,
    castling: [u64; 16],
    ep: [u64; 8],
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut s = 0x5EED_CE55_u64;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut piece = [[0; 64]; 12];
    for p in piece.iter_mut() {
        for k in p.iter_mut() {
            *k = next();
        }
    }
    let side = next();
    let mut castling = [0; 16];
    for k in castling.iter_mut().skip(1) {
        *k = next();
    }
    let mut ep = [0; 8];
    for k in ep.iter_mut() {
        *k = next();
    }
    Keys {
        piece,
        side,
        castling,
        ep,
    }
});

/// Castling rights that survive a move touching this square.
const fn rights_mask() -> [u8; 64] {
    let mut m = [0xFu8; 64];
    m[0] = !WHITE_OOO & 0xF;
    m[7] = !WHITE_OO & 0xF;
    m[4] = !(WHITE_OO | WHITE_OOO) & 0xF;
    m[56] = !BLACK_OOO & 0xF;
    m[63] = !BLACK_OO & 0xF;
    m[60] = !(BLACK_OO | BLACK_OOO) & 0xF;
    m
}
const RIGHTS_MASK: [u8; 64] = rights_mask();

#[inline(always)]
fn bits(mut b: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            s
        })
    })
}

impl ChessBoard {
    pub fn empty() -> ChessBoard {
        ChessBoard {
            pieces: [0; 6],
            colors: [0; 2],
            mailbox: [EMPTY; 64],
            side: 0,
            castling: 0,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    #[inline(always)]
    pub fn put(&mut self, sq: u8, color: usize, ty: u8) {
        self.pieces[ty as usize] |= 1 << sq;
        self.colors[color] |= 1 << sq;
        self.mailbox[sq as usize] = (color as u8) << 3 | ty;
        self.hash ^= KEYS.piece[color * 6 + ty as usize][sq as usize];
    }

    #[inline(always)]
    fn remove(&mut self, sq: u8) {
        let pc = self.mailbox[sq as usize];
        let (color, ty) = ((pc >> 3) as usize, pc & 7);
        self.pieces[ty as usize] &= !(1 << sq);
        self.colors[color] &= !(1 << sq);
        self.mailbox[sq as usize] = EMPTY;
        self.hash ^= KEYS.piece[color * 6 + ty as usize][sq as usize];
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..64u8 {
            let pc = self.mailbox[sq as usize];
            if pc != EMPTY {
                h ^= KEYS.piece[(pc >> 3) as usize * 6 + (pc & 7) as usize][sq as usize];
            }
        }
        if self.side == 1 {
            h ^= KEYS.side;
        }
        h ^= KEYS.castling[self.castling as usize];
        if self.ep != NO_EP {
            h ^= KEYS.ep[(self.ep % 8) as usize];
        }
        h
    }

    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    pub fn king_square(&self, color: usize) -> u8 {
        (self.pieces[KING as usize] & self.colors[color]).trailing_zeros() as u8
    }

    #[inline(always)]
    fn attackers_to(&self, sq: usize, occ: u64) -> u64 {
        let t = &*TABLES;
        let p = &self.pieces;
        (t.knight[sq] & p[KNIGHT as usize])
            | (t.king[sq] & p[KING as usize])
            | (t.pawn_attacks[0][sq] & p[PAWN as usize] & self.colors[1])
            | (t.pawn_attacks[1][sq] & p[PAWN as usize] & self.colors[0])
            | (t.rook(sq, occ) & (p[ROOK as usize] | p[QUEEN as usize]))
            | (t.bishop(sq, occ) & (p[BISHOP as usize] | p[QUEEN as usize]))
    }

    pub fn in_check(&self) -> bool {
        self.checkers() != 0
    }

    /// The enemy pieces attacking the King of the side to move (0..64 bits).
    pub fn checkers(&self) -> u64 {
        let k = self.king_square(self.side) as usize;
        self.attackers_to(k, self.occupied()) & self.colors[1 - self.side]
    }

    /// Is the side not to move in check (an illegal position)?
    pub fn opponent_in_check(&self) -> bool {
        let them = 1 - self.side;
        let k = self.king_square(them) as usize;
        self.attackers_to(k, self.occupied()) & self.colors[self.side] != 0
    }

    /// Generate every legal move into `sink`.
    pub fn generate(&self, sink: &mut impl MoveSink) {
        let t = &*TABLES;
        let (us, them) = (self.side, 1 - self.side);
        let (own, opp) = (self.colors[us], self.colors[them]);
        let occ = own | opp;
        let ksq = self.king_square(us) as usize;
        let checkers = self.attackers_to(ksq, occ) & opp;

        // King: never onto an attacked square (looked at with the king lifted off the board).
        let occ_no_king = occ ^ (1 << ksq);
        let mut king_to = 0;
        for to in bits(t.king[ksq] & !own) {
            if self.attackers_to(to as usize, occ_no_king) & opp == 0 {
                king_to |= 1 << to;
            }
        }
        if checkers.count_ones() > 1 {
            sink.set(ksq as u8, king_to);
            return;
        }
        let target = if checkers != 0 {
            t.between(ksq, checkers.trailing_zeros() as usize) | checkers
        } else {
            !own
        };

        // Pinned pieces may move only along the line through their king.
        let p = &self.pieces;
        let rq = p[ROOK as usize] | p[QUEEN as usize];
        let bq = p[BISHOP as usize] | p[QUEEN as usize];
        let snipers = ((t.rook(ksq, 0) & rq) | (t.bishop(ksq, 0) & bq)) & opp;
        let mut pinned = 0;
        for s in bits(snipers) {
            let b = t.between(ksq, s as usize) & occ;
            if b.count_ones() == 1 && b & own != 0 {
                pinned |= b;
            }
        }
        let restrict = |from: u8, m: u64| {
            if pinned >> from & 1 != 0 {
                m & t.line(ksq, from as usize)
            } else {
                m
            }
        };

        for from in bits(p[KNIGHT as usize] & own & !pinned) {
            sink.set(from, t.knight[from as usize] & target);
        }
        for from in bits(bq & own) {
            sink.set(from, restrict(from, t.bishop(from as usize, occ) & target));
        }
        for from in bits(rq & own) {
            sink.set(from, restrict(from, t.rook(from as usize, occ) & target));
        }

        let (up, start_rank, last_rank) = if us == 0 { (8i8, 1, 7) } else { (-8i8, 6, 0) };
        for from in bits(p[PAWN as usize] & own) {
            let mut to_set = 0u64;
            let one = (from as i8 + up) as u8;
            if occ >> one & 1 == 0 {
                to_set |= 1 << one;
                let two = (one as i8 + up) as u8;
                if from / 8 == start_rank && occ >> two & 1 == 0 {
                    to_set |= 1 << two;
                }
            }
            to_set |= t.pawn_attacks[us][from as usize] & opp;
            to_set = restrict(from, to_set & target);
            if self.ep != NO_EP && t.pawn_attacks[us][from as usize] >> self.ep & 1 != 0 {
                // En passant: simulate it and look for any attack on the king.
                let cap = (self.ep as i8 - up) as u8;
                let occ2 = (occ ^ (1 << from) ^ (1 << cap)) | (1 << self.ep);
                if self.attackers_to(ksq, occ2) & opp & !(1 << cap) == 0 {
                    to_set |= 1 << self.ep;
                }
            }
            let promoting = to_set & (0xFFu64 << (last_rank * 8));
            if promoting != 0 {
                for to in bits(promoting) {
                    for piece in [QUEEN, ROOK, BISHOP, KNIGHT] {
                        sink.promotion(from, to, piece);
                    }
                }
                to_set &= !promoting;
            }
            sink.set(from, to_set);
        }

        if checkers == 0 {
            let rank = if us == 0 { 0u8 } else { 56 };
            let (oo, ooo) = if us == 0 {
                (WHITE_OO, WHITE_OOO)
            } else {
                (BLACK_OO, BLACK_OOO)
            };
            let safe = |sq: u8| self.attackers_to(sq as usize, occ) & opp == 0;
            if self.castling & oo != 0
                && occ & (0b110 << (rank + 4)) == 0
                && safe(rank + 5)
                && safe(rank + 6)
            {
                king_to |= 1 << (rank + 6);
            }
            if self.castling & ooo != 0
                && occ & (0b1110 << rank) == 0
                && safe(rank + 3)
                && safe(rank + 2)
            {
                king_to |= 1 << (rank + 2);
            }
        }
        sink.set(ksq as u8, king_to);
    }

    /// Number of legal moves.
    pub fn count(&self) -> u64 {
        struct Count(u64);
        impl MoveSink for Count {
            #[inline(always)]
            fn set(&mut self, _: u8, to: u64) {
                self.0 += to.count_ones() as u64;
            }
            #[inline(always)]
            fn promotion(&mut self, _: u8, _: u8, _: u8) {
                self.0 += 1;
            }
        }
        let mut c = Count(0);
        self.generate(&mut c);
        c.0
    }

    /// Play a legal move (`promo` is the promotion piece type, or 0 for none).
    pub fn make(&mut self, from: u8, to: u8, promo: u8) -> ChessUndo {
        let keys = &*KEYS;
        let pc = self.mailbox[from as usize];
        let ty = pc & 7;
        let us = self.side;
        let mut undo = ChessUndo {
            captured: self.mailbox[to as usize],
            cap_sq: to,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        if ty == PAWN && to == self.ep && undo.captured == EMPTY {
            undo.cap_sq = if us == 0 { to - 8 } else { to + 8 };
            undo.captured = self.mailbox[undo.cap_sq as usize];
        }
        if undo.captured != EMPTY {
            self.remove(undo.cap_sq);
        }
        self.remove(from);
        self.put(to, us, if promo != 0 { promo } else { ty });
        if ty == KING && (to as i8 - from as i8).abs() == 2 {
            let (rook_from, rook_to) = if to > from {
                (to + 1, to - 1)
            } else {
                (to - 2, to + 1)
            };
            self.remove(rook_from);
            self.put(rook_to, us, ROOK);
        }
        let rights = self.castling & RIGHTS_MASK[from as usize] & RIGHTS_MASK[to as usize];
        self.hash ^= keys.castling[self.castling as usize] ^ keys.castling[rights as usize];
        self.castling = rights;
        if self.ep != NO_EP {
            self.hash ^= keys.ep[(self.ep % 8) as usize];
        }
        self.ep = if ty == PAWN && (to as i8 - from as i8).abs() == 16 {
            (from + to) / 2
        } else {
            NO_EP
        };
        if self.ep != NO_EP {
            self.hash ^= keys.ep[(self.ep % 8) as usize];
        }
        self.halfmove = if ty == PAWN || undo.captured != EMPTY {
            0
        } else {
            self.halfmove + 1
        };
        if us == 1 {
            self.fullmove += 1;
        }
        self.side = 1 - us;
        self.hash ^= keys.side;
        undo
    }

    /// The side to move passes (a search's null move): no en passant square after it.
    pub fn make_null(&mut self) -> ChessUndo {
        let keys = &*KEYS;
        let undo = ChessUndo {
            captured: EMPTY,
            cap_sq: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        if self.ep != NO_EP {
            self.hash ^= keys.ep[(self.ep % 8) as usize];
            self.ep = NO_EP;
        }
        self.side = 1 - self.side;
        self.hash ^= keys.side;
        undo
    }

    /// Take back `make_null`.
    pub fn unmake_null(&mut self, undo: ChessUndo) {
        self.side = 1 - self.side;
        self.ep = undo.ep;
        self.hash = undo.hash;
    }

    pub fn unmake(&mut self, from: u8, to: u8, promo: u8, undo: ChessUndo) {
        self.side = 1 - self.side;
        let us = self.side;
        if us == 1 {
            self.fullmove -= 1;
        }
        let ty = if promo != 0 {
            PAWN
        } else {
            self.mailbox[to as usize] & 7
        };
        if ty == KING && (to as i8 - from as i8).abs() == 2 {
            let (rook_from, rook_to) = if to > from {
                (to + 1, to - 1)
            } else {
                (to - 2, to + 1)
            };
            self.remove(rook_to);
            self.put(rook_from, us, ROOK);
        }
        self.remove(to);
        self.put(from, us, ty);
        if undo.captured != EMPTY {
            self.put(
                undo.cap_sq,
                (undo.captured >> 3) as usize,
                undo.captured & 7,
            );
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// Neither side can ever mate: K v K, K+minor v K, or bishops all on one colour.
    pub fn insufficient_material(&self) -> bool {
        let p = &self.pieces;
        if p[PAWN as usize] | p[ROOK as usize] | p[QUEEN as usize] != 0 {
            return false;
        }
        let minors = p[KNIGHT as usize] | p[BISHOP as usize];
        if minors.count_ones() <= 1 {
            return true;
        }
        const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;
        p[KNIGHT as usize] == 0
            && (p[BISHOP as usize] & LIGHT == 0 || p[BISHOP as usize] & !LIGHT == 0)
    }
}
