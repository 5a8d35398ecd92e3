// Array of particle structs in storage: each invocation writes the `heat` field
// of the next particle, which that particle's own invocation reads to update
// its position. Neighbours in one workgroup race intra-workgroup; at the
// workgroup boundaries (63/64, and 127 wrapping to 0) they race inter-workgroup.
// wgrace: --dispatch 2 --buffer ps=128
// expect: race
// race: intra-workgroup 25 27
// race: inter-workgroup 25 27

struct Particle {
    pos: vec2<f32>,
    vel: vec2<f32>,
    mass: f32,
    heat: f32,
}

@group(0) @binding(0) var<storage, read_write> ps: array<Particle>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let n = arrayLength(&ps);
    let m = ps[i].mass;
    // Write into the neighbour's element.
    ps[(i + 1u) % n].heat = m * 0.25;
    // Read this element's heat, which the previous invocation writes.
    ps[i].pos = ps[i].pos + ps[i].vel * ps[i].heat;
}
