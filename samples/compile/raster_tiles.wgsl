// A tile-based 2-D rasteriser of the kind vector-graphics and UI renderers
// run on the GPU: each workgroup owns a 16x16-pixel tile of the target and
//   1. bins the scene's shapes that overlap its tile into a bit set in
//      workgroup memory (atomicOr, so any invocation may find any shape),
//   2. after a barrier, walks the set in shape order for every pixel,
//      evaluating each shape's signed distance (circles, rounded boxes,
//      capsules, triangles, rings), its paint (solid, linear or radial
//      gradient) and blending it over the pixel (normal, multiply, screen,
//      additive), and
//   3. writes the packed RGBA8 pixel and, from one invocation, the tile's
//      statistics (shapes binned, pixels fully covered).
// Shape order is the scene's, so the image does not depend on the schedule.
// A shader of several hundred lines with many helpers: the compile-time
// benchmark's own (`scripts/bench compile`), and a race-free sample.
// wgrace: --dispatch 4,4 --set scene.width=64 --set scene.height=64 --set scene.count=40
// wgrace: --buffer shapes=40 --buffer image=4096 --buffer tiles=16 --fill shapes=random:21
// expect: no-race

struct Scene {
    width: u32,
    height: u32,
    count: u32,
    background: u32,
}

// kind: 0 circle, 1 rounded box, 2 capsule, 3 triangle, 4 ring; paint: 0
// solid, 1 linear gradient, 2 radial gradient; blend: 0 normal, 1
// multiply, 2 screen, 3 add. Coordinates are in [0, 1) of the target.
struct Shape {
    kind: u32,
    paint: u32,
    blend: u32,
    flags: u32,
    a: vec2<f32>,
    b: vec2<f32>,
    c: vec2<f32>,
    radius: f32,
    width: f32,
    color0: vec4<f32>,
    color1: vec4<f32>,
}

struct TileStats {
    shapes: u32,
    covered: u32,
}

@group(0) @binding(0) var<uniform> scene: Scene;
@group(0) @binding(1) var<storage, read> shapes: array<Shape>;
@group(0) @binding(2) var<storage, read_write> image: array<u32>;
@group(0) @binding(3) var<storage, read_write> tiles: array<TileStats>;

const TILE: u32 = 16u;
const MAX_SHAPES: u32 = 1024u;
const MASK_WORDS: u32 = 32u;

var<workgroup> tile_mask: array<atomic<u32>, 32>;
var<workgroup> tile_shapes: atomic<u32>;
var<workgroup> tile_covered: atomic<u32>;

// ---------------------------------------------------------------- geometry

fn shape_count() -> u32 {
    return min(min(scene.count, arrayLength(&shapes)), MAX_SHAPES);
}

fn normalised(s: Shape) -> Shape {
    var t = s;
    t.kind = s.kind % 5u;
    t.paint = s.paint % 3u;
    t.blend = s.blend % 4u;
    t.a = fract(abs(s.a));
    t.b = fract(abs(s.b));
    t.c = fract(abs(s.c));
    t.radius = 0.02 + 0.2 * fract(abs(s.radius));
    t.width = 0.005 + 0.05 * fract(abs(s.width));
    t.color0 = clamp(s.color0, vec4(0.0), vec4(1.0));
    t.color1 = clamp(s.color1, vec4(0.0), vec4(1.0));
    return t;
}

fn bounds(s: Shape) -> vec4<f32> {
    let pad = s.radius + s.width;
    switch s.kind {
        case 0u, 4u: {
            return vec4(s.a - vec2(pad), s.a + vec2(pad));
        }
        case 1u: {
            let half = abs(s.b - s.a) * 0.5 + vec2(s.radius);
            let centre = (s.a + s.b) * 0.5;
            return vec4(centre - half, centre + half);
        }
        case 2u: {
            return vec4(min(s.a, s.b) - vec2(pad), max(s.a, s.b) + vec2(pad));
        }
        default: {
            return vec4(min(min(s.a, s.b), s.c) - vec2(s.width), max(max(s.a, s.b), s.c) + vec2(s.width));
        }
    }
}

fn overlaps(box: vec4<f32>, tile: vec4<f32>) -> bool {
    return box.x <= tile.z && box.z >= tile.x && box.y <= tile.w && box.w >= tile.y;
}

// ---------------------------------------------------------------- distances

fn sd_circle(p: vec2<f32>, centre: vec2<f32>, r: f32) -> f32 {
    return length(p - centre) - r;
}

fn sd_round_box(p: vec2<f32>, a: vec2<f32>, b: vec2<f32>, r: f32) -> f32 {
    let centre = (a + b) * 0.5;
    let half = abs(b - a) * 0.5;
    let q = abs(p - centre) - half;
    return length(max(q, vec2(0.0))) + min(max(q.x, q.y), 0.0) - r;
}

fn sd_capsule(p: vec2<f32>, a: vec2<f32>, b: vec2<f32>, r: f32) -> f32 {
    let pa = p - a;
    let ba = b - a;
    let h = clamp(dot(pa, ba) / max(dot(ba, ba), 1e-8), 0.0, 1.0);
    return length(pa - ba * h) - r;
}

fn cross2(a: vec2<f32>, b: vec2<f32>) -> f32 {
    return a.x * b.y - a.y * b.x;
}

fn sd_triangle(p: vec2<f32>, a: vec2<f32>, b: vec2<f32>, c: vec2<f32>) -> f32 {
    let e0 = b - a;
    let e1 = c - b;
    let e2 = a - c;
    let v0 = p - a;
    let v1 = p - b;
    let v2 = p - c;
    let pq0 = v0 - e0 * clamp(dot(v0, e0) / max(dot(e0, e0), 1e-8), 0.0, 1.0);
    let pq1 = v1 - e1 * clamp(dot(v1, e1) / max(dot(e1, e1), 1e-8), 0.0, 1.0);
    let pq2 = v2 - e2 * clamp(dot(v2, e2) / max(dot(e2, e2), 1e-8), 0.0, 1.0);
    let s = sign(cross2(e0, e2));
    let d0 = vec2(dot(pq0, pq0), s * cross2(v0, e0));
    let d1 = vec2(dot(pq1, pq1), s * cross2(v1, e1));
    let d2 = vec2(dot(pq2, pq2), s * cross2(v2, e2));
    let d = min(min(d0, d1), d2);
    return -sqrt(d.x) * sign(d.y);
}

fn sd_ring(p: vec2<f32>, centre: vec2<f32>, r: f32, width: f32) -> f32 {
    return abs(length(p - centre) - r) - width;
}

fn distance_to(s: Shape, p: vec2<f32>) -> f32 {
    switch s.kind {
        case 0u: {
            return sd_circle(p, s.a, s.radius);
        }
        case 1u: {
            return sd_round_box(p, s.a, s.b, s.radius * 0.25);
        }
        case 2u: {
            return sd_capsule(p, s.a, s.b, s.width);
        }
        case 3u: {
            return sd_triangle(p, s.a, s.b, s.c);
        }
        default: {
            return sd_ring(p, s.a, s.radius, s.width);
        }
    }
}

// Coverage of a pixel of size `px` from the signed distance at its centre.
fn coverage(d: f32, px: f32) -> f32 {
    return clamp(0.5 - d / px, 0.0, 1.0);
}

// ---------------------------------------------------------------- paint

fn paint_at(s: Shape, p: vec2<f32>) -> vec4<f32> {
    switch s.paint {
        case 1u: {
            let axis = s.b - s.a;
            let t = clamp(dot(p - s.a, axis) / max(dot(axis, axis), 1e-8), 0.0, 1.0);
            return mix(s.color0, s.color1, t);
        }
        case 2u: {
            let t = clamp(length(p - s.a) / max(s.radius, 1e-4), 0.0, 1.0);
            return mix(s.color0, s.color1, t * t);
        }
        default: {
            return s.color0;
        }
    }
}

fn premultiply(c: vec4<f32>) -> vec4<f32> {
    return vec4(c.rgb * c.a, c.a);
}

fn blend(dst: vec4<f32>, src: vec4<f32>, mode: u32) -> vec4<f32> {
    // Both premultiplied.
    var mixed = src.rgb;
    switch mode {
        case 1u: {
            mixed = src.rgb * dst.rgb + src.rgb * (1.0 - dst.a) + dst.rgb * (1.0 - src.a);
            return vec4(mixed, src.a + dst.a * (1.0 - src.a));
        }
        case 2u: {
            mixed = src.rgb + dst.rgb - src.rgb * dst.rgb;
            return vec4(mixed, src.a + dst.a * (1.0 - src.a));
        }
        case 3u: {
            return min(src + dst, vec4(1.0));
        }
        default: {
            return src + dst * (1.0 - src.a);
        }
    }
}

fn unpack_colour(c: u32) -> vec4<f32> {
    return unpack4x8unorm(c);
}

// The sRGB transfer function, per channel (blending happens in linear
// light; the image is stored in sRGB).
fn linear_to_srgb(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3(1.0 / 2.4)) - vec3(0.055);
    return select(high, low, c <= vec3(0.0031308));
}

fn pack_colour(c: vec4<f32>) -> u32 {
    // Back from premultiplied alpha, then to sRGB.
    let a = max(c.a, 1e-6);
    let straight = clamp(c.rgb / a, vec3(0.0), vec3(1.0));
    return pack4x8unorm(vec4(linear_to_srgb(straight), c.a));
}

// ---------------------------------------------------------------- phases

fn bin_shapes(lid: u32, tile_box: vec4<f32>) {
    let n = shape_count();
    for (var i = lid; i < n; i += TILE * TILE) {
        let s = normalised(shapes[i]);
        if overlaps(bounds(s), tile_box) {
            atomicOr(&tile_mask[i / 32u], 1u << (i % 32u));
            atomicAdd(&tile_shapes, 1u);
        }
    }
}

fn shade_pixel(p: vec2<f32>, px: f32) -> vec4<f32> {
    var colour = premultiply(unpack_colour(scene.background));
    for (var w = 0u; w < MASK_WORDS; w++) {
        var bits = atomicLoad(&tile_mask[w]);
        while bits != 0u {
            let b = countTrailingZeros(bits);
            bits &= bits - 1u;
            let i = w * 32u + b;
            let s = normalised(shapes[i]);
            let cov = coverage(distance_to(s, p), px);
            if cov > 0.0 {
                var src = premultiply(paint_at(s, p));
                src *= cov;
                colour = blend(colour, src, s.blend);
            }
        }
    }
    return colour;
}

// ---------------------------------------------------------------- entry

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let width = max(scene.width, 1u);
    let height = max(scene.height, 1u);
    let size = vec2(f32(width), f32(height));
    let origin = wid.xy * TILE;
    let tile_box = vec4(vec2<f32>(origin) / size, vec2<f32>(origin + vec2(TILE)) / size);

    // Workgroup memory starts at zero: bin straight away.
    bin_shapes(lid, tile_box);
    workgroupBarrier();

    let pixel = origin + lid3.xy;
    if pixel.x < width && pixel.y < height {
        let p = (vec2<f32>(pixel) + vec2(0.5)) / size;
        let colour = shade_pixel(p, 1.0 / max(size.x, size.y));
        let at = pixel.y * width + pixel.x;
        if at < arrayLength(&image) {
            image[at] = pack_colour(colour);
        }
        if colour.a >= 0.999 {
            atomicAdd(&tile_covered, 1u);
        }
    }
    workgroupBarrier();

    let tile = wid.y * nwg.x + wid.x;
    if lid == 0u && tile < arrayLength(&tiles) {
        tiles[tile] = TileStats(atomicLoad(&tile_shapes), atomicLoad(&tile_covered));
    }
}
