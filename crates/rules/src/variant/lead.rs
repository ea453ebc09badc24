//! The lead model's modes: `lead X [mode] = budget N, others M, activates LETTERS, P moves
//! BETZA` lines, each a leader kind's budget and how the units it leads move.

use super::file::Entry;
use super::*;

/// `lead X [mode] = budget N[, others N][, activates LETTERS][, P moves BETZA]...`
pub(super) fn parse_lead_modes(
    entries: &[Entry],
    pieces: &[PieceKind],
    geometry: &Geometry,
    err: &dyn Fn(&Entry, String) -> VariantError,
) -> Result<Vec<LeadMode>, VariantError> {
    let mut modes: Vec<LeadMode> = Vec::new();
    let letter_kind = |e: &Entry, c: char| {
        pieces.iter().position(|p| p.letter == c).ok_or_else(|| {
            err(
                e,
                format!("'{c}' is not an upper-case piece letter of this variant"),
            )
        })
    };
    for e in entries.iter().filter(|e| e.key.starts_with("lead ")) {
        let words: Vec<&str> = e.key.split_whitespace().skip(1).collect();
        let (letter, name) = match words.as_slice() {
            [l] => (*l, ""),
            [l, m] => (*l, *m),
            _ => return Err(err(e, "write 'lead X = ...' or 'lead X mode = ...'".into())),
        };
        let mut chars = letter.chars();
        let leader = match (chars.next(), chars.next()) {
            (Some(c), None) => letter_kind(e, c)?,
            _ => return Err(err(e, format!("'{letter}' is not one piece letter"))),
        };
        if !pieces[leader].leader {
            return Err(err(
                e,
                format!("{} is not flagged 'leader'", pieces[leader].name),
            ));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(err(
                e,
                format!("mode name '{name}': use letters, digits and '-'"),
            ));
        }
        if modes
            .iter()
            .any(|m| m.leader as usize == leader && (m.name.is_empty() || name.is_empty()))
        {
            return Err(err(
                e,
                "a leader kind has either one 'lead X' line or several named modes".into(),
            ));
        }
        let mut mode = LeadMode {
            leader: leader as u8,
            name: name.into(),
            budget: 0,
            others: u8::MAX,
            activates: u16::MAX,
            remap: Vec::new(),
        };
        for clause in e.value.split(',').map(str::trim) {
            let parts: Vec<&str> = clause.split_whitespace().collect();
            let count = |n: &str| {
                n.parse::<u8>()
                    .ok()
                    .filter(|n| (1..=64).contains(n))
                    .ok_or_else(|| err(e, format!("'{clause}': expected a number 1..64")))
            };
            match parts.as_slice() {
                ["budget", n] => mode.budget = count(n)?,
                ["others", n] => mode.others = count(n)?,
                ["activates", letters] => {
                    mode.activates = 0;
                    for c in letters.chars() {
                        mode.activates |= 1 << letter_kind(e, c)?;
                    }
                }
                [kind, "moves", betza] if kind.chars().count() == 1 => {
                    let k = letter_kind(e, kind.chars().next().unwrap_or(' '))?;
                    let compile = |forward| {
                        MoveSet::compile(betza, geometry, forward)
                            .map_err(|b| err(e, format!("'{clause}': {}", b.0)))
                    };
                    mode.remap.push((
                        k as u8,
                        betza.to_string(),
                        Box::new([compile(1)?, compile(-1)?]),
                    ));
                }
                _ => {
                    return Err(err(
                        e,
                        format!(
                            "'{clause}': expected 'budget N', 'others N', 'activates LETTERS' \
                             or 'X moves BETZA'"
                        ),
                    ))
                }
            }
        }
        if mode.budget == 0 {
            return Err(err(
                e,
                "missing 'budget N' (activations a turn, itself included)".into(),
            ));
        }
        mode.others = mode.others.min(mode.budget);
        modes.push(mode);
    }
    if modes.len() > 64 {
        return Err(err(&entries[0], "at most 64 lead modes".into()));
    }
    Ok(modes)
}
