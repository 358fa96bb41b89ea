//===- ObjectJIT.cpp - load host object code into an LLJIT ----------------===//
//
// The code is final when it gets here (emitted now or read from the compile
// cache): loading links it against the process, the OpenMP runtime and the
// runtime's own helpers, and runs no MLIR pass and no LLVM optimization.
//
//===----------------------------------------------------------------------===//

#include "ObjectCode.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace maxgraph;

/// Calls a function of JIT code, which has no function-type prefix for
/// -fsanitize=function to read (as CpuExecutable's entry calls).
[[clang::no_sanitize("function")]] static void callJitFunction(void (*f)()) {
  f();
}

ObjectJIT::~ObjectJIT() {
  if (!hasFini)
    return;
  if (auto fini = jit->lookup(kModuleFiniSymbol))
    callJitFunction(fini->toPtr<void (*)()>());
  else
    llvm::consumeError(fini.takeError());
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
  if (llvm::Error error =
          (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
              object.getBuffer(), object.getBufferIdentifier())))
    return std::move(error);
  if (llvm::Error error = (*jit)->initialize(main))
    return std::move(error);
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
  auto file = llvm::object::ObjectFile::createObjectFile(object);
  if (!file)
    return file.takeError();
  std::vector<std::string> names;
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    auto flags = symbol.getFlags();
    if (!flags)
      return flags.takeError();
    if (!(*flags & llvm::object::SymbolRef::SF_Undefined))
      continue;
    auto name = symbol.getName();
    if (!name)
      return name.takeError();
    if (!name->empty())
      names.push_back(name->str());
  }
  return names;
}
