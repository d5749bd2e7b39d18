/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cooperative_groups/memcpy_async.h>:
 * cg::memcpy_async(group, dst, src, bytes) (also with a
 * cuda::aligned_size_t<N> size), cg::wait(group) and
 * cg::wait_prior<N>(group), as declarations.
 */
#ifndef _CG_MEMCPY_ASYNC_H_
#define _CG_MEMCPY_ASYNC_H_
#pragma clang system_header

#include "cooperative_groups.h"

namespace cuda {
template <size_t _Alignment> struct aligned_size_t {
  static constexpr size_t align = _Alignment;
  size_t value;
  __host__ __device__ constexpr explicit aligned_size_t(size_t __s)
      : value(__s) {}
  __host__ __device__ constexpr operator size_t() const { return value; }
};
} /* namespace cuda */

namespace cooperative_groups {

template <typename TyGroup>
__device__ void memcpy_async(const TyGroup &group, void *__restrict__ dst,
                             const void *__restrict__ src, size_t bytes);
template <typename TyGroup, size_t Align>
__device__ void memcpy_async(const TyGroup &group, void *__restrict__ dst,
                             const void *__restrict__ src,
                             const cuda::aligned_size_t<Align> &bytes);
template <typename TyGroup, typename TyElem>
__device__ void memcpy_async(const TyGroup &group, TyElem *__restrict__ dst,
                             size_t dstCount, const TyElem *__restrict__ src,
                             size_t srcCount);
template <typename TyGroup> __device__ void wait(TyGroup const &group);
template <unsigned int NumStages, typename TyGroup>
__device__ void wait_prior(TyGroup const &group);

} /* namespace cooperative_groups */

#endif /* _CG_MEMCPY_ASYNC_H_ */
