//! Steps say what they did: in random games of every built-in variant, every legal step's
//! reported effects (`make_reporting`) turn the board and pockets before it into exactly the
//! board and pockets after it. This is the one place that still compares boards: as a test of
//! the report, which everything else reads instead.

use crate::common;
use cohort_rules::Rules;
use cohort_rules::{builtin_variants, Effect, Effects, Position, Side, Square, StepList};
use common::Rng;

/// The board as a sorted list of units (side, kind, square), pinned units included, and the
/// pockets.
type Board = (Vec<(u8, u8, u8)>, [Vec<u8>; 2]);

fn board(p: &Position) -> Board {
    let mut units: Vec<_> = cohort_rules::all_units(p)
        .map(|u| (u.side as u8, u.kind, u.square.index() as u8))
        .collect();
    units.sort_unstable();
    let pockets = [
        cohort_rules::pocket(p, Side::White),
        cohort_rules::pocket(p, Side::Black),
    ];
    (units, pockets)
}

/// The board `before` with the effects applied: removals, then every move at once (a swap
/// moves two units onto each other's squares), placements, then kind changes where the units
/// stand after the step. Err says which effect found the board not as it claims.
fn apply(before: &Board, fx: &Effects) -> Result<Board, String> {
    let (mut units, mut pockets) = before.clone();
    let take = |units: &mut Vec<(u8, u8, u8)>, u: (u8, u8, u8), what: &Effect| {
        let i = units
            .iter()
            .position(|&x| x == u)
            .ok_or_else(|| format!("{what:?}: no such unit on the board"))?;
        units.swap_remove(i);
        Ok::<(), String>(())
    };
    let sq = |s: Square| s.index() as u8;
    let mut arriving = vec![];
    for e in fx.iter() {
        match *e {
            Effect::Removed {
                side, kind, square, ..
            } => take(&mut units, (side as u8, kind, sq(square)), e)?,
            Effect::Moved {
                side,
                kind,
                from,
                to,
            } => {
                take(&mut units, (side as u8, kind, sq(from)), e)?;
                arriving.push((side as u8, kind, sq(to)));
            }
            _ => {}
        }
    }
    units.extend(arriving);
    for e in fx.iter() {
        match *e {
            Effect::Placed { side, kind, square } => {
                let n = &mut pockets[side as usize][kind as usize];
                *n = n
                    .checked_sub(1)
                    .ok_or(format!("{e:?}: the pocket is empty"))?;
                units.push((side as u8, kind, sq(square)));
            }
            Effect::Pocketed { side, kind } => pockets[side as usize][kind as usize] += 1,
            Effect::Pinned { side, kind, square } => {
                if !units.contains(&(side as u8, kind, sq(square))) {
                    return Err(format!("{e:?}: the pinned unit is not on its square"));
                }
            }
            _ => {}
        }
    }
    for e in fx.iter() {
        if let Effect::KindChanged {
            side,
            square,
            from,
            to,
        } = *e
        {
            take(&mut units, (side as u8, from, sq(square)), e)?;
            units.push((side as u8, to, sq(square)));
        }
    }
    units.sort_unstable();
    Ok((units, pockets))
}

/// Plays `games` random games of up to `steps` steps; at every position checks the report of
/// every legal step. Returns how many steps were checked and how many of them captured.
fn check_variant(id: &str, games: u64, steps: usize) -> (usize, usize) {
    let v = builtin_variants().into_iter().find(|v| v.id == id).unwrap();
    let (mut checked, mut captures) = (0, 0);
    let mut fx = Effects::new();
    let mut list = StepList::new();
    for seed in 1..=games {
        let mut p = v.start();
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for _ in 0..steps {
            p.legal_steps(&mut list);
            if list.is_empty() {
                break;
            }
            let before = board(&p);
            let mut capturing = vec![];
            for &s in list.iter() {
                let undo = p.make_reporting(s, &mut fx);
                let expected = apply(&before, &fx).unwrap_or_else(|e| {
                    panic!("{id}: {} from {}: {e}", p.step_text(s), p.to_text())
                });
                assert_eq!(
                    expected,
                    board(&p),
                    "{id}: the effects {fx:?} do not account for the board after a step"
                );
                checked += 1;
                if fx.captures() {
                    captures += 1;
                    capturing.push(s);
                }
                p.unmake(s, undo);
            }
            // Captures half the time they are there, so that every capture method shows; unit
            // moves rather than `end` otherwise, so that turns get long.
            let moves: Vec<_> = list.iter().copied().filter(|s| !s.is_end()).collect();
            let step = if !capturing.is_empty() && rng.below(2) == 0 {
                capturing[rng.below(capturing.len())]
            } else if moves.is_empty() || (list.len() > moves.len() && rng.below(4) == 0) {
                list.as_slice()[list.len() - 1]
            } else {
                moves[rng.below(moves.len())]
            };
            p.make(step);
        }
    }
    (checked, captures)
}

#[test]
fn effects_equal_the_board_difference_in_every_variant() {
    for v in builtin_variants() {
        // Long games: a free set-up spends its first dozens of steps placing units.
        let (checked, captures) = check_variant(&v.id, 6, 400);
        eprintln!("{}: {checked} steps checked, {captures} captured", v.id);
        assert!(checked > 100, "{}: only {checked} steps checked", v.id);
        // Random set-ups seldom form a legal body: a free set-up's games show its drops
        // (every legal step is a placement there); its play is Lifeform's, checked above.
        assert!(
            captures > 0 || v.placement.is_some(),
            "{}: no capture among {checked} steps",
            v.id
        );
    }
}

#[test]
fn a_capture_reports_the_captured_unit_and_a_quiet_move_none() {
    let v = builtin_variants()
        .into_iter()
        .find(|v| v.id == "chess")
        .unwrap();
    let mut p = Position::parse(&v, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    let mut fx = Effects::new();
    let take = p.parse_step("e4d5").unwrap();
    let undo = p.make_reporting(take, &mut fx);
    let removed: Vec<_> = fx.removed().collect();
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0].0, Side::Black);
    assert_eq!(v.pieces[removed[0].1 as usize].letter, 'P');
    assert_eq!(v.geometry.square_name(removed[0].2), "d5");
    assert!(fx.captures());
    p.unmake(take, undo);
    let quiet = p.parse_step("e4e5").unwrap();
    p.make_reporting(quiet, &mut fx);
    assert!(!fx.captures());
    assert_eq!(fx.len(), 1, "{fx:?}");
}
