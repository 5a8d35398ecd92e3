//! A device lost while wgrace uses it gives an error, not a panic.

use wgrace::gpu::{AdapterChoice, Gpu};
use wgrace::spec::RunArgs;
use wgrace::{Error, Plan};
use wgrace_tests::samples_dir;

#[test]
fn a_lost_device_is_an_error() {
    let (shader, _, spec) =
        wgrace::load_with_flags(&samples_dir().join("wg_barrier.wgsl"), RunArgs::default()).expect("sample");
    let plan = Plan::new(shader, spec).expect("plan");
    let name = std::env::var("WGRACE_TEST_ADAPTER").ok();
    let gpu = Gpu::open(&AdapterChoice { name, backend: None }).expect("adapter");
    gpu.device.destroy();
    match plan.check(&gpu, &mut |_, _| {}) {
        Err(Error::DeviceLost(_) | Error::Gpu(_)) => {}
        other => panic!("expected a device error, got {:?}", other.map(|(r, _)| r.verdict)),
    }
}
