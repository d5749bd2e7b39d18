/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Host-side CUDA runtime API (cuda_runtime_api.h, and the C++ template
 * overloads of cuda_runtime.h): declarations enough to parse typical host
 * code in a .cu file. Host functions are never emitted in a device-side
 * parse, so nothing here needs a body except the C++ convenience templates,
 * which forward to the C functions as the toolkit's do.
 */
#ifndef CUDA_ACCESS_LINT_RUNTIME_API_H
#define CUDA_ACCESS_LINT_RUNTIME_API_H
#pragma clang system_header

#include "cuda_access_lint/driver_types.h"

extern "C" {

/* Error handling. */
extern __host__ cudaError_t cudaGetLastError(void);
extern __host__ cudaError_t cudaPeekAtLastError(void);
extern __host__ const char *cudaGetErrorString(cudaError_t error);
extern __host__ const char *cudaGetErrorName(cudaError_t error);

/* Devices. */
extern __host__ cudaError_t cudaGetDeviceCount(int *count);
extern __host__ cudaError_t cudaGetDevice(int *device);
extern __host__ cudaError_t cudaSetDevice(int device);
extern __host__ cudaError_t cudaSetDeviceFlags(unsigned int flags);
extern __host__ cudaError_t cudaGetDeviceFlags(unsigned int *flags);
extern __host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                                    int device);
extern __host__ cudaError_t cudaDeviceGetAttribute(int *value,
                                                   enum cudaDeviceAttr attr,
                                                   int device);
extern __host__ cudaError_t cudaDeviceSynchronize(void);
extern __host__ cudaError_t cudaDeviceReset(void);
extern __host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit limit,
                                               size_t value);
extern __host__ cudaError_t cudaDeviceGetLimit(size_t *pValue,
                                               enum cudaLimit limit);
extern __host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
extern __host__ cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
extern __host__ cudaError_t
cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
extern __host__ cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer,
                                                    int device, int peerDevice);
extern __host__ cudaError_t cudaDeviceEnablePeerAccess(int peerDevice,
                                                       unsigned int flags);
extern __host__ cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
extern __host__ cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                             int *greatestPriority);
extern __host__ cudaError_t cudaChooseDevice(int *device,
                                             const struct cudaDeviceProp *prop);
extern __host__ cudaError_t cudaDriverGetVersion(int *driverVersion);
extern __host__ cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
extern __host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);

/* Memory. */
extern __host__ cudaError_t cudaMalloc(void **devPtr, size_t size);
extern __host__ cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                                              unsigned int flags = cudaMemAttachGlobal);
extern __host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
extern __host__ cudaError_t cudaHostAlloc(void **pHost, size_t size,
                                          unsigned int flags);
extern __host__ cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch,
                                            size_t width, size_t height);
extern __host__ cudaError_t cudaMallocAsync(void **devPtr, size_t size,
                                            cudaStream_t hStream);
extern __host__ cudaError_t cudaFree(void *devPtr);
extern __host__ cudaError_t cudaFreeHost(void *ptr);
extern __host__ cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
extern __host__ cudaError_t cudaHostRegister(void *ptr, size_t size,
                                             unsigned int flags);
extern __host__ cudaError_t cudaHostUnregister(void *ptr);
extern __host__ cudaError_t cudaHostGetDevicePointer(void **pDevice,
                                                     void *pHost,
                                                     unsigned int flags);
extern __host__ cudaError_t
cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                         const void *ptr);
extern __host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind);
extern __host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                            size_t count,
                                            enum cudaMemcpyKind kind,
                                            cudaStream_t stream = 0);
extern __host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch,
                                         const void *src, size_t spitch,
                                         size_t width, size_t height,
                                         enum cudaMemcpyKind kind);
extern __host__ cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch,
                                              const void *src, size_t spitch,
                                              size_t width, size_t height,
                                              enum cudaMemcpyKind kind,
                                              cudaStream_t stream = 0);
extern __host__ cudaError_t cudaMemcpyPeer(void *dst, int dstDevice,
                                           const void *src, int srcDevice,
                                           size_t count);
extern __host__ cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice,
                                                const void *src, int srcDevice,
                                                size_t count,
                                                cudaStream_t stream = 0);
extern __host__ cudaError_t cudaMemcpyToSymbol(const void *symbol,
                                               const void *src, size_t count,
                                               size_t offset = 0,
                                               enum cudaMemcpyKind kind =
                                                   cudaMemcpyHostToDevice);
extern __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol,
                                                 size_t count,
                                                 size_t offset = 0,
                                                 enum cudaMemcpyKind kind =
                                                     cudaMemcpyDeviceToHost);
extern __host__ cudaError_t
cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                        size_t offset, enum cudaMemcpyKind kind,
                        cudaStream_t stream = 0);
extern __host__ cudaError_t
cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                          size_t offset, enum cudaMemcpyKind kind,
                          cudaStream_t stream = 0);
extern __host__ cudaError_t cudaGetSymbolAddress(void **devPtr,
                                                 const void *symbol);
extern __host__ cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
extern __host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
extern __host__ cudaError_t cudaMemsetAsync(void *devPtr, int value,
                                            size_t count,
                                            cudaStream_t stream = 0);
extern __host__ cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value,
                                         size_t width, size_t height);
extern __host__ cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                          enum cudaMemoryAdvise advice,
                                          int device);

/* Streams. */
extern __host__ cudaError_t cudaStreamCreate(cudaStream_t *pStream);
extern __host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                      unsigned int flags);
extern __host__ cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                                         unsigned int flags,
                                                         int priority);
extern __host__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
extern __host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
extern __host__ cudaError_t cudaStreamQuery(cudaStream_t stream);
extern __host__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
                                                cudaEvent_t event,
                                                unsigned int flags = 0);
extern __host__ cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                                  cudaStreamCallback_t callback,
                                                  void *userData,
                                                  unsigned int flags);
extern __host__ cudaError_t cudaLaunchHostFunc(cudaStream_t stream,
                                               cudaHostFn_t fn, void *userData);
extern __host__ cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream,
                                                     void *devPtr,
                                                     size_t length = 0,
                                                     unsigned int flags =
                                                         cudaMemAttachSingle);
extern __host__ cudaError_t
cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
extern __host__ cudaError_t cudaStreamEndCapture(cudaStream_t stream,
                                                 cudaGraph_t *pGraph);
extern __host__ cudaError_t
cudaStreamIsCapturing(cudaStream_t stream,
                      enum cudaStreamCaptureStatus *pCaptureStatus);

/* Events. */
extern __host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
extern __host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                                     unsigned int flags);
extern __host__ cudaError_t cudaEventRecord(cudaEvent_t event,
                                            cudaStream_t stream = 0);
extern __host__ cudaError_t cudaEventQuery(cudaEvent_t event);
extern __host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
extern __host__ cudaError_t cudaEventDestroy(cudaEvent_t event);
extern __host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                                 cudaEvent_t end);

/* Graphs (the common stream-capture subset). */
extern __host__ cudaError_t cudaGraphCreate(cudaGraph_t *pGraph,
                                            unsigned int flags);
extern __host__ cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                                 cudaGraph_t graph,
                                                 unsigned long long flags = 0);
extern __host__ cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec,
                                            cudaStream_t stream);
extern __host__ cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
extern __host__ cudaError_t cudaGraphDestroy(cudaGraph_t graph);

/* Execution control. */
extern __host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
                                             dim3 blockDim, void **args,
                                             size_t sharedMem,
                                             cudaStream_t stream);
extern __host__ cudaError_t
cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                            void **args, size_t sharedMem,
                            cudaStream_t stream);
extern __host__ cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                                const void *func, void **args);
extern __host__ cudaError_t cudaFuncSetAttribute(const void *func,
                                                 enum cudaFuncAttribute attr,
                                                 int value);
extern __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                                  const void *func);
extern __host__ cudaError_t cudaFuncSetCacheConfig(const void *func,
                                                   enum cudaFuncCache cacheConfig);

/* Occupancy. */
extern __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                              int blockSize,
                                              size_t dynamicSMemSize);
extern __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags);
extern __host__ cudaError_t
cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                          const void *func, int numBlocks,
                                          int blockSize);

/* Profiler (cuda_profiler_api.h). */
extern __host__ cudaError_t cudaProfilerStart(void);
extern __host__ cudaError_t cudaProfilerStop(void);

/* Kernel launch configuration: clang resolves <<<g, b, smem, stream>>> through
 * __cudaPushCallConfiguration when it knows the CUDA version is 9.2 or later,
 * else through cudaConfigureCall. Without a toolkit (mode B) it knows no
 * version and asks for cudaConfigureCall, so both are declared. */
extern __host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim,
                                              size_t sharedMem = 0,
                                              cudaStream_t stream = 0);
extern __host__ unsigned __cudaPushCallConfiguration(dim3 gridDim,
                                                     dim3 blockDim,
                                                     size_t sharedMem = 0,
                                                     void *stream = 0);

} /* extern "C" */

/* Overloads added by CUDA 13's cudaMemPrefetchAsync (location + flags) next to
 * the CUDA 12 form (device ordinal). */
extern __host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr,
                                                 size_t count, int dstDevice,
                                                 cudaStream_t stream = 0);
extern __host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr,
                                                 size_t count,
                                                 struct cudaMemLocation location,
                                                 unsigned int flags,
                                                 cudaStream_t stream = 0);

/* C++ overloads from cuda_runtime.h. */
template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMallocManaged(T **devPtr, size_t size,
                  unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
static __inline__ __host__ cudaError_t cudaMallocHost(void **ptr, size_t size,
                                                      unsigned int flags) {
  return ::cudaHostAlloc(ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size,
                                                      unsigned int flags = 0) {
  return ::cudaMallocHost((void **)(void *)ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size,
                                                     unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr,
                                                       size_t *pitch,
                                                       size_t width,
                                                       size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **devPtr, size_t size,
                                                       cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)devPtr, size, stream);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                     size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                        size_t offset = 0,
                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                        cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset,
                                   kind, stream);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                          size_t offset = 0,
                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                          cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset,
                                     kind, stream);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr,
                                                            const T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size,
                                                         const T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaLaunchKernel(const T *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaLaunchCooperativeKernel(const T *func, dim3 gridDim, dim3 blockDim,
                            void **args, size_t sharedMem = 0,
                            cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}
template <typename... ExpTypes, typename... ActTypes>
static __inline__ __host__ cudaError_t
cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                   void (*kernel)(ExpTypes...), ActTypes &&...args) {
  void *pArgs[sizeof...(ExpTypes) + 1] = {((void *)&args)..., nullptr};
  return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
  return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                              int blockSize,
                                              size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize);
}
template <class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, T func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}
template <class T>
static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0) {
  (void)func;
  (void)dynamicSMemSize;
  (void)blockSizeLimit;
  *minGridSize = 0;
  *blockSize = 0;
  return cudaSuccess;
}
template <class UnaryFunction, class T>
static __inline__ __host__ cudaError_t
cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize,
                                               int *blockSize, T func,
                                               UnaryFunction blockSizeToSMem,
                                               int blockSizeLimit = 0) {
  (void)func;
  (void)blockSizeToSMem;
  (void)blockSizeLimit;
  *minGridSize = 0;
  *blockSize = 0;
  return cudaSuccess;
}

#endif /* CUDA_ACCESS_LINT_RUNTIME_API_H */
