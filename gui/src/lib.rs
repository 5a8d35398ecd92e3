//! wgrace's desktop viewer (`wgrace-gui`, started by `wgrace view`): a
//! report's findings in a list that filters and sorts, the shader's source
//! with every line that takes part in a finding marked and the selected
//! finding's two accesses in their colours, and the selected finding's
//! details (what it is, where, which invocations, how lock-step execution
//! would change it, and how to fix it).
//!
//! It reads the report model (`wgrace-report`) and nothing else of wgrace:
//! the `wgrace` command does not depend on it, and `wgrace view` starts
//! this crate's binary. docs/viewer.md describes each view.

pub mod adapters;
pub mod app;
pub mod detail;
pub mod heat;
pub mod model;
pub mod runs;
pub mod source;
pub mod timeline;

use std::path::Path;

pub use app::{App, Viewer};
pub use eframe::egui;

/// Renders the viewer's window, `size` points wide and high, to the PNG
/// file `path` without a display, on the machine's wgpu adapter (lavapipe
/// when there is no GPU).
///
/// # Errors
/// When no adapter can render, or the file cannot be written.
pub fn screenshot(viewer: Viewer, size: [f32; 2], path: &Path) -> anyhow::Result<()> {
    // egui_kittest's own setup (any adapter, software ones first), created
    // here so that a machine without one gets an error rather than a panic.
    let setup = egui_kittest::wgpu::default_wgpu_setup();
    let instance = pollster::block_on(setup.new_instance());
    let config = eframe::egui_wgpu::WgpuConfiguration { wgpu_setup: setup, ..Default::default() };
    let state = pollster::block_on(eframe::egui_wgpu::RenderState::create(
        &config,
        &instance,
        None,
        eframe::egui_wgpu::RendererOptions::PREDICTABLE,
    ))
    .map_err(|e| anyhow::anyhow!("no graphics adapter can render the window: {e}"))?;
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(size[0], size[1]))
        // A shader's comments may hold characters no bundled font draws.
        .allow_missing_glyphs()
        .renderer(egui_kittest::wgpu::WgpuTestRenderer::from_render_state(state))
        .build_ui_state(|ui, viewer: &mut Viewer| viewer.ui(ui), viewer);
    // Let the layout settle (tables and panels size themselves over a few
    // frames).
    harness.run_steps(10);
    let image = harness.render().map_err(|e| anyhow::anyhow!("cannot render the window without a display: {e}"))?;
    image.save(path).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    Ok(())
}
