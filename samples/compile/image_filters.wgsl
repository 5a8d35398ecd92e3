// An image-processing pass of the kind photo editors and game
// post-processing chains run per 16x16 tile, all in one dispatch:
//   1. load the tile with a 2-pixel halo into workgroup memory (sRGB to
//      linear), clamping at the image's edges,
//   2. blur it with a separable 5-tap Gaussian (rows, barrier, columns),
//   3. per pixel: a bilateral filter, Sobel edge strength, unsharp masking,
//      lens aberration and vignetting, exposure and a filmic tone curve, and
//      film grain, and
//   4. build the tile's 64-bin luminance histogram in workgroup atomics and
//      add it to the image's, and reduce the tile's mean luminance.
// Outputs: the processed image (packed RGBA8), the edge map, the histogram
// and one mean per tile. A shader of several hundred lines with many
// helpers: the compile-time benchmark's own (`scripts/bench compile`), and a
// race-free sample.
// wgrace: --dispatch 4,4 --set params.width=64 --set params.height=64 --set params.exposure=1.5
// wgrace: --set params.sharpen=0.6 --set params.edge_gain=2 --buffer src=4096 --buffer dst=4096
// wgrace: --buffer edges=4096 --buffer tile_mean=16 --fill src=random:31 --fill histogram=zero
// expect: no-race

struct Params {
    width: u32,
    height: u32,
    exposure: f32,
    sharpen: f32,
    edge_gain: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<storage, read_write> edges: array<f32>;
@group(0) @binding(4) var<storage, read_write> histogram: array<atomic<u32>, 64>;
@group(0) @binding(5) var<storage, read_write> tile_mean: array<f32>;

const TILE: u32 = 16u;
const HALO: u32 = 2u;
const SPAN: u32 = 20u; // TILE + 2 * HALO
const BINS: u32 = 64u;

// The tile with its halo, in linear light, and its luminance.
var<workgroup> rgb: array<array<vec3<f32>, 20>, 20>;
var<workgroup> luma: array<array<f32, 20>, 20>;
// Rows blurred horizontally (all 20 rows, the 16 inner columns).
var<workgroup> row_blur: array<array<vec3<f32>, 16>, 20>;
var<workgroup> bins: array<atomic<u32>, 64>;
var<workgroup> partial: array<f32, 256>;

// ---------------------------------------------------------------- colour

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let low = c / 12.92;
    let high = pow((c + vec3(0.055)) / 1.055, vec3(2.4));
    return select(high, low, c <= vec3(0.04045));
}

fn linear_to_srgb(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3(1.0 / 2.4)) - vec3(0.055);
    return select(high, low, c <= vec3(0.0031308));
}

fn luminance(c: vec3<f32>) -> f32 {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

// A filmic curve (Narkowicz's fit of the ACES reference transform).
fn filmic(x: vec3<f32>) -> vec3<f32> {
    let a = 2.51;
    let b = 0.03;
    let c = 2.43;
    let d = 0.59;
    let e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), vec3(0.0), vec3(1.0));
}

fn saturate_colour(c: vec3<f32>, amount: f32) -> vec3<f32> {
    let l = luminance(c);
    return max(mix(vec3(l), c, amount), vec3(0.0));
}

// ---------------------------------------------------------------- image

fn image_size() -> vec2<u32> {
    return vec2(max(params.width, 1u), max(params.height, 1u));
}

fn pixel_count() -> u32 {
    let s = image_size();
    return min(s.x * s.y, arrayLength(&src));
}

// The source pixel at `p`, clamped to the image (edges repeat).
fn fetch(p: vec2<i32>) -> vec3<f32> {
    let s = vec2<i32>(image_size());
    let q = clamp(p, vec2(0), s - vec2(1));
    let at = u32(q.y) * u32(s.x) + u32(q.x);
    if at >= arrayLength(&src) {
        return vec3(0.0);
    }
    return srgb_to_linear(unpack4x8unorm(src[at]).rgb);
}

// ---------------------------------------------------------------- stage 1

fn load_tile(lid: u32, origin: vec2<i32>) {
    for (var k = lid; k < SPAN * SPAN; k += TILE * TILE) {
        let y = k / SPAN;
        let x = k % SPAN;
        let c = fetch(origin + vec2(i32(x), i32(y)) - vec2(i32(HALO)));
        rgb[y][x] = c;
        luma[y][x] = luminance(c);
    }
    if lid < BINS {
        atomicStore(&bins[lid], 0u);
    }
}

// ---------------------------------------------------------------- stage 2

fn gaussian_weight(offset: i32) -> f32 {
    switch abs(offset) {
        case 0: {
            return 0.375;
        }
        case 1: {
            return 0.25;
        }
        default: {
            return 0.0625;
        }
    }
}

fn blur_rows(lid: u32) {
    for (var k = lid; k < SPAN * TILE; k += TILE * TILE) {
        let y = k / TILE;
        let x = k % TILE + HALO;
        var sum = vec3(0.0);
        for (var o = -2; o <= 2; o++) {
            sum += gaussian_weight(o) * rgb[y][u32(i32(x) + o)];
        }
        row_blur[y][x - HALO] = sum;
    }
}

fn blur_column(local: vec2<u32>) -> vec3<f32> {
    var sum = vec3(0.0);
    for (var o = -2; o <= 2; o++) {
        sum += gaussian_weight(o) * row_blur[u32(i32(local.y + HALO) + o)][local.x];
    }
    return sum;
}

// ---------------------------------------------------------------- stage 3

// Edge-preserving smoothing: a 5x5 bilateral filter over the tile, weights
// falling off with distance and with the difference in luminance.
fn bilateral(local: vec2<u32>) -> vec3<f32> {
    let cx = local.x + HALO;
    let cy = local.y + HALO;
    let centre = luma[cy][cx];
    var sum = vec3(0.0);
    var weight = 0.0;
    for (var dy = -2; dy <= 2; dy++) {
        for (var dx = -2; dx <= 2; dx++) {
            let y = u32(i32(cy) + dy);
            let x = u32(i32(cx) + dx);
            let spatial = exp(-f32(dx * dx + dy * dy) / 4.5);
            let diff = luma[y][x] - centre;
            let range = exp(-diff * diff / 0.02);
            let w = spatial * range;
            sum += w * rgb[y][x];
            weight += w;
        }
    }
    return sum / max(weight, 1e-6);
}

// Lateral chromatic aberration of a lens: red and blue sampled one pixel
// out and in along the direction from the image centre.
fn aberration(local: vec2<u32>, pixel: vec2<u32>, size: vec2<u32>, c: vec3<f32>) -> vec3<f32> {
    let from_centre = vec2<f32>(pixel) - vec2<f32>(size) * 0.5;
    let dir = vec2<i32>(sign(from_centre));
    let x = i32(local.x + HALO);
    let y = i32(local.y + HALO);
    let outer = rgb[u32(y + dir.y)][u32(x + dir.x)];
    let inner = rgb[u32(y - dir.y)][u32(x - dir.x)];
    return vec3(outer.r, c.g, inner.b);
}

fn vignette(pixel: vec2<u32>, size: vec2<u32>) -> f32 {
    let uv = (vec2<f32>(pixel) + vec2(0.5)) / vec2<f32>(size) - vec2(0.5);
    return clamp(1.0 - 0.6 * dot(uv, uv) * 2.0, 0.0, 1.0);
}

// Film grain from a hash of the pixel: the same every run.
fn grain(pixel: vec2<u32>) -> f32 {
    var h = pixel.x * 0x8da6b343u ^ pixel.y * 0xd8163841u;
    h ^= h >> 13u;
    h *= 0x85ebca6bu;
    h ^= h >> 16u;
    return (f32(h & 0xffffu) / 65535.0 - 0.5) * 0.02;
}

fn sobel(local: vec2<u32>) -> f32 {
    let x = local.x + HALO;
    let y = local.y + HALO;
    let tl = luma[y - 1u][x - 1u];
    let t = luma[y - 1u][x];
    let tr = luma[y - 1u][x + 1u];
    let l = luma[y][x - 1u];
    let r = luma[y][x + 1u];
    let bl = luma[y + 1u][x - 1u];
    let b = luma[y + 1u][x];
    let br = luma[y + 1u][x + 1u];
    let gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
    let gy = (bl + 2.0 * b + br) - (tl + 2.0 * t + tr);
    return sqrt(gx * gx + gy * gy);
}

fn unsharp(original: vec3<f32>, blurred: vec3<f32>, amount: f32) -> vec3<f32> {
    return max(original + amount * (original - blurred), vec3(0.0));
}

// Levels: black and white points and a mid-tone gamma, per channel.
fn levels(c: vec3<f32>, black: f32, white: f32, gamma: f32) -> vec3<f32> {
    let range = max(white - black, 1e-4);
    let t = clamp((c - vec3(black)) / range, vec3(0.0), vec3(1.0));
    return pow(t, vec3(1.0 / max(gamma, 1e-3)));
}

fn tone(c: vec3<f32>) -> vec3<f32> {
    let exposed = c * max(params.exposure, 0.0);
    let mapped = filmic(saturate_colour(exposed, 1.1));
    return linear_to_srgb(levels(mapped, 0.01, 0.99, 1.05));
}

fn bin_of(l: f32) -> u32 {
    // Log-spaced bins over [2^-10, 2^6) of luminance.
    let ev = clamp(log2(max(l, 1e-6)) + 10.0, 0.0, 15.999);
    return min(u32(ev * f32(BINS) / 16.0), BINS - 1u);
}

// ---------------------------------------------------------------- stage 4

fn reduce_mean(lid: u32) {
    for (var half = TILE * TILE / 2u; half > 0u; half >>= 1u) {
        if lid < half {
            partial[lid] += partial[lid + half];
        }
        workgroupBarrier();
    }
}

// ---------------------------------------------------------------- entry

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) local: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let size = image_size();
    let origin = vec2<i32>(wid.xy * TILE);

    load_tile(lid, origin);
    workgroupBarrier();
    blur_rows(lid);
    workgroupBarrier();

    let pixel = wid.xy * TILE + local.xy;
    let inside = pixel.x < size.x && pixel.y < size.y;
    let original = bilateral(local.xy);
    let blurred = blur_column(local.xy);
    let edge = sobel(local.xy) * params.edge_gain;
    let sharp = aberration(local.xy, pixel, size, unsharp(original, blurred, params.sharpen));
    let shown = clamp(tone(sharp * vignette(pixel, size)) + vec3(grain(pixel)), vec3(0.0), vec3(1.0));
    let l = luminance(sharp);
    if inside {
        let at = pixel.y * size.x + pixel.x;
        if at < min(arrayLength(&dst), arrayLength(&edges)) {
            dst[at] = pack4x8unorm(vec4(shown, 1.0));
            edges[at] = edge;
        }
        atomicAdd(&bins[bin_of(l)], 1u);
    }
    partial[lid] = select(0.0, l, inside);
    workgroupBarrier();

    if lid < BINS {
        let count = atomicLoad(&bins[lid]);
        if count != 0u {
            atomicAdd(&histogram[lid], count);
        }
    }
    reduce_mean(lid);
    let tile = wid.y * nwg.x + wid.x;
    if lid == 0u && tile < arrayLength(&tile_mean) {
        let w = min(size.x - min(wid.x * TILE, size.x), TILE);
        let h = min(size.y - min(wid.y * TILE, size.y), TILE);
        tile_mean[tile] = partial[0] / f32(max(w * h, 1u));
    }
}
