/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cooperative_groups.h>: the group types and their
 * common members, as declarations:
 *   this_thread_block() -> thread_block (sync, thread_rank, size,
 *     num_threads, group_index, thread_index, group_dim, dim_threads),
 *   tiled_partition<N>(g) -> thread_block_tile<N, Parent> (sync, thread_rank,
 *     size, num_threads, meta_group_rank, meta_group_size, shfl, shfl_down,
 *     shfl_up, shfl_xor, any, all, ballot, match_any, match_all),
 *   tiled_partition(g, n) -> thread_group, coalesced_threads() ->
 *   coalesced_group, this_grid() -> grid_group, this_cluster() ->
 *   cluster_group, cg::sync(g), labeled_partition, binary_partition.
 * cooperative_groups/reduce.h, scan.h and memcpy_async.h add cg::reduce with
 * the cg::plus/less/greater/bit_* functors, inclusive/exclusive_scan and
 * cg::memcpy_async/wait/wait_prior.
 */
#ifndef _COOPERATIVE_GROUPS_H_
#define _COOPERATIVE_GROUPS_H_
#pragma clang system_header

#include "cuda_access_lint_prelude.h"

namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
  __device__ unsigned int get_type() const;
};

class grid_group : public thread_group {
public:
  __device__ bool is_valid() const;
  __device__ void sync() const;
  static __device__ unsigned long long size();
  static __device__ unsigned long long num_threads();
  static __device__ unsigned long long thread_rank();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
  static __device__ dim3 thread_index();
  static __device__ dim3 dim_blocks();
  static __device__ dim3 block_index();
  static __device__ unsigned long long num_blocks();
  static __device__ unsigned long long block_rank();
  static __device__ dim3 dim_clusters();
  static __device__ unsigned long long num_clusters();
  static __device__ dim3 cluster_index();
  static __device__ unsigned long long cluster_rank();
};
__device__ grid_group this_grid();

class cluster_group : public thread_group {
public:
  static __device__ void sync();
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int thread_rank();
  static __device__ unsigned int block_rank();
  static __device__ dim3 block_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 dim_blocks();
  static __device__ dim3 dim_threads();
  static __device__ unsigned int num_blocks();
  static __device__ unsigned int query_shared_rank(const void *addr);
  template <typename T>
  static __device__ T *map_shared_rank(T *addr, int rank);
  template <typename T>
  static __device__ T &map_shared_rank(T &addr, int rank);
  static __device__ void barrier_arrive();
  static __device__ void barrier_wait();
};
__device__ cluster_group this_cluster();

class thread_block : public thread_group {
public:
  static __device__ void sync();
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 group_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
};
__device__ thread_block this_thread_block();

/* Members common to coalesced_group and thread_block_tile. */
#define __CAL_CG_WARP_MEMBERS                                                  \
  template <typename T> __device__ T shfl(T var, int srcRank) const;           \
  template <typename T>                                                        \
  __device__ T shfl_down(T var, unsigned int delta) const;                     \
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const; \
  __device__ int any(int predicate) const;                                     \
  __device__ int all(int predicate) const;                                     \
  __device__ unsigned int ballot(int predicate) const;                         \
  template <typename T> __device__ unsigned int match_any(T val) const;        \
  template <typename T>                                                        \
  __device__ unsigned int match_all(T val, int &pred) const;

class coalesced_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __CAL_CG_WARP_MEMBERS
};
__device__ coalesced_group coalesced_threads();

template <unsigned int Size, typename ParentT = void>
class thread_block_tile : public thread_group {
  /* 64 .. 512: the toolkit's multi-warp tiles (CUDA 12 and later). */
  static_assert(Size > 0 && Size <= 512 && (Size & (Size - 1)) == 0,
                "thread_block_tile size must be a power of two <= 512");

public:
  static constexpr unsigned int numThreads = Size;
  __device__ thread_block_tile() {}
  template <typename P>
  __device__ thread_block_tile(const thread_block_tile<Size, P> &) {}
  __device__ void sync() const;
  static constexpr __device__ unsigned int size() { return Size; }
  static constexpr __device__ unsigned int num_threads() { return Size; }
  static constexpr __device__ unsigned int thread_rank_max() { return Size - 1; }
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __device__ bool is_valid() const;
  template <typename T>
  __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __CAL_CG_WARP_MEMBERS
};

#undef __CAL_CG_WARP_MEMBERS

template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g);
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned int tilesz);
__device__ thread_group tiled_partition(const thread_block &parent,
                                        unsigned int tilesz);
__device__ coalesced_group tiled_partition(const coalesced_group &parent,
                                           unsigned int tilesz);

__device__ coalesced_group labeled_partition(const coalesced_group &parent,
                                             int label);
template <unsigned int Size, typename ParentT>
__device__ coalesced_group
labeled_partition(const thread_block_tile<Size, ParentT> &parent, int label);
__device__ coalesced_group binary_partition(const coalesced_group &parent,
                                            bool pred);
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size> binary_partition(
    const thread_block_tile<Size, ParentT> &parent, bool pred);

template <class TyGroup> __device__ void sync(TyGroup const &g) { g.sync(); }
template <class TyGroup>
__device__ unsigned long long thread_rank(TyGroup const &g) {
  return g.thread_rank();
}
template <class TyGroup>
__device__ unsigned long long group_size(TyGroup const &g) {
  return g.size();
}

} /* namespace cooperative_groups */

#endif /* _COOPERATIVE_GROUPS_H_ */
