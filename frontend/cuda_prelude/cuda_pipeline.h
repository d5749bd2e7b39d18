/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cuda_pipeline.h>: the primitives of
 * cuda_pipeline_primitives.h and the C++ interface
 * nvcuda::experimental::pipeline / memcpy_async, as declarations.
 */
#ifndef _CUDA_PIPELINE_H_
#define _CUDA_PIPELINE_H_
#pragma clang system_header

#include "cuda_pipeline_primitives.h"

namespace nvcuda {
namespace experimental {

template <size_t N, typename T> __device__ auto segment(T *ptr) -> T (*)[N];

class pipeline {
public:
  pipeline(const pipeline &) = delete;
  pipeline(pipeline &&) = delete;
  pipeline &operator=(const pipeline &) = delete;
  pipeline &operator=(pipeline &&) = delete;
  __device__ pipeline();
  __device__ size_t commit();
  __device__ void commit_and_wait();
  __device__ void wait(size_t batch);
  template <unsigned N> __device__ void wait_prior();

private:
  size_t current_batch;
};

template <class T>
__device__ void memcpy_async(T &dst, const T &src, pipeline &pipe);
template <class T, size_t DstN, size_t SrcN>
__device__ void memcpy_async(T (*dst)[DstN], const T (*src)[SrcN],
                             pipeline &pipe);

} /* namespace experimental */
} /* namespace nvcuda */

#endif /* _CUDA_PIPELINE_H_ */
