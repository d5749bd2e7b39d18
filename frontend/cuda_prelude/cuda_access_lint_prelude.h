/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Force-included (-include cuda_access_lint_prelude.h) in place of clang's
 * __clang_cuda_runtime_wrapper.h when no CUDA toolkit exists:
 *
 *   clang++ -x cuda --cuda-device-only --offload-arch=sm_90 -fsyntax-only
 *     --cuda-path=/nonexistent -nocudainc -nocudalib
 *     -isystem <this directory> -include cuda_access_lint_prelude.h file.cu
 *
 * It gives a .cu file what nvcc's implicit cuda_runtime.h gives it: the
 * execution-space macros, threadIdx/blockIdx/blockDim/gridDim/warpSize, the
 * vector types and dim3, the device functions, math, intrinsics and atomics,
 * printf/malloc/free, and the host runtime API. It is built the way clang's
 * own wrapper is built, and reuses clang's resource headers for everything
 * clang implements itself (__clang_cuda_device_functions.h, _math.h,
 * _intrinsics.h, _cmath.h, ...), so a kernel resolves to the same
 * declarations as in a parse against a real toolkit; what the toolkit would
 * contribute is declared by the files under cuda_access_lint/.
 *
 * Opt-in headers (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cooperative_groups.h,
 * mma.h, cuda_pipeline.h, curand_kernel.h, ...) are stubs in this directory,
 * found through -isystem. Parsing only: nothing here generates code.
 */
#ifndef CUDA_ACCESS_LINT_PRELUDE_H
#define CUDA_ACCESS_LINT_PRELUDE_H
#pragma clang system_header

#if !defined(__CUDA__) || !defined(__clang__) || !defined(__cplusplus)
#error "cuda_access_lint_prelude.h is for clang's CUDA mode (-x cuda)"
#endif
#if defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
#error "cuda_access_lint_prelude.h replaces clang's CUDA wrapper: add -nocudainc"
#endif

#define CUDA_ACCESS_LINT_PRELUDE 1

/* The CUDA version the prelude models. Override with -DCUDA_ACCESS_LINT_CUDA_VERSION=... */
#ifndef CUDA_ACCESS_LINT_CUDA_VERSION
#define CUDA_ACCESS_LINT_CUDA_VERSION 12080
#endif
#define CUDA_VERSION CUDA_ACCESS_LINT_CUDA_VERSION
#define CUDART_VERSION CUDA_ACCESS_LINT_CUDA_VERSION
#define __CUDART_API_VERSION CUDART_VERSION

/* Execution-space macros come first: clang's cuda_wrappers/<algorithm> and
 * <new> (on the include path even with -nocudainc) need them. */
#include "cuda_access_lint/host_defines.h"

/* As in __clang_cuda_runtime_wrapper.h: device overloads of the math
 * functions must be declared before <cmath> pulls the C functions into
 * namespace std, and the C library headers come before the device
 * declarations that overload them. */
#include <__clang_cuda_math_forward_declares.h>
#define __CUDACC__
#include <climits>
#include <cmath>
#include <cstdlib>
#include <stdlib.h>
#include <string.h>

#include <__clang_cuda_builtin_vars.h>
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "cuda_access_lint/vector_types.h"
#include "cuda_access_lint/vector_functions.h"
#include "cuda_access_lint/driver_types.h"
#include "cuda_access_lint/runtime_api.h"

#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

#include "cuda_access_lint/device_functions.h"

/* Device-side system calls, as clang's wrapper declares them. */
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *__message, const char *__file,
                             unsigned __line, const char *__function,
                             size_t __charSize);
__device__ static inline void __assert_fail(const char *__message,
                                            const char *__file, unsigned __line,
                                            const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
__device__ int printf(const char *, ...);
} /* extern "C" */

namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) {
  return ::malloc(__size);
}
} /* namespace std */

/* Out-of-line members of __clang_cuda_builtin_vars.h's types. */
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return {x, y, z};
}

#include <__clang_cuda_cmath.h>
/* Includes "crt/sm_70_rt.hpp", which this directory provides. */
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>

/* What nvcc has and clang's headers lack (the cache-hint loads and stores,
 * __tanhf, ...): shared with mode T, where it is force-included after the
 * toolkit-based wrapper. */
#include "cuda_access_lint_supplement.h"

#endif /* CUDA_ACCESS_LINT_PRELUDE_H */
