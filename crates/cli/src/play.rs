//! `cohort play`: a terminal game, human against human, one step per line.

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

/// The board, highest rank first. A unit that may move now is marked with '*'; groups show
/// as a digit after the letter. Units that moved this turn are marked '+'.
fn show(pos: &Position) {
    let v = pos.variant();
    let geo = &v.geometry;
    let movable = pos.movable_units();
    let groups = !v.groups.is_empty();
    println!();
    for rank in (0..geo.ranks).rev() {
        let mut row = format!("{:>2} ", rank + 1);
        for file in 0..geo.files {
            let sq = Square::new(file, rank);
            let cell = match pos.unit_at(sq) {
                None => " . ".to_string(),
                Some(u) => {
                    let l = v.pieces[u.kind as usize].letter;
                    let l = if u.side == Side::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    let g = if groups {
                        char::from_digit(u.group as u32 + 1, 10).unwrap_or('?')
                    } else {
                        ' '
                    };
                    if let Some(p) = pos.pinned_at(sq) {
                        let pl = v.pieces[p.kind as usize].letter;
                        let pl = if p.side == Side::White {
                            pl
                        } else {
                            pl.to_ascii_lowercase()
                        };
                        row += &format!("{l}~{pl}");
                        continue;
                    }
                    let mark = if pos.turn().moved.has(sq) {
                        '+'
                    } else if movable.has(sq) {
                        '*'
                    } else {
                        ' '
                    };
                    format!("{l}{g}{mark}")
                }
            };
            row += &cell;
        }
        println!("{row}");
    }
    let files: String = (0..geo.files)
        .map(|f| format!(" {} ", (b'a' + f) as char))
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
}
