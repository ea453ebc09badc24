//! The tables the Markdown summary and the HTML report share, built once from a study and
//! written in either form.

use super::{esc, left_in_draws, pct, start_counts};
use crate::stats::Summary;
use crate::StudyFile;

/// A table: a header row and rows of cells. The first column is a label (left-aligned),
/// the others numbers (right-aligned).
pub(crate) struct Table {
    pub head: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn markdown(&self) -> String {
        let mut o = format!("| {} |\n|---|", self.head.join(" | "));
        o += &"---:|".repeat(self.head.len().saturating_sub(1));
        o.push('\n');
        for row in &self.rows {
            o += &format!("| {} |\n", row.join(" | "));
        }
        o
    }

    pub fn html(&self) -> String {
        let mut o = format!("<table>{}", html_row("th", &self.head));
        for row in &self.rows {
            o += &html_row("td", row);
        }
        o + "</table>\n"
    }
}

/// One table row, each cell escaped in a `tag` element.
fn html_row<S: AsRef<str>>(tag: &str, cells: &[S]) -> String {
    let cells: String = cells
        .iter()
        .map(|c| format!("<{tag}>{}</{tag}>", esc(c.as_ref())))
        .collect();
    format!("<tr>{cells}</tr>\n")
}

/// Wins, draws and their rates with Wilson intervals.
pub(crate) fn results(s: &Summary) -> Table {
    let rows = [
        ("White wins", s.white_wins, &s.white_rate),
        ("Draws", s.draws, &s.draw_rate),
        ("Black wins", s.black_wins, &s.black_rate),
    ]
    .into_iter()
    .map(|(name, k, r)| {
        vec![
            name.to_string(),
            k.to_string(),
            pct(r.p),
            format!("{} - {}", pct(r.lo), pct(r.hi)),
        ]
    })
    .collect();
    Table {
        head: vec!["", "games", "rate", "95% interval (Wilson)"],
        rows,
    }
}

/// Game lengths, runs without a capture and captures: mean and quantiles.
pub(crate) fn lengths(s: &Summary) -> Table {
    let rows = [
        ("per game", &s.length),
        ("per decisive game", &s.decisive_length),
        ("per drawn game", &s.drawn_length),
        ("longest run without a capture, per game", &s.longest_quiet),
        ("every run without a capture", &s.quiet_runs),
        ("captures per game", &s.captures),
        ("captures per decisive game", &s.decisive_captures),
        ("captures per drawn game", &s.drawn_captures),
    ]
    .into_iter()
    .map(|(name, d)| {
        let mut row = vec![name.to_string()];
        if d.n == 0 {
            row.push("-".into());
            row.extend(std::iter::repeat_n(String::new(), 5));
        } else {
            row.push(format!("{:.1}", d.mean));
            row.extend([d.min, d.p10, d.median, d.p90, d.max].map(|x| x.to_string()));
        }
        row
    })
    .collect();
    Table {
        head: vec!["turns", "mean", "min", "10%", "median", "90%", "max"],
        rows,
    }
}

/// How the games ended, by result.
pub(crate) fn endings(s: &Summary) -> Table {
    let rows = s
        .terminations
        .iter()
        .map(|t| {
            vec![
                t.reason.clone(),
                t.total().to_string(),
                t.white.to_string(),
                t.draw.to_string(),
                t.black.to_string(),
            ]
        })
        .collect();
    Table {
        head: vec!["ending", "games", "White won", "drawn", "Black won"],
        rows,
    }
}

/// Per piece kind, per game, both sides: moves, captures, losses, and what is left in draws.
pub(crate) fn kinds(f: &StudyFile) -> Table {
    let s = &f.summary;
    let games = s.games.max(1) as f64;
    let all_moves: u64 = s.kinds.iter().map(|k| k.moves[0] + k.moves[1]).sum();
    let counts = start_counts(f);
    let rows = s
        .kinds
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let m = k.moves[0] + k.moves[1];
            let c = k.captures[0] + k.captures[1];
            vec![
                format!("{} {}", k.letter, k.name),
                format!("{:.2}", m as f64 / games),
                pct(m as f64 / all_moves.max(1) as f64),
                format!("{:.2}", c as f64 / games),
                format!("{:.2}", (k.lost[0] + k.lost[1]) as f64 / games),
                if m == 0 {
                    "-".into()
                } else {
                    pct(c as f64 / m as f64)
                },
                counts.as_ref().map_or("-".into(), |c| c[i].to_string()),
                left_in_draws(f, &counts, i),
            ]
        })
        .collect();
    Table {
        head: vec![
            "kind",
            "moves",
            "share of moves",
            "captures made",
            "lost",
            "captures per move",
            "at the start",
            "left at the end of a drawn game",
        ],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::Table;

    #[test]
    fn one_table_written_as_markdown_and_as_escaped_html() {
        let t = Table {
            head: vec!["kind", "moves"],
            rows: vec![vec!["K <King> & co".into(), "1.50".into()]],
        };
        assert_eq!(
            t.markdown(),
            "| kind | moves |\n|---|---:|\n| K <King> & co | 1.50 |\n"
        );
        assert_eq!(
            t.html(),
            "<table><tr><th>kind</th><th>moves</th></tr>\n\
             <tr><td>K &lt;King&gt; &amp; co</td><td>1.50</td></tr>\n</table>\n"
        );
    }
}
