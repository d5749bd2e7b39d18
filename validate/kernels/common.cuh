// Shared host-side plumbing for the validation kernels: error checking, the kernel registry,
// the input data sets and the CPU-side checks. Nothing in here is device code that the
// analyzer is meant to judge; the kernels live in the .cu files beside this header.
#pragma once

#include <cuda_runtime.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#define CUDA_CHECK(call)                                                                    \
  do {                                                                                      \
    cudaError_t err_ = (call);                                                              \
    if (err_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, \
                   __LINE__, cudaGetErrorString(err_));                                     \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)

// After every launch: launch-configuration errors show up here at once.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

namespace validate {

struct CheckResult {
  bool correct = false;
  long long checked = 0;     // elements compared
  long long mismatches = 0;  // elements outside tolerance (NaN poison left over counts here)
  double max_rel_err = 0.0;  // largest |gpu - ref| / |ref| seen
  double rel_l2_err = 0.0;   // ||gpu - ref|| / ||ref||
  double tolerance = 0.0;    // per-element relative tolerance used (0: exact equality)
  std::string note;
};

struct KernelInfo {
  std::string name;             // stable name, e.g. "w1_blocked<256,16>"
  std::string group;            // w1 | w2 | transpose | copy1d | store | sgemm
  std::string pattern;          // blocked | striped | blocked_vec | staged | naive | ...
  std::string kernel_function;  // C++ name of the __global__ function in the source
  std::string template_args;    // its template arguments as written at the launch, e.g. "256, 16"
  std::string source;           // source file, relative to validate/
  const void* func = nullptr;   // the instantiated __global__ function (for its attributes)
  std::vector<std::pair<std::string, long long>> params;  // threads, V, pad, block/grid dims ...
  double bytes_read = 0;        // bytes the kernel must read (each input byte it uses once)
  double bytes_written = 0;     // bytes it writes
  std::string bytes_note;       // how the byte count was made
  std::function<void()> launch;         // one launch on the default stream (+ launch check)
  std::function<void()> poison;         // fill the output with NaN bytes
  std::function<CheckResult()> verify;  // copy the output back and compare with the CPU reference
};

using Registry = std::vector<KernelInfo>;

void register_row_product(Registry& r);     // kernels/row_product.cu    (workload 1)
void register_prefix_product(Registry& r);  // kernels/prefix_product.cu (workload 2)
void register_transpose(Registry& r);       // kernels/transpose.cu      (2-D transposes, copy)
void register_copy(Registry& r);            // kernels/copy.cu           (1-D copies)
void register_store(Registry& r);           // kernels/store.cu          (store patterns)
void register_sgemm(Registry& r);           // kernels/sgemm.cu          (the SGEMM path)

// ---- input data (runner/data.cu): random, never zeros, made once per process, lazily ------
// Workload 1 and 2 input: bf16 65536 x 4096, uniform in [0.98, 1.02] rounded to bf16.
struct RowInput {
  int rows = 0, cols = 0;
  std::vector<__nv_bfloat16> host;  // row-major
  std::vector<float> host_f;        // the same values as float
  __nv_bfloat16* dev = nullptr;
};
const RowInput& row_input();

// Float inputs for the transposes and the 1-D copies: uniform in [-1, 1], no zeros.
struct FloatInput {
  size_t count = 0;
  std::vector<float> host;
  float* dev = nullptr;
};
const FloatInput& matrix_input();  // 16384 x 16384 floats (1 GiB)
const FloatInput& vector_input();  // 2^28 floats (1 GiB) + 64 floats of slack for the offsets

// Device allocation that lives for the whole process (freed at exit by the driver).
void* device_alloc(size_t bytes);

// Run f(begin, end) over [0, n) on all host cores.
void parallel_for(long long n, const std::function<void(long long, long long)>& f);

// Number of elements of the output still holding the all-ones (NaN) poison pattern is counted
// as mismatches by the checks; these helpers fill the poison.
inline void poison_bytes(void* dev, size_t bytes) { CUDA_CHECK(cudaMemset(dev, 0xFF, bytes)); }

}  // namespace validate
