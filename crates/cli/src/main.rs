//! `cohort`: a thin command line over the rules library (NOTATION.md's contract).

mod ai;
mod balance;
mod bot;
mod play;
mod protocol;
mod records;
mod serve;
mod site;
mod tune;
mod uci;

use cohort_rules::Rules;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, Subcommand};
use cohort_rules::{builtin_variants, parse_variants, perft, Position, Variant};

#[derive(Parser)]
#[command(
    name = "cohort",
    version,
    about = "Cohort: chess variants whose turns are made of many unit moves"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone)]
struct VariantArgs {
    /// Variant id (see `cohort variants`).
    #[arg(long)]
    variant: String,
    /// A variant file to load besides the built-ins (docs/variants.md).
    #[arg(long)]
    variant_file: Option<String>,
}

#[derive(Subcommand)]
enum RecordCommand {
    /// Print a stored game's record.
    Export {
        /// sqlite://<file> or postgres://user:password@host/db (or the COHORT_DATABASE
        /// environment variable, which keeps a password off the command line).
        #[arg(
            long,
            env = "COHORT_DATABASE",
            hide_env_values = true,
            default_value = "sqlite://cohort.db"
        )]
        database: String,
        /// The game id (as in /game/<id>).
        game: String,
    },
}

#[derive(Subcommand)]
enum Command {
    /// List the variant ids, one per line, first word the id.
    Variants {
        #[arg(long)]
        variant_file: Option<String>,
    },
    /// Check a variant file: every variant it defines, or the first error with its file,
    /// line and field (exit status 2); warnings for settings that do nothing or make no
    /// sense together.
    CheckVariant {
        /// The variant file (docs/variants.md).
        file: String,
    },
    /// Count legal step sequences (NOTATION.md step perft).
    Perft {
        #[command(flatten)]
        v: VariantArgs,
        #[arg(long)]
        position: Option<String>,
        #[arg(long)]
        depth: u32,
        /// One line per legal first step with its count.
        #[arg(long)]
        divide: bool,
        /// Split the first steps over this many threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Make and unmake every leaf step instead of only counting the leaves.
        #[arg(long)]
        make_leaves: bool,
    },
    /// Play one turn and print the resulting position string as the last line.
    Apply {
        #[command(flatten)]
        v: VariantArgs,
        #[arg(long)]
        position: Option<String>,
        /// Steps separated by spaces or commas; the turn is closed at its end.
        #[arg(long)]
        turn: String,
    },
    /// The UCI protocol for the `chess` variant (for python-chess and UCI GUIs).
    Uci,
    /// Search a position and print the chosen turn, its score, the line and statistics.
    Analyze {
        #[command(flatten)]
        v: VariantArgs,
        #[arg(long)]
        position: Option<String>,
        /// Milliseconds for the turn.
        #[arg(long, default_value_t = 1000)]
        time: u64,
        /// At most this many nodes for the turn as well (with one thread and a time that
        /// does not run out first, the answer is a function of the position).
        #[arg(long)]
        nodes: Option<u64>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play agents against each other in colour-swapped pairs.
    Match {
        #[command(flatten)]
        v: VariantArgs,
        /// Start position (default: the variant's), before the random opening turns.
        #[arg(long)]
        position: Option<String>,
        /// Agent a: random, greedy, engine, planner, an AI level (level1 to level8), a
        /// mixture as the levels mix their turns (mix-R-G-N: R turns in 100 at random, G
        /// greedy, the engine held to N nodes in the others) or cmd:<command>; optionally
        /// with its own time (engine:250).
        #[arg(long)]
        a: String,
        /// Agent b, as agent a.
        #[arg(long)]
        b: String,
        #[arg(long, default_value_t = 2)]
        games: usize,
        /// Milliseconds per turn for agents without their own.
        #[arg(long, default_value_t = 200)]
        time: u64,
        /// Play on a clock instead: BASE+INC seconds for each side's game, like 4+0.05.
        /// A side whose clock runs out loses; engines may spend more on critical turns.
        #[arg(long, value_name = "BASE+INC", allow_hyphen_values = true)]
        clock: Option<String>,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Search threads per engine (1 is deterministic under a node limit).
        #[arg(long, default_value_t = 1)]
        search_threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write every game as a JSON line here.
        #[arg(long)]
        out: Option<String>,
        /// Write every game's record (docs/records.md) into this directory, one file a game.
        #[arg(long)]
        records: Option<String>,
        /// Seeded random turns before each pair's games, so games differ (0: none).
        #[arg(long, default_value_t = 2)]
        opening_turns: usize,
        /// A game still going after this many turns is drawn (the draw rules come first).
        #[arg(long, default_value_t = 400)]
        max_turns: usize,
        /// Sequential test of agent a's Elo: ELO0,ELO1 (e.g. 0,10). The match stops once
        /// the SPRT accepts one of them (docs/engine.md).
        #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
        sprt: Option<String>,
        /// The SPRT's chance of accepting ELO1 when ELO0 holds (default 0.05).
        #[arg(long, requires = "sprt")]
        alpha: Option<f64>,
        /// The SPRT's chance of accepting ELO0 when ELO1 holds (default 0.05).
        #[arg(long, requires = "sprt")]
        beta: Option<f64>,
    },
    /// Engine self-play statistics for a variant, in shards if asked (docs/balance.md).
    Balance(balance::BalanceCmd),
    /// A fixed search over fixed positions: node-count signature and nodes/s.
    Bench,
    /// Write a static site into DIR: the local-play page (the rules and the engine in the
    /// browser, WebAssembly), an index of the variants, the scripts, styles and the module
    /// (docs/wasm.md). Any static file host serves it.
    Site {
        /// The folder to write (created if missing; files of the same names are replaced).
        dir: String,
    },
    /// Mark the turns of game records as the server's analyses mark them (docs/engine.md,
    /// "Marks"): each turn judged against the engine's best at the same effort; prints each
    /// game's marks and the share of turns marked a mistake or worse.
    Review {
        /// Record files, or folders of them (`cohort match --records DIR` writes one a game).
        records: Vec<String>,
        /// Milliseconds of analysis per position.
        #[arg(long, default_value_t = 1000)]
        time: u64,
        /// Search each turn marked a mistake or worse again with this many milliseconds (a
        /// fresh engine) and print how many marks the deeper search confirms.
        #[arg(long)]
        verify: Option<u64>,
    },
    /// The game server: web pages, HTTP/WebSocket API, games stored in a database.
    Serve {
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// sqlite://<file> (default ./cohort.db) or postgres://user:password@host/db; or the
        /// COHORT_DATABASE environment variable, which keeps a password off the command line
        /// (a systemd unit reads it from a 0600 EnvironmentFile: docs/deploy.md).
        #[arg(
            long,
            env = "COHORT_DATABASE",
            hide_env_values = true,
            default_value = "sqlite://cohort.db"
        )]
        database: String,
        /// AI searches running at once here, for all games together (default: the number of
        /// cores). 0 on PostgreSQL: the searches are left to other instances and `cohort worker`s.
        #[arg(long)]
        ai_workers: Option<usize>,
        /// Longest AI time per turn a new game may ask for, in milliseconds.
        #[arg(long, default_value_t = 5000)]
        ai_max_time_ms: u64,
        /// How long an AI search taken from the job queue stays this instance's without a
        /// renewal, in milliseconds: if the instance dies, another takes the job over then.
        #[arg(long, default_value_t = 15000)]
        ai_lease_ms: u64,
        /// AI-against-AI games in progress at once; more are refused until one ends.
        #[arg(long, default_value_t = 4)]
        max_ai_games: usize,
        /// Games with the AI to move one caller (an account, or an IP address) may have: its
        /// next game with an AI seat (a new game, a rematch) is refused until the AI moves.
        #[arg(long, default_value_t = 4)]
        ai_games_per_caller: usize,
        /// Games with a custom variant (a player's variant file) in progress at once.
        #[arg(long, default_value_t = 32)]
        max_custom_games: usize,
        /// Games with a custom variant one caller (IP address) may create in an hour.
        #[arg(long, default_value_t = 10)]
        custom_games_per_hour: usize,
        /// Search time one caller (an account, or an IP address) may spend on analyses in
        /// any hour.
        #[arg(long, default_value_t = 300)]
        analysis_seconds_per_hour: u64,
        /// Analyses one caller (an account, or an IP address) may start in any hour, those
        /// that cost no search included.
        #[arg(long, default_value_t = 60)]
        analyses_per_hour: u64,
        /// A game without a clock (custom variant, AI against AI) in which nothing happened
        /// for this many minutes no longer counts against the caps (it stays playable).
        #[arg(long, default_value_t = 30)]
        idle_game_minutes: u64,
        /// Mark session cookies Secure (the site is served over TLS, e.g. by a proxy).
        #[arg(long)]
        secure_cookies: bool,
        /// Behind a reverse proxy at these addresses (comma-separated; without a value:
        /// 127.0.0.1 and ::1): on connections from it, the client's address is the rightmost
        /// X-Forwarded-For entry that is not a proxy, and cookies are Secure when
        /// X-Forwarded-Proto is https. Forwarded headers from anyone else are ignored.
        #[arg(long, num_args = 0..=1, default_missing_value = "", value_name = "ADDRESSES")]
        behind_proxy: Option<String>,
        /// The site's public origin (e.g. https://cohort.example.org): pages of this origin
        /// may open WebSockets and post, besides the request's own Host; and a request for
        /// any other host (Host, or X-Forwarded-Host from a trusted proxy) than this one or
        /// a loopback name is refused (421).
        #[arg(long, value_name = "ORIGIN")]
        public_origin: Option<String>,
        /// The largest message (and frame) a client may send on a WebSocket, in bytes;
        /// a bigger one closes the socket.
        #[arg(long, default_value_t = 4096)]
        ws_max_message_bytes: usize,
        /// A WebSocket silent this long (no message, no pong to the server's pings, sent
        /// every third of it) is closed, in seconds.
        #[arg(long, default_value_t = 60)]
        ws_idle_seconds: u64,
        /// A message to a WebSocket not written within this time (a reader too slow) closes
        /// it, in seconds.
        #[arg(long, default_value_t = 10)]
        ws_write_timeout_seconds: u64,
        /// Messages a client may send on a WebSocket in a second; more close it.
        #[arg(long, default_value_t = 10)]
        ws_messages_per_second: u32,
        /// WebSockets open at once from one address.
        #[arg(long, default_value_t = 64)]
        ws_per_address: usize,
        /// WebSockets open at once on one game (its own and its chat rooms').
        #[arg(long, default_value_t = 500)]
        ws_per_game: usize,
        /// A live game whose first step has not come this long after it started is
        /// aborted, unrated, in seconds (1 to 3600).
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
        first_step_seconds: u64,
    },
    /// A machine that only thinks: takes AI searches from the job queue of a PostgreSQL
    /// database that `cohort serve` instances share, and plays them; no HTTP (docs/deploy.md).
    Worker {
        /// postgres://user:password@host/db, the database of the `cohort serve` instances (or
        /// the COHORT_DATABASE environment variable).
        #[arg(long, env = "COHORT_DATABASE", hide_env_values = true)]
        database: String,
        /// AI searches running at once (default: the number of cores).
        #[arg(long)]
        ai_workers: Option<usize>,
        /// Longest AI time per turn, in milliseconds (as the instances' --ai-max-time-ms).
        #[arg(long, default_value_t = 5000)]
        ai_max_time_ms: u64,
        /// How long a taken search stays this worker's without a renewal, in milliseconds.
        #[arg(long, default_value_t = 15000)]
        ai_lease_ms: u64,
    },
    /// Replay every game stored in a database and report any that does not replay legally
    /// (the database must exist: a missing SQLite file is an error and is not created).
    CheckGames {
        /// sqlite://<file> or postgres://user:password@host/db (or the COHORT_DATABASE
        /// environment variable, which keeps a password off the command line).
        #[arg(
            long,
            env = "COHORT_DATABASE",
            hide_env_values = true,
            default_value = "sqlite://cohort.db"
        )]
        database: String,
    },
    /// Fit a variant's piece values to recorded games (Texel tuning, docs/engine.md): prints
    /// the fitted values as a variant-file line (`values = ...`).
    Tune {
        #[command(flatten)]
        v: VariantArgs,
        /// Record files, or folders of them (`cohort match --records DIR` writes them).
        #[arg(required = true)]
        records: Vec<String>,
        /// Turns of each game left out (the seeded random openings).
        #[arg(long, default_value_t = 4)]
        skip_turns: usize,
        /// Most passes of the local search.
        #[arg(long, default_value_t = 200)]
        passes: usize,
        /// Also write a variant file with `<variant>-tuned`: the variant with these values.
        #[arg(long)]
        write: Option<String>,
    },
    /// Check a game record (docs/records.md) step by step: the first illegal step is named
    /// by its turn and step number (exit status 2); on success the final position is printed.
    Replay {
        /// The record file (`-` for standard input).
        file: String,
        /// The variant file of a record that names its variant file by its SHA-256.
        #[arg(long)]
        variant_file: Option<String>,
    },
    /// Game records: `cohort record export --database <url> <game id>`.
    Record {
        #[command(subcommand)]
        command: RecordCommand,
    },
    /// The engine protocol on standard input and output (docs/protocol.md).
    Engine {
        /// Search threads (1: deterministic under `go nodes`).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Connect a protocol engine (docs/protocol.md) to a seat of a live game on a server and
    /// play until the game ends: cohort bot --server <url> --game <id> --token <t> -- <command>.
    Bot {
        /// The server's address, e.g. http://127.0.0.1:8080.
        #[arg(long)]
        server: String,
        #[arg(long)]
        game: String,
        /// The seat's token (the invitation link's token=...).
        #[arg(long)]
        token: String,
        /// Milliseconds the engine is given per turn.
        #[arg(long, default_value_t = 1000)]
        time: u64,
        /// The engine's command line and arguments.
        #[arg(last = true, required = true)]
        command: Vec<String>,
    },
    /// A terminal game, human against human.
    Play {
        #[command(flatten)]
        v: VariantArgs,
        #[arg(long)]
        position: Option<String>,
    },
}

/// A user error: one line on standard error, exit status 2.
struct Fail(String);

type Res<T> = Result<T, Fail>;

fn main() -> ExitCode {
    // Every family from outside the rules crate is playable by every command.
    cohort_families::register();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // clap spreads a message over several lines; the contract is one line.
            let text = e.to_string();
            let parts: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:"))
                .filter(|l| !l.is_empty())
                .collect();
            let msg = parts.join(" ");
            eprintln!(
                "error: {} (see cohort --help)",
                msg.trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    // A command whose output is piped into `head` should stop quietly when the reader goes
    // away, as Unix tools do, instead of panicking on the broken pipe. The network commands
    // keep Rust's default (SIGPIPE ignored): a closed socket must not end the server.
    #[cfg(unix)]
    if !matches!(
        cli.command,
        Command::Serve { .. } | Command::Bot { .. } | Command::Worker { .. }
    ) {
        // SAFETY: restoring the default disposition of one signal before any thread starts.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// `--clock BASE+INC`: seconds on each side's clock and seconds added after each turn
/// (decimals allowed: 4+0.05).
fn parse_clock(text: &str) -> Res<cohort_engine::Clock> {
    let bad = || {
        Fail(format!(
            "--clock '{text}': want BASE+INC in seconds, like 4+0.05 (BASE above 0)"
        ))
    };
    let (base, inc) = text.split_once('+').ok_or_else(bad)?;
    let secs = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0 && *x < 1e7)
    };
    let (base, inc) = (secs(base).ok_or_else(bad)?, secs(inc).ok_or_else(bad)?);
    let base_ms = (base * 1000.0).round() as u64;
    if base_ms == 0 {
        return Err(bad());
    }
    Ok(cohort_engine::Clock::new(
        base_ms,
        (inc * 1000.0).round() as u64,
    ))
}

/// `--sprt ELO0,ELO1` with `--alpha` and `--beta` (0.05 each unless given).
fn parse_sprt(text: &str, alpha: Option<f64>, beta: Option<f64>) -> Res<cohort_engine::Sprt> {
    let bounds: Vec<&str> = text.split(',').map(str::trim).collect();
    let numbers: Option<Vec<f64>> = bounds
        .iter()
        .map(|b| b.parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect();
    let (elo0, elo1) = match numbers.as_deref() {
        Some(&[a, b]) => (a, b),
        _ => {
            return Err(Fail(format!(
                "--sprt '{text}': want two Elo numbers ELO0,ELO1, like 0,10"
            )))
        }
    };
    if elo0 >= elo1 {
        return Err(Fail(format!(
            "--sprt '{text}': ELO0 must be below ELO1, like 0,10"
        )));
    }
    let (alpha, beta) = (alpha.unwrap_or(0.05), beta.unwrap_or(0.05));
    for (flag, x) in [("--alpha", alpha), ("--beta", beta)] {
        if !(x > 0.0 && x < 0.5) {
            return Err(Fail(format!("{flag} {x}: must be between 0 and 0.5")));
        }
    }
    cohort_engine::Sprt::new(elo0, elo1, alpha, beta).map_err(|e| Fail(format!("--sprt: {e}")))
}

fn load_variants(file: Option<&str>) -> Res<Vec<Arc<Variant>>> {
    let mut all = builtin_variants();
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Fail(format!("cannot read variant file {path}: {e}")))?;
        let extra = parse_variants(path, &text, &all).map_err(|e| Fail(e.to_string()))?;
        all.extend(extra);
    }
    Ok(all)
}

/// `cohort check-variant <file>`.
fn check_variant(path: &str) -> Res<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Fail(format!("cannot read variant file {path}: {e}")))?;
    let known = builtin_variants();
    let variants = parse_variants(path, &text, &known).map_err(|e| Fail(e.to_string()))?;
    for v in &variants {
        let start = v.start();
        let model = v.command_name();
        println!(
            "[{}] {}: {}x{} board, {} piece kinds, command = {model}, {} units, {} legal first steps",
            v.id,
            v.name,
            v.geometry.files,
            v.geometry.ranks,
            v.pieces.len(),
            cohort_rules::all_units(&start).count(),
            start.count_steps()
        );
        for p in &v.pieces {
            println!("  {} {}: {}", p.letter, p.name, p.moves);
        }
    }
    let warnings = cohort_rules::variant_warnings(path, &text, &known);
    for w in &warnings {
        println!("warning: {w}");
    }
    println!(
        "ok: {} variant(s), {} warning(s)",
        variants.len(),
        warnings.len()
    );
    Ok(())
}

fn variant(args: &VariantArgs) -> Res<Arc<Variant>> {
    let all = load_variants(args.variant_file.as_deref())?;
    all.iter()
        .find(|v| v.id == args.variant)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = all.iter().map(|v| v.id.as_str()).collect();
            Fail(format!(
                "unknown variant '{}' (known: {})",
                args.variant,
                ids.join(", ")
            ))
        })
}

fn position(v: &Arc<Variant>, text: Option<&str>) -> Res<Position> {
    match text {
        None => Ok(v.start()),
        Some(t) => Position::parse(v, t).map_err(|e| Fail(format!("position: {e}"))),
    }
}

fn run(cli: Cli) -> Res<()> {
    match cli.command {
        Command::Variants { variant_file } => {
            for v in load_variants(variant_file.as_deref())? {
                println!("{:<18} {}", v.id, v.name);
            }
        }
        Command::CheckVariant { file } => check_variant(&file)?,
        Command::Perft {
            v,
            position: p,
            depth,
            divide,
            threads,
            make_leaves,
        } => {
            let v = variant(&v)?;
            let pos = position(&v, p.as_deref())?;
            if threads == 0 {
                return Err(Fail("--threads must be at least 1".into()));
            }
            let started = Instant::now();
            let total = if divide || threads > 1 {
                let rows = parallel_divide(&pos, depth, threads, make_leaves);
                let mut total = 0;
                for (step, n) in &rows {
                    if divide {
                        println!("{} {n}", pos.step_text(*step));
                    }
                    total += n;
                }
                if depth == 0 {
                    1
                } else {
                    total
                }
            } else if make_leaves {
                perft::perft_made(&mut pos.clone(), depth)
            } else {
                perft::perft(&mut pos.clone(), depth)
            };
            let secs = started.elapsed().as_secs_f64();
            let leaves = if make_leaves {
                "every leaf made and unmade"
            } else {
                "leaves counted without being made"
            };
            eprintln!(
                "{total} steps in {secs:.3} s: {:.1} M steps/s ({threads} thread(s), {leaves})",
                total as f64 / secs / 1e6
            );
            println!("{total}");
        }
        Command::Apply {
            v,
            position: p,
            turn,
        } => {
            let v = variant(&v)?;
            let mut pos = position(&v, p.as_deref())?;
            cohort_rules::apply_turn(&mut pos, &turn).map_err(|e| Fail(format!("turn: {e}")))?;
            println!("{}", pos.to_text());
        }
        Command::Uci => uci::run(),
        Command::Analyze {
            v,
            position: p,
            time,
            nodes,
            threads,
        } => {
            let v = variant(&v)?;
            let pos = position(&v, p.as_deref())?;
            if threads == 0 || time == 0 || nodes == Some(0) {
                return Err(Fail(
                    "--threads, --time and --nodes must be at least 1".into(),
                ));
            }
            ai::analyze(pos, time, nodes, threads)?;
        }
        Command::Match {
            v,
            position: p,
            a,
            b,
            games,
            time,
            clock,
            threads,
            search_threads,
            seed,
            out,
            records,
            opening_turns,
            max_turns,
            sprt,
            alpha,
            beta,
        } => {
            let clock = match clock {
                Some(text) => Some(parse_clock(&text)?),
                None => None,
            };
            let sprt = match sprt {
                Some(text) => Some(parse_sprt(&text, alpha, beta)?),
                None => None,
            };
            let variant_path = v.variant_file.clone();
            let variant_file = match &v.variant_file {
                Some(path) => Some(
                    std::fs::read_to_string(path)
                        .map_err(|e| Fail(format!("cannot read variant file {path}: {e}")))?,
                ),
                None => None,
            };
            let v = variant(&v)?;
            // A built-in variant needs no file in its records.
            let custom = cohort_rules::builtin(&v.id).is_none();
            let variant_file = variant_file.filter(|_| custom);
            // What a `cmd:` agent is told to select: the id, or the file and the id.
            let protocol_variant = match variant_path.filter(|_| custom) {
                Some(path) => format!("{path} {}", v.id),
                None => v.id.clone(),
            };
            if let Some(dir) = &records {
                std::fs::create_dir_all(dir)
                    .map_err(|e| Fail(format!("--records {dir}: cannot create it: {e}")))?;
            }
            let pos = position(&v, p.as_deref())?;
            if games == 0 || threads == 0 || search_threads == 0 || time == 0 {
                return Err(Fail(
                    "--games, --threads, --search-threads and --time must be at least 1".into(),
                ));
            }
            let args = ai::MatchArgs {
                a: ai::parse_agent(&a)?,
                b: ai::parse_agent(&b)?,
                games,
                time_ms: time,
                clock,
                threads,
                search_threads,
                seed,
                out,
                records,
                variant_file,
                protocol_variant,
                opening_turns,
                max_turns,
                sprt,
            };
            ai::run_match(pos, args)?;
        }
        Command::Balance(cmd) => balance::run(cmd)?,
        Command::Bench => ai::bench()?,
        Command::Site { dir } => site::write(&dir)?,
        Command::Serve {
            port,
            host,
            database,
            ai_workers,
            ai_max_time_ms,
            ai_lease_ms,
            max_ai_games,
            ai_games_per_caller,
            max_custom_games,
            custom_games_per_hour,
            analysis_seconds_per_hour,
            analyses_per_hour,
            idle_game_minutes,
            secure_cookies,
            behind_proxy,
            public_origin,
            ws_max_message_bytes,
            ws_idle_seconds,
            ws_write_timeout_seconds,
            ws_messages_per_second,
            ws_per_address,
            ws_per_game,
            first_step_seconds,
        } => {
            let config = cohort_server::Config {
                max_ai_games,
                ai_games_per_caller,
                max_custom_games,
                custom_games_per_hour,
                analysis_ms_per_hour: analysis_seconds_per_hour.saturating_mul(1000),
                analyses_per_hour,
                idle_game_release: std::time::Duration::from_secs(
                    idle_game_minutes.saturating_mul(60),
                ),
                secure_cookies,
                behind_proxy: behind_proxy.is_some(),
                trusted_proxies: serve::proxies(behind_proxy.as_deref().unwrap_or(""))?,
                public_origin: serve::public_origin(public_origin)?,
                ws_max_message: ws_max_message_bytes,
                ws_idle_timeout: std::time::Duration::from_secs(ws_idle_seconds),
                ws_write_timeout: std::time::Duration::from_secs(ws_write_timeout_seconds),
                ws_messages_per_second,
                ws_per_address,
                ws_per_game,
                first_step_window: std::time::Duration::from_secs(first_step_seconds),
                ..serve::ai_config(ai_workers, ai_max_time_ms, ai_lease_ms)
            };
            serve::serve(&host, port, &database, config)?
        }
        Command::Worker {
            database,
            ai_workers,
            ai_max_time_ms,
            ai_lease_ms,
        } => {
            let config = serve::ai_config(ai_workers, ai_max_time_ms, ai_lease_ms);
            serve::worker(&database, config)?
        }
        Command::CheckGames { database } => serve::check_games(&database)?,
        Command::Tune {
            v,
            records,
            skip_turns,
            passes,
            write,
        } => tune::run(variant(&v)?, &records, skip_turns, passes, write.as_deref())?,
        Command::Replay { file, variant_file } => records::replay(&file, variant_file.as_deref())?,
        Command::Review {
            records,
            time,
            verify,
        } => records::review(&records, time, verify)?,
        Command::Record {
            command: RecordCommand::Export { database, game },
        } => records::export(&database, &game)?,
        Command::Engine { threads } => {
            if threads == 0 || threads > 64 {
                return Err(Fail("--threads must be from 1 to 64".into()));
            }
            protocol::run_engine(threads)
        }
        Command::Bot {
            server,
            game,
            token,
            time,
            command,
        } => bot::run(&server, &game, &token, time, &command)?,
        Command::Play { v, position: p } => {
            let v = variant(&v)?;
            let pos = position(&v, p.as_deref())?;
            play::run(pos);
        }
    }
    Ok(())
}

/// Perft of every first step, the steps dealt round-robin to `threads` workers; a progress
/// bar on standard error (hidden when it is not a terminal) counts finished first steps.
fn parallel_divide(
    pos: &Position,
    depth: u32,
    threads: usize,
    make_leaves: bool,
) -> Vec<(cohort_rules::Step, u64)> {
    let count = if make_leaves {
        perft::perft_made
    } else {
        perft::perft
    };
    if depth == 0 {
        return vec![];
    }
    let mut list = cohort_rules::StepList::new();
    pos.legal_steps(&mut list);
    let steps: Vec<_> = list.iter().copied().collect();
    let bar = indicatif::ProgressBar::new(steps.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("perft {bar:40} {pos}/{len} first steps {elapsed}")
            .unwrap(),
    );
    let mut results = vec![0u64; steps.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.min(steps.len()).max(1))
            .map(|t| {
                let (steps, bar) = (&steps, &bar);
                let mut local = pos.clone();
                scope.spawn(move || {
                    let mut out = vec![];
                    for i in (t..steps.len()).step_by(threads) {
                        let undo = local.make(steps[i]);
                        out.push((i, count(&mut local, depth - 1)));
                        local.unmake(steps[i], undo);
                        bar.inc(1);
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            for (i, n) in h.join().expect("perft worker panicked") {
                results[i] = n;
            }
        }
    });
    bar.finish_and_clear();
    steps.into_iter().zip(results).collect()
}
