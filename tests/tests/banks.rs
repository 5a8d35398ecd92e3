//! The `banks` check against a CPU model of bank conflicts: for accesses
//! of workgroup memory at strides of 1 to 33 words, and of 4-word vectors,
//! the worst and average degree reported on each line are the model's for
//! the subgroup size the run saw and the `--banks` given. The check is off
//! by default, and its findings never fail a run.

use std::collections::BTreeMap;

use wgrace::report::Report;
use wgrace::session;
use wgrace::spec::{RunArgs, RunSpec};
use wgrace_instrument::checks::CheckSet;

use crate::support::gpu;

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
    out[gid.x] = sum;
}
";

/// Each checked line: (line, words apart, words each access reads).
const LINES: [(u32, u32, u32); 10] = [
    (11, 1, 1),
    (12, 2, 1),
    (13, 4, 1),
    (14, 8, 1),
    (15, 16, 1),
    (16, 32, 1),
    (17, 33, 1),
    (18, 0, 1),
    (19, 4, 1),
    (20, 8, 4),
];

/// The model: the most distinct words on one of `banks` banks among those
/// `lanes` invocations access, invocation `i` the `width` words from
/// `i * stride`; and the least that many distinct words allow.
fn degree(lanes: u32, banks: u32, stride: u32, width: u32) -> (u32, u32) {
    let mut on_bank: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for i in 0..lanes {
        for c in 0..width {
            let w = i * stride + c;
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
    session::check(&shader, &spec, std::slice::from_ref(gpu()), &CheckSet::default(), false, &mut |_| {})
        .expect("run")
        .report
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
    // 2 workgroups of 64 invocations: 128 / lanes subgroup accesses a line.
    let accesses = u64::from(128 / lanes);
    let mut expected = BTreeMap::new();
    for (line, stride, width) in LINES {
        let (worst, least) = degree(lanes, banks, stride, width);
        if worst > least {
            // A line of two reads (`quads[lid]` and `quads[lid * 2u]`) has
            // a finding only for the one that conflicts.
            expected.insert(line, vec![(u64::from(worst), f64::from(worst), accesses, accesses)]);
        }
    }
    assert_eq!(by_line(&report), expected, "{lanes} lanes, {banks} banks");
    assert!(!report.failed(), "bank conflicts are notes");
}

#[test]
fn degrees_match_the_model_for_32_banks() {
    assert_model(32, &["--checks", "banks"]);
}

#[test]
fn degrees_match_the_model_for_the_banks_given() {
    assert_model(8, &["--checks", "banks", "--banks", "8"]);
    assert_model(4, &["--checks", "data-race,banks", "--banks", "4"]);
}

#[test]
fn banks_is_off_by_default_and_reports_an_example_of_the_words() {
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
