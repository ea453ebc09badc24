//! Variants as data: an INI-like file a player can read and edit (in the spirit of
//! Fairy-Stockfish's variants.ini), validated with errors that name the file, line and field.
//!
//! ```text
//! [chesimals-2]                 # a section per variant, named by its id
//! base = chesimals-1            # start from another variant (earlier in the file or built in)
//! name = Chesimals II
//! board = 16x12
//! piece G = Guard, K2           # letter = name, moves (see movement.rs), flags: leader royal
//! group 1 = dia, yellow, green  # chesimal name, White's colour, Black's colour
//! command = chain               # chain | range | single
//! setup = <position string>
//! ```
//! The full list of fields is in docs/variants.md.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::bitboard::{Bitboard, Square};
use crate::geometry::{Geometry, Sheet};
use crate::movement::MoveSet;

pub const MAX_KINDS: usize = 16;
pub const MAX_GROUPS: usize = 8;
/// Most leaders a side may have under the range model (subsets of them fit a u64).
pub const MAX_ACTIVATORS: usize = 6;

/// One kind of unit.
pub struct PieceKind {
    /// Upper-case letter; White writes it upper case, Black lower case.
    pub letter: char,
    pub name: String,
    pub moves: String,
    /// Capturing all of a side's royal units wins (victory = royals).
    pub royal: bool,
    /// Leads a chesimal (chain model) or activates units (range model).
    pub leader: bool,
    /// Body model: the part of the body this piece is.
    pub role: Option<BodyRole>,
    pub(crate) movesets: [MoveSet; 2],
    /// The most destinations one unit of this kind can have on any square, for each side
    /// (an empty board for moves, a full enemy one for captures): bounds the step list.
    pub(crate) max_steps: [u16; 2],
}

/// The most steps a unit with these tables can have on any square of `geo`.
pub(crate) fn max_steps(sets: &[&MoveSet], geo: &Geometry) -> u16 {
    let mut most = 0;
    for sq in geo.squares.iter() {
        let others = geo.squares & !Bitboard::from_square(sq);
        let n: u32 = sets
            .iter()
            .map(|m| {
                m.destinations(geo, sq, others, Bitboard::EMPTY).count()
                    + m.destinations(geo, sq, Bitboard::EMPTY, others).count()
            })
            .max()
            .unwrap_or(0);
        most = most.max(n);
    }
    most as u16
}

/// Lifeform Chess body parts (RULES.md section 6), named in a piece's flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BodyRole {
    Head,
    Torso,
    Hand,
    Foot,
    Hair,
    Limb,
}

impl BodyRole {
    fn from_flag(flag: &str) -> Option<BodyRole> {
        Some(match flag {
            "head" => BodyRole::Head,
            "torso" => BodyRole::Torso,
            "hand" => BodyRole::Hand,
            "foot" => BodyRole::Foot,
            "hair" => BodyRole::Hair,
            "limb" => BodyRole::Limb,
            _ => return None,
        })
    }
}

/// Which units may move in a turn: the named rule models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandModel {
    /// One unit moves and the turn closes with it (FIDE chess).
    Single,
    /// Chesimals: the turn picks one group; a unit may start a move while it is linked to the
    /// group's living leader by a chain of adjacent units.
    Chain {
        /// [ruling] links run through the same group only (`group`), or any friendly unit.
        links_any_friendly: bool,
        /// Most unit moves in a turn (0: no cap beyond once per unit).
        cap: u8,
        /// A unit may move again while still linked (Chesimals 0.75 "hyper").
        reactivate: bool,
    },
    /// Chieftain: each leader activates one unit per turn within `range` (king distance),
    /// measured when that unit's move starts.
    Range { range: u8, activations: u8 },
    /// Lifeform: one main move by a Head, Torso, Hand or Foot, then follower steps of the Hair
    /// and Limbs that stood next to its start square; the body regulations at the turn's end.
    Body,
    /// Chesimal Fusion: the turn starts by declaring a leader (and its mode), the step `lead`;
    /// that leader then spends its own activations (`Variant::lead_modes`) on units of the kinds
    /// its mode allows, each linked to it by a chain of adjacent units when its move starts.
    Lead {
        /// Links run through any friendly unit (`links = friendly`, Fusion) or the leader's group.
        links_any_friendly: bool,
    },
}

/// What a leader kind does when it leads a turn under the lead model, in one of its modes
/// (`lead C ortho = budget 9, activates KCWP, P moves W`).
pub struct LeadMode {
    /// The leader's piece kind.
    pub leader: u8,
    /// The mode's name (`ortho`), empty for a leader kind with one way of leading.
    pub name: String,
    /// Unit moves (activations) in the turn, the leader's own move included.
    pub budget: u8,
    /// Of those, the most that go to units other than the leader itself.
    pub others: u8,
    /// Kinds it may activate besides itself (bit k = piece kind k).
    pub activates: u16,
    /// Kinds that move differently when this leader activates them: (kind, moves, tables).
    pub remap: Vec<(u8, String, Box<[MoveSet; 2]>)>,
}

impl LeadMode {
    /// The tables a unit of `kind` moves by when this mode activates it.
    #[inline(always)]
    pub(crate) fn moveset<'a>(
        &'a self,
        kind: u8,
        side: usize,
        own: &'a [MoveSet; 2],
    ) -> &'a MoveSet {
        for (k, _, sets) in &self.remap {
            if *k == kind {
                return &sets[side];
            }
        }
        &own[side]
    }
}

impl CommandModel {
    /// The model's name as a variant file writes it (`command = ...`).
    pub fn name(&self) -> &'static str {
        match self {
            CommandModel::Single => "single",
            CommandModel::Chain { .. } => "chain",
            CommandModel::Range { .. } => "range",
            CommandModel::Lead { .. } => "lead",
            CommandModel::Body => "body",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Victory {
    /// Capture every enemy royal unit; the game ends the moment the last one falls.
    CaptureRoyals,
    /// FIDE chess: checkmate wins; stalemate, the fifty-move rule, repetition and
    /// insufficient material draw.
    Checkmate,
    /// Lifeform: judged at the end of each turn, after the regulations' removals: a side whose
    /// Head or Torso is gone, or whose Head and Torso lost their Neck, loses (both: a draw).
    Body,
}

/// What a side with no legal turn at the start of its turn gets. [ruling] loss by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoLegalTurn {
    Loss,
    Draw,
}

/// A placement phase: what each side places, and on how many of its first ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub counts: [u8; MAX_KINDS],
    pub ranks: u8,
    /// [ruling] a finished placement must also give Head and Torso a Neck (`placement-neck`).
    pub neck: bool,
}

pub struct Group {
    pub name: String,
    /// Display colours for White's and Black's group of this number.
    pub colours: [String; 2],
}

pub struct Variant {
    pub id: String,
    pub name: String,
    pub summary: String,
    /// What is reconstructed rather than sourced (empty if nothing).
    pub reconstructed: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceKind>,
    pub groups: Vec<Group>,
    pub command: CommandModel,
    pub victory: Victory,
    pub no_legal_turn: NoLegalTurn,
    /// Repetitions of a turn-start position that draw (0: rule off).
    pub repetition: u8,
    /// Consecutive turns without a capture that draw (0: rule off).
    pub quiet_turns: u16,
    pub setup: String,
    /// Free set-up: each side first places these units on its first ranks (`K@e1` steps).
    pub placement: Option<Placement>,
    /// `rules = fide`: FIDE chess on its dedicated 8x8 core (positions are FEN).
    pub fide: bool,
    /// `rules = chessma`: Chessma 84 on its dedicated core over the board's sheets.
    pub(crate) chessma: Option<Arc<crate::chessma::Tables>>,
    /// For each leader kind, the kinds it may activate (bit k = piece kind k). All by default.
    pub activates: [u16; MAX_KINDS],
    /// Some leader may not activate every kind (`activates X = ...` lines).
    pub restricted_activation: bool,
    /// Lead model: every way a leader kind may lead a turn (`lead X [mode] = ...` lines).
    pub lead_modes: Vec<LeadMode>,
    pub(crate) range_box: Box<[Bitboard; 256]>,
}

impl PieceKind {
    /// The most destinations a unit of this kind can have on any square of the board, moves
    /// and captures counted apart, by its own moves or as any lead mode moves it.
    pub fn most_destinations(&self) -> u16 {
        self.max_steps[0].max(self.max_steps[1])
    }
}

impl Variant {
    /// Whether the variant runs on the Chessma 84 rules (`rules = chessma`).
    pub fn is_chessma(&self) -> bool {
        self.chessma.is_some()
    }
    pub fn kind_of_letter(&self, letter: char) -> Option<usize> {
        self.pieces
            .iter()
            .position(|p| p.letter == letter.to_ascii_uppercase())
    }
    pub fn start(self: &Arc<Self>) -> crate::Position {
        crate::Position::parse(self, &self.setup).expect("setup validated at load")
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Variant({})", self.id)
    }
}

/// A malformed variant file: where, which field, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantError {
    pub file: String,
    pub line: usize,
    pub field: String,
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        } else {
            write!(
                f,
                "{}:{}: field '{}': {}",
                self.file, self.line, self.field, self.message
            )
        }
    }
}

impl std::error::Error for VariantError {}

#[derive(Clone)]
struct Entry {
    /// The file the entry was written in (a base variant may come from another file).
    file: String,
    key: String,
    line: usize,
    value: String,
}

struct Section {
    id: String,
    line: usize,
    entries: Vec<Entry>,
}

/// The variants that ship inside the binary.
pub const BUILTIN_FILES: &[(&str, &str)] = &[
    (
        "variants/chesimals.ini",
        include_str!("../../../variants/chesimals.ini"),
    ),
    (
        "variants/fusion.ini",
        include_str!("../../../variants/fusion.ini"),
    ),
    (
        "variants/chieftain.ini",
        include_str!("../../../variants/chieftain.ini"),
    ),
    (
        "variants/lifeform.ini",
        include_str!("../../../variants/lifeform.ini"),
    ),
    (
        "variants/chess.ini",
        include_str!("../../../variants/chess.ini"),
    ),
    (
        "variants/chessma.ini",
        include_str!("../../../variants/chessma.ini"),
    ),
];

/// Settings that load but make no sense together, or do nothing: (file, line, field, why).
pub fn variant_warnings(file: &str, text: &str, known: &[Arc<Variant>]) -> Vec<VariantError> {
    let Ok(variants) = parse_variants(file, text, known) else {
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
        let model = v.command.name();
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
        let start = v.start();
        for (kind, p) in v.pieces.iter().enumerate() {
            let on_board = start.units().any(|u| u.kind as usize == kind);
            let placed = v.placement.as_ref().is_some_and(|pl| pl.counts[kind] > 0);
            if !on_board && !placed {
                let key = format!("piece {}", p.letter);
                if let Some(e) = sec.entries.iter().find(|e| e.key == key) {
                    out.push(warn(e, format!("the {} is not in the setup", p.name)));
                }
            }
        }
        if start.outcome().is_some() {
            if let Some(e) = sec.entries.iter().find(|e| e.key == "setup") {
                out.push(warn(e, "the game is already over in this setup".into()));
            }
        }
        if start.count_steps() == 0 && start.outcome().is_none() {
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

/// Parse a variant file. `known` are variants it may name as `base` (for example the built-ins).
pub fn parse_variants(
    file: &str,
    text: &str,
    known: &[Arc<Variant>],
) -> Result<Vec<Arc<Variant>>, VariantError> {
    let builtin = if known.is_empty() {
        HashMap::new()
    } else {
        builtin_entries()
    };
    parse_with(file, text, known, builtin).map(|(variants, _)| variants)
}

/// The built-in variants and the merged entries of each (for user files that extend one
/// with `base`), parsed once.
static BUILTIN: std::sync::LazyLock<Parsed> = std::sync::LazyLock::new(|| {
    let (mut all, mut raw) = (Vec::new(), HashMap::new());
    for (file, text) in BUILTIN_FILES {
        let (variants, entries) = parse_with(file, text, &[], raw)
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
        let v = build(file, s, &entries)?;
        raw.insert(s.id.clone(), entries);
        out.push(Arc::new(v));
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

/// All built-in variants, in file order.
pub fn builtin_variants() -> Vec<Arc<Variant>> {
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
const FIELDS: &[&str] = &[
    "base",
    "name",
    "summary",
    "reconstructed",
    "board",
    "files",
    "ranks",
    "command",
    "links",
    "cap",
    "reactivate",
    "range",
    "activations",
    "victory",
    "no-legal-turn",
    "repetition",
    "quiet-turns",
    "placement",
    "placement-ranks",
    "placement-neck",
    "setup",
    "rules",
];
const PREFIXED: &[&str] = &["piece ", "group ", "activates ", "lead ", "sheet "];

/// The known field nearest to an unknown one (a typo), if any is close.
fn nearest_field(key: &str) -> Option<&'static str> {
    let norm = |k: &str| k.replace('_', "-").to_ascii_lowercase();
    let key = norm(key);
    FIELDS
        .iter()
        .copied()
        .find(|f| *f == key || (key.len() > 3 && (f.starts_with(&key) || key.starts_with(*f))))
}

fn build(file: &str, s: &Section, entries: &[Entry]) -> Result<Variant, VariantError> {
    let err = |e: &Entry, message: String| VariantError {
        file: e.file.clone(),
        line: e.line,
        field: e.key.clone(),
        message,
    };
    for e in entries {
        if !FIELDS.contains(&e.key.as_str()) && !PREFIXED.iter().any(|p| e.key.starts_with(p)) {
            let hint =
                nearest_field(&e.key).map_or(String::new(), |f| format!("; did you mean '{f}'?"));
            return Err(err(
                e,
                format!("unknown field{hint} (docs/variants.md lists them)"),
            ));
        }
    }
    let missing = |field: &str| VariantError {
        file: file.into(),
        line: s.line,
        field: field.into(),
        message: format!("missing in [{}]", s.id),
    };
    let get = |key: &str| entries.iter().find(|e| e.key == key);
    let require = |key: &str| get(key).ok_or_else(|| missing(key));
    let number = |key: &str, default: u32, max: u32| -> Result<u32, VariantError> {
        match get(key) {
            None => Ok(default),
            Some(e) => e
                .value
                .parse::<u32>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| {
                    err(
                        e,
                        format!("expected a whole number 0..{max}, found '{}'", e.value),
                    )
                }),
        }
    };
    let flag = |key: &str, default: bool| -> Result<bool, VariantError> {
        match get(key) {
            None => Ok(default),
            Some(e) => match e.value.as_str() {
                "yes" | "true" => Ok(true),
                "no" | "false" => Ok(false),
                v => Err(err(e, format!("expected yes or no, found '{v}'"))),
            },
        }
    };

    let board = require("board")?;
    let geometry = if board.value == "sheets" {
        parse_sheets(entries, board, &err)?
    } else {
        parse_rectangle(board, &err)?
    };
    let (files, ranks) = (geometry.files, geometry.ranks);

    let mut pieces = Vec::new();
    for e in entries.iter().filter(|e| e.key.starts_with("piece")) {
        let letter = e.key.strip_prefix("piece ").unwrap_or("");
        let mut chars = letter.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                return Err(err(
                    e,
                    "write 'piece X = name, moves, flags' with one upper-case letter X".into(),
                ))
            }
        };
        let parts: Vec<&str> = e.value.split(',').map(str::trim).collect();
        if parts.len() < 2 || parts.len() > 3 || parts[0].is_empty() {
            return Err(err(
                e,
                format!("expected 'name, moves[, flags]', found '{}'", e.value),
            ));
        }
        let (mut royal, mut leader, mut role) = (false, false, None);
        for f in parts
            .get(2)
            .map(|f| f.split_whitespace().collect::<Vec<_>>())
            .unwrap_or_default()
        {
            match f {
                "royal" => royal = true,
                "leader" => leader = true,
                _ if role.is_none() && BodyRole::from_flag(f).is_some() => {
                    role = BodyRole::from_flag(f)
                }
                _ => {
                    return Err(err(
                        e,
                        format!(
                            "unknown or repeated flag '{f}' (known: leader, royal, and one of \
                             head torso hand foot hair limb)"
                        ),
                    ))
                }
            }
        }
        let compile =
            |forward| MoveSet::compile(parts[1], &geometry, forward).map_err(|b| err(e, b.0));
        let movesets = [compile(1)?, compile(-1)?];
        let max_steps = [
            max_steps(&[&movesets[0]], &geometry),
            max_steps(&[&movesets[1]], &geometry),
        ];
        pieces.push(PieceKind {
            letter,
            name: parts[0].into(),
            moves: parts[1].into(),
            royal,
            leader,
            role,
            movesets,
            max_steps,
        });
    }
    if pieces.is_empty() {
        return Err(missing("piece"));
    }
    if pieces.len() > MAX_KINDS {
        return Err(missing("piece").with_message(format!("at most {MAX_KINDS} piece kinds")));
    }

    let mut groups: Vec<(u32, Group, usize)> = Vec::new();
    for e in entries.iter().filter(|e| e.key.starts_with("group")) {
        let n = e
            .key
            .strip_prefix("group ")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..=MAX_GROUPS as u32).contains(n));
        let n = n.ok_or_else(|| {
            err(
                e,
                format!(
                    "write 'group N = name, white colour, black colour' with N in 1..{MAX_GROUPS}"
                ),
            )
        })?;
        let parts: Vec<&str> = e.value.split(',').map(str::trim).collect();
        if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) {
            return Err(err(
                e,
                format!(
                    "expected 'name, white colour, black colour', found '{}'",
                    e.value
                ),
            ));
        }
        groups.push((
            n,
            Group {
                name: parts[0].into(),
                colours: [parts[1].into(), parts[2].into()],
            },
            e.line,
        ));
    }
    groups.sort_by_key(|g| g.0);
    for (i, g) in groups.iter().enumerate() {
        if g.0 != i as u32 + 1 {
            return Err(VariantError {
                file: file.into(),
                line: g.2,
                field: format!("group {}", g.0),
                message: format!(
                    "groups must be numbered 1, 2, ... without gaps; group {} is missing",
                    i + 1
                ),
            });
        }
    }
    let groups: Vec<Group> = groups.into_iter().map(|g| g.1).collect();

    let command_entry = require("command")?;
    let command = match command_entry.value.as_str() {
        "single" => CommandModel::Single,
        "chain" => {
            if groups.is_empty() {
                return Err(err(
                    command_entry,
                    "the chain model needs at least one 'group N' line".into(),
                ));
            }
            let links = get("links").map(|e| (e, e.value.as_str()));
            let links_any_friendly = match links {
                None | Some((_, "group")) => false,
                Some((_, "friendly")) => true,
                Some((e, v)) => {
                    return Err(err(
                        e,
                        format!("expected 'group' or 'friendly', found '{v}'"),
                    ))
                }
            };
            CommandModel::Chain {
                links_any_friendly,
                cap: number("cap", 0, 64)? as u8,
                reactivate: flag("reactivate", false)?,
            }
        }
        "range" => {
            let range = number("range", 3, 15)? as u8;
            let activations = number("activations", 1, MAX_ACTIVATORS as u32)? as u8;
            if activations == 0 {
                return Err(err(
                    get("activations").unwrap(),
                    "must be at least 1".into(),
                ));
            }
            CommandModel::Range { range, activations }
        }
        "lead" => CommandModel::Lead {
            links_any_friendly: match get("links").map(|e| (e, e.value.as_str())) {
                None | Some((_, "friendly")) => true,
                Some((_, "group")) => false,
                Some((e, v)) => {
                    return Err(err(
                        e,
                        format!("expected 'group' or 'friendly', found '{v}'"),
                    ))
                }
            },
        },
        "body" => {
            for role in ["head", "torso", "hand", "foot", "hair", "limb"] {
                if !pieces.iter().any(|p| p.role == BodyRole::from_flag(role)) {
                    return Err(err(
                        command_entry,
                        format!("the body model needs a piece flagged '{role}'"),
                    ));
                }
            }
            CommandModel::Body
        }
        other => {
            return Err(err(
                command_entry,
                format!(
                    "unknown command model '{other}' (known: single, chain, range, lead, body)"
                ),
            ))
        }
    };
    let mut chessma = None;
    let fide = match get("rules") {
        None => false,
        Some(e) if e.value == "chessma" => {
            if command != CommandModel::Single || geometry.sheets.len() != 2 {
                return Err(err(
                    e,
                    "rules = chessma needs command = single on a board of two sheets".into(),
                ));
            }
            for letter in crate::chessma::REQUIRED_LETTERS.chars() {
                if !pieces.iter().any(|p: &PieceKind| p.letter == letter) {
                    return Err(err(
                        e,
                        format!("rules = chessma needs a piece with letter {letter} (K Q R B N P and the Ultima pieces I U L W C E S X)"),
                    ));
                }
            }
            chessma = Some(Arc::new(crate::chessma::Tables::new(&geometry)));
            false
        }
        Some(e) if e.value == "fide" => {
            if command != CommandModel::Single || (files, ranks) != (8, 8) {
                return Err(err(
                    e,
                    "rules = fide needs command = single on an 8x8 board".into(),
                ));
            }
            true
        }
        Some(e) => {
            return Err(err(
                e,
                format!("unknown special rules '{}' (known: fide, chessma)", e.value),
            ))
        }
    };
    let victory = match get("victory") {
        None => Victory::CaptureRoyals,
        Some(e) if e.value == "royals" => Victory::CaptureRoyals,
        Some(e) if e.value == "body" && command == CommandModel::Body => Victory::Body,
        Some(e) if e.value == "checkmate" && (fide || chessma.is_some()) => Victory::Checkmate,
        Some(e) => {
            return Err(err(
                e,
                format!(
                    "unknown victory rule '{}' (known: royals; body with command = body)",
                    e.value
                ),
            ))
        }
    };
    if command == CommandModel::Body && victory != Victory::Body {
        return Err(err(
            command_entry,
            "command = body needs victory = body".into(),
        ));
    }
    if victory == Victory::CaptureRoyals && !pieces.iter().any(|p| p.royal) {
        return Err(
            missing("piece").with_message("no piece is flagged royal, so nobody could win".into())
        );
    }
    let no_legal_turn = match get("no-legal-turn").map(|e| (e, e.value.as_str())) {
        None | Some((_, "loss")) => NoLegalTurn::Loss,
        Some((_, "draw")) => NoLegalTurn::Draw,
        Some((e, v)) => return Err(err(e, format!("expected 'loss' or 'draw', found '{v}'"))),
    };
    let mut range_box = Box::new([Bitboard::EMPTY; 256]);
    if let CommandModel::Range { range, .. } = command {
        for sq in geometry.squares.iter() {
            range_box[sq.index()] = geometry.king_box(sq, range);
        }
    }
    let mut activates = [u16::MAX; MAX_KINDS];
    let mut restricted_activation = false;
    for e in entries.iter().filter(|e| e.key.starts_with("activates")) {
        let leader = e.key.strip_prefix("activates ").and_then(|l| {
            let mut c = l.chars();
            let first = c.next()?;
            c.next().is_none().then_some(first)
        });
        let leader = leader
            .and_then(|l| pieces.iter().position(|p| p.letter == l && p.leader))
            .ok_or_else(|| {
                err(
                    e,
                    "write 'activates X = letters' where X is a leader's letter".into(),
                )
            })?;
        let mut mask = 0u16;
        for c in e.value.chars().filter(|c| !c.is_whitespace()) {
            let kind = pieces.iter().position(|p| p.letter == c).ok_or_else(|| {
                err(
                    e,
                    format!("'{c}' is not an upper-case piece letter of this variant"),
                )
            })?;
            mask |= 1 << kind;
        }
        activates[leader] = mask;
        restricted_activation = true;
    }
    let lead_modes = parse_lead_modes(entries, &pieces, &geometry, &err)?;
    for m in &lead_modes {
        for (k, _, sets) in &m.remap {
            for side in 0..2 {
                let n = max_steps(&[&sets[side]], &geometry);
                let p = &mut pieces[*k as usize];
                p.max_steps[side] = p.max_steps[side].max(n);
            }
        }
    }
    if matches!(command, CommandModel::Lead { .. }) && lead_modes.is_empty() {
        return Err(err(
            command_entry,
            "the lead model needs at least one 'lead X = ...' line".into(),
        ));
    }
    if let (Some(e), false) = (
        entries.iter().find(|e| e.key.starts_with("lead ")),
        matches!(command, CommandModel::Lead { .. }),
    ) {
        return Err(err(e, "'lead' lines need command = lead".into()));
    }
    let placement = match get("placement") {
        None => None,
        Some(e) if command != CommandModel::Body => {
            return Err(err(e, "a placement phase needs command = body".into()))
        }
        Some(e) => {
            let mut counts = [0u8; MAX_KINDS];
            for c in e.value.chars().filter(|c| !c.is_whitespace()) {
                let kind = pieces.iter().position(|p| p.letter == c).ok_or_else(|| {
                    err(
                        e,
                        format!("'{c}' is not an upper-case piece letter of this variant"),
                    )
                })?;
                counts[kind] += 1;
            }
            let ranks = number("placement-ranks", 3, 8)? as u8;
            if ranks == 0 || ranks > geometry.ranks / 2 {
                return Err(err(
                    e,
                    format!("placement-ranks must be 1..{}", geometry.ranks / 2),
                ));
            }
            let neck = flag("placement-neck", true)?;
            Some(Placement {
                counts,
                ranks,
                neck,
            })
        }
    };
    let setup = require("setup")?;
    let name = require("name")?.value.clone();
    let variant = Variant {
        id: s.id.clone(),
        name,
        summary: get("summary").map(|e| e.value.clone()).unwrap_or_default(),
        reconstructed: get("reconstructed")
            .map(|e| e.value.clone())
            .unwrap_or_default(),
        geometry,
        pieces,
        groups,
        command,
        victory,
        no_legal_turn,
        repetition: number("repetition", 3, 100)? as u8,
        quiet_turns: number("quiet-turns", 100, 10_000)? as u16,
        setup: setup.value.clone(),
        placement,
        fide,
        chessma,
        activates,
        restricted_activation,
        lead_modes,
        range_box,
    };
    let variant = Arc::new(variant);
    if let Err(e) = crate::Position::parse(&variant, &variant.setup) {
        return Err(err(setup, e.to_string()));
    }
    Arc::try_unwrap(variant).map_err(|_| err(setup, "internal: setup kept a reference".into()))
}

impl VariantError {
    fn with_message(mut self, message: String) -> Self {
        self.message = message;
        self
    }
}

/// `lead X [mode] = budget N[, others N][, activates LETTERS][, P moves BETZA]...`
fn parse_lead_modes(
    entries: &[Entry],
    pieces: &[PieceKind],
    geometry: &Geometry,
    err: &dyn Fn(&Entry, String) -> VariantError,
) -> Result<Vec<LeadMode>, VariantError> {
    let mut modes: Vec<LeadMode> = Vec::new();
    let letter_kind = |e: &Entry, c: char| {
        pieces.iter().position(|p| p.letter == c).ok_or_else(|| {
            err(
                e,
                format!("'{c}' is not an upper-case piece letter of this variant"),
            )
        })
    };
    for e in entries.iter().filter(|e| e.key.starts_with("lead ")) {
        let words: Vec<&str> = e.key.split_whitespace().skip(1).collect();
        let (letter, name) = match words.as_slice() {
            [l] => (*l, ""),
            [l, m] => (*l, *m),
            _ => return Err(err(e, "write 'lead X = ...' or 'lead X mode = ...'".into())),
        };
        let mut chars = letter.chars();
        let leader = match (chars.next(), chars.next()) {
            (Some(c), None) => letter_kind(e, c)?,
            _ => return Err(err(e, format!("'{letter}' is not one piece letter"))),
        };
        if !pieces[leader].leader {
            return Err(err(
                e,
                format!("{} is not flagged 'leader'", pieces[leader].name),
            ));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(err(
                e,
                format!("mode name '{name}': use letters, digits and '-'"),
            ));
        }
        if modes
            .iter()
            .any(|m| m.leader as usize == leader && (m.name.is_empty() || name.is_empty()))
        {
            return Err(err(
                e,
                "a leader kind has either one 'lead X' line or several named modes".into(),
            ));
        }
        let mut mode = LeadMode {
            leader: leader as u8,
            name: name.into(),
            budget: 0,
            others: u8::MAX,
            activates: u16::MAX,
            remap: Vec::new(),
        };
        for clause in e.value.split(',').map(str::trim) {
            let parts: Vec<&str> = clause.split_whitespace().collect();
            let count = |n: &str| {
                n.parse::<u8>()
                    .ok()
                    .filter(|n| (1..=64).contains(n))
                    .ok_or_else(|| err(e, format!("'{clause}': expected a number 1..64")))
            };
            match parts.as_slice() {
                ["budget", n] => mode.budget = count(n)?,
                ["others", n] => mode.others = count(n)?,
                ["activates", letters] => {
                    mode.activates = 0;
                    for c in letters.chars() {
                        mode.activates |= 1 << letter_kind(e, c)?;
                    }
                }
                [kind, "moves", betza] if kind.chars().count() == 1 => {
                    let k = letter_kind(e, kind.chars().next().unwrap_or(' '))?;
                    let compile = |forward| {
                        MoveSet::compile(betza, geometry, forward)
                            .map_err(|b| err(e, format!("'{clause}': {}", b.0)))
                    };
                    mode.remap.push((
                        k as u8,
                        betza.to_string(),
                        Box::new([compile(1)?, compile(-1)?]),
                    ));
                }
                _ => {
                    return Err(err(
                        e,
                        format!(
                            "'{clause}': expected 'budget N', 'others N', 'activates LETTERS' \
                             or 'X moves BETZA'"
                        ),
                    ))
                }
            }
        }
        if mode.budget == 0 {
            return Err(err(
                e,
                "missing 'budget N' (activations a turn, itself included)".into(),
            ));
        }
        mode.others = mode.others.min(mode.budget);
        modes.push(mode);
    }
    if modes.len() > 64 {
        return Err(err(&entries[0], "at most 64 lead modes".into()));
    }
    Ok(modes)
}

type ErrFn<'a> = dyn Fn(&Entry, String) -> VariantError + 'a;

/// `board = FILESxRANKS`: one rectangle.
fn parse_rectangle(board: &Entry, err: &ErrFn) -> Result<Geometry, VariantError> {
    let (files, ranks) = board
        .value
        .split_once('x')
        .and_then(|(f, r)| Some((f.trim().parse::<u8>().ok()?, r.trim().parse::<u8>().ok()?)))
        .filter(|(f, r)| (1..=16).contains(f) && (1..=16).contains(r))
        .ok_or_else(|| {
            err(
                board,
                format!("expected FILESxRANKS, each 1..16, found '{}'", board.value),
            )
        })?;
    Ok(Geometry::rectangle(files, ranks))
}

/// `board = sheets`: labelled `files` and `ranks` (bottom to top), and `sheet NAME = rows |
/// squares` lines. A sheet's rows are rank labels bottom to top; its squares are names and
/// rectangles `a1:h8` (files and frame ranks between the corners, inclusive).
fn parse_sheets(entries: &[Entry], board: &Entry, err: &ErrFn) -> Result<Geometry, VariantError> {
    let labels = |key: &str| -> Result<(Vec<String>, &Entry), VariantError> {
        let e = entries
            .iter()
            .rev()
            .find(|e| e.key == key)
            .ok_or_else(|| err(board, format!("board = sheets needs a '{key}' line")))?;
        let v: Vec<String> = e.value.split_whitespace().map(String::from).collect();
        if v.is_empty() || v.len() > 16 {
            return Err(err(e, "expected 1 to 16 labels separated by spaces".into()));
        }
        for (i, l) in v.iter().enumerate() {
            if v[..i].contains(l) {
                return Err(err(e, format!("label '{l}' is repeated")));
            }
        }
        Ok((v, e))
    };
    let (file_labels, fe) = labels("files")?;
    let (rank_labels, _) = labels("ranks")?;
    if file_labels
        .iter()
        .any(|l| l.len() != 1 || !l.as_bytes()[0].is_ascii_lowercase())
    {
        return Err(err(fe, "file labels are single lower-case letters".into()));
    }
    let frame = Geometry::with_sheets(
        file_labels.clone(),
        rank_labels.clone(),
        vec![Sheet {
            name: String::new(),
            rows: (0..rank_labels.len() as u8).collect(),
            squares: Geometry::rectangle(file_labels.len() as u8, rank_labels.len() as u8).squares,
        }],
    );
    let mut sheets = Vec::new();
    for e in entries.iter().filter(|e| e.key.starts_with("sheet ")) {
        let name = e.key["sheet ".len()..].trim().to_string();
        let (rows_text, squares_text) = e
            .value
            .split_once('|')
            .ok_or_else(|| err(e, "expected 'rows | squares'".into()))?;
        let mut rows = Vec::new();
        for l in rows_text.split_whitespace() {
            let r = rank_labels
                .iter()
                .position(|x| x == l)
                .ok_or_else(|| err(e, format!("'{l}' is not a rank label")))?;
            if rows.last().is_some_and(|&p| p >= r as u8) {
                return Err(err(
                    e,
                    format!("rows go bottom to top: '{l}' is out of order"),
                ));
            }
            rows.push(r as u8);
        }
        let mut squares = Bitboard::EMPTY;
        for part in squares_text.split_whitespace() {
            let sq = |t: &str| {
                frame
                    .parse_square(t)
                    .ok_or_else(|| err(e, format!("'{t}' is not a square of the files and ranks")))
            };
            let (a, b) = match part.split_once(':') {
                Some((a, b)) => (sq(a)?, sq(b)?),
                None => (sq(part)?, sq(part)?),
            };
            for r in a.rank().min(b.rank())..=a.rank().max(b.rank()) {
                for f in a.file().min(b.file())..=a.file().max(b.file()) {
                    let s = Square::new(f, r);
                    if !rows.contains(&r) {
                        return Err(err(
                            e,
                            format!(
                                "{part}: rank '{}' is not a row of sheet {name}",
                                rank_labels[r as usize]
                            ),
                        ));
                    }
                    squares.set(s);
                }
            }
        }
        sheets.push(Sheet {
            name,
            rows,
            squares,
        });
    }
    if sheets.is_empty() || sheets.len() > 2 {
        return Err(err(
            board,
            "board = sheets needs one or two 'sheet NAME = rows | squares' lines".into(),
        ));
    }
    Ok(Geometry::with_sheets(file_labels, rank_labels, sheets))
}
