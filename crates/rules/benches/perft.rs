//! Step-perft speed from the start positions, single-threaded (docs/benchmarks.md).
//! `perft` counts leaves without making them; `perft_made` makes and unmakes every leaf.
//! Run: cargo bench -p cohort-rules --bench perft

use cohort_rules::{builtin, perft};

fn main() {
    divan::main();
}

#[divan::bench(args = [("chesimals-1", 4), ("chesimals-2", 3), ("chieftain", 3), ("mini-chieftain", 5), ("chessma-84", 4), ("chess", 5)], sample_count = 10)]
fn counted_leaves(bencher: divan::Bencher, (id, depth): (&str, u32)) {
    let v = builtin(id).unwrap();
    let mut pos = v.start();
    let steps = perft::perft(&mut pos, depth);
    bencher
        .counter(divan::counter::ItemsCount::new(steps))
        .bench_local(|| perft::perft(&mut pos, depth));
}

#[divan::bench(args = [("chesimals-1", 4), ("chieftain", 3)], sample_count = 10)]
fn made_leaves(bencher: divan::Bencher, (id, depth): (&str, u32)) {
    let v = builtin(id).unwrap();
    let mut pos = v.start();
    let steps = perft::perft(&mut pos, depth);
    bencher
        .counter(divan::counter::ItemsCount::new(steps))
        .bench_local(|| perft::perft_made(&mut pos, depth));
}
