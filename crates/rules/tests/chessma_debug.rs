use cohort_rules::{builtin, Position, StepList};

fn walk(pos: &mut Position, depth: u32, bad: &mut u32) {
    let text = pos.to_text();
    let v = pos.variant().clone();
    let re = Position::parse(&v, &text).unwrap();
    if re.count_steps() != pos.count_steps() || re.hash() != pos.hash() {
        if *bad < 5 {
            eprintln!("MISMATCH at {text}: {} vs {} hash {} {}", pos.count_steps(), re.count_steps(), pos.hash(), re.hash());
        }
        *bad += 1;
    }
    if depth == 0 { return; }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.iter() {
        let u = pos.make(s);
        walk(pos, depth - 1, bad);
        pos.unmake(s, u);
    }
}

#[test]
fn roundtrip() {
    let v = builtin("chessma-84").unwrap();
    let text = std::env::var("CMPOS").unwrap_or_default();
    let mut pos = if text.is_empty() { v.start() } else { Position::parse(&v, &text).unwrap() };
    let mut bad = 0;
    walk(&mut pos, 2, &mut bad);
    assert_eq!(bad, 0);
}
