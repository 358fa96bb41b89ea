//===- StageTest.cpp - stage(), its options and StagedGraph ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "StagingTestUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

using namespace maxgraph;
using namespace maxgraph_test;

// The seed example of MAX's stage() documentation. External linkage: the
// test binary exports it, so stage() names the graph after it.
Tensor combine(const std::map<std::string, Tensor> &kv, float alpha) {
  return (kv.at("a") + kv.at("b")) * alpha;
}

namespace stage_test_exported {
// Exported too; the graph takes the unqualified name.
Tensor scaleByThree(const Tensor &x) { return x * 3.0f; }

// An exported function template instance.
template <int N> Tensor scaleTimes(const Tensor &x) {
  return x * static_cast<float>(N);
}
template Tensor scaleTimes<2>(const Tensor &x);

struct Tag {};
template <typename T> Tensor tagged(const Tensor &x) { return x + 1.0f; }
template Tensor tagged<Tag>(const Tensor &x);
} // namespace stage_test_exported

// Internal linkage: not in the dynamic symbol table.
static Tensor unexportedHelper(const Tensor &x) { return ops::relu(x); }

namespace {
TensorLayout f32(std::vector<Dim> shape) {
  return TensorLayout(DType::Float32, std::move(shape));
}

std::map<std::string, TensorLayout> seedSpecs() {
  TensorLayout spec(DType::Float32, {2}, CPU());
  return {{"a", spec}, {"b", spec}};
}

StagedGraph stageSeed() {
  return stage(combine)(named("kv", seedSpecs()), 2.0f);
}

TEST(StageTest, SeedExampleArgumentAndResultNames) {
  StagedGraph graph = stageSeed();
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.graph @combine(")) << text;
  EXPECT_TRUE(contains(
      text,
      "argument_names = [\"kv.a\", \"kv.b\"], result_names = [\"output\"]"))
      << text;
  EXPECT_EQ(graph.inputPaths(), (std::vector<std::string>{"kv.a", "kv.b"}));
  EXPECT_EQ(graph.outputPaths(), (std::vector<std::string>{"output"}));
}

TEST(StageTest, SeedExampleOps) {
  std::string text = stageSeed().str();
  EXPECT_TRUE(contains(text, "maxgraph.add %kv.a, %kv.b : "
                             "!maxgraph.tensor<[2], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.constant dense<2.000000e+00> : "
                             "!maxgraph.tensor<[], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.mul")) << text;
  EXPECT_TRUE(contains(text, "(!maxgraph.tensor<[2], f32>, "
                             "!maxgraph.tensor<[], f32>) -> "
                             "!maxgraph.tensor<[2], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.output")) << text;
  // add, then the constant, then mul: the order they were staged in.
  size_t add = text.find("maxgraph.add"), cst = text.find("maxgraph.constant"),
         mul = text.find("maxgraph.mul");
  EXPECT_LT(add, cst);
  EXPECT_LT(cst, mul);
}

TEST(StageTest, SeedExampleWithoutNamedUsesArgPaths) {
  StagedGraph graph = stage(combine)(seedSpecs(), 2.0f);
  EXPECT_EQ(graph.inputPaths(), (std::vector<std::string>{"arg0.a", "arg0.b"}));
  EXPECT_TRUE(
      contains(graph.str(), "argument_names = [\"arg0.a\", \"arg0.b\"]"))
      << graph.str();
  // The static alpha is the second argument.
  ASSERT_EQ(graph.staticArguments().size(), 1u);
  EXPECT_EQ(graph.staticArguments()[0].first, "arg1");
  EXPECT_EQ(graph.staticArguments()[0].second, "2");
}

TEST(StageTest, PrintingFormsAgree) {
  StagedGraph graph = stageSeed();
  std::string text = graph.str();
  EXPECT_EQ(text.rfind("module", 0), 0u) << text;

  std::string viaRaw;
  llvm::raw_string_ostream raw(viaRaw);
  raw << graph;
  raw.flush();
  EXPECT_EQ(viaRaw, text);

  std::ostringstream viaStd;
  viaStd << graph;
  EXPECT_EQ(viaStd.str(), text);

  std::string viaPrint;
  llvm::raw_string_ostream printed(viaPrint);
  graph.print(printed);
  printed.flush();
  EXPECT_EQ(viaPrint, text);
}

TEST(StageTest, StagingTwiceIsByteIdentical) {
  EXPECT_EQ(stageSeed().str(), stageSeed().str());
  auto fn = [](const Tensor &x, const Tensor &y) {
    Tensor z = ops::matmul(x, y);
    return ops::softmax(z + 1.0f) * 0.5f;
  };
  std::string first = stage(fn)(f32({Dim("batch"), 8}), f32({8, 4})).str();
  std::string second = stage(fn)(f32({Dim("batch"), 8}), f32({8, 4})).str();
  EXPECT_EQ(first, second);
}

TEST(StageTest, PrintedModuleParsesBack) {
  StagedGraph graph = stageSeed();
  mlir::ParserConfig config(graph.getModule()->getContext());
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(graph.str(), config);
  ASSERT_TRUE(parsed);
  std::string reprinted;
  llvm::raw_string_ostream os(reprinted);
  parsed->print(os);
  os.flush();
  EXPECT_EQ(reprinted, graph.str());
}

TEST(StageTest, OptionNameSetsSymbol) {
  StagedGraph graph =
      stage(combine, StageOptions{.name = "x"})(seedSpecs(), 2.0f);
  EXPECT_EQ(graph.name(), "x");
  EXPECT_TRUE(contains(graph.str(), "maxgraph.graph @x(")) << graph.str();
  EXPECT_FALSE(contains(graph.str(), "@combine")) << graph.str();
}

TEST(StageTest, ExportedFunctionGivesItsName) {
  EXPECT_EQ(stageSeed().name(), "combine");
  StagedGraph graph = stage(stage_test_exported::scaleByThree)(f32({4}));
  EXPECT_EQ(graph.name(), "scaleByThree");
  EXPECT_TRUE(contains(graph.str(), "maxgraph.graph @scaleByThree("))
      << graph.str();
  // A function pointer names the graph the same way.
  Tensor (*pointer)(const Tensor &) = &stage_test_exported::scaleByThree;
  EXPECT_EQ(stage(pointer)(f32({4})).name(), "scaleByThree");
}

TEST(StageTest, ExportedTemplateInstanceGivesItsName) {
  StagedGraph graph = stage(stage_test_exported::scaleTimes<2>)(f32({4}));
  EXPECT_EQ(graph.name().rfind("scaleTimes", 0), 0u) << graph.name();
}

// A template instance whose argument is a qualified type: the name is cut
// at the last `::`, which lies inside the template arguments, so the graph
// is named `Tag` instead of after the function.
TEST(StageTest, TemplateWithQualifiedArgumentGivesFunctionName) {
  using namespace stage_test_exported;
  StagedGraph graph = stage(tagged<Tag>)(f32({4}));
  EXPECT_EQ(graph.name().rfind("tagged", 0), 0u) << graph.name();
}

TEST(StageTest, LambdaGetsStableName) {
  auto fn = [](const Tensor &x) { return x + x; };
  StagedGraph first = stage(fn)(f32({4}));
  StagedGraph second = stage(fn)(f32({4}));
  EXPECT_EQ(first.name().rfind("lambda_", 0), 0u) << first.name();
  EXPECT_EQ(first.name(), second.name());
  for (char c : first.name())
    EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_')
        << first.name();
  EXPECT_TRUE(contains(first.str(), "maxgraph.graph @" + first.name() + "("))
      << first.str();
}

// A function that is not exported has no symbol to name the graph after; it
// must not take the name of whatever exported symbol precedes it in memory.
TEST(StageTest, UnexportedFunctionDoesNotBorrowAnotherName) {
  StagedGraph graph = stage(unexportedHelper)(f32({4}));
  std::string name = graph.name();
  EXPECT_TRUE(name == "graph" || name == "unexportedHelper") << name;
}

TEST(StageTest, InputAndOutputAccessors) {
  auto fn = [](const Tensor &x, const Buffer &state, int) {
    Tensor y = ops::reduce_sum(x, {1});
    state.store(y);
    return std::make_tuple(y, ops::cast(x, DType::Float16));
  };
  StagedGraph graph = stage(fn)(
      named("x", f32({Dim("batch"), 8})),
      named("state", BufferLayout(DType::Float32, {Dim("batch")})), 7);
  ASSERT_EQ(graph.inputLayouts().size(), 2u);
  EXPECT_FALSE(graph.inputLayouts()[0].isBuffer());
  EXPECT_EQ(graph.inputLayouts()[0].kind(), Layout::Kind::Tensor);
  EXPECT_EQ(graph.inputLayouts()[0].str(), "!maxgraph.tensor<[batch, 8], f32>");
  EXPECT_TRUE(graph.inputLayouts()[1].isBuffer());
  EXPECT_EQ(graph.inputLayouts()[1].kind(), Layout::Kind::Buffer);
  EXPECT_EQ(graph.inputLayouts()[1].str(), "!maxgraph.buffer<[batch], f32>");
  EXPECT_EQ(graph.inputPaths(), (std::vector<std::string>{"x", "state"}));

  ASSERT_EQ(graph.outputLayouts().size(), 2u);
  EXPECT_EQ(graph.outputLayouts()[0].dtype(), DType::Float32);
  EXPECT_EQ(graph.outputLayouts()[0].shape(), std::vector<Dim>{Dim("batch")});
  EXPECT_EQ(graph.outputLayouts()[1].dtype(), DType::Float16);
  EXPECT_EQ(graph.outputLayouts()[1].shape(),
            (std::vector<Dim>{Dim("batch"), 8}));
  EXPECT_EQ(graph.outputLayouts()[1].device(), CPU());
  EXPECT_EQ(graph.outputPaths(),
            (std::vector<std::string>{"output[0]", "output[1]"}));

  ASSERT_EQ(graph.staticArguments().size(), 1u);
  EXPECT_EQ(graph.staticArguments()[0],
            (std::pair<std::string, std::string>{"arg2", "7"}));
}

TEST(StageTest, ModuleAndGraphAccessors) {
  StagedGraph graph = stageSeed();
  ASSERT_TRUE(graph.getModule());
  ASSERT_TRUE(graph.getGraph());
  EXPECT_EQ(graph.getGraph()->getParentOp(), graph.getModule().getOperation());
  // The module holds just the one graph.
  EXPECT_EQ(std::distance(graph.getModule().getBody()->begin(),
                          graph.getModule().getBody()->end()),
            1);
}

TEST(StageTest, NoResultsGivesNoResultNames) {
  auto fn = [](const Buffer &buffer, const Tensor &x) { buffer.store(x); };
  StagedGraph graph = stage(fn)(BufferLayout(DType::Float32, {4}), f32({4}));
  EXPECT_TRUE(graph.outputLayouts().empty());
  EXPECT_TRUE(graph.outputPaths().empty());
  EXPECT_FALSE(contains(graph.str(), "result_names")) << graph.str();
  EXPECT_TRUE(contains(graph.str(), "maxgraph.buffer_store")) << graph.str();
}

TEST(StageTest, WriteBytecodeWritesMagic) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("staged", "mlirbc", path));
  stageSeed().writeBytecode(std::string(path));
  std::ifstream file(std::string(path), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 4u);
  EXPECT_EQ(bytes.substr(0, 4), std::string("ML\xef"
                                            "R"));
  llvm::sys::fs::remove(path);
}

TEST(StageTest, WriteBytecodeToMissingDirectoryThrows) {
  StagedGraph graph = stageSeed();
  std::string path = "/nonexistent-maxgraph-dir/sub/graph.mlirbc";
  expectStagingError([&] { graph.writeBytecode(path); },
                     {"cannot write bytecode", path});
}

TEST(StageTest, SymbolicDimsDeclaredInFirstSeenOrder) {
  auto fn = [](const Tensor &x, const Tensor &y) { return x; };
  StagedGraph graph = stage(fn, {.name = "dims"})(
      f32({Dim("batch"), Dim("seq")}), f32({Dim("seq"), Dim("batch"), 4}));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.graph @dims<batch, seq>("))
      << graph.str();
  StagedGraph reversed = stage(fn, {.name = "dims"})(
      f32({Dim("seq"), 4}), f32({Dim("batch"), Dim("seq")}));
  EXPECT_TRUE(contains(reversed.str(), "maxgraph.graph @dims<seq, batch>("))
      << reversed.str();
}

TEST(StageTest, NoSymbolicDimsNoAngleBrackets) {
  EXPECT_TRUE(contains(stageSeed().str(), "maxgraph.graph @combine("))
      << stageSeed().str();
}

TEST(StageTest, AlgebraicDimInSpecIsAnError) {
  auto fn = [](const Tensor &x) { return x; };
  expectStagingError(
      [&] {
        stage(fn)(named("x", f32({Dim("b") * 2, 4})));
      },
      {"argument 'x'", "algebraic dim", "b * 2"});
  auto many = [](const std::vector<Tensor> &xs) { return xs[0]; };
  expectStagingError(
      [&] {
        stage(many)(std::vector<TensorLayout>{f32({4}), f32({Dim("n") + 1})});
      },
      {"argument 'arg0[1]'", "n + 1"});
}

// Errors are documented to start with the user's file:line; a bad spec is
// the stage() call's fault, so it should be located there.
TEST(StageTest, AlgebraicDimInSpecIsLocatedAtStageCall) {
  auto fn = [](const Tensor &x) { return x; };
  int line = 0;
  std::string message = expectStagingError(
      [&] { line = __LINE__, stage(fn)(named("x", f32({Dim("b") * 2}))); },
      {"argument 'x'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(StageTest, OptionsRecordedOnGraph) {
  auto fn = [](const Tensor &x) { return x * 2.0f; };
  StagedGraph graph = stage(fn, {.name = "dev", .isDeviceGraph = true})(
      TensorLayout(DType::Float32, {4}, GPU(0)));
  EXPECT_TRUE(contains(graph.str(), "is_device_graph")) << graph.str();
  StagedGraph plain = stage(fn, {.name = "dev"})(f32({4}));
  EXPECT_FALSE(contains(plain.str(), "is_device_graph")) << plain.str();
}

TEST(StageTest, UnknownDimsAreAllowedInSpecs) {
  auto fn = [](const Tensor &x) { return ops::relu(x); };
  StagedGraph graph = stage(fn)(f32({Dim::unknown(), 4}));
  EXPECT_TRUE(contains(graph.str(), "!maxgraph.tensor<[?, 4], f32>"))
      << graph.str();
  EXPECT_TRUE(graph.outputLayouts()[0].shape()[0].isUnknown());
}

TEST(StageTest, TensorAccessorsInsideStagedFunction) {
  bool checked = false;
  auto fn = [&](const Tensor &x) {
    EXPECT_EQ(x.dtype(), DType::BFloat16);
    EXPECT_EQ(x.rank(), 2);
    EXPECT_EQ(x.shape(), (std::vector<Dim>{Dim("batch"), 16}));
    EXPECT_EQ(x.device(), GPU(1));
    EXPECT_EQ(x.layout().str(), "!maxgraph.tensor<[batch, 16], bf16, gpu:1>");
    checked = true;
    return x;
  };
  stage(fn)(TensorLayout(DType::BFloat16, {Dim("batch"), 16}, GPU(1)));
  EXPECT_TRUE(checked);
}

TEST(StageTest, TensorPassedAsSpecIsAnError) {
  Tensor leaked;
  StagedGraph first = stage([&](const Tensor &x) {
    leaked = x;
    return x;
  })(f32({4}));
  auto fn = [](const Tensor &x) { return x; };
  expectStagingError([&] { stage(fn)(named("t", leaked)); },
                     {"argument 't'", "is a Tensor", "TensorLayout"});
}

// A Tensor kept from an earlier stage() must be refused as belonging to
// another graph. The ownership check compares Trace addresses, and the new
// session's Trace can reuse the freed address of the old one, so the tensor
// is taken as its own and the module fails to verify ("internal error ...
// using value defined outside the region", <<UNKNOWN SSA VALUE>>).
TEST(StageTest, TensorOfEarlierGraphIsAnError) {
  Tensor leaked;
  StagedGraph first = stage([&](const Tensor &x) {
    leaked = x;
    return x;
  })(f32({4}));
  int line = 0;
  auto fn = [&](const Tensor &x) { return line = __LINE__, x + leaked; };
  std::string message = expectStagingError(
      [&] { stage(fn)(f32({4})); },
      {"operand 1 of 'maxgraph.add' is a value of the trace of graph @",
       "which has ended"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(StageTest, TensorOfEnclosingGraphIsAnError) {
  int line = 0;
  auto outer = [&](const Tensor &x) {
    // A second stage() while the first runs: x belongs to the outer graph.
    auto inner = [&](const Tensor &y) { return line = __LINE__, y + x; };
    std::string message =
        expectStagingError([&] { stage(inner)(f32({4})); },
                           {"another staged graph", "'maxgraph.add'"});
    EXPECT_TRUE(contains(message, at(line))) << message;
    return x * 2.0f;
  };
  StagedGraph graph = stage(outer)(f32({4}));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.mul")) << graph.str();
  EXPECT_FALSE(contains(graph.str(), "maxgraph.add")) << graph.str();
}

TEST(StageTest, StagingRecoversAfterAnError) {
  auto bad = [](const Tensor &x, const Tensor &y) { return x + y; };
  EXPECT_THROW(stage(bad)(f32({3}), f32({4})), StagingError);
  // No trace is left behind: ops outside stage() still refuse, and the next
  // stage() works.
  expectStagingError([] { ops::relu(Tensor()); },
                     {"can only be used while a function is being staged"});
  StagedGraph graph = stage(bad)(f32({4}), f32({4}));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.add")) << graph.str();
}

TEST(StageTest, CaughtOpErrorLeavesNoOpBehind) {
  auto fn = [](const Tensor &x, const Tensor &y) {
    EXPECT_THROW(ops::matmul(x, y), StagingError);
    return x;
  };
  StagedGraph graph = stage(fn)(f32({2, 3}), f32({4, 5}));
  EXPECT_FALSE(contains(graph.str(), "maxgraph.matmul")) << graph.str();
}

TEST(StageTest, GraphsAreIndependent) {
  StagedGraph a = stage(combine, {.name = "a"})(seedSpecs(), 2.0f);
  StagedGraph b = stage(combine, {.name = "b"})(seedSpecs(), 3.0f);
  EXPECT_NE(a.getModule(), b.getModule());
  EXPECT_TRUE(contains(a.str(), "dense<2.000000e+00>")) << a.str();
  EXPECT_TRUE(contains(b.str(), "dense<3.000000e+00>")) << b.str();
  EXPECT_FALSE(contains(a.str(), "@b")) << a.str();
}

// A tensor kept past its stage() refers to an MLIR value that may be gone
// with the module: every accessor refuses it with a StagingError naming the
// graph, whether the StagedGraph is still alive or not.
TEST(StageTest, TensorOfEndedTraceRefusesEveryAccessor) {
  std::vector<Tensor> kept;
  {
    auto fn = [&](const Tensor &x) {
      EXPECT_TRUE(x.isAlive());
      kept.push_back(x);
      kept.push_back(ops::relu(x));
      return kept.back();
    };
    StagedGraph graph = stage(fn, {.name = "kept"})(f32({2, 3}));
    // Ended as soon as stage() returned, though the module still exists.
    EXPECT_FALSE(kept[0].isAlive());
    expectStagingError(
        [&] { kept[1].shape(); },
        {"this Tensor belongs to the trace of graph @kept", "which has ended"});
  }
  ASSERT_EQ(kept.size(), 2u);
  for (const Tensor &tensor : kept) {
    EXPECT_FALSE(tensor.isAlive());
    EXPECT_EQ(tensor.traceName(), "graph @kept");
    std::initializer_list<std::string> phrases = {
        thisFile(), "this Tensor belongs to the trace of graph @kept",
        "which has ended"};
    expectStagingError([&] { tensor.layout(); }, phrases);
    expectStagingError([&] { tensor.dtype(); }, phrases);
    expectStagingError([&] { tensor.shape(); }, phrases);
    expectStagingError([&] { tensor.device(); }, phrases);
    expectStagingError([&] { tensor.rank(); }, phrases);
    expectStagingError([&] { tensor.getValue(); }, phrases);
  }
  // Ops outside any trace say so first.
  expectStagingError([&] { ops::relu(kept[0]); },
                     {"can only be used while a function is being staged"});
}

TEST(StageTest, TensorOfEndedTraceIsRefusedByAnotherTrace) {
  Tensor old;
  stage([&](const Tensor &x) { return old = x * 2.0f; },
        {.name = "first"})(f32({4}));
  // As an operand of an op: TensorOfEarlierGraphIsAnError. As an argument
  // of a subgraph call, and as a result:
  auto block = as_subgraph([](const Tensor &x) { return x; });
  expectStagingError(
      [&] { stage([&](const Tensor &) { return block(old); })(f32({4})); },
      {"operand 0 of 'maxgraph.call' is a value of the trace of graph "
       "@first, which has ended"});
  expectStagingError(
      [&] { stage([&](const Tensor &) { return old; })(f32({4})); },
      {"operand 0 of 'maxgraph.output' is a value of the trace of graph "
       "@first, which has ended"});
}

TEST(StageTest, BufferOfEndedTraceRefusesEveryUse) {
  Buffer kept;
  stage(
      [&](const Buffer &buffer, const Tensor &x) {
        EXPECT_TRUE(buffer.isAlive());
        kept = buffer;
        buffer.store(x);
      },
      {.name = "buffers"})(BufferLayout(DType::Float32, {4}), f32({4}));
  EXPECT_FALSE(kept.isAlive());
  EXPECT_EQ(kept.traceName(), "graph @buffers");
  std::initializer_list<std::string> phrases = {
      "this Buffer belongs to the trace of graph @buffers", "which has ended"};
  expectStagingError([&] { kept.layout(); }, phrases);
  expectStagingError([&] { kept.getValue(); }, phrases);
  auto fn = [&](const Tensor &x) {
    kept.store(x);
    return x;
  };
  expectStagingError([&] { stage(fn)(f32({4})); },
                     {"operand 0 of 'maxgraph.buffer_store' is a value of the "
                      "trace of graph @buffers, which has ended"});
  expectStagingError(
      [&] { stage([&](const Tensor &) { return kept.load(); })(f32({4})); },
      {"operand 0 of 'maxgraph.buffer_load' is a value of the trace of graph "
       "@buffers, which has ended"});
}

TEST(StageTest, ResultTreeOfStageWithResultBelongsToTheEndedTrace) {
  auto [graph, result] = stage([](const Tensor &x) { return ops::relu(x); },
                               {.name = "with_result"})
                             .stageWithResult(f32({Dim("n"), 2}));
  EXPECT_FALSE(result.isAlive());
  expectStagingError([&] { result.layout(); },
                     {"graph @with_result, which has ended"});
  // The graph keeps the layouts.
  ASSERT_EQ(graph.outputLayouts().size(), 1u);
  EXPECT_EQ(graph.outputLayouts()[0].str(), "!maxgraph.tensor<[n, 2], f32>");
}

TEST(StageTest, EmptyTensorAccessorsSaySo) {
  expectStagingError([] { Tensor().layout(); },
                     {"layout() of an empty Tensor", "default-constructed"});
  expectStagingError([] { Buffer().layout(); },
                     {"layout() of an empty Buffer"});
  EXPECT_FALSE(Tensor().isAlive());
  EXPECT_EQ(Tensor().traceName(), "");
}
} // namespace
