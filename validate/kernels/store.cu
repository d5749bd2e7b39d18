// Store patterns, nothing loaded: every kernel writes a value computed from its index into a
// float array of N = 2^28 elements (1 GiB), 256-thread blocks. What decides their cost is
// how the L2 receives the writes (whole or partial sectors) and what reaches DRAM.
//   store_contiguous         out[k] = k                      4 bytes per lane, lanes adjacent
//   store_float4             out4[k] = (4k .. 4k+3)          16 bytes per lane, adjacent
//   store_blocked16<2>       out4[2t + c], c = 0, 1          16 bytes per lane, lanes 32 bytes
//                            apart; c = 1 writes the other half of each sector (the
//                            vectorized blocked store of register-tiled matmuls)
//   store_blocked16<1>       out4[2t]                        the first half only: every sector
//                            written in part, half of the array never written
//   store_blocked4<8>        out[8t + c], c = 0 .. 7         4 bytes per lane, lanes 32 bytes
//                            apart; the loop fills each lane's sector
//   store_strided<8>         out[8k]                         one float per 32-byte sector
//   store_strided<32>        out[32k]                        one float per 128-byte line
//   store_offset<1>          out[k + 1]                      off the sector grid by 4 bytes:
//                            the warp's first and last sectors are partial
#include "common.cuh"

namespace {

constexpr int N = 1 << 28;   // floats in the array
constexpr int THREADS = 256; // block size

__global__ void store_contiguous(float* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k] = float(k);
}

__global__ void store_float4(float4* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k] = make_float4(float(4 * k), float(4 * k + 1), float(4 * k + 2), float(4 * k + 3));
}

template <int PARTS>
__global__ void store_blocked16(float4* __restrict__ out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < PARTS; ++c) {
    const int q = 2 * t + c;  // float4 index
    out[q] = make_float4(float(4 * q), float(4 * q + 1), float(4 * q + 2), float(4 * q + 3));
  }
}

template <int PER_LANE>
__global__ void store_blocked4(float* __restrict__ out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < PER_LANE; ++c) out[t * PER_LANE + c] = float(t * PER_LANE + c);
}

template <int STRIDE>
__global__ void store_strided(float* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k * STRIDE] = float(k * STRIDE);
}

template <int OFFSET>
__global__ void store_offset(float* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < N - OFFSET) out[k + OFFSET] = float(k + OFFSET);
}

// ---- launches ----------------------------------------------------------------------------

void launch_store_contiguous(float* out) {
  store_contiguous<<<N / THREADS, THREADS>>>(out);
  CUDA_CHECK_LAUNCH();
}

void launch_store_float4(float* out) {
  store_float4<<<N / 4 / THREADS, THREADS>>>(reinterpret_cast<float4*>(out));
  CUDA_CHECK_LAUNCH();
}

template <int PARTS>
void launch_store_blocked16(float* out) {
  store_blocked16<PARTS><<<N / 8 / THREADS, THREADS>>>(reinterpret_cast<float4*>(out));
  CUDA_CHECK_LAUNCH();
}

template <int PER_LANE>
void launch_store_blocked4(float* out) {
  store_blocked4<PER_LANE><<<N / PER_LANE / THREADS, THREADS>>>(out);
  CUDA_CHECK_LAUNCH();
}

template <int STRIDE>
void launch_store_strided(float* out) {
  store_strided<STRIDE><<<N / STRIDE / THREADS, THREADS>>>(out);
  CUDA_CHECK_LAUNCH();
}

template <int OFFSET>
void launch_store_offset(float* out) {
  store_offset<OFFSET><<<N / THREADS, THREADS>>>(out);
  CUDA_CHECK_LAUNCH();
}

// ---- host side ---------------------------------------------------------------------------

float* out_array() {
  static float* p = static_cast<float*>(validate::device_alloc(size_t(N) * sizeof(float)));
  return p;
}

// Exact: out[i] == float(i) for every i the kernel writes (i % period < width, from first),
// bit for bit; the others still hold the NaN poison.
validate::CheckResult check_store(long long first, long long period, long long width) {
  std::vector<float> got(N);
  CUDA_CHECK(cudaMemcpy(got.data(), out_array(), size_t(N) * sizeof(float),
                        cudaMemcpyDeviceToHost));
  std::vector<long long> bad(1024, 0), seen(1024, 0);
  validate::parallel_for(1024, [&](long long b, long long e) {
    for (long long p = b; p < e; ++p) {
      for (long long i = N * p / 1024; i < N * (p + 1) / 1024; ++i) {
        const bool written = i >= first && (i % period) < width;
        if (written) {
          const float ref = float(i);
          ++seen[p];
          if (std::memcmp(&got[i], &ref, sizeof(float)) != 0) ++bad[p];
        } else if (!std::isnan(got[i])) {
          ++bad[p];
        }
      }
    }
  });
  validate::CheckResult res;
  for (int p = 0; p < 1024; ++p) res.mismatches += bad[p], res.checked += seen[p];
  res.correct = res.mismatches == 0;
  res.max_rel_err = res.correct ? 0.0 : 1.0;
  res.rel_l2_err = res.correct ? 0.0 : 1.0;
  res.note = "exact: every written element bit for bit, every other one still poison";
  return res;
}

void add(validate::Registry& reg, const char* name, const char* pattern, const char* fn,
         const char* targs, long long threads_total, long long first, long long period,
         long long width, int lane_bytes, void (*launch)(float*), const void* func) {
  validate::KernelInfo k;
  k.name = name;
  k.group = "store";
  k.pattern = pattern;
  k.kernel_function = fn;
  k.template_args = targs;
  k.source = "kernels/store.cu";
  k.func = func;
  k.params = {{"N", N},
              {"threads", THREADS},
              {"block_x", THREADS},
              {"block_y", 1},
              {"grid_x", threads_total / THREADS},
              {"grid_y", 1},
              {"period_elems", period},
              {"width_elems", width},
              {"lane_bytes", lane_bytes}};
  k.bytes_read = 0;
  k.bytes_written = double(N - first) / double(period) * double(width) * sizeof(float);
  k.bytes_note = "bytes stored (useful bytes; partial-sector patterns move more)";
  k.launch = [launch] { launch(out_array()); };
  k.poison = [] { validate::poison_bytes(out_array(), size_t(N) * sizeof(float)); };
  k.verify = [first, period, width] { return check_store(first, period, width); };
  reg.push_back(std::move(k));
}

}  // namespace

namespace validate {
void register_store(Registry& reg) {
  add(reg, "store_contiguous", "contiguous", "store_contiguous", "", N, 0, 1, 1, 4,
      &launch_store_contiguous, (const void*)&store_contiguous);
  add(reg, "store_float4", "contiguous_vector", "store_float4", "", N / 4, 0, 1, 1, 16,
      &launch_store_float4, (const void*)&store_float4);
  add(reg, "store_blocked16<2>", "blocked16_fill", "store_blocked16", "2", N / 8, 0, 1, 1, 16,
      &launch_store_blocked16<2>, (const void*)&store_blocked16<2>);
  add(reg, "store_blocked16<1>", "blocked16_half", "store_blocked16", "1", N / 8, 0, 8, 4, 16,
      &launch_store_blocked16<1>, (const void*)&store_blocked16<1>);
  add(reg, "store_blocked4<8>", "blocked4_fill", "store_blocked4", "8", N / 8, 0, 1, 1, 4,
      &launch_store_blocked4<8>, (const void*)&store_blocked4<8>);
  add(reg, "store_strided<8>", "strided", "store_strided", "8", N / 8, 0, 8, 1, 4,
      &launch_store_strided<8>, (const void*)&store_strided<8>);
  add(reg, "store_strided<32>", "strided", "store_strided", "32", N / 32, 0, 32, 1, 4,
      &launch_store_strided<32>, (const void*)&store_strided<32>);
  add(reg, "store_offset<1>", "offset", "store_offset", "1", N, 1, 1, 1, 4,
      &launch_store_offset<1>, (const void*)&store_offset<1>);
}
}  // namespace validate
