// CUDA twin of samples/bench/reduction.wgsl: per-block sum of a large array.
// A grid-stride loop folds the input into one value per thread, then a tree in
// shared memory, with a barrier after every step, reduces the block's 256
// values; thread 0 writes partial[block]. Block 256. Sizes as scripts/bench:
// large 4096 blocks over 67108864 floats, small 256 blocks over 4194304.
// `racy` drops the barrier inside the tree loop, as
// samples/bench/racy/reduction_no_barrier.wgsl does.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o reduction reduction.cu
#include "common.cuh"

#include <cmath>

template <bool Racy>
__global__ void __launch_bounds__(256) reduction(const float* __restrict__ input, float* __restrict__ partial,
                                                 unsigned n) {
    __shared__ float s[256];
    const unsigned lid = threadIdx.x;
    const unsigned gid = blockIdx.x * 256 + lid;
    const unsigned stride = gridDim.x * 256;
    float acc = 0.0f;
    for (unsigned i = gid; i < n; i += stride) {
        acc = acc + input[i];
    }
    s[lid] = acc;
    __syncthreads();
    for (unsigned half = 128; half > 0; half >>= 1) {
        if (lid < half) {
            s[lid] = s[lid] + s[lid + half];
        }
        if constexpr (!Racy) __syncthreads();
    }
    if (lid == 0) {
        partial[blockIdx.x] = s[0];
    }
}

int main(int argc, char** argv) {
    const Opts o = parse_args(argc, argv, "reduction");
    const unsigned blocks = o.large ? 4096 : 256;
    const unsigned n = o.large ? 67108864u : 4194304u;

    std::vector<float> hin(n), hpart(blocks);
    Rng r(3);
    for (auto& x : hin) x = r.unit();

    float *din, *dpart;
    CK(cudaMalloc(&din, size_t(n) * sizeof(float)));
    CK(cudaMalloc(&dpart, blocks * sizeof(float)));
    CK(cudaMemcpy(din, hin.data(), size_t(n) * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(dpart, 0, blocks * sizeof(float)));

    auto launch = [&] {
        if (o.racy) reduction<true><<<blocks, 256>>>(din, dpart, n);
        else reduction<false><<<blocks, 256>>>(din, dpart, n);
    };
    const float ms = time_launches(o, launch);
    CK(cudaMemcpy(hpart.data(), dpart, blocks * sizeof(float), cudaMemcpyDeviceToHost));

    // Block b sums the 256-element chunks c with c % blocks == b (grid stride).
    std::vector<double> ref(blocks, 0.0);
    for (size_t i = 0; i < n; i++) ref[(i / 256) % blocks] += hin[i];
    double max_rel = 0.0;
    for (unsigned b = 0; b < blocks; b++) {
        double rel = std::fabs(hpart[b] - ref[b]) / std::max(std::fabs(ref[b]), 1e-30);
        if (!(rel == rel)) rel = INFINITY;
        max_rel = std::max(max_rel, rel);
    }
    const bool ok = max_rel <= 1e-4;

    char extra[64];
    std::snprintf(extra, sizeof extra, "max_rel_err=%.3g", max_rel);
    CK(cudaFree(din));
    CK(cudaFree(dpart));
    return report("reduction", o, ms, ok, extra);
}
