// Workload 1: product along each row.
//
// X is bf16 M x N (65536 x 4096, 512 MB), row-major. One block per row, THREADS threads,
// V = N / THREADS elements per thread. Each thread multiplies its V elements (in float) and
// writes its partial product to Out[row * THREADS + tx] (Out is M x THREADS float).
// The four ways a thread can read its share of the row (seeds/000, DESIGN.md section 3):
//   w1_blocked      X[row * N + tx * V + c], one element per load
//   w1_striped      X[row * N + c * THREADS + tx]
//   w1_blocked_vec  the thread's run of V, 16 bytes (8 bf16, one uint4) per load
//   w1_staged       the row copied into sh[THREADS][V + PAD] with coalesced 16-byte loads,
//                   then each thread consumes sh[tx][c]
#include "common.cuh"

namespace {

constexpr int M = 65536;  // rows
constexpr int N = 4096;   // columns (bf16 elements per row)

template <int THREADS, int V>
__global__ void w1_blocked(const __nv_bfloat16* __restrict__ X, float* __restrict__ Out) {
  const int row = blockIdx.x;
  const int tx = threadIdx.x;
  float acc = 1.0f;
#pragma unroll
  for (int c = 0; c < V; ++c) {
    acc *= __bfloat162float(X[row * N + tx * V + c]);
  }
  Out[row * THREADS + tx] = acc;
}

template <int THREADS, int V>
__global__ void w1_striped(const __nv_bfloat16* __restrict__ X, float* __restrict__ Out) {
  const int row = blockIdx.x;
  const int tx = threadIdx.x;
  float acc = 1.0f;
#pragma unroll
  for (int c = 0; c < V; ++c) {
    acc *= __bfloat162float(X[row * N + c * THREADS + tx]);
  }
  Out[row * THREADS + tx] = acc;
}

template <int THREADS, int V>
__global__ void w1_blocked_vec(const __nv_bfloat16* __restrict__ X, float* __restrict__ Out) {
  const int row = blockIdx.x;
  const int tx = threadIdx.x;
  alignas(16) __nv_bfloat16 buf[V];
  const uint4* src = reinterpret_cast<const uint4*>(X + row * N + tx * V);
#pragma unroll
  for (int i = 0; i < V / 8; ++i) {
    reinterpret_cast<uint4*>(buf)[i] = src[i];  // one 16-byte load: 8 bf16
  }
  float acc = 1.0f;
#pragma unroll
  for (int c = 0; c < V; ++c) {
    acc *= __bfloat162float(buf[c]);
  }
  Out[row * THREADS + tx] = acc;
}

template <int THREADS, int V, int PAD>
__global__ void w1_staged(const __nv_bfloat16* __restrict__ X, float* __restrict__ Out) {
  __shared__ __align__(16) __nv_bfloat16 sh[THREADS][V + PAD];
  const int row = blockIdx.x;
  const int tx = threadIdx.x;

  // Copy the row: consecutive threads take consecutive 16-byte chunks of 8 bf16. Chunk q
  // holds elements q*8 .. q*8+7, which belong to thread t = q*8 / V at column c = q*8 % V.
  // The shared store is the widest the row pitch keeps aligned.
  constexpr int PITCH_BYTES = (V + PAD) * 2;
  const uint4* src = reinterpret_cast<const uint4*>(X + row * N);
#pragma unroll
  for (int i = 0; i < V / 8; ++i) {
    const int q = i * THREADS + tx;
    const int t = q * 8 / V;
    const int c = q * 8 % V;
    const uint4 v = src[q];
    if constexpr (PITCH_BYTES % 16 == 0) {
      *reinterpret_cast<uint4*>(&sh[t][c]) = v;
    } else if constexpr (PITCH_BYTES % 8 == 0) {
      uint2* d = reinterpret_cast<uint2*>(&sh[t][c]);
      d[0] = make_uint2(v.x, v.y);
      d[1] = make_uint2(v.z, v.w);
    } else if constexpr (PITCH_BYTES % 4 == 0) {
      unsigned* d = reinterpret_cast<unsigned*>(&sh[t][c]);
      d[0] = v.x;
      d[1] = v.y;
      d[2] = v.z;
      d[3] = v.w;
    } else {
      const __nv_bfloat16* e = reinterpret_cast<const __nv_bfloat16*>(&v);
#pragma unroll
      for (int k = 0; k < 8; ++k) sh[t][c + k] = e[k];
    }
  }
  __syncthreads();

  float acc = 1.0f;
#pragma unroll
  for (int c = 0; c < V; ++c) {
    acc *= __bfloat162float(sh[tx][c]);
  }
  Out[row * THREADS + tx] = acc;
}

// w1_striped with 16-byte loads (missing-vectorization's striped rewrite, issue 14): lane tx
// reads 8 adjacent bf16 (one uint4) per trip, lanes 16 bytes apart, uint4 i * THREADS + tx of
// the row: V / 8 trips instead of V. Thread tx multiplies elements 8 * (i * THREADS + tx) + e.
template <int THREADS, int V>
__global__ void w1_striped_vec(const __nv_bfloat16* __restrict__ X, float* __restrict__ Out) {
  const int row = blockIdx.x;
  const int tx = threadIdx.x;
  const uint4* src = reinterpret_cast<const uint4*>(X + row * N);
  float acc = 1.0f;
#pragma unroll
  for (int i = 0; i < V / 8; ++i) {
    uint4 v = src[i * THREADS + tx];  // one 16-byte load: 8 bf16
    const __nv_bfloat16* e = reinterpret_cast<const __nv_bfloat16*>(&v);
#pragma unroll
    for (int k = 0; k < 8; ++k) acc *= __bfloat162float(e[k]);
  }
  Out[row * THREADS + tx] = acc;
}

// ---- launches (one per instantiation; the block shape is THREADS, one block per row) -----

template <int THREADS, int V>
void launch_w1_blocked(const __nv_bfloat16* X, float* Out) {
  w1_blocked<THREADS, V><<<M, THREADS>>>(X, Out);
  CUDA_CHECK_LAUNCH();
}

template <int THREADS, int V>
void launch_w1_striped(const __nv_bfloat16* X, float* Out) {
  w1_striped<THREADS, V><<<M, THREADS>>>(X, Out);
  CUDA_CHECK_LAUNCH();
}

template <int THREADS, int V>
void launch_w1_blocked_vec(const __nv_bfloat16* X, float* Out) {
  w1_blocked_vec<THREADS, V><<<M, THREADS>>>(X, Out);
  CUDA_CHECK_LAUNCH();
}

template <int THREADS, int V>
void launch_w1_striped_vec(const __nv_bfloat16* X, float* Out) {
  w1_striped_vec<THREADS, V><<<M, THREADS>>>(X, Out);
  CUDA_CHECK_LAUNCH();
}

template <int THREADS, int V, int PAD>
void launch_w1_staged(const __nv_bfloat16* X, float* Out) {
  w1_staged<THREADS, V, PAD><<<M, THREADS>>>(X, Out);
  CUDA_CHECK_LAUNCH();
}

// ---- host side: output buffer, CPU reference, registration ------------------------------

float* out_buffer() {
  static float* p = static_cast<float*>(validate::device_alloc(size_t(M) * 512 * sizeof(float)));
  return p;
}

// Which elements of its row a thread multiplies.
enum class Share { Blocked, Striped, StripedVec };

// Partial products: thread tx of a row multiplies elements tx*V .. tx*V+V-1 (blocked,
// blocked_vec, staged), c*THREADS + tx for c in [0, V) (striped) or 8*(i*THREADS + tx) + e
// for i in [0, V/8), e in [0, 8) (striped_vec). Reference in double.
long long element_of(Share share, int threads, int V, int tx, int c) {
  switch (share) {
    case Share::Striped: return (long long)c * threads + tx;
    case Share::StripedVec: return 8LL * ((long long)(c / 8) * threads + tx) + c % 8;
    default: return (long long)tx * V + c;
  }
}

validate::CheckResult check_w1(int threads, Share share) {
  const validate::RowInput& in = validate::row_input();
  const int V = N / threads;
  std::vector<float> got(size_t(M) * threads);
  CUDA_CHECK(cudaMemcpy(got.data(), out_buffer(), got.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  const double tol = 1e-4;  // float products of at most 128 factors near 1: error ~1e-5
  std::vector<long long> bad(M, 0);
  std::vector<double> maxrel(M, 0.0), num(M, 0.0), den(M, 0.0);
  validate::parallel_for(M, [&](long long b, long long e) {
    for (long long row = b; row < e; ++row) {
      const float* x = in.host_f.data() + row * N;
      for (int tx = 0; tx < threads; ++tx) {
        double ref = 1.0;
        for (int c = 0; c < V; ++c) ref *= x[element_of(share, threads, V, tx, c)];
        const double g = got[row * threads + tx];
        const double rel = std::abs(g - ref) / std::abs(ref);
        if (!(rel <= tol)) ++bad[row];  // NaN (poison left over) counts as bad
        if (rel > maxrel[row] || rel != rel) maxrel[row] = rel;
        num[row] += (g - ref) * (g - ref);
        den[row] += ref * ref;
      }
    }
  });
  validate::CheckResult r;
  double n2 = 0, d2 = 0;
  for (int row = 0; row < M; ++row) {
    r.mismatches += bad[row];
    r.max_rel_err = std::max(r.max_rel_err, maxrel[row]);
    if (maxrel[row] != maxrel[row]) r.max_rel_err = maxrel[row];
    n2 += num[row];
    d2 += den[row];
  }
  r.checked = (long long)M * threads;
  r.rel_l2_err = std::sqrt(n2 / d2);
  r.tolerance = tol;
  r.correct = (r.mismatches == 0);
  return r;
}

void add(validate::Registry& reg, const char* pattern, const char* fn, int threads, int v,
         int pad, bool has_pad, void (*launch)(const __nv_bfloat16*, float*), const void* func,
         Share share) {
  validate::KernelInfo k;
  std::string args = std::to_string(threads) + ", " + std::to_string(v);
  if (has_pad) args += ", " + std::to_string(pad);
  std::string compact = args;
  compact.erase(std::remove(compact.begin(), compact.end(), ' '), compact.end());
  k.name = std::string(fn) + "<" + compact + ">";
  k.group = "w1";
  k.pattern = pattern;
  k.kernel_function = fn;
  k.template_args = args;
  k.source = "kernels/row_product.cu";
  k.func = func;
  k.params = {{"threads", threads}, {"V", v},     {"pad", pad},     {"M", M}, {"N", N},
              {"block_x", threads}, {"block_y", 1}, {"grid_x", M}, {"grid_y", 1},
              {"elem_bytes", 2}};
  k.bytes_read = double(M) * N * sizeof(__nv_bfloat16);
  k.bytes_written = double(M) * threads * sizeof(float);
  k.bytes_note = "read M*N*2 (X once) + write M*THREADS*4 (Out)";
  k.launch = [launch] { launch(validate::row_input().dev, out_buffer()); };
  k.poison = [threads] { validate::poison_bytes(out_buffer(), size_t(M) * threads * 4); };
  k.verify = [threads, share] { return check_w1(threads, share); };
  reg.push_back(std::move(k));
}

template <int THREADS>
void add_threads(validate::Registry& reg) {
  constexpr int V = N / THREADS;
  add(reg, "blocked", "w1_blocked", THREADS, V, 0, false, &launch_w1_blocked<THREADS, V>,
      (const void*)&w1_blocked<THREADS, V>, Share::Blocked);
  add(reg, "striped", "w1_striped", THREADS, V, 0, false, &launch_w1_striped<THREADS, V>,
      (const void*)&w1_striped<THREADS, V>, Share::Striped);
  add(reg, "blocked_vec", "w1_blocked_vec", THREADS, V, 0, false,
      &launch_w1_blocked_vec<THREADS, V>, (const void*)&w1_blocked_vec<THREADS, V>,
      Share::Blocked);
  add(reg, "staged", "w1_staged", THREADS, V, 0, true, &launch_w1_staged<THREADS, V, 0>,
      (const void*)&w1_staged<THREADS, V, 0>, Share::Blocked);
  add(reg, "staged", "w1_staged", THREADS, V, 2, true, &launch_w1_staged<THREADS, V, 2>,
      (const void*)&w1_staged<THREADS, V, 2>, Share::Blocked);
  add(reg, "staged", "w1_staged", THREADS, V, 4, true, &launch_w1_staged<THREADS, V, 4>,
      (const void*)&w1_staged<THREADS, V, 4>, Share::Blocked);
  add(reg, "staged", "w1_staged", THREADS, V, 8, true, &launch_w1_staged<THREADS, V, 8>,
      (const void*)&w1_staged<THREADS, V, 8>, Share::Blocked);
}

template <int THREADS>
void add_striped_vec(validate::Registry& reg) {
  constexpr int V = N / THREADS;
  add(reg, "striped_vec", "w1_striped_vec", THREADS, V, 0, false,
      &launch_w1_striped_vec<THREADS, V>, (const void*)&w1_striped_vec<THREADS, V>,
      Share::StripedVec);
}

}  // namespace

namespace validate {
void register_row_product(Registry& reg) {
  add_threads<512>(reg);
  add_threads<256>(reg);
  add_threads<128>(reg);
  add_threads<64>(reg);
  add_threads<32>(reg);
  // The striped loop with 16-byte loads (issue 14), after the others: the registry's order
  // before it is unchanged.
  add_striped_vec<512>(reg);
  add_striped_vec<256>(reg);
  add_striped_vec<128>(reg);
  add_striped_vec<64>(reg);
  add_striped_vec<32>(reg);
}
}  // namespace validate
