//! A study's summary for the terminal and as markdown; the HTML report with its SVG charts
//! is in html.rs, the tables both share in tables.rs.

mod html;
mod tables;

pub use html::html;

use std::fmt::Write;

use crate::stats::{Dist, Rate};
use crate::StudyFile;

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn rate(r: &Rate) -> String {
    format!("{} [{} - {}]", pct(r.p), pct(r.lo), pct(r.hi))
}

fn dist(d: &Dist) -> String {
    if d.n == 0 {
        return "-".into();
    }
    format!(
        "mean {:.1}, median {}, 10%-90% {}-{}, range {}-{}",
        d.mean, d.median, d.p10, d.p90, d.min, d.max
    )
}

fn signed(x: f64) -> String {
    format!("{}{:.0}", if x > 0.0 { "+" } else { "" }, x)
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// How many units of each kind stand on the board at the start, when the study's variant is
/// a built-in one with the study's exact rules (and no free set-up).
pub(crate) fn start_counts(f: &StudyFile) -> Option<Vec<u32>> {
    let v = cohort_rules::builtin(&f.settings.variant)
        .filter(|v| crate::fingerprint(v) == f.settings.variant_fingerprint)?;
    let start = v.start();
    let counts: Vec<u32> = (0..v.pieces.len())
        .map(|k| {
            cohort_rules::all_units(&start)
                .filter(|u| u.kind as usize == k)
                .count() as u32
        })
        .collect();
    (counts.iter().sum::<u32>() > 0).then_some(counts)
}

/// The units of kind `k` left at the end of a drawn game, on average (both sides).
pub(crate) fn left_in_draws(f: &StudyFile, counts: &Option<Vec<u32>>, k: usize) -> String {
    match counts {
        Some(c) if f.summary.draws > 0 => format!(
            "{:.2}",
            c[k] as f64 - f.summary.kinds[k].lost_in_draws as f64 / f.summary.draws as f64
        ),
        _ => "-".into(),
    }
}

/// The lines of the terminal summary (also the core of the markdown).
pub fn text(f: &StudyFile) -> String {
    let s = &f.summary;
    let set = &f.settings;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} ({}): {} games, engine self-play, {}, seed {}, {} random opening turns, turn cap {}{}",
        set.variant_name,
        set.variant,
        s.games,
        set.limits_text(),
        set.seed,
        set.opening_turns,
        set.max_turns,
        if f.shard.count > 1 {
            format!(", shard {}", f.shard)
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        o,
        "White wins  {:>4}  {}",
        s.white_wins,
        rate(&s.white_rate)
    );
    let _ = writeln!(
        o,
        "Black wins  {:>4}  {}",
        s.black_wins,
        rate(&s.black_rate)
    );
    let _ = writeln!(o, "Draws       {:>4}  {}", s.draws, rate(&s.draw_rate));
    let _ = writeln!(
        o,
        "First mover ({}) score {}, Elo {} [{} .. {}]; White's share of decisive games {}",
        capitalised(&s.first_mover),
        rate(&s.first_score),
        signed(s.first_elo),
        signed(s.first_elo_lo),
        signed(s.first_elo_hi),
        rate(&s.white_of_decisive)
    );
    let _ = writeln!(o, "Turns per game: {}", dist(&s.length));
    let _ = writeln!(
        o,
        "  decisive games: {}; drawn games: {}",
        dist(&s.decisive_length),
        dist(&s.drawn_length)
    );
    let _ = writeln!(
        o,
        "Turns without a capture: {} of all turns; longest run per game: {}",
        pct(s.quiet_share),
        dist(&s.longest_quiet)
    );
    let _ = writeln!(o, "  every run: {}", dist(&s.quiet_runs));
    let _ = writeln!(
        o,
        "Captures per game: {}; unit moves per engine turn {:.2}; nodes per engine turn {:.0}",
        dist(&s.captures),
        s.steps_per_turn,
        s.nodes_per_turn
    );
    let _ = writeln!(
        o,
        "  decisive games: {}; drawn games: {}",
        dist(&s.decisive_captures),
        dist(&s.drawn_captures)
    );
    let _ = writeln!(
        o,
        "Endings: {}",
        s.terminations
            .iter()
            .map(|t| format!(
                "{} {} (+{} ={} -{})",
                t.reason,
                t.total(),
                t.white,
                t.draw,
                t.black
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let games = s.games.max(1) as f64;
    let _ = writeln!(
        o,
        "Per game (engine turns), both sides: kind, moves, captures, lost"
    );
    for k in &s.kinds {
        let _ = writeln!(
            o,
            "  {} {:<12} {:>7.2} {:>6.2} {:>6.2}",
            k.letter,
            k.name,
            (k.moves[0] + k.moves[1]) as f64 / games,
            (k.captures[0] + k.captures[1]) as f64 / games,
            (k.lost[0] + k.lost[1]) as f64 / games
        );
    }
    if s.forfeits > 0 {
        let _ = writeln!(
            o,
            "Forfeits (illegal step or unfinished turn): {}",
            s.forfeits
        );
    }
    o
}

/// Escape text for HTML.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The summary as markdown: settings, command lines, tables.
pub fn markdown(f: &StudyFile) -> String {
    let s = &f.summary;
    let set = &f.settings;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# Balance study: {} ({})\n",
        set.variant_name, set.variant
    );
    let _ = writeln!(
        o,
        "{} games of engine self-play, {} per turn, seed {}, {} random opening turns, drawn at \
         turn {} at the latest. Games are {} (docs/balance.md). Engine {}, variant fingerprint \
         `{}`.\n",
        s.games,
        set.limits_text(),
        set.seed,
        set.opening_turns,
        set.max_turns,
        if set.deterministic() {
            "a function of the seed: a rerun gives the same games"
        } else {
            "played on the clock: a rerun gives other games"
        },
        set.version,
        set.variant_fingerprint
    );
    let _ = writeln!(o, "Command line(s):\n");
    let _ = writeln!(o, "```sh");
    for c in &f.commands {
        let _ = writeln!(o, "{c}");
    }
    let _ = writeln!(o, "```\n");
    let _ = writeln!(o, "## Results\n");
    o += &tables::results(s).markdown();
    let _ = writeln!(
        o,
        "\nFirst-turn advantage: {} (moving first) scores {} (95% {} - {}), an Elo \
         difference of {} ({} to {}). White takes {} of the decisive games ({} - {}).\n",
        capitalised(&s.first_mover),
        pct(s.first_score.p),
        pct(s.first_score.lo),
        pct(s.first_score.hi),
        signed(s.first_elo),
        signed(s.first_elo_lo),
        signed(s.first_elo_hi),
        pct(s.white_of_decisive.p),
        pct(s.white_of_decisive.lo),
        pct(s.white_of_decisive.hi)
    );
    let _ = writeln!(o, "## Length and captures\n");
    o += &tables::lengths(s).markdown();
    let _ = writeln!(
        o,
        "\n{} of all turns had no capture. The engines made {:.2} unit moves per turn and \
         searched {:.0} nodes per turn.\n",
        pct(s.quiet_share),
        s.steps_per_turn,
        s.nodes_per_turn
    );
    let _ = writeln!(o, "## Endings\n");
    o += &tables::endings(s).markdown();
    let _ = writeln!(o, "\n## Piece kinds (engine turns, per game)\n");
    o += &tables::kinds(f).markdown();
    if s.forfeits > 0 {
        let _ = writeln!(
            o,
            "\n{} game(s) forfeited by an illegal step or an unfinished turn.",
            s.forfeits
        );
    }
    o
}
