//! `cohort play`: a terminal game, human against human, one step per line.

use cohort_rules::{Explain, Rules, SearchHooks};
use std::io::{self, BufRead, Write};

use cohort_rules::{Game, Outcome, Position, Side, Square, StepList};

const HELP: &str =
    "steps: e2-e4 (or e2xe4; Lifeform: c4~c6 pins, K@e1 places), 'end' closes the turn,\n\
       'undo' takes back a step of this turn, 'moves' lists legal steps, 'draw' agrees a draw,\n\
       'resign', 'quit'";

pub fn run(start: Position) {
    let mut game = Game::new(start);
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    println!("{HELP}");
    loop {
        show(game.position());
        if let Some((outcome, reason)) = game.result() {
            match outcome {
                Outcome::Win(s) => println!("{} wins ({}).", s.name(), reason.describe()),
                Outcome::Draw => println!("Draw ({}).", reason.describe()),
            }
            return;
        }
        let pos = game.position();
        print!(
            "{} {}> ",
            pos.side_to_move().name(),
            if pos.at_turn_start() {
                "to move"
            } else {
                "continues"
            }
        );
        let _ = io::stdout().flush();
        let Some(Ok(line)) = lines.next() else { return };
        let line = line.trim();
        match line {
            "" => continue,
            "quit" | "exit" => return,
            "help" => println!("{HELP}"),
            "undo" => {
                if !game.undo() {
                    println!("nothing to undo in this turn");
                }
            }
            "moves" => {
                let mut list = StepList::new();
                game.legal_steps(&mut list);
                let words: Vec<String> =
                    list.iter().map(|s| game.position().step_text(*s)).collect();
                println!("{} legal steps: {}", words.len(), words.join(" "));
            }
            "draw" => game.agree_draw(),
            "resign" => {
                let side = game.position().side_to_move();
                game.resign(side);
            }
            step => {
                if let Err(e) = game.play_text(step) {
                    println!("error: {e}");
                }
            }
        }
    }
}

/// The board, highest rank first. Every square is a cell of the same width whose first
/// character is the unit's letter ('.' for an empty square), under the file letter: a unit
/// that may move now is marked '*' and one that moved this turn '+', after the letter and
/// its group digit (groups only). Lifeform's shared squares show as `B~p` (pinning unit ~
/// pinned unit), marked the same way. A blank ends every cell, so cells never run together.
fn show(pos: &Position) {
    let v = pos.variant();
    let geo = &v.geometry;
    let movable = pos.movable_units();
    let groups = !v.groups.is_empty();
    let pins = v.stacked_units();
    // Letter, group digit or the `~p` of a pin, mark, and the blank.
    let cell_width = if pins {
        5
    } else if groups {
        4
    } else {
        3
    };
    let letter = |kind: u8, side: Side| {
        let l = v.pieces[kind as usize].letter;
        if side == Side::White {
            l
        } else {
            l.to_ascii_lowercase()
        }
    };
    println!();
    for rank in (0..geo.ranks).rev() {
        // Labelled ranks (Chessma 84: 1' and 8' are rows of their own).
        let label = geo
            .rank_labels
            .get(rank as usize)
            .cloned()
            .unwrap_or_else(|| (rank + 1).to_string());
        let mut row = format!("{label:>2} ");
        for file in 0..geo.files {
            let sq = Square::new(file, rank);
            let mut cell = match pos.unit_at(sq) {
                // A cell that is no square of the board (Chessma 84's frame).
                None if !geo.squares.has(sq) => " ".to_string(),
                None => ".".to_string(),
                Some(u) => {
                    let mut c = letter(u.kind, u.side).to_string();
                    if let Some(p) = pos.pinned_at(sq) {
                        c.push('~');
                        c.push(letter(p.kind, p.side));
                    } else if groups {
                        c.push(char::from_digit(u.group as u32 + 1, 10).unwrap_or('?'));
                    }
                    if pos.moved_this_turn().has(sq) {
                        c.push('+');
                    } else if movable.has(sq) {
                        c.push('*');
                    }
                    c
                }
            };
            while cell.chars().count() < cell_width {
                cell.push(' ');
            }
            row += &cell;
        }
        println!("{row}");
    }
    let files: String = (0..geo.files)
        .map(|f| match geo.file_labels.get(f as usize) {
            Some(l) => format!("{l:<cell_width$}"),
            None => format!("{:<cell_width$}", (b'a' + f) as char),
        })
        .collect();
    println!("   {files}");
    let names: Vec<String> = movable.iter().map(|s| geo.square_name(s)).collect();
    println!(
        "may move now (*): {}",
        if names.is_empty() {
            "none".into()
        } else {
            names.join(" ")
        }
    );
    // The lead model's turn starts by naming its leader: list those steps.
    let mut list = cohort_rules::StepList::new();
    pos.legal_steps(&mut list);
    let leads: Vec<String> = list
        .iter()
        .filter(|s| matches!(s.kind, cohort_rules::StepKind::Lead(_)))
        .map(|s| pos.step_text(*s))
        .collect();
    if !leads.is_empty() {
        println!("start the turn with its leader: {}", leads.join(" "));
    }
}
