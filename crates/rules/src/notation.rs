//! UnitBoard strings (NOTATION.md): reading and writing boards with groups, Lifeform's shared
//! squares and the pockets of placement variants, for both board families (the owner says
//! what it adds: a pin's rules, a bound on steps, a verdict at the start). FIDE chess reads
//! and writes FEN (chess/).

use std::sync::Arc;

use crate::bitboard::Square;
use crate::outcome::{Outcome, Side, Unit, NO_UNIT};
use crate::position_error::{PocketProblem, PositionError, RankProblem};
use crate::unit_board::{Owner, UnitBoard};
use crate::variant::Variant;

impl<O: Owner> UnitBoard<O> {
    /// Parse a position string (NOTATION.md): `<board> <side>`.
    pub fn parse(variant: &Arc<Variant>, text: &str) -> Result<UnitBoard<O>, PositionError> {
        use PositionError as E;
        let geo = &variant.geometry;
        let mut fields = text.split_whitespace();
        let Some(board) = fields.next() else {
            return Err(E::Empty);
        };
        let side = match fields.next() {
            Some("w") => Side::White,
            Some("b") => Side::Black,
            Some(other) => {
                let found = other.to_string();
                return Err(E::BadSide { found });
            }
            None => return Err(E::MissingSide),
        };
        let mut fields = fields.peekable();
        let pocket_text = if variant.placement.is_some() {
            fields.next()
        } else {
            None
        };
        if let Some(extra) = fields.next() {
            return Err(E::ExtraField {
                field: extra.to_string(),
                variant: variant.id.clone(),
            });
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != geo.ranks as usize {
            return Err(E::RankCount {
                found: rows.len(),
                variant: variant.id.clone(),
                needs: geo.ranks,
            });
        }
        let mut pos = Self::empty(variant, side);
        let uses_groups = !variant.groups.is_empty();
        for (ri, row) in rows.iter().enumerate() {
            let rank = geo.ranks - 1 - ri as u8;
            let at = |problem| Err(E::Rank { rank, problem });
            let chars: Vec<char> = row.chars().collect();
            let (mut i, mut file) = (0usize, 0u32);
            while i < chars.len() {
                let c = chars[i];
                if c.is_ascii_digit() {
                    let start = i;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    let run: String = chars[start..i].iter().collect();
                    match run.parse::<u32>() {
                        Ok(n) if n > 0 && !run.starts_with('0') => file = file.saturating_add(n),
                        _ => return at(RankProblem::BadCount { run }),
                    }
                    continue;
                }
                let Some(kind) = variant
                    .kind_of_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                else {
                    let variant = variant.id.clone();
                    return at(RankProblem::NotAPiece { letter: c, variant });
                };
                i += 1;
                let mut group = 0u8;
                if chars.get(i) == Some(&'(') {
                    let close = chars[i..].iter().position(|&c| c == ')').map(|p| p + i);
                    let Some(close) = close else {
                        return at(RankProblem::Unclosed);
                    };
                    let num: String = chars[i + 1..close].iter().collect();
                    match num.parse::<usize>() {
                        Ok(n)
                            if uses_groups
                                && (1..=variant.groups.len()).contains(&n)
                                && !num.starts_with('0') =>
                        {
                            group = n as u8 - 1
                        }
                        _ if !uses_groups => {
                            let variant = variant.id.clone();
                            return at(RankProblem::NoGroups {
                                variant,
                                found: num,
                            });
                        }
                        _ => {
                            let groups = variant.groups.len();
                            return at(RankProblem::BadGroup { found: num, groups });
                        }
                    }
                    i = close + 1;
                } else if uses_groups {
                    return at(RankProblem::GroupMissing { letter: c });
                }
                if file >= geo.files as u32 {
                    return at(RankProblem::TooManyFiles { files: geo.files });
                }
                let sq = Square::new(file as u8, rank);
                let side = if c.is_ascii_uppercase() {
                    Side::White
                } else {
                    Side::Black
                };
                pos.add_unit(Unit {
                    square: sq,
                    kind: kind as u8,
                    side,
                    group,
                    alive: true,
                })?;
                if chars.get(i) == Some(&'~') {
                    let pinned = chars.get(i + 1).copied().unwrap_or(' ');
                    O::add_pinned(&mut pos, sq, kind, side, pinned).map_err(|problem| E::Pin {
                        rank,
                        hand: c,
                        pinned,
                        problem,
                    })?;
                    i += 2;
                }
                file += 1;
            }
            if file != geo.files as u32 {
                return at(RankProblem::FileCount {
                    found: file,
                    files: geo.files,
                });
            }
        }
        if let Some(text) = pocket_text.filter(|t| *t != "-") {
            for c in text.chars() {
                let kind = variant
                    .kind_of_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or_else(|| {
                        E::ToPlace(PocketProblem::NotAPiece {
                            letter: c,
                            variant: variant.id.clone(),
                        })
                    })?;
                let side = if c.is_ascii_uppercase() { 0 } else { 1 };
                pos.pocket[side][kind] += 1;
                if pos.pocket[side][kind] > 64 {
                    return Err(E::ToPlace(PocketProblem::TooMany { letter: c }));
                }
            }
        }
        let bound = pos.step_bound();
        if bound > crate::step::MAX_STEPS {
            let most = crate::step::MAX_STEPS;
            return Err(E::TooManySteps { bound, most });
        }
        pos.outcome = pos.judge_at_turn_start();
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// An upper bound on the legal steps of either side in any position reachable from this
    /// one (units never multiply; drops come from the pockets): each unit's most destinations
    /// as the owner counts them (`Owner::unit_step_bound`), the lead steps, the drops and
    /// `end`.
    fn step_bound(&self) -> usize {
        let v = &self.variant;
        let mut most = 0;
        for side in [Side::White, Side::Black] {
            let s = side.index();
            let mut n = 1;
            for u in self.units.iter().filter(|u| u.alive && u.side == side) {
                let p = &v.pieces[u.kind as usize];
                n += O::unit_step_bound(p.max_steps[s] as usize);
                if p.leader {
                    n += v.lead_modes.iter().filter(|m| m.leader == u.kind).count();
                }
            }
            let drops = self.pocket[s].iter().filter(|&&c| c > 0).count();
            n += drops * v.geometry.squares.count() as usize;
            most = most.max(n);
        }
        most
    }

    /// A position read from text may already be over (NOTATION.md: it then has no legal
    /// steps): as the owner judges it (`Owner::lost_at_start`: a side without royal units has
    /// lost; in Lifeform, once both bodies are placed, a side without Head, Torso or Neck),
    /// both sides: a draw.
    fn judge_at_turn_start(&self) -> Option<Outcome> {
        match O::lost_at_start(self)? {
            [true, true] => Some(Outcome::Draw),
            [true, false] => Some(Outcome::Win(Side::Black)),
            [false, true] => Some(Outcome::Win(Side::White)),
            [false, false] => None,
        }
    }

    /// The position string (NOTATION.md). Only defined at the start of a turn; mid-turn it
    /// writes the board as it stands with the side still to finish its turn.
    pub fn to_text(&self) -> String {
        let geo = &self.variant.geometry;
        let mut out = String::new();
        for rank in (0..geo.ranks).rev() {
            let mut empty = 0;
            for file in 0..geo.files {
                match self.unit_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(u) => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        let letter = self.variant.pieces[u.kind as usize].letter;
                        out.push(if u.side == Side::White {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                        if !self.variant.groups.is_empty() {
                            out += &format!("({})", u.group + 1);
                        }
                        let under = self.under[Square::new(file, rank).index()];
                        if O::STACKS && under != NO_UNIT {
                            let p = &self.units[under as usize];
                            let l = self.variant.pieces[p.kind as usize].letter;
                            out.push('~');
                            out.push(if p.side == Side::White {
                                l
                            } else {
                                l.to_ascii_lowercase()
                            });
                        }
                    }
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.side == Side::White { 'w' } else { 'b' });
        if self.variant.placement.is_some() {
            out.push(' ');
            let mut pocket = String::new();
            for side in [Side::White, Side::Black] {
                for (kind, &n) in self.pocket[side.index()].iter().enumerate() {
                    let l = self.variant.pieces.get(kind).map_or('?', |p| p.letter);
                    let l = if side == Side::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    pocket.extend(std::iter::repeat_n(l, n as usize));
                }
            }
            out += if pocket.is_empty() { "-" } else { &pocket };
        }
        out
    }
}
