//! Shared helpers for the rules tests: positions from strings, steps from text.
#![allow(dead_code)]

use cohort_rules::Rules;
use cohort_rules::{builtin, Position, StepList};

pub fn pos(variant: &str, text: &str) -> Position {
    let v = builtin(variant).unwrap();
    Position::parse(&v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Is the step (`a1-b2`) legal now?
pub fn legal(p: &Position, step: &str) -> bool {
    p.parse_step(step).is_ok()
}

/// Play the steps (space separated), panicking with the reason if one is illegal.
pub fn play(p: &mut Position, steps: &str) {
    for s in steps.split_whitespace() {
        let step = p.parse_step(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        p.make(step);
    }
}

/// Sorted destination names of the unit on `from`, when it may move now.
pub fn dests(p: &Position, from: &str) -> Vec<String> {
    let geo = &p.variant().geometry;
    let from_sq = geo.parse_square(from).unwrap();
    let mut list = StepList::new();
    p.legal_steps(&mut list);
    let mut out: Vec<String> = list
        .iter()
        .filter(|s| !s.is_end() && s.from == from_sq)
        .map(|s| geo.square_name(s.to))
        .collect();
    out.sort();
    out
}

pub fn names(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// A position string for a `files` x `ranks` board with the given units, e.g.
/// `place(16, 12, &[("c1", "C(1)"), ("p12", "k(2)")], 'w')`.
pub fn place(files: u8, ranks: u8, units: &[(&str, &str)], side: char) -> String {
    let mut rows = Vec::new();
    for rank in (1..=ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..files {
            let name = format!("{}{}", (b'a' + f) as char, rank);
            match units.iter().find(|(sq, _)| *sq == name) {
                Some((_, u)) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row += u;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    format!("{} {side}", rows.join("/"))
}

const CHESSMA_FILES: &str = "zabcdefghi";
const CHESSMA_RANKS: [&str; 12] = ["0", "1'", "1", "2", "3", "4", "5", "6", "7", "8", "8'", "9"];

/// A Chessma 84 position from (square, piece) pairs: `chessma_pos(&[("e1", "K"), ("e8", "k")], "w - - -")`.
pub fn chessma_pos(pieces: &[(&str, &str)], rest: &str) -> Position {
    let exists = |f: usize, r: usize| match r {
        0 | 11 => f == 0 || f == 9,
        _ => (1..=8).contains(&f),
    };
    let mut rows = Vec::new();
    for r in (0..12).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..10 {
            let name = format!("{}{}", &CHESSMA_FILES[f..f + 1], CHESSMA_RANKS[r]);
            let piece = pieces.iter().find(|(s, _)| *s == name).map(|(_, p)| *p);
            if !exists(f, r) {
                assert!(piece.is_none(), "{name} does not exist");
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                row.push('*');
            } else if let Some(p) = piece {
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                row += p;
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    let text = format!("{} {rest}", rows.join("/"));
    Position::parse(&builtin("chessma-84").unwrap(), &text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A small deterministic generator (xorshift): a seed fully decides a random game.
pub struct Rng(pub u64);
impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
