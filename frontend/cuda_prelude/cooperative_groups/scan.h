/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cooperative_groups/scan.h>: cg::inclusive_scan and
 * cg::exclusive_scan, as declarations.
 */
#ifndef _CG_SCAN_H_
#define _CG_SCAN_H_
#pragma clang system_header

#include "cooperative_groups/reduce.h"

namespace cooperative_groups {

template <typename TyGroup, typename TyVal, typename TyOp>
__device__ auto inclusive_scan(const TyGroup &group, TyVal &&val, TyOp &&op)
    -> decltype(op(val, val));
template <typename TyGroup, typename TyVal>
__device__ TyVal inclusive_scan(const TyGroup &group, TyVal val);
template <typename TyGroup, typename TyVal, typename TyOp>
__device__ auto exclusive_scan(const TyGroup &group, TyVal &&val, TyOp &&op)
    -> decltype(op(val, val));
template <typename TyGroup, typename TyVal>
__device__ TyVal exclusive_scan(const TyGroup &group, TyVal val);

} /* namespace cooperative_groups */

#endif /* _CG_SCAN_H_ */
