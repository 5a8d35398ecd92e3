struct Particle {
    position: vec3<f32>,
    mass: f32,
}

struct Particles {
    count: atomic<u32>,
    gravity: f32,
    items: array<Particle>,
}

@group(0) @binding(0)
var<storage, read_write> particles: Particles;

fn main_1(gid: vec3<u32>) {
    if (gid.x >= arrayLength((&particles.items))) {
        return;
    }
    let p = particles.items[gid.x];
    wgrace_storage_access(0u, (4u + (gid.x * 4u)), 4u, (true && (gid.x < arrayLength((&particles.items)))), 0u, 0u, false, false);
    let _e52 = arrayLength((&particles.items));
    if (gid.x >= _e52) {
        wgrace_index_out_of_bounds(0u, gid.x, _e52);
    }
    let _e55 = arrayLength((&particles.items));
    if (gid.x >= _e55) {
        wgrace_index_out_of_bounds(1u, gid.x, _e55);
    }
    let _e19 = particles.gravity;
    wgrace_storage_access(0u, 1u, 1u, true, 1u, 1u, false, true);
    wgrace_storage_access(0u, (4u + (gid.x * 4u)), 3u, (true && (gid.x < arrayLength((&particles.items)))), 2u, 2u, true, false);
    particles.items[gid.x].position = (p.position + vec3<f32>(0f, (_e19 * p.mass), 0f));
    let _e80 = arrayLength((&particles.items));
    if (gid.x >= _e80) {
        wgrace_index_out_of_bounds(2u, gid.x, _e80);
    }
    wgrace_storage_access(0u, (7u + (gid.x * 4u)), 1u, (true && (gid.x < arrayLength((&particles.items)))), 3u, 3u, true, false);
    particles.items[gid.x].mass = (p.mass * 0.5f);
    let _e37 = atomicAdd((&particles.count), 1u);
    return;
}

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>, @builtin(local_invocation_id) param_2: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    let _e3 = wgrace_workgroup_id();
    main_1(((_e3 * vec3<u32>(64u, 1u, 1u)) + param_2));
    wgrace_end();
    return;
}
