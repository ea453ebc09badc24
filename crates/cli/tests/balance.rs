//! `cohort balance`: shards merged equal the whole study; merge refuses what does not belong
//! together; bad arguments are one line and exit status 2. Run against the real binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn cohort(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cohort"))
        .args(args)
        .output()
        .expect("run cohort")
}

fn ok(args: &[&str]) -> String {
    let o = cohort(args);
    assert!(
        o.status.success(),
        "{args:?}: {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A user error: exit status 2, one line on standard error containing `needle`, no panic.
fn user_error(args: &[&str], needle: &str) {
    let o = cohort(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {:?}: {err}", o.status);
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: want one line:\n{err}"
    );
    assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cohort-balance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn p(dir: &Path, file: &str) -> String {
    dir.join(file).to_string_lossy().into_owned()
}

fn read(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The games without their wall-clock field, which is the only one allowed to differ.
fn games(v: &Value) -> Vec<Value> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let mut g = g.clone();
            g.as_object_mut().unwrap().remove("ms");
            g
        })
        .collect()
}

/// Quick settings: micro-Chieftain under a node limit (no clock), a few seconds in all.
const STUDY: [&str; 8] = [
    "balance",
    "--variant",
    "micro-chieftain",
    "--games",
    "14",
    "--nodes",
    "1500",
    "--max-turns",
];

fn study(extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = STUDY.iter().map(|s| s.to_string()).collect();
    a.push("150".into());
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn run(args: &[String]) -> String {
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn four_shards_merged_equal_one_run_with_the_same_seeds() {
    let dir = scratch("shards");
    let whole = p(&dir, "whole.json");
    let out = run(&study(&[
        "--seed",
        "5",
        "--threads",
        "2",
        "--json",
        &whole,
        "--out",
        &p(&dir, "whole.html"),
    ]));
    assert!(
        out.contains("White wins") && out.contains("14 games"),
        "{out}"
    );
    // Each shard on its own thread count: scheduling must not matter.
    for i in 0..4 {
        let threads = (1 + i % 2).to_string();
        let shard = format!("{i}/4");
        run(&study(&[
            "--shard",
            &shard,
            "--seed",
            "5",
            "--threads",
            &threads,
            "--json",
            &p(&dir, &format!("s{i}.json")),
        ]));
        let s = read(&p(&dir, &format!("s{i}.json")));
        let idx: Vec<u64> = s["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["index"].as_u64().unwrap())
            .collect();
        assert!(idx.iter().all(|g| g % 4 == i as u64), "shard {i}: {idx:?}");
    }
    // Given in any order.
    let merged = p(&dir, "merged.json");
    let html = p(&dir, "merged.html");
    let md = p(&dir, "merged.md");
    let text = ok(&[
        "balance",
        "merge",
        &p(&dir, "s2.json"),
        &p(&dir, "s0.json"),
        &p(&dir, "s3.json"),
        &p(&dir, "s1.json"),
        "--json",
        &merged,
        "--out",
        &html,
        "--md",
        &md,
    ]);
    let (a, b) = (read(&whole), read(&merged));
    assert_eq!(games(&a).len(), 14);
    assert_eq!(games(&a), games(&b), "per-game results differ");
    assert_eq!(a["summary"], b["summary"], "summaries differ");
    assert_eq!(a["settings"], b["settings"]);
    // The terminal summary printed by the merge is the whole run's, line for line.
    let first_lines = |t: &str| t.lines().take(12).collect::<Vec<_>>().join("\n");
    assert_eq!(first_lines(&text), first_lines(&out));
    // The games really were played: something was captured, the results add up.
    let s = &a["summary"];
    assert!(s["captures"]["mean"].as_f64().unwrap() > 0.0);
    let total = s["white_wins"].as_u64().unwrap()
        + s["black_wins"].as_u64().unwrap()
        + s["draws"].as_u64().unwrap();
    assert_eq!(total, 14);
    // The merged study remembers the four shards' command lines.
    assert_eq!(b["commands"].as_array().unwrap().len(), 4);
    // The report is one self-contained file of SVG charts; the markdown has the tables.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.matches("<svg").count() >= 6, "charts missing");
    assert!(!page.contains("<script") && !page.contains("src=\"http"));
    let mdtext = std::fs::read_to_string(&md).unwrap();
    assert!(mdtext.contains("| White wins |") && mdtext.contains("--shard 3/4"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_shards_that_do_not_belong_together() {
    let dir = scratch("refuse");
    let shard = |i: usize, n: usize, seed: &str, file: &str| {
        let s = format!("{i}/{n}");
        run(&study(&[
            "--shard",
            &s,
            "--seed",
            seed,
            "--threads",
            "1",
            "--json",
            &p(&dir, file),
        ]));
    };
    shard(0, 2, "5", "a0.json");
    shard(1, 2, "6", "b1.json");
    shard(1, 2, "5", "a1.json");
    shard(0, 3, "5", "c0.json");
    let (a0, a1, b1, c0) = (
        p(&dir, "a0.json"),
        p(&dir, "a1.json"),
        p(&dir, "b1.json"),
        p(&dir, "c0.json"),
    );
    let merged = p(&dir, "merged.html");
    user_error(
        &["balance", "merge", &a0, &b1, "--out", &merged],
        "are different studies: seed (5 vs 6)",
    );
    assert!(
        !Path::new(&merged).exists(),
        "a refused merge wrote its report"
    );
    user_error(
        &["balance", "merge", &a0, &c0],
        "shards of different splits",
    );
    user_error(&["balance", "merge", &a0, &a0], "are both shard 0/2");
    user_error(&["balance", "merge", &a0], "shard(s) 1/2 missing");
    // A different variant is a different study.
    let other = p(&dir, "x1.json");
    run(&[
        "balance",
        "--variant",
        "mini-chieftain",
        "--games",
        "14",
        "--nodes",
        "1500",
        "--seed",
        "5",
        "--max-turns",
        "150",
        "--shard",
        "1/2",
        "--json",
        &other,
    ]
    .map(String::from));
    user_error(
        &["balance", "merge", &a0, &other],
        "are different studies: variant",
    );
    // Files that are not study files, or were cut short.
    let junk = p(&dir, "junk.json");
    std::fs::write(&junk, "not json").unwrap();
    user_error(
        &["balance", "merge", &junk],
        "junk.json: not a JSON study file",
    );
    std::fs::write(&junk, "{\"games\": []}").unwrap();
    user_error(&["balance", "merge", &junk], "no \"format\" field");
    let mut cut = read(&a1);
    cut["games"].as_array_mut().unwrap().pop();
    std::fs::write(&junk, cut.to_string()).unwrap();
    user_error(
        &["balance", "merge", &a0, &junk],
        "should hold 7 games, it holds 6",
    );
    user_error(
        &["balance", "merge", &p(&dir, "none.json")],
        "cannot read study file",
    );
    // The right pair merges.
    let text = ok(&["balance", "merge", &a1, &a0]);
    assert!(text.contains("14 games"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_balance_arguments_exit_2_with_one_line() {
    let dir = scratch("args");
    let json = p(&dir, "x.json");
    // Every one is refused before a game is played.
    let base = ["balance", "--variant", "micro-chieftain"];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let check = |extra: &[&str], needle: &str| {
        let a = with(extra);
        user_error(&a.iter().map(String::as_str).collect::<Vec<_>>(), needle);
    };
    check(
        &["--shard", "4/4", "--json", &json],
        "--shard '4/4': expected i/n",
    );
    check(&["--shard", "two", "--json", &json], "--shard 'two'");
    check(&["--shard", "1/2"], "--shard needs --json");
    check(
        &["--games", "2", "--shard", "3/4", "--json", &json],
        "holds no game of a 2-game study",
    );
    check(&["--threads", "0"], "--threads must be at least 1");
    check(&["--depth", "0"], "--depth must be between 1 and 64");
    check(&["--nodes", "0"], "--time and --nodes must be at least 1");
    check(&["--games", "0"], "--games must be at least 1");
    check(
        &["--max-turns", "2"],
        "--max-turns (2) must be above --opening-turns (2)",
    );
    check(
        &["--out", "/nonexistent-dir/r.html"],
        "--out /nonexistent-dir/r.html: cannot write",
    );
    check(&["--nodes", "many"], "invalid value 'many'");
    assert!(!Path::new(&json).exists(), "a refused study wrote its file");
    user_error(
        &["balance", "--variant", "nosuch"],
        "unknown variant 'nosuch'",
    );
    user_error(&["balance", "--games", "3"], "--variant");
    user_error(&["balance", "merge"], "required");
    // --variant also takes a variant file defining one variant; two need --variant-file.
    let one = p(&dir, "one.ini");
    std::fs::write(&one, "[tiny]\nbase = micro-chieftain\nname = Tiny\n").unwrap();
    let out = ok(&[
        "balance",
        "--variant",
        &one,
        "--games",
        "2",
        "--depth",
        "1",
        "--threads",
        "1",
    ]);
    assert!(out.starts_with("Tiny (tiny): 2 games"), "{out}");
    let two = p(&dir, "two.ini");
    std::fs::write(
        &two,
        "[t1]\nbase = micro-chieftain\n[t2]\nbase = micro-chieftain\n",
    )
    .unwrap();
    user_error(
        &["balance", "--variant", &two],
        "defines 2 variants (t1, t2)",
    );
    let out = ok(&[
        "balance",
        "--variant-file",
        &two,
        "--variant",
        "t2",
        "--games",
        "1",
        "--depth",
        "1",
    ]);
    assert!(out.contains("(t2): 1 games"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
