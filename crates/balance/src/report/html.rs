//! The HTML report: one self-contained file, its charts drawn here as SVG (no scripts).

use std::fmt::Write;

use super::{capitalised, dist, esc, pct, signed, tables};
use crate::StudyFile;

const WHITE: &str = "#e9dfc4";
const BLACK: &str = "#3b3a36";
const DRAW: &str = "#9aa7b4";
const ACCENT: &str = "#c0603a";
const BLUE: &str = "#4a7fb0";

/// A step of 1, 2 or 5 times a power of ten giving at most `most` steps up to `max`.
fn nice_step(max: f64, most: usize) -> f64 {
    let mut step = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if max / (step * m) <= most as f64 {
                return step * m;
            }
        }
        step *= 10.0;
    }
}

/// Bars of binned whole-number distributions, stacked in the order given (each series a
/// colour and a name), with axes: values along x, games along y.
fn histogram(
    series: &[(&str, &str, &std::collections::BTreeMap<u32, u32>)],
    x_label: &str,
    y_label: &str,
    limit: Option<(u32, &str)>,
) -> String {
    let (w, h) = (640.0, 230.0);
    let (left, right, top, bottom) = (48.0, 12.0, 12.0, 40.0);
    let all: Vec<u32> = series.iter().flat_map(|s| s.2.keys().copied()).collect();
    let (Some(&lo), Some(&hi)) = (all.iter().min(), all.iter().max()) else {
        return "<p class=\"none\">no data</p>".into();
    };
    let hi = hi.max(limit.map_or(0, |l| l.0));
    let width = nice_step((hi - lo + 1) as f64, 40).max(1.0) as u32;
    let start = lo / width * width;
    let bins = ((hi - start) / width + 1) as usize;
    let mut stacks = vec![vec![0u32; series.len()]; bins];
    for (si, s) in series.iter().enumerate() {
        for (&v, &c) in s.2 {
            stacks[((v - start) / width) as usize][si] += c;
        }
    }
    let peak = stacks
        .iter()
        .map(|b| b.iter().sum::<u32>())
        .max()
        .unwrap_or(1)
        .max(1);
    let ystep = nice_step(peak as f64, 5);
    let ymax = (peak as f64 / ystep).ceil() * ystep;
    let (pw, ph) = (w - left - right, h - top - bottom);
    let bw = pw / bins as f64;
    let mut o = format!(
        "<svg viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" class=\"chart\">"
    );
    // Grid and y axis.
    let mut y = 0.0;
    while y <= ymax + 1e-9 {
        let py = top + ph - y / ymax * ph;
        let _ = write!(
            o,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{py:.1}\" y2=\"{py:.1}\" class=\"grid\"/><text x=\"{}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
            w - right,
            left - 4.0,
            py + 4.0,
            y as u64
        );
        y += ystep;
    }
    for (b, stack) in stacks.iter().enumerate() {
        let x = left + b as f64 * bw;
        let mut base = 0u32;
        let from = start + b as u32 * width;
        let label = if width == 1 {
            format!("{from}")
        } else {
            format!("{from}-{}", from + width - 1)
        };
        for (si, &c) in stack.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let y0 = top + ph - (base + c) as f64 / ymax * ph;
            let hh = c as f64 / ymax * ph;
            let _ = write!(
                o,
                "<rect x=\"{:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{hh:.1}\" fill=\"{}\" stroke=\"#555\" stroke-width=\"0.5\"><title>{label}: {c} {}</title></rect>",
                x + 0.5,
                (bw - 1.0).max(0.5),
                series[si].0,
                esc(series[si].1)
            );
            base += c;
        }
    }
    // X ticks: about eight labels.
    let every = bins.div_ceil(8).max(1);
    for b in (0..bins).step_by(every) {
        let x = left + b as f64 * bw;
        let _ = write!(
            o,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{}\" y2=\"{}\" class=\"axis\"/><text x=\"{x:.1}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
            top + ph,
            top + ph + 4.0,
            top + ph + 16.0,
            start + b as u32 * width
        );
    }
    let _ = write!(
        o,
        "<line x1=\"{left}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"axis\"/><text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">{}</text><text x=\"12\" y=\"{}\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 12 {})\">{}</text>",
        w - right,
        top + ph,
        top + ph,
        left + pw / 2.0,
        h - 6.0,
        esc(x_label),
        top + ph / 2.0,
        top + ph / 2.0,
        esc(y_label)
    );
    if let Some((at, name)) = limit {
        let x = left + ((at - start) as f64 / width as f64) * bw;
        let _ = write!(
            o,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{top}\" y2=\"{:.1}\" class=\"mark\"/><text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
            top + ph,
            x - 4.0,
            top + 36.0,
            esc(name)
        );
    }
    if series.len() > 1 {
        let mut lx = w - right - 8.0;
        for (colour, name, _) in series.iter().rev() {
            lx -= 8.0 * name.len() as f64 + 22.0;
            let _ = write!(
                o,
                "<rect x=\"{lx:.1}\" y=\"{top}\" width=\"12\" height=\"12\" fill=\"{colour}\" stroke=\"#555\" stroke-width=\"0.5\"/><text x=\"{:.1}\" y=\"{}\" class=\"tick\">{}</text>",
                lx + 16.0,
                top + 10.0,
                esc(name)
            );
        }
    }
    o.push_str("</svg>");
    o
}

/// One row of a horizontal bar chart: label, stacked segments (value, colour, name), and an
/// optional interval drawn as a whisker over the whole bar.
struct Row {
    label: String,
    parts: Vec<(f64, &'static str, String)>,
    interval: Option<(f64, f64)>,
}

/// Horizontal bars on a 0..`max` scale; `fmt` writes a value; `mark` draws a reference line.
fn hbars(rows: &[Row], max: f64, fmt: &dyn Fn(f64) -> String, mark: Option<f64>) -> String {
    let w = 640.0;
    let (left, right, top) = (170.0, 70.0, 8.0);
    let rh = 26.0;
    let h = top + rows.len() as f64 * rh + 26.0;
    let pw = w - left - right;
    let sx = |v: f64| left + (v / max).clamp(0.0, 1.0) * pw;
    let mut o = format!(
        "<svg viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" class=\"chart\">"
    );
    let step = nice_step(max, 5);
    let mut t = 0.0;
    while t <= max + 1e-9 {
        let x = sx(t);
        let _ = write!(
            o,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{top}\" y2=\"{:.1}\" class=\"grid\"/><text x=\"{x:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
            h - 22.0,
            h - 8.0,
            fmt(t)
        );
        t += step;
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + i as f64 * rh;
        let _ = write!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y + rh / 2.0 + 4.0,
            esc(&r.label)
        );
        let mut x = 0.0;
        for (v, colour, name) in &r.parts {
            if *v > 0.0 {
                let _ = write!(
                    o,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\" stroke=\"#555\" stroke-width=\"0.5\"><title>{}: {}</title></rect>",
                    sx(x),
                    y + 4.0,
                    (sx(x + v) - sx(x)).max(0.5),
                    rh - 8.0,
                    esc(name),
                    fmt(*v)
                );
            }
            x += v;
        }
        if let Some((lo, hi)) = r.interval {
            let ym = y + rh / 2.0;
            let _ = write!(
                o,
                "<path d=\"M{:.1} {ym:.1}H{:.1}M{:.1} {:.1}V{:.1}M{:.1} {:.1}V{:.1}\" class=\"ci\"><title>95% interval {} - {}</title></path>",
                sx(lo),
                sx(hi),
                sx(lo),
                ym - 6.0,
                ym + 6.0,
                sx(hi),
                ym - 6.0,
                ym + 6.0,
                fmt(lo),
                fmt(hi)
            );
        }
        let _ = write!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\">{}</text>",
            w - right + 6.0,
            y + rh / 2.0 + 4.0,
            fmt(x)
        );
    }
    if let Some(m) = mark {
        let x = sx(m);
        let _ = write!(
            o,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{top}\" y2=\"{:.1}\" class=\"mark\"/>",
            h - 22.0
        );
    }
    o.push_str("</svg>");
    o
}

fn figure(title: &str, svg: String, caption: &str) -> String {
    format!(
        "<figure><figcaption><b>{}</b> {}</figcaption>{svg}</figure>\n",
        esc(title),
        esc(caption)
    )
}

/// The whole report: one HTML file with inline CSS and SVG, no scripts.
pub fn html(f: &StudyFile) -> String {
    let s = &f.summary;
    let set = &f.settings;
    let games = s.games.max(1) as f64;
    // The draw rule, when the variant is a built-in one with the study's exact rules.
    let rules = cohort_rules::builtin(&set.variant)
        .filter(|v| crate::fingerprint(v) == set.variant_fingerprint);
    let quiet = rules
        .as_ref()
        .map(|v| v.quiet_turns as u32)
        .filter(|&q| q > 0);
    // Units at the start (none in a free set-up, where units are placed).
    let units = rules
        .as_ref()
        .map(|v| cohort_rules::all_units(&v.start()).count() as u32)
        .filter(|&u| u > 0);
    let mut o = String::new();
    let _ = write!(
        o,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Balance: {name}</title>\n<style>\
body{{font:15px/1.45 system-ui,sans-serif;max-width:720px;margin:2em auto;padding:0 1em;color:#222}}\
h1{{font-size:1.5em}}h2{{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #ddd}}\
table{{border-collapse:collapse;margin:.6em 0}}td,th{{padding:.2em .6em;border-bottom:1px solid #eee;text-align:right}}\
td:first-child,th:first-child{{text-align:left}}pre{{background:#f6f5f1;padding:.6em;white-space:pre-wrap;word-break:break-all;font-size:13px}}\
figure{{margin:1.2em 0}}figcaption{{margin-bottom:.3em}}.chart{{max-width:100%;height:auto}}\
.chart .grid{{stroke:#e6e6e6}}.chart .axis{{stroke:#888}}.chart .tick{{font-size:11px;fill:#444}}\
.chart .label{{font-size:12px;fill:#333}}.chart .ci{{stroke:#b02a1a;stroke-width:2;fill:none}}\
.chart .mark{{stroke:{ACCENT};stroke-dasharray:4 3;stroke-width:1.5}}.note{{color:#555}}.big{{font-size:1.1em}}\
</style></head><body>\n",
        name = esc(&set.variant_name)
    );
    let _ = writeln!(
        o,
        "<h1>Balance study: {} <small>({})</small></h1>",
        esc(&set.variant_name),
        esc(&set.variant)
    );
    let _ = writeln!(
        o,
        "<p>{} games of the engine against itself, {}, seed {}, {} random opening turns, \
         drawn at turn {} at the latest. {} Engine {}, variant fingerprint <code>{}</code>; \
         {:.0} s of wall clock on {} thread(s).</p>",
        s.games,
        esc(&set.limits_text()),
        set.seed,
        set.opening_turns,
        set.max_turns,
        if set.deterministic() {
            "Without a clock each game is a function of its seed: a rerun, whole or in shards, gives the same games."
        } else {
            "On the clock: the engine searches as deep as time allows, so a rerun gives other games."
        },
        esc(&set.version),
        esc(&set.variant_fingerprint),
        f.wall_seconds,
        f.threads
    );
    let _ = writeln!(o, "<pre>{}</pre>", esc(&f.commands.join("\n")));

    // Results.
    let _ = writeln!(o, "<h2>Who wins</h2>");
    let pcts = |x: f64| format!("{:.0}%", x * 100.0);
    let rows = vec![
        Row {
            label: format!("White wins ({})", s.white_wins),
            parts: vec![(s.white_rate.p, WHITE, "White wins".into())],
            interval: Some((s.white_rate.lo, s.white_rate.hi)),
        },
        Row {
            label: format!("Draws ({})", s.draws),
            parts: vec![(s.draw_rate.p, DRAW, "draws".into())],
            interval: Some((s.draw_rate.lo, s.draw_rate.hi)),
        },
        Row {
            label: format!("Black wins ({})", s.black_wins),
            parts: vec![(s.black_rate.p, BLACK, "Black wins".into())],
            interval: Some((s.black_rate.lo, s.black_rate.hi)),
        },
    ];
    o.push_str(&figure(
        "Results.",
        hbars(&rows, 1.0, &pcts, None),
        "Share of the games; the red whiskers are 95% Wilson intervals.",
    ));
    let first = capitalised(&s.first_mover);
    let rows = vec![
        Row {
            label: format!("{first} (moves first)"),
            parts: vec![(
                s.first_score.p,
                if first == "White" { WHITE } else { BLACK },
                "score".into(),
            )],
            interval: Some((s.first_score.lo, s.first_score.hi)),
        },
        Row {
            label: "White, decisive games".into(),
            parts: vec![(s.white_of_decisive.p, WHITE, "White's share".into())],
            interval: Some((s.white_of_decisive.lo, s.white_of_decisive.hi)),
        },
    ];
    o.push_str(&figure(
        "First-turn advantage.",
        hbars(&rows, 1.0, &pcts, Some(0.5)),
        "The first mover's score (a win 1, a draw 1/2) and White's share of the decisive games; the dashed line is an even game.",
    ));
    let _ = writeln!(
        o,
        "<p class=\"big\">{first} moves first and scores <b>{}</b> (95% {} - {}): an Elo \
         difference of <b>{}</b> ({} to {}). {}</p>",
        pct(s.first_score.p),
        pct(s.first_score.lo),
        pct(s.first_score.hi),
        signed(s.first_elo),
        signed(s.first_elo_lo),
        signed(s.first_elo_hi),
        if s.first_score.lo > 0.5 {
            "The interval lies above 50%: moving first is an advantage."
        } else if s.first_score.hi < 0.5 {
            "The interval lies below 50%: moving first is a disadvantage."
        } else {
            "The interval contains 50%: no first-turn advantage is shown at this sample size."
        }
    );
    o += &tables::results(s).html();

    // Endings.
    let _ = writeln!(o, "<h2>How games end</h2>");
    let rows: Vec<Row> = s
        .terminations
        .iter()
        .map(|t| Row {
            label: format!("{} ({})", t.reason, t.total()),
            parts: vec![
                (t.white as f64 / games, WHITE, "White won".into()),
                (t.draw as f64 / games, DRAW, "drawn".into()),
                (t.black as f64 / games, BLACK, "Black won".into()),
            ],
            interval: None,
        })
        .collect();
    o.push_str(&figure(
        "Endings.",
        hbars(&rows, 1.0, &pcts, None),
        "Share of the games ending each way, split by result (light: White won, grey: drawn, dark: Black won).",
    ));

    // Length.
    let _ = writeln!(o, "<h2>Game length</h2>");
    let lengths = |draw: bool| -> std::collections::BTreeMap<u32, u32> {
        if draw {
            s.drawn_length.counts.clone()
        } else {
            s.decisive_length.counts.clone()
        }
    };
    let (dec, drw) = (lengths(false), lengths(true));
    o.push_str(&figure(
        "Turns per game.",
        histogram(
            &[(BLUE, "decisive", &dec), (DRAW, "drawn", &drw)],
            "turns (a turn is one side's whole move, the random opening included)",
            "games",
            // The cap, when some game reached it.
            s.terminations
                .iter()
                .any(|t| t.reason.starts_with("turn cap"))
                .then_some((set.max_turns as u32, "turn cap")),
        ),
        &format!(
            "All games: {}. Decisive: {}. Drawn: {}.",
            dist(&s.length),
            dist(&s.decisive_length),
            dist(&s.drawn_length)
        ),
    ));
    o += &tables::lengths(s).html();

    // Quiet turns.
    let _ = writeln!(o, "<h2>Turns without a capture</h2>");
    let _ = writeln!(
        o,
        "<p>{} of all turns took nothing. A run is a stretch of consecutive turns (both sides') \
         without a capture; {}</p>",
        pct(s.quiet_share),
        match quiet {
            Some(q) => format!(
                "the variant's quiet-turn rule draws a game when a run reaches {q} turns (the dashed line)."
            ),
            None => "a quiet-turn rule, if the variant has one, draws a game when a run reaches its limit.".into(),
        }
    );
    o.push_str(&figure(
        "Longest run per game.",
        histogram(
            &[(ACCENT, "games", &s.longest_quiet.counts)],
            "longest run of turns without a capture",
            "games",
            quiet.map(|q| (q, "quiet-turn rule")),
        ),
        &dist(&s.longest_quiet),
    ));
    o.push_str(&figure(
        "Every run.",
        histogram(
            &[(DRAW, "runs", &s.quiet_runs.counts)],
            "turns in a run without a capture",
            "runs",
            None,
        ),
        &format!("{} runs: {}", s.quiet_runs.n, dist(&s.quiet_runs)),
    ));
    o.push_str(&figure(
        "Captures per game.",
        histogram(
            &[
                (BLUE, "decisive", &s.decisive_captures.counts),
                (DRAW, "drawn", &s.drawn_captures.counts),
            ],
            "units captured in the game",
            "games",
            units.map(|u| (u, "every unit")),
        ),
        &format!(
            "{}Decisive games: {}. Drawn games: {}.",
            units.map_or(String::new(), |u| format!(
                "{u} units stand on the board at the start. "
            )),
            dist(&s.decisive_captures),
            dist(&s.drawn_captures)
        ),
    ));

    // Kinds.
    let _ = writeln!(o, "<h2>Which units do the work</h2>");
    let max_moves = s
        .kinds
        .iter()
        .map(|k| (k.moves[0] + k.moves[1]) as f64 / games)
        .fold(0.0, f64::max)
        .max(1e-9);
    let rows: Vec<Row> = s
        .kinds
        .iter()
        .map(|k| Row {
            label: format!("{} {}", k.letter, k.name),
            parts: vec![
                (k.moves[0] as f64 / games, WHITE, "moves by White".into()),
                (k.moves[1] as f64 / games, BLACK, "moves by Black".into()),
            ],
            interval: None,
        })
        .collect();
    let num = |x: f64| format!("{x:.1}");
    o.push_str(&figure(
        "Moves per game by kind.",
        hbars(&rows, max_moves, &num, None),
        "Unit moves per game in the engines' turns (light: White's, dark: Black's).",
    ));
    let max_caps = s
        .kinds
        .iter()
        .map(|k| {
            ((k.captures[0] + k.captures[1]) as f64 / games)
                .max((k.lost[0] + k.lost[1]) as f64 / games)
        })
        .fold(0.0, f64::max)
        .max(1e-9);
    let mut rows = Vec::new();
    for k in &s.kinds {
        rows.push(Row {
            label: format!("{} captures made", k.letter),
            parts: vec![(
                (k.captures[0] + k.captures[1]) as f64 / games,
                BLUE,
                "captures made".into(),
            )],
            interval: None,
        });
        rows.push(Row {
            label: format!("{} lost", k.letter),
            parts: vec![(
                (k.lost[0] + k.lost[1]) as f64 / games,
                ACCENT,
                "units lost".into(),
            )],
            interval: None,
        });
    }
    o.push_str(&figure(
        "Captures by kind.",
        hbars(&rows, max_caps, &num, None),
        "Per game: captures made by units of each kind (blue) and units of the kind captured (red).",
    ));
    o += &tables::kinds(f).html();
    let _ = writeln!(
        o,
        "<p class=\"note\">Moves, captures made and units lost are per game, both sides. Left at the end of a drawn game: the units of the kind at the start less those lost, \
         averaged over the drawn games (both sides). The engines made {:.2} unit moves per turn and searched {:.0} nodes per turn. {}</p>",
        s.steps_per_turn,
        s.nodes_per_turn,
        if s.forfeits > 0 {
            format!("{} game(s) were forfeited by an illegal step or an unfinished turn.", s.forfeits)
        } else {
            "No game was forfeited (every engine step was legal).".into()
        }
    );
    let _ = writeln!(
        o,
        "<p class=\"note\">Statistics: docs/balance.md. Generated by <code>cohort balance</code>.</p></body></html>"
    );
    o
}
