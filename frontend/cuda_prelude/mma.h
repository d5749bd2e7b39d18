/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <mma.h>: nvcuda::wmma fragments and the
 * load/store/fill/mma operations on them, as declarations. The fragment's
 * num_elements is a stand-in (one element per lane per 32 matrix entries),
 * not the toolkit's per-architecture value: x[] is register storage, which
 * the analysis does not model as memory.
 */
#ifndef __CUDA_MMA_H__
#define __CUDA_MMA_H__
#pragma clang system_header

#include "cuda_fp16.h"
#include "cuda_bf16.h"

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;

namespace precision {
struct tf32;
} /* namespace precision */
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
} /* namespace precision */
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} /* namespace experimental */

enum layout_t { mem_row_major, mem_col_major };

template <typename T> struct __cal_storage { typedef T type; };
template <> struct __cal_storage<precision::tf32> { typedef float type; };
template <> struct __cal_storage<experimental::precision::u4> {
  typedef int type;
};
template <> struct __cal_storage<experimental::precision::s4> {
  typedef int type;
};
template <> struct __cal_storage<experimental::precision::b1> {
  typedef int type;
};

template <typename Use, int m, int n, int k> struct __cal_frag_size;
template <int m, int n, int k> struct __cal_frag_size<matrix_a, m, n, k> {
  static constexpr int value = (m * k) / 32 > 0 ? (m * k) / 32 : 1;
};
template <int m, int n, int k> struct __cal_frag_size<matrix_b, m, n, k> {
  static constexpr int value = (k * n) / 32 > 0 ? (k * n) / 32 : 1;
};
template <int m, int n, int k> struct __cal_frag_size<accumulator, m, n, k> {
  static constexpr int value = (m * n) / 32 > 0 ? (m * n) / 32 : 1;
};

template <typename Use, int m, int n, int k, typename T,
          typename Layout = void>
class fragment {
public:
  typedef typename __cal_storage<T>::type storage_element_type;
  typedef storage_element_type element_type;
  static constexpr int num_elements = __cal_frag_size<Use, m, n, k>::value;
  storage_element_type x[num_elements];
};

template <typename Use, int m, int n, int k, typename T, typename Layout,
          typename V>
__device__ void fill_fragment(fragment<Use, m, n, k, T, Layout> &a,
                              const V &v);
template <typename Use, int m, int n, int k, typename T, typename Layout,
          typename U>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a,
                                 const U *p, unsigned ldm);
template <int m, int n, int k, typename T, typename U>
__device__ void load_matrix_sync(fragment<accumulator, m, n, k, T, void> &a,
                                 const U *p, unsigned ldm, layout_t layout);
template <int m, int n, int k, typename T, typename U>
__device__ void store_matrix_sync(U *p,
                                  const fragment<accumulator, m, n, k, T, void> &a,
                                  unsigned ldm, layout_t layout);
template <int m, int n, int k, typename Td, typename Ta, typename La,
          typename Tb, typename Lb, typename Tc>
__device__ void mma_sync(fragment<accumulator, m, n, k, Td, void> &d,
                         const fragment<matrix_a, m, n, k, Ta, La> &a,
                         const fragment<matrix_b, m, n, k, Tb, Lb> &b,
                         const fragment<accumulator, m, n, k, Tc, void> &c,
                         bool satf = false);
template <int m, int n, int k, typename Ta, typename La, typename Tb,
          typename Lb>
__device__ void bmma_sync(fragment<accumulator, m, n, k, int, void> &d,
                          const fragment<matrix_a, m, n, k, Ta, La> &a,
                          const fragment<matrix_b, m, n, k, Tb, Lb> &b,
                          const fragment<accumulator, m, n, k, int, void> &c,
                          experimental::bmmaBitOp op = experimental::bmmaBitOpXOR,
                          experimental::bmmaAccumulateOp accOp =
                              experimental::bmmaAccumulateOpPOPC);

__device__ float __float_to_tf32(float in);

} /* namespace wmma */
} /* namespace nvcuda */

#endif /* __CUDA_MMA_H__ */
