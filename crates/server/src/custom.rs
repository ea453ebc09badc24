//! Custom variants and piece move diagrams.
//!
//! A player's variant file (the .ini format of variants/*.ini, docs/variants.md) is checked
//! here before anything else sees it: its size, its number of sections, then the rules
//! crate's loader (`parse_variants`), which refuses anything that could fail later. A file
//! that loads is stored with the game (`GameRow::variant_text`) and loaded again when the
//! game is read back. Errors are JSON with the line and field of the loader's error.
//!
//! Piece move diagrams (as H. G. Muller's Interactive Diagram): where a piece kind can go
//! from a square, on an empty board and on a real board, as the rules crate says
//! (`diagram::piece_diagram`: the piece's moves compiled (`MoveSet`), or the family's own
//! moves for Chessma 84), and for leaders what they activate and how far they reach. The
//! answer carries the board's layout as the game view does (`view::with_layout`). The
//! browser draws the answer; it never computes a move.

use cohort_rules::Rules;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use cohort_rules::diagram::kind_targets;
use cohort_rules::{
    builtin, builtin_variants, parse_variants, variant_warnings, Bitboard, Position, Side, Square,
    Variant, VariantError,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{body_with, Answer, ApiError, ApiPath, ApiQuery, Code};
use crate::store::GameRow;
use crate::view::{board_view, colour_hex, side_name, with_layout, with_variant_head};
use crate::App;

/// Longest variant file accepted.
pub const MAX_TEXT: usize = 64 * 1024;
/// Longest request body of the routes that take a variant file (JSON escapes its newlines).
pub const MAX_BODY: usize = 4 * MAX_TEXT;
/// Most variants (sections) in one file.
pub const MAX_SECTIONS: usize = 16;
/// The name errors give the player's file.
pub const FILE: &str = "custom.ini";

/// A variant file that cannot be used: the status to answer, the sentence, and where.
#[derive(Debug)]
pub struct CustomError {
    pub status: StatusCode,
    pub message: String,
    /// 1-based line of the file, when the error has one; and its field ("" when none).
    pub line: Option<usize>,
    pub field: String,
    /// What is wrong, without the place.
    pub detail: String,
}

impl CustomError {
    fn whole(status: StatusCode, message: String) -> CustomError {
        CustomError {
            status,
            detail: message.clone(),
            message,
            line: None,
            field: String::new(),
        }
    }

    fn at(e: &VariantError) -> CustomError {
        CustomError {
            status: StatusCode::BAD_REQUEST,
            message: e.to_string(),
            line: Some(e.line),
            field: e.field.clone(),
            detail: e.message.clone(),
        }
    }

    /// `{"error": <sentence>, "errors": [{"line", "field", "message"}]}`.
    pub fn json(&self) -> Value {
        json!({
            "error": self.message,
            "errors": [{"line": self.line, "field": self.field, "message": self.detail}],
        })
    }
}

impl From<CustomError> for ApiError {
    fn from(e: CustomError) -> ApiError {
        let code = if e.status == StatusCode::PAYLOAD_TOO_LARGE {
            Code::TooLarge
        } else {
            Code::BadVariantFile
        };
        let errors = e.json()["errors"].take();
        ApiError::new(code, e.message).with("errors", errors)
    }
}

fn warning_json(w: &VariantError) -> Value {
    json!({"line": w.line, "field": w.field, "message": w.message, "text": w.to_string()})
}

/// Load a player's variant file: every variant it defines, or why not.
pub fn load(text: &str) -> Result<Vec<Arc<Variant>>, CustomError> {
    if text.len() > MAX_TEXT {
        return Err(CustomError::whole(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the variant file is {} bytes; at most {MAX_TEXT} (64 KiB) are accepted",
                text.len()
            ),
        ));
    }
    if text.trim().is_empty() {
        return Err(CustomError::whole(
            StatusCode::BAD_REQUEST,
            "the variant file is empty: paste or upload a file with a [variant] section".into(),
        ));
    }
    let mut sections = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('[') {
            sections += 1;
            if sections > MAX_SECTIONS {
                return Err(CustomError {
                    status: StatusCode::BAD_REQUEST,
                    message: format!(
                        "{FILE}:{}: at most {MAX_SECTIONS} variants in one file",
                        i + 1
                    ),
                    line: Some(i + 1),
                    field: String::new(),
                    detail: format!("at most {MAX_SECTIONS} variants in one file"),
                });
            }
        }
    }
    let known = builtin_variants();
    // The loader is fuzzed and returns errors; a panic would still only refuse the file.
    match catch_unwind(AssertUnwindSafe(|| parse_variants(FILE, text, &known))) {
        Ok(Ok(variants)) => Ok(variants),
        Ok(Err(e)) => Err(CustomError::at(&e)),
        Err(_) => Err(CustomError::whole(
            StatusCode::BAD_REQUEST,
            "the variant file could not be loaded (the loader failed on it)".into(),
        )),
    }
}

/// The variant `id` of a loaded file (the file's last one when `id` is empty).
pub fn pick(variants: &[Arc<Variant>], id: &str) -> Result<Arc<Variant>, ApiError> {
    if id.is_empty() {
        if let Some(v) = variants.last() {
            return Ok(v.clone());
        }
    }
    variants
        .iter()
        .find(|v| v.id == id)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = variants.iter().map(|v| v.id.as_str()).collect();
            ApiError::new(
                Code::UnknownVariant,
                format!("variant: the file defines {}, not '{id}'", ids.join(", ")),
            )
        })
}

/// The variant a stored game is played in: built in, or defined by the file stored with it.
pub fn variant_of(row: &GameRow) -> Result<Arc<Variant>, String> {
    if row.variant_text.is_empty() {
        return builtin(&row.variant).ok_or_else(|| format!("unknown variant '{}'", row.variant));
    }
    let variants =
        load(&row.variant_text).map_err(|e| format!("its custom variant file: {}", e.message))?;
    variants
        .iter()
        .find(|v| v.id == row.variant)
        .cloned()
        .ok_or_else(|| format!("its custom variant file has no variant '{}'", row.variant))
}

/// What the check of a file answers: each variant with its start position and pieces, and
/// the warnings (settings that load but make no sense together).
pub fn check_text(text: &str) -> Result<Value, CustomError> {
    let variants = load(text)?;
    let known = builtin_variants();
    let warnings =
        catch_unwind(AssertUnwindSafe(|| variant_warnings(FILE, text, &known))).unwrap_or_default();
    let list: Vec<Value> = variants.iter().map(variant_json).collect();
    Ok(json!({
        "ok": true,
        "bytes": text.len(),
        "variants": list,
        "warnings": warnings.iter().map(warning_json).collect::<Vec<_>>(),
    }))
}

/// A variant for the page: the fields of `GET /api/variants` plus its pieces, each with its
/// moves from the board's middle square on an empty board.
pub fn variant_json(v: &Arc<Variant>) -> Value {
    let start = v.start();
    let centre = centre(v);
    let pieces: Vec<Value> = (0..v.pieces.len())
        .map(|k| {
            let mut p = kind_json(v, k);
            let (moves, captures) = kind_targets(&start, k, Side::White, centre, false);
            p["from"] = v.geometry.square_name(centre).into();
            p["empty"] = json!({"moves": names(v, moves), "captures": names(v, captures)});
            p
        })
        .collect();
    let view = board_view(&start, &[]);
    with_variant_head(
        v,
        json!({
            "command": view["command"],
            "start": view,
            "units": cohort_rules::all_units(&start).count(),
            "first_steps": start.count_steps(),
            "pieces": pieces,
            "ai_levels": crate::ai_levels::levels_json(v),
        }),
    )
}

fn kind_json(v: &Variant, k: usize) -> Value {
    let p = &v.pieces[k];
    json!({
        "letter": p.letter.to_string(),
        "name": p.name,
        "moves": p.moves,
        "leader": p.leader,
        "royal": p.royal,
    })
}

fn centre(v: &Variant) -> Square {
    let g = &v.geometry;
    Square::new((g.files - 1) / 2, (g.ranks - 1) / 2)
}

fn names(v: &Variant, b: Bitboard) -> Vec<String> {
    b.iter().map(|s| v.geometry.square_name(s)).collect()
}

fn letters(v: &Variant, mask: u16) -> Vec<String> {
    v.pieces
        .iter()
        .enumerate()
        .filter(|(k, _)| mask >> k & 1 != 0)
        .map(|(_, p)| p.letter.to_string())
        .collect()
}

/// A diagram request: the piece kind (its letter), the square, the side.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DiagramQuery {
    piece: Option<String>,
    square: Option<String>,
    side: Option<String>,
}

/// The diagram of a piece kind of `v` from a square, on an empty board and on `board` (a
/// game's position, or the start position).
pub fn diagram(v: &Arc<Variant>, board: &Position, q: &DiagramQuery) -> Result<Value, ApiError> {
    let geo = &v.geometry;
    let kind = match q.piece.as_deref() {
        None | Some("") => 0,
        Some(l) => {
            let mut c = l.chars();
            match (c.next(), c.next()) {
                (Some(ch), None) => v.kind_of_letter(ch),
                _ => None,
            }
            .ok_or_else(|| {
                let all: Vec<String> = v.pieces.iter().map(|p| p.letter.to_string()).collect();
                ApiError::invalid(format!(
                    "piece: '{l}' is not a piece letter of {} ({})",
                    v.id,
                    all.join(", ")
                ))
            })?
        }
    };
    let side = match q.side.as_deref() {
        None | Some("") | Some("white") => Side::White,
        Some("black") => Side::Black,
        Some(s) => {
            return Err(ApiError::invalid(format!(
                "side: '{s}' is not white or black"
            )))
        }
    };
    let from = match q.square.as_deref() {
        None | Some("") => centre(v),
        Some(s) => geo.parse_square(s).ok_or_else(|| {
            ApiError::invalid(format!(
                "square: '{s}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            ))
        })?,
    };
    let p = &v.pieces[kind];
    let d = cohort_rules::diagram::piece_diagram(board, kind, side, from);

    // The board as drawn: its units, the piece on `from` in place of whatever stood there.
    let view = board_view(board, &[]);
    let real = d.real;
    let mut units: Vec<Value> = view["units"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|u| u["square"] != geo.square_name(from).as_str())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let group = real.map_or(0, |u| u.group);
    let colour = match v.groups.get(group as usize) {
        Some(g) => colour_hex(&g.colours[side.index()], side),
        None => colour_hex("", side),
    };
    let letter = if side == Side::White {
        p.letter.to_string()
    } else {
        p.letter.to_ascii_lowercase().to_string()
    };
    units.push(json!({
        "square": geo.square_name(from), "letter": letter, "side": side_name(side),
        "group": group, "colour": colour, "moved": false, "pinned": null,
    }));
    // The unit really standing there, of this kind and side: where it may go now by every
    // rule of the game (command rules included), as the rules say.
    let legal_now = d.legal_now.map(|b| names(v, b));
    let lead_now: Vec<String> = d.lead_now.iter().map(|&s| board.step_text(s)).collect();

    // Leaders: what they activate and how far they reach, in the rules' words.
    let leader = match &d.command {
        None => Value::Null,
        Some(c) => {
            let mut o = json!({
                "model": c.model,
                "text": c.text,
                "activates": letters(v, c.activates),
                "reach_empty": names(v, c.reach_empty),
                "reach_board": names(v, c.reach_board),
            });
            if let Some(range) = c.range {
                o["range"] = json!(range);
            }
            if let Some(any) = c.links_any_friendly {
                o["links"] = json!(if any { "friendly" } else { "group" });
            }
            if let Some(cap) = c.cap {
                o["cap"] = json!(cap);
            }
            if let Some(modes) = &c.modes {
                let modes: Vec<Value> = modes
                    .iter()
                    .map(|&i| {
                        let m = &v.lead_modes[i];
                        json!({
                            "mode": m.name,
                            "budget": m.budget,
                            "others": m.others,
                            "activates": letters(v, m.activates),
                            "remap": m.remap.iter().map(|(k, b, _)| json!({
                                "letter": v.pieces[*k as usize].letter.to_string(),
                                "name": v.pieces[*k as usize].name,
                                "moves": b,
                            })).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                o["modes"] = json!(modes);
            }
            o
        }
    };

    // Lead model: how the kinds a leader remaps move when it activates them.
    let as_activated: Vec<Value> = d
        .as_activated
        .iter()
        .map(|&(i, mv, cp)| {
            let m = &v.lead_modes[i];
            let betza = m
                .remap
                .iter()
                .find(|(k, _, _)| *k as usize == kind)
                .map_or("", |(_, b, _)| b.as_str());
            let lp = &v.pieces[m.leader as usize];
            json!({
                "leader": lp.letter.to_string(),
                "leader_name": lp.name,
                "mode": m.name,
                "moves": betza,
                "empty": {"moves": names(v, mv), "captures": names(v, cp)},
            })
        })
        .collect();

    let mut out = kind_json(v, kind);
    let o = out.as_object_mut().expect("an object");
    o.insert("variant".into(), v.id.clone().into());
    o.insert("square".into(), geo.square_name(from).into());
    o.insert("side".into(), side_name(side).into());
    o.insert(
        "empty".into(),
        json!({"moves": names(v, d.empty_moves), "captures": names(v, d.empty_captures)}),
    );
    o.insert(
        "board".into(),
        json!({
            "position": board.to_text(),
            "units": units,
            "moves": names(v, d.board_moves),
            "captures": names(v, d.board_captures),
            "real": real.is_some(),
            "legal_now": legal_now,
            "lead_now": lead_now,
        }),
    );
    o.insert("leader_info".into(), leader);
    o.insert("as_activated".into(), as_activated.into());
    o.insert(
        "kinds".into(),
        (0..v.pieces.len())
            .map(|k| kind_json(v, k))
            .collect::<Vec<_>>()
            .into(),
    );
    // The board as the game view draws it (files, ranks, labels, squares; Chessma 84's 84).
    with_layout(&mut out, geo);
    Ok(out)
}

// ---------------------------------------------------------------- routes

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckReq {
    text: String,
}

/// `POST /api/variants/check` `{"text"}`: the file's variants, or its error with line and
/// field: `{"error", "errors": [{"line", "field", "message"}]}`.
pub async fn check(
    raw: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, axum::response::Response> {
    use axum::response::IntoResponse;
    let req: CheckReq = body_with(raw, MAX_BODY).map_err(IntoResponse::into_response)?;
    // Loading builds tables for every piece: off the async workers.
    let answer = tokio::task::spawn_blocking(move || check_text(&req.text))
        .await
        .map_err(|e| ApiError::internal(format!("the check failed: {e}")).into_response())?;
    answer
        .map(Json)
        .map_err(|e| ApiError::from(e).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextDiagramReq {
    text: String,
    variant: Option<String>,
    piece: Option<String>,
    square: Option<String>,
    side: Option<String>,
}

/// `POST /api/variants/diagram` `{"text", "variant"?, "piece", "square", "side"}`: a piece
/// diagram in a custom variant (the board: its start position).
pub async fn text_diagram(raw: Result<Bytes, BytesRejection>) -> Answer {
    let req: TextDiagramReq = body_with(raw, MAX_BODY)?;
    tokio::task::spawn_blocking(move || {
        let variants = load(&req.text)?;
        let v = pick(&variants, req.variant.as_deref().unwrap_or(""))?;
        let q = DiagramQuery {
            piece: req.piece,
            square: req.square,
            side: req.side,
        };
        diagram(&v, &v.start(), &q).map(Json)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the diagram failed: {e}")))?
}

/// `GET /api/variants/<id>/diagram?piece=N&square=d4&side=white`: a built-in variant (the
/// board: its start position).
pub async fn variant_diagram(
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<DiagramQuery>,
) -> Answer {
    let v = builtin(&id).ok_or_else(|| {
        ApiError::not_found(format!(
            "unknown variant '{id}' (GET /api/variants lists them)"
        ))
    })?;
    diagram(&v, &v.start(), &q).map(Json)
}

/// `GET /api/games/<id>/diagram?piece=N&square=d4&side=white`: in a game's variant (custom
/// ones included), the board being the game's position now.
pub async fn game_diagram(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<DiagramQuery>,
) -> Answer {
    let slot = app.find(&id).await?;
    let pos = slot.live.lock().await.game.position().clone();
    diagram(&pos.variant().clone(), &pos, &q).map(Json)
}
