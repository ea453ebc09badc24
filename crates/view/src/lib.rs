//! The JSON a board shows of any position: the board, units, who may move, captures, the
//! command drawing; side names and group colours; a step as data; a result in words. Shared
//! by the server (live games, record replays, diagrams, the rules page, the analysis board)
//! and the WebAssembly module (crates/wasm), so that the browser draws from the same fields
//! either way. No I/O: it only reads the rules' answers (docs/architecture.md).

use cohort_rules::{EndReason, Explain, Outcome, Position, Rules, SearchHooks, Side, Square, Unit};
use serde_json::{json, Value};

pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

pub fn parse_side(text: &str) -> Option<Side> {
    match text {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

/// Display colours for the group colour names of the variant files.
pub fn colour_hex(name: &str, side: Side) -> String {
    match name {
        "yellow" => "#f2cf3a",
        "white" => "#f7f5ee",
        "grey" | "gray" => "#a9aaa6",
        "orange" => "#f08a2a",
        "green" => "#3fae5a",
        "blue" => "#3d74d9",
        "red" => "#d9443d",
        "purple" => "#9150b8",
        other if other.starts_with('#') => other,
        _ => {
            if side == Side::White {
                "#f7f5ee"
            } else {
                "#3a3a3a"
            }
        }
    }
    .to_string()
}

pub fn result_json(result: Option<(Outcome, EndReason)>, time_loser: Option<Side>) -> Value {
    if let Some(loser) = time_loser {
        let winner = loser.other();
        return json!({
            "winner": side_name(winner),
            "reason": "time forfeit",
            "text": format!("{} wins (time forfeit)", winner.name()),
        });
    }
    match result {
        None => Value::Null,
        Some((_, EndReason::Aborted)) => json!({
            "winner": null,
            "reason": EndReason::Aborted.describe(),
            "text": "Aborted (no result)",
        }),
        Some((Outcome::Win(side), reason)) => json!({
            "winner": side_name(side),
            "reason": reason.describe(),
            "text": format!("{} wins ({})", side.name(), reason.describe()),
        }),
        Some((Outcome::Draw, reason)) => json!({
            "winner": null,
            "reason": reason.describe(),
            "text": format!("Draw ({})", reason.describe()),
        }),
    }
}

/// What any position shows: the board, units, who may move, captures, command drawing.
/// The royal squares of the side to move when it is in check (empty otherwise).
fn check_of(pos: &Position) -> cohort_rules::Bitboard {
    if pos.outcome().is_some() {
        return cohort_rules::Bitboard::EMPTY;
    }
    // Families without check answer false.
    if pos.in_check() {
        pos.royals(pos.side_to_move())
    } else {
        cohort_rules::Bitboard::EMPTY
    }
}

/// The enemy units giving check (`check_of`'s check), as the rules name them: each one's
/// square, piece name and letter, and how it would take the King.
fn checkers_of(pos: &Position) -> Vec<Value> {
    if pos.outcome().is_some() {
        return Vec::new();
    }
    let v = pos.variant();
    pos.checkers()
        .iter()
        .map(|c| {
            let piece = &v.pieces[c.kind as usize];
            json!({
                "square": v.geometry.square_name(c.square),
                "piece": piece.name,
                "letter": piece.letter.to_string(),
                "how": c.how.describe(),
            })
        })
        .collect()
}

/// `removed`: the units taken off the board so far (the game's, from the steps' effects).
pub fn board_view(pos: &Position, removed: &[Unit]) -> Value {
    let v = pos.variant();
    let geo = &v.geometry;
    let name = |sq: Square| geo.square_name(sq);
    let letter = |kind: u8, side: Side| {
        let l = v.pieces[kind as usize].letter;
        if side == Side::White {
            l.to_string()
        } else {
            l.to_ascii_lowercase().to_string()
        }
    };
    let colour = |group: u8, side: Side| match v.groups.get(group as usize) {
        Some(g) => colour_hex(&g.colours[side.index()], side),
        None => colour_hex("", side),
    };
    let moved = pos.moved_this_turn();
    let mut units = vec![];
    for sq in geo.squares.iter() {
        if let Some(u) = pos.unit_at(sq) {
            let pinned = pos
                .pinned_at(sq)
                .map(|p| json!({"letter": letter(p.kind, p.side), "side": side_name(p.side)}));
            units.push(json!({
                "square": name(sq),
                "letter": letter(u.kind, u.side),
                "side": side_name(u.side),
                "group": u.group,
                "colour": colour(u.group, u.side),
                "moved": moved.has(sq),
                "pinned": pinned,
            }));
        }
    }
    let mut captured = [vec![], vec![]];
    for u in removed {
        captured[u.side.index()].push(letter(u.kind, u.side));
    }
    let mut pocket = [vec![], vec![]];
    for side in [Side::White, Side::Black] {
        for (kind, &n) in cohort_rules::pocket(pos, side).iter().enumerate() {
            for _ in 0..n {
                pocket[side.index()].push(letter(kind as u8, side));
            }
        }
    }
    let movable_set = pos.movable_units();
    let movable: Vec<String> = movable_set.iter().map(name).collect();
    // Why each of the side to move's other units may not start a move now, in the rules'
    // words (a unit of another chesimal, out of every leader's range, not linked, ...).
    let mut why_not = serde_json::Map::new();
    if pos.outcome().is_none() {
        for sq in pos.occupied(pos.side_to_move()).iter() {
            if !movable_set.has(sq) {
                let why = pos.why_not(sq);
                if why != cohort_rules::Illegal::CannotReach {
                    why_not.insert(name(sq), Value::from(why.to_string()));
                }
            }
        }
    }
    let command = v.command_name();
    // How the command rules show, in the rules' words: the pages read these flags and
    // sentences, never the model's name.
    let shown = cohort_rules::describe::command_presentation(v);
    let pieces: serde_json::Map<String, Value> = v
        .pieces
        .iter()
        .map(|p| (p.letter.to_string(), Value::from(p.name.clone())))
        .collect();
    let letters = |pick: fn(&cohort_rules::variant::PieceKind) -> bool| -> Vec<String> {
        v.pieces
            .iter()
            .filter(|p| pick(p))
            .map(|p| p.letter.to_string())
            .collect()
    };
    let mut view = json!({
        "variant": v.id,
        "name": v.name,
        "pieces": pieces,
        // The variant's groups (chesimals), by number: units carry their group's number.
        "groups": v.groups.iter().map(|g| g.name.clone()).collect::<Vec<_>>(),
        "leaders": letters(|p| p.leader),
        "royals": letters(|p| p.royal),
        // Pieces an enemy Immobilizer freezes (Chessma 84).
        "frozen": (pos.frozen(Side::White) | pos.frozen(Side::Black)).iter().map(name).collect::<Vec<_>>(),
        "why_not": why_not,
        // The side to move's royal pieces under attack (chess, Chessma 84): the rules say so.
        "check": check_of(pos).iter().map(name).collect::<Vec<_>>(),
        // The enemy units giving that check, and how each would take the King.
        "checkers": checkers_of(pos),
        "command": command,
        "one_step_turns": shown.one_step_turns,
        "shows_command": shown.shows_command,
        "link_rule": shown.link_rule,
        "command_legend": shown.legend,
        "position": pos.to_text(),
        "to_move": side_name(pos.side_to_move()),
        "at_turn_start": pos.at_turn_start(),
        "units": units,
        "movable": movable,
        "captured": {"white": captured[0], "black": captured[1]},
        "pocket": {"white": pocket[0], "black": pocket[1]},
        "command_info": command_info(pos),
    });
    with_layout(&mut view, geo);
    view
}

/// Add the board's layout to a JSON object (a board view, a piece diagram): its frame size,
/// edge labels and squares, all that board.js needs to draw the board's squares.
pub fn with_layout(out: &mut Value, geo: &cohort_rules::geometry::Geometry) {
    let o = out.as_object_mut().expect("a JSON object");
    o.insert("files".into(), geo.files.into());
    o.insert("ranks".into(), geo.ranks.into());
    // Boards with labelled files and ranks (Chessma 84: z..i, 0 1' 1 .. 8 8' 9).
    o.insert("file_labels".into(), json!(geo.file_labels));
    o.insert("rank_labels".into(), json!(geo.rank_labels));
    // Every square of the board, from the rules' geometry (holes and sheets included).
    o.insert("squares".into(), squares_view(geo));
}

/// The rules' command picture (`Position::command_view`) as JSON: leaders (with the zone each
/// commands under the range model), chain links, the turn's moves and cap, and under the lead
/// model the leader leading the turn with its budget and what it may activate.
fn command_info(pos: &Position) -> Value {
    let v = pos.variant();
    let geo = &v.geometry;
    let view = pos.command_view();
    let range = view.range;
    let names =
        |b: cohort_rules::Bitboard| b.iter().map(|s| geo.square_name(s)).collect::<Vec<_>>();
    let lead_json = |l: &cohort_rules::LeadingView| {
        json!({
            "square": geo.square_name(l.square),
            "mode": l.mode,
            "budget": l.budget,
            "used": l.used,
            "others_left": l.others_left,
            "activates": l.activates.iter().map(|&k| v.pieces[k as usize].letter.to_string()).collect::<Vec<_>>(),
            "remap": l.remap.iter().map(|(k, m)| json!({"letter": v.pieces[*k as usize].letter.to_string(), "moves": m})).collect::<Vec<_>>(),
        })
    };
    let leading = view.leading.as_ref().map(lead_json);
    let lead_options: Vec<Value> = view
        .lead_options
        .iter()
        .map(|(step, l)| {
            let mut o = lead_json(l);
            o["step"] = pos.step_text(*step).into();
            o
        })
        .collect();
    json!({
        "leaders": view.leaders.iter().map(|l| geo.square_name(l.square)).collect::<Vec<_>>(),
        "available": view.leaders.iter().filter(|l| l.available).map(|l| geo.square_name(l.square)).collect::<Vec<_>>(),
        "zones": view.leaders.iter().map(|l| names(l.zone)).collect::<Vec<_>>(),
        "range": range,
        "links": view.links.iter().map(|(a, b)| json!([geo.square_name(*a), geo.square_name(*b)])).collect::<Vec<_>>(),
        "moves": view.moves,
        "moves_cap": view.moves_cap,
        "leading": leading,
        "lead_options": lead_options,
    })
}

/// Every square of the board as the rules' geometry knows it (docs/server.md `squares`): its
/// name, file and rank index in the frame (file 0 left, rank 0 at the bottom, as drawn from
/// White's side) and the sheets it belongs to (Chessma 84; empty for one rectangle).
pub fn squares_view(geo: &cohort_rules::geometry::Geometry) -> Value {
    Value::Array(
        geo.squares
            .iter()
            .map(|sq| {
                let sheets: Vec<&str> = geo
                    .sheets
                    .iter()
                    .filter(|s| s.squares.has(sq))
                    .map(|s| s.name.as_str())
                    .collect();
                json!({"name": geo.square_name(sq), "file": sq.file(), "rank": sq.rank(), "sheets": sheets})
            })
            .collect(),
    )
}

/// A step as data (docs/server.md `steps`), without its text and removals (which need the
/// position before it): its squares, kind and the kind's argument.
pub fn step_fields(
    v: &cohort_rules::Variant,
    s: cohort_rules::Step,
) -> serde_json::Map<String, Value> {
    use cohort_rules::StepKind;
    let geo = &v.geometry;
    let name = |q: Square| Value::from(geo.square_name(q));
    let letter = |k: u8| Value::from(v.pieces[k as usize].letter.to_string());
    let (kind, from, to) = match s.kind {
        StepKind::End => ("end", Value::Null, Value::Null),
        StepKind::Pass => ("pass", Value::Null, Value::Null),
        StepKind::Drop(_) => ("drop", Value::Null, name(s.to)),
        StepKind::Move => ("move", name(s.from), name(s.to)),
        StepKind::Pin => ("pin", name(s.from), name(s.to)),
        StepKind::Promote(_) => ("promote", name(s.from), name(s.to)),
        StepKind::Lead(_) => ("lead", name(s.from), name(s.to)),
        StepKind::Push(_) => ("push", name(s.from), name(s.to)),
    };
    let mut m = serde_json::Map::new();
    m.insert("from".into(), from);
    m.insert("to".into(), to);
    m.insert("kind".into(), kind.into());
    m.insert(
        "promote".into(),
        match s.kind {
            StepKind::Promote(k) => letter(k),
            _ => Value::Null,
        },
    );
    m.insert(
        "drop".into(),
        match s.kind {
            StepKind::Drop(k) => letter(k),
            _ => Value::Null,
        },
    );
    m.insert(
        "lead_mode".into(),
        match s.kind {
            StepKind::Lead(mode) => v
                .lead_modes
                .get(mode as usize)
                .filter(|m| !m.name.is_empty())
                .map_or(Value::Null, |m| Value::from(m.name.clone())),
            _ => Value::Null,
        },
    );
    m.insert(
        "sheet".into(),
        match s.kind {
            StepKind::Push(sheet) => geo
                .sheets
                .get(sheet as usize)
                .map_or(Value::Null, |sh| Value::from(sh.name.clone())),
            _ => Value::Null,
        },
    );
    m
}

/// An answer about a variant: its id, names, reconstruction note and board size, then
/// `rest` (an object).
pub fn with_variant_head(v: &cohort_rules::Variant, rest: Value) -> Value {
    let mut o = json!({
        "id": v.id,
        "name": v.name,
        "summary": v.summary,
        "reconstructed": v.reconstructed,
        "files": v.geometry.files,
        "ranks": v.geometry.ranks,
    });
    if let (Some(o), Value::Object(rest)) = (o.as_object_mut(), rest) {
        o.extend(rest);
    }
    o
}
