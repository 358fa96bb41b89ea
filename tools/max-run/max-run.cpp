//===- max-run.cpp - run a maxgraph graph from a .mlir file ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Like mlir-runner for maxgraph: reads a module, takes inputs from .npy files
// or makes random ones, runs one graph, and prints the results or writes
// them as .npy files.
//
//   max-run model.mlir --input=a.npy --input=b.npy --print --interpret
//   max-run model.mlir --random-inputs --seed=3 --dims=batch=8 --time=20
//
// By default the graph is lowered with `maxgraph-lower-to-cpu` and run by
// MLIR's JIT; `--interpret` runs the reference interpreter instead.
//
// `mpirun -np N max-run model.mlir --spmd` runs a graph on devices
// cpu:0..N-1 (or gpu:0..N-1) as N processes: process r partitions the graph
// for cpu:r or gpu:r (maxgraph-partition-by-device; a GPU part runs on the
// process's own GPU, MaxGraph/API/Spmd.h's localGpu), takes the inputs
// placed on that device (of the same global random inputs, or --input
// files, as the single-process run), and writes each result placed on it as
// DIR/rank<r>/result_<N>.npy, N its index in the whole graph.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/Spmd.h"
#include "MaxGraph/Compiler/Executable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "MaxGraph/InitAll.h"
#include "MaxGraph/Reference/Interpreter.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Runtime/Npy.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

using namespace mlir;
using namespace maxgraph;
namespace cl = llvm::cl;

/// max-run's own options: --help shows these, not the LLVM ones linked in.
static cl::OptionCategory runCategory("max-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(runCategory),
                                      cl::desc("<file.mlir>"), cl::Required);
static cl::opt<std::string>
    graphName("graph", cl::cat(runCategory),
              cl::desc("Graph to run (default: the first graph that "
                       "is not a subgraph)"));
static cl::list<std::string> inputs("input", cl::cat(runCategory),
                                    cl::desc("An .npy file per graph argument, "
                                             "in order"));
static cl::opt<bool> randomInputs("random-inputs", cl::cat(runCategory),
                                  cl::desc("Make random inputs"));
static cl::opt<unsigned> seed("seed", cl::cat(runCategory),
                              cl::desc("Seed of --random-inputs"), cl::init(0));
static cl::list<std::string>
    dims("dims", cl::cat(runCategory),
         cl::desc("Sizes of symbolic dims for --random-inputs: "
                  "--dims=batch=8,seq=16"),
         cl::CommaSeparated);
static cl::opt<bool> print("print", cl::cat(runCategory),
                           cl::desc("Print the results"));
static cl::opt<std::string>
    outputDir("output", cl::cat(runCategory),
              cl::desc("Write result N to DIR/result_N.npy"));
static cl::opt<unsigned> timeRuns("time", cl::cat(runCategory),
                                  cl::desc("Run N times and print the median "
                                           "and minimum time per call"),
                                  cl::init(0));
static cl::opt<bool> cacheInfo(
    "cache-info", cl::cat(runCategory),
    cl::desc("Print whether the code came from the compile cache and the "
             "compile time (to stderr)"));
static cl::opt<bool>
    interpretFlag("interpret", cl::cat(runCategory),
                  cl::desc("Run with the reference interpreter"));
static cl::opt<std::string> gpuRuntime(
    "gpu-runtime", cl::cat(runCategory),
    cl::desc("The runtime of graphs on gpu:N: opencl (any OpenCL device, "
             "e.g. PoCL on the CPU) or cuda (default: MAXGRAPH_GPU_RUNTIME, "
             "else cuda)"));

static cl::opt<std::string> gpuPipelineOptions(
    "gpu-pipeline-options", cl::cat(runCategory),
    cl::desc("More options of maxgraph-lower-to-gpu, as max-opt takes them "
             "(e.g. \"emulate-tensor-cores\"; default: "
             "MAXGRAPH_GPU_PIPELINE_OPTIONS)"));

static cl::opt<bool> spmdFlag(
    "spmd", cl::cat(runCategory),
    cl::desc("Run as one process of `mpirun -np N` (MPICH): process r runs "
             "the part of the graph on cpu:r (or gpu:r, on its own GPU) and "
             "writes its results under DIR/rank<r>/"));

namespace {
/// Writes `max-run: error: <message>` and a newline in one write, so that
/// the lines of processes sharing a terminal or pipe (the ranks of an SPMD
/// run) do not interleave within a line.
void printError(const std::string &message) {
  llvm::errs() << ("max-run: error: " + message + "\n");
  llvm::errs().flush();
}

/// Fails the run: in an SPMD run every other rank may wait in a collective
/// for this one, so the whole run is aborted.
[[noreturn]] void die(const std::string &message) {
  if (mpi::initialized()) {
    std::string rank = "rank " + std::to_string(mpi::rank()) + ": ";
    printError(rank + message);
    if (!mpi::lastError().empty())
      printError(rank + mpi::lastError());
    mpi::abort(1);
  }
  printError(message);
  std::exit(1);
}

/// Fails the run on a check that every rank makes alike (the world size, the
/// hash): each rank reports it and ends normally, so that every rank's
/// message is seen.
[[noreturn]] void dieOnEveryRank(const std::string &message) {
  printError(message);
  mpi::finalize();
  std::exit(1);
}

GraphOp findGraph(ModuleOp module) {
  GraphOp fallback;
  for (GraphOp graph : module.getOps<GraphOp>()) {
    if (!graphName.empty()) {
      if (graph.getSymName() == graphName)
        return graph;
      continue;
    }
    if (!graph.getIsSubgraph())
      return graph;
    if (!fallback)
      fallback = graph;
  }
  if (!graphName.empty())
    die("no graph named @" + graphName + " in " + inputFile);
  if (!fallback)
    die(inputFile + " holds no maxgraph.graph");
  return fallback;
}

/// Random inputs for the graph's arguments; symbolic dims from --dims.
std::vector<HostTensor> makeRandomInputs(GraphOp graph) {
  llvm::StringMap<int64_t> sizes;
  for (const std::string &binding : dims) {
    auto [name, value] = llvm::StringRef(binding).split('=');
    int64_t size;
    if (value.getAsInteger(10, size) || size < 0)
      die("--dims expects NAME=SIZE, got '" + binding + "'");
    auto [it, inserted] = sizes.try_emplace(name, size);
    if (!inserted)
      die("--dims binds `" + name.str() + "` twice (" +
          std::to_string(it->second) + " and " + std::to_string(size) + ")");
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> integer(-10, 10);
  std::vector<HostTensor> result;
  for (auto [index, type] : llvm::enumerate(graph.getArgumentTypes())) {
    auto layout = cast<LayoutType>(type);
    std::vector<int64_t> shape;
    for (DimAttr dim : layout.getDims()) {
      if (dim.isStatic()) {
        shape.push_back(dim.getStaticSize());
      } else if (dim.isSymbol() && sizes.count(dim.getSymbolName())) {
        shape.push_back(sizes[dim.getSymbolName()]);
      } else {
        die("argument " + std::to_string(index) + " has dim `" + dim.str() +
            "`: give its size with --dims=NAME=SIZE");
      }
    }
    DType dtype = fromMLIRType(layout.getElementType());
    if (!checkedByteCount(shape, sizeInBytes(dtype)))
      die("argument " + std::to_string(index) + " of shape " +
          shapeString(shape) + " has more bytes than a 64-bit size can count");
    HostTensor tensor = [&] {
      try {
        return HostTensor(dtype, shape);
      } catch (const maxgraph::RuntimeError &error) {
        // The allocation failed: the message names shape, dtype and bytes.
        die("argument " + std::to_string(index) + ": " + error.what());
      }
    }();
    int64_t count = tensor.numElements();
    for (int64_t i = 0; i < count; ++i) {
      switch (dtype) {
      case DType::Float32:
        tensor.data<float>()[i] = static_cast<float>(real(rng));
        break;
      case DType::Float64:
        tensor.data<double>()[i] = real(rng);
        break;
      case DType::Bool:
        tensor.data<bool>()[i] = rng() & 1;
        break;
      case DType::Int32:
        tensor.data<int32_t>()[i] = static_cast<int32_t>(integer(rng));
        break;
      case DType::Int64:
        tensor.data<int64_t>()[i] = integer(rng);
        break;
      default:
        // Other dtypes: random bytes reinterpreted would give NaNs and
        // extremes; small non-negative integers are valid in all of them.
        die("--random-inputs does not make " + toString(dtype) +
            " inputs yet; pass them with --input");
      }
    }
    result.push_back(std::move(tensor));
  }
  return result;
}

/// The shortest text that reads back as the same value (`30`, `0.1`,
/// `1e+20`): std::to_chars picks fixed or scientific, whichever is shorter.
template <typename T> std::string shortest(T value) {
  char text[64];
  auto [end, error] = std::to_chars(text, text + sizeof(text), value);
  return error == std::errc() ? std::string(text, end) : std::string("?");
}

/// Prints like numpy: nested brackets, row-major.
void printTensor(llvm::raw_ostream &os, const HostTensor &tensor) {
  const std::vector<int64_t> &shape = tensor.shape();
  int64_t count = tensor.numElements();
  auto element = [&](int64_t i) -> std::string {
    switch (tensor.dtype()) {
    case DType::Float32:
      return shortest(tensor.data<float>()[i]);
    case DType::Float64:
      return shortest(tensor.data<double>()[i]);
    case DType::Bool:
      return tensor.data<bool>()[i] ? "True" : "False";
    case DType::Int8:
      return std::to_string(tensor.data<int8_t>()[i]);
    case DType::Int16:
      return std::to_string(tensor.data<int16_t>()[i]);
    case DType::Int32:
      return std::to_string(tensor.data<int32_t>()[i]);
    case DType::Int64:
      return std::to_string(tensor.data<int64_t>()[i]);
    case DType::UInt8:
      return std::to_string(tensor.data<uint8_t>()[i]);
    case DType::UInt16:
      return std::to_string(tensor.data<uint16_t>()[i]);
    case DType::UInt32:
      return std::to_string(tensor.data<uint32_t>()[i]);
    case DType::UInt64:
      return std::to_string(tensor.data<uint64_t>()[i]);
    default:
      // f16, bf16 and the f8 formats: exact as doubles.
      if (isFloat(tensor.dtype()))
        return shortest(loadElementAsDouble(tensor, i));
      return "?";
    }
  };
  if (shape.empty()) {
    os << element(0);
    return;
  }
  // Walk the elements, opening and closing brackets at dim boundaries.
  std::vector<int64_t> index(shape.size(), 0);
  for (size_t d = 0; d < shape.size(); ++d)
    os << '[';
  for (int64_t i = 0; i < count; ++i) {
    os << element(i);
    int64_t closed = 0;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
      ++closed;
    }
    for (int64_t c = 0; c < closed; ++c)
      os << ']';
    if (i + 1 < count) {
      os << ", ";
      for (int64_t c = 0; c < closed; ++c)
        os << '[';
    }
  }
  if (count == 0)
    for (size_t d = 0; d < shape.size(); ++d)
      os << ']';
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv, "MaxGraph graph runner\n");

  DialectRegistry registry;
  maxgraph::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return 1;
  GraphOp graph = findGraph(*module);
  // External weights are bound by compile() from a program; max-run has no
  // way to bind them, except with random data.
  for (unsigned index = 0; index < graph.getNumArguments() && !randomInputs;
       ++index)
    if (auto weight =
            graph.getArgAttrOfType<StringAttr>(index, kWeightAttrName)) {
      emitError(graph.getLoc())
          << "argument " << index << " of @" << graph.getSymName()
          << " is the external weight '" << weight.getValue()
          << "'; max-run cannot bind weights: bind them with compile(fn, "
             "weights=...), or run with --random-inputs";
      return 1;
    }

  if (spmdFlag && interpretFlag)
    die("--spmd runs compiled code; it does not take --interpret");
  // SPMD: this process's rank, checked against the graph's devices and the
  // other ranks' graph and binary.
  int rank = -1;
  DeviceKind spmdKind = DeviceKind::cpu;
  int localGpu = 0;
  std::vector<int64_t> globalResults;
  if (spmdFlag) {
    try {
      mpi::initialize();
      rank = mpi::rank();
      spmdKind = spmd::deviceKind(graph);
      if (spmdKind == DeviceKind::gpu)
        localGpu = spmd::localGpu();
      mpi::checkWorldSize(spmd::deviceCount(graph),
                          "@" + graph.getSymName().str(),
                          stringifyDeviceKind(spmdKind).str());
      // A test hook: this rank starts late, so that the others' first
      // collective times out (test/Tools/max-run/spmd-errors.test).
      if (const char *late = std::getenv("MAXGRAPH_TEST_SPMD_DELAY_RANK"))
        if (std::atoi(late) == rank)
          std::this_thread::sleep_for(std::chrono::seconds(5));
      mpi::checkSameHash(spmd::hash(*module), "graph or max-run binary");
    } catch (const maxgraph::Error &error) {
      if (!mpi::initialized())
        die(std::string("--spmd needs MPI: ") + error.what());
      dieOnEveryRank(error.what());
    }
    for (auto [index, type] : llvm::enumerate(graph.getResultTypes()))
      if (spmd::deviceId(type, spmdKind) == rank)
        globalResults.push_back(index);
  }

  try {
    std::vector<HostTensor> arguments;
    if (!inputs.empty()) {
      if (randomInputs)
        die("give either --input files or --random-inputs, not both");
      for (const std::string &path : inputs)
        arguments.push_back(readNpy(path));
    } else if (randomInputs) {
      arguments = makeRandomInputs(graph);
    } else if (graph.getNumArguments() != 0) {
      die("@" + graph.getSymName().str() + " takes " +
          std::to_string(graph.getNumArguments()) +
          " arguments: pass one --input=FILE.npy each, or --random-inputs");
    }

    if (spmdFlag) {
      // This device's inputs, then its part of the graph.
      std::vector<HostTensor> local;
      for (auto [index, type] : llvm::enumerate(graph.getArgumentTypes()))
        if (spmd::deviceId(type, spmdKind) == rank && index < arguments.size())
          local.push_back(std::move(arguments[index]));
      arguments = std::move(local);
      spmd::partition(*module, graph.getSymName(), spmdKind, rank, localGpu);
      graph = findGraph(*module);
    }

    std::unique_ptr<Executable> executable;
    if (!interpretFlag) {
      auto start = std::chrono::steady_clock::now();
      ExecutableOptions options;
      options.gpuRuntime = gpuRuntime;
      options.gpuPipelineOptions = gpuPipelineOptions;
      executable =
          spmdFlag ? spmd::compilePart(*module, graph.getSymName(), spmdKind,
                                       rank, localGpu, options)
                   : compileExecutable(*module, graph.getSymName(), options);
      if (cacheInfo)
        llvm::errs() << llvm::formatv(
            "compile: {0} in {1:f3} ms\n",
            executable->loadedFromCache() ? "loaded from the cache"
                                          : "compiled",
            std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - start)
                .count());
    }
    std::vector<HostTensor> results;
    std::vector<double> seconds;
    for (unsigned run = 0; run < std::max(1u, timeRuns.getValue()); ++run) {
      auto start = std::chrono::steady_clock::now();
      results = executable ? executable->run(arguments, InputCheckOptions())
                           : interpret(*module, graph.getSymName(), arguments);
      seconds.push_back(std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count());
    }

    // Results of a GPU stay in its memory until read: copy them out.
    for (HostTensor &result : results)
      if (result.isOnDevice())
        result = result.to(CPU()).withDevice(result.device());
    std::optional<ArrayAttr> names = graph.getResultNames();
    for (auto [local, result] : llvm::enumerate(results)) {
      size_t index = spmdFlag ? globalResults[local] : local;
      if (print) {
        if (spmdFlag)
          llvm::outs() << "rank " << rank << " ";
        llvm::outs() << "result " << index;
        if (names)
          llvm::outs() << " (" << cast<StringAttr>((*names)[local]).getValue()
                       << ")";
        llvm::outs() << ": " << graph.getResultTypes()[local] << "\n";
        printTensor(llvm::outs(), result);
        llvm::outs() << "\n";
      }
      if (!outputDir.empty()) {
        std::string dir = spmdFlag ? outputDir + "/rank" + std::to_string(rank)
                                   : std::string(outputDir);
        llvm::sys::fs::create_directories(dir);
        writeNpy(dir + "/result_" + std::to_string(index) + ".npy", result);
      }
    }
    if (timeRuns) {
      std::sort(seconds.begin(), seconds.end());
      llvm::outs() << llvm::formatv(
          "time over {0} runs: median {1:f3} ms, min {2:f3} ms\n",
          seconds.size(), seconds[seconds.size() / 2] * 1e3,
          seconds.front() * 1e3);
    }
  } catch (const maxgraph::Error &error) {
    // A rank's failure ends the run: its peers may be waiting for it in a
    // collective. Those that all fail together (compilePart) each print
    // before the abort lets the launcher end them.
    if (spmdFlag && mpi::initialized()) {
      printError(error.what());
      mpi::abort(1);
    }
    die(error.what());
  }
  mpi::finalize();
  return 0;
}
