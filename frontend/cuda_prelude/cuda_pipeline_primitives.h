/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cuda_pipeline_primitives.h>: the asynchronous
 * global-to-shared copy primitives (cp.async), as declarations.
 */
#ifndef _CUDA_PIPELINE_PRIMITIVES_H_
#define _CUDA_PIPELINE_PRIMITIVES_H_
#pragma clang system_header

#include "cuda_access_lint_prelude.h"

typedef uint64_t __mbarrier_t;
typedef uint64_t __mbarrier_token_t;

/* Copies size_and_align (4, 8 or 16) bytes from global to shared memory,
 * filling the last zfill bytes with zeros. */
__device__ void __pipeline_memcpy_async(void *__restrict__ dst_shared,
                                        const void *__restrict__ src_global,
                                        size_t size_and_align,
                                        size_t zfill = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t prior);
__device__ void __pipeline_arrive_on(__mbarrier_t *barrier);

#endif /* _CUDA_PIPELINE_PRIMITIVES_H_ */
