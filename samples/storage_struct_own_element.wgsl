// Array of structs with vec3, f32, u32 and matrix fields; each invocation reads
// and updates only its own element (component stores, matrix element and
// column stores, whole-field stores), so nothing is shared: race-free.
// wgrace: --dispatch 2 --buffer bodies=128
// expect: no-race

struct Body {
    pos: vec3<f32>,
    mass: f32,
    vel: vec3<f32>,
    hits: u32,
    frame: mat3x3<f32>,
    spin: mat2x2<f32>,
}

@group(0) @binding(0) var<storage, read_write> bodies: array<Body>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let dt = 0.125;
    bodies[i].vel.y = bodies[i].vel.y - 9.75 * dt;
    bodies[i].pos = bodies[i].pos + bodies[i].vel * dt;
    bodies[i].mass = bodies[i].mass * 0.5 + 1.0;
    bodies[i].hits = bodies[i].hits + 1u;
    bodies[i].frame[1][2] = bodies[i].pos.x;
    bodies[i].frame[2] = vec3<f32>(bodies[i].mass, 0.0, 1.0);
    bodies[i].spin = bodies[i].spin * mat2x2<f32>(0.0, 1.0, -1.0, 0.0);
}
