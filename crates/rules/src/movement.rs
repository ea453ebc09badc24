//! Piece movement written in a Betza-style notation, compiled once per variant into tables.
//!
//! Grammar (a piece's moves are a sequence of components, spaces ignored):
//!
//! ```text
//! component = modifier* atom suffix?
//! modifier  = m (move only) | c (capture only)
//!           | f b l r (forward, backward, left, right) | v (f+b) | s (l+r)
//! atom      = W F D N A H C Z G      one leap: (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) (3,1) (3,2) (3,3)
//!           | K = WF   R = WW   B = FF   Q = WWFF
//! suffix    = a number n             a rider limited to n squares (W2, K2 = linear Q2, R4)
//!           | the atom again         an unlimited rider (WW = R)
//!           | ^   (after K)          bent two-step general: one king step, or two when the first
//!                                    square is empty, never back to the start
//!           | *   (after W or F)     inclusive line: step 1, leap 2, and reach 3 iff square 1
//!                                    or square 2 is empty (Hero, Shaman)
//! ```
//!
//! `-` alone means the piece has no move of its own (Lifeform's Hair and Limbs).
//!
//! Directions are seen from the mover: forward is toward the opponent. Several direction
//! modifiers keep the union of their directions (`fsW` = forward or sideways wazir).

use crate::bitboard::{Bitboard, Square};
use crate::geometry::{Geometry, DIRECTIONS};

/// What a move component may do on its final square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    MoveOrCapture,
    MoveOnly,
    CaptureOnly,
}

impl Mode {
    #[inline(always)]
    fn targets(self, empty: Bitboard, enemy: Bitboard) -> Bitboard {
        match self {
            Mode::MoveOrCapture => empty | enemy,
            Mode::MoveOnly => empty,
            Mode::CaptureOnly => enemy,
        }
    }
}

#[derive(Copy, Clone, Debug)]
struct Line {
    dir: u8,
    max: u8,
    mode: Mode,
}

/// The moves of one piece kind for one side, ready for generation.
pub struct MoveSet {
    /// Leaps usable for moving and capturing, per square.
    leaps: Option<Box<[Bitboard; 256]>>,
    leaps_move: Option<Box<[Bitboard; 256]>>,
    leaps_capture: Option<Box<[Bitboard; 256]>>,
    riders: Vec<Line>,
    inclusive: Vec<Line>,
    bent: Option<Mode>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaError(pub String);

#[derive(Clone, Copy)]
enum Suffix {
    None,
    Range(u8),
    Bent,
    Inclusive,
}

struct Component {
    mode: Mode,
    dirs: Vec<char>,
    leaps: Vec<(i8, i8)>,
    suffix: Suffix,
}

fn atom_leaps(atom: char) -> Option<Vec<(i8, i8)>> {
    Some(match atom {
        'W' => vec![(1, 0)],
        'F' => vec![(1, 1)],
        'D' => vec![(2, 0)],
        'N' => vec![(2, 1)],
        'A' => vec![(2, 2)],
        'H' => vec![(3, 0)],
        'C' => vec![(3, 1)],
        'Z' => vec![(3, 2)],
        'G' => vec![(3, 3)],
        'K' => vec![(1, 0), (1, 1)],
        'R' => vec![(1, 0)],
        'B' => vec![(1, 1)],
        'Q' => vec![(1, 0), (1, 1)],
        _ => return None,
    })
}

fn parse(text: &str) -> Result<Vec<Component>, BetzaError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.is_empty() {
        return Err(BetzaError(
            "empty move notation (write '-' for a piece with no move of its own)".into(),
        ));
    }
    let mut out = Vec::new();
    if chars == ['-'] {
        return Ok(out);
    }
    let mut i = 0;
    while i < chars.len() {
        let mut mode = Mode::MoveOrCapture;
        let mut dirs = Vec::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'm' => mode = Mode::MoveOnly,
                'c' => mode = Mode::CaptureOnly,
                'f' | 'b' | 'l' | 'r' => dirs.push(chars[i]),
                'v' => dirs.extend(['f', 'b']),
                's' => dirs.extend(['l', 'r']),
                c => return Err(BetzaError(format!("unknown modifier '{c}' in '{text}'"))),
            }
            i += 1;
        }
        let atom = *chars.get(i).ok_or_else(|| {
            BetzaError(format!(
                "modifiers without a piece letter at the end of '{text}'"
            ))
        })?;
        let leaps = atom_leaps(atom)
            .ok_or_else(|| BetzaError(format!("unknown atom '{atom}' in '{text}'")))?;
        i += 1;
        let mut suffix = if matches!(atom, 'R' | 'B' | 'Q') {
            Suffix::Range(0)
        } else {
            Suffix::None
        };
        if let Some(&c) = chars.get(i) {
            if c.is_ascii_digit() {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let n: String = chars[start..i].iter().collect();
                let n: u8 = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=15).contains(n))
                    .ok_or_else(|| {
                        BetzaError(format!(
                            "range '{n}' after '{atom}' must be 1..15 in '{text}'"
                        ))
                    })?;
                suffix = Suffix::Range(n);
            } else if c == atom {
                if !matches!(atom, 'W' | 'F' | 'K') {
                    return Err(BetzaError(format!(
                        "only W, F and K may ride, not '{atom}{atom}', in '{text}'"
                    )));
                }
                suffix = Suffix::Range(0);
                i += 1;
            } else if c == '^' {
                if atom != 'K' {
                    return Err(BetzaError(format!(
                        "'^' (bent general) only follows K, not '{atom}', in '{text}'"
                    )));
                }
                suffix = Suffix::Bent;
                i += 1;
            } else if c == '*' {
                if !matches!(atom, 'W' | 'F') {
                    return Err(BetzaError(format!(
                        "'*' (inclusive line) only follows W or F, not '{atom}', in '{text}'"
                    )));
                }
                suffix = Suffix::Inclusive;
                i += 1;
            }
        }
        if matches!(suffix, Suffix::Range(_)) && !matches!(atom, 'W' | 'F' | 'K' | 'R' | 'B' | 'Q')
        {
            return Err(BetzaError(format!(
                "only W, F, K, R, B and Q may ride, not '{atom}', in '{text}'"
            )));
        }
        out.push(Component {
            mode,
            dirs,
            leaps,
            suffix,
        });
    }
    Ok(out)
}

/// Does the oriented leap (x, y) pass the direction modifiers (empty = all directions)?
fn keeps(dirs: &[char], x: i8, y: i8) -> bool {
    dirs.is_empty()
        || dirs.iter().any(|d| match d {
            'f' => y > 0,
            'b' => y < 0,
            'l' => x < 0,
            'r' => x > 0,
            _ => false,
        })
}

impl MoveSet {
    /// Check a notation without compiling it.
    pub fn validate(text: &str) -> Result<(), BetzaError> {
        parse(text).map(|_| ())
    }

    /// Compile `text` for the side whose forward direction is `forward` (+1 up, -1 down).
    pub fn compile(text: &str, geo: &Geometry, forward: i8) -> Result<MoveSet, BetzaError> {
        let mut set = MoveSet {
            leaps: None,
            leaps_move: None,
            leaps_capture: None,
            riders: vec![],
            inclusive: vec![],
            bent: None,
        };
        for c in parse(text)? {
            // Orientation: the board's (df, dr) seen from the mover is (df * forward, dr * forward).
            let keep = |x: i8, y: i8| keeps(&c.dirs, x * forward, y * forward);
            match c.suffix {
                Suffix::None => {
                    let table = match c.mode {
                        Mode::MoveOrCapture => &mut set.leaps,
                        Mode::MoveOnly => &mut set.leaps_move,
                        Mode::CaptureOnly => &mut set.leaps_capture,
                    }
                    .get_or_insert_with(|| Box::new([Bitboard::EMPTY; 256]));
                    for sq in geo.squares.iter() {
                        for &(df, dr) in &c.leaps {
                            table[sq.index()] |= geo.leap(sq, df, dr, keep);
                        }
                    }
                }
                Suffix::Range(max) => {
                    let max = if max == 0 { 15 } else { max };
                    for line in lines(&c.leaps, &keep) {
                        set.riders.push(Line {
                            dir: line,
                            max,
                            mode: c.mode,
                        });
                    }
                }
                Suffix::Bent => {
                    if !c.dirs.is_empty() {
                        return Err(BetzaError(format!(
                            "the bent general K^ takes no direction modifier in '{text}'"
                        )));
                    }
                    set.bent = Some(c.mode);
                }
                Suffix::Inclusive => {
                    for line in lines(&c.leaps, &keep) {
                        set.inclusive.push(Line {
                            dir: line,
                            max: 3,
                            mode: c.mode,
                        });
                    }
                }
            }
        }
        Ok(set)
    }

    /// Squares this piece on `from` can reach: `empty` squares to move to, `enemy` squares it
    /// may capture on. Slides are blocked by any unit (`!empty`).
    #[inline(always)]
    pub fn destinations(
        &self,
        geo: &Geometry,
        from: Square,
        empty: Bitboard,
        enemy: Bitboard,
    ) -> Bitboard {
        let i = from.index();
        let mut t = Bitboard::EMPTY;
        if let Some(l) = &self.leaps {
            t |= l[i] & (empty | enemy);
        }
        if let Some(l) = &self.leaps_move {
            t |= l[i] & empty;
        }
        if let Some(l) = &self.leaps_capture {
            t |= l[i] & enemy;
        }
        if let Some(mode) = self.bent {
            let first = geo.king(from);
            let targets = mode.targets(empty, enemy);
            t |= first & targets;
            let mut via = Bitboard::EMPTY;
            for n in (first & empty).iter() {
                via |= geo.king(n);
            }
            // The start square is occupied by the mover itself, so `targets` never holds it.
            t |= via & targets;
        }
        for line in &self.riders {
            for &sq in geo
                .ray(from, line.dir as usize)
                .as_slice()
                .iter()
                .take(line.max as usize)
            {
                if empty.has(sq) {
                    if line.mode != Mode::CaptureOnly {
                        t.set(sq);
                    }
                } else {
                    if line.mode != Mode::MoveOnly && enemy.has(sq) {
                        t.set(sq);
                    }
                    break;
                }
            }
        }
        for line in &self.inclusive {
            let ray = geo.ray(from, line.dir as usize).as_slice();
            let targets = line.mode.targets(empty, enemy);
            for (k, &sq) in ray.iter().take(3).enumerate() {
                let reachable = k < 2 || empty.has(ray[0]) || empty.has(ray[1]);
                if reachable && targets.has(sq) {
                    t.set(sq);
                }
            }
        }
        t
    }
}

/// Direction indices (see DIRECTIONS) of the lines a rider atom runs along.
fn lines(leaps: &[(i8, i8)], keep: &impl Fn(i8, i8) -> bool) -> Vec<u8> {
    DIRECTIONS
        .iter()
        .enumerate()
        .filter(|(_, &(x, y))| {
            let unit = if x == 0 || y == 0 { (1, 0) } else { (1, 1) };
            leaps.contains(&unit) && keep(x, y)
        })
        .map(|(d, _)| d as u8)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str, g: &Geometry) -> Square {
        g.parse_square(s).unwrap()
    }
    fn set(g: &Geometry, list: &str) -> Bitboard {
        list.split_whitespace().map(|s| sq(s, g)).collect()
    }
    fn dests(text: &str, from: &str, own: &str, enemy: &str) -> Bitboard {
        let g = Geometry::rectangle(8, 8);
        let ms = MoveSet::compile(text, &g, 1).unwrap();
        let (own, enemy) = (set(&g, own) | set(&g, from), set(&g, enemy));
        ms.destinations(&g, sq(from, &g), g.squares & !(own | enemy), enemy)
    }

    #[test]
    fn leaps_ignore_what_they_jump_over() {
        let g = Geometry::rectangle(8, 8);
        assert_eq!(
            dests("N", "b1", "a2 b2 c2 d2 c3", "a3"),
            set(&g, "a3 d2") & !set(&g, "d2")
        );
        assert_eq!(dests("WD", "d4", "d5 e4", ""), set(&g, "d3 c4 d6 f4 d2 b4"));
    }

    #[test]
    fn limited_slide_is_blocked() {
        let g = Geometry::rectangle(8, 8);
        // Linear Q2 (Chesimals II guard): second square only through an empty first square.
        let d = dests("K2", "d4", "d5", "e5 c3");
        assert!(d.has(sq("e5", &g)) && !d.has(sq("f6", &g)));
        assert!(d.has(sq("c3", &g)) && !d.has(sq("b2", &g)));
        assert!(!d.has(sq("d5", &g)) && !d.has(sq("d6", &g)));
        assert!(d.has(sq("d2", &g)) && d.has(sq("b4", &g)));
        assert_eq!(d.count(), 2 + 2 + 2 + 2 + 1 + 2 + 1);
        // Rook of range 4 stops at 4 and at the first unit.
        let r = dests("R4", "a1", "", "a4");
        assert_eq!(r, set(&g, "a2 a3 a4 b1 c1 d1 e1"));
    }

    #[test]
    fn bent_general_needs_an_empty_first_square_and_never_returns() {
        let g = Geometry::rectangle(8, 8);
        // Chief on a1 boxed in by own units on a2 and b2, b1 empty: reaches b1, then c1 c2 (via b1).
        let d = dests("K^", "a1", "a2 b2", "");
        assert_eq!(d, set(&g, "b1 c1 c2"));
        // Fully surrounded by friends: no move at all; an enemy neighbour is a capture but not a bridge.
        let d = dests("K^", "a1", "a2 b1", "b2");
        assert_eq!(d, set(&g, "b2"));
        // In the open: all 24 squares of the 5x5 box minus the centre.
        assert_eq!(dests("K^", "d4", "", "").count(), 24);
    }

    #[test]
    fn inclusive_line_third_square_rule() {
        let g = Geometry::rectangle(8, 8);
        // d1 and d2 both occupied: d3 unreachable; d2 is reachable by leaping (capture).
        let d = dests("W*", "a1", "a2", "a3");
        assert!(d.has(sq("a3", &g)) && !d.has(sq("a4", &g)) && !d.has(sq("a2", &g)));
        // d1 occupied, d2 empty: leap 2 then slide 1 reaches d3.
        let d = dests("W*", "a1", "a2", "a4");
        assert!(d.has(sq("a3", &g)) && d.has(sq("a4", &g)));
        // d1 empty, d2 occupied: slide 1 then leap 2 reaches d3.
        let d = dests("W*", "a1", "a3", "");
        assert!(d.has(sq("a2", &g)) && !d.has(sq("a3", &g)) && d.has(sq("a4", &g)));
        assert_eq!(dests("F*", "d4", "", "").count(), 12); // three squares on each diagonal
    }

    #[test]
    fn direction_modifiers_follow_the_mover() {
        let g = Geometry::rectangle(8, 8);
        let gold_w = MoveSet::compile("WfF", &g, 1).unwrap();
        let gold_b = MoveSet::compile("WfF", &g, -1).unwrap();
        let e = g.squares;
        let d4 = sq("d4", &g);
        assert_eq!(
            gold_w.destinations(&g, d4, e, Bitboard::EMPTY),
            set(&g, "d5 d3 c4 e4 c5 e5")
        );
        assert_eq!(
            gold_b.destinations(&g, d4, e, Bitboard::EMPTY),
            set(&g, "d5 d3 c4 e4 c3 e3")
        );
        let silver = MoveSet::compile("FfW", &g, 1).unwrap();
        assert_eq!(
            silver.destinations(&g, d4, e, Bitboard::EMPTY),
            set(&g, "c5 e5 c3 e3 d5")
        );
        let mk = MoveSet::compile("mK", &g, 1).unwrap();
        assert!(
            mk.destinations(&g, d4, e & !set(&g, "d5"), set(&g, "d5"))
                .count()
                == 7
        );
    }

    #[test]
    fn bad_notation_is_reported() {
        for bad in ["", "X", "Nx", "f", "N^", "K*", "W99", "NN", "N3"] {
            assert!(MoveSet::validate(bad).is_err(), "{bad}");
        }
    }
}
