//! A variant's board: a rectangle (`board = 16x12`) or sheets (`board = sheets`).

use super::file::Entry;
use super::VariantError;
use crate::bitboard::{Bitboard, Square};
use crate::geometry::{Geometry, Sheet};
pub(super) type ErrFn<'a> = dyn Fn(&Entry, String) -> VariantError + 'a;

/// `board = FILESxRANKS`: one rectangle.
pub(super) fn parse_rectangle(board: &Entry, err: &ErrFn) -> Result<Geometry, VariantError> {
    let (files, ranks) = board
        .value
        .split_once('x')
        .and_then(|(f, r)| Some((f.trim().parse::<u8>().ok()?, r.trim().parse::<u8>().ok()?)))
        .filter(|(f, r)| (1..=16).contains(f) && (1..=16).contains(r))
        .ok_or_else(|| {
            err(
                board,
                format!("expected FILESxRANKS, each 1..16, found '{}'", board.value),
            )
        })?;
    Ok(Geometry::rectangle(files, ranks))
}

/// `board = sheets`: labelled `files` and `ranks` (bottom to top), and `sheet NAME = rows |
/// squares` lines. A sheet's rows are rank labels bottom to top; its squares are names and
/// rectangles `a1:h8` (files and frame ranks between the corners, inclusive).
pub(super) fn parse_sheets(
    entries: &[Entry],
    board: &Entry,
    err: &ErrFn,
) -> Result<Geometry, VariantError> {
    let labels = |key: &str| -> Result<(Vec<String>, &Entry), VariantError> {
        let e = entries
            .iter()
            .rev()
            .find(|e| e.key == key)
            .ok_or_else(|| err(board, format!("board = sheets needs a '{key}' line")))?;
        let v: Vec<String> = e.value.split_whitespace().map(String::from).collect();
        if v.is_empty() || v.len() > 16 {
            return Err(err(e, "expected 1 to 16 labels separated by spaces".into()));
        }
        for (i, l) in v.iter().enumerate() {
            if v[..i].contains(l) {
                return Err(err(e, format!("label '{l}' is repeated")));
            }
        }
        Ok((v, e))
    };
    let (file_labels, fe) = labels("files")?;
    let (rank_labels, _) = labels("ranks")?;
    if file_labels
        .iter()
        .any(|l| l.len() != 1 || !l.as_bytes()[0].is_ascii_lowercase())
    {
        return Err(err(fe, "file labels are single lower-case letters".into()));
    }
    let frame = Geometry::with_sheets(
        file_labels.clone(),
        rank_labels.clone(),
        vec![Sheet {
            name: String::new(),
            rows: (0..rank_labels.len() as u8).collect(),
            squares: Geometry::rectangle(file_labels.len() as u8, rank_labels.len() as u8).squares,
        }],
    );
    let mut sheets = Vec::new();
    for e in entries.iter().filter(|e| e.key.starts_with("sheet ")) {
        let name = e.key["sheet ".len()..].trim().to_string();
        let (rows_text, squares_text) = e
            .value
            .split_once('|')
            .ok_or_else(|| err(e, "expected 'rows | squares'".into()))?;
        let mut rows = Vec::new();
        for l in rows_text.split_whitespace() {
            let r = rank_labels
                .iter()
                .position(|x| x == l)
                .ok_or_else(|| err(e, format!("'{l}' is not a rank label")))?;
            if rows.last().is_some_and(|&p| p >= r as u8) {
                return Err(err(
                    e,
                    format!("rows go bottom to top: '{l}' is out of order"),
                ));
            }
            rows.push(r as u8);
        }
        let mut squares = Bitboard::EMPTY;
        for part in squares_text.split_whitespace() {
            let sq = |t: &str| {
                frame
                    .parse_square(t)
                    .ok_or_else(|| err(e, format!("'{t}' is not a square of the files and ranks")))
            };
            let (a, b) = match part.split_once(':') {
                Some((a, b)) => (sq(a)?, sq(b)?),
                None => (sq(part)?, sq(part)?),
            };
            for r in a.rank().min(b.rank())..=a.rank().max(b.rank()) {
                for f in a.file().min(b.file())..=a.file().max(b.file()) {
                    let s = Square::new(f, r);
                    if !rows.contains(&r) {
                        return Err(err(
                            e,
                            format!(
                                "{part}: rank '{}' is not a row of sheet {name}",
                                rank_labels[r as usize]
                            ),
                        ));
                    }
                    squares.set(s);
                }
            }
        }
        sheets.push(Sheet {
            name,
            rows,
            squares,
        });
    }
    if sheets.is_empty() || sheets.len() > 2 {
        return Err(err(
            board,
            "board = sheets needs one or two 'sheet NAME = rows | squares' lines".into(),
        ));
    }
    Ok(Geometry::with_sheets(file_labels, rank_labels, sheets))
}
