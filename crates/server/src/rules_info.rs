//! A variant's rules as the rules page shows them (`GET /api/variants/<id>`, `/rules/<id>`):
//! the variant's data (summary, pieces with their Betza moves, groups, the setup and whether
//! it is reconstructed) and the rules crate's statements (`Explain::rules_text` of the game's family: the
//! command settings, victory, draws, each piece's moves in words, a family's own sections).
//! Nothing here words a rule.

use cohort_rules::{pocket, Explain, Position, Rules, Side, StepList, Variant};
use serde_json::{json, Value};

use crate::view::{board_view, with_variant_head};

/// The whole rules page of `v` as JSON.
pub fn variant_rules(v: &std::sync::Arc<Variant>) -> Value {
    let start = v.start();
    let text = start.rules_text();
    let words = |letter: char| {
        text.pieces
            .iter()
            .find(|(c, _)| *c == letter)
            .map(|(_, words)| words.clone())
    };
    let name_of = |k: usize| v.pieces[k].name.clone();
    let kinds = |mask: u16| -> Vec<String> {
        (0..v.pieces.len())
            .filter(|k| mask & (1 << k) != 0)
            .map(name_of)
            .collect()
    };
    let pieces: Vec<Value> = v
        .pieces
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let mut flags = vec![];
            if p.leader {
                flags.push("leader");
            }
            if p.royal {
                flags.push("royal");
            }
            let activates = if p.leader && v.restricted_activation {
                Some(kinds(v.activates[k]))
            } else {
                None
            };
            json!({
                "letter": p.letter.to_string(),
                "name": p.name,
                "moves": p.moves,
                "words": words(p.letter),
                "leader": p.leader,
                "royal": p.royal,
                "role": p.role.map(|r| format!("{r:?}").to_lowercase()),
                "flags": flags,
                "activates": activates,
            })
        })
        .collect();
    with_variant_head(
        v,
        json!({
            "command": v.command_name(),
            "command_rules": text.command,
            "victory": text.victory.join(" "),
            "draws": text.draws,
            "sections": text.sections.iter().map(|(title, items)| json!({"title": title, "items": items})).collect::<Vec<_>>(),
            "pieces": pieces,
            "groups": v.groups.iter().enumerate().map(|(i, g)| json!({
                "number": i + 1, "name": g.name, "colours": {"white": g.colours[0], "black": g.colours[1]},
            })).collect::<Vec<_>>(),
            "setup": v.setup,
            "placement": v.placement.as_ref().map(|p| json!({
                "units": p.counts.iter().enumerate().take(v.pieces.len())
                    .filter(|(_, &n)| n > 0)
                    .map(|(k, &n)| json!({"letter": v.pieces[k].letter.to_string(), "name": name_of(k), "count": n}))
                    .collect::<Vec<_>>(),
                "ranks": p.ranks,
                "neck": p.neck,
            })),
            "start": board_view(&start, &[]),
        }),
    )
}

/// A free set-up variant's start after each side has placed its units by its first legal
/// steps, one after another: an example set-up (the home page's card shows it rather than
/// the empty board the game starts on). None for other variants, or if no such set-up
/// comes within a few hundred steps.
pub fn sample_setup(v: &std::sync::Arc<Variant>) -> Option<Position> {
    v.placement.as_ref()?;
    let mut pos = v.start();
    let mut list = StepList::new();
    for _ in 0..512 {
        let placed = [Side::White, Side::Black]
            .iter()
            .all(|&s| pocket(&pos, s).iter().all(|&n| n == 0));
        if placed && pos.at_turn_start() {
            return Some(pos);
        }
        list.clear();
        pos.legal_steps(&mut list);
        let step = *list.iter().next()?;
        pos.make(step);
    }
    None
}
