/*
 * cuda-access-lint built-in CUDA prelude (mode B: no CUDA toolkit).
 *
 * Stub for the toolkit's <cooperative_groups/reduce.h>: cg::reduce,
 * reduce_update_async/reduce_store_async and the operator functors
 * (cg::plus, less, greater, bit_and, bit_xor, bit_or), as declarations.
 */
#ifndef _CG_REDUCE_H_
#define _CG_REDUCE_H_
#pragma clang system_header

#include "cooperative_groups.h"

namespace cooperative_groups {

template <typename Ty> struct plus {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <typename Ty> struct less {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <typename Ty> struct greater {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <typename Ty> struct bit_and {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <typename Ty> struct bit_xor {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};
template <typename Ty> struct bit_or {
  __device__ Ty operator()(Ty arg1, Ty arg2) const;
};

template <typename TyGroup, typename TyArg, typename TyOp>
__device__ auto reduce(const TyGroup &group, TyArg &&val, TyOp &&op)
    -> decltype(op(val, val));

template <typename TyGroup, typename TyAtomic, typename TyVal, typename TyOp>
__device__ void reduce_update_async(const TyGroup &group, TyAtomic &dst,
                                    const TyVal &val, TyOp &&op);
template <typename TyGroup, typename TyVal, typename TyOp>
__device__ void reduce_store_async(const TyGroup &group, TyVal *dst,
                                   const TyVal &val, TyOp &&op);

} /* namespace cooperative_groups */

#endif /* _CG_REDUCE_H_ */
