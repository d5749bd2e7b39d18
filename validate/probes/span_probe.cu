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
//   - stripe C: each thread copies C float4s a block's width apart, all C loads in flight
//     (copy_stripe4_float4 is C = 4): the bytes in flight and the block's range grow with C.
//   - scatter REGIONS: copy_float4's short-lived warps, sent to REGIONS regions of the array
//     in turn: the resident warps cover REGIONS pieces far apart, each warp for one trip.
//     Whether the range matters without long-lived warps.
//   - read, readscat: the runs (unroll 1) and scatter rows reading only (nothing written).
//   - pitch P: stripe C = 4 with the thread's four float4s P float4s apart instead of 256 (4 KB,
//     a power of two), the float4s between left alone: whether stripe 4 pays for its range
//     or for its power-of-two stride.
//   - tile P: copy2d_float4's warps (a block a 32 x 32-float tile, a warp four 128-byte pieces
//     of four rows) over rows 64 KB + P x 16 bytes apart: the same question for the 2-D copy's
//     64 KB row pitch.
//   - fan D: each warp copies four 512-byte pieces D bytes apart, all four loads in flight (the
//     warps between fill the gaps): how far apart a warp's loads in flight must lie to cost
//     as several places (D = 512 is one 2 KB run; stripe 4 is D = 4 KB).
//   - split D: one float4 load a lane, the warp's four groups of 8 lanes (128 bytes each) D bytes
//     apart: copy2d_float4's request shape over a 1-D array (D = 128 is copy_float4): whether
//     pieces far apart cost in one request as the tile rows do, where four requests (fan) do
//     not.
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

// Each thread copies C float4s a block's width (4 KB) apart, all C loads in flight before
// the stores (copy_stripe4_float4 is C = 4): the block covers C x 4 KB at once, the warp
// C x 512 bytes of it, and the bytes in flight grow with C.
template <int C>
__global__ void stripe(const float4* __restrict__ in, float4* __restrict__ out) {
  const size_t base = size_t(blockIdx.x) * (C * THREADS) + threadIdx.x;
  float4 v[C];
#pragma unroll
  for (int c = 0; c < C; ++c) v[c] = in[base + c * THREADS];
#pragma unroll
  for (int c = 0; c < C; ++c) out[base + c * THREADS] = v[c];
}

// copy_float4's work (one float4 a lane, 512 bytes a warp), but successive warps go to
// REGIONS regions of the array in turn (warp w copies run (w % REGIONS) x (runs / REGIONS)
// + w / REGIONS): the resident warps cover REGIONS pieces, each 1 GiB / REGIONS apart and
// resident warps / REGIONS runs long, instead of one.
template <int REGIONS>
__device__ __forceinline__ size_t scatter_index() {
  constexpr size_t Runs = N4 / 32;
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const size_t run = (warp % REGIONS) * (Runs / REGIONS) + warp / REGIONS;
  return run * 32 + threadIdx.x % 32;
}

template <int REGIONS>
__global__ void scatter(const float4* __restrict__ in, float4* __restrict__ out) {
  const size_t k = scatter_index<REGIONS>();
  out[k] = in[k];
}

// Read-only forms of runs_unroll1 and scatter: the same loads, summed, and nothing written
// (the store is never taken on these inputs): whether the range costs a read stream too or
// only reads and writes together.
template <int TRIPS>
__global__ void read_runs(const float4* __restrict__ in, float4* __restrict__ out) {
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const size_t base = warp * TRIPS * 32 + threadIdx.x % 32;
  float acc = 0.f;
#pragma unroll 1
  for (int t = 0; t < TRIPS; ++t) {
    const float4 v = in[base + t * 32];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1234.5f) out[base] = make_float4(acc, acc, acc, acc);
}

template <int REGIONS>
__global__ void read_scatter(const float4* __restrict__ in, float4* __restrict__ out) {
  const size_t k = scatter_index<REGIONS>();
  const float4 v = in[k];
  const float acc = v.x + v.y + v.z + v.w;
  if (acc == 1234.5f) out[k] = v;
}

// stripe<4> with the rows PITCH float4s apart (PITCH >= THREADS): each block copies 4 x 256
// float4s out of 4 x PITCH, the float4s between its rows untouched. PITCH = 256 is stripe<4>.
template <int PITCH>
__global__ void stripe_pitch(const float4* __restrict__ in, float4* __restrict__ out) {
  const size_t base = size_t(blockIdx.x) * (4 * PITCH) + threadIdx.x;
  float4 v[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) v[c] = in[base + c * PITCH];
#pragma unroll
  for (int c = 0; c < 4; ++c) out[base + c * PITCH] = v[c];
}

// copy2d_float4 (validate/kernels/transpose.cu) over a matrix 4096 float4s wide whose rows lie
// 4096 + PAD float4s apart: block (x, y) copies the tile of rows 32y .. 32y + 31, float4
// columns 8x .. 8x + 7, a float4 a thread, eight lanes a row. PAD = 0 is copy2d_float4.
constexpr int TILE_COLS4 = 4096;
template <int PAD>
__global__ void tile_pitch(const float4* __restrict__ in, float4* __restrict__ out) {
  const int t = threadIdx.x;
  const size_t row = size_t(blockIdx.y) * 32 + t / 8;
  const size_t col = size_t(blockIdx.x) * 8 + t % 8;
  const size_t k = row * (TILE_COLS4 + PAD) + col;
  out[k] = in[k];
}

// Each warp copies 4 pieces of 32 float4s (512 bytes), GAP float4s apart (GAP a multiple of 32),
// all four loads in flight: chunks of 4 x GAP float4s, GAP / 32 warps a chunk, warp j of a chunk
// taking pieces j x 32 + c x GAP. Every float4 copied once; GAP = 32 is one 2 KB run a warp.
template <int GAP>
__global__ void fan(const float4* __restrict__ in, float4* __restrict__ out) {
  constexpr int WarpsPerChunk = GAP / 32;
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const size_t base = (warp / WarpsPerChunk) * (4 * size_t(GAP)) + (warp % WarpsPerChunk) * 32 +
                      threadIdx.x % 32;
  float4 v[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) v[c] = in[base + c * GAP];
#pragma unroll
  for (int c = 0; c < 4; ++c) out[base + c * GAP] = v[c];
}

// copy_float4's one float4 a lane, the warp's four 8-lane groups GAP float4s apart (GAP a
// multiple of 8): chunks of 4 x GAP float4s, GAP / 8 warps a chunk, warp j of a chunk taking
// group c at j x 8 + c x GAP. Every float4 copied once; GAP = 8 is copy_float4.
template <int GAP>
__global__ void split(const float4* __restrict__ in, float4* __restrict__ out) {
  constexpr int WarpsPerChunk = GAP / 8;
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  const size_t k = (warp / WarpsPerChunk) * (4 * size_t(GAP)) + (warp % WarpsPerChunk) * 8 +
                   (lane / 8) * size_t(GAP) + lane % 8;
  out[k] = in[k];
}

struct Row {
  std::string Kind;
  int Trips;    ///< TRIPS (runs), C (stripe) or REGIONS (scatter)
  int RunBytes; ///< the bytes one warp reads over its life
  double Ms, TBs, RangeMB;
};

template <typename K>
Row measure(const char *Kind, int Trips, K Kernel, const float4 *In, float4 *Out,
            int ResidentWarps, dim3 Blocks = dim3(0), int RunBytes = 0,
            double CopiedFloat4s = double(N4)) {
  if (Blocks.x == 0)
    Blocks = dim3(unsigned(N4 / Trips / THREADS));
  if (RunBytes == 0)
    RunBytes = Trips * 512;
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
  // What crosses the bus: 1 GiB read (less for the pitch and tile rows, which leave the
  // float4s between their rows alone) and, but for the read-only rows, as much written.
  double Bytes =
      (std::string(Kind).rfind("read", 0) == 0 ? 1.0 : 2.0) * CopiedFloat4s * sizeof(float4);
  return {Kind, Trips, RunBytes, Ms, Bytes / (Ms * 1e-3) / 1e12,
          double(ResidentWarps) * RunBytes / 1e6};
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
  // "trips" below is C (stripe) or REGIONS (scatter); "range" is always resident warps x the
  // bytes a warp reads over its life (the cost model's), which for scatter is not the span of
  // the addresses: that is the whole array from REGIONS = 2 on.
  const unsigned Flat = unsigned(N4 / THREADS);
  Rows.push_back(measure("stripe", 1, stripe<1>, In, Out, ResidentWarps, Flat, 1 * 512));
  Rows.push_back(measure("stripe", 2, stripe<2>, In, Out, ResidentWarps, Flat / 2, 2 * 512));
  Rows.push_back(measure("stripe", 4, stripe<4>, In, Out, ResidentWarps, Flat / 4, 4 * 512));
  Rows.push_back(measure("stripe", 8, stripe<8>, In, Out, ResidentWarps, Flat / 8, 8 * 512));
  Rows.push_back(measure("stripe", 16, stripe<16>, In, Out, ResidentWarps, Flat / 16, 16 * 512));
  Rows.push_back(measure("scatter", 1, scatter<1>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("scatter", 4, scatter<4>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("scatter", 16, scatter<16>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("scatter", 64, scatter<64>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("scatter", 256, scatter<256>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("scatter", 1024, scatter<1024>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("scatter", 4096, scatter<4096>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("read", 1, read_runs<1>, In, Out, ResidentWarps));
  Rows.push_back(measure("read", 4, read_runs<4>, In, Out, ResidentWarps));
  Rows.push_back(measure("read", 16, read_runs<16>, In, Out, ResidentWarps));
  Rows.push_back(measure("read", 64, read_runs<64>, In, Out, ResidentWarps));
  Rows.push_back(measure("readscat", 16, read_scatter<16>, In, Out, ResidentWarps, Flat, 512));
  Rows.push_back(measure("readscat", 256, read_scatter<256>, In, Out, ResidentWarps, Flat, 512));
  // "trips" is the pitch in float4s (stripe) or the pad (tile).
  auto Pitch = [&](int P, auto Kernel) {
    const size_t Blocks = N4 / (4 * size_t(P));
    Rows.push_back(measure("pitch", P, Kernel, In, Out, ResidentWarps, dim3(unsigned(Blocks)),
                           4 * 512, double(Blocks) * 4 * THREADS));
  };
  Pitch(256, stripe_pitch<256>);
  Pitch(264, stripe_pitch<264>);
  Pitch(288, stripe_pitch<288>);
  Pitch(320, stripe_pitch<320>);
  Pitch(384, stripe_pitch<384>);
  Pitch(512, stripe_pitch<512>);
  auto Tile = [&](int Pad, auto Kernel) {
    const size_t Rows32 = N4 / (TILE_COLS4 + size_t(Pad)) / 32; // tile rows that fit
    Rows.push_back(measure("tile", Pad, Kernel, In, Out, ResidentWarps,
                           dim3(TILE_COLS4 / 8, unsigned(Rows32)), 512,
                           double(Rows32) * 32 * TILE_COLS4));
  };
  Tile(0, tile_pitch<0>);
  Tile(8, tile_pitch<8>);
  Tile(32, tile_pitch<32>);
  Tile(256, tile_pitch<256>);
  // "trips" is the gap between a warp's pieces in bytes.
  auto Fan = [&](int Gap, auto Kernel) {
    Rows.push_back(measure("fan", Gap * 16, Kernel, In, Out, ResidentWarps,
                           dim3(unsigned(N4 / 4 / THREADS)), 4 * 512));
  };
  Fan(32, fan<32>);
  Fan(64, fan<64>);
  Fan(128, fan<128>);
  Fan(256, fan<256>);
  Fan(512, fan<512>);
  Fan(1024, fan<1024>);
  Fan(4096, fan<4096>);
  // "trips" is the distance between a warp's 8-lane groups in bytes.
  auto Split = [&](int Gap, auto Kernel) {
    Rows.push_back(measure("split", Gap * 16, Kernel, In, Out, ResidentWarps, Flat, 512));
  };
  Split(8, split<8>);
  Split(64, split<64>);
  Split(128, split<128>);
  Split(256, split<256>);
  Split(512, split<512>);
  Split(4096, split<4096>);

  std::printf("%s, %d SMs; 1 GiB read + 1 GiB written (read rows: read only; pitch and tile "
              "rows: less); trips: TRIPS, C, REGIONS, the pitch or pad in float4s, or the gap "
              "or distance in bytes\n",
              P.name, P.multiProcessorCount);
  std::printf("%-8s %6s %14s %9s %7s %9s\n", "kind", "trips", "reads a warp", "range MB",
              "ms", "TB/s");
  // Each row against the 1-trip copy, the read rows against the 1-trip read: the time the row
  // takes a byte (the pitch and tile rows move fewer bytes than the others).
  const double CopyBase = Rows[0].TBs;
  double ReadBase = 0;
  for (const Row &R : Rows)
    if (R.Kind == "read" && R.Trips == 1)
      ReadBase = R.TBs;
  for (const Row &R : Rows) {
    const bool Read = R.Kind.rfind("read", 0) == 0;
    std::printf("%-8s %6d %12d B %9.1f %7.3f %9.3f  (%.3fx the 1-trip %s time a byte)\n",
                R.Kind.c_str(), R.Trips, R.RunBytes, R.RangeMB, R.Ms, R.TBs,
                (Read ? ReadBase : CopyBase) / R.TBs, Read ? "read" : "copy");
  }
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
                   I ? ", " : "", Rows[I].Kind.c_str(), Rows[I].Trips, Rows[I].RunBytes,
                   Rows[I].RangeMB, Rows[I].Ms, Rows[I].TBs);
    std::fprintf(F, "]}\n");
    std::fclose(F);
  }
  CUDA_CHECK(cudaFree(In));
  CUDA_CHECK(cudaFree(Out));
  return 0;
}
