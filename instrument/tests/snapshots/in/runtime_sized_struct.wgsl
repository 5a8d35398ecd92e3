// Covers: a storage struct with fixed fields and a runtime-sized array as its
// last member. Accesses to the header fields and to fields of the tail's
// elements are tracked with offsets computed from the struct layout;
// arrayLength reads no memory and gets no hook.

struct Particle {
    position: vec3<f32>,
    mass: f32,
}

struct Particles {
    count: atomic<u32>,
    gravity: f32,
    items: array<Particle>,
}

@group(0) @binding(0) var<storage, read_write> particles: Particles;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= arrayLength(&particles.items) {
        return;
    }
    let p = particles.items[gid.x];
    particles.items[gid.x].position = p.position + vec3<f32>(0.0, particles.gravity * p.mass, 0.0);
    particles.items[gid.x].mass = p.mass * 0.5;
    atomicAdd(&particles.count, 1u);
}
