//! What a tournament's page shows (docs/server.md, "Tournaments"), from its stored rows and
//! the rules of crates/tournament: the summary the lists show, the standings with their
//! tie-breaks (Swiss) or score sheets (Arena), the rounds and the crosstable. The caller's
//! own part (`me`: joined, its game's seat link) is added per request by the API.

use cohort_tournament::standings::{crosstable, standings, Cell};
use cohort_tournament::{arena, Colour, Game, Outcome, Round};
use serde_json::{json, Value};

use crate::tournament_store::{Pairing, Tournament, TournamentRow};

/// The summary of `row` with `players` players, as lists show it.
pub fn summary(row: &TournamentRow, players: i64) -> Value {
    json!({
        "id": row.id,
        "name": row.name,
        "kind": row.kind,
        "variant": row.variant,
        "variant_name": row.variant_name,
        "custom": !row.variant_text.is_empty(),
        "time_control": row.control.describe(),
        "rated": row.rated,
        "rounds": row.rounds,
        "minutes": row.minutes,
        "bye_points": row.bye_points as f64 / 2.0,
        "status": row.status,
        "starts_ms": row.starts_ms,
        "ends_ms": row.ends_ms,
        "round": row.round,
        "players": players,
        "creator": row.creator,
        "note": row.note,
    })
}

/// A pairing's game as the tournament crate counts it (None: a bye).
pub fn game_of(p: &Pairing) -> Option<Game> {
    let black = p.black?;
    Some(Game {
        white: p.white,
        black,
        outcome: p.result.as_deref().and_then(outcome),
    })
}

fn outcome(result: &str) -> Option<Outcome> {
    match result {
        "white" => Some(Outcome::WhiteWins),
        "black" => Some(Outcome::BlackWins),
        "draw" => Some(Outcome::Draw),
        _ => None,
    }
}

fn result_text(result: Option<&str>) -> Value {
    match result {
        Some("white") => "1-0".into(),
        Some("black") => "0-1".into(),
        Some("draw") => "1/2-1/2".into(),
        _ => Value::Null,
    }
}

/// A Swiss's rounds, 1 to `row.round`, as the tournament crate reads them.
pub fn swiss_rounds(t: &Tournament) -> Vec<Round> {
    let mut rounds = vec![Round::default(); t.row.round.max(0) as usize];
    for p in &t.pairings {
        let Some(r) = rounds.get_mut((p.round - 1).max(0) as usize) else {
            continue;
        };
        match game_of(p) {
            Some(g) => r.games.push(g),
            None => r.bye = Some(p.white),
        }
    }
    rounds
}

/// What an Arena knows of one entrant, from one pass over the pairings.
#[derive(Default)]
pub struct ArenaEntrant<'a> {
    /// Its finished games' results, in the order they ended.
    pub results: Vec<arena::Played>,
    /// Its last finished game, if any.
    pub last: Option<&'a Pairing>,
    /// Games as White and in all, finished or not.
    pub whites: i32,
    pub games: i32,
}

/// Every entrant's [`ArenaEntrant`], by entrant.
pub fn arena_entrants(t: &Tournament) -> Vec<ArenaEntrant<'_>> {
    let mut done: Vec<&Pairing> = t.pairings.iter().filter(|p| p.result.is_some()).collect();
    done.sort_by_key(|p| (p.ended_ms, p.seq));
    let mut out: Vec<ArenaEntrant> = (0..t.players.len())
        .map(|_| ArenaEntrant::default())
        .collect();
    for p in &t.pairings {
        for e in [Some(p.white), p.black].into_iter().flatten() {
            if let Some(a) = out.get_mut(e) {
                a.games += 1;
                a.whites += i32::from(p.white == e);
            }
        }
    }
    for p in done {
        for e in [Some(p.white), p.black].into_iter().flatten() {
            let Some(a) = out.get_mut(e) else { continue };
            a.results.push(match (p.result.as_deref(), p.white == e) {
                (Some("draw"), _) => arena::Played::Draw,
                (Some("white"), true) | (Some("black"), false) => arena::Played::Win,
                _ => arena::Played::Loss,
            });
            a.last = Some(p);
        }
    }
    out
}

/// The game entrant `e` is playing now, if any.
pub fn playing(t: &Tournament, e: usize) -> Option<&Pairing> {
    t.pairings
        .iter()
        .find(|p| p.result.is_none() && p.game_id.is_some() && (p.white == e || p.black == Some(e)))
}

/// Everything the page shows but the caller's own part.
pub fn public(t: &Tournament) -> Value {
    let mut v = summary(&t.row, t.players.len() as i64);
    let name = |e: usize| t.players.get(e).map(|p| p.name.clone());
    let game_json = |p: &Pairing| {
        json!({
            "white": name(p.white),
            "black": p.black.and_then(name),
            "game": p.game_id,
            "result": result_text(p.result.as_deref()),
        })
    };
    let line = |e: usize, rank: usize| {
        let p = &t.players[e];
        json!({
            "rank": rank,
            "username": p.name,
            "rating": p.rating,
            "withdrawn": p.withdrawn,
            "playing": playing(t, e).and_then(|g| g.game_id.clone()),
        })
    };
    if t.row.kind == "swiss" {
        let rounds = swiss_rounds(t);
        let ratings: Vec<i32> = t.players.iter().map(|p| p.rating as i32).collect();
        let table = standings(&ratings, &rounds, t.row.bye_points as u32);
        let lines: Vec<Value> = table
            .iter()
            .map(|s| {
                let mut l = line(s.entrant, s.rank);
                l["points"] = (s.points as f64 / 2.0).into();
                l["buchholz"] = s.buchholz.into();
                l["sonneborn_berger"] = s.sonneborn_berger.into();
                l
            })
            .collect();
        let cells = crosstable(t.players.len(), &rounds);
        let cross: Vec<Value> = table
            .iter()
            .map(|s| {
                let row: Vec<Value> = cells[s.entrant]
                    .iter()
                    .enumerate()
                    .map(|(i, c)| cell_json(i + 1, c, &name))
                    .collect();
                json!({"username": t.players[s.entrant].name, "cells": row})
            })
            .collect();
        let rounds_json: Vec<Value> = (1..=t.row.round)
            .map(|r| {
                let of_round: Vec<&Pairing> =
                    t.pairings.iter().filter(|p| p.round == r).collect();
                json!({
                    "round": r,
                    "games": of_round.iter().filter(|p| p.black.is_some()).map(|p| game_json(p)).collect::<Vec<_>>(),
                    "bye": of_round.iter().find(|p| p.black.is_none()).and_then(|p| name(p.white)),
                })
            })
            .collect();
        v["standings"] = lines.into();
        v["crosstable"] = cross.into();
        // `rounds` stays the number of rounds (the summary's): the rounds paired so far are
        // `paired_rounds`.
        v["paired_rounds"] = rounds_json.into();
    } else {
        let mut scored: Vec<(usize, arena::Score)> = arena_entrants(t)
            .iter()
            .enumerate()
            .map(|(e, a)| (e, arena::score(&a.results)))
            .collect();
        scored.sort_by(|(a, sa), (b, sb)| {
            sb.points
                .cmp(&sa.points)
                .then(t.players[*b].rating.cmp(&t.players[*a].rating))
                .then(a.cmp(b))
        });
        let mut lines = vec![];
        for (i, (e, s)) in scored.iter().enumerate() {
            let rank = if i > 0 && scored[i - 1].1.points == s.points {
                lines
                    .last()
                    .and_then(|l: &Value| l["rank"].as_u64())
                    .unwrap_or(1) as usize
            } else {
                i + 1
            };
            let mut l = line(*e, rank);
            l["points"] = s.points.into();
            l["sheet"] = s.sheet.clone().into();
            l["on_fire"] = s.on_fire.into();
            lines.push(l);
        }
        v["standings"] = lines.into();
        v["games"] = t
            .pairings
            .iter()
            .rev()
            .take(100)
            .map(game_json)
            .collect::<Vec<_>>()
            .into();
    }
    v
}

fn cell_json(round: usize, c: &Cell, name: &dyn Fn(usize) -> Option<String>) -> Value {
    match *c {
        Cell::Game {
            opponent,
            colour,
            points,
        } => json!({
            "round": round,
            "opponent": name(opponent),
            "colour": if colour == Colour::White { "white" } else { "black" },
            "result": points.map(|p| match p { 2 => "1", 1 => "1/2", _ => "0" }),
        }),
        Cell::Bye => json!({"round": round, "opponent": null, "colour": null, "result": "bye"}),
        Cell::Absent => json!({"round": round, "opponent": null, "colour": null, "result": "-"}),
    }
}
