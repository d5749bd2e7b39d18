// Host code of a typical .cu file: device properties and attributes,
// occupancy, __constant__ memory through cudaMemcpyToSymbol, __managed__
// variables, cudaLaunchKernel / cudaLaunchKernelEx, streams, events,
// pinned memory, CUDA graphs by stream capture, error handling.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>

__constant__ float c_weights[64];
__device__ float d_scale;
__managed__ int m_counter;

__global__ void conv1d(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 64 > n)
    return;
  float acc = 0.0f;
#pragma unroll 8
  for (int k = 0; k < 64; ++k)
    acc += c_weights[k] * in[i + k];
  out[i] = acc * d_scale;
  if (i == 0)
    atomicAdd(&m_counter, 1);
}

__global__ void __cluster_dims__(2, 1, 1) cluster_kernel(float *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] = (float)__clusterRelativeBlockRank();
}

__global__ void fill(float *p, float v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    p[i] = v;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    fprintf(stderr, "%s: %s (%s)\n", what, cudaGetErrorString(e),
            cudaGetErrorName(e));
}

int main() {
  int count = 0, dev = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  check(cudaSetDevice(0), "cudaSetDevice");
  check(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  printf("%s sm_%d%d, %d SMs, %zu B smem/block (optin %zu), L2 %d B, warp %d, "
         "max %d threads/block, %d threads/SM, bus %d bits, %zu B global\n",
         prop.name, prop.major, prop.minor, prop.multiProcessorCount,
         prop.sharedMemPerBlock, prop.sharedMemPerBlockOptin, prop.l2CacheSize,
         prop.warpSize, prop.maxThreadsPerBlock,
         prop.maxThreadsPerMultiProcessor, prop.memoryBusWidth,
         prop.totalGlobalMem);
  int smCount = 0, maxSmem = 0;
  cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&maxSmem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);

  int blocksPerSm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, conv1d, 256, 0),
        "occupancy");
  int minGrid = 0, bestBlock = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, fill, 0, 0);

  float h_weights[64];
  for (int k = 0; k < 64; ++k)
    h_weights[k] = 1.0f / 64;
  check(cudaMemcpyToSymbol(c_weights, h_weights, sizeof(h_weights)), "symbol");
  float scale = 2.0f;
  cudaMemcpyToSymbol(d_scale, &scale, sizeof(float), 0, cudaMemcpyHostToDevice);
  float *d_scale_ptr = nullptr;
  cudaGetSymbolAddress((void **)&d_scale_ptr, d_scale);
  m_counter = 0;

  const int n = 1 << 22;
  float *in = nullptr, *out = nullptr, *host = nullptr;
  check(cudaMalloc(&in, n * sizeof(float)), "cudaMalloc");
  check(cudaMallocManaged(&out, n * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocHost(&host, n * sizeof(float)), "cudaMallocHost");
  cudaPointerAttributes attrs;
  cudaPointerGetAttributes(&attrs, out);

  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t ev;
  cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  cudaMemsetAsync(in, 0, n * sizeof(float), s1);
  fill<<<smCount * blocksPerSm, 256, 0, s1>>>(in, 1.0f, n);
  cudaEventRecord(ev, s1);
  cudaStreamWaitEvent(s2, ev, 0);

  void *args[] = {&in, &out, (void *)&n};
  check(cudaLaunchKernel((const void *)conv1d, dim3((n + 255) / 256), dim3(256),
                         args, 0, s2),
        "cudaLaunchKernel");

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64);
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s2;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  check(cudaLaunchKernelEx(&cfg, cluster_kernel, out), "cudaLaunchKernelEx");

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  fill<<<128, 256, 0, s1>>>(out, 3.0f, n);
  conv1d<<<(n + 255) / 256, 256, 0, s1>>>(in, out, n);
  cudaStreamEndCapture(s1, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s1);
  cudaMemcpyAsync(host, out, n * sizeof(float), cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s1);
  check(cudaPeekAtLastError(), "launch");
  check(cudaDeviceSynchronize(), "sync");
  printf("%f %d %d %d %p\n", host[0], m_counter, minGrid + bestBlock, maxSmem,
         (void *)d_scale_ptr);

  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaEventDestroy(ev);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFreeHost(host);
  cudaFree(in);
  cudaFree(out);
  cudaDeviceReset();
  return 0;
}
