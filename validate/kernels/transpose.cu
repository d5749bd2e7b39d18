// 2-D kernels over a float matrix of H x W = 16384 x 16384 (1 GiB per matrix), 32 x 8 thread
// blocks, each block covering a 32 x 32 tile (every thread does 4 rows, 8 apart).
//   copy2d              out[(y + j) * W + x] = in[(y + j) * W + x]
//   transpose_naive     out[x * H + (y + j)] = in[(y + j) * W + x]   (store strided)
//   transpose_tiled<0>  through __shared__ float tile[32][32]: loads and stores coalesced,
//                       the column read tile[threadIdx.x][threadIdx.y + j] is a 32-way conflict
//   transpose_tiled<1>  the same through tile[32][33]: conflict-free
#include "common.cuh"

namespace {

constexpr int W = 16384;  // columns of in (rows of out)
constexpr int H = 16384;  // rows of in (columns of out)
constexpr int TILE = 32;  // tile edge, = blockDim.x
constexpr int ROWS = 8;   // blockDim.y; each thread handles TILE / ROWS = 4 rows

__global__ void copy2d(const float* __restrict__ in, float* __restrict__ out) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    out[(y + j) * W + x] = in[(y + j) * W + x];
  }
}

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    out[x * H + (y + j)] = in[(y + j) * W + x];
  }
}

template <int PAD>
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;  // the block's tile, transposed
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) {
    out[(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// copy2d with 16-byte accesses (missing-vectorization's tile case, issue 14): the block's 32 x 8
// threads take its 32 x 32 tile with one float4 each, 8 lanes a row and 4 rows a warp, where
// copy2d's loop takes it in 4 trips of rows 8 apart. The same grid and blocks.
__global__ void copy2d_float4(const float4* __restrict__ in, float4* __restrict__ out) {
  const int t = threadIdx.y * TILE + threadIdx.x;  // 0 .. 255
  const int row = blockIdx.y * TILE + t / (TILE / 4);
  const int col = blockIdx.x * (TILE / 4) + t % (TILE / 4);
  out[row * (W / 4) + col] = in[row * (W / 4) + col];
}

// ---- launches: grid (W / 32, H / 32), blocks of 32 x 8 -----------------------------------

void launch_copy2d(const float* in, float* out) {
  copy2d<<<dim3(W / TILE, H / TILE), dim3(TILE, ROWS)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

void launch_copy2d_float4(const float* in, float* out) {
  copy2d_float4<<<dim3(W / TILE, H / TILE), dim3(TILE, ROWS)>>>(
      reinterpret_cast<const float4*>(in), reinterpret_cast<float4*>(out));
  CUDA_CHECK_LAUNCH();
}

void launch_transpose_naive(const float* in, float* out) {
  transpose_naive<<<dim3(W / TILE, H / TILE), dim3(TILE, ROWS)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

template <int PAD>
void launch_transpose_tiled(const float* in, float* out) {
  transpose_tiled<PAD><<<dim3(W / TILE, H / TILE), dim3(TILE, ROWS)>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

// ---- host side ---------------------------------------------------------------------------

float* out_matrix() {
  static float* p = static_cast<float*>(validate::device_alloc(size_t(W) * H * sizeof(float)));
  return p;
}

// Exact: every output element must equal its input element bit for bit.
validate::CheckResult check_2d(bool transposed) {
  const validate::FloatInput& in = validate::matrix_input();
  std::vector<float> got(size_t(W) * H);
  CUDA_CHECK(cudaMemcpy(got.data(), out_matrix(), got.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  std::vector<long long> bad(H, 0);
  validate::parallel_for(H, [&](long long b, long long e) {
    for (long long r = b; r < e; ++r) {
      for (long long c = 0; c < W; ++c) {
        // out is W x H when transposed: out[c][r] = in[r][c]
        const float g = transposed ? got[c * H + r] : got[r * W + c];
        const float ref = in.host[r * W + c];
        if (std::memcmp(&g, &ref, sizeof(float)) != 0) ++bad[r];
      }
    }
  });
  validate::CheckResult res;
  for (long long v : bad) res.mismatches += v;
  res.checked = (long long)W * H;
  res.correct = (res.mismatches == 0);
  res.max_rel_err = res.correct ? 0.0 : 1.0;
  res.rel_l2_err = res.correct ? 0.0 : 1.0;
  res.tolerance = 0.0;
  res.note = "exact bitwise comparison";
  return res;
}

void add(validate::Registry& reg, const char* name, const char* pattern, const char* fn,
         const char* targs, int pad, bool transposed, void (*launch)(const float*, float*),
         const void* func) {
  validate::KernelInfo k;
  k.name = name;
  k.group = "transpose";
  k.pattern = pattern;
  k.kernel_function = fn;
  k.template_args = targs;
  k.source = "kernels/transpose.cu";
  k.func = func;
  k.params = {{"W", W},           {"H", H},         {"tile", TILE},
              {"rows_per_thread", TILE / ROWS},   {"pad", pad},
              {"block_x", TILE},  {"block_y", ROWS}, {"grid_x", W / TILE},
              {"grid_y", H / TILE}, {"elem_bytes", 4}};
  k.bytes_read = double(W) * H * sizeof(float);
  k.bytes_written = double(W) * H * sizeof(float);
  k.bytes_note = "read W*H*4 + write W*H*4";
  k.launch = [launch] { launch(validate::matrix_input().dev, out_matrix()); };
  k.poison = [] { validate::poison_bytes(out_matrix(), size_t(W) * H * sizeof(float)); };
  k.verify = [transposed] { return check_2d(transposed); };
  reg.push_back(std::move(k));
}

}  // namespace

namespace validate {
void register_transpose(Registry& reg) {
  add(reg, "copy2d", "copy2d", "copy2d", "", 0, false, &launch_copy2d, (const void*)&copy2d);
  add(reg, "transpose_naive", "naive", "transpose_naive", "", 0, true, &launch_transpose_naive,
      (const void*)&transpose_naive);
  add(reg, "transpose_tiled", "tiled", "transpose_tiled", "0", 0, true,
      &launch_transpose_tiled<0>, (const void*)&transpose_tiled<0>);
  add(reg, "transpose_tiled_pad", "tiled_pad", "transpose_tiled", "1", 1, true,
      &launch_transpose_tiled<1>, (const void*)&transpose_tiled<1>);
  add(reg, "copy2d_float4", "copy2d_vector", "copy2d_float4", "", 0, false,
      &launch_copy2d_float4, (const void*)&copy2d_float4);
}
}  // namespace validate
