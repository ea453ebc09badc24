//! A game: a position plus its history, with the draw rules of RULES.md section 8
//! (repetition at turn starts, consecutive turns without a capture) and undo inside a turn.

use crate::effects::Effects;
use crate::error::PlayError;
use crate::family::{AnyUndo, Position};
use crate::interface::{Explain, Rules, SearchHooks};
pub use crate::outcome::EndReason;
use crate::outcome::{Outcome, Side, Unit};
use crate::step::{Step, StepList};

#[derive(Clone)]
pub struct Game {
    position: Position,
    start: Position,
    /// Every step played, `end` included.
    steps: Vec<Step>,
    /// Undo records of the steps of the current turn, and whether each restarts the quiet
    /// count (a capture, or a move of a `quiet_resets` kind).
    turn_undos: Vec<(Step, AnyUndo, bool)>,
    /// Hashes of the positions at each turn start, the current one last.
    turn_starts: Vec<u64>,
    /// Consecutive completed turns without a capture.
    quiet: u16,
    result: Option<(Outcome, EndReason)>,
    /// What the last step played did.
    effects: Effects,
    /// The units taken off the board so far (captured, or removed by a regulation), as the
    /// steps' effects said, oldest first; and how many there were before each step of the
    /// turn in progress (an undo drops the rest).
    removed: Vec<Unit>,
    removed_marks: Vec<usize>,
}

impl Game {
    pub fn new(position: Position) -> Game {
        let mut g = Game {
            start: position.clone(),
            turn_starts: vec![position.hash()],
            position,
            steps: vec![],
            turn_undos: vec![],
            quiet: 0,
            result: None,
            effects: Effects::new(),
            removed: vec![],
            removed_marks: vec![],
        };
        g.judge_turn_start();
        g
    }
    pub fn position(&self) -> &Position {
        &self.position
    }
    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }
    pub fn result(&self) -> Option<(Outcome, EndReason)> {
        self.result
    }
    /// What the last step played did (empty before the first, and after an undo).
    pub fn last_effects(&self) -> &Effects {
        &self.effects
    }
    /// The units taken off the board so far, in the order they left it.
    pub fn removed_units(&self) -> &[Unit] {
        &self.removed
    }
    pub fn quiet_turns(&self) -> u16 {
        self.quiet
    }
    /// Hashes of the turn-start positions a later turn start may repeat: those since the
    /// quiet count last restarted (a capture changes the units for good), the current one
    /// last. Empty in a variant without the repetition rule. The engine's search scores a
    /// return to one of them as a draw.
    pub fn repeatable_turn_starts(&self) -> &[u64] {
        if self.position.variant().repetition == 0 {
            return &[];
        }
        let n = (self.quiet as usize + 1).min(self.turn_starts.len());
        &self.turn_starts[self.turn_starts.len() - n..]
    }
    pub fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        if self.result.is_none() {
            self.position.legal_steps(list);
        }
    }

    /// Play one step; an illegal one is refused and changes nothing.
    pub fn play(&mut self, step: Step) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.position.is_legal(step) {
            return Err(self.position.refusal(step).into());
        }
        self.commit(step);
        Ok(())
    }

    /// The legal step listed at `index` by `legal_steps` now (a step posted as data), or
    /// why there is none.
    pub fn listed_step(&self, index: usize) -> Result<Step, PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        let mut list = StepList::new();
        self.position.legal_steps(&mut list);
        list.as_slice().get(index).copied().ok_or_else(|| {
            PlayError::Parse(crate::error::StepError::new(
                crate::error::Illegal::NoSuchStep,
                format!("no legal step {index}: {} are listed", list.len()),
            ))
        })
    }

    /// Play a step known legal now: one of `legal_steps` (a step posted by its index in
    /// that list) or one `parse_step` has just read (it checked it). Not checked again.
    pub fn play_legal(&mut self, step: Step) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        debug_assert!(self.position.is_legal(step), "a step known legal is legal");
        self.commit(step);
        Ok(())
    }

    /// Make a legal step and keep the game's counters and history.
    fn commit(&mut self, step: Step) {
        let side = self.position.side_to_move();
        let undo = self.position.make_reporting(step, &mut self.effects);
        // A capture restarts the quiet count, by whatever method it takes (a Lifeform pin or
        // a regulation's removal is not a capture: RULES.md section 6), and so does a move of
        // a kind the variant names (Chessma 84's pawns: the fifty-move rule as FIDE).
        let resets = self.effects.captures()
            || self
                .effects
                .moved_kind_in(self.position.variant().quiet_resets);
        self.steps.push(step);
        self.turn_undos.push((step, undo, resets));
        self.removed_marks.push(self.removed.len());
        self.removed
            .extend(self.effects.removed().map(|(side, kind, square, _)| Unit {
                square,
                kind,
                side,
                group: 0,
                alive: false,
            }));
        if let Some(outcome) = self.position.outcome() {
            self.result = Some((outcome, self.position.end_reason()));
        } else if self.position.side_to_move() != side {
            self.turn_ended();
        } else if self.position.count_steps() == 0 {
            // A turn that can neither go on nor end (a placement that can no longer form a
            // valid body): the side cannot complete a legal turn.
            self.result = Some((Outcome::Win(side.other()), EndReason::NoLegalTurn));
        }
    }

    /// Parse and play one step written in notation.
    pub fn play_text(&mut self, text: &str) -> Result<Step, PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        let step = self.position.parse_step(text)?;
        self.play_legal(step)?;
        Ok(step)
    }

    /// Take back the last step of the turn in progress. False when the turn has no step yet.
    pub fn undo(&mut self) -> bool {
        if self.result.is_some() {
            return false;
        }
        match self.turn_undos.pop() {
            Some((step, undo, _)) => {
                self.position.unmake(step, undo);
                self.steps.pop();
                let mark = self.removed_marks.pop().unwrap_or(self.removed.len());
                self.removed.truncate(mark);
                self.effects.clear();
                true
            }
            None => false,
        }
    }

    /// End the game by agreement (a draw) or resignation of `side`.
    pub fn agree_draw(&mut self) {
        if self.result.is_none() {
            self.result = Some((Outcome::Draw, EndReason::Agreement));
        }
    }
    /// End the game as aborted: no winner (the outcome is `Draw`, the reason `Aborted`).
    pub fn abort(&mut self) {
        if self.result.is_none() {
            self.result = Some((Outcome::Draw, EndReason::Aborted));
        }
    }
    pub fn resign(&mut self, side: Side) {
        if self.result.is_none() {
            self.result = Some((Outcome::Win(side.other()), EndReason::Resignation));
        }
    }

    fn turn_ended(&mut self) {
        let reset = self.turn_undos.iter().any(|t| t.2);
        self.turn_undos.clear();
        self.removed_marks.clear();
        self.quiet = if reset { 0 } else { self.quiet + 1 };
        let hash = self.position.hash();
        self.turn_starts.push(hash);
        let v = self.position.variant().clone();
        if v.repetition > 0
            && self.turn_starts.iter().filter(|&&h| h == hash).count() >= v.repetition as usize
        {
            self.result = Some((Outcome::Draw, EndReason::Repetition));
        } else if v.quiet_turns > 0 && self.quiet >= v.quiet_turns {
            self.result = Some((Outcome::Draw, EndReason::QuietTurns));
        } else {
            self.judge_turn_start();
        }
    }

    fn judge_turn_start(&mut self) {
        let pos = &self.position;
        if let Some(o) = pos.outcome() {
            self.result = Some((o, pos.end_reason()));
        } else if !pos.has_legal_step() {
            self.result = Some(pos.without_steps());
        } else if let Some(reason) = pos.automatic_draw() {
            self.result = Some((Outcome::Draw, reason));
        }
    }
}
