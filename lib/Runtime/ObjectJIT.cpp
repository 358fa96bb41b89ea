//===- ObjectJIT.cpp - load host object code into an LLJIT ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The code is final when it gets here (emitted now or read from the compile
// cache): loading links it against the process, the OpenMP runtime and the
// runtime's own helpers, and runs no MLIR pass and no LLVM optimization.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/ObjectJIT.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/SymbolSize.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include <algorithm>
#include <map>
#include <mutex>

using namespace maxgraph;

void maxgraph::initializeHostTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

std::string maxgraph::describeHostTarget() {
  // The host does not change under a process: every compile, cache lookup
  // and image load asks, so the CPU is queried once.
  static const std::string description = [] {
    std::string text =
        llvm::sys::getProcessTriple() + " " + llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    std::vector<std::string> names;
    for (const auto &feature : features)
      names.push_back((feature.second ? "+" : "-") + feature.first().str());
    std::sort(names.begin(), names.end());
    for (const std::string &name : names)
      text += " " + name;
    return text;
  }();
  return description;
}

/// Calls a function of JIT code, which has no function-type prefix for
/// -fsanitize=function to read (as CpuExecutable's entry calls).
[[clang::no_sanitize("function")]] static void callJitFunction(void (*f)()) {
  f();
}

/// Appends the functions of `object`, loaded into `jit`, to
/// `/tmp/perf-<pid>.map` (Linux perf's map of JIT code: "<address> <size>
/// <name>" in hex), so that `perf report` names the kernels of compiled
/// graphs, OpenMP's outlined bodies included. JITLink keeps each ELF
/// section one block, so a section's exported symbol, looked up, places
/// its local ones too. A profiling aid: what fails is skipped.
static void writePerfMap(llvm::orc::LLJIT &jit, llvm::MemoryBufferRef object) {
  auto file = llvm::object::ObjectFile::createObjectFile(object);
  if (!file) {
    llvm::consumeError(file.takeError());
    return;
  }
  struct Function {
    uint64_t section, offset, size;
    llvm::StringRef name;
  };
  std::vector<Function> functions;
  // The load address of each section (by index), less its symbols' offsets.
  std::map<uint64_t, int64_t> bases;
  for (auto [symbol, size] : llvm::object::computeSymbolSizes(**file)) {
    auto type = symbol.getType();
    auto name = symbol.getName();
    auto section = symbol.getSection();
    auto offset = symbol.getValue();
    auto flags = symbol.getFlags();
    if (!type || !name || !section || !offset || !flags ||
        *type != llvm::object::SymbolRef::ST_Function ||
        *section == (*file)->section_end()) {
      llvm::consumeError(type.takeError());
      llvm::consumeError(name.takeError());
      llvm::consumeError(section.takeError());
      llvm::consumeError(offset.takeError());
      llvm::consumeError(flags.takeError());
      continue;
    }
    uint64_t index = (*section)->getIndex();
    functions.push_back({index, *offset, size, *name});
    if (!(*flags & llvm::object::SymbolRef::SF_Global) || bases.count(index))
      continue;
    if (auto address = jit.lookup(*name))
      bases[index] = int64_t(address->getValue()) - int64_t(*offset);
    else
      llvm::consumeError(address.takeError());
  }
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::error_code error;
  llvm::raw_fd_ostream out(
      "/tmp/perf-" + std::to_string(llvm::sys::Process::getProcessId()) +
          ".map",
      error, llvm::sys::fs::OF_Append);
  if (error)
    return;
  for (const Function &function : functions) {
    auto base = bases.find(function.section);
    if (base != bases.end() && function.size)
      out << llvm::format_hex_no_prefix(base->second + function.offset, 1)
          << ' ' << llvm::format_hex_no_prefix(function.size, 1) << ' '
          << function.name << '\n';
  }
}

ObjectJIT::~ObjectJIT() {
  if (!hasFini)
    return;
  if (auto fini = jit->lookup(kModuleFiniSymbol))
    callJitFunction(fini->toPtr<void (*)()>());
  else
    llvm::consumeError(fini.takeError());
}

/// The objects in `code`: itself, or the members of an archive (code
/// generated in parts, emitHostObject).
static llvm::Expected<std::vector<llvm::MemoryBufferRef>>
objectsOf(llvm::MemoryBufferRef code) {
  if (llvm::identify_magic(code.getBuffer()) != llvm::file_magic::archive)
    return std::vector<llvm::MemoryBufferRef>{code};
  auto archive = llvm::object::Archive::create(code);
  if (!archive)
    return archive.takeError();
  std::vector<llvm::MemoryBufferRef> objects;
  llvm::Error error = llvm::Error::success();
  for (const llvm::object::Archive::Child &child :
       (*archive)->children(error)) {
    auto member = child.getMemoryBufferRef();
    if (!member) {
      llvm::consumeError(std::move(error));
      return member.takeError();
    }
    objects.push_back(*member);
  }
  if (error)
    return std::move(error);
  return objects;
}

llvm::Expected<std::unique_ptr<ObjectJIT>>
ObjectJIT::load(llvm::MemoryBufferRef object,
                llvm::ArrayRef<std::string> libraries,
                llvm::ArrayRef<std::pair<llvm::StringRef, void *>> symbols) {
  initializeHostTarget();
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  llvm::orc::SymbolMap defined;
  for (auto [name, address] : symbols)
    defined[(*jit)->mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(address),
        llvm::JITSymbolFlags::Exported};
  if (llvm::Error error =
          main.define(llvm::orc::absoluteSymbols(std::move(defined))))
    return std::move(error);
  // The process first: malloc and free must be the ones the runtime frees
  // results with (a sanitizer's interceptors, say), not those a library's
  // own dependencies (libc behind libomp) would give.
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  for (const std::string &library : libraries) {
    auto generator =
        llvm::orc::DynamicLibrarySearchGenerator::Load(library.c_str(), prefix);
    if (!generator)
      return generator.takeError();
    main.addGenerator(std::move(*generator));
  }
  auto objects = objectsOf(object);
  if (!objects)
    return objects.takeError();
  for (llvm::MemoryBufferRef member : *objects)
    if (llvm::Error error =
            (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
                member.getBuffer(), object.getBufferIdentifier())))
      return std::move(error);
  if (llvm::Error error = (*jit)->initialize(main))
    return std::move(error);
  if (std::optional<std::string> perfMap =
          llvm::sys::Process::GetEnv("MAXGRAPH_PERF_MAP");
      perfMap && *perfMap == "1")
    for (llvm::MemoryBufferRef member : *objects)
      writePerfMap(**jit, member);
  auto loaded = std::unique_ptr<ObjectJIT>(new ObjectJIT());
  loaded->jit = std::move(*jit);
  if (auto init = loaded->jit->lookup(kModuleInitSymbol)) {
    callJitFunction(init->toPtr<void (*)()>());
    loaded->hasFini = static_cast<bool>(loaded->jit->lookup(kModuleFiniSymbol));
  } else {
    llvm::consumeError(init.takeError());
  }
  return loaded;
}

llvm::Expected<void *> ObjectJIT::lookup(llvm::StringRef name) {
  auto address = jit->lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}

llvm::Expected<std::vector<std::string>>
maxgraph::undefinedSymbols(llvm::MemoryBufferRef object) {
  auto objects = objectsOf(object);
  if (!objects)
    return objects.takeError();
  // Across the parts of an archive, what one part leaves undefined another
  // may define.
  llvm::StringSet<> defined;
  std::vector<std::string> undefined;
  for (llvm::MemoryBufferRef member : *objects) {
    auto file = llvm::object::ObjectFile::createObjectFile(member);
    if (!file)
      return file.takeError();
    for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
      auto flags = symbol.getFlags();
      if (!flags)
        return flags.takeError();
      auto name = symbol.getName();
      if (!name)
        return name.takeError();
      if (name->empty())
        continue;
      if (*flags & llvm::object::SymbolRef::SF_Undefined)
        undefined.push_back(name->str());
      else if (*flags & llvm::object::SymbolRef::SF_Global)
        defined.insert(*name);
    }
  }
  std::vector<std::string> names;
  llvm::StringSet<> seen;
  for (std::string &name : undefined)
    if (!defined.contains(name) && seen.insert(name).second)
      names.push_back(std::move(name));
  return names;
}
