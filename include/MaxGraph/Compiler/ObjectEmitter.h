//===- ObjectEmitter.h - host object code for a lowered module --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What CpuExecutable::compile does below MLIR: emit an object file for the
// host from a module lowered to the LLVM dialect. The object is what the
// compile cache keeps and what the runtime loads (Runtime/ObjectJIT.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_OBJECTEMITTER_H
#define MAXGRAPH_COMPILER_OBJECTEMITTER_H

#include "MaxGraph/Runtime/ObjectJIT.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace maxgraph {
/// The optimization level of the LLVM IR optimizer and of code generation;
/// part of the compile cache's key.
inline constexpr unsigned kObjectOptLevel = 3;

/// Translates `module` (the LLVM dialect; its functions lose the argument
/// and result attributes of dialects with no LLVM translation, which
/// translation would only warn of) to LLVM IR for the host CPU, adds
/// for every defined external C-interface function `f` (`_mlir_ciface_*`)
/// the packed wrapper `_mlir_f` (`void (void **)`, as MLIR's
/// ExecutionEngine does), optimizes it at `optLevel` and emits an ELF (or
/// the host's) object file, with its global constructors and destructors
/// behind kModuleInitSymbol and kModuleFiniSymbol. A module large enough
/// is optimized and has its code generated in parts, on a thread each (one
/// per CPU the process may use, MAXGRAPH_COMPILE_THREADS at most), each
/// part whole groups of functions joined by direct calls: then the result
/// is an archive of the parts' objects, the symbols one part uses from
/// another made external.
/// Translation, the optimizer and code generation are timed under `timing`
/// (MAXGRAPH_COMPILE_TIMING's report).
llvm::Expected<llvm::SmallVector<char, 0>>
emitHostObject(mlir::ModuleOp module, unsigned optLevel = kObjectOptLevel,
               mlir::TimingScope *timing = nullptr);

/// Runs the LLVM optimizer of emitHostObject over `module`, for the host
/// CPU at `optLevel`: LLVM's default pipeline without its loop vectorizer
/// (the lowering has vectorized what it tiles; a loop it left scalar stays
/// scalar).
llvm::Error optimizeForHost(llvm::Module &module,
                            unsigned optLevel = kObjectOptLevel);

/// Marks every loop of `module` `llvm.loop.unroll.runtime.disable` (keeping
/// the loop's other properties): LLVM's unroller may still unroll a loop
/// whose trip count it knows, but not one whose trip count is known only at
/// run time, behind a remainder loop. emitHostObject does it before the
/// optimizer. Returns how many instructions of each function with code are
/// in loops (the loop analysis that finds the loops counts them; the
/// estimated cost of each function's code generation reads them).
llvm::DenseMap<const llvm::Function *, size_t>
disableRuntimeUnrolling(llvm::Module &module);
} // namespace maxgraph

#endif // MAXGRAPH_COMPILER_OBJECTEMITTER_H
