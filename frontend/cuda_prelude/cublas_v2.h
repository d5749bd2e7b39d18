/* cuda-access-lint built-in prelude: cuBLAS (v2 API), declarations only. */
#include "cublas_api.h"
