/* cuda-access-lint built-in prelude: cuBLAS, declarations only. */
#include "cublas_api.h"
