#version 450
// Two workgroups of one invocation exchange a word with device-scope
// atomics: atomics whose scopes hold both invocations do not race.
// original: ScoR: microbenchmarks/norace_interblock_atom (no race)
// wgrace: --dispatch 2
// expect: no-race
// output: nondeterministic: which exchange comes last depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    atomicExchange(data, gl_WorkGroupID.x + 1u);
}
