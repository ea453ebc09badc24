//! One variant section's fields turned into a checked `Variant`: pieces, groups, the command
//! settings, victory and draw rules, placement, lead modes, and the setup, each refused with
//! its file, line and field when wrong.

use std::sync::Arc;

use super::board::{parse_rectangle, parse_sheets};
use super::file::{nearest_field, Entry, Section, FIELDS, PREFIXED};
use super::lead::parse_lead_modes;
use super::*;
pub(super) fn build(file: &str, s: &Section, entries: &[Entry]) -> Result<Variant, VariantError> {
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
        let (mut royal, mut leader, mut role, mut value) = (false, false, None, None);
        for f in parts
            .get(2)
            .map(|f| f.split_whitespace().collect::<Vec<_>>())
            .unwrap_or_default()
        {
            match f {
                "royal" => royal = true,
                "leader" => leader = true,
                _ if value.is_none() && f.starts_with("value=") => {
                    let n = f["value=".len()..]
                        .parse::<i32>()
                        .ok()
                        .filter(|n| (0..=100_000).contains(n));
                    value = Some(n.ok_or_else(|| {
                        err(
                            e,
                            format!(
                                "'{f}': a value is a whole number from 0 to 100000 (value=300)"
                            ),
                        )
                    })?);
                }
                _ if role.is_none() && BodyRole::from_flag(f).is_some() => {
                    role = BodyRole::from_flag(f)
                }
                _ => {
                    return Err(err(
                        e,
                        format!(
                            "unknown or repeated flag '{f}' (known: leader, royal, value=N, and \
                             one of head torso hand foot hair limb)"
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
            value,
            movesets,
            max_steps,
        });
    }
    if pieces.is_empty() {
        return Err(missing("piece"));
    }
    // The engine's values of several kinds in one line (`values = C=812 G=190`, what
    // `cohort tune` fits); they override each piece's own `value=N`. Empty: none.
    if let Some(e) = get("values") {
        for item in e.value.split([' ', ',']).filter(|t| !t.is_empty()) {
            let bad = || {
                err(
                    e,
                    format!(
                        "'{item}': write 'values = X=N Y=M' with a piece letter and a whole \
                         number from 0 to 100000 for each"
                    ),
                )
            };
            let (letter, n) = item.split_once('=').ok_or_else(bad)?;
            let n = n
                .parse::<i32>()
                .ok()
                .filter(|n| (0..=100_000).contains(n))
                .ok_or_else(bad)?;
            let piece = pieces
                .iter_mut()
                .find(|p| letter.len() == 1 && letter.starts_with(p.letter))
                .ok_or_else(|| err(e, format!("'{item}': no piece '{letter}' in this variant")))?;
            piece.value = Some(n);
        }
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

    // `family` names the family that plays the variant: a built-in one (`command`, the
    // default, also `body`, `fide` and `chessma`, which `command = body` and `rules = ...`
    // say too) or one registered from outside the rules crate, whose variants need no
    // `command` (they are played one step a turn unless their family says otherwise).
    let family_entry = get("family");
    if let Some(e) = family_entry {
        let ok = !e.value.is_empty()
            && e.value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            return Err(err(
                e,
                format!(
                    "bad family name '{}': use letters, digits, '-' and '_'",
                    e.value
                ),
            ));
        }
    }
    let implied = |value: &str| {
        family_entry.map(|e| Entry {
            value: value.into(),
            ..e.clone()
        })
    };
    let implied_command = match (get("command"), family_entry.map(|e| e.value.as_str())) {
        (Some(_), _) | (None, None | Some("command")) => None,
        (None, Some("body")) => implied("body"),
        (None, Some(_)) => implied("single"),
    };
    let command_entry = match &implied_command {
        Some(e) => e,
        None => require("command")?,
    };
    // `command = body` names the body family (Lifeform), which has no command model: its
    // variants keep `Single` as their command model, and the family answers for its turns.
    let body = command_entry.value == BODY_FAMILY;
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
            CommandModel::Single
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
    let implied_rules = match (get("rules"), family_entry.map(|e| e.value.as_str())) {
        (None, Some(name @ ("fide" | "chessma"))) => implied(name),
        _ => None,
    };
    let fide = match implied_rules.as_ref().or(get("rules")) {
        None => false,
        Some(e) if e.value == "chessma" => {
            if command != CommandModel::Single || body || geometry.sheets.len() != 2 {
                return Err(err(
                    e,
                    "rules = chessma needs command = single on a board of two sheets".into(),
                ));
            }
            for letter in crate::sheets::REQUIRED_LETTERS.chars() {
                if !pieces.iter().any(|p: &PieceKind| p.letter == letter) {
                    return Err(err(
                        e,
                        format!("rules = chessma needs a piece with letter {letter} (K Q R B N P and the Ultima pieces I U L W C E S X)"),
                    ));
                }
            }
            chessma = Some(Arc::new(crate::sheets::Tables::new(&geometry)));
            false
        }
        Some(e) if e.value == "fide" => {
            if command != CommandModel::Single || body || (files, ranks) != (8, 8) {
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
    let built_in = if fide {
        "fide"
    } else if chessma.is_some() {
        "chessma"
    } else if body {
        BODY_FAMILY
    } else {
        "command"
    };
    let family = match family_entry {
        None => built_in.to_string(),
        Some(e) if BUILT_IN_FAMILIES.contains(&e.value.as_str()) => {
            if e.value != built_in {
                return Err(err(
                    e,
                    format!(
                        "family = {} disagrees with the other fields, which make a {built_in} game",
                        e.value
                    ),
                ));
            }
            e.value.clone()
        }
        Some(e) => {
            if built_in != "command" || command != CommandModel::Single {
                return Err(err(
                    e,
                    format!(
                        "family = {} plays by its own rules: drop 'rules' and 'command'",
                        e.value
                    ),
                ));
            }
            e.value.clone()
        }
    };
    let victory = match get("victory") {
        None => Victory::CaptureRoyals,
        Some(e) if e.value == "royals" => Victory::CaptureRoyals,
        Some(e) if e.value == "body" && family == BODY_FAMILY => Victory::Body,
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
    if family == BODY_FAMILY && victory != Victory::Body {
        return Err(err(
            command_entry,
            "command = body needs victory = body".into(),
        ));
    }
    // A family from outside the rules crate judges its own ends.
    let own_ends = !BUILT_IN_FAMILIES.contains(&family.as_str());
    if victory == Victory::CaptureRoyals && !own_ends && !pieces.iter().any(|p| p.royal) {
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
        Some(e) if family != BODY_FAMILY => {
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
    // The kinds whose moves restart the count of quiet turns, as a capture does (FIDE's
    // fifty-move rule counts pawn moves too).
    let mut quiet_resets = 0u64;
    if let Some(e) = get("quiet-resets") {
        for c in e.value.chars().filter(|c| !c.is_whitespace()) {
            let kind = pieces.iter().position(|p| p.letter == c).ok_or_else(|| {
                err(
                    e,
                    format!("'{c}' is not an upper-case piece letter of this variant"),
                )
            })?;
            quiet_resets |= 1 << kind;
        }
    }
    let setup = require("setup")?;
    let name = require("name")?.value.clone();
    let variant = Variant {
        id: s.id.clone(),
        family,
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
        quiet_resets,
        setup: setup.value.clone(),
        placement,
        fide,
        chessma,
        activates,
        restricted_activation,
        lead_modes,
        range_box,
    };
    Ok(variant)
}

impl VariantError {
    fn with_message(mut self, message: String) -> Self {
        self.message = message;
        self
    }
}
