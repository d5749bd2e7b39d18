// The shared-memory rewrites shared-bank-conflict offers on the register-
// tiled SGEMM (fixtures/real_code/sgemm_register_tiled.cu,
// fixtures/rules/shared-bank-conflict/row_stride.cu), before and after, for
// Nsight Compute's shared wavefront and bank-conflict counters on the H200
// (validate/probes/rewrites_check.sh). One kernel per layout; the stores
// and the inner loop's loads of the same array, as in the SGEMM:
//
//   as_pad<0>  As[(innerColA * 4 + j) * BM + innerRowA] = tmp.x ... : 2-way
//   as_pad<1>  the row stride BM + 1: still 2-way (and the loads unmerged)
//   as_pad<4>  BM + 4: what the tool offers, conflict-free, loads LDS.128
//   bs_parts<5>  Bs[r * (BN + 5) + c * 4 + j] = tmp.x ... : 4-way
//   bs_vec<8>    one float4 store, row stride BN + 8: what the tool offers
//
// BM = BN = 128, BK = TM = TN = 8, 256 threads, as in the SGEMM.
#include <cstdio>

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;

template <int PAD>
__global__ void as_pad(const float *A, float *C, int K) {
  __shared__ float As[BK * (BM + PAD)];
  const int innerRowA = threadIdx.x / (BK / 4);
  const int innerColA = threadIdx.x % (BK / 4);
  const int threadRow = threadIdx.x / (BN / TN);
  const float *a = A + blockIdx.x * BM * K;
  float4 tmp = reinterpret_cast<const float4 *>(&a[innerRowA * K + innerColA * 4])[0];
  As[(innerColA * 4 + 0) * (BM + PAD) + innerRowA] = tmp.x;
  As[(innerColA * 4 + 1) * (BM + PAD) + innerRowA] = tmp.y;
  As[(innerColA * 4 + 2) * (BM + PAD) + innerRowA] = tmp.z;
  As[(innerColA * 4 + 3) * (BM + PAD) + innerRowA] = tmp.w;
  __syncthreads();
  float acc = 0.f;
  float regM[TM];
  for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
    for (int i = 0; i < TM; ++i)
      regM[i] = As[dotIdx * (BM + PAD) + threadRow * TM + i];
    for (int i = 0; i < TM; ++i)
      acc += regM[i] * float(i + dotIdx);
  }
  C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int PAD>
__global__ void bs_parts(const float *B, float *C, int N) {
  __shared__ float Bs[BK * (BN + PAD)];
  const int innerRowB = threadIdx.x / (BN / 4);
  const int innerColB = threadIdx.x % (BN / 4);
  const int threadCol = threadIdx.x % (BN / TN);
  const float *b = B + blockIdx.x * BN;
  float4 tmp = reinterpret_cast<const float4 *>(&b[innerRowB * N + innerColB * 4])[0];
  Bs[innerRowB * (BN + PAD) + innerColB * 4 + 0] = tmp.x;
  Bs[innerRowB * (BN + PAD) + innerColB * 4 + 1] = tmp.y;
  Bs[innerRowB * (BN + PAD) + innerColB * 4 + 2] = tmp.z;
  Bs[innerRowB * (BN + PAD) + innerColB * 4 + 3] = tmp.w;
  __syncthreads();
  float acc = 0.f;
  float regN[TN];
  for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
    for (int i = 0; i < TN; ++i)
      regN[i] = Bs[dotIdx * (BN + PAD) + threadCol * TN + i];
    for (int i = 0; i < TN; ++i)
      acc += regN[i] * float(i + dotIdx);
  }
  C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int PAD>
__global__ void bs_vec(const float *B, float *C, int N) {
  __shared__ float Bs[BK * (BN + PAD)];
  const int innerRowB = threadIdx.x / (BN / 4);
  const int innerColB = threadIdx.x % (BN / 4);
  const int threadCol = threadIdx.x % (BN / TN);
  const float *b = B + blockIdx.x * BN;
  float4 tmp = reinterpret_cast<const float4 *>(&b[innerRowB * N + innerColB * 4])[0];
  *reinterpret_cast<float4 *>(&Bs[innerRowB * (BN + PAD) + innerColB * 4 + 0]) = tmp;
  __syncthreads();
  float acc = 0.f;
  float regN[TN];
  for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
    for (int i = 0; i < TN; ++i)
      regN[i] = Bs[dotIdx * (BN + PAD) + threadCol * TN + i];
    for (int i = 0; i < TN; ++i)
      acc += regN[i] * float(i + dotIdx);
  }
  C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  const int Blocks = 1024, K = 8, N = Blocks * BN;
  float *A, *B, *C;
  cudaMalloc(&A, size_t(Blocks) * BM * K * sizeof(float));
  cudaMalloc(&B, size_t(BK) * N * sizeof(float));
  cudaMalloc(&C, size_t(Blocks) * 256 * sizeof(float));
  cudaMemset(A, 0, size_t(Blocks) * BM * K * sizeof(float));
  cudaMemset(B, 0, size_t(BK) * N * sizeof(float));
  as_pad<0><<<Blocks, 256>>>(A, C, K);
  as_pad<1><<<Blocks, 256>>>(A, C, K);
  as_pad<4><<<Blocks, 256>>>(A, C, K);
  bs_parts<5><<<Blocks, 256>>>(B, C, N);
  bs_parts<8><<<Blocks, 256>>>(B, C, N);
  bs_vec<8><<<Blocks, 256>>>(B, C, N);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
