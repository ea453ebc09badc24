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

/// `cohort review <records or folders> --time MS`: every turn of each record marked as the
/// server's analyses mark it (`cohort_engine::marks::review`, one engine per game, one
/// thread), one line a game and a total: turns, inaccuracies, mistakes, blunders, and the
/// share marked a mistake or worse (issue 46's measure of marks that can be trusted: the
/// engine's own turns, analysed at its own time, should rarely be marked).
pub fn review(paths: &[String], ms: u64, verify_ms: Option<u64>) -> Result<(), Fail> {
    use cohort_engine::marks;
    let mut files = vec![];
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| Fail(format!("{p}: {e}")))?;
        if meta.is_dir() {
            let mut inside: Vec<String> = std::fs::read_dir(p)
                .map_err(|e| Fail(format!("{p}: {e}")))?
                .filter_map(|e| e.ok().map(|e| e.path().display().to_string()))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        return Err(Fail("review: no record given".into()));
    }
    let time = std::time::Duration::from_millis(ms.max(1));
    let mut total = [0usize; 4];
    // Turns the rule before judging marks a mistake or worse (White's, Black's).
    let mut old_rule = [0usize; 2];
    // Marks of a mistake or worse searched again deeper (`--verify`): how many there were,
    // and how many the deeper search marks a mistake or worse too.
    let verify = verify_ms.map(|ms| std::time::Duration::from_millis(ms.max(1)));
    let (mut checked, mut confirmed) = (0usize, 0usize);
    let mover_index = |white: bool| usize::from(!white);
    for (n, path) in files.iter().enumerate() {
        let text = read(path)?;
        let record = Record::parse(&text).map_err(|e| Fail(format!("{path}: {e}")))?;
        let variant = record
            .variant(None)
            .map_err(|e| Fail(format!("{path}: {e}")))?;
        let replayed = record
            .replay(&variant)
            .map_err(|e| Fail(format!("{path}: {e}")))?;
        let mut engine = cohort_engine::EngineAgent::new(&variant);
        let mut game = Game::new(replayed.game.start().clone());
        let steps = replayed.steps;
        let mut counts = [0usize; 4];
        // The rule before judging (a point's score against the next point's), for the
        // comparison: the previous point's side, score for White and whether it was the
        // engine's own turn.
        let mut before: Option<(bool, i32, bool)> = None;
        let mut i = 0;
        while i < steps.len() && game.result().is_none() {
            // The turn played from here: its steps until the side to move changes.
            let mover = game.position().side_to_move();
            let mut probe = game.clone();
            let from = i;
            while i < steps.len() && probe.result().is_none() {
                if probe.play(steps[i]).is_err() {
                    return Err(Fail(format!("{path}: step {} does not replay", i + 1)));
                }
                i += 1;
                if probe.position().side_to_move() != mover {
                    break;
                }
            }
            let played = &steps[from..i];
            engine.adapt_to(&game);
            let r = marks::review(&mut engine, &game, Some(played), time);
            let white = mover == cohort_rules::Side::White;
            let score = if white {
                r.choice.score
            } else {
                -r.choice.score
            };
            if let Some((w, s, own)) = before {
                if marks::turn_mark(w, s, score, own).0 >= 0.10 {
                    old_rule[mover_index(w)] += 1;
                }
            }
            before = Some((white, score, r.choice.steps.as_slice() == played));
            counts[0] += 1;
            let mark = r.judged.and_then(|j| marks::judged_mark(&j).1);
            match mark {
                Some("inaccuracy") => counts[1] += 1,
                Some("mistake") => counts[2] += 1,
                Some("blunder") => counts[3] += 1,
                _ => {}
            }
            if let (Some(deeper), Some("mistake" | "blunder")) = (verify, mark) {
                // A fresh engine (nothing learnt from the first look) at the deeper effort.
                let mut deep = cohort_engine::EngineAgent::new(&variant);
                deep.adapt_to(&game);
                let d = marks::review(&mut deep, &game, Some(played), deeper);
                let again = d.judged.and_then(|j| marks::judged_mark(&j).1);
                checked += 1;
                confirmed += usize::from(matches!(again, Some("mistake" | "blunder")));
            }
            game = probe;
        }
        for k in 0..4 {
            total[k] += counts[k];
        }
        println!(
            "{}/{} {path}: {} turns, {} inaccuracies, {} mistakes, {} blunders",
            n + 1,
            files.len(),
            counts[0],
            counts[1],
            counts[2],
            counts[3]
        );
    }
    let bad = total[2] + total[3];
    let pct = |n: usize| 100.0 * n as f64 / total[0].max(1) as f64;
    println!(
        "total: {} games, {} turns, {} inaccuracies, {} mistakes, {} blunders; mistakes or worse: {:.1}%",
        files.len(),
        total[0],
        total[1],
        total[2],
        total[3],
        pct(bad)
    );
    println!(
        "by the rule before judging (a point's score against the next one's): mistakes or worse: {} ({:.1}%)",
        old_rule[0] + old_rule[1],
        pct(old_rule[0] + old_rule[1])
    );
    if let Some(ms) = verify_ms {
        println!(
            "searched again at {ms} ms: {confirmed} of {checked} mistakes or worse confirmed ({:.0}%)",
            100.0 * confirmed as f64 / checked.max(1) as f64
        );
    }
    Ok(())
}
