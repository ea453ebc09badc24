//! `cohort tune`: Texel tuning of a variant's piece values from game records
//! (cohort_engine::tune; docs/engine.md, "Tuning the values").

use std::path::Path;
use std::sync::Arc;

use cohort_engine::eval::Weights;
use cohort_engine::record::Record;
use cohort_engine::tune::{samples_of, tune, values_line};
use cohort_rules::Variant;

use crate::Fail;

/// The record files named: each path a file, or a folder whose `.txt` files are taken (in
/// name order).
fn record_files(paths: &[String]) -> Result<Vec<String>, Fail> {
    let mut out = vec![];
    for p in paths {
        let path = Path::new(p);
        if path.is_dir() {
            let mut files: Vec<String> = std::fs::read_dir(path)
                .map_err(|e| Fail(format!("{p}: {e}")))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "txt"))
                .map(|f| f.display().to_string())
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(p.clone());
        }
    }
    if out.is_empty() {
        return Err(Fail(
            "no record files (name files, or folders of .txt records)".into(),
        ));
    }
    Ok(out)
}

pub fn run(
    variant: Arc<Variant>,
    paths: &[String],
    skip_turns: usize,
    passes: usize,
    write: Option<&str>,
) -> Result<(), Fail> {
    let files = record_files(paths)?;
    let bar = indicatif::ProgressBar::new(files.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("reading records {bar:30} {pos}/{len} {msg}")
            .expect("a valid template"),
    );
    let (mut samples, mut finished, mut other) = (vec![], 0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| Fail(format!("{f}: {e}")))?;
        let record = Record::parse(&text).map_err(|e| Fail(format!("{f}: {e}")))?;
        if record.tag("Variant") != Some(variant.id.as_str()) {
            other += 1;
        } else {
            samples_of(&record, &variant, skip_turns, &mut samples)
                .map_err(|e| Fail(format!("{f}: {e}")))?;
            if cohort_engine::tune::white_result(&record).is_some() {
                finished += 1;
            }
            bar.set_message(format!("{} positions", samples.len()));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!(
        "records: {} ({finished} finished games of {}{}); samples: {} quiet turn starts after turn {skip_turns}",
        files.len(),
        variant.id,
        if other > 0 { format!(", {other} of other variants skipped") } else { String::new() },
        samples.len()
    );
    if samples.len() < 100 {
        return Err(Fail(format!(
            "{} samples: too few to fit anything (record more games, e.g. `cohort match --records DIR`)",
            samples.len()
        )));
    }
    let mut w = Weights::new(&variant);
    let spinner = indicatif::ProgressBar::new_spinner();
    let fit = tune(&samples, &mut w, passes, |pass, err| {
        spinner.set_message(format!("pass {pass}: error {err:.5}"));
        spinner.tick();
    });
    spinner.finish_and_clear();
    println!(
        "scale k = {:.3}; error {:.5} -> {:.5} after {} passes",
        fit.k, fit.error_before, fit.error_after, fit.passes
    );
    println!("kind  name            before   after");
    for &k in &fit.fitted {
        let p = &variant.pieces[k];
        println!(
            "{:<5} {:<15} {:>6} {:>7}",
            p.letter, p.name, fit.before[k], fit.after[k]
        );
    }
    let line = values_line(&variant, &fit);
    println!("{line}");
    if let Some(path) = write {
        let text = format!(
            "# cohort tune: {} samples from {} records; error {:.5} -> {:.5} (k = {:.3}).\n\
             # Load with --variant-file; the variant {}-tuned is {} with these values.\n\
             [{}-tuned]\nbase = {}\nname = {} (tuned values)\n{line}\n",
            samples.len(),
            files.len(),
            fit.error_before,
            fit.error_after,
            fit.k,
            variant.id,
            variant.id,
            variant.id,
            variant.id,
            variant.name
        );
        std::fs::write(path, text).map_err(|e| Fail(format!("{path}: {e}")))?;
        println!("written: {path} (variant {}-tuned)", variant.id);
    }
    Ok(())
}
