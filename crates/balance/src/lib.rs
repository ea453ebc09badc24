//! Balance studies: the engine plays a variant against itself many times, and the games are
//! summed up in the statistics a game's inventor asks about (who wins, how long games last,
//! how long nobody captures, which units do the work, what moving first is worth).
//!
//! A study is its [`Settings`] (variant, number of games, limits, seed). Game `g` is played
//! from its own seed, [`game_seed`]`(seed, g)`, by fresh engines, so a game does not depend
//! on which thread or machine plays it: a study split into shards (`g % n == i`) and merged
//! holds the same games as the study run whole. With a node or depth limit and no time limit
//! each game is a function of its seed alone; under a time limit the engine searches as deep
//! as the clock allows and games differ from run to run (docs/balance.md).

pub mod report;
pub mod stats;

use cohort_rules::Rules;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cohort_engine::{Agent, EngineAgent, Limits, Rng};
use cohort_rules::{Game, Outcome, Side, StepKind, StepList, Variant};
use serde::{Deserialize, Serialize};

pub use stats::Summary;

/// The `format` field of a study file.
pub const FORMAT: &str = "cohort-balance/1";

/// What makes a study: two shards merge only if these are equal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub variant: String,
    pub variant_name: String,
    /// A digest of the variant's rules (board, pieces, command, victory and draw rules,
    /// set-up): a variant file edited between shards is caught.
    pub variant_fingerprint: String,
    pub games: usize,
    /// Time per turn in milliseconds (None: no clock).
    pub time_ms: Option<u64>,
    /// Node budget of a turn's first step search (later steps of the turn get a quarter).
    pub nodes: Option<u64>,
    /// Deepest search per step, in steps.
    pub depth: Option<u32>,
    pub seed: u64,
    /// Random turns played from the start before the engines take over (openings differ).
    pub opening_turns: usize,
    /// A game still going after this many turns is drawn (the variant's draw rules come first).
    pub max_turns: usize,
    /// The side that moves first in the variant's start position: "white" or "black".
    pub first_mover: String,
    /// The piece kinds, `letter name`, in the variant's order (indexes of the per-kind counts).
    pub kinds: Vec<String>,
    /// The engine's version (the cohort crates' version).
    pub version: String,
}

impl Settings {
    /// Settings for a study of `variant`; the limits as given (at least one of them).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        variant: &Arc<Variant>,
        games: usize,
        time_ms: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        seed: u64,
        opening_turns: usize,
        max_turns: usize,
    ) -> Settings {
        Settings {
            variant: variant.id.clone(),
            variant_name: variant.name.clone(),
            variant_fingerprint: fingerprint(variant),
            games,
            time_ms,
            nodes,
            depth,
            seed,
            opening_turns,
            max_turns,
            first_mover: variant.start().side_to_move().name().to_lowercase(),
            kinds: variant
                .pieces
                .iter()
                .map(|p| format!("{} {}", p.letter, p.name))
                .collect(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// Without a clock every game is a function of its seed (single-threaded search).
    pub fn deterministic(&self) -> bool {
        self.time_ms.is_none()
    }

    /// The limits in words: `nodes 20000`, `time 200 ms, depth 4`.
    pub fn limits_text(&self) -> String {
        let mut parts = vec![];
        if let Some(t) = self.time_ms {
            parts.push(format!("time {t} ms"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        parts.join(", ")
    }

    /// The first setting in which `other` differs, as `name (mine vs other's)`.
    pub fn difference(&self, other: &Settings) -> Option<String> {
        let a = serde_json::to_value(self).ok()?;
        let b = serde_json::to_value(other).ok()?;
        let (a, b) = (a.as_object()?, b.as_object()?);
        // The fields in order of importance, then any other.
        let first = [
            "variant",
            "variant_fingerprint",
            "games",
            "time_ms",
            "nodes",
            "depth",
            "seed",
            "opening_turns",
            "max_turns",
        ];
        let keys = first
            .iter()
            .map(|k| k.to_string())
            .chain(a.keys().filter(|k| !first.contains(&k.as_str())).cloned());
        for key in keys {
            let null = serde_json::Value::Null;
            let va = a.get(&key).unwrap_or(&null);
            let vb = b.get(&key).cloned().unwrap_or(serde_json::Value::Null);
            if *va != vb {
                let show = |v: &serde_json::Value| match v {
                    serde_json::Value::Null => "none".to_string(),
                    serde_json::Value::String(s) => s.clone(),
                    v => v.to_string(),
                };
                return Some(format!("{key} ({} vs {})", show(va), show(&vb)));
            }
        }
        None
    }
}

/// A digest of everything in a variant that changes play (not its name or description).
pub fn fingerprint(v: &Variant) -> String {
    // The body family's variants were once written with a `Body` command model; they keep
    // the digest they had (a study's results stay matched to their variant).
    let command = if v.is_body() {
        "Body".to_string()
    } else {
        format!("{:?}", v.command)
    };
    let mut text = format!(
        "{}|{}x{}|{}|{:?}|{:?}|rep {}|quiet {}|{}|{:?}|{}|{:?}",
        v.id,
        v.geometry.files,
        v.geometry.ranks,
        command,
        v.victory,
        v.no_legal_turn,
        v.repetition,
        v.quiet_turns,
        v.setup,
        v.placement,
        v.fide,
        &v.activates[..v.pieces.len().min(v.activates.len())],
    );
    for p in &v.pieces {
        text.push_str(&format!(
            "|{}:{}:{}:{}:{}:{:?}",
            p.letter, p.name, p.moves, p.royal, p.leader, p.role
        ));
    }
    for m in &v.lead_modes {
        text.push_str(&format!(
            "|lead {} {} {} {} {}",
            m.leader, m.name, m.budget, m.others, m.activates
        ));
        for (k, moves, _) in &m.remap {
            text.push_str(&format!(" {k}={moves}"));
        }
    }
    format!("{:016x}", fnv1a(text.as_bytes()))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One part of a study: the games `g` with `g % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `i/n` with 0 <= i < n.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}': expected i/n with 0 <= i < n, like 0/4");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<usize>().map_err(|_| bad())?,
            n.trim().parse::<usize>().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn contains(&self, game: usize) -> bool {
        game % self.count == self.index
    }

    /// The game indices of this shard in a study of `games` games.
    pub fn games(&self, games: usize) -> Vec<usize> {
        (self.index..games).step_by(self.count).collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One game of a study.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub index: usize,
    pub seed: u64,
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    /// How it ended: "victory", "repetition", "turns without a capture", "turn cap (400)"...
    pub reason: String,
    /// Every turn's steps in notation (`end` left implicit), the random opening included.
    pub turns: Vec<Vec<String>>,
    /// Captures in each turn.
    pub captures: Vec<u32>,
    /// Per piece kind (Settings::kinds), for White and Black, in the engines' turns (not the
    /// random opening): unit moves, captures made, and units of the kind lost.
    pub kind_moves: Vec<[u32; 2]>,
    pub kind_captures: Vec<[u32; 2]>,
    pub kind_lost: Vec<[u32; 2]>,
    /// Search nodes of White's and Black's engine over the game.
    pub nodes: [u64; 2],
    /// Set if the engine offered an illegal step or left its turn unfinished (it loses).
    pub illegal: Option<String>,
    /// Wall-clock milliseconds the game took (the only field that depends on the machine).
    pub ms: f64,
}

impl GameResult {
    /// White's score: 1, 0.5 or 0.
    pub fn white_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }

    /// The game with its timing removed: what must be equal between two runs of a
    /// deterministic study.
    pub fn without_timing(&self) -> GameResult {
        GameResult {
            ms: 0.0,
            ..self.clone()
        }
    }
}

/// A study's output (`--json`): its settings, which shard, the command lines that made it,
/// every game in index order, and the summary of those games.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudyFile {
    pub format: String,
    pub settings: Settings,
    pub shard: Shard,
    pub commands: Vec<String>,
    /// Seconds of wall clock and the threads each run used (informative only).
    pub wall_seconds: f64,
    pub threads: usize,
    pub games: Vec<GameResult>,
    /// Written for readers of the file; always recomputed from the games when read.
    #[serde(skip_deserializing)]
    pub summary: Summary,
}

impl StudyFile {
    pub fn new(
        settings: Settings,
        shard: Shard,
        command: String,
        wall_seconds: f64,
        threads: usize,
        mut games: Vec<GameResult>,
    ) -> StudyFile {
        games.sort_by_key(|g| g.index);
        let summary = Summary::of(&settings, &games);
        StudyFile {
            format: FORMAT.into(),
            settings,
            shard,
            commands: vec![command],
            wall_seconds,
            threads,
            games,
            summary,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a study serializes")
    }

    /// Read a study file; `name` (its path) is used in the error.
    pub fn parse(name: &str, text: &str) -> Result<StudyFile, String> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| format!("{name}: not a JSON study file: {e}"))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(format!(
                    "{name}: study format '{other}', this cohort reads '{FORMAT}'"
                ))
            }
            None => {
                return Err(format!(
                    "{name}: not a study file of `cohort balance --json` (no \"format\" field)"
                ))
            }
        }
        let mut file: StudyFile = serde_json::from_value(value)
            .map_err(|e| format!("{name}: malformed study file: {e}"))?;
        if file.shard.count == 0 || file.shard.index >= file.shard.count {
            return Err(format!(
                "{name}: shard {} is not i/n with i < n",
                file.shard
            ));
        }
        let want = file.shard.games(file.settings.games);
        let have: Vec<usize> = file.games.iter().map(|g| g.index).collect();
        if have != want {
            return Err(format!(
                "{name}: shard {} of a {}-game study should hold {} games, it holds {} (an interrupted or edited run?)",
                file.shard,
                file.settings.games,
                want.len(),
                have.len()
            ));
        }
        for g in &file.games {
            if g.seed != game_seed(file.settings.seed, g.index) {
                return Err(format!(
                    "{name}: game {} has seed {}, not the study's seed for it",
                    g.index, g.seed
                ));
            }
        }
        file.summary = Summary::of(&file.settings, &file.games);
        Ok(file)
    }
}

/// Join the shards of one study. Refused: files of different studies (the first differing
/// setting is named), a shard given twice, shards of different splits, a missing shard.
pub fn merge(files: Vec<(String, StudyFile)>) -> Result<StudyFile, String> {
    let Some((first_name, first)) = files.first() else {
        return Err("merge: no study files given".into());
    };
    let mut seen: Vec<Option<&str>> = vec![None; first.shard.count];
    for (name, f) in &files {
        if let Some(diff) = first.settings.difference(&f.settings) {
            return Err(format!(
                "{name} and {first_name} are different studies: {diff}"
            ));
        }
        if f.shard.count != first.shard.count {
            return Err(format!(
                "{name} is shard {} but {first_name} is shard {}: shards of different splits",
                f.shard, first.shard
            ));
        }
        if let Some(other) = seen[f.shard.index] {
            return Err(format!("{name} and {other} are both shard {}", f.shard));
        }
        seen[f.shard.index] = Some(name);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| format!("{i}/{}", first.shard.count))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "merge: shard(s) {} missing (given: {})",
            missing.join(", "),
            files
                .iter()
                .map(|(n, f)| format!("{n} = {}", f.shard))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut games = Vec::with_capacity(first.settings.games);
    let mut commands = Vec::new();
    let (mut wall, mut threads) = (0.0f64, 0);
    for (_, f) in &files {
        games.extend(f.games.iter().cloned());
        commands.extend(f.commands.iter().cloned());
        wall = wall.max(f.wall_seconds);
        threads += f.threads;
    }
    let mut merged = StudyFile::new(
        first.settings.clone(),
        Shard::WHOLE,
        String::new(),
        wall,
        threads,
        games,
    );
    merged.commands = commands;
    Ok(merged)
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The seed of game `index` of a study seeded `seed`: the same on every machine and shard.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    splitmix64(splitmix64(seed) ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// What is recorded of each step as the game goes.
struct Tally {
    turns: Vec<Vec<String>>,
    captures: Vec<u32>,
    kind_moves: Vec<[u32; 2]>,
    kind_captures: Vec<[u32; 2]>,
    kind_lost: Vec<[u32; 2]>,
}

impl Tally {
    fn new(kinds: usize) -> Tally {
        Tally {
            turns: vec![],
            captures: vec![],
            kind_moves: vec![[0; 2]; kinds],
            kind_captures: vec![[0; 2]; kinds],
            kind_lost: vec![[0; 2]; kinds],
        }
    }

    /// Play one step of the current turn (the turn's entry must exist), counting it; the
    /// per-kind counts only when `count_kinds`.
    fn play(
        &mut self,
        game: &mut Game,
        step: cohort_rules::Step,
        count_kinds: bool,
    ) -> Result<(), String> {
        let pos = game.position();
        let side = pos.side_to_move();
        let text = pos.step_text(step);
        let mover = match step.kind {
            StepKind::Move | StepKind::Promote(_) | StepKind::Pin => {
                pos.unit_at(step.from).map(|u| u.kind as usize)
            }
            _ => None,
        };
        game.play(step)?;
        // What the step took, as the rules report it: every capture method counts (a
        // Withdrawer's, an enclosure's), a Lifeform regulation's removal does not.
        let mut victims = [0u32; 16];
        let mut taken = 0usize;
        for (victim_side, kind, _, capture) in game.last_effects().removed() {
            if capture && victim_side != side && taken < victims.len() {
                victims[taken] = kind as u32;
                taken += 1;
            }
        }
        let turn = self.turns.len() - 1;
        if !step.is_end() {
            self.turns[turn].push(text);
        }
        if taken > 0 {
            self.captures[turn] += 1;
        }
        if count_kinds {
            let s = side.index();
            if let Some(k) = mover {
                self.kind_moves[k][s] += 1;
                if taken > 0 {
                    self.kind_captures[k][s] += 1;
                }
            }
            for &v in &victims[..taken] {
                self.kind_lost[v as usize][1 - s] += 1;
            }
        }
        Ok(())
    }

    fn start_turn(&mut self) {
        self.turns.push(vec![]);
        self.captures.push(0);
    }
}

/// One random opening turn: uniform steps, ending the turn with probability 1/2 whenever it
/// may end, so openings stay modest; a free set-up is placed as the agents place it.
fn random_turn(game: &mut Game, tally: &mut Tally, rng: &mut Rng, seed: u64) -> Result<(), String> {
    tally.start_turn();
    if let Some(choice) = cohort_engine::placement_turn(game, seed) {
        for s in choice.steps {
            tally.play(game, s, false)?;
        }
        return Ok(());
    }
    let side = game.position().side_to_move();
    let mut list = StepList::new();
    while game.result().is_none() && game.position().side_to_move() == side {
        game.legal_steps(&mut list);
        if list.is_empty() {
            return Err("no legal step in the opening".into());
        }
        let end = list.iter().find(|s| s.is_end()).copied();
        let s = match end {
            Some(e) if rng.below(2) == 0 => e,
            _ => list.as_slice()[rng.below(list.len())],
        };
        tally.play(game, s, false)?;
    }
    Ok(())
}

/// Play game `index` of the study: a random opening from its seed, then the engine against
/// itself (a fresh engine per side) within the study's limits.
pub fn play_game(variant: &Arc<Variant>, settings: &Settings, index: usize) -> GameResult {
    let started = Instant::now();
    let seed = game_seed(settings.seed, index);
    let kinds = variant.pieces.len();
    // The opening: retried from the next random numbers should it end the game.
    let mut rng = Rng::new(seed);
    let (mut game, mut tally) = (Game::new(variant.start()), Tally::new(kinds));
    for _ in 0..100 {
        game = Game::new(variant.start());
        tally = Tally::new(kinds);
        let mut ok = true;
        for t in 0..settings.opening_turns {
            if game.result().is_some()
                || random_turn(&mut game, &mut tally, &mut rng, seed ^ t as u64).is_err()
            {
                ok = false;
                break;
            }
        }
        if ok && game.result().is_none() {
            break;
        }
    }
    let mut engines: Vec<EngineAgent> = (0..2).map(|_| EngineAgent::new(variant)).collect();
    if let Some(d) = settings.depth {
        for e in &mut engines {
            e.set_max_depth(d);
        }
    }
    let mut nodes = [0u64; 2];
    let mut illegal = None;
    let mut forfeit: Option<(Side, &str)> = None;
    while game.result().is_none() && tally.turns.len() < settings.max_turns {
        let side = game.position().side_to_move();
        let limits = Limits {
            time: settings.time_ms.map(Duration::from_millis),
            nodes: settings.nodes,
            seed: seed.wrapping_add(tally.turns.len() as u64 * 7919),
            threads: 1,
            clock: None,
        };
        let choice = engines[side.index()].choose_turn(&game, &limits);
        nodes[side.index()] += choice.stats.nodes;
        tally.start_turn();
        for s in &choice.steps {
            if let Err(e) = tally.play(&mut game, *s, true) {
                illegal = Some(format!("{} engine: {e}", side.name()));
                forfeit = Some((side, "illegal step"));
                break;
            }
        }
        if forfeit.is_some() {
            break;
        }
        if game.result().is_none() && game.position().side_to_move() == side {
            illegal = Some(format!("{} engine did not finish its turn", side.name()));
            forfeit = Some((side, "unfinished turn"));
            break;
        }
    }
    let (outcome, reason) = match (forfeit, game.result()) {
        (Some((side, why)), _) => (Outcome::Win(side.other()), why.to_string()),
        (None, Some((o, r))) => (o, r.describe().to_string()),
        (None, None) => (Outcome::Draw, format!("turn cap ({})", settings.max_turns)),
    };
    GameResult {
        index,
        seed,
        result: match outcome {
            Outcome::Win(Side::White) => "1-0",
            Outcome::Win(Side::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
        .into(),
        reason,
        turns: tally.turns,
        captures: tally.captures,
        kind_moves: tally.kind_moves,
        kind_captures: tally.kind_captures,
        kind_lost: tally.kind_lost,
        nodes,
        illegal,
        ms: started.elapsed().as_secs_f64() * 1000.0,
    }
}

/// Play the shard's games of a study on `threads` threads (each game on one thread, games
/// taken in index order); `on_game` is called as each game ends. Results in index order.
pub fn run(
    variant: &Arc<Variant>,
    settings: &Settings,
    shard: Shard,
    threads: usize,
    on_game: &(dyn Fn(&GameResult) + Sync),
) -> Vec<GameResult> {
    let indices = shard.games(settings.games);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(indices.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, indices.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&g) = indices.get(i) else { break };
                let r = play_game(variant, settings, g);
                on_game(&r);
                results.lock().unwrap().push(r);
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|g| g.index);
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_games() {
        let games = 23;
        let mut all: Vec<usize> = (0..4)
            .flat_map(|i| Shard { index: i, count: 4 }.games(games))
            .collect();
        all.sort();
        assert_eq!(all, (0..games).collect::<Vec<_>>());
        assert!(Shard::parse("4/4").is_err() && Shard::parse("1/0").is_err());
        assert!(Shard::parse("x").is_err() && Shard::parse("1/2/3").is_err());
        assert_eq!(Shard::parse("3/4"), Ok(Shard { index: 3, count: 4 }));
    }

    #[test]
    fn game_seeds_differ_by_index_and_study() {
        let a: Vec<u64> = (0..100).map(|g| game_seed(1, g)).collect();
        let mut sorted = a.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 100);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }

    #[test]
    fn a_node_limited_game_is_a_function_of_its_seed() {
        let v = cohort_rules::builtin("micro-chieftain").unwrap();
        let s = Settings::new(&v, 4, None, Some(2000), None, 7, 2, 60);
        let a = play_game(&v, &s, 3).without_timing();
        let b = play_game(&v, &s, 3).without_timing();
        assert_eq!(a, b);
        let c = play_game(&v, &s, 2).without_timing();
        assert_ne!(a.turns, c.turns, "two games of a study share their moves");
        // Every recorded turn replays legally.
        let mut game = Game::new(v.start());
        for turn in &a.turns {
            let side = game.position().side_to_move();
            for step in turn {
                game.play_text(step).unwrap();
            }
            if game.result().is_none() && game.position().side_to_move() == side {
                game.play_text("end").unwrap();
            }
        }
        assert_eq!(
            game.result().map(|r| r.1.describe().to_string()),
            Some(a.reason.clone()).filter(|r| !r.starts_with("turn cap"))
        );
        assert_eq!(a.captures.len(), a.turns.len());
    }
}
