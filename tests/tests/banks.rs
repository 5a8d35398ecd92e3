//! The `banks` check against a CPU model of bank conflicts: for accesses
//! of workgroup memory at strides of 1 to 33 words, and of 4-word vectors,
//! the worst and average degree reported on each line are the model's for
//! the subgroup size the run saw and the `--banks` given. The check is off
//! by default, and its findings never fail a run.

use std::collections::BTreeMap;

use wgrace::report::Report;
use wgrace::spec::{RunArgs, RunSpec};
use wgrace_instrument::checks::CheckSet;

use crate::support::require_gpu;

/// One subgroup of 64 invocations per line: each line reads at its stride
/// (in words of 4 bytes) from word 0, one after another.
const STRIDES: &str = "
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> words: array<u32, 2112>;
var<workgroup> quads: array<vec4<u32>, 128>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    words[lid] = lid;
    quads[lid] = vec4<u32>(lid);
    workgroupBarrier();
    var sum = words[lid];
    sum += words[lid * 2u];
    sum += words[lid * 4u];
    sum += words[lid * 8u];
    sum += words[lid * 16u];
    sum += words[lid * 32u];
    sum += words[lid * 33u];
    sum += words[7u];
    sum += quads[lid].x;
    sum += dot(quads[lid], quads[lid * 2u]);
    sum += words[lid / 2u * 32u];
    sum += words[(lid * 7u) % 32u];
    sum += words[(lid * 7u) % 8u * 32u];
    out[gid.x] = sum;
}
";

/// A checked line: its number, the first word invocation `lid` reads
/// there, and how many.
type Line = (u32, fn(u32) -> u32, u32);

const LINES: [Line; 13] = [
    (11, |lid| lid, 1),
    (12, |lid| lid * 2, 1),
    (13, |lid| lid * 4, 1),
    (14, |lid| lid * 8, 1),
    (15, |lid| lid * 16, 1),
    (16, |lid| lid * 32, 1),
    (17, |lid| lid * 33, 1),
    (18, |_| 7, 1),
    (19, |lid| lid * 4, 1),
    (20, |lid| lid * 8, 4),
    // Words that do not step evenly over a subgroup's invocations: pairs
    // of invocations reading one word, and words in a scrambled order.
    (21, |lid| lid / 2 * 32, 1),
    (22, |lid| lid * 7 % 32, 1),
    (23, |lid| lid * 7 % 8 * 32, 1),
];

/// The model: the most distinct words on one of `banks` banks among those
/// the `lanes` invocations from `first` access (invocation `i` the `width`
/// words from `word(i)`), and the least that many distinct words allow.
fn degree(first: u32, lanes: u32, banks: u32, word: fn(u32) -> u32, width: u32) -> (u32, u32) {
    let mut on_bank: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for i in first..first + lanes {
        for c in 0..width {
            let w = word(i) + c;
            let words = on_bank.entry(w % banks).or_default();
            if !words.contains(&w) {
                words.push(w);
            }
        }
    }
    let distinct: u32 = on_bank.values().map(|w| w.len() as u32).sum();
    (on_bank.values().map(|w| w.len() as u32).max().unwrap_or(0), distinct.div_ceil(banks))
}

fn run(flags: &[&str]) -> Report {
    let shader = wgrace::Shader::from_wgsl("strides.wgsl", STRIDES).expect("shader");
    let flags: Vec<String> =
        ["--dispatch", "2", "--buffer", "out=128"].iter().chain(flags).map(|s| s.to_string()).collect();
    let spec = RunSpec::from_args(&RunArgs::parse_flags(&flags).expect("flags")).expect("spec");
    crate::support::check_shader(&shader, &spec, &CheckSet::default()).expect("run").report
}

/// Each line's banks findings: (worst degree, average degree, subgroup
/// accesses, accesses that conflicted).
fn by_line(report: &Report) -> BTreeMap<u32, Vec<(u64, f64, u64, u64)>> {
    let mut lines: BTreeMap<u32, Vec<(u64, f64, u64, u64)>> = BTreeMap::new();
    for f in report.all_findings().filter(|f| f.check == "banks") {
        let line = f.locations[0].location.line.expect("a line");
        let number = |key: &str| f.data[key].as_f64().unwrap_or_else(|| panic!("{key} in {:?}", f.data));
        let entry = (number("worst") as u64, number("average"), number("accesses") as u64, number("conflicted") as u64);
        lines.entry(line).or_default().push(entry);
    }
    lines
}

fn assert_model(banks: u32, flags: &[&str]) {
    let report = run(flags);
    let run = &report.runs[0];
    // Complete but for the races `--checks banks` leaves unchecked.
    assert!(run.incomplete.iter().all(|why| why.contains("--checks leaves out data-race")), "{:?}", run.incomplete);
    let lanes = run.checked.subgroup_size;
    assert!(lanes > 1, "the tests' adapter has subgroups");
    // 2 workgroups of 64 invocations, in subgroups of consecutive ones.
    let subgroups: Vec<u32> = (0..64 / lanes).map(|s| s * lanes).collect();
    let mut expected = BTreeMap::new();
    for (line, word, width) in LINES {
        let degrees: Vec<(u32, u32)> = subgroups.iter().map(|&s| degree(s, lanes, banks, word, width)).collect();
        let worst = degrees.iter().map(|d| d.0).max().unwrap_or(0);
        let conflicted = 2 * degrees.iter().filter(|(d, least)| d > least).count() as u64;
        if conflicted > 0 {
            // A line of two reads (`quads[lid]` and `quads[lid * 2u]`) has
            // a finding only for the one that conflicts.
            let accesses = 2 * subgroups.len() as u64;
            let average = 2.0 * f64::from(degrees.iter().map(|d| d.0).sum::<u32>()) / accesses as f64;
            let average = (average * 100.0).round() / 100.0;
            expected.insert(line, vec![(u64::from(worst), average, accesses, conflicted)]);
        }
    }
    assert_eq!(by_line(&report), expected, "{lanes} lanes, {banks} banks");
    assert!(!report.failed(), "bank conflicts are notes");
}

#[test]
fn degrees_match_the_model_for_32_banks() {
    require_gpu!();
    assert_model(32, &["--checks", "banks"]);
}

#[test]
fn degrees_match_the_model_for_the_banks_given() {
    require_gpu!();
    assert_model(8, &["--checks", "banks", "--banks", "8"]);
    assert_model(4, &["--checks", "data-race,banks", "--banks", "4"]);
}

#[test]
fn banks_is_off_by_default_and_reports_an_example_of_the_words() {
    require_gpu!();
    let report = run(&[]);
    assert!(report.all_findings().all(|f| f.check != "banks"), "off by default");
    assert!(!report.checks.iter().any(|c| c.id == "banks"), "{:?}", report.checks);

    let report = run(&["--checks", "all"]);
    let lanes = report.runs[0].checked.subgroup_size;
    let column = report
        .all_findings()
        .find(|f| f.check == "banks" && f.locations[0].location.line == Some(16))
        .expect("the stride-32 line conflicts");
    assert_eq!(
        column.message,
        format!(
            "bank conflicts up to {lanes}-way: {0} of {0} subgroup accesses to `words` conflicted, {lanes}.0-way on \
             average (32 banks of 4 bytes)",
            128 / lanes
        )
    );
    // The example is the worst access of one of the first invocations to
    // record: its subgroup's leader at invocation x reads words 32·x,
    // 32·x + 32, … on bank 0.
    let [detail] = column.details.as_slice() else { panic!("{:?}", column.details) };
    let x: u32 = detail
        .strip_prefix("the subgroup of invocation (")
        .and_then(|rest| rest.split(',').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{detail}"));
    let (first, second) = (32 * x, 32 * x + 32);
    let words = match lanes {
        2 => format!("words {first} and {second}"),
        _ => format!("words {first}, {second} and {} more", lanes - 2),
    };
    assert!(
        detail.ends_with(&format!(
            "accessed {lanes} words of `words` on bank 0: {words} (counted from the variable's start)"
        )),
        "{detail}"
    );
}
