/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * clang's __clang_cuda_intrinsics.h includes the toolkit's "crt/sm_70_rt.hpp"
 * (for __CUDA_ARCH__ >= 700) right after defining __match32/64_any/all_sync.
 * Without a toolkit this file stands in for it: the sm_70 functions of
 * crt/sm_70_rt.h, as declarations.
 *
 * NOTE: the only file of the prelude whose name does not end in .h: the name
 * is fixed by clang's header. The tool must embed it too.
 */
#ifndef CUDA_ACCESS_LINT_CRT_SM_70_RT_HPP
#define CUDA_ACCESS_LINT_CRT_SM_70_RT_HPP
#pragma clang system_header

__device__ unsigned int __match_any_sync(unsigned mask, unsigned value);
__device__ unsigned int __match_any_sync(unsigned mask, int value);
__device__ unsigned int __match_any_sync(unsigned mask, unsigned long value);
__device__ unsigned int __match_any_sync(unsigned mask, long value);
__device__ unsigned int __match_any_sync(unsigned mask,
                                         unsigned long long value);
__device__ unsigned int __match_any_sync(unsigned mask, long long value);
__device__ unsigned int __match_any_sync(unsigned mask, float value);
__device__ unsigned int __match_any_sync(unsigned mask, double value);

__device__ unsigned int __match_all_sync(unsigned mask, unsigned value,
                                         int *pred);
__device__ unsigned int __match_all_sync(unsigned mask, int value, int *pred);
__device__ unsigned int __match_all_sync(unsigned mask, unsigned long value,
                                         int *pred);
__device__ unsigned int __match_all_sync(unsigned mask, long value, int *pred);
__device__ unsigned int __match_all_sync(unsigned mask,
                                         unsigned long long value, int *pred);
__device__ unsigned int __match_all_sync(unsigned mask, long long value,
                                         int *pred);
__device__ unsigned int __match_all_sync(unsigned mask, float value,
                                         int *pred);
__device__ unsigned int __match_all_sync(unsigned mask, double value,
                                         int *pred);

__device__ void __nanosleep(unsigned int ns);

__device__ unsigned short int atomicCAS(unsigned short int *address,
                                        unsigned short int compare,
                                        unsigned short int val);

#endif /* CUDA_ACCESS_LINT_CRT_SM_70_RT_HPP */
