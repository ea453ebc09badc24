//! `cohort uci`: the UCI protocol for the `chess` variant, enough for python-chess's engine
//! client and UCI GUIs. The search is a compact alpha-beta (material and piece-square
//! tables, iterative deepening, quiescence on captures) over the rules core's chess.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use cohort_rules::{builtin, Game, Position, Side, Step, StepKind, StepList};

pub fn run() {
    let variant = builtin("chess").expect("chess is built in");
    let mut game = Game::new(variant.start());
    let stop = Arc::new(AtomicBool::new(false));
    let mut worker: Option<JoinHandle<()>> = None;
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        match cmd {
            "uci" => {
                say("id name Cohort");
                say("id author the Cohort team");
                say("uciok");
            }
            "isready" => say("readyok"),
            "ucinewgame" => game = Game::new(variant.start()),
            "setoption" | "debug" | "register" | "ponderhit" => {}
            "position" => match set_position(&variant, &words[1..]) {
                Ok(g) => game = g,
                Err(e) => say(&format!("info string error: {e}")),
            },
            "go" => {
                finish(&mut worker, &stop);
                let limits = Limits::parse(&words[1..], game.position().side_to_move());
                let pos = game.position().clone();
                let history: Vec<u64> = history_hashes(&game);
                stop.store(false, Ordering::SeqCst);
                let stop2 = stop.clone();
                worker = Some(std::thread::spawn(move || {
                    let best = search(pos, history, limits, &stop2);
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

fn history_hashes(game: &Game) -> Vec<u64> {
    let mut p = game.start().clone();
    let mut out = vec![p.hash()];
    for &s in game.steps() {
        p.make(s);
        out.push(p.hash());
    }
    out
}

struct Limits {
    deadline: Option<Duration>,
    depth: u32,
}

impl Limits {
    fn parse(words: &[&str], side: Side) -> Limits {
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
            let togo = num("movestogo").unwrap_or(30).max(1);
            Some((t / togo + inc.unwrap_or(0) * 3 / 4).min(t / 2).max(1))
        } else if num("depth").is_some() {
            None
        } else {
            Some(1000)
        };
        Limits {
            deadline: deadline.map(|ms| Duration::from_millis(ms as u64)),
            depth,
        }
    }
}

// Piece values and a centre bonus, indexed by piece letter.
fn value(letter: char) -> i32 {
    match letter {
        'P' => 100,
        'N' => 320,
        'B' => 330,
        'R' => 500,
        'Q' => 900,
        _ => 0,
    }
}

fn evaluate(pos: &Position) -> i32 {
    let v = pos.variant();
    let mut score = 0;
    for u in pos.units() {
        let letter = v.pieces[u.kind as usize].letter;
        let (f, r) = (u.square.file() as i32, u.square.rank() as i32);
        let centre = 7 - ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2;
        let advance = if u.side == Side::White { r } else { 7 - r };
        let bonus = match letter {
            'P' => advance * 6 + if (2..=5).contains(&f) { centre } else { 0 },
            'N' | 'B' => centre * 4,
            'Q' => centre,
            _ => 0,
        };
        let s = value(letter) + bonus;
        score += if u.side == Side::White { s } else { -s };
    }
    if pos.side_to_move() == Side::White {
        score
    } else {
        -score
    }
}

const MATE: i32 = 1_000_000;

struct Search<'a> {
    nodes: u64,
    started: Instant,
    deadline: Option<Duration>,
    stop: &'a AtomicBool,
    stopped: bool,
    history: Vec<u64>,
}

impl Search<'_> {
    fn out_of_time(&mut self) -> bool {
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| self.started.elapsed() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn is_capture(pos: &Position, s: Step) -> bool {
        pos.unit_at(s.to).is_some() || matches!(s.kind, StepKind::Promote(_))
    }

    fn ordered(pos: &Position, first: Option<Step>) -> Vec<Step> {
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let v = pos.variant();
        let key = |s: &Step| {
            if Some(*s) == first {
                return i32::MIN;
            }
            let victim = pos
                .unit_at(s.to)
                .map_or(0, |u| value(v.pieces[u.kind as usize].letter));
            let attacker = pos
                .unit_at(s.from)
                .map_or(0, |u| value(v.pieces[u.kind as usize].letter));
            let promo = if matches!(s.kind, StepKind::Promote(_)) {
                800
            } else {
                0
            };
            -(victim * 10 - attacker / 10 + promo)
        };
        let mut steps: Vec<Step> = list.iter().copied().collect();
        steps.sort_by_key(key);
        steps
    }

    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let stand = evaluate(pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        for s in Self::ordered(pos, None) {
            if !Self::is_capture(pos, s) {
                continue;
            }
            let undo = pos.make(s);
            let score = -self.quiesce(pos, -beta, -alpha);
            pos.unmake(s, undo);
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        pv: &mut Vec<Step>,
    ) -> i32 {
        if self.out_of_time() {
            return 0;
        }
        self.nodes += 1;
        if ply > 0
            && self
                .history
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .any(|&h| h == pos.hash())
        {
            return 0; // a repetition is scored as a draw
        }
        let steps = Self::ordered(pos, pv.first().copied());
        if steps.is_empty() {
            return if pos.in_check() { -MATE + ply } else { 0 };
        }
        if depth == 0 {
            return self.quiesce(pos, alpha, beta);
        }
        let mut best = -MATE - 1;
        let mut best_line = Vec::new();
        for s in steps {
            let undo = pos.make(s);
            self.history.push(pos.hash());
            let mut line = if Some(s) == pv.first().copied() {
                pv[1..].to_vec()
            } else {
                Vec::new()
            };
            let score = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, &mut line);
            self.history.pop();
            pos.unmake(s, undo);
            if self.stopped {
                return best.max(alpha);
            }
            if score > best {
                best = score;
                best_line = std::iter::once(s).chain(line).collect();
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        *pv = best_line;
        best
    }
}

/// Iterative deepening; always returns a legal move when there is one ("0000" otherwise).
fn search(mut pos: Position, history: Vec<u64>, limits: Limits, stop: &AtomicBool) -> String {
    let mut s = Search {
        nodes: 0,
        started: Instant::now(),
        deadline: limits.deadline,
        stop,
        stopped: false,
        history,
    };
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    let Some(&fallback) = list.iter().next() else {
        return "0000".into();
    };
    let mut best = fallback;
    let mut pv: Vec<Step> = Vec::new();
    for depth in 1..=limits.depth {
        let mut line = pv.clone();
        let score = s.negamax(&mut pos, depth, 0, -MATE - 1, MATE + 1, &mut line);
        if s.stopped && depth > 1 {
            break;
        }
        if let Some(&first) = line.first() {
            best = first;
            pv = line;
        }
        let ms = s.started.elapsed().as_millis().max(1);
        let pv_text: Vec<String> = uci_line(&pos, &pv);
        let score_text = if score.abs() > MATE - 1000 {
            let plies = MATE - score.abs();
            format!(
                "mate {}",
                if score > 0 {
                    (plies + 1) / 2
                } else {
                    -(plies + 1) / 2
                }
            )
        } else {
            format!("cp {score}")
        };
        say(&format!(
            "info depth {depth} score {score_text} nodes {} nps {} time {ms} pv {}",
            s.nodes,
            s.nodes as u128 * 1000 / ms,
            pv_text.join(" ")
        ));
        if s.stopped
            || score.abs() > MATE - 1000
            || limits.deadline.is_some_and(|d| s.started.elapsed() * 2 > d)
        {
            break;
        }
    }
    pos.step_uci(best)
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
