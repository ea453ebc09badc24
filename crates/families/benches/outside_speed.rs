//! What playing a family from outside the rules crate through `Position` costs: the engine
//! searches the same position of each outside family three ways, a fixed number of nodes
//! each, and prints nodes/s and the ratio to the direct search (median of 5 runs each):
//! - direct: on the family's own type (monomorphised, as a built-in family is searched);
//! - outside: on `OutsideGame`, the boxed object that `Position::Outside` holds, every call
//!   a virtual call (what `cohort analyze`, `match` and the server use);
//! - position: on `Position` itself, the enum's dispatch around the object.
//! Run: `cargo bench -p cohort-families --bench outside_speed` (docs/benchmarks.md).

use std::time::Instant;

use cohort_engine::{EngineAgent, Limits};
use cohort_rules::{Family, OutsideGame};

const NODES: u64 = 2_000_000;

fn nodes_per_second<R: Family>(engine: &EngineAgent, pos: &R) -> f64 {
    let limits = Limits {
        time: None,
        nodes: Some(NODES),
        seed: 1,
        threads: 1,
        clock: None,
    };
    let t = Instant::now();
    let (_, stats) = engine.think_on(pos, &limits, 64, None, |_, _| {});
    stats.nodes as f64 / t.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn compare<R: Family>(name: &str, direct: R) {
    let variant = direct.variant().clone();
    let engine = EngineAgent::new(&variant);
    let outside = OutsideGame::new(direct.clone());
    let position = variant.start();
    let (mut d, mut o, mut p) = (vec![], vec![], vec![]);
    for _ in 0..5 {
        d.push(nodes_per_second(&engine, &direct));
        o.push(nodes_per_second(&engine, &outside));
        p.push(nodes_per_second(&engine, &position));
    }
    let (d, o, p) = (median(d), median(o), median(p));
    println!(
        "{name}: direct {:.2}M nodes/s, outside {:.2}M ({:.2}x), position {:.2}M ({:.2}x)",
        d / 1e6,
        o / 1e6,
        o / d,
        p / 1e6,
        p / d
    );
}

fn main() {
    cohort_families::register();
    let variant = cohort_rules::builtin("breakthrough").expect("registered");
    compare(
        "breakthrough",
        cohort_breakthrough::Breakthrough::parse(&variant, &variant.setup).unwrap(),
    );
    let variant = cohort_rules::builtin("ataxx").expect("registered");
    compare(
        "ataxx",
        cohort_ataxx::Ataxx::parse(&variant, &variant.setup).unwrap(),
    );
}
