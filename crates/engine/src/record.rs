//! Game records (docs/records.md): a PGN-like text with tags and numbered full turns whose
//! steps follow NOTATION.md, the closing `end` of each turn implied. Parsing and writing do
//! no I/O; `replay` checks every step with the rules and names the first illegal one by
//! its turn and step number.

use cohort_rules::Rules;
use std::fmt;
use std::sync::Arc;

use cohort_rules::{
    builtin_variants, parse_variants, EndReason, Game, Outcome, Side, Step, Variant,
};
use sha2::{Digest, Sha256};

/// The tags a record writes first, in this order; any other tag follows them.
pub const TAG_ORDER: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "White",
    "Black",
    "Result",
    "Variant",
    "VariantFile",
    "VariantFileSHA256",
    "Position",
    "Termination",
];

/// One turn of a record: its full-turn number, the side that played it, its steps (no
/// `end`), and whether it was left open (its `end` not played: a game stopped mid-turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordTurn {
    pub number: u32,
    pub side: Side,
    pub steps: Vec<String>,
    pub open: bool,
    /// The line of the record text it was read from (0 for a record built in memory).
    pub line: usize,
}

/// A game record: tags in their order, turns, and the result token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub turns: Vec<RecordTurn>,
}

/// A record that does not parse: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "record line {}: {}", self.line, self.message)
    }
}

/// A record whose steps do not replay: where (full turn, side, step number within the turn,
/// 1-based, and the step's index among all steps played), the step's text and the reason.
/// Problems that concern no single step (the variant, the start position, the result) have
/// `turn` 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub turn: u32,
    pub side: Side,
    pub step: usize,
    pub index: usize,
    pub text: String,
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.turn == 0 {
            return f.write_str(&self.message);
        }
        write!(
            f,
            "turn {} ({}), step {} '{}': {}",
            self.turn,
            self.side.name(),
            self.step,
            self.text,
            self.message
        )
    }
}

/// A replayed record: the game after its last step, and every step played (`end` included).
pub struct Replayed {
    pub game: Game,
    pub steps: Vec<Step>,
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

impl Record {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Set a tag (replacing it if present); an empty value removes it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        self.tags.retain(|(k, _)| k != name);
        if !value.is_empty() {
            self.tags.push((name.to_string(), value));
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> &str {
        self.tag("Result").unwrap_or("*")
    }

    /// Number of steps the record plays, the implied `end`s not counted.
    pub fn step_count(&self) -> usize {
        self.turns.iter().map(|t| t.steps.len()).sum()
    }

    /// The record of `game` (from its start, every step it played), with the tags Variant,
    /// Position (when the start is not the variant's), Result and Termination set from the
    /// game. The caller adds players, date, and VariantFile for a variant that is not built in.
    pub fn from_game(game: &Game) -> Record {
        let start = game.start();
        let variant = start.variant();
        let mut record = Record {
            tags: vec![],
            turns: vec![],
        };
        let (result, termination) = match game.result() {
            // An aborted game has no result, only the word why.
            Some((_, EndReason::Aborted)) => ("*", EndReason::Aborted.describe()),
            Some((Outcome::Win(Side::White), r)) => ("1-0", r.describe()),
            Some((Outcome::Win(Side::Black), r)) => ("0-1", r.describe()),
            Some((Outcome::Draw, r)) => ("1/2-1/2", r.describe()),
            None => ("*", ""),
        };
        record.set_tag("Result", result);
        record.set_tag("Variant", variant.id.clone());
        let text = start.to_text();
        if text != variant.start().to_text() {
            record.set_tag("Position", text);
        }
        record.set_tag("Termination", termination);
        // Replay on a fresh game: a turn is closed when the side changes or the rules end
        // the game; the last turn of a game resigned or agreed mid-turn stays open.
        let mut fresh = Game::new(start.clone());
        let mut number = 1u32;
        let mut current: Option<RecordTurn> = None;
        for &step in game.steps() {
            let pos = fresh.position();
            let side = pos.side_to_move();
            let text = pos.step_text(step);
            if fresh.play(step).is_err() {
                break;
            }
            let turn = current.get_or_insert_with(|| RecordTurn {
                number,
                side,
                steps: vec![],
                open: true,
                line: 0,
            });
            if !step.is_end() {
                turn.steps.push(text);
            }
            if fresh.position().side_to_move() != side || fresh.result().is_some() {
                let mut t = current.take().expect("turn in progress");
                t.open = false;
                if side == Side::Black {
                    number += 1;
                }
                record.turns.push(t);
            }
        }
        if let Some(t) = current {
            if !t.steps.is_empty() {
                record.turns.push(t);
            }
        }
        record
    }

    /// The record as text: tags, a blank line, one full turn per line, the result.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let mut tags: Vec<&(String, String)> = Vec::new();
        for name in TAG_ORDER {
            tags.extend(self.tags.iter().filter(|(k, _)| k == name));
        }
        tags.extend(
            self.tags
                .iter()
                .filter(|(k, _)| !TAG_ORDER.contains(&k.as_str())),
        );
        if !tags.iter().any(|(k, _)| k == "Result") {
            out += "[Result \"*\"]\n";
        }
        for (k, v) in tags {
            out += &format!("[{k} \"{}\"]\n", escape(v));
        }
        out.push('\n');
        let mut i = 0;
        while i < self.turns.len() {
            let t = &self.turns[i];
            let mut line = format!("{}.", t.number);
            if t.side == Side::Black {
                line += " ...";
            }
            line += &format!(" {}", turn_text(t));
            if t.side == Side::White {
                if let Some(b) = self.turns.get(i + 1) {
                    if b.side == Side::Black && b.number == t.number {
                        line += &format!(" {}", turn_text(b));
                        i += 1;
                    }
                }
            }
            out += &line;
            out.push('\n');
            i += 1;
        }
        out += self.result();
        out.push('\n');
        out
    }

    /// Read a record. Tags are `[Name "value"]` lines (`\"`, `\\` and `\n` escaped in the
    /// value); then the turns, `{...}` comments ignored, and the result token.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tags: Vec<(String, String)> = vec![];
        let mut tokens: Vec<(usize, String)> = vec![];
        let mut in_comment = false;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let trimmed = raw.trim();
            if !in_comment && trimmed.starts_with('[') {
                if !tokens.is_empty() {
                    return Err(RecordError {
                        line,
                        message: "a tag after the turns began".into(),
                    });
                }
                let (k, v) = parse_tag(trimmed).map_err(|message| RecordError { line, message })?;
                if tags.iter().any(|(old, _)| *old == k) {
                    return Err(RecordError {
                        line,
                        message: format!("tag {k} given twice"),
                    });
                }
                tags.push((k, v));
                continue;
            }
            if !in_comment && (trimmed.starts_with(';') || trimmed.starts_with('%')) {
                continue;
            }
            let mut word = String::new();
            for c in raw.chars() {
                if in_comment {
                    in_comment = c != '}';
                    continue;
                }
                if c == '{' {
                    in_comment = true;
                } else if c.is_whitespace() {
                    if !word.is_empty() {
                        tokens.push((line, std::mem::take(&mut word)));
                    }
                    continue;
                } else {
                    word.push(c);
                    continue;
                }
                if !word.is_empty() {
                    tokens.push((line, std::mem::take(&mut word)));
                }
            }
            if !word.is_empty() {
                tokens.push((line, word));
            }
        }
        if in_comment {
            return Err(RecordError {
                line: text.lines().count(),
                message: "a comment '{' is never closed".into(),
            });
        }
        let last_line = text.lines().count().max(1);
        if !tags.iter().any(|(k, _)| k == "Variant") {
            return Err(RecordError {
                line: 1,
                message: "no [Variant \"...\"] tag".into(),
            });
        }
        // Split "12.e2-e4" into "12." and "e2-e4".
        let mut split = Vec::with_capacity(tokens.len());
        for (line, t) in tokens {
            match t.find('.') {
                Some(dot)
                    if dot > 0
                        && t[..dot].bytes().all(|b| b.is_ascii_digit())
                        && !t[dot..].trim_start_matches('.').is_empty() =>
                {
                    let rest = t[dot..].trim_start_matches('.');
                    let dots = t.len() - dot - rest.len();
                    split.push((line, t[..dot + dots].to_string()));
                    split.push((line, rest.to_string()));
                }
                _ => split.push((line, t)),
            }
        }
        let results = ["1-0", "0-1", "1/2-1/2", "*"];
        let mut turns: Vec<RecordTurn> = vec![];
        let mut number: Option<u32> = None;
        // Next side expected after the number: White, then Black, then a new number.
        let mut next: Option<Side> = None;
        let mut result_token: Option<(usize, String)> = None;
        for (line, t) in split {
            let err = |message: String| RecordError { line, message };
            if let Some((l, r)) = &result_token {
                return Err(err(format!(
                    "'{t}' after the result '{r}' (line {l}) that ends the record"
                )));
            }
            if results.contains(&t.as_str()) {
                result_token = Some((line, t));
                continue;
            }
            if let Some(n) = t.strip_suffix('.').map(|n| n.trim_end_matches('.')) {
                if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
                    let n: u32 = n
                        .parse()
                        .map_err(|_| err(format!("turn number '{t}' is too large")))?;
                    if let Some(last) = turns.last() {
                        if n != last.number + 1 {
                            return Err(err(format!(
                                "turn number {n} after turn {}: expected {}",
                                last.number,
                                last.number + 1
                            )));
                        }
                    } else if n == 0 {
                        return Err(err("turn numbers start at 1".into()));
                    }
                    if turns.last().is_some_and(|t| t.open) {
                        return Err(err(
                            "a turn left open ('...' after its steps) must be the last".into(),
                        ));
                    }
                    number = Some(n);
                    next = Some(Side::White);
                    continue;
                }
            }
            let Some(n) = number else {
                return Err(err(format!(
                    "'{t}' before any turn number (turns are written '1. <White's turn> <Black's turn>')"
                )));
            };
            let Some(side) = next else {
                return Err(err(format!(
                    "'{t}': turn {n} already has White's and Black's turns; number the next one '{}.'",
                    n + 1
                )));
            };
            next = if side == Side::White {
                Some(Side::Black)
            } else {
                None
            };
            if t == "..." {
                if side == Side::White && turns.is_empty() {
                    continue;
                }
                return Err(err(
                    "'...' in place of White's turn is only for a record that starts with Black to move"
                        .into(),
                ));
            }
            if turns.last().is_some_and(|t| t.open) {
                return Err(err(
                    "a turn left open ('...' after its steps) must be the last".into(),
                ));
            }
            let mut steps: Vec<String> = t.split(',').map(str::to_string).collect();
            let open = steps.last().is_some_and(|s| s == "...");
            if open {
                steps.pop();
            }
            if steps.last().is_some_and(|s| s == "end") {
                steps.pop();
            }
            for (k, s) in steps.iter().enumerate() {
                if s.is_empty() || s == "..." || s == "end" {
                    return Err(err(format!(
                        "turn {n} ({}), step {}: {} in '{t}'",
                        side_word(side),
                        k + 1,
                        if s.is_empty() {
                            "an empty step (two commas)".to_string()
                        } else {
                            format!("'{s}' may only close a turn")
                        }
                    )));
                }
            }
            if steps.is_empty() {
                return Err(err(format!("turn {n} ({}) has no step", side_word(side))));
            }
            turns.push(RecordTurn {
                number: n,
                side,
                steps,
                open,
                line,
            });
        }
        let Some((line, result)) = result_token else {
            return Err(RecordError {
                line: last_line,
                message: "the record does not end with its result (1-0, 0-1, 1/2-1/2 or *)".into(),
            });
        };
        match tags.iter().find(|(k, _)| k == "Result") {
            Some((_, r)) if *r != result => {
                return Err(RecordError {
                    line,
                    message: format!("the result '{result}' differs from the Result tag '{r}'"),
                })
            }
            Some(_) => {}
            None => tags.push(("Result".into(), result.clone())),
        }
        if turns.iter().rev().skip(1).any(|t| t.open) {
            return Err(RecordError {
                line,
                message: "a turn left open ('...') must be the last".into(),
            });
        }
        Ok(Record { tags, turns })
    }

    /// The record's variant: a built-in one by its id, or the one of that id in the
    /// embedded VariantFile; with a VariantFileSHA256 tag, `file` (the variant file's text,
    /// read by the caller) must be given and match the hash.
    pub fn variant(&self, file: Option<&str>) -> Result<Arc<Variant>, String> {
        let id = self.tag("Variant").unwrap_or_default();
        let text: Option<String> = match (self.tag("VariantFile"), self.tag("VariantFileSHA256"), file) {
            (Some(t), _, _) => Some(t.to_string()),
            (None, Some(hash), Some(f)) => {
                let got = sha256_hex(f);
                if !got.eq_ignore_ascii_case(hash) {
                    return Err(format!(
                        "the variant file given has SHA-256 {got}, the record's VariantFileSHA256 is {hash}"
                    ));
                }
                Some(f.to_string())
            }
            (None, Some(hash), None) => {
                return Err(format!(
                    "the record's variant '{id}' is defined by a variant file with SHA-256 {hash}: give that file"
                ))
            }
            (None, None, f) => f.map(str::to_string),
        };
        let builtins = builtin_variants();
        if let Some(text) = text {
            let extra = parse_variants("VariantFile", &text, &builtins)
                .map_err(|e| format!("the record's variant file: {e}"))?;
            if let Some(v) = extra.into_iter().find(|v| v.id == id) {
                return Ok(v);
            }
        }
        builtins.into_iter().find(|v| v.id == id).ok_or_else(|| {
            format!("unknown variant '{id}' (not built in, and no VariantFile tag defines it)")
        })
    }

    fn fail(
        turn: &RecordTurn,
        step: usize,
        index: usize,
        text: &str,
        message: String,
    ) -> ReplayError {
        ReplayError {
            turn: turn.number,
            side: turn.side,
            step,
            index,
            text: text.to_string(),
            message,
        }
    }

    /// Replay every step on `variant`, calling `each` after every step (implied `end`s
    /// included) with the game as it stands. Stops at the first step that is not legal.
    pub fn replay_with(
        &self,
        variant: &Arc<Variant>,
        mut each: impl FnMut(&Game, Step),
    ) -> Result<Replayed, ReplayError> {
        let general = |message: String| ReplayError {
            turn: 0,
            side: Side::White,
            step: 0,
            index: 0,
            text: String::new(),
            message,
        };
        let start = match self.tag("Position") {
            Some(p) => cohort_rules::Position::parse(variant, p)
                .map_err(|e| general(format!("the Position tag: {e}")))?,
            None => variant.start(),
        };
        let mut game = Game::new(start);
        let mut steps = Vec::new();
        for (ti, turn) in self.turns.iter().enumerate() {
            let pos = game.position();
            if let Some((o, r)) = game.result() {
                let first = turn.steps.first().map(String::as_str).unwrap_or_default();
                return Err(Self::fail(
                    turn,
                    1,
                    steps.len(),
                    first,
                    format!("the game is already over ({})", result_text(o, r)),
                ));
            }
            if pos.side_to_move() != turn.side {
                let first = turn.steps.first().map(String::as_str).unwrap_or_default();
                return Err(Self::fail(
                    turn,
                    1,
                    steps.len(),
                    first,
                    format!(
                        "the record gives this turn to {} but {} is to move",
                        side_word(turn.side),
                        side_word(pos.side_to_move())
                    ),
                ));
            }
            for (k, text) in turn.steps.iter().enumerate() {
                let at = steps.len();
                let pos = game.position();
                if game.result().is_some() || pos.side_to_move() != turn.side {
                    let why = match game.result() {
                        Some((o, r)) => format!("the game is already over ({})", result_text(o, r)),
                        None => format!(
                            "{}'s turn already ended (a turn of one step in this variant)",
                            side_word(turn.side)
                        ),
                    };
                    return Err(Self::fail(turn, k + 1, at, text, why));
                }
                let step = pos
                    .parse_step(text)
                    .map_err(|e| Self::fail(turn, k + 1, at, text, e.to_string()))?;
                game.play(step)
                    .map_err(|e| Self::fail(turn, k + 1, at, text, e.to_string()))?;
                steps.push(step);
                each(&game, step);
            }
            let last = ti + 1 == self.turns.len();
            let inside = game.result().is_none() && game.position().side_to_move() == turn.side;
            if turn.open {
                if !last {
                    return Err(Self::fail(
                        turn,
                        turn.steps.len(),
                        steps.len(),
                        "...",
                        "a turn left open must be the last".into(),
                    ));
                }
            } else if inside {
                let at = steps.len();
                game.play(Step::END).map_err(|e| {
                    Self::fail(
                        turn,
                        turn.steps.len() + 1,
                        at,
                        "end",
                        format!("the implied end of the turn: {e}"),
                    )
                })?;
                steps.push(Step::END);
                each(&game, Step::END);
            }
        }
        // A game the rules ended must carry their result.
        if let Some((o, r)) = game.result() {
            let want = match o {
                Outcome::Win(Side::White) => "1-0",
                Outcome::Win(Side::Black) => "0-1",
                Outcome::Draw => "1/2-1/2",
            };
            if self.result() != want {
                return Err(general(format!(
                    "the game ends {} by the rules ({}), but the record's result is '{}'",
                    want,
                    r.describe(),
                    self.result()
                )));
            }
        }
        Ok(Replayed { game, steps })
    }

    pub fn replay(&self, variant: &Arc<Variant>) -> Result<Replayed, ReplayError> {
        self.replay_with(variant, |_, _| {})
    }
}

fn result_text(o: Outcome, r: EndReason) -> String {
    match o {
        Outcome::Win(s) => format!("{} won by {}", side_word(s), r.describe()),
        Outcome::Draw => format!("drawn by {}", r.describe()),
    }
}

fn turn_text(t: &RecordTurn) -> String {
    let mut s = t.steps.join(",");
    if t.open {
        s += ",...";
    }
    s
}

fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => out += "\\\\",
            '"' => out += "\\\"",
            '\n' => out += "\\n",
            '\r' => {}
            '\t' => out += "\\t",
            c => out.push(c),
        }
    }
    out
}

fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("a tag is written [Name \"value\"], not {line}"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("tag {line} has no value"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("'{name}' is not a tag name (letters, digits, _)"));
    }
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| format!("the value of tag {name} must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\\') => value.push('\\'),
                Some('"') => value.push('"'),
                Some('n') => value.push('\n'),
                Some('t') => value.push('\t'),
                other => {
                    return Err(format!(
                        "tag {name}: unknown escape '\\{}' (\\\\, \\\", \\n and \\t are known)",
                        other.map(String::from).unwrap_or_default()
                    ))
                }
            },
            '"' => {
                return Err(format!(
                    "tag {name}: a '\"' inside the value must be written \\\""
                ))
            }
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// The SHA-256 of a text, in lower-case hex (the VariantFileSHA256 tag).
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `YYYY.MM.DD` (the Date tag) of a Unix time in milliseconds, in UTC.
pub fn date_of_unix_ms(ms: i64) -> String {
    // Howard Hinnant's days-to-civil.
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use cohort_rules::builtin;

    fn play(v: &str, turns: &[&str]) -> Game {
        let v = builtin(v).unwrap();
        let mut g = Game::new(v.start());
        for t in turns {
            for s in t.split(' ') {
                g.play_text(s).unwrap();
            }
        }
        g
    }

    #[test]
    fn dates() {
        assert_eq!(date_of_unix_ms(0), "1970.01.01");
        assert_eq!(date_of_unix_ms(1_700_000_000_000), "2023.11.14");
        assert_eq!(date_of_unix_ms(951_782_400_000), "2000.02.29");
    }

    #[test]
    fn writes_and_reads_a_game() {
        let g = play("mini-chieftain", &["d2-d3 end", "d7-d6 e7-e6 end", "e2-e3"]);
        let mut r = Record::from_game(&g);
        r.set_tag("White", "human");
        let text = r.to_text();
        assert!(text.contains("[Variant \"mini-chieftain\"]"), "{text}");
        assert!(
            text.contains("1. d2-d3 d7-d6,e7-e6\n2. e2-e3,...\n*\n"),
            "{text}"
        );
        assert!(!text.contains("Position"), "{text}");
        let back = Record::parse(&text).unwrap();
        let mut tags = back.tags.clone();
        let mut want = r.tags.clone();
        tags.sort();
        want.sort();
        assert_eq!(tags, want);
        let strip = |t: &[RecordTurn]| {
            t.iter()
                .map(|t| (t.number, t.side, t.steps.clone(), t.open))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&back.turns), strip(&r.turns));
        assert_eq!(back.to_text(), text);
        let replayed = back.replay(&builtin("mini-chieftain").unwrap()).unwrap();
        assert_eq!(replayed.steps, g.steps());
        assert_eq!(replayed.game.position().hash(), g.position().hash());
    }

    #[test]
    fn black_to_move_and_escapes() {
        let v = builtin("micro-chieftain").unwrap();
        let mut g = Game::new(v.start());
        for s in ["c2-c3", "end"] {
            g.play_text(s).unwrap();
        }
        let mid = g.position().to_text();
        let g2 = {
            let mut g2 = Game::new(cohort_rules::Position::parse(&v, &mid).unwrap());
            g2.play_text("c7-c6").unwrap();
            g2.play_text("end").unwrap();
            g2
        };
        let mut r = Record::from_game(&g2);
        r.set_tag("Event", "a \"test\"\\ with\nnewline");
        let text = r.to_text();
        assert!(text.contains("1. ... c7-c6\n"), "{text}");
        assert!(text.contains("[Position \""), "{text}");
        let back = Record::parse(&text).unwrap();
        assert_eq!(back.tag("Event"), Some("a \"test\"\\ with\nnewline"));
        let rp = back.replay(&v).unwrap();
        assert_eq!(rp.game.position().hash(), g2.position().hash());
    }

    #[test]
    fn errors_name_line_turn_and_step() {
        let v = builtin("mini-chieftain").unwrap();
        let r = Record::parse("[Variant \"mini-chieftain\"]\n\n1. d2-d3 d7-d6\n2. e2-e3,e3-e5 *\n")
            .unwrap();
        let e = r.replay(&v).err().unwrap();
        assert_eq!((e.turn, e.side, e.step, e.index), (2, Side::White, 2, 5));
        assert!(
            e.to_string()
                .starts_with("turn 2 (White), step 2 'e3-e5': "),
            "{e}"
        );
        for (text, line, part) in [
            ("1. d2-d3 *", 1, "Variant"),
            ("[Variant \"x\"]\n1. d2-d3\n3. e2-e3 *", 3, "expected 2"),
            ("[Variant \"x\"]\n1. d2-d3 d7-d6 e2-e3 *", 2, "already has"),
            ("[Variant \"x\"]\n1. d2-d3,,e2-e3 *", 2, "empty step"),
            ("[Variant \"x\"]\n1. d2-d3", 2, "result"),
            (
                "[Variant \"x\"]\n[Result \"1-0\"]\n1. d2-d3 0-1",
                3,
                "differs",
            ),
            ("[Variant \"x\"]\n1. d2-d3 * e2-e3", 2, "after the result"),
            ("[Variant x]\n1. d2-d3 *", 1, "double quotes"),
            ("[Variant \"x\"]\n1. d2-d3,... d7-d6 *", 2, "last"),
            (
                "[Variant \"x\"]\n{ open comment\n1. d2-d3 *",
                3,
                "never closed",
            ),
        ] {
            let e = Record::parse(text)
                .err()
                .unwrap_or_else(|| panic!("{text}"));
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.message.contains(part), "{text}: {e}");
        }
    }

    #[test]
    fn custom_variant_by_text_or_hash() {
        let file = "[tiny]\nbase = mini-chieftain\nname = Tiny\nboard = 6x6\nsetup = 1ccm2/6/6/6/6/2CMC1 w\n";
        let mut r = Record::parse("[Variant \"tiny\"]\n\n1. c1-c2 *\n").unwrap();
        assert!(r
            .variant(None)
            .unwrap_err()
            .contains("unknown variant 'tiny'"));
        r.set_tag("VariantFile", file);
        let text = r.to_text();
        let back = Record::parse(&text).unwrap();
        let v = back.variant(None).unwrap();
        assert_eq!(v.id, "tiny");
        back.replay(&v).unwrap();
        let mut h = Record::parse("[Variant \"tiny\"]\n\n1. c1-c2 *\n").unwrap();
        h.set_tag("VariantFileSHA256", sha256_hex(file));
        assert!(h.variant(None).unwrap_err().contains("give that file"));
        assert!(h.variant(Some("[x]\n")).unwrap_err().contains("SHA-256"));
        assert_eq!(h.variant(Some(file)).unwrap().id, "tiny");
    }

    #[test]
    fn result_must_match_the_rules() {
        let v = builtin("micro-chieftain").unwrap();
        let r = Record::parse("[Variant \"micro-chieftain\"]\n\n1. c2-c3 c7-c6 1-0\n").unwrap();
        // Not over by the rules: any result may stand (resignation, agreement).
        r.replay(&v).unwrap();
        // Fool's mate: over by the rules, so the record must say 0-1.
        let g = play("chess", &["f2-f3", "e7-e5", "g2-g4", "d8-h4"]);
        let r = Record::from_game(&g);
        let text = r.to_text();
        assert!(
            text.contains("[Termination \"checkmate\"]")
                && text.contains("\n1. f2-f3 e7-e5\n2. g2-g4 d8-h4\n0-1\n"),
            "{text}"
        );
        let chess = builtin("chess").unwrap();
        Record::parse(&text).unwrap().replay(&chess).unwrap();
        let wrong = text.replace("0-1", "1-0");
        let e = Record::parse(&wrong).unwrap().replay(&chess).err().unwrap();
        assert!(
            e.to_string()
                .contains("ends 0-1 by the rules (checkmate), but the record's result is '1-0'"),
            "{e}"
        );
        // Steps after the game is over are refused by turn and step.
        let more = text.replace("d8-h4\n0-1", "d8-h4\n3. a2-a3\n0-1");
        let e = Record::parse(&more).unwrap().replay(&chess).err().unwrap();
        assert_eq!((e.turn, e.step), (3, 1), "{e}");
        assert!(e.message.contains("already over"), "{e}");
    }

    #[test]
    fn mangled_records_are_refused_never_a_panic() {
        let g = play("lifeform", &["c1-b3 c2-c1 end", "c8-b6 end", "b3-c5 end"]);
        let mut r = Record::from_game(&g);
        r.set_tag("Event", "x \"y\"");
        r.set_tag(
            "VariantFile",
            "[tiny]\nbase = mini-chieftain\nboard = 6x6\nsetup = 1ccm2/6/6/6/6/2CMC1 w\n",
        );
        let text = r.to_text();
        let alphabet: Vec<char> = "[]\"\\{}.,;%*-x~@=:/ \n0123456789abcehkw".chars().collect();
        let mut rng = crate::Rng::new(7);
        let (mut parsed, mut refused) = (0, 0);
        for _ in 0..3000 {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(chars.len());
                match rng.below(3) {
                    0 => {
                        chars.remove(at);
                    }
                    1 => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                    _ => chars[at] = alphabet[rng.below(alphabet.len())],
                }
            }
            let t: String = chars.into_iter().collect();
            match Record::parse(&t) {
                Ok(rec) => {
                    parsed += 1;
                    if let Ok(v) = rec.variant(None) {
                        let _ = rec.replay(&v).map(|_| ()).map_err(|e| e.to_string());
                    }
                    let _ = Record::parse(&rec.to_text())
                        .expect("a parsed record writes a readable one");
                }
                Err(e) => {
                    refused += 1;
                    assert!(e.line >= 1 && !e.message.is_empty());
                }
            }
        }
        assert!(parsed > 100 && refused > 100, "{parsed} {refused}");
    }
}
