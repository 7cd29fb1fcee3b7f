// ORC LLJIT over the LLVM backend's objects, and the roads the LLVM-linked
// driver installs (ppy/driver/llvm_roads.h).
#include "../jit.h"

#include <mutex>

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "ppy/backends/llvm_backend.h"
#include "ppy/backends/nvvm_backend.h"
#include "ppy/driver/llvm_roads.h"
#include "ppy/util/error.h"
#include "ppy/util/str_cat.h"
#include "ppy_obj.h"
#include "ppy_dict.h"
#include "ppy_runtime.h"
#include "ppy_str.h"
#include "ppy_math.h"
#include "ppy_num.h"
#include "ppy_str_more.h"
#include "ppy_unicode.h"
#include "ppy_vformat.h"

namespace ppy::driver {
namespace {

struct Sinks {
  std::ostream* out;
  std::ostream* err;
};

void write_out(void* ctx, const char* bytes, size_t n) {
  auto* s = static_cast<Sinks*>(ctx);
  s->out->write(bytes, static_cast<std::streamsize>(n));
  s->out->flush();
}
void write_err(void* ctx, const char* bytes, size_t n) {
  static_cast<Sinks*>(ctx)->err->write(bytes, static_cast<std::streamsize>(n));
}

absl::Status jit_error(llvm::Error e) {
  return coded_error("E1905", str_cat("backend 'llvm': the JIT cannot load the program: ", llvm::toString(std::move(e))));
}

}  // namespace

absl::StatusOr<int> run_objects(const std::vector<ObjectFile>& objects, const std::string& entry, std::ostream& out,
                                std::ostream& err) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit) return jit_error(jit.takeError());
  llvm::orc::JITDylib& lib = (*jit)->getMainJITDylib();
  llvm::orc::ExecutionSession& es = (*jit)->getExecutionSession();
  // The runtime this driver links, then the process's own libraries (libm's
  // floor, fmod, pow... that LLVM's intrinsics call).
  llvm::orc::SymbolMap runtime;
#define PPY_JIT_SYMBOL(name) \
  runtime[es.intern(#name)] = {llvm::orc::ExecutorAddr::fromPtr(&name), llvm::JITSymbolFlags::Exported};
  // Every function a core.call_extern may name: the runtime ABI table, so a
  // new runtime function needs no edit here.
#define PPY_RUNTIME_FUNCTION(sym, ...) PPY_JIT_SYMBOL(sym)
#include "ppy/runtime/abi.def"
#undef PPY_RUNTIME_FUNCTION
  // The support the backend's own code calls, which no call_extern names:
  // ppy_rt_raise, ppy_rt_try, ppy_rt_depth, ppy_float_to_i64... (the
  // runtime's core list) and a tuple's box in a list.
  PPY_RT_SYMBOLS(PPY_JIT_SYMBOL)
  PPY_JIT_SYMBOL(ppy_list_box)
#undef PPY_JIT_SYMBOL
  if (auto e = lib.define(llvm::orc::absoluteSymbols(std::move(runtime)))) return jit_error(std::move(e));
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process) return jit_error(process.takeError());
  lib.addGenerator(std::move(*process));
  for (auto& o : objects)
    if (auto e = (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(o.bytes, o.name)))
      return jit_error(std::move(e));
  auto symbol = (*jit)->lookup(entry);
  if (!symbol) return jit_error(symbol.takeError());
  auto* main = symbol->toPtr<void (*)()>();
  Sinks sinks{&out, &err};
  ppy_rt_set_output(write_out, write_err, &sinks);
  int status = ppy_rt_run(main);
  ppy_rt_set_output(nullptr, nullptr, nullptr);
  out.flush();
  return status;
}

namespace {

/// Installs the roads when this library is linked in (whole: nothing else
/// refers to it), before main.
const bool kInstalled = [] {
  LlvmRoads roads;
  roads.builtins = {{"llvm", backends::create_llvm_backend}, {"nvvm", backends::create_nvvm_backend}};
  roads.run_objects = run_objects;
  install_llvm_roads(std::move(roads));
  return true;
}();

}  // namespace

}  // namespace ppy::driver
