// validate-mlp-probe: the two constants of the cost model's memory-level-parallelism term,
// measured (analyzer/CostModel.h, docs/cost-model.md).
//
//   1. Latency: one thread follows a random cyclic chain of 128-byte lines (a pointer chase:
//      each load's address is the previous load's value), over 8 MB (L2-resident), 256 MB
//      and 1 GiB (DRAM: no line visited twice). ns per step = the unloaded latency.
//   2. Bytes in flight against bandwidth: every thread of a persistent grid (SMs x B blocks of
//      256 threads, B = 1, 2, 4, 8 resident per SM, held there by dynamic shared memory) copies
//      (and, separately, only reads) K independent elements of T (float or float4, K = 1, 2, 4,
//      8) per iteration of a grid-stride loop that is not unrolled (#pragma unroll 1): the
//      bytes in flight per SM are B x 256 x K x sizeof(T), from 1 KB to 256 KB. Bandwidth over
//      1 GiB read (+ 1 GiB written for the copy), median of 15 timed launches after 3 warm-ups.
//      In the rising part Little's law gives the loaded latency: in flight x SMs / read rate.
//
//   validate-mlp-probe [--json FILE]      prints the tables; --json writes every number
//
// Standalone (not in the runner's registry: not kernels the analyzer judges).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#define CK(call)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, \
                   __LINE__);                                                             \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (0)

namespace {

constexpr size_t kBytes = size_t(1) << 30;  // 1 GiB read per bandwidth launch
constexpr int kThreads = 256;

__global__ void scatter_chain(unsigned* buf, const unsigned* next_line, unsigned lines) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lines) buf[size_t(i) * 32] = next_line[i] * 32u;  // word index of the next line
}

__global__ void chase(const unsigned* __restrict__ buf, unsigned steps, unsigned* at) {
  unsigned p = *at;
  for (unsigned s = 0; s < steps; ++s) p = buf[p];
  *at = p;
}

template <typename T, int K>
__global__ void copy_k(const T* __restrict__ in, T* __restrict__ out, size_t n) {
  const size_t per = n / K;  // each of the K loads walks its own 1/K of the array
  const size_t stride = size_t(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < per; i += stride) {
    T v[K];
#pragma unroll
    for (int j = 0; j < K; ++j) v[j] = in[i + j * per];
#pragma unroll
    for (int j = 0; j < K; ++j) out[i + j * per] = v[j];
  }
}

__device__ __forceinline__ float fsum(float v) { return v; }
__device__ __forceinline__ float fsum(float4 v) { return v.x + v.y + v.z + v.w; }

template <typename T, int K>
__global__ void read_k(const T* __restrict__ in, float* __restrict__ sink, size_t n) {
  const size_t per = n / K;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  float acc = 0.f;
#pragma unroll 1
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < per; i += stride) {
    T v[K];
#pragma unroll
    for (int j = 0; j < K; ++j) v[j] = in[i + j * per];
#pragma unroll
    for (int j = 0; j < K; ++j) acc += fsum(v[j]);
  }
  if (acc == 1234.5f) *sink = acc;  // never true on these inputs: keeps the loads alive
}

struct Result {
  std::string kind, type;
  int k, blocks_per_sm, warps_per_sm, occupancy_blocks;
  double inflight_per_sm, ms, read_tbps, total_tbps, latency_ns;
};

template <typename F>
double time_ms(F launch, int reps = 15) {
  for (int i = 0; i < 3; ++i) launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return t[t.size() / 2];
}

int g_sms = 0;
size_t g_smem_per_sm = 0;
void* g_in = nullptr;
void* g_out = nullptr;
float* g_sink = nullptr;

template <typename T, int K>
void sweep_one(std::vector<Result>& res, bool copy, int b) {
  const size_t n = kBytes / sizeof(T);
  // Dynamic shared memory that lets only b blocks of this kernel share an SM.
  size_t smem = g_smem_per_sm / b - 1024 - 1;  // the runtime reserves 1 KB per block
  smem = std::min<size_t>(smem, 227 * 1024);
  smem = (smem / 1024) * 1024;
  if (b >= 8) smem = 0;  // 8 x 256 threads = 2048: the thread limit holds it at 8
  const void* fn = copy ? (const void*)&copy_k<T, K> : (const void*)&read_k<T, K>;
  CK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  int occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, kThreads, smem));
  const int grid = g_sms * b;
  double ms;
  if (copy)
    ms = time_ms([&] {
      copy_k<T, K><<<grid, kThreads, smem>>>((const T*)g_in, (T*)g_out, n);
    });
  else
    ms = time_ms([&] { read_k<T, K><<<grid, kThreads, smem>>>((const T*)g_in, g_sink, n); });
  Result r;
  r.kind = copy ? "copy" : "read";
  r.type = sizeof(T) == 4 ? "float" : "float4";
  r.k = K;
  r.blocks_per_sm = b;
  r.occupancy_blocks = occ;
  r.warps_per_sm = std::min(b, occ) * kThreads / 32;
  r.inflight_per_sm = double(std::min(b, occ)) * kThreads * K * sizeof(T);
  r.ms = ms;
  r.read_tbps = kBytes / (ms * 1e-3) / 1e12;
  r.total_tbps = (copy ? 2 : 1) * r.read_tbps;
  r.latency_ns = r.inflight_per_sm * g_sms / (r.read_tbps * 1e12) * 1e9;  // Little's law
  res.push_back(r);
}

template <typename T, int K>
void sweep_k(std::vector<Result>& res) {
  for (int copy = 1; copy >= 0; --copy)
    for (int b : {1, 2, 4, 8}) sweep_one<T, K>(res, copy, b);
}

}  // namespace

int main(int argc, char** argv) {
  const char* json = nullptr;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--json" && i + 1 < argc) json = argv[++i];
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  g_smem_per_sm = prop.sharedMemPerMultiprocessor;
  std::printf("GPU %s, %d SMs, %zu B shared per SM, L2 %d B\n", prop.name, g_sms,
              g_smem_per_sm, prop.l2CacheSize);

  // ---- 1. pointer chase ------------------------------------------------------------------
  struct Lat { size_t bytes; double ns; };
  std::vector<Lat> lats;
  {
    unsigned* buf;
    unsigned *dnext, *dout;
    CK(cudaMalloc(&buf, kBytes));
    CK(cudaMalloc(&dout, 4));
    std::mt19937_64 rng(12345);
    for (size_t bytes : {size_t(8) << 20, size_t(256) << 20, kBytes}) {
      unsigned lines = unsigned(bytes / 128);
      // Sattolo: one cycle through every line, in random order.
      std::vector<unsigned> perm(lines);
      std::iota(perm.begin(), perm.end(), 0u);
      for (unsigned i = lines - 1; i > 0; --i) {
        unsigned j = unsigned(rng() % i);
        std::swap(perm[i], perm[j]);
      }
      std::vector<unsigned> next(lines);
      for (unsigned i = 0; i < lines; ++i) next[perm[i]] = perm[(i + 1) % lines];
      CK(cudaMalloc(&dnext, size_t(lines) * 4));
      CK(cudaMemcpy(dnext, next.data(), size_t(lines) * 4, cudaMemcpyHostToDevice));
      scatter_chain<<<(lines + 255) / 256, 256>>>(buf, dnext, lines);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaFree(dnext));
      const unsigned steps = 200000;
      // Each launch starts where the previous one stopped (*dout) and leaves its end there
      // (a launch that restarted at line 0 would find the previous launches' 25.6 MB in the
      // L2). 3 warm-up and 5 timed launches, 1.6 M steps in all: the 8 MB chain (65,536
      // lines) is walked round and stays in the L2; the 256 MB and 1 GiB chains (2 M and
      // 8 M lines) are longer than all the steps, so every step is a line not touched before.
      CK(cudaMemset(dout, 0, 4));
      double ms = time_ms([&] { chase<<<1, 1>>>(buf, steps, dout); }, 5);
      lats.push_back({bytes, ms * 1e6 / steps});
    }
    CK(cudaFree(buf));
    CK(cudaFree(dout));
  }

  // ---- 2. bytes in flight vs bandwidth ---------------------------------------------------
  CK(cudaMalloc(&g_in, kBytes));
  CK(cudaMalloc(&g_out, kBytes));
  CK(cudaMalloc(&g_sink, 4));
  {
    // Random floats in [1, 2): never zero, never the sink's value.
    std::vector<float> h(kBytes / 4);
    std::mt19937 r(7);
    std::uniform_real_distribution<float> d(1.f, 2.f);
    for (auto& x : h) x = d(r);
    CK(cudaMemcpy(g_in, h.data(), kBytes, cudaMemcpyHostToDevice));
  }
  std::vector<Result> res;
  sweep_k<float, 1>(res);
  sweep_k<float, 2>(res);
  sweep_k<float, 4>(res);
  sweep_k<float, 8>(res);
  sweep_k<float4, 1>(res);
  sweep_k<float4, 2>(res);
  sweep_k<float4, 4>(res);
  // Copy correctness for one configuration (the sweep's copies must move the right bytes).
  {
    std::vector<float> a(1 << 20), b(1 << 20);
    CK(cudaMemcpy(a.data(), g_in, a.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), g_out, b.size() * 4, cudaMemcpyDeviceToHost));
    std::printf("copy check: %s\n", a == b ? "exact" : "WRONG");
  }

  if (json) {
    FILE* f = std::fopen(json, "w");
    std::fprintf(f, "{\"gpu\": \"%s\", \"sms\": %d, \"latency\": [", prop.name, g_sms);
    for (size_t i = 0; i < lats.size(); ++i)
      std::fprintf(f, "%s{\"bytes\": %zu, \"ns\": %.2f}", i ? ", " : "", lats[i].bytes,
                   lats[i].ns);
    std::fprintf(f, "], \"sweep\": [");
    for (size_t i = 0; i < res.size(); ++i) {
      const Result& r = res[i];
      std::fprintf(f,
                   "%s\n {\"kind\": \"%s\", \"type\": \"%s\", \"k\": %d, \"blocks_per_sm\": %d, "
                   "\"occupancy_blocks\": %d, \"warps_per_sm\": %d, \"inflight_per_sm\": %.0f, "
                   "\"ms\": %.4f, \"read_tbps\": %.4f, \"total_tbps\": %.4f, "
                   "\"little_latency_ns\": %.1f}",
                   i ? "," : "", r.kind.c_str(), r.type.c_str(), r.k, r.blocks_per_sm,
                   r.occupancy_blocks, r.warps_per_sm, r.inflight_per_sm, r.ms, r.read_tbps,
                   r.total_tbps, r.latency_ns);
    }
    std::fprintf(f, "\n]}\n");
    std::fclose(f);
  }
  std::printf("\nsweep: kind type K blocks/SM(occ) warps/SM inflight/SM  ms  read TB/s  total "
              "TB/s  Little latency ns\n");
  for (const Result& r : res)
    std::printf("%-4s %-6s %d %d(%d) %2d %7.0f %8.3f %6.3f %6.3f %7.1f\n", r.kind.c_str(),
                r.type.c_str(), r.k, r.blocks_per_sm, r.occupancy_blocks, r.warps_per_sm,
                r.inflight_per_sm, r.ms, r.read_tbps, r.total_tbps, r.latency_ns);
  std::printf("\nlatency (pointer chase, 1 thread, 128-byte lines in random order):\n");
  for (const Lat& l : lats) std::printf("  %6zu MB  %7.1f ns\n", l.bytes >> 20, l.ns);
  return 0;
}
