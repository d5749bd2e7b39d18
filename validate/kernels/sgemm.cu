// The SGEMM path (seeds/002: coalescing, shared-memory tiling, block tiling, vectorized loads,
// bank conflicts, asynchronous double buffering), C = A * B with M = N = K = 4096, FP32,
// row-major. Each step is the one before it with one change:
//   sgemm_naive           one thread per C element, threadIdx.x walks the rows of C: the
//                         warp's A and C accesses are 16 KB apart (uncoalesced)
//   sgemm_coalesced       the same, threadIdx.x walks the columns: B and C coalesced, A a
//                         broadcast
//   sgemm_smem            32 x 32 tiles of A and B staged in shared memory
//   sgemm_blocktile1d     64 x 64 block tile, BK = 8, each thread TM = 8 results of a column
//   sgemm_blocktile2d     128 x 128 block tile, BK = 8, each thread an 8 x 8 block of results
//   sgemm_vectorized      float4 global loads and stores; As stored transposed (As[k][m]) so
//                         the compute loop reads 8 adjacent As and 8 adjacent Bs (LDS.128)
//   sgemm_pad             As[BK][BM + 4]: the transposed store's 2-way conflict padded away
//   sgemm_swizzle         As[BK][BM] with the column XOR 16 on rows 4..7: the same, by swizzle
//   sgemm_async           sgemm_pad double-buffered: B's next tile by cp.async
//                         (__pipeline_memcpy_async), A's next tile held in registers, both
//                         issued before the current tile's compute
#include "common.cuh"

#include <cuda_pipeline.h>

namespace {

constexpr int M = 4096;
constexpr int N = 4096;
constexpr int K = 4096;

__global__ void sgemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C) {
  const int row = blockIdx.x * 32 + threadIdx.x;
  const int col = blockIdx.y * 32 + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

__global__ void sgemm_coalesced(const float* __restrict__ A, const float* __restrict__ B,
                                float* __restrict__ C) {
  const int row = blockIdx.y * 32 + threadIdx.y;
  const int col = blockIdx.x * 32 + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

constexpr int TILE = 32;

__global__ void sgemm_smem(const float* __restrict__ A, const float* __restrict__ B,
                           float* __restrict__ C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int bk = 0; bk < K; bk += TILE) {
    As[ty][tx] = A[row * K + bk + tx];
    Bs[ty][tx] = B[(bk + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// 1-D block tiling: BM x BN results per block, (BM * BN) / TM threads, each TM rows of one
// column; per k, one Bs value is reused for TM products.
template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__((BM * BN) / TM)
    sgemm_blocktile1d(const float* __restrict__ A, const float* __restrict__ B,
                      float* __restrict__ C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int tid = threadIdx.x;
  const int threadCol = tid % BN;
  const int threadRow = tid / BN;
  const int rowA = tid / BK, colA = tid % BK;  // BM x BK tile: one element per thread
  const int rowB = tid / BN, colB = tid % BN;  // BK x BN tile: one element per thread
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;
  float acc[TM] = {};
  for (int bk = 0; bk < K; bk += BK) {
    As[rowA * BK + colA] = A[(blockRow + rowA) * K + bk + colA];
    Bs[rowB * BN + colB] = B[(bk + rowB) * N + blockCol + colB];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float b = Bs[k * BN + threadCol];
      for (int r = 0; r < TM; ++r) acc[r] += As[(threadRow * TM + r) * BK + k] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r)
    C[(blockRow + threadRow * TM + r) * N + blockCol + threadCol] = acc[r];
}

// 2-D block tiling: BM x BN results per block, (BM * BN) / (TM * TN) threads, each a TM x TN
// block of results from TM + TN shared loads per k.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    sgemm_blocktile2d(const float* __restrict__ A, const float* __restrict__ B,
                      float* __restrict__ C) {
  constexpr int THREADS = (BM * BN) / (TM * TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int tid = threadIdx.x;
  const int threadCol = tid % (BN / TN);
  const int threadRow = tid / (BN / TN);
  const int rowA = tid / BK, colA = tid % BK;
  const int rowB = tid / BN, colB = tid % BN;
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;
  float acc[TM * TN] = {};
  float regM[TM];
  float regN[TN];
  for (int bk = 0; bk < K; bk += BK) {
    for (int off = 0; off < BM; off += THREADS / BK)
      As[(rowA + off) * BK + colA] = A[(blockRow + rowA + off) * K + bk + colA];
    for (int off = 0; off < BK; off += THREADS / BN)
      Bs[(rowB + off) * BN + colB] = B[(bk + rowB + off) * N + blockCol + colB];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + k];
      for (int j = 0; j < TN; ++j) regN[j] = Bs[k * BN + threadCol * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i * TN + j] += regM[i] * regN[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(blockRow + threadRow * TM + i) * N + blockCol + threadCol * TN + j] = acc[i * TN + j];
}

// Vectorized: 128 x 128 x 8 tiles, 256 threads, 8 x 8 results each. Every thread loads one
// float4 of A (stored transposed into As[k][m]) and one float4 of B per tile. PAD widens As's
// rows; SWIZZLE moves rows 4..7 of As by 16 columns (XOR), the other cure for the same
// conflict. Both keep every thread's 8 As values adjacent and 16-byte aligned.
template <int PAD, bool SWIZZLE>
__global__ void __launch_bounds__(256)
    sgemm_vectorized(const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  constexpr int LDA = BM + PAD;  // row pitch of As, in floats
  __shared__ __align__(16) float As[BK * LDA];
  __shared__ __align__(16) float Bs[BK * BN];
  const int tid = threadIdx.x;
  const int threadCol = tid % (BN / TN);
  const int threadRow = tid / (BN / TN);
  const int rowA = tid / (BK / 4), colA = tid % (BK / 4);  // 128 rows x 2 float4
  const int rowB = tid / (BN / 4), colB = tid % (BN / 4);  // 8 rows x 32 float4
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;
  float acc[TM * TN] = {};
  float regM[TM];
  float regN[TN];
  for (int bk = 0; bk < K; bk += BK) {
    const float4 a =
        *reinterpret_cast<const float4*>(&A[(blockRow + rowA) * K + bk + colA * 4]);
    // Row colA * 4 + c of As; rows 4..7 (colA 1) swizzled by XOR 16 on the column.
    const int m = SWIZZLE ? (rowA ^ (colA * 16)) : rowA;
    As[(colA * 4 + 0) * LDA + m] = a.x;
    As[(colA * 4 + 1) * LDA + m] = a.y;
    As[(colA * 4 + 2) * LDA + m] = a.z;
    As[(colA * 4 + 3) * LDA + m] = a.w;
    *reinterpret_cast<float4*>(&Bs[rowB * BN + colB * 4]) =
        *reinterpret_cast<const float4*>(&B[(bk + rowB) * N + blockCol + colB * 4]);
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const int mk = SWIZZLE ? ((threadRow * TM) ^ ((k / 4) * 16)) : threadRow * TM;
      for (int i = 0; i < TM; ++i) regM[i] = As[k * LDA + mk + i];
      for (int j = 0; j < TN; ++j) regN[j] = Bs[k * BN + threadCol * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i * TN + j] += regM[i] * regN[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 4) {
      const float4 v = make_float4(acc[i * TN + j], acc[i * TN + j + 1], acc[i * TN + j + 2],
                                   acc[i * TN + j + 3]);
      *reinterpret_cast<float4*>(
          &C[(blockRow + threadRow * TM + i) * N + blockCol + threadCol * TN + j]) = v;
    }
}

// Double-buffered sgemm_vectorized<4, false>: while tile t is computed from buffer t % 2,
// B's tile t + 1 is on its way into the other buffer by cp.async and A's tile t + 1 waits in
// registers, stored (transposed) after the compute. One barrier per tile.
__global__ void __launch_bounds__(256)
    sgemm_async(const float* __restrict__ A, const float* __restrict__ B,
                float* __restrict__ C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, PAD = 4;
  constexpr int LDA = BM + PAD;
  constexpr int TILES = K / BK;
  __shared__ __align__(16) float As[2][BK * LDA];
  __shared__ __align__(16) float Bs[2][BK * BN];
  const int tid = threadIdx.x;
  const int threadCol = tid % (BN / TN);
  const int threadRow = tid / (BN / TN);
  const int rowA = tid / (BK / 4), colA = tid % (BK / 4);
  const int rowB = tid / (BN / 4), colB = tid % (BN / 4);
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;
  float acc[TM * TN] = {};
  float regM[TM];
  float regN[TN];

  float4 a = *reinterpret_cast<const float4*>(&A[(blockRow + rowA) * K + colA * 4]);
  As[0][(colA * 4 + 0) * LDA + rowA] = a.x;
  As[0][(colA * 4 + 1) * LDA + rowA] = a.y;
  As[0][(colA * 4 + 2) * LDA + rowA] = a.z;
  As[0][(colA * 4 + 3) * LDA + rowA] = a.w;
  __pipeline_memcpy_async(&Bs[0][rowB * BN + colB * 4], &B[rowB * N + blockCol + colB * 4],
                          16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();

  for (int t = 0; t < TILES; ++t) {
    const int cur = t % 2;
    const int nxt = 1 - cur;
    const int bk = (t + 1) * BK;
    if (t + 1 < TILES) {
      a = *reinterpret_cast<const float4*>(&A[(blockRow + rowA) * K + bk + colA * 4]);
      __pipeline_memcpy_async(&Bs[nxt][rowB * BN + colB * 4],
                              &B[(bk + rowB) * N + blockCol + colB * 4], 16);
      __pipeline_commit();
    }
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i) regM[i] = As[cur][k * LDA + threadRow * TM + i];
      for (int j = 0; j < TN; ++j) regN[j] = Bs[cur][k * BN + threadCol * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i * TN + j] += regM[i] * regN[j];
    }
    if (t + 1 < TILES) {
      As[nxt][(colA * 4 + 0) * LDA + rowA] = a.x;
      As[nxt][(colA * 4 + 1) * LDA + rowA] = a.y;
      As[nxt][(colA * 4 + 2) * LDA + rowA] = a.z;
      As[nxt][(colA * 4 + 3) * LDA + rowA] = a.w;
      __pipeline_wait_prior(0);
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 4) {
      const float4 v = make_float4(acc[i * TN + j], acc[i * TN + j + 1], acc[i * TN + j + 2],
                                   acc[i * TN + j + 3]);
      *reinterpret_cast<float4*>(
          &C[(blockRow + threadRow * TM + i) * N + blockCol + threadCol * TN + j]) = v;
    }
}

// ---- launches ----------------------------------------------------------------------------

void launch_sgemm_naive(const float* A, const float* B, float* C) {
  sgemm_naive<<<dim3(M / 32, N / 32), dim3(32, 32)>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_coalesced(const float* A, const float* B, float* C) {
  sgemm_coalesced<<<dim3(N / 32, M / 32), dim3(32, 32)>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_smem(const float* A, const float* B, float* C) {
  sgemm_smem<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE)>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_blocktile1d(const float* A, const float* B, float* C) {
  sgemm_blocktile1d<64, 64, 8, 8><<<dim3(N / 64, M / 64), (64 * 64) / 8>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_blocktile2d(const float* A, const float* B, float* C) {
  sgemm_blocktile2d<128, 128, 8, 8, 8><<<dim3(N / 128, M / 128), 256>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_vectorized(const float* A, const float* B, float* C) {
  sgemm_vectorized<0, false><<<dim3(N / 128, M / 128), 256>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_pad(const float* A, const float* B, float* C) {
  sgemm_vectorized<4, false><<<dim3(N / 128, M / 128), 256>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_swizzle(const float* A, const float* B, float* C) {
  sgemm_vectorized<0, true><<<dim3(N / 128, M / 128), 256>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

void launch_sgemm_async(const float* A, const float* B, float* C) {
  sgemm_async<<<dim3(N / 128, M / 128), 256>>>(A, B, C);
  CUDA_CHECK_LAUNCH();
}

// ---- host side ---------------------------------------------------------------------------

// A and B: the first two 4096 x 4096 blocks of the random matrix input (uniform in [-1, 1]).
const float* dev_a() { return validate::matrix_input().dev; }
const float* dev_b() { return validate::matrix_input().dev + size_t(M) * K; }
float host_a(long long r, long long k) { return validate::matrix_input().host[r * K + k]; }
float host_b(long long k, long long c) {
  return validate::matrix_input().host[size_t(M) * K + k * N + c];
}

float* out_c() {
  static float* p = static_cast<float*>(validate::device_alloc(size_t(M) * N * sizeof(float)));
  return p;
}

// The float64 reference of 64 whole rows of C (row 64 i + (37 i mod 64): one in every
// 64-row band), with sum |a| |b| per element (the scale of FP32 rounding), made once.
constexpr int REF_ROWS = 64;
struct Reference {
  std::vector<double> ref, mag;  // REF_ROWS x N
};
const Reference& reference() {
  static Reference r = [] {
    Reference x;
    x.ref.assign(size_t(REF_ROWS) * N, 0.0);
    x.mag.assign(size_t(REF_ROWS) * N, 0.0);
    const std::vector<float>& h = validate::matrix_input().host;
    validate::parallel_for(REF_ROWS, [&](long long b, long long e) {
      for (long long i = b; i < e; ++i) {
        const long long row = 64 * i + (37 * i) % 64;
        double* ref = &x.ref[i * N];
        double* mag = &x.mag[i * N];
        for (long long k = 0; k < K; ++k) {
          const double a = h[row * K + k];
          const float* brow = &h[size_t(M) * K + k * N];
          for (long long c = 0; c < N; ++c) {
            const double p = a * double(brow[c]);
            ref[c] += p;
            mag[c] += std::fabs(p);
          }
        }
      }
    });
    return x;
  }();
  return r;
}

// Every element written (no NaN poison left), and 64 whole rows against the float64
// reference: || out - ref || / || ref || and each element's error relative to sum |a| |b|
// under 1e-5.
validate::CheckResult check_sgemm() {
  std::vector<float> got(size_t(M) * N);
  CUDA_CHECK(cudaMemcpy(got.data(), out_c(), got.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  const Reference& R = reference();
  validate::CheckResult res;
  long long poisoned = 0;
  for (float v : got) poisoned += std::isnan(v) ? 1 : 0;
  double e2 = 0, r2 = 0;
  for (long long i = 0; i < REF_ROWS; ++i) {
    const long long row = 64 * i + (37 * i) % 64;
    for (long long c = 0; c < N; ++c) {
      const double ref = R.ref[i * N + c];
      const double d = double(got[row * N + c]) - ref;
      const double rel = std::isnan(d) ? 1.0 : std::fabs(d) / R.mag[i * N + c];
      e2 += d * d;
      r2 += ref * ref;
      res.max_rel_err = std::max(res.max_rel_err, rel);
      if (!(rel <= 1e-5)) ++res.mismatches;
    }
  }
  res.mismatches += poisoned;
  res.checked = (long long)REF_ROWS * N;
  res.rel_l2_err = std::sqrt(e2 / r2);
  res.tolerance = 1e-5;
  res.correct = res.mismatches == 0 && res.rel_l2_err < 1e-5;
  res.note = "all elements written (no NaN poison); 64 whole rows (one per 64-row band) "
             "against float64 on the host, each element's error relative to sum |a||b|";
  return res;
}

void add(validate::Registry& reg, const char* name, const char* pattern, const char* fn,
         const char* targs, int block_x, int block_y, int grid_x, int grid_y,
         void (*launch)(const float*, const float*, float*), const void* func) {
  validate::KernelInfo k;
  k.name = name;
  k.group = "sgemm";
  k.pattern = pattern;
  k.kernel_function = fn;
  k.template_args = targs;
  k.source = "kernels/sgemm.cu";
  k.func = func;
  k.params = {{"M", M},           {"N", N},           {"K", K},
              {"block_x", block_x}, {"block_y", block_y}, {"grid_x", grid_x},
              {"grid_y", grid_y},   {"flops", 2LL * M * N * K}};
  k.bytes_read = double(M) * K * 4 + double(K) * N * 4;
  k.bytes_written = double(M) * N * 4;
  k.bytes_note = "the fewest bytes: A and B read once, C written once (2 * 64 MiB + 64 MiB)";
  k.launch = [launch] { launch(dev_a(), dev_b(), out_c()); };
  k.poison = [] { validate::poison_bytes(out_c(), size_t(M) * N * sizeof(float)); };
  k.verify = [] { return check_sgemm(); };
  reg.push_back(std::move(k));
}

}  // namespace

namespace validate {
void register_sgemm(Registry& reg) {
  add(reg, "sgemm_naive", "naive", "sgemm_naive", "", 32, 32, M / 32, N / 32,
      &launch_sgemm_naive, (const void*)&sgemm_naive);
  add(reg, "sgemm_coalesced", "coalesced", "sgemm_coalesced", "", 32, 32, N / 32, M / 32,
      &launch_sgemm_coalesced, (const void*)&sgemm_coalesced);
  add(reg, "sgemm_smem", "smem_tiled", "sgemm_smem", "", TILE, TILE, N / TILE, M / TILE,
      &launch_sgemm_smem, (const void*)&sgemm_smem);
  add(reg, "sgemm_blocktile1d", "blocktile1d", "sgemm_blocktile1d", "64, 64, 8, 8", 512, 1,
      N / 64, M / 64, &launch_sgemm_blocktile1d,
      (const void*)&sgemm_blocktile1d<64, 64, 8, 8>);
  add(reg, "sgemm_blocktile2d", "blocktile2d", "sgemm_blocktile2d", "128, 128, 8, 8, 8", 256,
      1, N / 128, M / 128, &launch_sgemm_blocktile2d,
      (const void*)&sgemm_blocktile2d<128, 128, 8, 8, 8>);
  add(reg, "sgemm_vectorized", "vectorized", "sgemm_vectorized", "0, false", 256, 1, N / 128,
      M / 128, &launch_sgemm_vectorized, (const void*)&sgemm_vectorized<0, false>);
  add(reg, "sgemm_pad", "pad", "sgemm_vectorized", "4, false", 256, 1, N / 128, M / 128,
      &launch_sgemm_pad, (const void*)&sgemm_vectorized<4, false>);
  add(reg, "sgemm_swizzle", "swizzle", "sgemm_vectorized", "0, true", 256, 1, N / 128,
      M / 128, &launch_sgemm_swizzle, (const void*)&sgemm_vectorized<0, true>);
  add(reg, "sgemm_async", "async", "sgemm_async", "", 256, 1, N / 128, M / 128,
      &launch_sgemm_async, (const void*)&sgemm_async);
}
}  // namespace validate
