// validate-span-probe: does the address range the resident warps work on at once change what
// a DRAM-bound copy gets, at the same bytes in flight? (docs/cost-model.md: the 1-D copies
// copy_warpstride, copy_stripe4_float4 and copy_gridstride_float4 run 3-9% slower on the H200
// than copy_float4, which the model predicts as fast or faster.)
//
// Each warp copies its own run of TRIPS x 512 bytes: one float4 a lane a trip, the warp's
// runs adjacent (warp w starts at w x TRIPS x 512 bytes), 1 GiB read and 1 GiB written in all.
//   - unroll 1: one trip in flight a warp (#pragma unroll 1), so every TRIPS has the same
//     bytes in flight, 512 a warp; TRIPS = 1 is copy_float4. What grows with TRIPS is the
//     range the resident warps cover at once (resident warps x TRIPS x 512 bytes) and how
//     long a warp lives.
//   - unroll 4: four trips' loads in flight a warp (TRIPS >= 4), 2 KB a warp.
// Median of 15 timed launches after 3 warm-ups, 256 threads a block.
//
//   validate-span-probe [--json FILE]      prints the table; --json writes every number
//
// Standalone (not in the runner's registry: not kernels the analyzer judges).
#include "../kernels/common.cuh" // CUDA_CHECK

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr size_t N4 = size_t(1) << 26; // float4s: 1 GiB
constexpr int THREADS = 256;

template <int TRIPS>
__global__ void runs_unroll1(const float4* __restrict__ in, float4* __restrict__ out) {
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const size_t base = warp * TRIPS * 32 + threadIdx.x % 32;
#pragma unroll 1
  for (int t = 0; t < TRIPS; ++t) out[base + t * 32] = in[base + t * 32];
}

template <int TRIPS>
__global__ void runs_unroll4(const float4* __restrict__ in, float4* __restrict__ out) {
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const size_t base = warp * TRIPS * 32 + threadIdx.x % 32;
#pragma unroll 1
  for (int t = 0; t < TRIPS; t += 4) {
    float4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) v[k] = in[base + (t + k) * 32];
#pragma unroll
    for (int k = 0; k < 4; ++k) out[base + (t + k) * 32] = v[k];
  }
}

struct Row {
  std::string Kind;
  int Trips;
  double Ms, TBs, RangeMB;
};

template <typename K>
Row measure(const char *Kind, int Trips, K Kernel, const float4 *In, float4 *Out,
            int ResidentWarps) {
  const unsigned Blocks = unsigned(N4 / Trips / THREADS);
  cudaEvent_t A, B;
  CUDA_CHECK(cudaEventCreate(&A));
  CUDA_CHECK(cudaEventCreate(&B));
  for (int I = 0; I < 3; ++I)
    Kernel<<<Blocks, THREADS>>>(In, Out);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> Times;
  for (int I = 0; I < 15; ++I) {
    CUDA_CHECK(cudaEventRecord(A));
    Kernel<<<Blocks, THREADS>>>(In, Out);
    CUDA_CHECK(cudaEventRecord(B));
    CUDA_CHECK(cudaEventSynchronize(B));
    float Ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&Ms, A, B));
    Times.push_back(Ms);
  }
  CUDA_CHECK(cudaEventDestroy(A));
  CUDA_CHECK(cudaEventDestroy(B));
  std::sort(Times.begin(), Times.end());
  double Ms = Times[Times.size() / 2];
  double Bytes = 2.0 * N4 * sizeof(float4);
  return {Kind, Trips, Ms, Bytes / (Ms * 1e-3) / 1e12,
          double(ResidentWarps) * Trips * 512 / 1e6};
}

} // namespace

int main(int argc, char **argv) {
  const char *Json = nullptr;
  for (int I = 1; I < argc; ++I) {
    if (std::string(argv[I]) == "--json" && I + 1 < argc)
      Json = argv[++I];
    else {
      std::fprintf(stderr, "usage: %s [--json FILE]\n", argv[0]);
      return 1;
    }
  }
  cudaDeviceProp P;
  CUDA_CHECK(cudaGetDeviceProperties(&P, 0));
  const int ResidentWarps = P.multiProcessorCount * (P.maxThreadsPerMultiProcessor / 32);
  float4 *In, *Out;
  CUDA_CHECK(cudaMalloc(&In, N4 * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&Out, N4 * sizeof(float4)));
  CUDA_CHECK(cudaMemset(In, 1, N4 * sizeof(float4)));

  std::vector<Row> Rows;
  Rows.push_back(measure("unroll1", 1, runs_unroll1<1>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll1", 2, runs_unroll1<2>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll1", 4, runs_unroll1<4>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll1", 8, runs_unroll1<8>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll1", 16, runs_unroll1<16>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll1", 32, runs_unroll1<32>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll1", 64, runs_unroll1<64>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll1", 128, runs_unroll1<128>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll4", 4, runs_unroll4<4>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll4", 8, runs_unroll4<8>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll4", 16, runs_unroll4<16>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll4", 32, runs_unroll4<32>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll4", 64, runs_unroll4<64>, In, Out, ResidentWarps));
  Rows.push_back(measure("unroll4", 128, runs_unroll4<128>, In, Out, ResidentWarps));

  std::printf("%s, %d SMs; each warp copies TRIPS x 512 bytes; 1 GiB read + 1 GiB written\n",
              P.name, P.multiProcessorCount);
  std::printf("%-8s %6s %14s %9s %7s %9s\n", "kind", "trips", "run per warp", "range MB",
              "ms", "TB/s");
  const double Base = Rows[0].Ms;
  for (const Row &R : Rows)
    std::printf("%-8s %6d %12d B %9.1f %7.3f %9.3f  (%.3fx the 1-trip time)\n",
                R.Kind.c_str(), R.Trips, R.Trips * 512, R.RangeMB, R.Ms, R.TBs,
                R.Ms / Base);
  if (Json) {
    FILE *F = std::fopen(Json, "w");
    if (!F) {
      std::fprintf(stderr, "cannot write %s\n", Json);
      return 2;
    }
    std::fprintf(F, "{\"gpu\": \"%s\", \"sms\": %d, \"rows\": [", P.name,
                 P.multiProcessorCount);
    for (size_t I = 0; I < Rows.size(); ++I)
      std::fprintf(F,
                   "%s{\"kind\": \"%s\", \"trips\": %d, \"run_bytes\": %d, "
                   "\"range_mb\": %.3f, \"ms\": %.5f, \"tbps\": %.4f}",
                   I ? ", " : "", Rows[I].Kind.c_str(), Rows[I].Trips, Rows[I].Trips * 512,
                   Rows[I].RangeMB, Rows[I].Ms, Rows[I].TBs);
    std::fprintf(F, "]}\n");
    std::fclose(F);
  }
  CUDA_CHECK(cudaFree(In));
  CUDA_CHECK(cudaFree(Out));
  return 0;
}
