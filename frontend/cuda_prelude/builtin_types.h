/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <builtin_types.h>: its contents are part of what nvcc makes
 * implicitly available, which cuda_access_lint_prelude.h (force-included)
 * already declares.
 */
#ifndef CUDA_ACCESS_LINT_STUB_BUILTIN_TYPES_H
#define CUDA_ACCESS_LINT_STUB_BUILTIN_TYPES_H
#pragma clang system_header
#include "cuda_access_lint_prelude.h"
#endif /* CUDA_ACCESS_LINT_STUB_BUILTIN_TYPES_H */
