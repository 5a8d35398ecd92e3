// CUDA twin of samples/bench/matmul.wgsl: tiled c = a * b (row-major; a is
// m x k, b is k x n) with 16x16 tiles of a and b in shared memory and a
// barrier after loading the tiles and after using them. Block 16x16, grid
// (n/16, m/16). Sizes as scripts/bench: large m=n=k=2048 (grid 128x128),
// small m=n=k=256 (grid 16x16).
// `racy` drops the barrier after loading the tiles, as
// samples/bench/racy/matmul_no_barrier.wgsl does.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o matmul matmul.cu
#include "common.cuh"

#include <cmath>

template <bool Racy>
__global__ void __launch_bounds__(256) matmul(const float* __restrict__ a, const float* __restrict__ b,
                                              float* __restrict__ c, unsigned n, unsigned k) {
    __shared__ float ta[16][16];
    __shared__ float tb[16][16];
    const unsigned lx = threadIdx.x, ly = threadIdx.y;
    const unsigned row = blockIdx.y * 16 + ly;
    const unsigned col = blockIdx.x * 16 + lx;
    float acc = 0.0f;
    for (unsigned t = 0; t < k; t += 16) {
        ta[ly][lx] = a[row * k + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        if constexpr (!Racy) __syncthreads();
        for (unsigned i = 0; i < 16; i++) {
            acc = acc + ta[ly][i] * tb[i][lx];
        }
        __syncthreads();
    }
    c[row * n + col] = acc;
}

int main(int argc, char** argv) {
    const Opts o = parse_args(argc, argv, "matmul");
    const unsigned m = o.large ? 2048 : 256, n = m, k = m;

    std::vector<float> ha(size_t(m) * k), hb(size_t(k) * n), hc(size_t(m) * n);
    Rng ra(1), rb(2);
    for (auto& x : ha) x = ra.unit();
    for (auto& x : hb) x = rb.unit();

    float *da, *db, *dc;
    CK(cudaMalloc(&da, ha.size() * sizeof(float)));
    CK(cudaMalloc(&db, hb.size() * sizeof(float)));
    CK(cudaMalloc(&dc, hc.size() * sizeof(float)));
    CK(cudaMemcpy(da, ha.data(), ha.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb.data(), hb.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemset(dc, 0, hc.size() * sizeof(float)));

    const dim3 block(16, 16), grid(n / 16, m / 16);
    auto launch = [&] {
        if (o.racy) matmul<true><<<grid, block>>>(da, db, dc, n, k);
        else matmul<false><<<grid, block>>>(da, db, dc, n, k);
    };
    const float ms = time_launches(o, launch);
    CK(cudaMemcpy(hc.data(), dc, hc.size() * sizeof(float), cudaMemcpyDeviceToHost));

    // CPU reference in double, rows split across threads; every element checked.
    std::vector<double> max_err_per_row(m, 0.0);
    parallel_for(m, [&](size_t r0, size_t r1) {
        std::vector<double> acc(n);
        for (size_t r = r0; r < r1; r++) {
            std::fill(acc.begin(), acc.end(), 0.0);
            for (size_t p = 0; p < k; p++) {
                const double av = ha[r * k + p];
                const float* brow = &hb[p * n];
                for (size_t j = 0; j < n; j++) acc[j] += av * brow[j];
            }
            double e = 0.0;
            for (size_t j = 0; j < n; j++) {
                const double got = hc[r * n + j];
                double rel = std::fabs(got - acc[j]) / std::max(std::fabs(acc[j]), 1e-30);
                if (!(rel == rel)) rel = INFINITY;  // NaN output
                e = std::max(e, rel);
            }
            max_err_per_row[r] = e;
        }
    });
    const double max_rel = *std::max_element(max_err_per_row.begin(), max_err_per_row.end());
    const bool ok = max_rel <= 1e-4;

    char extra[64];
    std::snprintf(extra, sizeof extra, "max_rel_err=%.3g", max_rel);
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    return report("matmul", o, ms, ok, extra);
}
