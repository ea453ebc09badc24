//! `cohort site DIR`: a static site for any static file host (docs/wasm.md, "cohort site"):
//! the local-play page (the rules and the engine in the browser, on the WebAssembly module),
//! the analysis board (views and searches from the module), a rules page for every built-in
//! variant (its data written as `api/variants/<id>.json`, the JSON `GET /api/variants/<id>`
//! answers), an index of the variants, the scripts and styles as `cohort serve` serves them,
//! and the module, copied from where `cohort serve` reads it. Every address in it is relative.

use std::path::{Path, PathBuf};

use crate::Fail;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The index: every built-in variant, each a link to the local-play page set to it, to its
/// rules page and to the analysis board at its start.
fn index_html() -> String {
    let mut items = String::new();
    for v in cohort_rules::builtin_variants() {
        items.push_str(&format!(
            "<li><a href=\"local.html?variant={id}\" data-testid=\"site-variant-{id}\">{name}</a> <span class=\"vid\">{id}</span> \
             <a href=\"rules.html?variant={id}\" data-testid=\"site-rules-{id}\">rules</a> \
             <a href=\"analysis.html?variant={id}\" data-testid=\"site-analysis-{id}\">analysis board</a></li>\n",
            id = escape(&v.id),
            name = escape(&v.name)
        ));
    }
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Cohort</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="static/style.css"></head>
<body data-page="site-index">
<header><a href="./">Cohort</a></header>
<main><h1>Cohort: chess variants whose turns are made of many unit moves</h1>
<p>Play against the engine in your browser: the rules and the AI run on the page
(WebAssembly), nothing is sent anywhere. <a href="local.html" data-testid="site-local">Play</a>,
or pick a variant:</p>
<ul class="site-variants">
{items}</ul>
<p class="hint">Your own variant file can be loaded on the play page.</p>
</main></body></html>
"#
    )
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Fail> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Fail(format!("cannot create {}: {e}", parent.display())))?;
    }
    std::fs::write(path, bytes).map_err(|e| Fail(format!("cannot write {}: {e}", path.display())))
}

pub fn write(dir: &str) -> Result<(), Fail> {
    if dir.trim().is_empty() {
        return Err(Fail("site: DIR must name a folder".into()));
    }
    let root = PathBuf::from(dir);
    if root.exists() && !root.is_dir() {
        return Err(Fail(format!("site: {dir} exists and is not a folder")));
    }
    // The module first: without it the site cannot play, so nothing is written.
    let wasm_path = cohort_server::pages::wasm_path();
    let wasm = std::fs::read(&wasm_path).map_err(|e| {
        Fail(format!(
            "site: the WebAssembly module is not built ({}: {e}); run scripts/wasm-build first, or set COHORT_WASM to the file",
            wasm_path.display()
        ))
    })?;
    if !wasm.starts_with(b"\0asm") {
        return Err(Fail(format!(
            "site: {} is not a WebAssembly module; run scripts/wasm-build",
            wasm_path.display()
        )));
    }
    std::fs::create_dir_all(&root).map_err(|e| Fail(format!("cannot create {dir}: {e}")))?;
    let mut count = 0;
    for (name, text) in cohort_server::pages::site_files() {
        write_file(&root.join(&name), text.as_bytes())?;
        count += 1;
    }
    write_file(&root.join("wasm/cohort.wasm"), &wasm)?;
    write_file(
        &root.join("local.html"),
        cohort_server::pages::local_page(false).as_bytes(),
    )?;
    write_file(&root.join("index.html"), index_html().as_bytes())?;
    write_file(
        &root.join("analysis.html"),
        cohort_server::pages::site_page("analysis").as_bytes(),
    )?;
    write_file(
        &root.join("rules.html"),
        cohort_server::pages::site_page("rules").as_bytes(),
    )?;
    count += 5;
    // Each rules page's data: the answer of `GET /api/variants/<id>`, as a file.
    let variants = cohort_rules::builtin_variants();
    for v in &variants {
        let json = cohort_server::rules_info::variant_rules(v).to_string();
        write_file(
            &root.join(format!("api/variants/{}.json", v.id)),
            json.as_bytes(),
        )?;
        count += 1;
    }
    println!(
        "site: {count} files in {dir} (index.html, local.html, analysis.html, rules.html, api/variants/ ({} variants), static/, wasm/cohort.wasm {} bytes); serve it with any static file host, e.g. python3 -m http.server -d {dir}",
        variants.len(),
        wasm.len()
    );
    Ok(())
}
