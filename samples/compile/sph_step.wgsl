// One step of a smoothed-particle hydrodynamics (SPH) fluid solver, written
// the way game and film fluid solvers write it: particles live in a uniform
// grid whose cells hold fixed-capacity particle lists (built by a binning
// pass such as samples/bench/irregular/binning.wgsl); each workgroup owns a
// block of 64 particles, stages the particles of its block in workgroup
// memory, and then
//   1. computes each particle's density and pressure from its neighbours in
//      the 27 surrounding cells (poly6 kernel),
//   2. after a barrier, computes pressure, viscosity and surface-tension
//      forces (spiky and viscosity kernels), reading the densities its
//      workgroup computed from workgroup memory and the others' from the
//      previous step's buffer,
//   3. integrates velocity and position with boundary collisions, and
//      writes the particle's new state and per-workgroup statistics.
// A shader of several hundred lines with many helpers: the compile-time
// benchmark's own (`scripts/bench compile`), and a race-free sample.
// wgrace: --dispatch 4 --set params.count=256 --set params.grid=8 --set params.cap=8
// wgrace: --set params.h=0.125 --set params.dt=0.004 --set params.rest_density=1000
// wgrace: --set params.stiffness=3 --set params.viscosity=0.02 --set params.tension=0.01
// wgrace: --buffer pos=256 --buffer vel=256 --buffer density_in=256 --buffer density_out=256
// wgrace: --buffer cell_count=512 --buffer cells=4096 --buffer pos_out=256 --buffer vel_out=256
// wgrace: --buffer stats=4 --fill pos=random:11 --fill vel=random:12 --fill density_in=const:1000
// wgrace: --fill cell_count=random:13 --fill cells=random:14
// expect: no-race

struct Params {
    count: u32,
    grid: u32,
    cap: u32,
    h: f32,
    dt: f32,
    rest_density: f32,
    stiffness: f32,
    viscosity: f32,
    tension: f32,
    gravity: vec3<f32>,
}

struct Particle {
    pos: vec3<f32>,
    vel: vec3<f32>,
    density: f32,
    pressure: f32,
}

struct Forces {
    pressure: vec3<f32>,
    viscosity: vec3<f32>,
    tension: vec3<f32>,
    neighbours: u32,
}

struct BlockStats {
    max_speed: f32,
    mean_density: f32,
    collisions: u32,
    lonely: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> density_in: array<f32>;
@group(0) @binding(4) var<storage, read> cell_count: array<u32>;
@group(0) @binding(5) var<storage, read> cells: array<u32>;
@group(0) @binding(6) var<storage, read_write> density_out: array<f32>;
@group(0) @binding(7) var<storage, read_write> pos_out: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> vel_out: array<vec4<f32>>;
@group(0) @binding(9) var<storage, read_write> stats: array<BlockStats>;

const BLOCK: u32 = 64u;
const PI: f32 = 3.14159265;

var<workgroup> block: array<Particle, 64>;
var<workgroup> block_speed: array<f32, 64>;
var<workgroup> block_density: array<f32, 64>;
var<workgroup> block_flags: array<u32, 64>;

// ---------------------------------------------------------------- kernels

fn poly6(r2: f32, h: f32) -> f32 {
    let h2 = h * h;
    if r2 >= h2 {
        return 0.0;
    }
    let d = h2 - r2;
    return 315.0 / (64.0 * PI * pow(h, 9.0)) * d * d * d;
}

fn spiky_gradient(r: vec3<f32>, h: f32) -> vec3<f32> {
    let len = length(r);
    if len >= h || len <= 1e-6 {
        return vec3(0.0);
    }
    let d = h - len;
    return -45.0 / (PI * pow(h, 6.0)) * d * d * (r / len);
}

fn viscosity_laplacian(r: f32, h: f32) -> f32 {
    if r >= h {
        return 0.0;
    }
    return 45.0 / (PI * pow(h, 6.0)) * (h - r);
}

fn cohesion(r: f32, h: f32) -> f32 {
    if r >= h || r <= 1e-6 {
        return 0.0;
    }
    let c = 32.0 / (PI * pow(h, 9.0));
    let a = (h - r) * (h - r) * (h - r) * r * r * r;
    if 2.0 * r > h {
        return c * a;
    }
    return c * (2.0 * a - pow(h, 6.0) / 64.0);
}

fn pressure_of(density: f32) -> f32 {
    // Tait's equation with exponent 7, clamped: no negative pressure.
    let ratio = max(density / max(params.rest_density, 1e-3), 0.0);
    let r2 = ratio * ratio;
    let r7 = r2 * r2 * r2 * ratio;
    return max(params.stiffness * params.rest_density / 7.0 * (r7 - 1.0), 0.0);
}

// ---------------------------------------------------------------- grid

fn grid_size() -> u32 {
    return max(params.grid, 1u);
}

fn cell_of(p: vec3<f32>) -> vec3<i32> {
    let g = f32(grid_size());
    let c = clamp(p, vec3(0.0), vec3(0.999999)) * g;
    return vec3<i32>(c);
}

fn cell_index(c: vec3<i32>) -> u32 {
    let g = grid_size();
    let u = vec3<u32>(c);
    return (u.z * g + u.y) * g + u.x;
}

fn inside_grid(c: vec3<i32>) -> bool {
    let g = i32(grid_size());
    return all(c >= vec3(0)) && all(c < vec3(g));
}

fn cell_particles(cell: u32) -> u32 {
    if cell >= arrayLength(&cell_count) {
        return 0u;
    }
    return min(cell_count[cell], params.cap);
}

fn cell_particle(cell: u32, k: u32) -> u32 {
    let at = cell * params.cap + k;
    if at >= arrayLength(&cells) {
        return 0xffffffffu;
    }
    return cells[at];
}

fn particle_count() -> u32 {
    return min(min(params.count, arrayLength(&pos)), min(arrayLength(&vel), arrayLength(&density_in)));
}

// ---------------------------------------------------------------- loading

fn load_particle(i: u32) -> Particle {
    var p: Particle;
    p.pos = pos[i].xyz;
    p.vel = vel[i].xyz;
    p.density = max(density_in[i], 1e-3);
    p.pressure = pressure_of(p.density);
    return p;
}

// The density a neighbour had: this step's if its block is ours (in
// workgroup memory), else the previous step's.
fn neighbour_density(j: u32, first: u32) -> f32 {
    if j >= first && j < first + BLOCK {
        return block[j - first].density;
    }
    return max(density_in[j], 1e-3);
}

// ---------------------------------------------------------------- phase 1

fn density_at(p: vec3<f32>, h: f32) -> f32 {
    let home = cell_of(p);
    let n = particle_count();
    var rho = 0.0;
    for (var dz = -1; dz <= 1; dz++) {
        for (var dy = -1; dy <= 1; dy++) {
            for (var dx = -1; dx <= 1; dx++) {
                let c = home + vec3(dx, dy, dz);
                if !inside_grid(c) {
                    continue;
                }
                let cell = cell_index(c);
                let m = cell_particles(cell);
                for (var k = 0u; k < m; k++) {
                    let j = cell_particle(cell, k) % max(n, 1u);
                    let r = p - pos[j].xyz;
                    rho += poly6(dot(r, r), h);
                }
            }
        }
    }
    // Every particle counts itself.
    return max(rho + poly6(0.0, h), 1e-3);
}

// ---------------------------------------------------------------- phase 2

fn forces_on(me: Particle, i: u32, first: u32, h: f32) -> Forces {
    var f: Forces;
    let home = cell_of(me.pos);
    let n = particle_count();
    for (var dz = -1; dz <= 1; dz++) {
        for (var dy = -1; dy <= 1; dy++) {
            for (var dx = -1; dx <= 1; dx++) {
                let c = home + vec3(dx, dy, dz);
                if !inside_grid(c) {
                    continue;
                }
                let cell = cell_index(c);
                let m = cell_particles(cell);
                for (var k = 0u; k < m; k++) {
                    let j = cell_particle(cell, k) % max(n, 1u);
                    if j == i {
                        continue;
                    }
                    let other_pos = pos[j].xyz;
                    let other_vel = vel[j].xyz;
                    let rho_j = neighbour_density(j, first);
                    let r = me.pos - other_pos;
                    let dist = length(r);
                    if dist >= h {
                        continue;
                    }
                    f.neighbours += 1u;
                    let p_j = pressure_of(rho_j);
                    f.pressure -= (me.pressure + p_j) / (2.0 * rho_j) * spiky_gradient(r, h);
                    f.viscosity += (other_vel - me.vel) / rho_j * viscosity_laplacian(dist, h);
                    if dist > 1e-6 {
                        f.tension -= cohesion(dist, h) * (r / dist);
                    }
                }
            }
        }
    }
    f.viscosity *= params.viscosity;
    f.tension *= params.tension;
    return f;
}

// ---------------------------------------------------------------- phase 3

struct Integrated {
    pos: vec3<f32>,
    vel: vec3<f32>,
    collided: bool,
}

fn collide(p: vec3<f32>, v: vec3<f32>) -> Integrated {
    var out = Integrated(p, v, false);
    let damping = 0.5;
    for (var axis = 0u; axis < 3u; axis++) {
        if out.pos[axis] < 0.0 {
            out.pos[axis] = -out.pos[axis] * 0.5;
            out.vel[axis] = abs(out.vel[axis]) * damping;
            out.collided = true;
        }
        if out.pos[axis] > 1.0 {
            out.pos[axis] = 1.0 - (out.pos[axis] - 1.0) * 0.5;
            out.vel[axis] = -abs(out.vel[axis]) * damping;
            out.collided = true;
        }
    }
    return out;
}

fn integrate(me: Particle, f: Forces) -> Integrated {
    let total = f.pressure + f.viscosity + f.tension;
    let accel = total / max(me.density, 1e-3) + params.gravity;
    // Semi-implicit Euler with a speed limit (the CFL condition).
    let limit = 0.4 * params.h / max(params.dt, 1e-6);
    var v = me.vel + params.dt * accel;
    let speed = length(v);
    if speed > limit {
        v *= limit / speed;
    }
    return collide(me.pos + params.dt * v, v);
}

// ---------------------------------------------------------------- reduction

fn reduce_block(lid: u32) {
    for (var half = BLOCK / 2u; half > 0u; half >>= 1u) {
        if lid < half {
            block_speed[lid] = max(block_speed[lid], block_speed[lid + half]);
            block_density[lid] += block_density[lid + half];
            block_flags[lid] += block_flags[lid + half];
        }
        workgroupBarrier();
    }
}

// ---------------------------------------------------------------- entry

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = particle_count();
    let first = wid.x * BLOCK;
    let i = first + lid;
    let live = i < n;
    let h = max(params.h, 1e-3);

    // Stage the block, then phase 1: densities.
    if live {
        var me = load_particle(i);
        me.density = density_at(me.pos, h);
        me.pressure = pressure_of(me.density);
        block[lid] = me;
    }
    workgroupBarrier();

    // Phase 2: forces, reading this step's densities of the block.
    var result = Integrated(vec3(0.0), vec3(0.0), false);
    var neighbours = 0u;
    if live {
        let me = block[lid];
        let f = forces_on(me, i, first, h);
        neighbours = f.neighbours;
        result = integrate(me, f);
    }
    workgroupBarrier();

    // Phase 3: write the new state, then the block's statistics.
    if live {
        pos_out[i] = vec4(result.pos, 1.0);
        vel_out[i] = vec4(result.vel, 0.0);
        if i < arrayLength(&density_out) {
            density_out[i] = block[lid].density;
        }
        block_speed[lid] = length(result.vel);
        block_density[lid] = block[lid].density;
        block_flags[lid] = select(0u, 1u, result.collided) | select(0u, 1u << 16u, neighbours == 0u);
    } else {
        block_speed[lid] = 0.0;
        block_density[lid] = 0.0;
        block_flags[lid] = 0u;
    }
    workgroupBarrier();
    reduce_block(lid);
    if lid == 0u && wid.x < arrayLength(&stats) {
        let members = min(n - min(first, n), BLOCK);
        var s: BlockStats;
        s.max_speed = block_speed[0];
        s.mean_density = block_density[0] / f32(max(members, 1u));
        s.collisions = block_flags[0] & 0xffffu;
        s.lonely = block_flags[0] >> 16u;
        stats[wid.x] = s;
    }
}
