//! `cohort uci`: the UCI protocol for the `chess` variant, enough for python-chess's engine
//! client and UCI GUIs. The search is the engine crate's, as in every other game.

use cohort_rules::Rules;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use cohort_engine::EngineAgent;
use cohort_rules::{builtin, Game, Position, Side, Step, StepList};

pub fn run() {
    let variant = builtin("chess").expect("chess is built in");
    let mut game = Game::new(variant.start());
    let stop = Arc::new(AtomicBool::new(false));
    let mut worker: Option<JoinHandle<()>> = None;
    let mut threads = 1usize;
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        match cmd {
            "uci" => {
                say("id name Cohort");
                say("id author the Cohort team");
                say("option name Threads type spin default 1 min 1 max 2");
                say("uciok");
            }
            "isready" => say("readyok"),
            "ucinewgame" => game = Game::new(variant.start()),
            "setoption" => {
                // setoption name Threads value N
                if words
                    .get(2)
                    .is_some_and(|w| w.eq_ignore_ascii_case("threads"))
                {
                    threads = words
                        .get(4)
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(1usize)
                        .clamp(1, 2);
                }
            }
            "debug" | "register" | "ponderhit" => {}
            "position" => match set_position(&variant, &words[1..]) {
                Ok(g) => game = g,
                Err(e) => say(&format!("info string error: {e}")),
            },
            "go" => {
                finish(&mut worker, &stop);
                let limits = Limits::parse(&words[1..], game.position().side_to_move(), threads);
                let pos = game.position().clone();
                stop.store(false, Ordering::SeqCst);
                let stop2 = stop.clone();
                worker = Some(std::thread::spawn(move || {
                    let best = search(pos, limits, &stop2);
                    say(&format!("bestmove {best}"));
                }));
            }
            "stop" => finish(&mut worker, &stop),
            "quit" => {
                finish(&mut worker, &stop);
                return;
            }
            other => say(&format!("info string unknown command '{other}'")),
        }
    }
    finish(&mut worker, &stop);
}

fn say(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn finish(worker: &mut Option<JoinHandle<()>>, stop: &AtomicBool) {
    if let Some(w) = worker.take() {
        stop.store(true, Ordering::SeqCst);
        let _ = w.join();
    }
}

fn set_position(variant: &Arc<cohort_rules::Variant>, words: &[&str]) -> Result<Game, String> {
    let (start, rest) = match words.first() {
        Some(&"startpos") => (variant.start(), &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            let fen = words[1..end].join(" ");
            (
                Position::parse(variant, &fen).map_err(|e| e.to_string())?,
                &words[end..],
            )
        }
        _ => return Err("position needs 'startpos' or 'fen <fen>'".into()),
    };
    let mut game = Game::new(start);
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            let step = game.position().parse_step(m)?;
            game.play(step)?;
        }
    }
    Ok(game)
}

struct Limits {
    deadline: Option<Duration>,
    depth: u32,
    threads: usize,
}

impl Limits {
    fn parse(words: &[&str], side: Side, threads: usize) -> Limits {
        let num = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse::<i64>().ok())
        };
        let depth = num("depth").map_or(64, |d| d.clamp(1, 64) as u32);
        let (time, inc) = match side {
            Side::White => (num("wtime"), num("winc")),
            Side::Black => (num("btime"), num("binc")),
        };
        let deadline = if words.contains(&"infinite") {
            None
        } else if let Some(mt) = num("movetime") {
            Some(mt.max(1))
        } else if let Some(t) = time {
            let togo = num("movestogo").unwrap_or(30).max(1) as u64;
            let inc = inc.unwrap_or(0).max(0) as u64;
            Some(cohort_engine::clock_turn_time(t.max(0) as u64, inc, togo) as i64)
        } else if num("depth").is_some() {
            None
        } else {
            Some(1000)
        };
        Limits {
            deadline: deadline.map(|ms| Duration::from_millis(ms as u64)),
            depth,
            threads,
        }
    }
}

const MATE: i32 = cohort_engine::search::WIN;

/// Iterative deepening with the engine crate's search; always answers a legal move when
/// there is one ("0000" otherwise).
fn search(pos: Position, limits: Limits, stop: &AtomicBool) -> String {
    let engine = EngineAgent::new(pos.variant());
    let started = Instant::now();
    let engine_limits = cohort_engine::Limits {
        time: limits.deadline,
        nodes: None,
        seed: 1,
        threads: limits.threads,
        clock: None,
    };
    let (out, _) = engine.think_limited(
        &pos,
        &engine_limits,
        limits.depth,
        Some(stop),
        |out, nodes| {
            let ms = started.elapsed().as_millis().max(1);
            let score = if out.score.abs() > MATE - 1000 {
                let plies = MATE - out.score.abs();
                format!(
                    "mate {}",
                    if out.score > 0 {
                        (plies + 1) / 2
                    } else {
                        -(plies + 1) / 2
                    }
                )
            } else {
                format!("cp {}", out.score)
            };
            say(&format!(
                "info depth {} score {score} nodes {nodes} nps {} time {ms} pv {}",
                out.depth,
                nodes as u128 * 1000 / ms,
                uci_line(&pos, &out.pv).join(" ")
            ));
        },
    );
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    match out.best.or(list.iter().next().copied()) {
        Some(best) => pos.step_uci(best),
        None => "0000".into(),
    }
}

fn uci_line(pos: &Position, pv: &[Step]) -> Vec<String> {
    let mut p = pos.clone();
    pv.iter()
        .map(|&s| {
            let t = p.step_uci(s);
            p.make(s);
            t
        })
        .collect()
}
