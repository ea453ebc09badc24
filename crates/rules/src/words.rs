//! Words shared by the sentences the rules write for people (rules_text.rs, each command
//! model's description in command/): lists joined in English, pieces named with their
//! letters, a Betza move string in words.

use crate::variant::{PieceKind, Variant};

/// The names and letters of the pieces `pick` chooses: "Chief (C) and King (K)".
pub(crate) fn letters_named(v: &Variant, pick: impl Fn(&PieceKind) -> bool) -> String {
    let names: Vec<String> = v
        .pieces
        .iter()
        .filter(|p| pick(p))
        .map(|p| format!("{} ({})", p.name, p.letter))
        .collect();
    join_words(&names)
}

/// "a", "a and b", "a, b and c".
pub(crate) fn join_words(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
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
