//! Static evaluation, in centipawn-like units from the side to move's point of view.
//!
//! Generic over every variant: a piece's worth comes from its mobility on an empty board
//! (compiled from its Betza moves), royal units are worth a lot more, units cut off from
//! command (a leaderless chesimal, a piece out of every Chieftain's range) count less, and
//! a royal unit that enemy units can reach next turn is penalised.

use cohort_rules::{
    Bitboard, Family, Position, SearchHooks, SearchProfile, Side, Square, Unit, Variant,
};

/// The score of a won game (a lost one is its negation); every evaluation stays well inside.
pub const WIN: i32 = 1_000_000;

/// Per-variant weights, computed once.
pub struct Weights {
    /// Value of each piece kind.
    pub value: Vec<i32>,
    pub royal: Vec<bool>,
    /// Bonus per square that a unit is nearer the closest enemy royal unit, set by
    /// the engine when the opponent has little left but its royals (0 otherwise): a won game
    /// is won only by running the last royals down.
    pub hunt: i32,
    /// Count threats to a royal unit from enemy units that are not under command now too:
    /// in the lead model (Fusion) a turn of up to nine steps links them before they strike.
    pub threats_from_any: bool,
    /// Which evaluation the variant's pieces call for (chosen once, from the variant data).
    pub profile: Profile,
    /// The pawn's kind, if the variant has one (`P`).
    pub pawn: Option<usize>,
}

/// The evaluation's form. `Command`: units under command, nearness to enemy royals, threats
/// to royals (the command games, and chess). `Material`: classical material, frozen
/// pieces, pawns' progress on the framed board, check (Chessma 84).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Profile {
    Command,
    Material,
}

impl Weights {
    pub fn new(variant: &std::sync::Arc<Variant>) -> Weights {
        Weights::with_profile(variant, &variant.start().search_profile())
    }

    /// The weights for a variant whose family gave this search profile.
    pub fn with_profile(variant: &std::sync::Arc<Variant>, profile: &SearchProfile) -> Weights {
        // Mobility of each kind alone in the middle of an empty board of this variant.
        let geo = &variant.geometry;
        let centre = Square::new(geo.files / 2, geo.ranks / 2);
        let value = variant
            .pieces
            .iter()
            .enumerate()
            .map(|(kind, p)| {
                // A unit with no move of its own (Fusion's Pawn) moves as its activating
                // leader says: count the best of those moves (half the most destinations,
                // which counts moves and captures apart).
                let mobility = match probe_mobility(variant, kind, centre) as i32 {
                    0 => p.most_destinations() as i32 / 2,
                    m => m,
                };
                let base = 40 + 14 * mobility;
                // A value the variant file gives (`value=N`: the classical values of chess
                // and of Chessma 84's pieces) comes first.
                if let Some(v) = p.value {
                    v
                } else if p.royal {
                    base + 900
                } else if p.leader {
                    // A leader's loss freezes its chesimal.
                    base + 300
                } else {
                    base
                }
            })
            .collect();
        // The vital kinds are pressed on and their threats counted as royal units' are
        // (Lifeform's Head and Torso are not royal in the rules, but losing either loses).
        Weights {
            value,
            royal: profile.vital.clone(),
            hunt: 0,
            threats_from_any: profile.threats_from_any,
            pawn: profile.pawn,
            // Ultima captures threaten in ways the command profile's attack maps do not
            // see, and its mobility probes cost too much there: material and king safety.
            profile: if profile.material_only {
                Profile::Material
            } else {
                Profile::Command
            },
        }
    }
}

fn probe_mobility(variant: &std::sync::Arc<Variant>, kind: usize, at: Square) -> u32 {
    let letter = variant.pieces[kind].letter;
    // A board holding just this piece (and, for chess, the kings it needs).
    let geo = &variant.geometry;
    let mut rows = Vec::new();
    for r in (0..geo.ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..geo.files {
            if Square::new(f, r) == at {
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                row.push(letter);
                if !variant.groups.is_empty() {
                    row += "(1)";
                }
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    let mut text = format!("{} w", rows.join("/"));
    if variant.placement.is_some() {
        text += " -";
    }
    Position::parse(variant, &text)
        .map(|p| p.destinations(at).count())
        .unwrap_or(4)
}

/// Score of `pos` for `mover`, whoever is to move: a finished game is a win, loss or draw,
/// otherwise the evaluation seen from `mover`'s side.
pub fn score_for<R: Family>(pos: &R, mover: Side, w: &Weights) -> i32 {
    match pos.outcome() {
        Some(cohort_rules::Outcome::Win(s)) => {
            if s == mover {
                WIN
            } else {
                -WIN
            }
        }
        Some(cohort_rules::Outcome::Draw) => 0,
        None => {
            let s = evaluate(pos, w);
            if pos.side_to_move() == mover {
                s
            } else {
                -s
            }
        }
    }
}

/// Evaluate `pos` for the side to move.
pub fn evaluate<R: Family>(pos: &R, w: &Weights) -> i32 {
    if w.profile == Profile::Material {
        return evaluate_material(pos, w);
    }
    let mut score = [0i32; 2];
    let commanded = [pos.commanded(Side::White), pos.commanded(Side::Black)];
    let mut royals = [Bitboard::EMPTY; 2];
    let mut occupied = [Bitboard::EMPTY; 2];
    let mut buf = UnitBuf::new();
    buf.fill(pos);
    let units = buf.as_slice();
    for u in units {
        let s = u.side.index();
        let v = w.value[u.kind as usize];
        // Units nobody can command are worth a third (they still block and can be taken).
        // Not while hunting: the leaders must then be free to run ahead of their pieces.
        score[s] += if w.hunt != 0 || commanded[s].has(u.square) {
            v
        } else {
            v / 3
        };
        if w.royal[u.kind as usize] {
            royals[s].set(u.square);
        }
        occupied[s].set(u.square);
    }
    // Pressure: 3 * (8 - d) for each commanded piece d < 8 squares from the nearest enemy
    // royal unit (in long-turn games a passive evaluation lets both sides shuffle into the
    // quiet-turn draw). Counted on sets: 3 for each of the balls of radius 1..7 around the
    // enemy royals that holds the piece (a per-unit distance scan was most of the
    // evaluation's time).
    for s in 0..2 {
        let pieces = commanded[s] & occupied[s] & !royals[s];
        let mut ball = royals[1 - s];
        if ball.is_empty() || pieces.is_empty() {
            continue;
        }
        for _ in 1..8 {
            ball = ball.king_dilate();
            score[s] += 3 * (pieces & ball).count() as i32;
        }
    }
    let geo = &pos.variant().geometry;
    if w.hunt != 0 {
        // Hunt: every unit nearer the enemy royals, however far (leaders lead: a piece can
        // move only near one of them).
        let span = geo.files.max(geo.ranks) as i32;
        for u in units {
            let (s, o) = (u.side.index(), 1 - u.side.index());
            let Some(d) = royals[o].iter().map(|r| r.distance(u.square) as i32).min() else {
                continue;
            };
            let k = if w.royal[u.kind as usize] {
                2 * w.hunt
            } else {
                w.hunt
            };
            score[s] += k * (span - d);
        }
    }
    // Royal units that enemy units could capture next turn: only enemies within three
    // squares are asked where they could go.
    for side in [Side::White, Side::Black] {
        let s = side.index();
        let enemies = if w.threats_from_any {
            occupied[1 - s]
        } else {
            occupied[1 - s] & commanded[1 - s]
        };
        if enemies.is_empty() {
            continue;
        }
        let penalty = if royals[s].count() == 1 { 400 } else { 150 };
        for r in royals[s].iter() {
            let near = Bitboard::from_square(r)
                .king_dilate()
                .king_dilate()
                .king_dilate();
            if (enemies & near).iter().any(|e| pos.destinations(e).has(r)) {
                score[s] -= penalty;
            }
        }
    }
    let me = pos.side_to_move().index();
    score[me] - score[1 - me]
}

/// The units of a position on the stack, filled without initialising the unused room (the
/// evaluation reads them several times; a zeroed array was a tenth of its time).
struct UnitBuf {
    items: [std::mem::MaybeUninit<Unit>; MAX_UNITS],
    len: usize,
}

impl UnitBuf {
    #[inline(always)]
    fn new() -> UnitBuf {
        UnitBuf {
            items: [const { std::mem::MaybeUninit::uninit() }; MAX_UNITS],
            len: 0,
        }
    }
    /// Filled in the caller's frame (no copy of the buffer on return).
    #[inline(always)]
    fn fill<R: Family>(&mut self, pos: &R) {
        self.len = 0;
        pos.for_each_unit(|u| {
            if self.len < MAX_UNITS {
                self.items[self.len].write(u);
                self.len += 1;
            }
        });
    }
    #[inline(always)]
    fn as_slice(&self) -> &[Unit] {
        // SAFETY: the first `len` items were written by `of`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const Unit, self.len) }
    }
}

const MAX_UNITS: usize = cohort_rules::unit_board::MAX_UNITS;

/// Chessma 84: material, frozen pieces at a fraction of their worth (an
/// Immobilizer's victims cannot move and are easy prey), pawns' progress, pieces near the
/// enemy King, and being in check (every capture method counts).
fn evaluate_material<R: Family>(pos: &R, w: &Weights) -> i32 {
    let mut score = [0i32; 2];
    let frozen = [pos.frozen(Side::White), pos.frozen(Side::Black)];
    let kings = [pos.royals(Side::White), pos.royals(Side::Black)];
    // Counted on sets, kind by kind (a Chessma board holds some sixty units).
    for side in [Side::White, Side::Black] {
        let s = side.index();
        for (kind, &v) in w.value.iter().enumerate() {
            if w.royal[kind] {
                continue;
            }
            let units = pos.units_of(side, kind as u8);
            if units.is_empty() {
                continue;
            }
            let still = (units & frozen[s]).count() as i32;
            score[s] += (units.count() as i32 - still) * v + still * (v * 3 / 5);
            if Some(kind) == w.pawn {
                // Rows from the own back rank (frame ranks 2..9 for White's 1..8).
                for q in units.iter() {
                    let r = q.rank() as i32;
                    score[s] += 4 * if s == 0 { r - 3 } else { 8 - r }.max(0);
                }
            }
        }
        // Nearness to the enemy King: 2 * (6 - distance) for each unit within 5 squares,
        // which is 2 for each of the balls of radius 0..5 around the King that holds it.
        let mine = pos.occupied(side) & !kings[s];
        let mut ball = kings[1 - s];
        if ball.any() {
            for _ in 0..6 {
                score[s] += 2 * (mine & ball).count() as i32;
                ball = ball.king_dilate();
            }
        }
    }
    for s in [Side::White, Side::Black] {
        // The pocket: pieces to drop later, worth most of their value.
        for (kind, value) in w.value.iter().enumerate() {
            score[s.index()] += pos.in_hand(s, kind as u8) as i32 * value * 4 / 5;
        }
        // A frozen King cannot step away from threats.
        if (kings[s.index()] & frozen[s.index()]).any() {
            score[s.index()] -= 60;
        }
    }
    let me = pos.side_to_move().index();
    if pos.in_check() {
        score[me] -= 50;
    }
    score[me] - score[1 - me]
}
