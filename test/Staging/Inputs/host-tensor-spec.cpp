//===- host-tensor-spec.cpp - a HostTensor passed as a spec ---------------===//
//
// For host-tensor-spec.test: stage() given a HostTensor, which must not
// compile; with -DWITH_LAYOUT_OF, given layoutOf(t), which compiles.
//
//===----------------------------------------------------------------------===//

#ifdef STAGING_ONLY
// The refusal needs no runtime header beyond HostTensor's own.
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Staging/Stage.h"
#else
#include "MaxGraph/MaxGraph.h"
#endif

using namespace maxgraph;

StagedGraph stageLive(const HostTensor &t) {
  auto fn = [](const Tensor &x) { return x * 2.0f; };
#ifdef WITH_LAYOUT_OF
  return stage(fn)(layoutOf(t));
#else
  return stage(fn)(t);
#endif
}
