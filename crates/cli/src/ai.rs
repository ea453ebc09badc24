//! `cohort analyze`, `cohort match` and `cohort bench`: the AI on the command line.

use cohort_rules::Rules;
use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cohort_engine::matches::{elo, play_game, GameRecord};
use cohort_engine::{agent, los, EngineAgent, Hypothesis, Limits, Rng, Sprt, Watch};
use cohort_rules::{Game, Position, StepList, Variant};

use crate::Fail;

/// `engine`, `greedy`, `random`, optionally with its own time per turn: `engine:250`.
pub struct AgentSpec {
    pub name: String,
    pub time_ms: Option<u64>,
}

impl AgentSpec {
    /// The agent as written on the command line: `engine`, or `engine:400` with its own time.
    pub fn label(&self) -> String {
        match self.time_ms {
            Some(ms) => format!("{}:{ms}", self.name),
            None => self.name.clone(),
        }
    }
}

pub fn parse_agent(text: &str) -> Result<AgentSpec, Fail> {
    // A program speaking the engine protocol (docs/protocol.md), one game per process.
    if let Some(command) = text.strip_prefix("cmd:") {
        if command.trim().is_empty() {
            return Err(Fail(format!(
                "agent '{text}': cmd: needs a command, like 'cmd:python3 examples/bot.py'"
            )));
        }
        return Ok(AgentSpec {
            name: text.into(),
            time_ms: None,
        });
    }
    let (name, time) = match text.split_once(':') {
        Some((n, t)) => {
            let ms = t.parse::<u64>().ok().filter(|&ms| ms > 0).ok_or_else(|| {
                Fail(format!(
                    "agent '{text}': the time after ':' must be milliseconds, like engine:250"
                ))
            })?;
            (n, Some(ms))
        }
        None => (text, None),
    };
    if !cohort_engine::is_agent(name) {
        return Err(Fail(format!(
            "unknown agent '{name}' (known: random, greedy, engine, planner, level1 to level8, mix-R-G-N, cmd:<command>)"
        )));
    }
    Ok(AgentSpec {
        name: name.into(),
        time_ms: time,
    })
}

/// One search of the position within `time_ms`, reported depth by depth; then the turn it
/// chose, its score and its line (which begins with that turn), and the search's statistics.
pub fn analyze(
    pos: Position,
    time_ms: u64,
    nodes: Option<u64>,
    threads: usize,
) -> Result<(), Fail> {
    let game = Game::new(pos);
    if let Some((o, r)) = game.result() {
        return Err(Fail(format!(
            "the game is already over ({o:?}, {})",
            r.describe()
        )));
    }
    let pos = game.position();
    let side = pos.side_to_move().name();
    // A free set-up is placed by rule (docs/lifeform.md), as the engine plays it: no search.
    if let Some(choice) = cohort_engine::placement_turn(&game, 1) {
        let turn = line_text(pos, &choice.steps);
        println!("turn: {turn}");
        println!("score: 0 (for {side}; a set-up turn is placed by rule, not searched)");
        println!("pv: {turn}");
        println!("stats: nodes 0 nodes/s 0 depth 0 tt hit rate 0.0% time 0 ms (no search)");
        return Ok(());
    }
    let mut engine = EngineAgent::new(pos.variant());
    // The evaluation the engine would play this game with.
    engine.adapt_to(&game);
    let limits = Limits {
        time: Some(Duration::from_millis(time_ms)),
        nodes,
        seed: 1,
        threads,
        clock: None,
    };
    // The turn the engine plays (one search per step, as `cohort engine` and the server's
    // AI seats play it); the depths printed are the first step's search.
    let mut report =
        |made: &[cohort_rules::Step], out: &cohort_engine::search::Outcome_, nodes: u64| {
            if made.is_empty() {
                println!(
                    "depth {} score {} nodes {} pv {}",
                    out.depth,
                    out.score,
                    nodes,
                    line_text(pos, &out.pv)
                );
            }
        };
    let choice = engine.choose_turn_watched(
        &game,
        &limits,
        Watch {
            stop: None,
            max_depth: 64,
            report: &mut report,
        },
    );
    if choice.steps.is_empty() || choice.stats.depth == 0 {
        return Err(Fail(format!(
            "--time {time_ms}: not enough time to search one step"
        )));
    }
    let st = &choice.stats;
    println!("turn: {}", line_text(pos, &choice.steps));
    println!("score: {} (for {side})", choice.score);
    println!("pv: {}", line_text(pos, &choice.pv));
    println!(
        "stats: nodes {} nodes/s {:.0} depth {} tt hit rate {:.1}% time {} ms",
        st.nodes,
        st.nodes_per_second(),
        st.depth,
        st.tt_hit_rate() * 100.0,
        st.elapsed.as_millis(),
    );
    Ok(())
}

fn line_text(pos: &Position, steps: &[cohort_rules::Step]) -> String {
    let mut p = pos.clone();
    let words: Vec<String> = steps
        .iter()
        .map(|s| {
            let t = p.step_text(*s);
            p.make(*s);
            t
        })
        .collect();
    words.join(" ")
}

/// The agent of a spec: a built-in one, or a protocol program (`cmd:`).
fn make_agent(
    spec: &AgentSpec,
    variant: &Arc<Variant>,
    protocol_variant: &str,
) -> Box<dyn cohort_engine::Agent> {
    match spec.name.strip_prefix("cmd:") {
        Some(command) => Box::new(crate::protocol::ProtocolAgent::new(
            command,
            protocol_variant,
        )),
        None => agent(&spec.name, variant).expect("checked by parse_agent"),
    }
}

pub struct MatchArgs {
    pub a: AgentSpec,
    pub b: AgentSpec,
    pub games: usize,
    pub time_ms: u64,
    pub threads: usize,
    pub search_threads: usize,
    pub seed: u64,
    pub out: Option<String>,
    /// A directory for one record file per game.
    pub records: Option<String>,
    /// The variant file's text, for records of a variant that is not built in.
    pub variant_file: Option<String>,
    /// `variant` command for `cmd:` agents: the id, or a variant file's path and the id.
    pub protocol_variant: String,
    pub opening_turns: usize,
    pub max_turns: usize,
    /// Played on a clock (`--clock`): each game starts with these clocks.
    pub clock: Option<cohort_engine::Clock>,
    /// A sequential test of agent a: the match stops once it accepts a hypothesis.
    pub sprt: Option<Sprt>,
}

/// The start of pair `pair`: the variant's start after a few seeded random turns, so that
/// deterministic agents do not replay one game; both games of a pair share it.
fn opening(variant: &Arc<Variant>, start: &Position, turns: usize, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    for _ in 0..100 {
        let mut p = start.clone();
        let mut list = StepList::new();
        let mut ok = true;
        for _ in 0..turns {
            let side = p.side_to_move();
            while p.side_to_move() == side {
                p.legal_steps(&mut list);
                if list.is_empty() || p.outcome().is_some() {
                    ok = false;
                    break;
                }
                // End the turn after one or two unit moves: openings stay modest.
                let end = list.iter().find(|s| s.is_end()).copied();
                let s = match end {
                    Some(e) if rng.below(2) == 0 => e,
                    _ => list.as_slice()[rng.below(list.len())],
                };
                p.make(s);
            }
            if !ok {
                break;
            }
        }
        if ok && Game::new(p.clone()).result().is_none() {
            return p;
        }
    }
    let _ = variant;
    start.clone()
}

/// Plays the match, `--threads` games at once, and prints its summary.
///
/// With an SPRT, the verdict is checked after every finished game. Once it is decided no new
/// pair starts: games already running finish and count, and so does the second game of a
/// pair whose first game has started (pairs stay whole unless `--games` is odd). The verdict
/// printed is the one reached then, when a bound was first crossed (the test's error chances
/// hold for that stopping rule); the LLR printed is that of every game played, the late ones
/// included, so it may have moved back inside the bounds.
pub fn run_match(start: Position, args: MatchArgs) -> Result<(), Fail> {
    let variant = start.variant().clone();
    let out = Mutex::new(match &args.out {
        Some(path) => {
            Some(File::create(path).map_err(|e| Fail(format!("cannot write {path}: {e}")))?)
        }
        None => None,
    });
    let limits = |spec: &AgentSpec, seed: u64| Limits {
        time: Some(Duration::from_millis(spec.time_ms.unwrap_or(args.time_ms))),
        nodes: None,
        seed,
        threads: args.search_threads,
        clock: args.clock,
    };
    let bar = indicatif::ProgressBar::new(args.games as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} {bar:30} {pos}/{len} games {elapsed} eta {eta} {msg}",
        )
        .unwrap(),
    );
    bar.set_prefix(format!("{} {} vs {}", variant.id, args.a.name, args.b.name));
    // The next game to start, and the SPRT's verdict once reached, with the number of games
    // it was reached after: one lock, so no new pair starts after the stop is seen.
    let schedule = Mutex::new((0usize, None::<(Hypothesis, u32)>));
    let results: Mutex<Vec<(usize, GameRecord, bool)>> = Mutex::new(Vec::new());
    let tally = Mutex::new((0u32, 0u32, 0u32));
    let record_errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let i = {
                    let mut s = schedule.lock().unwrap();
                    let (i, stopped) = *s;
                    // Stopped: the second game of a started pair still plays, no new pair.
                    if i >= args.games || (stopped.is_some() && i.is_multiple_of(2)) {
                        break;
                    }
                    s.0 += 1;
                    i
                };
                let pair = (i / 2) as u64;
                let start = opening(
                    &variant,
                    &start,
                    args.opening_turns,
                    args.seed ^ ((pair + 1) * 0x9E37),
                );
                let a_white = i.is_multiple_of(2);
                let mut a = make_agent(&args.a, &variant, &args.protocol_variant);
                let mut b = make_agent(&args.b, &variant, &args.protocol_variant);
                let (la, lb) = (
                    limits(&args.a, args.seed + pair),
                    limits(&args.b, args.seed + pair + 1_000_003),
                );
                let mut record = if a_white {
                    play_game(start, a.as_mut(), &la, b.as_mut(), &lb, args.max_turns)
                } else {
                    play_game(start, b.as_mut(), &lb, a.as_mut(), &la, args.max_turns)
                };
                // The record names each side as the match did (`engine:400`), so games
                // of an agent against itself at two speeds can be told apart.
                let (white, black) = if a_white {
                    (&args.a, &args.b)
                } else {
                    (&args.b, &args.a)
                };
                (record.white, record.black) = (white.label(), black.label());
                let a_score = if a_white {
                    record.white_score()
                } else {
                    1.0 - record.white_score()
                };
                {
                    let mut t = tally.lock().unwrap();
                    match a_score {
                        s if s > 0.75 => t.0 += 1,
                        s if s < 0.25 => t.2 += 1,
                        _ => t.1 += 1,
                    }
                    bar.set_message(format!("a: +{} ={} -{}", t.0, t.1, t.2));
                    if let Some(sprt) = &args.sprt {
                        let mut s = schedule.lock().unwrap();
                        if s.1.is_none() {
                            s.1 = sprt.verdict(t.0, t.1, t.2).map(|h| (h, t.0 + t.1 + t.2));
                        }
                    }
                }
                bar.inc(1);
                // Each game is written as it ends, so a long match interrupted keeps its games.
                if let Some(f) = out.lock().unwrap().as_mut() {
                    let _ = writeln!(f, "{}", record.to_json()).and_then(|_| f.flush());
                }
                if let Some(dir) = &args.records {
                    let path =
                        std::path::Path::new(dir).join(format!("{}-{:04}.txt", variant.id, i + 1));
                    let written = crate::records::match_record(
                        &variant,
                        args.variant_file.as_deref(),
                        &record,
                        i + 1,
                    )
                    .and_then(|text| {
                        std::fs::write(&path, text)
                            .map_err(|e| format!("cannot write {}: {e}", path.display()))
                    });
                    if let Err(e) = written {
                        record_errors
                            .lock()
                            .unwrap()
                            .push(format!("game {}: {e}", i + 1));
                    }
                }
                results.lock().unwrap().push((i, record, a_white));
            });
        }
    });
    bar.finish_and_clear();
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    // Largest overrun of agent a and of agent b.
    let (mut max_overrun, mut illegal, mut reasons) = (
        [Duration::ZERO; 2],
        0,
        std::collections::BTreeMap::<String, u32>::new(),
    );
    // On a clock: the least agent a and agent b had left after a turn.
    let mut min_clock = [None::<u64>; 2];
    for (_, r, a_white) in &results {
        let (a, b) = if *a_white { (0, 1) } else { (1, 0) };
        max_overrun[0] = max_overrun[0].max(r.max_overrun[a]);
        max_overrun[1] = max_overrun[1].max(r.max_overrun[b]);
        for (agent, side) in [(0, a), (1, b)] {
            if let Some(ms) = r.min_clock_ms[side] {
                let m = min_clock[agent].get_or_insert(ms);
                *m = (*m).min(ms);
            }
        }
        illegal += r.illegal.is_some() as u32;
        *reasons.entry(r.reason.clone()).or_default() += 1;
    }
    let (w, d, l) = tally.into_inner().unwrap();
    let (e, ci) = elo(w, d, l);
    let turns: usize = results.iter().map(|r| r.1.turns.len()).sum();
    println!(
        "{} games, {} turns on average; endings: {}",
        results.len(),
        turns / results.len().max(1),
        reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    match (args.clock, min_clock) {
        (Some(_), [Some(a), Some(b)]) => {
            println!("illegal steps: {illegal}; least clock left after a turn: a {a} ms, b {b} ms")
        }
        _ => println!(
            "illegal steps: {illegal}; largest time overrun: a {:.1} ms, b {:.1} ms",
            max_overrun[0].as_secs_f64() * 1000.0,
            max_overrun[1].as_secs_f64() * 1000.0
        ),
    }
    println!("score: {w}-{d}-{l} elo: {e:.0} +- {ci:.0}");
    println!("los: {:.1}%", 100.0 * los(w, d, l));
    if let Some(sprt) = &args.sprt {
        let (lower, upper) = sprt.bounds();
        let llr = sprt.llr(w, d, l);
        let verdict = schedule.into_inner().unwrap().1;
        println!(
            "sprt: llr {llr:.2} ({lower:.2}, {upper:.2}) elo0 {} elo1 {}: {}",
            sprt.elo0,
            sprt.elo1,
            match verdict {
                Some((Hypothesis::H0, _)) => "H0 accepted",
                Some((Hypothesis::H1, _)) => "H1 accepted",
                None => "undecided",
            }
        );
        if let Some((_, after)) = verdict.filter(|_| results.len() < args.games) {
            println!(
                "sprt: stopped early after {} of {} games (decided after {after})",
                results.len(),
                args.games
            );
        }
    }
    let record_errors = record_errors.into_inner().unwrap();
    if let Some(first) = record_errors.first() {
        return Err(Fail(format!(
            "{} record(s) not written; the first: {first}",
            record_errors.len()
        )));
    }
    if let Some(dir) = &args.records {
        println!("records: {} files in {dir}", results.len());
    }
    Ok(())
}

/// Fixed searches to fixed depths: the node total changes only when search behaviour does.
pub fn bench() -> Result<(), Fail> {
    let cases: [(&str, &str, u32); 6] = [
        ("mini-chieftain", "", 6),
        (
            "mini-chieftain",
            "hnsc1mmh/mm4mm/2msc2n/1m6/2N1S3/2S2MMN/MMMMM1M1/H2CC2H w",
            6,
        ),
        ("chieftain", "", 3),
        ("chesimals-1", "", 4),
        ("lifeform", "", 6),
        ("chess", "", 5),
    ];
    let started = Instant::now();
    let mut total = 0u64;
    for (id, text, depth) in cases {
        let v = cohort_rules::builtin(id).expect("built in");
        let pos = if text.is_empty() {
            v.start()
        } else {
            Position::parse(&v, text).map_err(|e| Fail(e.to_string()))?
        };
        let engine = EngineAgent::new(&v);
        let t = Instant::now();
        let (out, stats) = engine.think_to_depth(&pos, depth);
        println!(
            "{id:<16} depth {depth} nodes {:>9} score {:>7} best {:<10} {:.0} nodes/s",
            stats.nodes,
            out.score,
            out.best.map_or("-".into(), |s| pos.step_text(s)),
            stats.nodes as f64 / t.elapsed().as_secs_f64().max(1e-9)
        );
        total += stats.nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    println!("nodes/s {:.0}", total as f64 / secs);
    println!("{total}");
    Ok(())
}
