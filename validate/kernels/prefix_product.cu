// Workload 2: serial prefix product along each row.
//
// X is bf16 M x N (65536 x 4096), Y the same shape: Y[row, j] = X[row, 0] * ... * X[row, j]
// (inclusive), computed in float, written as bf16. One block per row, THREADS threads, each
// owning the contiguous run of V = N / THREADS elements tx*V .. tx*V+V-1. A thread needs the
// product of all earlier threads' runs: a block-level exclusive product scan of the per-thread
// totals, hand-written through shared memory (block_exclusive_product below).
// Patterns (no striped: the order of the run matters):
//   w2_blocked      loads X[row * N + tx * V + c] and stores Y[...] element by element
//   w2_blocked_vec  the run loaded and stored 16 bytes (one uint4, 8 bf16) at a time
//   w2_staged       the row copied coalesced (16-byte loads) into sh[THREADS][V + PAD], each
//                   thread scans sh[tx][*] in place, then the row is written back coalesced
//                   (16-byte stores) from shared memory
#include "common.cuh"

namespace {

constexpr int M = 65536;  // rows
constexpr int N = 4096;   // columns (bf16 elements per row)

// Exclusive product scan of one float per thread over the block (Hillis-Steele, double
// buffered in shared memory). Thread 0 gets 1.
template <int THREADS>
__device__ float block_exclusive_product(float total) {
  __shared__ float scan[2][THREADS];
  const int tx = threadIdx.x;
  int cur = 0;
  scan[0][tx] = total;
  __syncthreads();
  for (int off = 1; off < THREADS; off *= 2) {
    float v = scan[cur][tx];
    if (tx >= off) v *= scan[cur][tx - off];
    scan[1 - cur][tx] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  return tx > 0 ? scan[cur][tx - 1] : 1.0f;
}

template <int THREADS, int V>
__global__ void w2_blocked(const __nv_bfloat16* __restrict__ X, __nv_bfloat16* __restrict__ Y) {
  const int row = blockIdx.x;
  const int tx = threadIdx.x;
  __nv_bfloat16 buf[V];
  float total = 1.0f;
#pragma unroll
  for (int c = 0; c < V; ++c) {
    buf[c] = X[row * N + tx * V + c];
    total *= __bfloat162float(buf[c]);
  }
  float run = block_exclusive_product<THREADS>(total);
#pragma unroll
  for (int c = 0; c < V; ++c) {
    run *= __bfloat162float(buf[c]);
    Y[row * N + tx * V + c] = __float2bfloat16(run);
  }
}

template <int THREADS, int V>
__global__ void w2_blocked_vec(const __nv_bfloat16* __restrict__ X,
                               __nv_bfloat16* __restrict__ Y) {
  const int row = blockIdx.x;
  const int tx = threadIdx.x;
  alignas(16) __nv_bfloat16 buf[V];
  const uint4* src = reinterpret_cast<const uint4*>(X + row * N + tx * V);
#pragma unroll
  for (int i = 0; i < V / 8; ++i) {
    reinterpret_cast<uint4*>(buf)[i] = src[i];  // one 16-byte load: 8 bf16
  }
  float total = 1.0f;
#pragma unroll
  for (int c = 0; c < V; ++c) {
    total *= __bfloat162float(buf[c]);
  }
  float run = block_exclusive_product<THREADS>(total);
#pragma unroll
  for (int c = 0; c < V; ++c) {
    run *= __bfloat162float(buf[c]);
    buf[c] = __float2bfloat16(run);
  }
  uint4* dst = reinterpret_cast<uint4*>(Y + row * N + tx * V);
#pragma unroll
  for (int i = 0; i < V / 8; ++i) {
    dst[i] = reinterpret_cast<const uint4*>(buf)[i];  // one 16-byte store
  }
}

template <int THREADS, int V, int PAD>
__global__ void w2_staged(const __nv_bfloat16* __restrict__ X, __nv_bfloat16* __restrict__ Y) {
  __shared__ __align__(16) __nv_bfloat16 sh[THREADS][V + PAD];
  const int row = blockIdx.x;
  const int tx = threadIdx.x;

  // Copy the row in: consecutive threads take consecutive 16-byte chunks of 8 bf16. Chunk q
  // holds elements q*8 .. q*8+7, which belong to thread t = q*8 / V at column c = q*8 % V.
  // Shared stores (and, below, loads) are the widest the row pitch keeps aligned.
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

  // Scan the thread's own run in shared memory.
  float total = 1.0f;
#pragma unroll
  for (int c = 0; c < V; ++c) {
    total *= __bfloat162float(sh[tx][c]);
  }
  float run = block_exclusive_product<THREADS>(total);
#pragma unroll
  for (int c = 0; c < V; ++c) {
    run *= __bfloat162float(sh[tx][c]);
    sh[tx][c] = __float2bfloat16(run);
  }
  __syncthreads();

  // Write the row back: the same chunk mapping, 16-byte global stores.
  uint4* dst = reinterpret_cast<uint4*>(Y + row * N);
#pragma unroll
  for (int i = 0; i < V / 8; ++i) {
    const int q = i * THREADS + tx;
    const int t = q * 8 / V;
    const int c = q * 8 % V;
    uint4 v;
    if constexpr (PITCH_BYTES % 16 == 0) {
      v = *reinterpret_cast<const uint4*>(&sh[t][c]);
    } else if constexpr (PITCH_BYTES % 8 == 0) {
      const uint2* s = reinterpret_cast<const uint2*>(&sh[t][c]);
      const uint2 a = s[0];
      const uint2 b = s[1];
      v = make_uint4(a.x, a.y, b.x, b.y);
    } else if constexpr (PITCH_BYTES % 4 == 0) {
      const unsigned* s = reinterpret_cast<const unsigned*>(&sh[t][c]);
      v = make_uint4(s[0], s[1], s[2], s[3]);
    } else {
      __nv_bfloat16* e = reinterpret_cast<__nv_bfloat16*>(&v);
#pragma unroll
      for (int k = 0; k < 8; ++k) e[k] = sh[t][c + k];
    }
    dst[q] = v;
  }
}

// ---- launches (one block per row, THREADS threads) ---------------------------------------

template <int THREADS, int V>
void launch_w2_blocked(const __nv_bfloat16* X, __nv_bfloat16* Y) {
  w2_blocked<THREADS, V><<<M, THREADS>>>(X, Y);
  CUDA_CHECK_LAUNCH();
}

template <int THREADS, int V>
void launch_w2_blocked_vec(const __nv_bfloat16* X, __nv_bfloat16* Y) {
  w2_blocked_vec<THREADS, V><<<M, THREADS>>>(X, Y);
  CUDA_CHECK_LAUNCH();
}

template <int THREADS, int V, int PAD>
void launch_w2_staged(const __nv_bfloat16* X, __nv_bfloat16* Y) {
  w2_staged<THREADS, V, PAD><<<M, THREADS>>>(X, Y);
  CUDA_CHECK_LAUNCH();
}

// ---- host side ---------------------------------------------------------------------------

__nv_bfloat16* y_buffer() {
  static __nv_bfloat16* p =
      static_cast<__nv_bfloat16*>(validate::device_alloc(size_t(M) * N * sizeof(__nv_bfloat16)));
  return p;
}

// Reference: serial inclusive prefix product of each row in double. The GPU rounds a float
// running product to bf16 once, so each element is within half a bf16 ulp (2^-9 relative)
// plus float rounding (~1e-5) of the exact value; tolerance 4e-3 (about one bf16 ulp).
validate::CheckResult check_w2() {
  const validate::RowInput& in = validate::row_input();
  std::vector<__nv_bfloat16> got(size_t(M) * N);
  CUDA_CHECK(cudaMemcpy(got.data(), y_buffer(), got.size() * sizeof(__nv_bfloat16),
                        cudaMemcpyDeviceToHost));
  const double tol = 4e-3;
  std::vector<long long> bad(M, 0);
  std::vector<double> maxrel(M, 0.0), num(M, 0.0), den(M, 0.0);
  validate::parallel_for(M, [&](long long b, long long e) {
    for (long long row = b; row < e; ++row) {
      const float* x = in.host_f.data() + row * N;
      const __nv_bfloat16* y = got.data() + row * N;
      double ref = 1.0;
      for (int j = 0; j < N; ++j) {
        ref *= x[j];
        const double g = __bfloat162float(y[j]);
        const double rel = std::abs(g - ref) / std::abs(ref);
        if (!(rel <= tol)) ++bad[row];
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
  r.checked = (long long)M * N;
  r.rel_l2_err = std::sqrt(n2 / d2);
  r.tolerance = tol;
  r.correct = (r.mismatches == 0);
  return r;
}

void add(validate::Registry& reg, const char* pattern, const char* fn, int threads, int v,
         int pad, bool has_pad, void (*launch)(const __nv_bfloat16*, __nv_bfloat16*),
         const void* func) {
  validate::KernelInfo k;
  std::string args = std::to_string(threads) + ", " + std::to_string(v);
  if (has_pad) args += ", " + std::to_string(pad);
  std::string compact = args;
  compact.erase(std::remove(compact.begin(), compact.end(), ' '), compact.end());
  k.name = std::string(fn) + "<" + compact + ">";
  k.group = "w2";
  k.pattern = pattern;
  k.kernel_function = fn;
  k.template_args = args;
  k.source = "kernels/prefix_product.cu";
  k.func = func;
  k.params = {{"threads", threads}, {"V", v},     {"pad", pad},     {"M", M}, {"N", N},
              {"block_x", threads}, {"block_y", 1}, {"grid_x", M}, {"grid_y", 1},
              {"elem_bytes", 2}};
  k.bytes_read = double(M) * N * sizeof(__nv_bfloat16);
  k.bytes_written = double(M) * N * sizeof(__nv_bfloat16);
  k.bytes_note = "read M*N*2 (X once) + write M*N*2 (Y)";
  k.launch = [launch] { launch(validate::row_input().dev, y_buffer()); };
  k.poison = [] { validate::poison_bytes(y_buffer(), size_t(M) * N * sizeof(__nv_bfloat16)); };
  k.verify = [] { return check_w2(); };
  reg.push_back(std::move(k));
}

template <int THREADS>
void add_threads(validate::Registry& reg) {
  constexpr int V = N / THREADS;
  add(reg, "blocked", "w2_blocked", THREADS, V, 0, false, &launch_w2_blocked<THREADS, V>,
      (const void*)&w2_blocked<THREADS, V>);
  add(reg, "blocked_vec", "w2_blocked_vec", THREADS, V, 0, false,
      &launch_w2_blocked_vec<THREADS, V>, (const void*)&w2_blocked_vec<THREADS, V>);
  add(reg, "staged", "w2_staged", THREADS, V, 0, true, &launch_w2_staged<THREADS, V, 0>,
      (const void*)&w2_staged<THREADS, V, 0>);
  add(reg, "staged", "w2_staged", THREADS, V, 2, true, &launch_w2_staged<THREADS, V, 2>,
      (const void*)&w2_staged<THREADS, V, 2>);
  add(reg, "staged", "w2_staged", THREADS, V, 4, true, &launch_w2_staged<THREADS, V, 4>,
      (const void*)&w2_staged<THREADS, V, 4>);
  add(reg, "staged", "w2_staged", THREADS, V, 8, true, &launch_w2_staged<THREADS, V, 8>,
      (const void*)&w2_staged<THREADS, V, 8>);
}

}  // namespace

namespace validate {
void register_prefix_product(Registry& reg) {
  add_threads<512>(reg);
  add_threads<256>(reg);
  add_threads<128>(reg);
  add_threads<64>(reg);
  add_threads<32>(reg);
}
}  // namespace validate
