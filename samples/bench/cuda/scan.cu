// CUDA twin of samples/bench/scan.wgsl: per-block exclusive prefix sum
// (Blelloch). Each 256-thread block scans its 256 elements in shared memory
// (up-sweep, clear the root, down-sweep; a barrier before every level),
// writes the exclusive sums to `output` and the block's total to `totals`.
// Sizes as scripts/bench: large 65535 blocks (16776960 elements), small 4096
// blocks (1048576 elements).
// `racy` drops the barrier in the up-sweep, as
// samples/bench/racy/scan_no_barrier.wgsl does.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o scan scan.cu
#include "common.cuh"

template <bool Racy>
__global__ void __launch_bounds__(256) scan(const unsigned* __restrict__ input, unsigned* __restrict__ output,
                                            unsigned* __restrict__ totals) {
    __shared__ unsigned temp[256];
    const unsigned lid = threadIdx.x;
    const unsigned gid = blockIdx.x * 256 + lid;
    temp[lid] = input[gid];
    unsigned offset = 1;
    for (unsigned d = 128; d > 0; d >>= 1) {
        if constexpr (!Racy) __syncthreads();
        if (lid < d) {
            const unsigned ai = offset * (2 * lid + 1) - 1;
            const unsigned bi = offset * (2 * lid + 2) - 1;
            temp[bi] = temp[bi] + temp[ai];
        }
        offset = offset * 2;
    }
    // Thread 0 alone wrote the root in the last level.
    if (lid == 0) {
        totals[blockIdx.x] = temp[255];
        temp[255] = 0;
    }
    for (unsigned d = 1; d < 256; d *= 2) {
        offset = offset >> 1;
        __syncthreads();
        if (lid < d) {
            const unsigned ai = offset * (2 * lid + 1) - 1;
            const unsigned bi = offset * (2 * lid + 2) - 1;
            const unsigned t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] = temp[bi] + t;
        }
    }
    __syncthreads();
    output[gid] = temp[lid];
}

int main(int argc, char** argv) {
    const Opts o = parse_args(argc, argv, "scan");
    const unsigned blocks = o.large ? 65535 : 4096;
    const size_t n = size_t(blocks) * 256;

    std::vector<unsigned> hin(n), hout(n), htot(blocks);
    Rng r(4);
    for (auto& x : hin) x = unsigned(r.next() >> 32);  // full range: sums wrap, as u32 in WGSL

    unsigned *din, *dout, *dtot;
    CK(cudaMalloc(&din, n * sizeof(unsigned)));
    CK(cudaMalloc(&dout, n * sizeof(unsigned)));
    CK(cudaMalloc(&dtot, blocks * sizeof(unsigned)));
    CK(cudaMemcpy(din, hin.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0, n * sizeof(unsigned)));
    CK(cudaMemset(dtot, 0, blocks * sizeof(unsigned)));

    auto launch = [&] {
        if (o.racy) scan<true><<<blocks, 256>>>(din, dout, dtot);
        else scan<false><<<blocks, 256>>>(din, dout, dtot);
    };
    const float ms = time_launches(o, launch);
    CK(cudaMemcpy(hout.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(htot.data(), dtot, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));

    // Exact check of every output element and every total (wrapping u32 sums).
    size_t bad = 0;
    for (unsigned b = 0; b < blocks; b++) {
        unsigned run = 0;
        for (unsigned i = 0; i < 256; i++) {
            const size_t g = size_t(b) * 256 + i;
            bad += hout[g] != run;
            run += hin[g];
        }
        bad += htot[b] != run;
    }
    const bool ok = bad == 0;

    char extra[64];
    std::snprintf(extra, sizeof extra, "mismatches=%zu", bad);
    CK(cudaFree(din));
    CK(cudaFree(dout));
    CK(cudaFree(dtot));
    return report("scan", o, ms, ok, extra);
}
