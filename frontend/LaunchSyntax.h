//===- LaunchSyntax.h - Kernel launches written with spaced chevrons ------===//
//
// nvcc accepts `kernel<< <grid, block >> >(args)` (what clang-format makes of
// `<<<...>>>` when it does not know CUDA; llm.c's sources have it); clang
// does not. The source is given to clang with those chevrons closed up, the
// whitespace moved after them, so every offset, line and column stays where
// it was: `<< <` becomes `<<< `, `>> >(` becomes `>>> (`.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_LAUNCHSYNTAX_H
#define CUDA_ACCESS_LINT_FRONTEND_LAUNCHSYNTAX_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace cal {

/// \p Code with spaced launch chevrons closed up (same length), or nullopt
/// when it has none. Comments, string and character literals are left as
/// they are; `>> >` closes up only inside a launch's configuration (so
/// `A<B<C<int>> >` stays).
std::optional<std::string> closeUpLaunchChevrons(llvm::StringRef Code);

} // namespace cal

#endif
