// Error checking and device selection for the benchmark programs, in the
// style of a samples collection's shared helpers: host-only code that pulls
// in a good part of the C++ library.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

inline const char *errorName(cudaError_t e) { return cudaGetErrorName(e); }

template <typename T>
void check(T result, const char *what, const char *file, int line) {
  if (result) {
    std::ostringstream os;
    os << file << ":" << line << ": CUDA error " << static_cast<int>(result)
       << " (" << errorName(static_cast<cudaError_t>(result)) << ") in "
       << what;
    std::cerr << os.str() << std::endl;
    std::exit(EXIT_FAILURE);
  }
}

#define checkCuda(val) ::bench::check((val), #val, __FILE__, __LINE__)

inline void lastError(const char *msg, const char *file, int line) {
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "%s(%d): %s: %s\n", file, line, msg,
                 cudaGetErrorString(err));
    std::exit(EXIT_FAILURE);
  }
}

#define checkLastError(msg) ::bench::lastError(msg, __FILE__, __LINE__)

inline int coresPerSM(int major, int minor) {
  struct Entry {
    int version;
    int cores;
  };
  static const std::vector<Entry> table = {
      {0x70, 64},  {0x72, 64},  {0x75, 64},  {0x80, 64},
      {0x86, 128}, {0x87, 128}, {0x89, 128}, {0x90, 128}};
  int v = (major << 4) + minor;
  auto it = std::find_if(table.begin(), table.end(),
                         [v](const Entry &e) { return e.version == v; });
  return it == table.end() ? table.back().cores : it->cores;
}

inline int pickDevice(int argc, char **argv) {
  int count = 0;
  checkCuda(cudaGetDeviceCount(&count));
  if (count == 0)
    throw std::runtime_error("no CUDA device");
  int best = 0;
  long bestScore = -1;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p;
    checkCuda(cudaGetDeviceProperties(&p, d));
    long score = long(p.multiProcessorCount) * coresPerSM(p.major, p.minor);
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--device=", 9) == 0)
      best = std::atoi(argv[i] + 9);
  checkCuda(cudaSetDevice(best));
  return best;
}

} // namespace bench
