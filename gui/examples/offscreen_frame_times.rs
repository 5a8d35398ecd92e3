//! Frame times of the viewer rendered as its window renders, without a
//! window: `cargo run --release -p wgrace-gui --features frame-times
//! --example offscreen_frame_times -- REPORT.json [ROWS]`.
//!
//! The report is made large as for the `frame_times` example, and after 10
//! frames that open the window (printed apart: the first compiles egui's
//! shaders and fills the font atlas) the selection moves down one row per
//! frame for 300 frames. Each frame is laid
//! out, tessellated and drawn by egui's wgpu renderer with the options of
//! `wgrace-gui`'s window (not the reproducible ones of the headless
//! screenshots) into a 1280x800 texture cleared to the panels' colour, and
//! the frame ends when the adapter has finished drawing it. What a window
//! adds, presenting the image, is left out; nothing is read back. This
//! measures the adapter's share of a frame on machines without a display
//! (lavapipe on a many-core host, say). A measurement for docs/viewer.md,
//! not a test.

use std::time::Instant;

use eframe::egui_wgpu::{self, RendererOptions, ScreenDescriptor, WgpuConfiguration, wgpu};
use wgrace_gui::{Viewer, egui};

#[path = "common/large.rs"]
mod large;

const FRAMES: usize = 300;
const SIZE: [u32; 2] = [1280, 800];

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or_else(|| anyhow::anyhow!("usage: offscreen_frame_times REPORT.json [ROWS]"))?;
    let rows: usize = args.next().map_or(Ok(4096), |a| a.parse())?;
    let mut viewer = Viewer::new(large::report(&path, rows)?);
    viewer.leave_background_to_window();

    let config = WgpuConfiguration::default();
    let instance = pollster::block_on(config.wgpu_setup.new_instance());
    let state =
        pollster::block_on(egui_wgpu::RenderState::create(&config, &instance, None, RendererOptions::default()))
            .map_err(|e| anyhow::anyhow!("no adapter: {e}"))?;
    let info = state.adapter.get_info();
    let target = state.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("frame"),
        size: wgpu::Extent3d { width: SIZE[0], height: SIZE[1], depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: state.target_format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let view = target.create_view(&wgpu::TextureViewDescriptor::default());
    let screen = ScreenDescriptor { size_in_pixels: SIZE, pixels_per_point: 1.0 };
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(SIZE[0] as f32, SIZE[1] as f32))),
        ..Default::default()
    };

    let ctx = egui::Context::default();
    if std::env::var_os("NO_SCROLL_ANIMATION").is_some() {
        ctx.global_style_mut(|s| s.scroll_animation = egui::style::ScrollAnimation::none());
    }
    let (mut passes, mut frames, mut uploads, mut opening) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // The first frames size the panels and fill the font atlas.
    for frame in 0..FRAMES + 10 {
        let start = Instant::now();
        if frame >= 10 {
            viewer.select_shown(frame - 10);
        }
        let output = ctx.run_ui(input.clone(), |ui| viewer.ui(ui));
        let jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
        let pass = start.elapsed();
        let mut renderer = state.renderer.write();
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                renderer.update_texture(&state.device, &state.queue, *id, delta);
            }
        }
        let mut encoder = state.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let mut commands = renderer.update_buffers(&state.device, &state.queue, &mut encoder, &jobs, &screen);
        let [r, g, b, a] = ctx.global_style().visuals.panel_fill.to_normalized_gamma_f32();
        {
            let mut render_pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("viewer"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        resolve_target: None,
                        depth_slice: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color {
                                r: f64::from(r),
                                g: f64::from(g),
                                b: f64::from(b),
                                a: f64::from(a),
                            }),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            renderer.render(&mut render_pass, &jobs, &screen);
        }
        commands.push(encoder.finish());
        state.queue.submit(commands);
        state.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| anyhow::anyhow!("{e}"))?;
        for id in &output.textures_delta.free {
            renderer.free_texture(id);
        }
        if frame >= 10 {
            passes.push(pass.as_secs_f64() * 1e3);
            frames.push(start.elapsed().as_secs_f64() * 1e3);
            uploads.push(!output.textures_delta.set.is_empty());
        } else {
            opening.push(format!("{:.1}", start.elapsed().as_secs_f64() * 1e3));
        }
    }
    // Which frames were slowest (by their index among the measured ones).
    let mut slowest: Vec<(usize, f64)> = frames.iter().copied().enumerate().collect();
    slowest.sort_by(|a, b| b.1.total_cmp(&a.1));
    let slowest: Vec<String> = slowest
        .iter()
        .take(5)
        .map(|&(i, t)| format!("{i}: {t:.1} ms{}", if uploads[i] { " (texture upload)" } else { "" }))
        .collect();
    let uploaded = uploads.iter().filter(|&&u| u).count();
    println!(
        "{} rows, {FRAMES} frames on {} ({:?}), each selecting the next row:",
        viewer.shown().count(),
        info.name,
        info.backend
    );
    println!("  opening, the first 10 frames (ms): {}", opening.join(", "));
    println!("  slowest frames: {}; {uploaded} frames uploaded texture data", slowest.join(", "));
    println!("  UI pass and tessellation:            {}", large::summary(&mut passes));
    println!("  the same, drawn (no presentation):   {}", large::summary(&mut frames));
    Ok(())
}
