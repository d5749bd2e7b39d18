// 1-D copies over a float array of N = 2^28 elements (1 GiB), 256-thread blocks.
//   copy_float        out[k] = in[k]             one float per thread
//   copy_offset<1>    out[k] = in[k + 1]         reads 4 bytes off the 32-byte sector grid
//   copy_offset<8>    out[k] = in[k + 8]         reads 32 bytes off: aligned again
//   copy_float4       out[k] = in[k], float4     one 16-byte vector per thread (N / 4 threads)
//   gather_stride2    out[k] = in[2 * k]         every other float (N / 2 threads)
//   copy_stripe4      4 floats per thread, 256 apart (a 4-deep striped loop; N / 4 threads)
//   copy_stripe4_float4  the same with float4 (N / 16 threads)
//   copy_gridstride   out[i] = in[i] in a grid-stride loop, 1024 blocks (1024 trips)
//   copy_gridstride_float4  the same with float4 (256 trips)
#include "common.cuh"

namespace {

constexpr int N = 1 << 28;   // floats in the array
constexpr int THREADS = 256; // block size

__global__ void copy_float(const float* __restrict__ in, float* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < N) out[k] = in[k];
}

template <int OFFSET>
__global__ void copy_offset(const float* __restrict__ in, float* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < N) out[k] = in[k + OFFSET];
}

__global__ void copy_float4(const float4* __restrict__ in, float4* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < N / 4) out[k] = in[k];
}

__global__ void gather_stride2(const float* __restrict__ in, float* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < N / 2) out[k] = in[2 * k];
}

// A striped loop: each thread copies 4 elements, a block's width apart (loads independent).
__global__ void copy_stripe4(const float* __restrict__ in, float* __restrict__ out) {
  const int base = blockIdx.x * (4 * THREADS) + threadIdx.x;
  for (int c = 0; c < 4; ++c) out[base + c * THREADS] = in[base + c * THREADS];
}

__global__ void copy_stripe4_float4(const float4* __restrict__ in, float4* __restrict__ out) {
  const int base = blockIdx.x * (4 * THREADS) + threadIdx.x;
  for (int c = 0; c < 4; ++c) out[base + c * THREADS] = in[base + c * THREADS];
}

// A grid-stride loop over the whole array.
__global__ void copy_gridstride(const float* __restrict__ in, float* __restrict__ out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

__global__ void copy_gridstride_float4(const float4* __restrict__ in, float4* __restrict__ out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N / 4; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// A warp-stride loop (missing-vectorization's warp-stride case, issue 14): each warp copies
// its own run of SEG floats, lane L taking elements L, L + 32, ... (32 trips, one float each);
// the float4 form gives each lane 4 adjacent floats of the same run (8 trips): the same threads,
// 4x fewer instructions.
constexpr int SEG = 1024;  // floats per warp

__global__ void copy_warpstride(const float* __restrict__ in, float* __restrict__ out) {
  const int lane = threadIdx.x % 32;
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * SEG;
  for (int c = lane; c < SEG; c += 32) out[base + c] = in[base + c];
}

__global__ void copy_warpstride_float4(const float4* __restrict__ in, float4* __restrict__ out) {
  const int lane = threadIdx.x % 32;
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * (SEG / 4);
  for (int c = lane; c < SEG / 4; c += 32) out[base + c] = in[base + c];
}

// ---- launches ----------------------------------------------------------------------------

void launch_copy_float(const float* in, float* out) {
  copy_float<<<N / THREADS, THREADS>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

template <int OFFSET>
void launch_copy_offset(const float* in, float* out) {
  copy_offset<OFFSET><<<N / THREADS, THREADS>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

void launch_copy_float4(const float* in, float* out) {
  copy_float4<<<N / 4 / THREADS, THREADS>>>(reinterpret_cast<const float4*>(in),
                                            reinterpret_cast<float4*>(out));
  CUDA_CHECK_LAUNCH();
}

void launch_gather_stride2(const float* in, float* out) {
  gather_stride2<<<N / 2 / THREADS, THREADS>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

void launch_copy_stripe4(const float* in, float* out) {
  copy_stripe4<<<N / 4 / THREADS, THREADS>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

void launch_copy_stripe4_float4(const float* in, float* out) {
  copy_stripe4_float4<<<N / 16 / THREADS, THREADS>>>(reinterpret_cast<const float4*>(in),
                                                     reinterpret_cast<float4*>(out));
  CUDA_CHECK_LAUNCH();
}

constexpr int GRID_STRIDE_BLOCKS = 1024;

void launch_copy_gridstride(const float* in, float* out) {
  copy_gridstride<<<GRID_STRIDE_BLOCKS, THREADS>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

void launch_copy_gridstride_float4(const float* in, float* out) {
  copy_gridstride_float4<<<GRID_STRIDE_BLOCKS, THREADS>>>(reinterpret_cast<const float4*>(in),
                                                         reinterpret_cast<float4*>(out));
  CUDA_CHECK_LAUNCH();
}

constexpr int WARP_STRIDE_THREADS = N / SEG * 32;  // one warp per run of SEG floats

void launch_copy_warpstride(const float* in, float* out) {
  copy_warpstride<<<WARP_STRIDE_THREADS / THREADS, THREADS>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

void launch_copy_warpstride_float4(const float* in, float* out) {
  copy_warpstride_float4<<<WARP_STRIDE_THREADS / THREADS, THREADS>>>(
      reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out));
  CUDA_CHECK_LAUNCH();
}

// ---- host side ---------------------------------------------------------------------------

float* out_vector() {
  static float* p = static_cast<float*>(validate::device_alloc(size_t(N) * sizeof(float)));
  return p;
}

// Exact: out[k] == in[offset + stride * k] bit for bit, for k < count.
validate::CheckResult check_1d(long long count, long long offset, long long stride) {
  const validate::FloatInput& in = validate::vector_input();
  std::vector<float> got(count);
  CUDA_CHECK(cudaMemcpy(got.data(), out_vector(), count * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<long long> bad(1024, 0);
  validate::parallel_for(1024, [&](long long b, long long e) {
    for (long long p = b; p < e; ++p) {
      for (long long k = count * p / 1024; k < count * (p + 1) / 1024; ++k) {
        const float ref = in.host[offset + stride * k];
        if (std::memcmp(&got[k], &ref, sizeof(float)) != 0) ++bad[p];
      }
    }
  });
  validate::CheckResult res;
  for (long long v : bad) res.mismatches += v;
  res.checked = count;
  res.correct = (res.mismatches == 0);
  res.max_rel_err = res.correct ? 0.0 : 1.0;
  res.rel_l2_err = res.correct ? 0.0 : 1.0;
  res.note = "exact bitwise comparison";
  return res;
}

void add(validate::Registry& reg, const char* name, const char* pattern, const char* fn,
         const char* targs, long long threads_total, long long count, int offset, int stride,
         int vec, void (*launch)(const float*, float*), const void* func,
         const char* bytes_note) {
  validate::KernelInfo k;
  k.name = name;
  k.group = "copy1d";
  k.pattern = pattern;
  k.kernel_function = fn;
  k.template_args = targs;
  k.source = "kernels/copy.cu";
  k.func = func;
  k.params = {{"N", N},
              {"threads", THREADS},
              {"block_x", THREADS},
              {"block_y", 1},
              {"grid_x", threads_total / THREADS},
              {"grid_y", 1},
              {"offset_elems", offset},
              {"stride_elems", stride},
              {"vector_elems", vec},
              {"elem_bytes", 4}};
  k.bytes_read = double(count) * sizeof(float);
  k.bytes_written = double(count) * sizeof(float);
  k.bytes_note = bytes_note;
  k.launch = [launch] { launch(validate::vector_input().dev, out_vector()); };
  k.poison = [count] { validate::poison_bytes(out_vector(), size_t(count) * sizeof(float)); };
  k.verify = [count, offset, stride] { return check_1d(count, offset, stride); };
  reg.push_back(std::move(k));
}

}  // namespace

namespace validate {
void register_copy(Registry& reg) {
  add(reg, "copy_float", "scalar", "copy_float", "", N, N, 0, 1, 1, &launch_copy_float,
      (const void*)&copy_float, "read N*4 + write N*4");
  add(reg, "copy_offset<1>", "scalar_offset", "copy_offset", "1", N, N, 1, 1, 1,
      &launch_copy_offset<1>, (const void*)&copy_offset<1>, "read N*4 + write N*4");
  add(reg, "copy_offset<8>", "scalar_offset", "copy_offset", "8", N, N, 8, 1, 1,
      &launch_copy_offset<8>, (const void*)&copy_offset<8>, "read N*4 + write N*4");
  add(reg, "copy_float4", "vector", "copy_float4", "", N / 4, N, 0, 1, 4, &launch_copy_float4,
      (const void*)&copy_float4, "read N*4 + write N*4");
  add(reg, "gather_stride2", "gather", "gather_stride2", "", N / 2, N / 2, 0, 2, 1,
      &launch_gather_stride2, (const void*)&gather_stride2,
      "useful bytes only: read (N/2)*4 + write (N/2)*4; the loads touch every sector of the "
      "first N floats, so DRAM reads about N*4");
  add(reg, "copy_stripe4", "striped", "copy_stripe4", "", N / 4, N, 0, 1, 1,
      &launch_copy_stripe4, (const void*)&copy_stripe4, "read N*4 + write N*4");
  add(reg, "copy_stripe4_float4", "striped_vector", "copy_stripe4_float4", "", N / 16, N, 0, 1,
      4, &launch_copy_stripe4_float4, (const void*)&copy_stripe4_float4, "read N*4 + write N*4");
  add(reg, "copy_gridstride", "grid_stride", "copy_gridstride", "",
      GRID_STRIDE_BLOCKS * THREADS, N, 0, 1, 1, &launch_copy_gridstride,
      (const void*)&copy_gridstride, "read N*4 + write N*4");
  add(reg, "copy_gridstride_float4", "grid_stride_vector", "copy_gridstride_float4", "",
      GRID_STRIDE_BLOCKS * THREADS, N, 0, 1, 4, &launch_copy_gridstride_float4,
      (const void*)&copy_gridstride_float4, "read N*4 + write N*4");
  add(reg, "copy_warpstride", "warp_stride", "copy_warpstride", "", WARP_STRIDE_THREADS, N, 0,
      1, 1, &launch_copy_warpstride, (const void*)&copy_warpstride, "read N*4 + write N*4");
  add(reg, "copy_warpstride_float4", "warp_stride_vector", "copy_warpstride_float4", "",
      WARP_STRIDE_THREADS, N, 0, 1, 4, &launch_copy_warpstride_float4,
      (const void*)&copy_warpstride_float4, "read N*4 + write N*4");
}
}  // namespace validate
