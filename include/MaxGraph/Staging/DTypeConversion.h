//===- DTypeConversion.h - a forwarding header ------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The conversion between DTypes and MLIR element types is the dialect's
// (MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h): the compiler, the
// interpreter and staging all use it. Kept so that code that includes it
// from here still builds.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_STAGING_DTYPECONVERSION_H
#define MAXGRAPH_STAGING_DTYPECONVERSION_H

#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"

#endif // MAXGRAPH_STAGING_DTYPECONVERSION_H
