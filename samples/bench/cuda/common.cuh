// Shared helpers of the CUDA twins of samples/bench kernels (matmul.cu,
// reduction.cu, scan.cu): error checks, arguments, random fill and timing.
//
// Every program takes, in any order:
//   clean | racy     the variant (default clean; racy drops one __syncthreads)
//   small | large    the problem size, as the lines of scripts/bench (default large)
//   warmup=N iters=N launches before timing (default 2) and timed (default 10)
// and prints one line `kernel=K variant=V size=S ms=MEDIAN ok=0|1 ...`.
// A clean run that fails verification exits 1; a racy one never fails on it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__,     \
                         __LINE__, #call, cudaGetErrorName(err_),             \
                         cudaGetErrorString(err_));                           \
            std::exit(3);                                                     \
        }                                                                     \
    } while (0)

struct Opts {
    bool racy = false;
    bool large = true;
    int warmup = 2;
    int iters = 10;
    const char* variant() const { return racy ? "racy" : "clean"; }
    const char* size() const { return large ? "large" : "small"; }
};

inline Opts parse_args(int argc, char** argv, const char* kernel) {
    Opts o;
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        if (!std::strcmp(a, "racy")) o.racy = true;
        else if (!std::strcmp(a, "clean")) o.racy = false;
        else if (!std::strcmp(a, "large")) o.large = true;
        else if (!std::strcmp(a, "small")) o.large = false;
        else if (!std::strncmp(a, "warmup=", 7)) o.warmup = std::atoi(a + 7);
        else if (!std::strncmp(a, "iters=", 6)) o.iters = std::atoi(a + 6);
        else {
            std::fprintf(stderr, "usage: %s [clean|racy] [small|large] [warmup=N] [iters=N]\n", kernel);
            std::exit(2);
        }
    }
    if (o.warmup < 0 || o.iters < 1) {
        std::fprintf(stderr, "%s: warmup must be >= 0 and iters >= 1\n", kernel);
        std::exit(2);
    }
    return o;
}

// xorshift64*: a fixed-seed generator, so every run sees the same inputs.
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    float unit() { return float(next() >> 40) * (1.0f / 16777216.0f); }  // [0, 1)
};

// Runs launch() warmup times, then iters times with a cudaEvent pair around
// each launch; checks the launch error after every launch and the execution
// error after every synchronisation. Returns the median of the timed launches.
template <typename Launch>
float time_launches(const Opts& o, Launch launch) {
    for (int i = 0; i < o.warmup; i++) {
        launch();
        CK(cudaGetLastError());
    }
    CK(cudaDeviceSynchronize());
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    std::vector<float> ms(o.iters);
    for (int i = 0; i < o.iters; i++) {
        CK(cudaEventRecord(start));
        launch();
        CK(cudaGetLastError());
        CK(cudaEventRecord(stop));
        CK(cudaEventSynchronize(stop));
        CK(cudaEventElapsedTime(&ms[i], start, stop));
        std::fprintf(stderr, "# launch %d: %.3f ms\n", i, ms[i]);
    }
    CK(cudaDeviceSynchronize());
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
    std::sort(ms.begin(), ms.end());
    int n = o.iters;
    return n % 2 ? ms[n / 2] : 0.5f * (ms[n / 2 - 1] + ms[n / 2]);
}

// Runs body(begin, end) over [0, n) split across the host's cores.
template <typename Body>
void parallel_for(size_t n, Body body) {
    unsigned t = std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
    std::vector<std::thread> pool;
    size_t chunk = (n + t - 1) / t;
    for (unsigned i = 0; i < t; i++) {
        size_t b = i * chunk, e = std::min(n, b + chunk);
        if (b >= e) break;
        pool.emplace_back(body, b, e);
    }
    for (auto& th : pool) th.join();
}

// Prints the result line and picks the exit status.
inline int report(const char* kernel, const Opts& o, float ms, bool ok, const char* extra) {
    std::printf("kernel=%s variant=%s size=%s ms=%.4f ok=%d launches=%d %s\n", kernel, o.variant(),
                o.size(), ms, ok ? 1 : 0, o.iters, extra);
    std::fflush(stdout);
    if (!ok && !o.racy) {
        std::fprintf(stderr, "%s: clean variant failed verification\n", kernel);
        return 1;
    }
    return 0;
}
