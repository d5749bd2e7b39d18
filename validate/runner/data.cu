// Input data sets shared by the kernel groups, and small host helpers.
#include "../kernels/common.cuh"

#include <algorithm>
#include <thread>

namespace validate {

namespace {

constexpr uint64_t kSeed = 0x5eed2026c0ffee01ull;  // fixed, so runs are repeatable

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) from a counter: element i of stream s.
inline double uniform01(uint64_t stream, uint64_t i) {
  return (splitmix64(kSeed ^ (stream * 0x632be59bd9b4e019ull) ^ splitmix64(i)) >> 11) *
         (1.0 / 9007199254740992.0);
}

}  // namespace

void parallel_for(long long n, const std::function<void(long long, long long)>& f) {
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  long long parts = std::min<long long>(hw, std::max<long long>(1, n / 4096));
  std::vector<std::thread> ts;
  for (long long p = 0; p < parts; ++p) {
    long long b = n * p / parts, e = n * (p + 1) / parts;
    ts.emplace_back([&f, b, e] { f(b, e); });
  }
  for (auto& t : ts) t.join();
}

void* device_alloc(size_t bytes) {
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}

const RowInput& row_input() {
  static RowInput in = [] {
    RowInput r;
    r.rows = 65536;
    r.cols = 4096;
    size_t n = size_t(r.rows) * r.cols;
    r.host.resize(n);
    r.host_f.resize(n);
    parallel_for((long long)n, [&](long long b, long long e) {
      for (long long i = b; i < e; ++i) {
        float v = float(0.98 + 0.04 * uniform01(1, i));
        __nv_bfloat16 h = __float2bfloat16_rn(v);
        r.host[i] = h;
        r.host_f[i] = __bfloat162float(h);
      }
    });
    r.dev = static_cast<__nv_bfloat16*>(device_alloc(n * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMemcpy(r.dev, r.host.data(), n * sizeof(__nv_bfloat16),
                          cudaMemcpyHostToDevice));
    return r;
  }();
  return in;
}

static FloatInput make_float_input(size_t count, uint64_t stream) {
  FloatInput f;
  f.count = count;
  f.host.resize(count);
  parallel_for((long long)count, [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) {
      float v = float(2.0 * uniform01(stream, i) - 1.0);
      f.host[i] = (v == 0.0f) ? 0.5f : v;
    }
  });
  f.dev = static_cast<float*>(device_alloc(count * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(f.dev, f.host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  return f;
}

const FloatInput& matrix_input() {
  static FloatInput in = make_float_input(size_t(16384) * 16384, 2);
  return in;
}

const FloatInput& vector_input() {
  static FloatInput in = make_float_input((size_t(1) << 28) + 64, 3);
  return in;
}

}  // namespace validate
