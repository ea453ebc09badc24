//! Exact answers for the tactical suite: can the side to move win within its turn, and
//! does a turn leave the opponent such a win? Brute force over steps, bounded in moves.

use cohort_rules::{Family, Outcome, Position, Rules, Side, Step, StepList};

/// Can the side to move capture the last enemy royal(s) within this turn, using at most
/// `max_moves` unit moves? Returns the winning steps.
pub fn win_this_turn<R: Family>(pos: &mut R, max_moves: u32) -> Option<Vec<Step>> {
    let mover = pos.side_to_move();
    let mut line = Vec::new();
    dfs(pos, mover, max_moves, &mut line).then_some(line)
}

fn dfs<R: Family>(pos: &mut R, mover: Side, left: u32, line: &mut Vec<Step>) -> bool {
    if pos.outcome() == Some(Outcome::Win(mover)) {
        return true;
    }
    if left == 0 || pos.side_to_move() != mover || pos.outcome().is_some() {
        return false;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.iter().filter(|s| !s.is_end()) {
        let undo = pos.make(s);
        line.push(s);
        let won = pos.side_to_move() == mover && dfs(pos, mover, left - 1, line);
        pos.unmake(s, undo);
        if won {
            return true;
        }
        line.pop();
    }
    false
}

/// The same position with the other side to move (a fresh turn); None if that is not a
/// legal position string (only turn-start positions of the generic games qualify).
pub fn other_side_to_move(pos: &Position) -> Option<Position> {
    let text = pos.to_text();
    let flipped = if let Some(t) = text.strip_suffix(" w") {
        format!("{t} b")
    } else {
        format!("{} w", text.strip_suffix(" b")?)
    };
    Position::parse(pos.variant(), &flipped).ok()
}

/// After the side to move plays `turn` (whole, with `end`), can the opponent win in its turn?
pub fn opponent_wins_after(pos: &Position, turn: &[Step], max_moves: u32) -> bool {
    let mut p = pos.clone();
    for &s in turn {
        p.make(s);
    }
    if p.outcome().is_some() {
        return p.outcome() != Some(Outcome::Win(pos.side_to_move()))
            && p.outcome() != Some(Outcome::Draw);
    }
    win_this_turn(&mut p, max_moves).is_some()
}

/// Is there any turn (of at most `max_moves` unit moves) after which the opponent cannot
/// win within its turn? Used to certify "must stop it" positions.
pub fn has_defence(pos: &Position, max_moves: u32, opp_moves: u32) -> bool {
    let mut p = pos.clone();
    let mover = p.side_to_move();
    let mut found = false;
    turns(&mut p, mover, max_moves, &mut |q| {
        if !found && q.outcome() != Some(Outcome::Win(mover.other())) {
            let mut q = q.clone();
            if q.outcome() == Some(Outcome::Win(mover))
                || win_this_turn(&mut q, opp_moves).is_none()
            {
                found = true;
            }
        }
        found
    });
    found
}

/// Visit every position reached by a complete turn; stop when `visit` returns true.
fn turns<R: Family>(
    pos: &mut R,
    mover: Side,
    left: u32,
    visit: &mut impl FnMut(&R) -> bool,
) -> bool {
    if pos.side_to_move() != mover || pos.outcome().is_some() {
        return visit(pos);
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.iter() {
        if !s.is_end() && left == 0 {
            continue;
        }
        let undo = pos.make(s);
        let stop = turns(pos, mover, left.saturating_sub(!s.is_end() as u32), visit);
        pos.unmake(s, undo);
        if stop {
            return true;
        }
    }
    false
}
