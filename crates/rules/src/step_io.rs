//! Steps as text (NOTATION.md): writing them, reading them with a typed reason when they are
//! illegal, and whole turns, for both board families (each answers `StepRules`).

use crate::bitboard::Square;
use crate::error::{Illegal, StepError};
use crate::step::{Step, StepKind};
use crate::unit_board::{Owner, UnitBoard};

/// What reading a step asks of a board family's rules.
pub(crate) trait StepRules {
    /// Whether `step` is legal now.
    fn is_legal(&self, step: Step) -> bool;
    /// Why the unit on `from` may not go to `to` now.
    fn why_illegal(&self, from: Square, to: Square) -> Illegal;
    /// Why `end` is refused while the game goes on.
    fn end_refusal(&self) -> Illegal {
        Illegal::EndTooEarly
    }
    /// Whether the side to move is placing units now (placement variants).
    fn placing(&self) -> bool {
        false
    }
    /// Read `lead:<square>[:<mode>]` (`text`), well formed as far as its parts go; the
    /// error says why not. By default the family has no lead step.
    fn parse_lead(&self, text: &str, square: &str, mode: Option<&str>) -> Result<Step, StepError>;
    /// The unit leading the turn and its mode (the lead model; None before `lead`, and in
    /// every other model).
    fn leading(&self) -> Option<(u8, u8)> {
        None
    }
}

/// The refusal of a `lead` step (`text`) in a variant whose turns start with a unit move.
pub(crate) fn no_lead_step(text: &str, variant: &crate::variant::Variant) -> StepError {
    StepError::syntax(format!(
        "'{text}': {} has no lead step; turns start with a unit move",
        variant.id
    ))
}

impl<O: Owner> UnitBoard<O>
where
    Self: StepRules,
{
    /// Write a step as NOTATION.md does: `e2-e4`, `e2xe4` for a capture, or `end`.
    pub fn step_text(&self, step: Step) -> String {
        let geo = &self.variant.geometry;
        match step.kind {
            StepKind::End => "end".into(),
            StepKind::Pass => "pass".into(),
            StepKind::Lead(mode) => self.lead_text(step, mode),
            StepKind::Drop(kind) => format!(
                "{}@{}",
                self.variant.pieces[kind as usize].letter,
                geo.square_name(step.to)
            ),
            StepKind::Promote(kind) => format!(
                "{}{}{}={}",
                geo.square_name(step.from),
                if self.unit_at(step.to).is_some() {
                    'x'
                } else {
                    '-'
                },
                geo.square_name(step.to),
                self.variant.pieces[kind as usize].letter
            ),
            StepKind::Push(sheet) => format!(
                "{}-{}/{}",
                geo.square_name(step.from),
                geo.square_name(step.to),
                geo.sheets
                    .get(sheet as usize)
                    .map_or("?", |s| s.name.as_str())
            ),
            StepKind::Pin => format!(
                "{}~{}",
                geo.square_name(step.from),
                geo.square_name(step.to)
            ),
            StepKind::Move => {
                let capture = self
                    .unit_at(step.to)
                    .is_some_and(|u| Some(u.side) != self.unit_at(step.from).map(|f| f.side));
                format!(
                    "{}{}{}",
                    geo.square_name(step.from),
                    if capture { 'x' } else { '-' },
                    geo.square_name(step.to)
                )
            }
        }
    }

    /// Read a step (`e2-e4`, `e2xe4`, `end`, `lead:b2:dia`, `K@e1`, `c4~c6`) and check it is
    /// legal now; the error says why not, typed (`StepError::illegal`) and in words.
    pub fn parse_step(&self, text: &str) -> Result<Step, StepError> {
        let text = text.trim();
        if text == "end" {
            return self.check_end();
        }
        let geo = &self.variant.geometry;
        if text.starts_with("lead") {
            let mut parts = text.split(':').skip(1);
            let (Some(square), mode, None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(StepError::syntax(format!(
                    "'{text}': write lead:<square> or lead:<square>:<mode>"
                )));
            };
            return self.parse_lead(text, square, mode);
        }
        if let Some((letter, square)) = text.split_once('@') {
            return self.parse_drop(text, letter, square);
        }
        let Some(sep) = text.find(['-', 'x', '~']) else {
            return Err(StepError::syntax(format!(
                "'{text}' is not a step: write <from>-<to>, <from>x<to> or end"
            )));
        };
        let pin = text[sep..].starts_with('~');
        let (a, b) = (&text[..sep], &text[sep + 1..]);
        let from = geo.parse_square(a).ok_or_else(|| {
            StepError::syntax(format!(
                "'{a}' in '{text}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            ))
        })?;
        let to = geo.parse_square(b).ok_or_else(|| {
            StepError::syntax(format!(
                "'{b}' in '{text}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            ))
        })?;
        let mut step = Step::new(from, to);
        if pin {
            step.kind = StepKind::Pin;
        }
        self.check_move(text, step)
    }

    /// Why `step`, not legal now, is refused: the typed reason and the sentence that reading
    /// its text (`step_text`) gives, found from the step itself. The step that text reads as
    /// is checked (a drop by its piece's letter, a lead by its mode's name); a step no text
    /// of this board reaches (a promotion, a push, a square without a name) has no legal
    /// counterpart: `NoSuchStep`.
    pub fn refusal(&self, step: Step) -> StepError {
        let text = self.step_text(step);
        let (from, to) = (self.named(step.from), self.named(step.to));
        let verdict = match step.kind {
            StepKind::End => self.check_end(),
            StepKind::Move | StepKind::Pin if from && to => self.check_move(&text, step),
            StepKind::Drop(kind) if to => {
                let letter = self.variant.pieces[kind as usize].letter;
                match self.kind_of_letter(letter) {
                    Some(kind) => self.check_drop(&text, kind, step.to),
                    None => Ok(step),
                }
            }
            StepKind::Lead(mode) if from => {
                // The family's own reading of the lead's parts (a family without lead steps
                // refuses it as no step of its own).
                let name = self
                    .variant
                    .lead_modes
                    .get(mode as usize)
                    .map(|m| m.name.as_str());
                let square = self.variant.geometry.square_name(step.from);
                self.parse_lead(&text, &square, name.filter(|n| !n.is_empty()))
            }
            _ => Ok(step),
        };
        match verdict {
            Err(e) if e.illegal.is_some() => e,
            _ => StepError::no_such_step(&text),
        }
    }

    /// Whether `sq` has a name that reads back as it: a square of a labelled board, any
    /// cell of an unlabelled rectangle (as `Geometry::parse_square` reads them).
    fn named(&self, sq: Square) -> bool {
        let geo = &self.variant.geometry;
        if geo.rank_labels.is_empty() {
            sq.file() < geo.files && sq.rank() < geo.ranks
        } else {
            geo.contains(sq)
        }
    }

    /// The piece kind a drop's letter names (a letter only: `@` after anything else is no
    /// drop).
    fn kind_of_letter(&self, c: char) -> Option<usize> {
        self.variant
            .kind_of_letter(c)
            .filter(|_| c.is_ascii_alphabetic())
    }

    /// `end` if it is legal now; else why not (the family says why while the game goes on).
    fn check_end(&self) -> Result<Step, StepError> {
        let step = Step::END;
        if self.is_legal(step) {
            Ok(step)
        } else if self.outcome.is_some() {
            let message = "the game is over; no step is legal".to_string();
            Err(StepError::new(Illegal::GameOver, message))
        } else {
            let illegal = self.end_refusal();
            Err(StepError::new(illegal.clone(), illegal.to_string()))
        }
    }

    /// `step`, a move or a pin written `text`, if it is legal now; else why not.
    fn check_move(&self, text: &str, step: Step) -> Result<Step, StepError> {
        if self.is_legal(step) {
            return Ok(step);
        }
        let illegal = self.why_illegal(step.from, step.to);
        let words = self.explain(&illegal, step.from, step.to);
        Err(StepError::new(
            illegal,
            format!("{text} is illegal: {words}"),
        ))
    }

    /// `illegal` in words for the step from `from` to `to`, naming the piece and squares.
    fn explain(&self, illegal: &Illegal, from: Square, to: Square) -> String {
        let geo = &self.variant.geometry;
        let (fname, tname) = (geo.square_name(from), geo.square_name(to));
        let piece = self.unit_at(from).map_or(String::new(), |u| {
            self.variant.pieces[u.kind as usize].name.clone()
        });
        let leader = self
            .variant
            .pieces
            .iter()
            .find(|p| p.leader)
            .map_or("leader".to_string(), |p| p.name.clone());
        match illegal {
            Illegal::NoUnit => format!("there is no unit on {fname}"),
            Illegal::NotYourUnit => format!(
                "the {piece} on {fname} is {}'s, and {} is to move",
                self.side.other().name(),
                self.side.name()
            ),
            Illegal::CannotReach => format!("the {piece} on {fname} cannot reach {tname}"),
            Illegal::AlreadyMoved => format!("the {piece} on {fname} has already moved this turn"),
            Illegal::NotLinked if self.leading().is_some() => {
                let (leader, _) = self.leading().expect("a leader leads");
                let l = &self.units[leader as usize];
                let lname = &self.variant.pieces[l.kind as usize].name;
                format!("the {piece} on {fname} is not linked to the leading {lname} by a chain of adjacent units")
            }
            Illegal::NotLinked => format!(
                "the {piece} on {fname} is not linked to its leader by a chain of adjacent units"
            ),
            Illegal::NotActivatable if self.leading().is_some() => {
                let (leader, mode) = self.leading().expect("a leader leads");
                let l = &self.units[leader as usize];
                let m = &self.variant.lead_modes[mode as usize];
                let mode = if m.name.is_empty() { String::new() } else { format!(" ({})", m.name) };
                format!(
                    "a {}{mode} does not activate a {piece}",
                    self.variant.pieces[l.kind as usize].name
                )
            }
            Illegal::NotActivatable => format!("no leader in reach may activate the {piece} on {fname}"),
            Illegal::NoActivator { range } => format!(
                "no {leader} with an activation left is within {range} squares of {fname}"
            ),
            Illegal::FollowerOnly => {
                format!("the {piece} on {fname} moves only as a follower, after the main move")
            }
            Illegal::Pinned => format!("the {piece} on {fname} is pinned"),
            Illegal::NotAFollower => format!(
                "the {piece} on {fname} did not stand next to the main piece's start square, or is pinned"
            ),
            other => other.to_string(),
        }
    }

    /// `lead:f2` or `lead:b2:ortho`.
    fn lead_text(&self, step: Step, mode: u8) -> String {
        let name = &self.variant.lead_modes[mode as usize].name;
        let sq = self.variant.geometry.square_name(step.from);
        if name.is_empty() {
            format!("lead:{sq}")
        } else {
            format!("lead:{sq}:{name}")
        }
    }

    fn parse_drop(&self, text: &str, letter: &str, square: &str) -> Result<Step, StepError> {
        let geo = &self.variant.geometry;
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(StepError::syntax(format!(
                "'{text}': write a placement as <letter>@<square>, like K@e1"
            )));
        };
        let kind = self.kind_of_letter(c).ok_or_else(|| {
            StepError::syntax(format!(
                "'{text}': '{c}' is not a piece of {}",
                self.variant.id
            ))
        })?;
        let to = geo.parse_square(square).ok_or_else(|| {
            StepError::syntax(format!(
                "'{square}' in '{text}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            ))
        })?;
        self.check_drop(text, kind, to)
    }

    /// The drop of a unit of `kind` on `to`, written `text`, if it is legal now; else why not.
    fn check_drop(&self, text: &str, kind: usize, to: Square) -> Result<Step, StepError> {
        let step = Step::drop(kind as u8, to);
        if self.is_legal(step) {
            return Ok(step);
        }
        // The name reads back as `to`: the words are those of the text read.
        let square = self.variant.geometry.square_name(to);
        let ranks = self.variant.placement.as_ref().map_or(0, |p| p.ranks);
        let (illegal, why) = if self.variant.placement.is_none() || !self.placing() {
            (Illegal::NotPlacing, Illegal::NotPlacing.to_string())
        } else if self.pocket[self.side.index()][kind] == 0 {
            let why = format!(
                "{} has no {} left to place",
                self.side.name(),
                self.variant.pieces[kind].name
            );
            (Illegal::NoneLeftToPlace, why)
        } else if self.unit_at(to).is_some() {
            (Illegal::Occupied, format!("{square} is occupied"))
        } else {
            let why = format!(
                "{} places on its first {ranks} ranks only",
                self.side.name()
            );
            (Illegal::OutsidePlacementZone { ranks }, why)
        };
        Err(StepError::new(illegal, format!("{text} is illegal: {why}")))
    }
}
