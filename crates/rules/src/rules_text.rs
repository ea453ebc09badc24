//! A variant's rules in sentences, for the rules page: the command settings, how the game is
//! won, lost and drawn, and each piece's moves in words, written from the variant's data.
//! Each family answers `Explain::rules_text`: the board families and FIDE chess from the data
//! here, Chessma 84 (whose rules the data cannot describe, RULES-DETAILS.md section 7) with
//! its own statements (chessma/text.rs). The server only renders these.

use crate::describe::description;
use crate::variant::{NoLegalTurn, Variant, Victory};
pub use crate::view::RulesText;
pub use crate::words::describe_moves;
use crate::words::{join_words, letters_named};

/// The rules of `v` in sentences, written from its data. `no_legal_turn`: whether the
/// variant's `no-legal-turn` verdict is how a side without a legal turn ends (not in FIDE
/// chess, where checkmate and stalemate decide).
pub(crate) fn from_data(v: &Variant, no_legal_turn: bool) -> RulesText {
    RulesText {
        command: command_rules(v),
        victory: vec![victory_text(v)],
        draws: draw_rules(v, no_legal_turn),
        pieces: pieces_in_words(v),
        sections: vec![],
    }
}

impl RulesText {
    /// `from_data` as the interface's default asks it (`Explain::rules_text`).
    pub(crate) fn from_data(v: &Variant, no_legal_turn: bool) -> RulesText {
        from_data(v, no_legal_turn)
    }
}

/// Each piece's moves in words, from its Betza letters.
pub(crate) fn pieces_in_words(v: &Variant) -> Vec<(char, String)> {
    v.pieces
        .iter()
        .map(|p| (p.letter, describe_moves(&p.moves)))
        .collect()
}

/// The command settings in sentences: the model's own statements (its description in
/// command/), then what every model shares (restricted activation, ending the turn, a
/// placement phase).
pub(crate) fn command_rules(v: &Variant) -> Vec<String> {
    let mut out = description(v).rules(v);
    if v.restricted_activation {
        for (k, p) in v.pieces.iter().enumerate() {
            if p.leader && v.activates[k] != (1u16 << v.pieces.len()) - 1 {
                let kinds: Vec<String> = (0..v.pieces.len())
                    .filter(|j| v.activates[k] & (1 << j) != 0)
                    .map(|j| v.pieces[j].name.clone())
                    .collect();
                out.push(format!(
                    "A {} activates only: {}.",
                    p.name,
                    join_words(&kinds)
                ));
            }
        }
    }
    if !v.one_step_turns() {
        out.push("The player ends the turn with the step end (the End turn button).".into());
    }
    if let Some(p) = &v.placement {
        out.push(format!(
            "Before play, each side places its units on its first {} ranks (steps like K@e1, then end), White first{}.",
            p.ranks,
            if p.neck { "; a finished placement must obey the regulations and give Head and Torso a Neck" } else { "; a finished placement must obey the regulations" }
        ));
    }
    out
}

fn victory_text(v: &Variant) -> String {
    match v.victory {
        Victory::CaptureRoyals => format!(
            "Capture every enemy royal unit ({}) to win; the game ends the moment the last one falls, even in the middle of a turn.",
            letters_named(v, |p| p.royal)
        ),
        Victory::Checkmate => "Checkmate wins; stalemate, threefold repetition, the fifty-move rule and insufficient material draw.".into(),
        Victory::Body => "Judged at the end of each turn, after the removals: a side whose Head or Torso is gone, or whose Head and Torso are neither adjacent nor both next to one common own Limb (the Neck), loses; both sides at once: a draw.".into(),
    }
}

fn draw_rules(v: &Variant, no_legal_turn: bool) -> Vec<String> {
    let mut out = vec![];
    if no_legal_turn {
        out.push(match v.no_legal_turn {
            NoLegalTurn::Loss => {
                "A side with no legal turn at the start of its turn loses.".to_string()
            }
            NoLegalTurn::Draw => {
                "A side with no legal turn at the start of its turn draws.".to_string()
            }
        });
    }
    if v.repetition > 0 {
        out.push(format!(
            "The {} occurrence of the same position at a turn's start is a draw.",
            ordinal(v.repetition as u32)
        ));
    }
    if v.quiet_turns > 0 {
        out.push(format!(
            "{} consecutive turns without a capture are a draw.",
            v.quiet_turns
        ));
    }
    out
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        n => format!("{n}th"),
    }
}
