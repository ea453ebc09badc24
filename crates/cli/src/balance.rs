//! `cohort balance` and `cohort balance merge`: a thin layer over crates/balance.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::{Args, Subcommand};
use cohort_balance::{report, GameResult, Settings, Shard, StudyFile};
use cohort_rules::{builtin_variants, parse_variants, Variant};

use crate::{Fail, Res, VariantArgs};

/// Engine self-play statistics for a variant (docs/balance.md).
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BalanceCmd {
    #[command(subcommand)]
    merge: Option<Merge>,
    #[command(flatten)]
    study: StudyArgs,
}

#[derive(Subcommand)]
enum Merge {
    /// Join the shards of one study (their --json files) into one summary and report.
    Merge {
        /// The shards' --json files, in any order.
        #[arg(required = true)]
        files: Vec<String>,
        #[command(flatten)]
        out: Outputs,
    },
}

#[derive(Args)]
struct Outputs {
    /// Write the HTML report (self-contained, SVG charts) here.
    #[arg(long)]
    out: Option<String>,
    /// Write the games and the summary as JSON here (the input of `balance merge`).
    #[arg(long)]
    json: Option<String>,
    /// Write the summary as markdown here.
    #[arg(long)]
    md: Option<String>,
}

#[derive(Args)]
struct StudyArgs {
    /// Variant id (see `cohort variants`), or a variant file that defines one variant.
    #[arg(long, required = true)]
    variant: Option<String>,
    /// A variant file to load besides the built-ins; --variant then names one of its variants.
    #[arg(long)]
    variant_file: Option<String>,
    /// Games in the study (all shards together).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Milliseconds per turn (the clock: games then differ from run to run). Default 200
    /// when neither --nodes nor --depth is given.
    #[arg(long)]
    time: Option<u64>,
    /// Node budget of a turn's first step search (later steps a quarter): deterministic.
    #[arg(long)]
    nodes: Option<u64>,
    /// Deepest search per step, in steps (1-64): deterministic.
    #[arg(long)]
    depth: Option<u32>,
    /// The study's seed; game g plays from a seed derived from it and g.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Play only the games g with g % n == i (same seeds as the whole study), e.g. 0/4.
    #[arg(long)]
    shard: Option<String>,
    /// Random turns from the start before the engines take over, so games differ.
    #[arg(long, default_value_t = 2)]
    opening_turns: usize,
    /// A game still going after this many turns is drawn (the draw rules come first).
    #[arg(long, default_value_t = 400)]
    max_turns: usize,
    #[command(flatten)]
    out: Outputs,
}

pub fn run(cmd: BalanceCmd) -> Res<()> {
    match cmd.merge {
        Some(Merge::Merge { files, out }) => merge(&files, &out),
        None => study(cmd.study),
    }
}

/// The command line as typed, with `cohort` for the program, quoted where needed.
fn command_line() -> String {
    let mut words = vec!["cohort".to_string()];
    for a in std::env::args().skip(1) {
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "'\"$\\".contains(c)) {
            words.push(format!("'{}'", a.replace('\'', "'\\''")));
        } else {
            words.push(a);
        }
    }
    words.join(" ")
}

/// Open every output file before the study runs, so a bad path fails at once.
struct Sinks {
    html: Option<(String, File)>,
    json: Option<(String, File)>,
    md: Option<(String, File)>,
}

impl Sinks {
    fn open(o: &Outputs) -> Res<Sinks> {
        let open = |flag: &str, p: &Option<String>| -> Res<Option<(String, File)>> {
            match p {
                None => Ok(None),
                Some(path) => File::create(path)
                    .map(|f| Some((path.clone(), f)))
                    .map_err(|e| Fail(format!("{flag} {path}: cannot write: {e}"))),
            }
        };
        Ok(Sinks {
            html: open("--out", &o.out)?,
            json: open("--json", &o.json)?,
            md: open("--md", &o.md)?,
        })
    }

    fn write(self, study: &StudyFile) -> Res<()> {
        let put = |sink: Option<(String, File)>, text: String| -> Res<()> {
            if let Some((path, mut f)) = sink {
                f.write_all(text.as_bytes())
                    .and_then(|_| f.flush())
                    .map_err(|e| Fail(format!("cannot write {path}: {e}")))?;
                eprintln!("wrote {path}");
            }
            Ok(())
        };
        put(self.json, study.to_json())?;
        put(self.md, report::markdown(study))?;
        put(self.html, report::html(study))
    }
}

/// `--variant` as an id, or as a variant file defining one variant.
fn load_variant(args: &StudyArgs) -> Res<Arc<Variant>> {
    let name = args.variant.clone().unwrap_or_default();
    if args.variant_file.is_none() && std::path::Path::new(&name).is_file() {
        let text = std::fs::read_to_string(&name)
            .map_err(|e| Fail(format!("cannot read variant file {name}: {e}")))?;
        let found =
            parse_variants(&name, &text, &builtin_variants()).map_err(|e| Fail(e.to_string()))?;
        return match found.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(Fail(format!("variant file {name} defines no variant"))),
            many => Err(Fail(format!(
                "variant file {name} defines {} variants ({}): use --variant-file {name} --variant <id>",
                many.len(),
                many.iter().map(|v| v.id.as_str()).collect::<Vec<_>>().join(", ")
            ))),
        };
    }
    crate::variant(&VariantArgs {
        variant: name,
        variant_file: args.variant_file.clone(),
    })
}

fn study(a: StudyArgs) -> Res<()> {
    let variant = load_variant(&a)?;
    if a.games == 0 {
        return Err(Fail("--games must be at least 1".into()));
    }
    if a.time == Some(0) || a.nodes == Some(0) {
        return Err(Fail("--time and --nodes must be at least 1".into()));
    }
    if a.depth.is_some_and(|d| !(1..=64).contains(&d)) {
        return Err(Fail("--depth must be between 1 and 64".into()));
    }
    if a.max_turns == 0 || a.opening_turns >= a.max_turns {
        return Err(Fail(format!(
            "--max-turns ({}) must be above --opening-turns ({})",
            a.max_turns, a.opening_turns
        )));
    }
    let threads = match a.threads {
        Some(0) => return Err(Fail("--threads must be at least 1".into())),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let shard = match &a.shard {
        Some(s) => Shard::parse(s).map_err(Fail)?,
        None => Shard::WHOLE,
    };
    if a.shard.is_some() && a.out.json.is_none() {
        return Err(Fail(
            "--shard needs --json <file>: a shard's games are merged from its JSON file".into(),
        ));
    }
    let time = match (a.time, a.nodes, a.depth) {
        (None, None, None) => Some(200),
        (t, _, _) => t,
    };
    let settings = Settings::new(
        &variant,
        a.games,
        time,
        a.nodes,
        a.depth,
        a.seed,
        a.opening_turns,
        a.max_turns,
    );
    let count = shard.games(a.games).len();
    if count == 0 {
        return Err(Fail(format!(
            "--shard {shard} holds no game of a {}-game study",
            a.games
        )));
    }
    let sinks = Sinks::open(&a.out)?;
    let started = Instant::now();
    let games = play(&variant, &settings, shard, threads, count);
    let file = StudyFile::new(
        settings,
        shard,
        command_line(),
        started.elapsed().as_secs_f64(),
        threads,
        games,
    );
    print!("{}", report::text(&file));
    println!(
        "{} games in {:.0} s on {threads} thread(s){}",
        file.games.len(),
        file.wall_seconds,
        if file.settings.deterministic() {
            " (deterministic: no clock)"
        } else {
            " (on the clock: not reproducible)"
        }
    );
    sinks.write(&file)
}

/// Run the games with a progress bar (or, when standard error is not a terminal, a line at
/// every tenth of the games).
fn play(
    variant: &Arc<Variant>,
    settings: &Settings,
    shard: Shard,
    threads: usize,
    count: usize,
) -> Vec<GameResult> {
    let bar = indicatif::ProgressBar::new(count as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} {bar:30} {pos}/{len} games {elapsed} eta {eta} {msg}",
        )
        .unwrap(),
    );
    bar.set_prefix(format!("balance {}", variant.id));
    let terminal = std::io::stderr().is_terminal();
    let tally = Mutex::new([0usize; 3]);
    let done = AtomicUsize::new(0);
    let started = Instant::now();
    let on_game = |g: &GameResult| {
        let msg = {
            let mut t = tally.lock().unwrap();
            t[match g.result.as_str() {
                "1-0" => 0,
                "0-1" => 2,
                _ => 1,
            }] += 1;
            format!("White +{} ={} Black +{}", t[0], t[1], t[2])
        };
        let n = done.fetch_add(1, Ordering::SeqCst) + 1;
        if terminal {
            bar.set_message(msg);
            bar.inc(1);
        } else if n * 10 / count != (n - 1) * 10 / count || n == count {
            eprintln!(
                "balance {}: {n}/{count} games, {:.0} s, {msg}",
                variant.id,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let games = cohort_balance::run(variant, settings, shard, threads, &on_game);
    bar.finish_and_clear();
    games
}

fn merge(files: &[String], out: &Outputs) -> Res<()> {
    let mut studies = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Fail(format!("cannot read study file {path}: {e}")))?;
        studies.push((path.clone(), StudyFile::parse(path, &text).map_err(Fail)?));
    }
    let merged = cohort_balance::merge(studies).map_err(Fail)?;
    let sinks = Sinks::open(out)?;
    print!("{}", report::text(&merged));
    sinks.write(&merged)
}
