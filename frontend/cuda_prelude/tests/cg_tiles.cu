// Cooperative groups: thread_block members, tiled_partition<N> tiles of 32,
// 16 and 4 with their shuffles and votes, meta_group_rank, a dynamic
// tiled_partition, coalesced_threads, cg::reduce with plus / greater / less,
// cg::inclusive_scan, and grid_group ranks.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

template <typename Group>
__device__ float tile_sum(const Group &g, float v) {
  for (int offset = g.size() / 2; offset > 0; offset /= 2)
    v += g.shfl_down(v, offset);
  return v;
}

__global__ void tiles(const float *in, float *out, int *maxes, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(warp);
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(block);
  unsigned idx = block.group_index().x * block.dim_threads().x + block.thread_index().x;
  float v = idx < (unsigned)n ? in[idx] : 0.0f;
  float s32 = tile_sum(warp, v);
  float s16 = tile_sum(half, v);
  float s4 = quad.shfl_xor(v, 1) + quad.shfl_up(v, 1) + quad.shfl(v, 0);
  int iv = (int)v;
  int mx = cg::reduce(warp, iv, cg::greater<int>());
  int mn = cg::reduce(half, iv, cg::less<int>());
  float total = cg::reduce(warp, v, cg::plus<float>());
  unsigned votes = warp.ballot(v > 0.0f);
  bool any = warp.any(v > 1.0f), all = warp.all(v >= 0.0f);
  if (warp.thread_rank() == 0) {
    out[block.group_index().x * warp.meta_group_size() + warp.meta_group_rank()] =
        s32 + s16 + s4 + total + (float)__popc(votes) + (any ? 1.0f : 0.0f) +
        (all ? 1.0f : 0.0f);
    maxes[block.group_index().x * 2] = mx;
    maxes[block.group_index().x * 2 + 1] = mn;
  }
  block.sync();
  cg::sync(warp);
}

__global__ void dynamic_and_coalesced(const int *flags, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile8 = cg::tiled_partition(block, 8);
  tile8.sync();
  int r = (int)tile8.thread_rank();
  if (flags[block.thread_rank()]) {
    cg::coalesced_group active = cg::coalesced_threads();
    int leader = active.shfl((int)block.thread_rank(), 0);
    if (active.thread_rank() == 0)
      atomicAdd(out, (int)active.size());
    r += leader;
  }
  out[1 + block.thread_rank()] = r;
}

__global__ void scan_and_grid(const int *in, int *out, unsigned long long *ranks) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = in[block.group_index().x * block.size() + block.thread_rank()];
  int incl = cg::inclusive_scan(warp, v, cg::plus<int>());
  out[block.group_index().x * block.size() + block.thread_rank()] = incl;
  cg::grid_group grid = cg::this_grid();
  ranks[grid.thread_rank()] = grid.block_rank() * 1000 + grid.num_blocks();
}

int main() {
  float *f;
  int *i;
  unsigned long long *r;
  cudaMalloc(&f, 1 << 20);
  cudaMalloc(&i, 1 << 20);
  cudaMalloc(&r, 1 << 20);
  tiles<<<64, 256>>>(f, f, i, 64 * 256);
  dynamic_and_coalesced<<<1, 128>>>(i, i);
  scan_and_grid<<<16, 128>>>(i, i, r);
  cudaDeviceSynchronize();
  cudaFree(f);
  cudaFree(i);
  cudaFree(r);
  return 0;
}
