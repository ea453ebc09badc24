//! The engine protocol of docs/protocol.md: `cohort engine` speaks it on standard input and
//! output, and `ProtocolEngine` drives any program that speaks it (`cohort bot`, and the
//! `cmd:<command>` agent of `cohort match`).

use cohort_rules::Rules;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use cohort_engine::{Agent, EngineAgent, Limits, Stats, TurnChoice, Watch};
use cohort_rules::{builtin_variants, parse_variants, Game, Position, Step, StepList, Variant};

pub const PROTOCOL_VERSION: u32 = 1;

fn say(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// One line of text for an `error` line: no line breaks.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Session {
    variant: Arc<Variant>,
    game: Game,
}

/// `variant <id>` or `variant <file> [<id>]`.
fn select_variant(words: &[&str]) -> Result<Arc<Variant>, String> {
    let builtins = builtin_variants();
    let Some(&first) = words.first() else {
        return Err("variant needs a built-in id or a variant file path".into());
    };
    if let Some(v) = builtins.iter().find(|v| v.id == first) {
        if words.len() > 1 {
            return Err(format!(
                "variant {first}: unexpected '{}'",
                words[1..].join(" ")
            ));
        }
        return Ok(v.clone());
    }
    let looks_like_file =
        first.contains('/') || first.contains('.') || std::path::Path::new(first).exists();
    if !looks_like_file {
        let ids: Vec<&str> = builtins.iter().map(|v| v.id.as_str()).collect();
        return Err(format!(
            "unknown variant '{first}' (built in: {}; or give a variant file path)",
            ids.join(", ")
        ));
    }
    let text = std::fs::read_to_string(first)
        .map_err(|e| format!("cannot read variant file {first}: {e}"))?;
    let found = parse_variants(first, &text, &builtins).map_err(|e| e.to_string())?;
    match words.get(1) {
        None => Ok(found[0].clone()),
        Some(id) => found.iter().find(|v| v.id == *id).cloned().ok_or_else(|| {
            let ids: Vec<&str> = found.iter().map(|v| v.id.as_str()).collect();
            format!(
                "{first} defines no variant '{id}' (it defines {})",
                ids.join(", ")
            )
        }),
    }
}

/// `position startpos|<position string> [steps <step>...]`: a new game, every step checked.
fn set_position(variant: &Arc<Variant>, words: &[&str]) -> Result<Game, String> {
    let split = words
        .iter()
        .position(|w| *w == "steps")
        .unwrap_or(words.len());
    let (head, steps) = (&words[..split], words.get(split + 1..).unwrap_or(&[]));
    let start = match head {
        [] => return Err("position needs 'startpos' or a position string".into()),
        ["startpos"] => variant.start(),
        text => Position::parse(variant, &text.join(" ")).map_err(|e| format!("position: {e}"))?,
    };
    let mut game = Game::new(start);
    for (i, text) in steps.iter().enumerate() {
        game.play_text(text)
            .map_err(|e| format!("step {} '{text}': {e}", i + 1))?;
    }
    Ok(game)
}

/// Time for one turn from `go`'s fields: `time <ms>` (the turn's budget), or the side's
/// remaining clock `wtime`/`btime` with increments `winc`/`binc` (and `turnstogo`); with a
/// clock, the clocks too (the engine may then spend more on a critical turn).
fn turn_time(
    words: &[&str],
    white: bool,
) -> Result<(Option<Duration>, Option<cohort_engine::Clock>), String> {
    let mut fields = std::collections::HashMap::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            fields.insert(key, 0);
            i += 1;
            continue;
        }
        let known = [
            "time",
            "wtime",
            "btime",
            "winc",
            "binc",
            "turnstogo",
            "depth",
            "nodes",
        ];
        if !known.contains(&key) {
            return Err(format!(
                "go: unknown field '{key}' (known: time, wtime, btime, winc, binc, turnstogo, depth, nodes, infinite)"
            ));
        }
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("go: '{key}' needs a number"))?;
        let n: u64 = value
            .parse()
            .map_err(|_| format!("go: '{key} {value}': not a whole number"))?;
        fields.insert(key, n);
        i += 2;
    }
    let (clock, inc) = if white {
        ("wtime", "winc")
    } else {
        ("btime", "binc")
    };
    Ok(if fields.contains_key("infinite") {
        (None, None)
    } else if let Some(&t) = fields.get("time") {
        (Some(Duration::from_millis(t.max(1))), None)
    } else if let Some(&left) = fields.get(clock) {
        // The other side's clock, when not given, is taken to be the same.
        let get = |key: &str, own: u64| fields.get(key).copied().unwrap_or(own);
        let own_inc = fields.get(inc).copied().unwrap_or(0);
        let c = cohort_engine::Clock {
            left_ms: [get("wtime", left), get("btime", left)],
            inc_ms: [get("winc", own_inc), get("binc", own_inc)],
            turns_to_go: fields.get("turnstogo").copied(),
        };
        let side = if white {
            cohort_rules::Side::White
        } else {
            cohort_rules::Side::Black
        };
        (Some(c.turn_time(side)), Some(c))
    } else if fields.contains_key("depth") || fields.contains_key("nodes") {
        (None, None)
    } else {
        (Some(Duration::from_millis(1000)), None)
    })
}

fn go_number(words: &[&str], key: &str) -> Option<u64> {
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1))
        .and_then(|v| v.parse().ok())
}

/// `cohort engine`: read commands until `quit` or the end of input; each search on
/// `threads` threads.
pub fn run_engine(threads: usize) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut worker: Option<JoinHandle<()>> = None;
    let mut session: Option<Session> = None;
    let mut infinite = false;
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        let busy = worker.as_ref().is_some_and(|w| !w.is_finished());
        if busy && !matches!(cmd, "stop" | "quit" | "isready") {
            if infinite {
                say(&format!(
                    "error '{}' while thinking without a limit (go infinite): send stop first",
                    one_line(cmd)
                ));
                continue;
            }
            // A search with a limit ends by itself: the command waits for its bestturn.
            if let Some(w) = worker.take() {
                let _ = w.join();
            }
        }
        match cmd {
            "cohort" => {
                say("id name Cohort");
                say("id author the Cohort team");
                say(&format!("protocol {PROTOCOL_VERSION}"));
                let ids: Vec<String> = builtin_variants().iter().map(|v| v.id.clone()).collect();
                say(&format!("variants {}", ids.join(" ")));
                say("ready");
            }
            "isready" => say("ready"),
            "variant" => match select_variant(&words[1..]) {
                Ok(v) => {
                    say(&format!("variant {} {}", v.id, v.name));
                    session = Some(Session {
                        game: Game::new(v.start()),
                        variant: v,
                    });
                }
                Err(e) => say(&format!("error {}", one_line(&e))),
            },
            "position" => match &mut session {
                None => say("error position before variant: send 'variant <id>' first"),
                Some(s) => match set_position(&s.variant, &words[1..]) {
                    Ok(g) => s.game = g,
                    Err(e) => say(&format!("error {}", one_line(&e))),
                },
            },
            "steps" => match &session {
                None => say("error steps before variant: send 'variant <id>' first"),
                Some(s) => {
                    let mut list = StepList::new();
                    s.game.legal_steps(&mut list);
                    let pos = s.game.position();
                    let texts: Vec<String> = list.iter().map(|&st| pos.step_text(st)).collect();
                    say(format!("steps {}", texts.join(" ")).trim_end());
                }
            },
            "show" => match &session {
                None => say("error show before variant: send 'variant <id>' first"),
                Some(s) => {
                    let pos = s.game.position();
                    let result = match s.game.result() {
                        None => "*".to_string(),
                        Some((o, r)) => {
                            format!("{} {}", result_token(o), r.describe().replace(' ', "-"))
                        }
                    };
                    say(&format!(
                        "show side {} turnstart {} result {result} position {}",
                        pos.side_to_move().name().to_lowercase(),
                        pos.at_turn_start(),
                        pos.to_text()
                    ));
                }
            },
            "go" => {
                let Some(s) = &session else {
                    say("error go before variant: send 'variant <id>' first");
                    continue;
                };
                if let Some((o, r)) = s.game.result() {
                    say(&format!(
                        "error the game is over ({} {}): no turn to play",
                        result_token(o),
                        r.describe()
                    ));
                    continue;
                }
                let white = s.game.position().side_to_move() == cohort_rules::Side::White;
                let (time, clock) = match turn_time(&words[1..], white) {
                    Ok(t) => t,
                    Err(e) => {
                        say(&format!("error {}", one_line(&e)));
                        continue;
                    }
                };
                finish(&mut worker, &stop);
                infinite = time.is_none()
                    && go_number(&words[1..], "depth").is_none()
                    && go_number(&words[1..], "nodes").is_none();
                let limits = Limits {
                    time,
                    nodes: go_number(&words[1..], "nodes"),
                    seed: 1,
                    threads,
                    clock,
                };
                let depth = go_number(&words[1..], "depth").map_or(64, |d| d.clamp(1, 64) as u32);
                let game = s.game.clone();
                stop.store(false, Ordering::SeqCst);
                let stop2 = stop.clone();
                worker = Some(std::thread::spawn(move || {
                    let steps = best_turn(&game, &limits, depth, &stop2);
                    let mut p = game.position().clone();
                    let words: Vec<String> = steps
                        .iter()
                        .map(|&st| {
                            let t = p.step_text(st);
                            p.make(st);
                            t
                        })
                        .collect();
                    say(&format!("bestturn {}", words.join(" ")));
                }));
            }
            "stop" => finish(&mut worker, &stop),
            "quit" => {
                finish(&mut worker, &stop);
                return;
            }
            other => say(&format!(
                "error unknown command '{}' (docs/protocol.md lists them)",
                one_line(other)
            )),
        }
    }
    finish(&mut worker, &stop);
}

fn result_token(o: cohort_rules::Outcome) -> &'static str {
    match o {
        cohort_rules::Outcome::Win(cohort_rules::Side::White) => "1-0",
        cohort_rules::Outcome::Win(cohort_rules::Side::Black) => "0-1",
        cohort_rules::Outcome::Draw => "1/2-1/2",
    }
}

fn finish(worker: &mut Option<JoinHandle<()>>, stop: &AtomicBool) {
    if let Some(w) = worker.take() {
        stop.store(true, Ordering::SeqCst);
        let _ = w.join();
    }
}

/// The rest of the side to move's turn, as the engine agent chooses it (`Agent::
/// choose_turn`: one search per step, each with the time left, a critical turn longer on a
/// clock), with an `info` line for each finished depth of each step's search. Always a
/// complete turn: when stopped (`stop` ends it at once) or out of time, the remaining steps
/// are the first legal ones, `end` as soon as it is legal.
fn best_turn(game: &Game, limits: &Limits, max_depth: u32, stop: &AtomicBool) -> Vec<Step> {
    let mut engine = EngineAgent::new(game.position().variant());
    let started = Instant::now();
    let root = game.position().clone();
    let mut report = |made: &[Step], out: &cohort_engine::search::Outcome_, nodes: u64| {
        let mut p = root.clone();
        for &s in made {
            p.make(s);
        }
        let ms = started.elapsed().as_millis().max(1);
        say(&format!(
            "info depth {} score {} nodes {nodes} time {ms} pv {}",
            out.depth,
            out.score,
            line_text(&p, &out.pv)
        ));
    };
    engine
        .choose_turn_watched(
            game,
            limits,
            Watch {
                stop: Some(stop),
                max_depth,
                report: &mut report,
            },
        )
        .steps
}

fn line_text(pos: &Position, steps: &[Step]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &s in steps {
        if !p.is_legal(s) {
            break;
        }
        out.push(p.step_text(s));
        p.make(s);
    }
    out.join(" ")
}

/// A program that speaks the protocol, driven from here.
pub struct ProtocolEngine {
    child: Child,
    input: ChildStdin,
    lines: mpsc::Receiver<String>,
    _reader: JoinHandle<()>,
    pub name: String,
    /// Every line it printed that is not an answer awaited (for error messages).
    pub log: Vec<String>,
}

impl ProtocolEngine {
    /// Start `command` (program and arguments) and shake hands: `cohort` until `ready`.
    pub fn start(command: &[String], timeout: Duration) -> Result<ProtocolEngine, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| "no engine command given".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start engine '{}': {e}", command.join(" ")))?;
        let input = child.stdin.take().expect("piped");
        let output: ChildStdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = ProtocolEngine {
            child,
            input,
            lines: rx,
            _reader: reader,
            name: command.join(" "),
            log: vec![],
        };
        e.send("cohort")?;
        let mut name = None;
        e.wait_for(timeout, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = Some(n.to_string());
            }
            l == "ready"
        })?;
        if let Some(n) = name {
            e.name = n;
        }
        Ok(e)
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("engine '{}' stopped reading its input: {e}", self.name))
    }

    /// Read lines until `done` says a line is the awaited one (which is returned). An
    /// `error` line is an error; so are the engine's exit and the timeout.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    if let Some(msg) = line.strip_prefix("error") {
                        return Err(format!("engine '{}': error{msg}", self.name));
                    }
                    if done(&line) {
                        return Ok(line);
                    }
                    self.log.push(line);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "engine '{}' did not answer within {} ms",
                        self.name,
                        timeout.as_millis()
                    ))
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(format!("engine '{}' exited", self.name))
                }
            }
        }
    }

    /// Select the variant (`variant <id>`), answered with `variant <id> ...`.
    pub fn variant(&mut self, id: &str) -> Result<(), String> {
        self.send(&format!("variant {id}"))?;
        self.wait_for(Duration::from_secs(10), |l| l.starts_with("variant "))
            .map(|_| ())
    }

    /// Set the position (start and steps so far, `end`s included), let it think for `time`
    /// (or, on a clock, as the clocks say: `go wtime .. btime .. winc .. binc ..`) and return
    /// the steps of its `bestturn`.
    pub fn best_turn(
        &mut self,
        start: &str,
        steps: &[String],
        time: Duration,
        clock: Option<&cohort_engine::Clock>,
    ) -> Result<Vec<String>, String> {
        let mut line = format!("position {start}");
        if !steps.is_empty() {
            line += " steps ";
            line += &steps.join(" ");
        }
        self.send(&line)?;
        let (go, wait) = match clock {
            Some(c) => {
                let mut go = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    c.left_ms[0], c.left_ms[1], c.inc_ms[0], c.inc_ms[1]
                );
                if let Some(n) = c.turns_to_go {
                    go += &format!(" turnstogo {n}");
                }
                let most = Duration::from_millis(c.left_ms[0].max(c.left_ms[1]));
                (go, most)
            }
            None => (format!("go time {}", time.as_millis().max(1)), time * 3),
        };
        self.send(&go)?;
        // Generous: the engine's own time plus start-up and slack for a loaded machine.
        let answer = self.wait_for(wait + Duration::from_secs(10), |l| {
            l == "bestturn" || l.starts_with("bestturn ")
        })?;
        Ok(answer
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect())
    }
}

impl Drop for ProtocolEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `cmd:<command line>` as a match agent: the program plays through the protocol. A program
/// that fails (does not start, errs, answers an illegal turn) loses the game by the match's
/// rules: its turn comes back empty or illegal.
pub struct ProtocolAgent {
    command: Vec<String>,
    variant: String,
    engine: Option<ProtocolEngine>,
    pub failure: Option<String>,
}

impl ProtocolAgent {
    pub fn new(command_line: &str, variant: &str) -> ProtocolAgent {
        ProtocolAgent {
            command: command_line
                .split_whitespace()
                .map(str::to_string)
                .collect(),
            variant: variant.to_string(),
            engine: None,
            failure: None,
        }
    }

    fn turn(&mut self, game: &Game, limits: &Limits) -> Result<Vec<Step>, String> {
        if self.engine.is_none() {
            let mut e = ProtocolEngine::start(&self.command, Duration::from_secs(20))?;
            e.variant(&self.variant)?;
            self.engine = Some(e);
        }
        let engine = self.engine.as_mut().expect("started");
        let start = game.start().to_text();
        let mut p = game.start().clone();
        let played: Vec<String> = game
            .steps()
            .iter()
            .map(|&s| {
                let t = p.step_text(s);
                p.make(s);
                t
            })
            .collect();
        let time = limits.time.unwrap_or(Duration::from_millis(1000));
        let texts = engine.best_turn(&start, &played, time, limits.clock.as_ref())?;
        let mut pos = game.position().clone();
        let mut steps = vec![];
        for t in &texts {
            let s = pos
                .parse_step(t)
                .map_err(|e| format!("bestturn step '{t}': {e}"))?;
            pos.make(s);
            steps.push(s);
        }
        Ok(steps)
    }
}

impl Agent for ProtocolAgent {
    fn name(&self) -> String {
        format!("cmd:{}", self.command.join(" "))
    }
    fn choose_turn(&mut self, game: &Game, limits: &Limits) -> TurnChoice {
        let started = Instant::now();
        let steps = match self.turn(game, limits) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}: {e}", self.name());
                self.failure = Some(e);
                self.engine = None;
                vec![]
            }
        };
        TurnChoice {
            steps,
            stats: Stats {
                elapsed: started.elapsed(),
                ..Stats::default()
            },
            ..TurnChoice::default()
        }
    }
}
