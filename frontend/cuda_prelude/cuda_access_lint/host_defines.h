/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Execution-space and declaration-specifier macros, spelled the way the CUDA
 * toolkit's crt/host_defines.h spells them for a GNU-style compiler, so the
 * AST has the same attributes as with a toolkit (CUDADeviceAttr,
 * CUDAGlobalAttr, CUDASharedAttr, CUDALaunchBoundsAttr, ...).
 *
 * Parsing only: nothing here is meant to generate code.
 */
#ifndef CUDA_ACCESS_LINT_HOST_DEFINES_H
#define CUDA_ACCESS_LINT_HOST_DEFINES_H
#pragma clang system_header

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* Clang implements the 'managed' attribute for HIP only: under CUDA it is
 * ignored with a warning and the variable silently becomes a host variable.
 * A managed variable lives in global memory, so parse it as a __device__
 * variable; the annotation keeps the distinction visible in the AST. */
#define __managed__ \
  __attribute__((device)) __attribute__((annotate("cuda_access_lint::managed")))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
/* Not known to clang 22 (CUDA 12.4+ / 13.0 attributes): kept as annotations
 * instead of unknown attributes, which would warn. */
#define __maxnreg__(n) __attribute__((annotate("cuda_access_lint::maxnreg", n)))
#define __local_maxnreg__(n) \
  __attribute__((annotate("cuda_access_lint::local_maxnreg", n)))
#define __block_size__(...) \
  __attribute__((annotate("cuda_access_lint::block_size", __VA_ARGS__)))
#define __inline_hint__
#define __nv_pure__

#undef __forceinline__
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__ is deliberately not a macro: clang treats it as a keyword in
 * CUDA mode (a macro would break libstdc++'s __attribute__((__noinline__))). */
#define __no_return__ __attribute__((noreturn))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __align__(n)
#define __thread__ __thread
#define __import__
#define __export__
#define __specialization_static

#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDARTAPI_CDECL

#define __CUDA_ARCH_HAS_FEATURE__(_FEAT) __CUDA_ARCH_FEAT_##_FEAT

#endif /* CUDA_ACCESS_LINT_HOST_DEFINES_H */
