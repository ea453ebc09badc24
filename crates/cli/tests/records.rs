//! Game records (docs/records.md), the engine protocol (docs/protocol.md), examples/bot.py
//! and `cohort bot`, run against the real binary.

use cohort_rules::Rules;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use cohort_engine::record::Record;
use cohort_rules::{builtin, Game, Position, Step};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_cohort");

fn cohort(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run cohort")
}

fn temp(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cohort-records-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (hash, position text) after every step, implied `end`s included.
type Trace = Vec<(u64, String)>;

/// A game of the match's JSON lines replayed directly: its start and its turns' steps,
/// each turn closed with `end` unless the game ended inside it.
fn trace_of_json(line: &Value) -> (String, Trace) {
    let v = builtin(line["variant"].as_str().unwrap()).unwrap();
    let start = line["start"].as_str().unwrap();
    let mut g = Game::new(Position::parse(&v, start).unwrap());
    let mut trace = vec![];
    for turn in line["turns"].as_array().unwrap() {
        let side = g.position().side_to_move();
        for s in turn.as_array().unwrap() {
            g.play_text(s.as_str().unwrap()).unwrap();
            trace.push((g.position().hash(), g.position().to_text()));
        }
        if g.result().is_none() && g.position().side_to_move() == side {
            g.play(Step::END).unwrap();
            trace.push((g.position().hash(), g.position().to_text()));
        }
    }
    (line["result"].as_str().unwrap().to_string(), trace)
}

#[test]
fn fifty_match_games_in_three_variants_round_trip_through_records() {
    let dir = temp("roundtrip");
    let mut total = 0;
    for (variant, games, max_turns) in [
        ("chesimals-1", "17", "30"),
        ("micro-chieftain", "17", "40"),
        ("lifeform", "16", "40"),
    ] {
        let recs = dir.join(variant);
        let jsonl = dir.join(format!("{variant}.jsonl"));
        let o = cohort(&[
            "match",
            "--variant",
            variant,
            "--a",
            "engine",
            "--b",
            "greedy",
            "--games",
            games,
            "--time",
            "20",
            "--max-turns",
            max_turns,
            "--threads",
            "2",
            "--records",
            recs.to_str().unwrap(),
            "--out",
            jsonl.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut from_json: Vec<(String, Trace)> = std::fs::read_to_string(&jsonl)
            .unwrap()
            .lines()
            .map(|l| trace_of_json(&serde_json::from_str(l).unwrap()))
            .collect();
        let mut from_records = vec![];
        let mut files: Vec<_> = std::fs::read_dir(&recs)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert_eq!(
            files.len(),
            games.parse::<usize>().unwrap(),
            "{variant}: one record a game"
        );
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let record = Record::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            // Writing what was read gives the same text back.
            assert_eq!(record.to_text(), text, "{}", f.display());
            assert_eq!(record.tag("Variant"), Some(variant));
            let v = record.variant(None).unwrap();
            let mut trace = vec![];
            let replayed = record
                .replay_with(&v, |g, _| {
                    trace.push((g.position().hash(), g.position().to_text()))
                })
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(trace.len(), replayed.steps.len());
            // And `cohort replay` agrees, printing the final position last.
            let o = cohort(&["replay", f.to_str().unwrap()]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let out = String::from_utf8_lossy(&o.stdout).to_string();
            assert_eq!(
                out.lines().last().unwrap(),
                replayed.game.position().to_text()
            );
            from_records.push((record.result().to_string(), trace));
        }
        // Every game of the match, step by step, is a game of the records (the JSON lines
        // come in the order games ended, the files in the order they began).
        from_json.sort();
        from_records.sort();
        assert_eq!(from_json.len(), from_records.len());
        for (a, b) in from_json.iter().zip(&from_records) {
            assert_eq!(a.0, b.0, "{variant}: result");
            assert_eq!(a.1.len(), b.1.len(), "{variant}: steps");
            assert!(a.1.len() > 4, "{variant}: a game of {} steps", a.1.len());
            for (i, (x, y)) in a.1.iter().zip(&b.1).enumerate() {
                assert_eq!(x, y, "{variant}: position after step {}", i + 1);
            }
        }
        total += files.len();
    }
    assert_eq!(total, 50);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The record text with step `step` (1-based) of the `nth` turn (0-based) replaced.
fn corrupt(record: &Record, nth: usize, step: usize, with: &str) -> String {
    let mut r = record.clone();
    r.turns[nth].steps[step - 1] = with.to_string();
    r.to_text()
}

#[test]
fn a_record_corrupted_at_a_step_is_refused_naming_its_turn_and_step() {
    let dir = temp("corrupt");
    let recs = dir.join("recs");
    let o = cohort(&[
        "match",
        "--variant",
        "mini-chieftain",
        "--a",
        "engine",
        "--b",
        "greedy",
        "--games",
        "2",
        "--time",
        "20",
        "--max-turns",
        "30",
        "--records",
        recs.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = recs.join("mini-chieftain-0001.txt");
    let record = Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let v = record.variant(None).unwrap();
    let turns = record.turns.len();
    assert!(turns >= 10, "{turns} turns");
    let mut checked = 0;
    // Several places: the first turn, White's and Black's turns in the middle, the last.
    for nth in [0, turns / 2, turns / 2 + 1, turns - 1] {
        let t = &record.turns[nth];
        for step in [1, t.steps.len()] {
            // The position before that step (the record cut there, its last turn left
            // open), and a square with no unit on it.
            let mut cut = record.clone();
            cut.turns.truncate(nth + 1);
            cut.turns[nth].steps.truncate(step - 1);
            cut.turns[nth].open = true;
            if step == 1 {
                cut.turns.pop();
            }
            cut.set_tag("Result", "*");
            let pos = cut.replay(&v).unwrap().game.position().clone();
            let geo = &v.geometry;
            let empty = geo
                .squares
                .iter()
                .find(|&sq| pos.unit_at(sq).is_none())
                .unwrap();
            let other = geo.squares.iter().find(|&sq| sq != empty).unwrap();
            let bad = format!("{}-{}", geo.square_name(empty), geo.square_name(other));
            let text = corrupt(&record, nth, step, &bad);
            let file = dir.join(format!("bad-{nth}-{step}.txt"));
            std::fs::write(&file, &text).unwrap();
            let e = Record::parse(&text)
                .unwrap()
                .replay(&v)
                .err()
                .expect("refused");
            assert_eq!((e.turn, e.side, e.step), (t.number, t.side, step), "{e}");
            assert_eq!(e.text, bad);
            let o = cohort(&["replay", file.to_str().unwrap()]);
            let err = String::from_utf8_lossy(&o.stderr).to_string();
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            let want = format!(
                "turn {} ({}), step {step} '{bad}': {bad} is illegal: there is no unit on {}",
                t.number,
                t.side.name(),
                geo.square_name(empty)
            );
            assert!(err.contains(&want), "want '{want}' in: {err}");
            assert!(
                o.stdout.is_empty(),
                "nothing printed on stdout for a bad record"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 8);
    // A record broken in its text is refused with its line; a missing file and a variant
    // that does not exist are refused too, all with status 2.
    let broken = dir.join("broken.txt");
    std::fs::write(
        &broken,
        "[Variant \"mini-chieftain\"]\n\n1. d2-d3 d7-d6\n3. e2-e3 *\n",
    )
    .unwrap();
    let o = cohort(&["replay", broken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("record line 4: turn number 3 after turn 1")
    );
    let unknown = dir.join("unknown.txt");
    std::fs::write(&unknown, "[Variant \"no-such\"]\n\n1. d2-d3 *\n").unwrap();
    let o = cohort(&["replay", unknown.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown variant 'no-such'"));
    let o = cohort(&["replay", dir.join("missing.txt").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_custom_variant_record_carries_its_file() {
    let dir = temp("custom");
    let ini = dir.join("tiny.ini");
    let file = "[tiny-chieftain]\nbase = mini-chieftain\nname = Tiny Chieftain\nboard = 6x6\nsetup = 1ccm2/6/6/6/6/2CMC1 w\n";
    std::fs::write(&ini, file).unwrap();
    let recs = dir.join("recs");
    let o = cohort(&[
        "match",
        "--variant",
        "tiny-chieftain",
        "--variant-file",
        ini.to_str().unwrap(),
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "1",
        "--time",
        "20",
        "--max-turns",
        "10",
        "--records",
        recs.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = recs.join("tiny-chieftain-0001.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[VariantFile \"[tiny-chieftain]\\nbase = mini-chieftain\\n"),
        "{text}"
    );
    let o = cohort(&["replay", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The same record naming its file by hash needs the file, and only that file.
    let mut r = Record::parse(&text).unwrap();
    r.set_tag("VariantFile", "");
    r.set_tag("VariantFileSHA256", cohort_engine::record::sha256_hex(file));
    let hashed = dir.join("hashed.txt");
    std::fs::write(&hashed, r.to_text()).unwrap();
    let o = cohort(&["replay", hashed.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("give that file"));
    let o = cohort(&[
        "replay",
        hashed.to_str().unwrap(),
        "--variant-file",
        ini.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let other = dir.join("other.ini");
    std::fs::write(&other, file.replace("Tiny", "Small")).unwrap();
    let o = cohort(&[
        "replay",
        hashed.to_str().unwrap(),
        "--variant-file",
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("SHA-256"));
    // A protocol engine is given the variant file too (`variant <file> <id>`).
    let engine = format!("cmd:{BIN} engine");
    let recs2 = dir.join("recs2");
    let o = cohort(&[
        "match",
        "--variant",
        "tiny-chieftain",
        "--variant-file",
        ini.to_str().unwrap(),
        "--a",
        &engine,
        "--b",
        "random",
        "--games",
        "2",
        "--time",
        "30",
        "--max-turns",
        "10",
        "--records",
        recs2.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success() && out.contains("illegal steps: 0;"),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = cohort(&[
        "replay",
        recs2.join("tiny-chieftain-0002.txt").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Talk to `cohort engine`: send lines, collect its answers until `ready` after `isready`.
#[test]
fn cohort_engine_speaks_the_protocol_and_answers_bad_input_with_error_lines() {
    let mut child = Command::new(BIN)
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    // `cohort` is answered up to its own `ready`; other commands get `isready` after them.
    // A `go` is answered up to its `bestturn` (or an error line).
    let mut ask = |lines: &[&str]| -> Vec<String> {
        for l in lines {
            writeln!(input, "{l}").unwrap();
        }
        let go = lines.last().is_some_and(|l| l.starts_with("go "));
        if lines != ["cohort"] && !go {
            writeln!(input, "isready").unwrap();
        }
        input.flush().unwrap();
        let mut got = vec![];
        loop {
            let mut line = String::new();
            assert!(
                out.read_line(&mut line).unwrap() > 0,
                "engine exited; got {got:?}"
            );
            let line = line.trim().to_string();
            if line == "ready" && !go {
                return got;
            }
            let last = go && (line.starts_with("bestturn") || line.starts_with("error"));
            got.push(line);
            if last {
                return got;
            }
        }
    };
    let hello = ask(&["cohort"]);
    assert!(hello.contains(&"id name Cohort".to_string()), "{hello:?}");
    assert!(hello
        .iter()
        .any(|l| l.starts_with("variants ") && l.contains(" lifeform ")));
    let e = ask(&["position startpos"]);
    assert!(e[0].starts_with("error position before variant"), "{e:?}");
    assert_eq!(
        ask(&["variant lifeform"]),
        vec!["variant lifeform Lifeform Chess"]
    );
    let steps = ask(&["position startpos", "steps"]);
    assert!(
        steps[0].starts_with("steps ") && steps[0].contains(" c1-b3 "),
        "{steps:?}"
    );
    assert!(
        !steps[0].contains(" end"),
        "no end before a move: {steps:?}"
    );
    let steps = ask(&["position startpos steps c1-b3", "steps"]);
    assert!(
        steps[0].contains(" c2-c1") && steps[0].ends_with(" end"),
        "{steps:?}"
    );
    for (bad, needle) in [
        (
            "position startpos steps c1-b3 b2-b3",
            "error step 2 'b2-b3'",
        ),
        (
            "variant no-such-variant",
            "error unknown variant 'no-such-variant'",
        ),
        (
            "variant /no/such/file.ini",
            "error cannot read variant file /no/such/file.ini",
        ),
        ("go time", "error go: 'time' needs a number"),
        ("go time soon", "error go: 'time soon': not a whole number"),
        ("go later 10", "error go: unknown field 'later'"),
        ("frobnicate", "error unknown command 'frobnicate'"),
        ("position 8/8 w", "error position:"),
    ] {
        let got = ask(&[bad]);
        assert_eq!(got.len(), 1, "{bad}: {got:?}");
        assert!(got[0].starts_with(needle), "{bad}: {got:?}");
    }
    // The position is unchanged by the refused commands: a whole turn from Lifeform's start.
    let answer = ask(&["position startpos", "go time 300"]);
    let best = answer
        .iter()
        .find(|l| l.starts_with("bestturn "))
        .expect("bestturn");
    assert!(
        answer.iter().any(|l| l.starts_with("info depth 1 score ")),
        "{answer:?}"
    );
    let v = builtin("lifeform").unwrap();
    let mut g = Game::new(v.start());
    for s in best.split_whitespace().skip(1) {
        g.play_text(s)
            .unwrap_or_else(|e| panic!("{best}: {s}: {e}"));
    }
    assert_eq!(
        g.position().side_to_move(),
        cohort_rules::Side::Black,
        "{best}"
    );
    assert!(best.ends_with(" end"), "{best}");
    // A game over: go is refused.
    let over = ask(&[
        "variant micro-chieftain",
        "position 8/8/8/8/8/8/8/4C3 w",
        "go time 50",
    ]);
    assert!(over.iter().any(|l| l.starts_with("error ")), "{over:?}");
    writeln!(input, "quit").unwrap();
    input.flush().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
}

fn python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_python_bot_plays_full_games_against_cohort_engine() {
    assert!(python(), "python3 is needed for examples/bot.py");
    let dir = temp("pybot");
    let recs = dir.join("recs");
    let bot = format!("cmd:python3 {}", repo().join("examples/bot.py").display());
    let engine = format!("cmd:{BIN} engine");
    let o = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "micro-chieftain",
            "--a",
            &bot,
            "--b",
            &engine,
            "--games",
            "2",
            "--time",
            "50",
            "--max-turns",
            "300",
            "--records",
            recs.to_str().unwrap(),
        ])
        .env("COHORT_BIN", BIN)
        .env("BOT_SEED", "7")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("illegal steps: 0;"), "{out}");
    for i in 1..=2 {
        let path = recs.join(format!("micro-chieftain-{i:04}.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let record = Record::parse(&text).unwrap();
        let bot_side = if i == 1 { "White" } else { "Black" };
        assert!(
            record.tag(bot_side).unwrap().contains("examples/bot.py"),
            "{text}"
        );
        // A full game: over by the rules, every turn of both programs legal.
        let termination = record.tag("Termination").unwrap();
        assert!(
            [
                "victory",
                "repetition",
                "turns without a capture",
                "no legal turn"
            ]
            .contains(&termination),
            "{text}"
        );
        let replayed = record.replay(&record.variant(None).unwrap()).unwrap();
        assert!(replayed.game.result().is_some(), "{text}");
        assert!(record.turns.len() >= 4, "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn http(port: u16, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

#[test]
fn cohort_bot_plays_a_seat_of_a_live_game_through_the_server() {
    assert!(python(), "python3 is needed for examples/bot.py");
    let dir = temp("server-bot");
    let db = format!("sqlite://{}", dir.join("games.db").display());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(BIN)
        .args([
            "serve",
            "--port",
            &port.to_string(),
            "--database",
            &db,
            "--ai-workers",
            "1",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut banner = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut banner)
        .unwrap();
    assert!(banner.contains(&format!("127.0.0.1:{port}")), "{banner}");
    let (s, created) = http(
        port,
        "POST",
        "/api/games",
        r#"{"variant":"micro-chieftain","white":"human","black":"ai","ai":{"agent":"random","time_ms":50}}"#,
    );
    assert_eq!(s, 200, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    let (id, token) = (
        created["id"].as_str().unwrap(),
        created["tokens"]["white"].as_str().unwrap(),
    );
    // A wrong token is refused before any engine starts.
    let o = cohort(&[
        "bot",
        "--server",
        &format!("http://127.0.0.1:{port}"),
        "--game",
        id,
        "--token",
        "0123",
        "--",
        "python3",
        "examples/bot.py",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not the token of a seat"));
    let started = Instant::now();
    let o = Command::new(BIN)
        .args([
            "bot",
            "--server",
            &format!("http://127.0.0.1:{port}"),
            "--game",
            id,
            "--token",
            token,
            "--time",
            "100",
            "--",
            "python3",
        ])
        .arg(repo().join("examples/bot.py"))
        .env("COHORT_BIN", BIN)
        .env("BOT_SEED", "3")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("game over: "), "{out}");
    assert!(started.elapsed() < Duration::from_secs(120));
    // The server's record: a finished game whose White turns are the bot's, all legal.
    let (s, text) = http(port, "GET", &format!("/api/games/{id}/record"), "");
    assert_eq!(s, 200);
    let record = Record::parse(&text).unwrap();
    assert_ne!(record.result(), "*", "{text}");
    let replayed = record.replay(&record.variant(None).unwrap()).unwrap();
    assert!(replayed.game.result().is_some());
    let white_turns = record
        .turns
        .iter()
        .filter(|t| t.side == cohort_rules::Side::White)
        .count();
    assert_eq!(
        out.lines().filter(|l| l.starts_with("turn ")).count(),
        white_turns,
        "{out}\n{text}"
    );
    let _ = server.kill();
    let _ = server.wait();
    // `cohort record export` reads the same record from the database.
    let o = cohort(&["record", "export", "--database", &db, id]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), text);
    let o = cohort(&["record", "export", "--database", &db, "nosuchgame"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no game 'nosuchgame'"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cohort tune` on records `cohort match` wrote: the fitted values come out as a variant
/// line, and the variant file it writes loads with them (docs/engine.md, "Tuning the values").
#[test]
fn tune_fits_values_from_match_records_and_writes_a_variant_that_loads() {
    let dir = temp("tune");
    let games = dir.join("games");
    let o = cohort(&[
        "match",
        "--variant",
        "micro-chieftain",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "24",
        "--time",
        "20",
        "--seed",
        "5",
        "--records",
        games.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = dir.join("tuned.ini");
    let o = cohort(&[
        "tune",
        "--variant",
        "micro-chieftain",
        "--skip-turns",
        "0",
        "--write",
        file.to_str().unwrap(),
        games.to_str().unwrap(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("records: 24 (24 finished games of micro-chieftain)"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("values = "))
        .unwrap_or_else(|| panic!("no values line: {out}"));
    // The written file defines micro-chieftain-tuned with exactly those values.
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[micro-chieftain-tuned]") && text.contains(line),
        "{text}"
    );
    let loaded =
        cohort_rules::parse_variants("tuned.ini", &text, &cohort_rules::builtin_variants())
            .expect("the written file loads");
    let v = &loaded[0];
    for item in line["values = ".len()..].split_whitespace() {
        let (letter, n) = item.split_once('=').unwrap();
        let kind = v.kind_of_letter(letter.chars().next().unwrap()).unwrap();
        assert_eq!(v.pieces[kind].value, Some(n.parse().unwrap()), "{item}");
    }
}

/// `cohort review` marks the turns of records: a random player's turns against the engine
/// are marked, and `--verify` searches each mistake or worse again and counts how many the
/// deeper search confirms. A record that does not exist fails with status 2 and its name.
#[test]
fn review_marks_a_random_players_turns_and_verifies_them_deeper() {
    let dir = temp("review");
    let d = dir.display().to_string();
    let out = cohort(&[
        "match",
        "--variant",
        "chess",
        "--a",
        "engine",
        "--b",
        "random",
        "--games",
        "1",
        "--time",
        "20",
        "--seed",
        "3",
        "--max-turns",
        "24",
        "--records",
        &d,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = cohort(&["review", &d, "--time", "40", "--verify", "80"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let total = text
        .lines()
        .find(|l| l.starts_with("total: 1 games"))
        .expect(&text);
    // total: 1 games, T turns, I inaccuracies, M mistakes, B blunders; ...
    let numbers: Vec<usize> = total
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let (turns, mistakes, blunders) = (numbers[1], numbers[3], numbers[4]);
    assert!(turns >= 6, "{total}");
    assert!(mistakes + blunders >= 2, "random moves are marked: {total}");
    let again = text
        .lines()
        .find(|l| l.starts_with("searched again at 80 ms: "))
        .expect(&text);
    let counts: Vec<usize> = again
        .trim_start_matches("searched again at 80 ms: ")
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(
        counts[1],
        mistakes + blunders,
        "every mark searched again: {again}"
    );
    assert!(counts[0] <= counts[1] && counts[0] > 0, "{again}");
    let missing = cohort(&["review", &format!("{d}/none.txt")]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("none.txt"));
    let _ = std::fs::remove_dir_all(&dir);
}
