//! The variant file format: sections and their entries, `base` inheritance, the known
//! fields (a typo gets the nearest one suggested), warnings, and the built-in files.

use std::collections::HashMap;
use std::sync::Arc;

use super::build::build;
use super::{CommandModel, Variant, VariantError};

#[derive(Clone)]
pub(super) struct Entry {
    /// The file the entry was written in (a base variant may come from another file).
    pub(super) file: String,
    pub(super) key: String,
    pub(super) line: usize,
    pub(super) value: String,
}

pub(super) struct Section {
    pub(super) id: String,
    pub(super) line: usize,
    pub(super) entries: Vec<Entry>,
}

/// The variants that ship inside the binary.
pub const BUILTIN_FILES: &[(&str, &str)] = &[
    (
        "variants/chesimals.ini",
        include_str!("../../../../variants/chesimals.ini"),
    ),
    (
        "variants/fusion.ini",
        include_str!("../../../../variants/fusion.ini"),
    ),
    (
        "variants/chieftain.ini",
        include_str!("../../../../variants/chieftain.ini"),
    ),
    (
        "variants/lifeform.ini",
        include_str!("../../../../variants/lifeform.ini"),
    ),
    (
        "variants/chess.ini",
        include_str!("../../../../variants/chess.ini"),
    ),
    (
        "variants/chessma.ini",
        include_str!("../../../../variants/chessma.ini"),
    ),
];

/// Reads a variant's setup as its family would, or says why it cannot. The family layer
/// supplies it (this module does not know the families): `crate::parse_variants`.
pub(crate) type SetupCheck<'a> = &'a dyn Fn(&Arc<Variant>) -> Result<(), String>;

/// What the family layer tells the warnings about a variant's start position.
pub(crate) struct SetupFacts {
    /// Bit k: some unit of piece kind k stands on the board.
    pub(crate) kinds_on_board: u64,
    /// The game is already decided in the setup.
    pub(crate) over: bool,
    /// The side to move has no legal step in the setup.
    pub(crate) no_step: bool,
}

/// Settings that load but make no sense together, or do nothing: (file, line, field, why).
/// `facts` describes a variant's start position (the family layer computes it).
pub(crate) fn warnings_with(
    file: &str,
    text: &str,
    known: &[Arc<Variant>],
    check: SetupCheck,
    facts: &dyn Fn(&Arc<Variant>) -> SetupFacts,
) -> Vec<VariantError> {
    let Ok(variants) = parse_variants_with(file, text, known, check) else {
        return vec![];
    };
    let Ok(sections) = split_sections(file, text) else {
        return vec![];
    };
    let mut out = Vec::new();
    for (v, sec) in variants.iter().zip(&sections) {
        let warn = |e: &Entry, message: String| VariantError {
            file: e.file.clone(),
            line: e.line,
            field: e.key.clone(),
            message,
        };
        let model = v.command_name();
        for e in &sec.entries {
            let readers: &[&str] = match e.key.as_str() {
                "links" => &["chain", "lead"],
                "cap" | "reactivate" => &["chain"],
                "range" | "activations" => &["range"],
                k if k.starts_with("activates ") => &["chain", "range"],
                _ => continue,
            };
            if !readers.contains(&model) {
                out.push(warn(
                    e,
                    format!(
                        "ignored: command = {model} does not read it (only {})",
                        readers.join(", ")
                    ),
                ));
            }
        }
        if let CommandModel::Chain {
            reactivate: true,
            cap: 0,
            ..
        } = v.command
        {
            if let Some(e) = sec.entries.iter().find(|e| e.key == "reactivate") {
                out.push(warn(
                    e,
                    "units may move again with no cap: a turn never has to end; set 'cap'".into(),
                ));
            }
        }
        // Pieces that never stand on the board: not in the setup, nothing to place.
        let start = facts(v);
        for (kind, p) in v.pieces.iter().enumerate() {
            let on_board = start.kinds_on_board & (1 << kind) != 0;
            let placed = v.placement.as_ref().is_some_and(|pl| pl.counts[kind] > 0);
            if !on_board && !placed {
                let key = format!("piece {}", p.letter);
                if let Some(e) = sec.entries.iter().find(|e| e.key == key) {
                    out.push(warn(e, format!("the {} is not in the setup", p.name)));
                }
            }
        }
        if start.over {
            if let Some(e) = sec.entries.iter().find(|e| e.key == "setup") {
                out.push(warn(e, "the game is already over in this setup".into()));
            }
        }
        if start.no_step {
            if let Some(e) = sec.entries.iter().find(|e| e.key == "setup") {
                out.push(warn(
                    e,
                    "the side to move has no legal step in the setup".into(),
                ));
            }
        }
    }
    out
}

/// Parse a variant file. `known` are variants it may name as `base` (for example the
/// built-ins); `check` reads each variant's setup.
pub(crate) fn parse_variants_with(
    file: &str,
    text: &str,
    known: &[Arc<Variant>],
    check: SetupCheck,
) -> Result<Vec<Arc<Variant>>, VariantError> {
    let builtin = if known.is_empty() {
        HashMap::new()
    } else {
        builtin_entries()
    };
    parse_with(file, text, known, builtin, check).map(|(variants, _)| variants)
}

/// The built-in variants and the merged entries of each (for user files that extend one
/// with `base`), parsed once. Their setups are read by the family layer
/// (`crate::builtin_variants`), which refuses to start on a bad one.
static BUILTIN: std::sync::LazyLock<Parsed> = std::sync::LazyLock::new(|| {
    let (mut all, mut raw) = (Vec::new(), HashMap::new());
    for (file, text) in BUILTIN_FILES {
        let (variants, entries) = parse_with(file, text, &[], raw, &|_| Ok(()))
            .unwrap_or_else(|e| panic!("built-in variant file: {e}"));
        all.extend(variants);
        raw = entries;
    }
    (all, raw)
});

/// The merged entries of every built-in variant, for user files that extend one (`base`).
fn builtin_entries() -> HashMap<String, Vec<Entry>> {
    BUILTIN.1.clone()
}

type Parsed = (Vec<Arc<Variant>>, HashMap<String, Vec<Entry>>);

fn parse_with(
    file: &str,
    text: &str,
    known: &[Arc<Variant>],
    mut raw: HashMap<String, Vec<Entry>>,
    check: SetupCheck,
) -> Result<Parsed, VariantError> {
    let sections = split_sections(file, text)?;
    let mut out: Vec<Arc<Variant>> = Vec::new();
    for s in &sections {
        let err = |line, field: &str, message: String| VariantError {
            file: file.into(),
            line,
            field: field.into(),
            message,
        };
        let mut entries = Vec::new();
        if let Some(base) = s.entries.iter().find(|e| e.key == "base") {
            match raw.get(&base.value) {
                Some(b) => entries.extend(b.iter().cloned()),
                None => {
                    return Err(err(
                        base.line,
                        "base",
                        format!(
                            "no variant '{}' is built in or defined before this one",
                            base.value
                        ),
                    ))
                }
            }
        }
        for e in &s.entries {
            if e.key != "base" {
                entries.retain(|old: &Entry| old.key != e.key);
                entries.push(e.clone());
            }
        }
        if out.iter().chain(known.iter()).any(|v| v.id == s.id) {
            return Err(err(
                s.line,
                "",
                format!("variant '{}' is defined twice", s.id),
            ));
        }
        let v = Arc::new(build(file, s, &entries)?);
        if let Err(message) = check(&v) {
            let setup = entries.iter().find(|e| e.key == "setup");
            return Err(VariantError {
                file: setup.map_or_else(|| file.into(), |e| e.file.clone()),
                line: setup.map_or(s.line, |e| e.line),
                field: "setup".into(),
                message,
            });
        }
        raw.insert(s.id.clone(), entries);
        out.push(v);
    }
    if out.is_empty() {
        return Err(VariantError {
            file: file.into(),
            line: 1,
            field: String::new(),
            message: "no [variant] section".into(),
        });
    }
    Ok((out, raw))
}

/// All built-in variants, in file order, their setups not yet read.
pub(crate) fn builtin_unchecked() -> Vec<Arc<Variant>> {
    BUILTIN.0.clone()
}

fn split_sections(file: &str, text: &str) -> Result<Vec<Section>, VariantError> {
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split(" #").next().unwrap_or("").trim();
        if content.is_empty() || content.starts_with('#') || content.starts_with(';') {
            continue;
        }
        let err = |message: String| VariantError {
            file: file.into(),
            line,
            field: String::new(),
            message,
        };
        if let Some(rest) = content.strip_prefix('[') {
            let id = rest
                .strip_suffix(']')
                .ok_or_else(|| err("section header must end with ']'".into()))?
                .trim();
            if id.is_empty()
                || !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            {
                return Err(err(format!(
                    "bad variant id '{id}': use letters, digits, '-', '_' and '.'"
                )));
            }
            sections.push(Section {
                id: id.into(),
                line,
                entries: vec![],
            });
            continue;
        }
        let (key, value) = content
            .split_once('=')
            .ok_or_else(|| err(format!("expected 'field = value', found '{content}'")))?;
        let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
        let section = sections
            .last_mut()
            .ok_or_else(|| err("field before the first [variant] section".into()))?;
        if section.entries.iter().any(|e| e.key == key) {
            return Err(VariantError {
                file: file.into(),
                line,
                field: key,
                message: "given twice in this section".into(),
            });
        }
        section.entries.push(Entry {
            file: file.into(),
            key,
            line,
            value: value.trim().into(),
        });
    }
    Ok(sections)
}

/// Every field a variant section may have (the prefixed ones take a letter or number).
pub(super) const FIELDS: &[&str] = &[
    "base",
    "name",
    "summary",
    "reconstructed",
    "board",
    "files",
    "ranks",
    "command",
    "family",
    "links",
    "cap",
    "reactivate",
    "range",
    "activations",
    "victory",
    "no-legal-turn",
    "repetition",
    "quiet-turns",
    "quiet-resets",
    "placement",
    "placement-ranks",
    "placement-neck",
    "setup",
    "rules",
    "values",
];
pub(super) const PREFIXED: &[&str] = &["piece ", "group ", "activates ", "lead ", "sheet "];

/// The known field nearest to an unknown one (a typo), if any is close.
pub(super) fn nearest_field(key: &str) -> Option<&'static str> {
    let norm = |k: &str| k.replace('_', "-").to_ascii_lowercase();
    let key = norm(key);
    FIELDS
        .iter()
        .copied()
        .find(|f| *f == key || (key.len() > 3 && (f.starts_with(&key) || key.starts_with(*f))))
}
