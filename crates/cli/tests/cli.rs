//! The command-line contract of NOTATION.md, run against the real binary.

use cohort_rules::Rules;
use std::process::{Command, Output};

fn cohort(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cohort"))
        .args(args)
        .output()
        .expect("run cohort")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A user error: exit status 2, exactly one line on standard error naming the problem, no panic.
fn assert_user_error(args: &[&str], needle: &str) {
    let o = cohort(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?}: status {:?}, stderr {err}",
        o.status
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: want one line, got:\n{err}"
    );
    assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn variants_lists_ids_first() {
    let out = stdout(&cohort(&["variants"]));
    let ids: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    for id in [
        "chesimals-1",
        "chesimals-2",
        "chieftain",
        "mini-chieftain",
        "mini-chieftain-x",
        "micro-chieftain",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
}

#[test]
fn perft_divide_sums_to_the_total_and_threads_agree() {
    let plain = stdout(&cohort(&[
        "perft",
        "--variant",
        "mini-chieftain",
        "--depth",
        "3",
    ]));
    let total: u64 = plain.trim().parse().unwrap();
    let divided = stdout(&cohort(&[
        "perft",
        "--variant",
        "mini-chieftain",
        "--depth",
        "3",
        "--divide",
        "--threads",
        "2",
    ]));
    let lines: Vec<&str> = divided.lines().collect();
    assert_eq!(lines.last().unwrap().parse::<u64>().unwrap(), total);
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, total);
    assert!(
        lines[0].contains('-'),
        "a divide line is '<step> <count>': {}",
        lines[0]
    );
}

#[test]
fn apply_prints_the_resulting_position_last() {
    let o = cohort(&[
        "apply",
        "--variant",
        "mini-chieftain",
        "--turn",
        "d2-d3, e2-e3",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let last = stdout(&o).lines().last().unwrap().to_string();
    let v = cohort_rules::builtin("mini-chieftain").unwrap();
    let mut p = v.start();
    cohort_rules::apply_turn(&mut p, "d2-d3 e2-e3").unwrap();
    assert_eq!(last, p.to_text());
    assert!(last.ends_with(" b"));
    // Applying a turn from the printed position works in turn (Black replies).
    let o = cohort(&[
        "apply",
        "--variant",
        "mini-chieftain",
        "--position",
        &last,
        "--turn",
        "d7-d6 end",
    ]);
    assert!(stdout(&o).trim_end().ends_with(" w"));
}

#[test]
fn bad_input_is_one_line_and_status_two() {
    assert_user_error(
        &["perft", "--variant", "nosuch", "--depth", "1"],
        "unknown variant 'nosuch'",
    );
    assert_user_error(&["perft", "--variant", "chieftain"], "--depth");
    assert_user_error(
        &[
            "perft",
            "--variant",
            "chieftain",
            "--position",
            "8/8 w",
            "--depth",
            "1",
        ],
        "position:",
    );
    assert_user_error(
        &[
            "perft",
            "--variant",
            "mini-chieftain",
            "--position",
            "hnsccsnh/mmmmmmmm/8/8/8/8/MMMMMMMM/HNSCCSNX w",
            "--depth",
            "1",
        ],
        "'X' is not a piece",
    );
    assert_user_error(
        &[
            "perft",
            "--variant",
            "mini-chieftain",
            "--position",
            "hnsccsnh/mmmmmmmm/8/8/8/8/MMMMMMMM/HNSCCSNH x",
            "--depth",
            "1",
        ],
        "side to move",
    );
    assert_user_error(
        &[
            "perft",
            "--variant",
            "chesimals-1",
            "--position",
            "16/16/16/16/16/16/16/16/16/16/16/15K w",
            "--depth",
            "1",
        ],
        "group number",
    );
    assert_user_error(
        &["apply", "--variant", "mini-chieftain", "--turn", "d2-d9"],
        "not a square",
    );
    assert_user_error(
        &["apply", "--variant", "mini-chieftain", "--turn", "d2d3"],
        "not a step",
    );
    assert_user_error(
        &["apply", "--variant", "mini-chieftain", "--turn", "d7-d6"],
        "Black's, and White is to move",
    );
    assert_user_error(
        &[
            "apply",
            "--variant",
            "mini-chieftain",
            "--turn",
            "d2-d3 d3-d4",
        ],
        "already moved",
    );
    assert_user_error(
        &["apply", "--variant", "mini-chieftain", "--turn", "d2-d5"],
        "cannot reach d5",
    );
    assert_user_error(
        &["apply", "--variant", "mini-chieftain", "--turn", "end"],
        "at least one unit move",
    );
    assert_user_error(
        &[
            "apply",
            "--variant",
            "mini-chieftain",
            "--turn",
            "d2-d3 end e2-e3",
        ],
        "already ended",
    );
    assert_user_error(
        &["apply", "--variant", "chesimals-1", "--turn", "b3-b4 f3-f4"],
        "chesimal (1)",
    );
}

#[test]
fn a_malformed_variant_file_names_file_line_and_field() {
    let dir = std::env::temp_dir().join(format!("cohort-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.ini");
    std::fs::write(
        &good,
        "[tiny-chieftain]\nbase = mini-chieftain\nname = Tiny\nboard = 6x6\nsetup = 1ccm2/6/6/6/6/2CMC1 w\n",
    )
    .unwrap();
    let o = cohort(&[
        "perft",
        "--variant",
        "tiny-chieftain",
        "--variant-file",
        good.to_str().unwrap(),
        "--depth",
        "2",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bad = dir.join("bad.ini");
    std::fs::write(&bad, "[x]\nname = X\nboard = 8x8\npiece C = Chief, K^Y, leader royal\ncommand = range\nsetup = 8/8/8/8/8/8/8/C7 w\n").unwrap();
    let path = bad.to_str().unwrap().to_string();
    assert_user_error(
        &["variants", "--variant-file", &path],
        &format!("{path}:4: field 'piece C'"),
    );
    std::fs::write(&bad, "[x]\nname = X\nboard = 8x8\npiece C = Chief, K, leader royal\ncommand = range\nsetup = 8/8/8/8/8/8/8/Z7 w\n").unwrap();
    assert_user_error(
        &["variants", "--variant-file", &path],
        &format!("{path}:6: field 'setup'"),
    );
    std::fs::write(&bad, "[x]\nboard = 17x8\n").unwrap();
    assert_user_error(
        &["variants", "--variant-file", &path],
        &format!("{path}:2: field 'board'"),
    );
    assert_user_error(
        &["variants", "--variant-file", "/nonexistent/v.ini"],
        "cannot read variant file",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_takes_steps_undo_and_end_from_standard_input() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cohort"))
        .args(["play", "--variant", "mini-chieftain"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"d2-d3\nundo\ne2-e3\nd7-d6\nend\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("may move now"), "{text}");
    assert!(
        text.contains("Black to move"),
        "the turn ended with end:\n{text}"
    );
    assert!(
        text.contains("error: d7-d6 is illegal"),
        "Black cannot move in White's turn:\n{text}"
    );
}

#[test]
fn match_ends_with_the_score_line_and_writes_games() {
    let out = std::env::temp_dir().join(format!("cohort-match-{}.jsonl", std::process::id()));
    let o = cohort(&[
        "match",
        "--variant",
        "mini-chieftain",
        "--a",
        "greedy",
        "--b",
        "random:30",
        "--games",
        "2",
        "--time",
        "30",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    // The score line, then the likelihood of superiority, last without --sprt.
    let lines: Vec<&str> = text.lines().collect();
    let (score, last) = (lines[lines.len() - 2], lines[lines.len() - 1]);
    let parts: Vec<&str> = score.split_whitespace().collect();
    assert_eq!(
        (parts[0], parts[2], parts[4]),
        ("score:", "elo:", "+-"),
        "{score}"
    );
    let wdl: Vec<u32> = parts[1].split('-').map(|n| n.parse().unwrap()).collect();
    assert_eq!(wdl.iter().sum::<u32>(), 2);
    assert!(last.starts_with("los: ") && last.ends_with('%'), "{text}");
    assert!(!text.contains("sprt"), "{text}");
    let games = std::fs::read_to_string(&out).unwrap();
    assert_eq!(games.lines().count(), 2);
    assert!(games
        .lines()
        .all(|l| l.starts_with("{\"variant\":\"mini-chieftain\"") && l.contains("\"turns\":[[")));
    // Each record names the agents as the match was given them, one pair colour-swapped.
    let white_greedy = games
        .lines()
        .filter(|l| l.contains("\"white\":\"greedy\",\"black\":\"random:30\""))
        .count();
    let white_random = games
        .lines()
        .filter(|l| l.contains("\"white\":\"random:30\",\"black\":\"greedy\""))
        .count();
    assert_eq!((white_greedy, white_random), (1, 1), "{games}");
    std::fs::remove_file(out).ok();
    assert_user_error(
        &[
            "match",
            "--variant",
            "mini-chieftain",
            "--a",
            "smart",
            "--b",
            "random",
        ],
        "unknown agent 'smart'",
    );
    assert_user_error(
        &[
            "match",
            "--variant",
            "mini-chieftain",
            "--a",
            "engine:x",
            "--b",
            "random",
        ],
        "milliseconds",
    );
    // A mixture names its shares; shares over 100 in all are no mixture.
    assert_user_error(
        &[
            "match",
            "--variant",
            "mini-chieftain",
            "--a",
            "mix-60-50-0",
            "--b",
            "random",
        ],
        "unknown agent 'mix-60-50-0'",
    );
    // A mixture plays, as the levels do: every game ends and is counted.
    let o = cohort(&[
        "match",
        "--variant",
        "mini-chieftain",
        "--a",
        "mix-10-40-2000",
        "--b",
        "level1",
        "--games",
        "2",
        "--time",
        "30",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    let score = summary_line(&text, "score: ");
    let played: u32 = score[1].split('-').map(|n| n.parse::<u32>().unwrap()).sum();
    assert_eq!(played, 2, "{text}");
    assert!(text.contains("illegal steps: 0"), "{text}");
}

/// `--clock BASE+INC`: each game on a clock, through the protocol too (`go wtime ...`);
/// the summary says the least each agent had left. A malformed clock is a user error.
#[test]
fn match_on_a_clock_runs_each_sides_clock() {
    let me = env!("CARGO_BIN_EXE_cohort");
    let engine = format!("cmd:{me} engine");
    let o = cohort(&[
        "match",
        "--variant",
        "mini-chieftain",
        "--a",
        "engine",
        "--b",
        &engine,
        "--games",
        "2",
        "--clock",
        "3+0.02",
        "--max-turns",
        "16",
    ]);
    let text = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let least = summary_line(&text, "illegal steps:");
    assert_eq!(
        least[2..8].join(" "),
        "0; least clock left after a",
        "{text}"
    );
    // Each agent's least is a number of milliseconds below its 3 s (plus increments).
    for at in [10, 13] {
        let ms: u64 = least[at].parse().unwrap_or_else(|_| panic!("{text}"));
        assert!(ms < 3000 + 16 * 20, "{text}");
    }
    assert_eq!(summary_line(&text, "2 games")[0], "2", "{text}");
    for bad in ["3", "3+", "x+1", "0+1", "-1+0", "3+0.1+1"] {
        assert_user_error(
            &[
                "match",
                "--variant",
                "mini-chieftain",
                "--a",
                "random",
                "--b",
                "random",
                "--clock",
                bad,
            ],
            "--clock",
        );
    }
}

/// The match's summary line starting with `key`, split into words.
fn summary_line<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    text.lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no '{key}' line in:\n{text}"))
        .split_whitespace()
        .collect()
}

#[test]
fn match_sprt_stops_early_once_decided() {
    // Greedy against random: greedy wins or, at the short turn cap, draws (the test needs
    // both: a match of wins alone has no variance and no verdict). Far above 50 Elo, so
    // the SPRT of 0 against 50 accepts H1 within a few pairs; of 400 against 800, H0.
    for (bounds, want) in [("0,50", "H1 accepted"), ("400,800", "H0 accepted")] {
        let o = cohort(&[
            "match",
            "--variant",
            "mini-chieftain",
            "--a",
            "greedy",
            "--b",
            "random",
            "--games",
            "200",
            "--time",
            "20",
            "--threads",
            "2",
            "--max-turns",
            "12",
            "--sprt",
            bounds,
        ]);
        let text = stdout(&o);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{text}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let score = summary_line(&text, "score: ");
        let wdl: Vec<u32> = score[1].split('-').map(|n| n.parse().unwrap()).collect();
        let played: u32 = wdl.iter().sum();
        assert!(played < 200, "{text}");
        // The first summary line counts the games, and agrees with the score.
        let games: u32 = text.split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(games, played, "{text}");
        // Pairs stay whole.
        assert_eq!(played % 2, 0, "{text}");
        let sprt = summary_line(&text, "sprt: llr ");
        assert!(
            sprt.join(" ").ends_with(&format!(": {want}")),
            "{bounds}: {text}"
        );
        let (e0, e1) = bounds.split_once(',').unwrap();
        assert_eq!(
            (sprt[5], sprt[6], sprt[7], sprt[8]),
            ("elo0", e0, "elo1", &*format!("{e1}:")),
            "{text}"
        );
        // The bounds for alpha = beta = 0.05: ln(0.05 / 0.95) and its negative.
        let llr: f64 = sprt[2].parse().unwrap();
        let lower: f64 = sprt[3]
            .trim_matches(|c| c == '(' || c == ',')
            .parse()
            .unwrap();
        let upper: f64 = sprt[4].trim_end_matches(')').parse().unwrap();
        assert!(
            (lower + 2.94).abs() < 0.01 && (upper - 2.94).abs() < 0.01,
            "{text}"
        );
        // The LLR is that of every game, those still running at the decision included: on
        // the verdict's side of zero, not always past its bound.
        assert!(
            (want == "H1 accepted" && llr > 0.0) || (want == "H0 accepted" && llr < 0.0),
            "{text}"
        );
        let early = summary_line(&text, "sprt: stopped early ");
        assert_eq!(
            &early[..7],
            [
                "sprt:",
                "stopped",
                "early",
                "after",
                &*played.to_string(),
                "of",
                "200"
            ],
            "{text}"
        );
        // Decided after n games; then no new pair started: at most the other thread's game
        // and the partners of the two running games were still to play.
        let decided: u32 = early[10].trim_end_matches(')').parse().unwrap();
        assert!(decided <= played && played - decided <= 3, "{text}");
        let los = summary_line(&text, "los: ");
        let los: f64 = los[1].trim_end_matches('%').parse().unwrap();
        // Greedy won games and lost none: surely the stronger.
        assert!(los > 50.0 && los <= 100.0, "{text}");
    }
    // Wider error chances make narrower bounds.
    let o = cohort(&[
        "match",
        "--variant",
        "mini-chieftain",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--time",
        "20",
        "--max-turns",
        "12",
        "--sprt",
        "0,50",
        "--alpha",
        "0.1",
        "--beta",
        "0.2",
    ]);
    let text = stdout(&o);
    // ln(0.2 / 0.9) and ln(0.8 / 0.1), rounded to two places.
    assert!(text.contains("(-1.50, 2.08) elo0 0 elo1 50: "), "{text}");
    let base = [
        "match",
        "--variant",
        "mini-chieftain",
        "--a",
        "greedy",
        "--b",
        "random",
        "--sprt",
    ];
    for (extra, needle) in [
        (&["10,0"][..], "--sprt '10,0'"),
        (&["5,5"][..], "--sprt '5,5'"),
        (&["ten,20"][..], "--sprt 'ten,20'"),
        (&["0,10,20"][..], "--sprt '0,10,20'"),
        (&["0,10", "--alpha", "0.5"][..], "--alpha"),
        (&["0,10", "--beta", "0"][..], "--beta"),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        assert_user_error(&args, needle);
    }
    // --alpha without --sprt tests nothing.
    assert_user_error(
        &[
            "match",
            "--variant",
            "mini-chieftain",
            "--a",
            "greedy",
            "--b",
            "random",
            "--alpha",
            "0.1",
        ],
        "--sprt",
    );
}

#[test]
fn analyze_prints_turn_score_line_and_statistics() {
    let o = cohort(&["analyze", "--variant", "mini-chieftain", "--time", "100"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    for key in [
        "turn: ",
        "score: ",
        "pv: ",
        "stats: nodes ",
        "nodes/s",
        "tt hit rate",
    ] {
        assert!(text.contains(key), "'{key}' missing:\n{text}");
    }
    let turn = text
        .lines()
        .find(|l| l.starts_with("turn: "))
        .unwrap()
        .trim_start_matches("turn: ")
        .to_string();
    let v = cohort_rules::builtin("mini-chieftain").unwrap();
    let mut p = v.start();
    cohort_rules::apply_turn(&mut p, &turn).expect("the chosen turn is legal");
}

#[test]
fn serve_and_check_games_refuse_bad_databases_and_addresses() {
    assert_user_error(
        &["serve", "--database", "mysql://x"],
        "--database 'mysql://x'",
    );
    assert_user_error(&["serve", "--host", "not-an-ip"], "--host 'not-an-ip'");
    // (The password is never printed: serve_never_prints_the_database_password.)
    assert_user_error(
        &[
            "serve",
            "--database",
            "postgres://nobody:x@127.0.0.1:1/none",
        ],
        "database postgres://nobody:***@127.0.0.1:1/none",
    );
    assert_user_error(
        &["check-games", "--database", "file.db"],
        "--database 'file.db'",
    );
    // A database that is not one: an error, not a crash, and the file is left alone.
    let dir = std::env::temp_dir().join(format!("cohort-cli-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.db");
    std::fs::write(&junk, b"this is not a database").unwrap();
    let url = format!("sqlite://{}", junk.display());
    assert_user_error(&["check-games", "--database", &url], "database");
    assert_eq!(std::fs::read(&junk).unwrap(), b"this is not a database");
    // An empty database, made as the server makes it, checks clean.
    let fresh = format!("sqlite://{}", dir.join("fresh.db").display());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            cohort_server::store::Store::open(&fresh)
                .await
                .unwrap()
                .close()
                .await
        });
    let o = cohort(&["check-games", "--database", &fresh]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("games: 0 replayed legally: 0 failed: 0"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A command given an unreachable database: exit status 2, the URL named with its password
/// masked, the password nowhere.
fn refused_with_the_password_masked(args: &[&str], o: &Output) {
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(2), "{args:?}: {out}");
    assert!(
        !out.contains("hunter2"),
        "{args:?}: the password is printed: {out}"
    );
    assert!(
        out.contains("cohort:***@127.0.0.1:1/cohort"),
        "{args:?}: {out}"
    );
}

#[test]
fn serve_never_prints_the_database_password() {
    for args in [
        &[
            "serve",
            "--database",
            "postgres://cohort:hunter2@127.0.0.1:1/cohort",
        ][..],
        &[
            "check-games",
            "--database",
            "postgres://cohort:hunter2@127.0.0.1:1/cohort",
        ][..],
        &[
            "serve",
            "--database",
            "mysql://cohort:hunter2@127.0.0.1:1/cohort",
        ][..],
    ] {
        refused_with_the_password_masked(args, &cohort(args));
    }
    // The database from the environment (COHORT_DATABASE), off the command line: used by
    // serve, worker and check-games, never printed, and never shown by --help.
    for args in [&["serve"][..], &["worker"][..], &["check-games"][..]] {
        let o = Command::new(env!("CARGO_BIN_EXE_cohort"))
            .args(args)
            .env(
                "COHORT_DATABASE",
                "postgres://cohort:hunter2@127.0.0.1:1/cohort",
            )
            .output()
            .expect("run cohort");
        refused_with_the_password_masked(args, &o);
        let help = Command::new(env!("CARGO_BIN_EXE_cohort"))
            .args([args[0], "--help"])
            .env(
                "COHORT_DATABASE",
                "postgres://cohort:hunter2@127.0.0.1:1/cohort",
            )
            .output()
            .expect("run cohort");
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(help.contains("COHORT_DATABASE"), "{args:?}: {help}");
        assert!(!help.contains("hunter2"), "{args:?}: {help}");
    }
    // --behind-proxy takes proxy addresses (or none: loopback); a wrong one is refused.
    assert_user_error(
        &["serve", "--behind-proxy", "not-an-ip"],
        "--behind-proxy 'not-an-ip'",
    );
    // The WebSocket limits (docs/server.md, "Security"): an origin is scheme://host, and no
    // limit so tight that the pages would stop working.
    assert_user_error(
        &["serve", "--public-origin", "cohort.example.org/path"],
        "--public-origin 'cohort.example.org/path'",
    );
    assert_user_error(&["serve", "--ws-idle-seconds", "1"], "--ws-idle-seconds");
    assert_user_error(&["serve", "--ws-per-address", "0"], "--ws-per-address");
}

#[test]
fn check_games_refuses_a_database_file_that_does_not_exist() {
    let dir = std::env::temp_dir().join(format!("cohort-cli-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["typo.db", "with space.db"] {
        let missing = dir.join(name);
        let path = missing.display().to_string();
        for url in [
            format!("sqlite://{path}"),
            format!("sqlite:{path}"),
            format!("sqlite://{path}?mode=rwc"),
        ] {
            assert_user_error(&["check-games", "--database", &url], &path);
            assert!(!missing.exists(), "check-games {url} created {path}");
        }
    }
    // Nothing else appeared either (no -wal or -shm file).
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cohort play` with `input` on standard input: its standard output.
fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    with_input(&all, input)
}

/// `cohort <args>` with `input` on its standard input: its standard output, after checking
/// that it exited with status 0.
fn with_input(args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cohort"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The boards `cohort play` printed: each its rank rows (highest first) and its file header.
fn boards(text: &str) -> Vec<(Vec<String>, String)> {
    let mut out = vec![];
    let mut rows: Vec<String> = vec![];
    for line in text.lines() {
        let b = line.as_bytes();
        if b.len() > 3
            && b[1].is_ascii_digit()
            && (b[0] == b' ' || b[0].is_ascii_digit())
            && b[2] == b' '
        {
            rows.push(line.to_string());
        } else if line.starts_with("   ") && line.trim_start().starts_with('a') && !rows.is_empty()
        {
            out.push((std::mem::take(&mut rows), line.to_string()));
        } else {
            rows.clear();
        }
    }
    out
}

#[test]
fn play_lines_up_every_square_under_its_file_letter_in_every_variant() {
    let cases: [(&str, Option<&str>, &str); 6] = [
        ("mini-chieftain", None, "d2-d3\nquit\n"),
        ("micro-chieftain", None, "quit\n"),
        ("chieftain", None, "quit\n"),
        ("lifeform", None, "quit\n"),
        // A shared square (a Hand pinning a pawn) on d4.
        (
            "lifeform",
            Some("8/8/5k2/4q3/3B~p4/2P5/1P6/KQ6 w"),
            "quit\n",
        ),
        ("chesimals-1", None, "b3-b4\nquit\n"),
    ];
    for (id, position, input) in cases {
        let mut args = vec!["--variant", id];
        if let Some(p) = position {
            args.extend(["--position", p]);
        }
        let text = play(&args, input);
        let v = cohort_rules::builtin(id).unwrap();
        let start = match position {
            Some(p) => cohort_rules::Position::parse(&v, p).unwrap(),
            None => v.start(),
        };
        let found = boards(&text);
        assert!(!found.is_empty(), "{id}: no board in:\n{text}");
        for (n, (rows, header)) in found.iter().enumerate() {
            let board = format!("{id} board {n}:\n{}\n{header}", rows.join("\n"));
            assert_eq!(rows.len(), v.geometry.ranks as usize, "{board}");
            // Every row as wide as the header.
            let width = header.chars().count();
            for row in rows {
                assert_eq!(row.chars().count(), width, "row width: {board}");
            }
            // The file letters in order, one column each.
            let header: Vec<char> = header.chars().collect();
            let columns: Vec<usize> = (0..header.len()).filter(|&i| header[i] != ' ').collect();
            let letters: String = columns.iter().map(|&i| header[i]).collect();
            let want: String = (0..v.geometry.files).map(|f| (b'a' + f) as char).collect();
            assert_eq!(letters, want, "{board}");
            for (r, row) in rows.iter().enumerate() {
                let rank = v.geometry.ranks - 1 - r as u8;
                let row: Vec<char> = row.chars().collect();
                for (f, &c) in columns.iter().enumerate() {
                    // Under each file letter: the square's unit letter or '.', after a blank.
                    assert!(
                        row[c] == '.' || row[c].is_ascii_alphabetic(),
                        "no unit letter or '.' under file letter {}: {board}",
                        header[c]
                    );
                    assert_eq!(row[c - 1], ' ', "cells run together: {board}");
                    if n == 0 {
                        let sq = cohort_rules::Square::new(f as u8, rank);
                        let expect = start.unit_at(sq).map_or('.', |u| {
                            let l = v.pieces[u.kind as usize].letter;
                            if u.side == cohort_rules::Side::White {
                                l
                            } else {
                                l.to_ascii_lowercase()
                            }
                        });
                        assert_eq!(
                            row[c],
                            expect,
                            "{} {}: {board}",
                            (b'a' + f as u8) as char,
                            rank + 1
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn analyze_reports_the_engine_turn_and_its_first_search() {
    for id in [
        "mini-chieftain",
        "chieftain",
        "chesimals-1",
        "lifeform",
        "chess",
    ] {
        let o = cohort(&["analyze", "--variant", id, "--time", "200"]);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{id}: {text}");
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or_else(|| panic!("{id}: no '{key}' line:\n{text}"))
                .to_string()
        };
        let turn: Vec<String> = field("turn: ")
            .split_whitespace()
            .map(String::from)
            .collect();
        let pv: Vec<String> = field("pv: ").split_whitespace().map(String::from).collect();
        assert!(!turn.is_empty(), "{id}: empty turn:\n{text}");
        assert_eq!(
            pv[..turn.len().min(pv.len())],
            turn[..],
            "{id}: the pv does not begin with the turn:\n{text}"
        );
        // The turn is whole and legal: it ends with `end` (a chess move ends it by itself).
        let v = cohort_rules::builtin(id).unwrap();
        let mut p = v.start();
        cohort_rules::apply_turn(&mut p, &turn.join(" "))
            .unwrap_or_else(|e| panic!("{id}: {e}:\n{text}"));
        if id != "chess" {
            assert_eq!(turn.last().unwrap(), "end", "{id}: {text}");
        }
        // The turn is the engine's (one search per step): the depths printed are the first
        // step's search, whose last depth gives the score and the depth, and whose best step
        // is the turn's first.
        let last = text
            .lines()
            .rfind(|l| l.starts_with("depth "))
            .unwrap_or_else(|| panic!("{id}: no depth line:\n{text}"));
        let words: Vec<&str> = last.split_whitespace().collect();
        let (depth, score) = (words[1], words[3]);
        let searched: Vec<&str> = last
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        assert!(
            field("stats: ").contains(&format!(" depth {depth} ")),
            "{id}: {text}"
        );
        // The search stopped by the clock keeps a step that beat the last finished depth's
        // best in the unfinished depth after it (search.rs, `think`), which prints no depth
        // line: then the turn starts with that step, not the printed line's. Otherwise the
        // printed line is the search's answer, its step and its score.
        let adopted_unfinished = searched.first().copied() != turn.first().map(String::as_str);
        // (The turn was checked whole and legal above, in either case.)
        if !adopted_unfinished {
            assert_eq!(
                field("score: ").split_whitespace().next(),
                Some(score),
                "{id}: {text}"
            );
        }
    }
}

/// `cohort check-variant`: ten malformed files, each refused with its file, line, field and
/// what is wrong (status 2, one line); a good file is summarised, with its warnings.
#[test]
fn check_variant_names_the_line_and_field_of_each_error() {
    let dir = std::env::temp_dir().join(format!("cohort-check-variant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let head = "[v]\nname = V\nboard = 8x8\npiece K = King, K, royal\npiece M = Man, K\n";
    let setup = "setup = 4k3/8/8/8/8/8/8/3MK3 w\n";
    // (file text, the line the error names, the field, a word of the message)
    let cases: Vec<(String, usize, &str, &str)> = vec![
        (
            format!("{head}command = single\nquiet_turns = 5\n{setup}"),
            7,
            "quiet_turns",
            "did you mean 'quiet-turns'",
        ),
        (
            format!("{head}command = singel\n{setup}"),
            6,
            "command",
            "unknown command model",
        ),
        (
            format!(
                "[v]\nname = V\nboard = 17x8\npiece K = King, K, royal\ncommand = single\n{setup}"
            ),
            3,
            "board",
            "each 1..16",
        ),
        (
            format!("{head}piece Q = Queen, QY\ncommand = single\n{setup}"),
            6,
            "piece Q",
            "unknown atom",
        ),
        (
            format!("{head}command = single\nsetup = 4k3/8/8/8/8/8/8/3MK4 w\n"),
            7,
            "setup",
            "files",
        ),
        (
            format!("{head}command = chain\n{setup}"),
            6,
            "command",
            "group",
        ),
        (
            format!("{head}command = range\nrange = 99\n{setup}"),
            7,
            "range",
            "0..15",
        ),
        (
            format!("{head}command = lead\nlead M = budget 3\n{setup}"),
            7,
            "lead M",
            "not flagged 'leader'",
        ),
        (
            format!("{head}command = single\nrepetition = many\n{setup}"),
            7,
            "repetition",
            "whole number",
        ),
        (
            format!("{head}command = single\nbase = nowhere\n{setup}"),
            7,
            "base",
            "no variant 'nowhere'",
        ),
    ];
    for (i, (text, line, field, word)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.ini"));
        std::fs::write(&path, text).unwrap();
        let p = path.to_str().unwrap();
        assert_user_error(
            &["check-variant", p],
            &format!("{p}:{line}: field '{field}': "),
        );
        assert_user_error(&["check-variant", p], word);
    }
    // A good file: summarised, with a warning for a setting its model ignores.
    let good = dir.join("good.ini");
    std::fs::write(&good, format!("{head}command = single\ncap = 3\n{setup}")).unwrap();
    let o = cohort(&["check-variant", good.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("[v] V: 8x8 board"), "{out}");
    assert!(out.contains(":7: field 'cap': ignored"), "{out}");
    assert!(
        out.trim_end().ends_with("ok: 1 variant(s), 1 warning(s)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A port free now (bound and released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `cohort serve` on `url` and `port`, once it answers on its port.
fn serving(url: &str, port: u16) -> std::process::Child {
    let child = Command::new(env!("CARGO_BIN_EXE_cohort"))
        .args(["serve", "--port", &port.to_string(), "--database", url])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return child;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("cohort serve on port {port} never answered");
}

#[test]
fn a_second_serve_on_one_sqlite_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("cohort-cli-one-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("games.db").display());
    let mut first = serving(&url, free_port());
    // The second: a clear refusal, exit status 2, and the first still serves.
    let o = cohort(&[
        "serve",
        "--port",
        &free_port().to_string(),
        "--database",
        &url,
    ]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("another cohort serve is already serving") && err.contains("PostgreSQL"),
        "{err}"
    );
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first server stopped"
    );
    // Once the first is gone (even killed), the file serves again.
    first.kill().unwrap();
    first.wait().unwrap();
    let mut again = serving(&url, free_port());
    again.kill().unwrap();
    again.wait().unwrap();
    // Another file beside it is another instance's.
    let other = format!("sqlite://{}?mode=rwc", dir.join("other.db").display());
    let mut a = serving(&url, free_port());
    let mut b = serving(&other, free_port());
    for c in [&mut a, &mut b] {
        c.kill().unwrap();
        c.wait().unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cohort worker` serves a PostgreSQL job queue only, and its flags are checked: each
/// refusal exits 2 and says what is wrong, before anything is opened. On SQLite, `serve`
/// must run searches itself (`--ai-workers 0` refused).
#[test]
fn worker_and_ai_flags_are_checked() {
    let cases: [(&[&str], &str); 5] = [
        (&["worker", "--database", "sqlite://games.db"], "PostgreSQL"),
        (&["worker", "--database", "mysql://x"], "expected sqlite://"),
        (
            &[
                "worker",
                "--database",
                "postgres://u:secret@127.0.0.1:1/db",
                "--ai-workers",
                "0",
            ],
            "at least one search",
        ),
        (
            &[
                "worker",
                "--database",
                "postgres://u:secret@127.0.0.1:1/db",
                "--ai-lease-ms",
                "10",
            ],
            "--ai-lease-ms 10",
        ),
        (
            &[
                "serve",
                "--database",
                "sqlite://games.db",
                "--ai-workers",
                "0",
                "--port",
                "0",
            ],
            "only on PostgreSQL",
        ),
    ];
    for (args, words) in cases {
        let o = cohort(args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
        assert!(
            !err.contains("secret"),
            "the password is never printed: {err}"
        );
    }
}

/// `cohort engine --threads N` searches on N threads and answers as with one; a count of 0
/// is refused before any command is read.
#[test]
fn engine_takes_a_thread_count() {
    assert_user_error(&["engine", "--threads", "0"], "--threads");
    let text = with_input(
        &["engine", "--threads", "2"],
        "variant micro-chieftain\ngo nodes 20000\ncohort\nquit\n",
    );
    let turn = text
        .lines()
        .find_map(|l| l.strip_prefix("bestturn "))
        .unwrap_or_else(|| panic!("no bestturn in {text}"));
    assert!(turn.ends_with("end"), "a whole turn: {turn}");
}

/// `cohort site DIR` (docs/wasm.md): the static site with the module copied from where
/// `cohort serve` reads it (COHORT_WASM here); bad arguments and a missing module are user
/// errors (status 2, one line), and nothing is written without the module.
#[test]
fn site_writes_a_static_site_or_says_why_not() {
    let tmp = std::env::temp_dir().join(format!("cohort-site-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let wasm = tmp.join("fake.wasm");
    std::fs::write(&wasm, b"\0asm\x01\0\0\0").unwrap();
    let site = tmp.join("site");
    let run = |dir: &std::path::Path, module: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_cohort"))
            .args(["site", dir.to_str().unwrap()])
            .env("COHORT_WASM", module)
            .output()
            .expect("run cohort")
    };
    let o = run(&site, &wasm);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in [
        "index.html",
        "local.html",
        "static/local.js",
        "static/board.js",
        "static/pieces.js",
        "static/style.css",
        "wasm/cohort.js",
        "wasm/worker.js",
    ] {
        assert!(site.join(f).is_file(), "{f} written");
    }
    assert_eq!(
        std::fs::read(site.join("wasm/cohort.wasm")).unwrap(),
        b"\0asm\x01\0\0\0"
    );
    let local = std::fs::read_to_string(site.join("local.html")).unwrap();
    assert!(
        local.contains(r#"data-site="static""#) && !local.contains("=\"/"),
        "relative addresses only: {local}"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("local.html?variant=chesimals-1"), "{index}");
    // The analysis board and the rules pages: relative addresses, linked from the index,
    // each built-in variant's rules data as a file (what GET /api/variants/<id> answers).
    for page in ["analysis.html", "rules.html"] {
        let html = std::fs::read_to_string(site.join(page)).unwrap();
        assert!(
            html.contains(r#"data-site="static""#) && !html.contains("=\"/"),
            "{page}: relative addresses only: {html}"
        );
        assert!(
            index.contains(&format!("{page}?variant=chesimals-1")),
            "{index}"
        );
    }
    for id in [
        "chesimals-1",
        "chess",
        "chessma-84",
        "ataxx",
        "breakthrough",
    ] {
        let text = std::fs::read_to_string(site.join(format!("api/variants/{id}.json")))
            .unwrap_or_else(|e| panic!("api/variants/{id}.json: {e}"));
        let rules: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(rules["id"], id);
        assert!(
            rules["victory"].as_str().is_some_and(|t| !t.is_empty()),
            "{text}"
        );
    }
    // No module: status 2, one line saying to build it, nothing written.
    let other = tmp.join("other");
    let o = run(&other, &tmp.join("missing.wasm"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("scripts/wasm-build"), "{err}");
    assert!(!other.exists(), "nothing written without the module");
    // A file that is not a module, a DIR that is a file, no DIR: status 2.
    let not = tmp.join("not.wasm");
    std::fs::write(&not, b"hello").unwrap();
    assert_eq!(run(&other, &not).status.code(), Some(2));
    assert_eq!(run(&wasm, &wasm).status.code(), Some(2));
    assert_user_error(&["site"], "DIR");
    let _ = std::fs::remove_dir_all(&tmp);
}
