//! The `wgrace-gui` binary: renders a saved report to a PNG without a
//! display, and refuses what is not a report with exit status 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wgrace-gui")).args(args).output().expect("run wgrace-gui")
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name).display().to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wgrace-gui-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_screenshot_renders_the_window_to_a_png_of_the_size_asked() {
    let out = temp_dir("shot").join("viewer.png");
    let o = gui(&[&data("wg_missing_barrier.json"), "--screenshot", &out.display().to_string(), "--size", "900x600"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let image = image::open(&out).expect("a PNG").to_rgba8();
    assert_eq!(image.dimensions(), (900, 600));
    // Not a blank frame: the window has text and colours on its background.
    let first = image.get_pixel(0, 0);
    assert!(image.pixels().filter(|p| *p != first).count() > 10_000);
}

#[test]
fn what_is_not_a_report_is_refused_with_status_2() {
    let o = gui(&["/nonexistent/report.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read the report /nonexistent/report.json"));
    let dir = temp_dir("bad");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "@compute @workgroup_size(1) fn main() {}\n").expect("write");
    let o = gui(&[&notes.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is not a wgrace report (`wgrace run --format json` writes one)"), "{err}");
    // A shader opens (and runs); one that is not there is refused.
    let o = gui(&["/nonexistent/shader.wgsl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read the shader /nonexistent/shader.wgsl"));
    let o = gui(&[&data("wg_missing_barrier.json"), "--screenshot", "x.png", "--size", "10x10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("each side must be a number from 200 to 8192"));
}
