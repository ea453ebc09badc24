//! A variant's rules in sentences, for the rules page: the command settings, how the game is
//! won, lost and drawn, and each piece's moves in words, written from the variant's data.
//! Each family answers `Rules::rules_text`: the board families and FIDE chess from the data
//! here, Chessma 84 (whose rules the data cannot describe, RULES-DETAILS.md section 7) with
//! its own statements (chessma/text.rs). The server only renders these.

use crate::variant::{CommandModel, NoLegalTurn, PieceKind, Variant, Victory};

/// The rules of a variant in sentences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesText {
    /// How a turn is made under the command settings, one statement each.
    pub command: Vec<String>,
    /// How the game is won and lost, one statement each.
    pub victory: Vec<String>,
    /// How the game is drawn, one statement each.
    pub draws: Vec<String>,
    /// How each piece moves and captures, by letter, in the variant's order.
    pub pieces: Vec<(char, String)>,
    /// Further rules, each a title and its statements.
    pub sections: Vec<(String, Vec<String>)>,
}

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

/// Each piece's moves in words, from its Betza letters.
pub(crate) fn pieces_in_words(v: &Variant) -> Vec<(char, String)> {
    v.pieces
        .iter()
        .map(|p| (p.letter, describe_moves(&p.moves)))
        .collect()
}

fn letters_named(v: &Variant, pick: impl Fn(&PieceKind) -> bool) -> String {
    let names: Vec<String> = v
        .pieces
        .iter()
        .filter(|p| pick(p))
        .map(|p| format!("{} ({})", p.name, p.letter))
        .collect();
    join_words(&names)
}

fn join_words(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// The command settings in sentences.
pub(crate) fn command_rules(v: &Variant) -> Vec<String> {
    let leaders = letters_named(v, |p| p.leader);
    let mut out = vec![];
    match &v.command {
        CommandModel::Single => {
            out.push("One unit moves, and the turn ends with that move.".into())
        }
        CommandModel::Chain {
            links_any_friendly,
            cap,
            reactivate,
        } => {
            out.push(format!(
                "A turn moves units of one chesimal (group), the one of the first unit moved, one after another{}.",
                if *reactivate { "" } else { ", each at most once" }
            ));
            out.push(format!(
                "A unit may start a move only while a chain of adjacent units {} links it to its chesimal's living leader ({}), at the instant its move starts; units that already moved count as links.",
                if *links_any_friendly { "of its side (any chesimal)" } else { "of its own chesimal" },
                leaders
            ));
            out.push("A chesimal whose leader was captured is frozen.".into());
            if *cap > 0 {
                out.push(format!("At most {cap} unit moves a turn."));
            }
            if *reactivate {
                out.push("A unit may move again and again in the same turn (each move may capture), as long as it is still linked when that move starts.".into());
            }
        }
        CommandModel::Range { range, activations } => {
            out.push(format!(
                "Each leader ({leaders}) activates {} a turn, itself included, within {range} squares (king distance), measured where the leader stands when that unit's move starts.",
                if *activations == 1 { "one unit".to_string() } else { format!("{activations} units") }
            ));
            out.push("The units move one after another, each at most once; a sequence of moves is legal when its moves can be matched to distinct activations that way.".into());
        }
        CommandModel::Lead { links_any_friendly } => {
            out.push(format!(
                "A turn starts by naming the leader who leads it (the step lead:<square>, or lead:<square>:<mode>); it then activates units one after another, each once, each linked to it where it stands by a chain of adjacent {} units at the instant its move starts.",
                if *links_any_friendly { "friendly" } else { "same-group" }
            ));
            for m in &v.lead_modes {
                let leader = &v.pieces[m.leader as usize].name;
                let mode = if m.name.is_empty() {
                    String::new()
                } else {
                    format!(" in {} mode", m.name)
                };
                let others = if m.others < m.budget {
                    format!(", at most {} of them for other units", m.others)
                } else {
                    String::new()
                };
                let kinds: Vec<String> = (0..v.pieces.len())
                    .filter(|k| m.activates & (1 << k) != 0)
                    .map(|k| v.pieces[k].name.clone())
                    .collect();
                let remap: Vec<String> = m
                    .remap
                    .iter()
                    .map(|(k, moves, _)| {
                        format!(
                            "{}s move as {} ({moves})",
                            v.pieces[*k as usize].name,
                            describe_moves(moves)
                        )
                    })
                    .collect();
                let mut s = format!(
                    "A {leader}{mode}: {} activations, itself included{others}; it activates {}",
                    m.budget,
                    join_words(&kinds)
                );
                if !remap.is_empty() {
                    s.push_str(&format!("; {}", remap.join("; ")));
                }
                s.push('.');
                out.push(s);
            }
            out.push("A leader activated by another only moves.".into());
        }
        CommandModel::Body => {
            out.push(
                "A turn is one main move by a Head, Torso, Hand or Foot that is not pinned.".into(),
            );
            out.push("Then each own Hair and Limb that stood next to the main piece's start square may step once to an adjacent empty square (the vacated start square included), in any order.".into());
            out.push("At most one capture a turn: by the main move, or else by one follower Limb. A Hand arriving on an enemy piece may pin it instead of capturing it: the two then share the square until the Hand moves on.".into());
            out.push("Regulations, at the end of the turn: Hands and Feet must be linked to the Torso through adjacent own Limbs; each Limb must touch the Torso or be linked to it through Limbs; each Hair must touch its Head, Torso, a Hand or a Foot, directly or through other Hair. Every part of either side that breaks one is removed, repeatedly, until none does (removals are not captures).".into());
        }
    }
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
    if !matches!(v.command, CommandModel::Single) {
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

/// A Betza-style move string (docs/variants.md) in words; an unknown part is quoted as is.
pub fn describe_moves(moves: &str) -> String {
    let text = moves.trim();
    if text.is_empty() || text == "-" {
        return "no move of its own".into();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut parts = vec![];
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let mut mods = String::new();
        while i < chars.len() && "mcfbvlrs".contains(chars[i]) {
            mods.push(chars[i]);
            i += 1;
        }
        if i >= chars.len() || !"WFDNAHCZGKRBQ".contains(chars[i]) {
            return format!("moves written {text} (see the notation of docs/variants.md)");
        }
        let atom = chars[i];
        i += 1;
        let mut doubled = false;
        if i < chars.len() && chars[i] == atom && "WFK".contains(atom) {
            doubled = true;
            i += 1;
        }
        let mut special = None;
        if i < chars.len() && (chars[i] == '^' || chars[i] == '*') {
            special = Some(chars[i]);
            i += 1;
        }
        let mut n = String::new();
        while i < chars.len() && chars[i].is_ascii_digit() {
            n.push(chars[i]);
            i += 1;
        }
        let limit: Option<u32> = n.parse().ok();
        let what = match (atom, doubled, special, limit) {
            ('K', false, Some('^'), _) => "one king step, or a second king step in any direction when the first square is empty, never back to the start (bent two-step general)".to_string(),
            ('W', false, Some('*'), _) => "orthogonally one step, a leap of two, or three squares when the first or second square is empty (inclusive)".to_string(),
            ('F', false, Some('*'), _) => "diagonally one step, a leap of two, or three squares when the first or second square is empty (inclusive)".to_string(),
            ('W', _, None, Some(n)) | ('R', _, None, Some(n)) => format!("up to {n} squares orthogonally, blocked by any unit"),
            ('F', _, None, Some(n)) | ('B', _, None, Some(n)) => format!("up to {n} squares diagonally, blocked by any unit"),
            ('K', _, None, Some(n)) | ('Q', _, None, Some(n)) => format!("up to {n} squares in a straight line in any direction, blocked by any unit"),
            ('W', true, None, None) | ('R', false, None, None) => "any distance orthogonally (a rook)".to_string(),
            ('F', true, None, None) | ('B', false, None, None) => "any distance diagonally (a bishop)".to_string(),
            ('K', true, None, None) | ('Q', false, None, None) => "any distance in a straight line in any direction (a queen)".to_string(),
            ('W', false, None, None) => "one step orthogonally".to_string(),
            ('F', false, None, None) => "one step diagonally".to_string(),
            ('K', false, None, None) => "one step in any direction (a king step)".to_string(),
            ('D', false, None, None) => "a leap of two squares orthogonally".to_string(),
            ('N', false, None, None) => "a knight's leap (two squares one way, one the other)".to_string(),
            ('A', false, None, None) => "a leap of two squares diagonally".to_string(),
            ('H', false, None, None) => "a leap of three squares orthogonally".to_string(),
            ('C', false, None, None) => "a (3,1) leap (camel)".to_string(),
            ('Z', false, None, None) => "a (3,2) leap (zebra)".to_string(),
            ('G', false, None, None) => "a leap of three squares diagonally".to_string(),
            _ => {
                let part: String = chars[start..i].iter().collect();
                format!("{part} (see the notation of docs/variants.md)")
            }
        };
        let mut notes = vec![];
        for (c, word) in [
            ('f', "forward"),
            ('b', "backward"),
            ('v', "forward and backward"),
            ('l', "to the left"),
            ('r', "to the right"),
            ('s', "sideways"),
        ] {
            if mods.contains(c) {
                notes.push(word);
            }
        }
        if mods.contains('m') {
            notes.push("moving only, never capturing");
        }
        if mods.contains('c') {
            notes.push("capturing only");
        }
        parts.push(if notes.is_empty() {
            what
        } else {
            format!("{what}, {}", notes.join(", "))
        });
    }
    let mut s = parts.join("; or ");
    if let Some(c) = s.get(0..1) {
        s = c.to_uppercase() + &s[1..];
    }
    s
}

#[cfg(test)]
mod tests {
    use super::describe_moves;

    #[test]
    fn betza_in_words() {
        assert_eq!(describe_moves("-"), "no move of its own");
        assert_eq!(
            describe_moves("K"),
            "One step in any direction (a king step)"
        );
        assert!(describe_moves("NR4").contains(
            "knight's leap (two squares one way, one the other); or up to 4 squares orthogonally"
        ));
        assert!(describe_moves("K^").starts_with("One king step, or a second"));
        let pawn = describe_moves("mfWcfF");
        assert!(
            pawn.starts_with("One step orthogonally, forward, moving only"),
            "{pawn}"
        );
        assert!(
            pawn.contains("one step diagonally, forward, capturing only"),
            "{pawn}"
        );
        assert!(describe_moves("mK").contains("moving only"));
        assert!(
            describe_moves("Y3").contains("Y3"),
            "unknown atoms are quoted"
        );
    }
}
