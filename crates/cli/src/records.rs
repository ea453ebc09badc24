//! `cohort replay`, `cohort record export` and the records `cohort match --records` writes
//! (docs/records.md).

use cohort_rules::Rules;
use std::sync::Arc;

use cohort_engine::matches::GameRecord;
use cohort_engine::record::{date_of_unix_ms, Record};
use cohort_rules::{Game, Position, Variant};

use crate::Fail;

fn read(path: &str) -> Result<String, Fail> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Fail(format!("cannot read standard input: {e}")))?;
        return Ok(s);
    }
    std::fs::read_to_string(path).map_err(|e| Fail(format!("cannot read {path}: {e}")))
}

/// `cohort replay <file>`: check every step; print the final position on success.
pub fn replay(path: &str, variant_file: Option<&str>) -> Result<(), Fail> {
    let text = read(path)?;
    let record = Record::parse(&text).map_err(|e| Fail(format!("{path}: {e}")))?;
    let file_text = match variant_file {
        Some(f) => Some(read(f)?),
        None => None,
    };
    let variant = record
        .variant(file_text.as_deref())
        .map_err(|e| Fail(format!("{path}: {e}")))?;
    let replayed = record
        .replay(&variant)
        .map_err(|e| Fail(format!("{path}: {e}")))?;
    let turns = record.turns.len();
    let steps = record.step_count();
    let state = match replayed.game.result() {
        Some((_, r)) => format!("over ({}, {})", record.result(), r.describe()),
        None => format!("result {}", record.result()),
    };
    println!(
        "ok: {} {turns} turns, {steps} steps, every step legal; {state}",
        variant.id
    );
    println!("{}", replayed.game.position().to_text());
    Ok(())
}

/// `cohort record export --database <url> <game id>`: a stored game's record.
pub fn export(database: &str, id: &str) -> Result<(), Fail> {
    let text = crate::serve::stored_record(database, id)?;
    print!("{text}");
    Ok(())
}

/// The record of a game `cohort match` played: the game replayed from its start (the
/// opening turns included), the players, the date, the match's result and ending.
pub fn match_record(
    variant: &Arc<Variant>,
    variant_file: Option<&str>,
    game: &GameRecord,
    round: usize,
) -> Result<String, String> {
    let start = Position::parse(variant, &game.start).map_err(|e| e.to_string())?;
    let mut g = Game::new(start);
    for (i, turn) in game.turns.iter().enumerate() {
        let side = g.position().side_to_move();
        for s in turn {
            g.play_text(s).map_err(|e| format!("{s}: {e}"))?;
        }
        // Every turn was closed but the last one of a game lost by an illegal step or an
        // unfinished turn, which stays open.
        let cut = i + 1 == game.turns.len() && game.illegal.is_some();
        if !cut && g.result().is_none() && g.position().side_to_move() == side {
            g.play(cohort_rules::Step::END)
                .map_err(|e| format!("end of turn {}: {e}", i + 1))?;
        }
    }
    let mut r = Record::from_game(&g);
    r.set_tag("Event", "cohort match");
    r.set_tag("Round", round.to_string());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    r.set_tag("Date", date_of_unix_ms(now));
    r.set_tag("White", game.white.clone());
    r.set_tag("Black", game.black.clone());
    r.set_tag("Result", game.result.clone());
    r.set_tag("Termination", game.reason.clone());
    if let Some(text) = variant_file {
        r.set_tag("VariantFile", text);
    }
    Ok(r.to_text())
}
