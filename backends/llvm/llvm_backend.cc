// The `llvm` backend: the SDK's Backend over lower / codegen / native.
#include "ppy/backends/llvm_backend.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "codegen.h"
#include "flags.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"
#include "lower.h"
#include "native.h"
#include "pgo.h"
#include "plugin_link.h"
#include "prover.h"
#include "runtime_object.h"
#include "sanitize.h"
#include "ppy/ir/core_ops.h"
#include "ppy/runtime/abi.h"
#include "ppy/runtime/runtime_source.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "validate.h"

namespace fs = std::filesystem;

namespace ppy::backends {
namespace {

using namespace ppy::llvm_backend;

/// This backend's own version: a change to what it writes bumps it.
constexpr std::string_view kVersion = "llvm-backend 1";

/// Each --prover query's limit: past it the guard stays.
constexpr unsigned kProverTimeoutMs = 200;

absl::Status write(const fs::path& path, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::InternalError(str_cat("cannot write ", path.string()));
  return absl::OkStatus();
}

/// The remarks as text (one a line) or JSON (an array of objects).
std::string remarks_text(const std::vector<Remark>& remarks) {
  std::string out;
  for (auto& r : remarks)
    str_append(out, r.kind, " ", r.pass, " ", r.function, ": ", r.message, "\n");
  return out;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') str_append(out, "\\", std::string(1, c));
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out.push_back(c);
  }
  return out + "\"";
}

std::string remarks_json(const std::vector<Remark>& remarks) {
  std::string out = "[";
  for (size_t i = 0; i < remarks.size(); ++i) {
    auto& r = remarks[i];
    str_append(out, i ? ",\n " : "\n ", "{\"kind\": ", json_string(r.kind), ", \"pass\": ", json_string(r.pass),
               ", \"name\": ", json_string(r.name), ", \"function\": ", json_string(r.function),
               ", \"message\": ", json_string(r.message), "}");
  }
  return out + "\n]\n";
}

class LLVMBackend final : public Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return "llvm"; }
  std::optional<int> api_version() const override { return 1; }
  // The runtime's digest: the objects call it, so one made against another runtime must not be reused.
  std::string fingerprint() const override {
    return str_cat(kVersion, "; LLVM ", LLVM_VERSION_STRING, "; runtime ", runtime::digest(),
                   prover_available() ? "; " + prover_version() : "");
  }

  std::vector<EmitFormat> emit_formats() const override {
    return {
        {"llvm-ir", ".ll", false, "LLVM IR text, optimized at -O, one file per module", EmitScope::Module, true},
        {"asm", ".s", false, "assembly for the target, one file per module", EmitScope::Module, true},
        {"object", ".o", true, "an ELF object per module (what `ppy run` loads)", EmitScope::Module, true},
    };
  }

  ToolchainStatus toolchain_status() const override {
    auto machine = make_target_machine({});
    if (!machine.ok()) return {false, std::string(machine.status().message())};
    std::string detail = str_cat("LLVM ", LLVM_VERSION_STRING, ", target ", host_triple());
    if (auto linker = find_linker("", host_triple()))
      str_append(detail, ", linker ", linker->string());
    else
      str_append(detail, ", no linker (cc, clang-19, clang, gcc): objects only");
    return {true, detail};
  }

  absl::Status validate(const ir::Module& module, const BackendContext&) const override {
    return validate_module(module);
  }

  absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat& format,
                                BackendContext& context) const override {
    PPY_ASSIGN_OR_RETURN(auto machine, target_machine(context));
    llvm::LLVMContext llvm_context;
    std::vector<Remark> remarks;
    std::vector<std::string> warnings;
    PPY_ASSIGN_OR_RETURN(auto compiled, compile(module, context, *machine, llvm_context, &remarks, &warnings));
    report(remarks, context);
    for (auto& w : warnings) context.note(w);
    if (format.name == "llvm-ir") return Artifact(print_ir(*compiled));
    PPY_ASSIGN_OR_RETURN(auto code, emit_object(*compiled, *machine, format.name == "asm"));
    if (format.name == "asm") return Artifact(std::move(code));
    return Artifact(Bytes{std::move(code)});
  }

  absl::StatusOr<BuildResult> build(ModuleList modules, const fs::path& out, BackendContext& context) const override;

 private:
  /// -O, --target (or the table's `target`), --host-cpu.
  absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> target_machine(const BackendContext& context) const {
    TargetOptions t;
    t.triple = flag_value(context, "target", context.target);
    t.host_cpu = has_flag(context, "host-cpu");
    t.opt_level = context.opt_level;
    if (t.host_cpu && !t.triple.empty() && llvm::Triple::normalize(t.triple) != host_triple())
      return coded_error("E1002",
                         str_cat("--host-cpu tunes for this machine, which is not the target '", t.triple, "'"),
                         absl::StatusCode::kInvalidArgument);
    return make_target_machine(t);
  }

  /// Lowered, verified and optimized.
  absl::StatusOr<std::unique_ptr<llvm::Module>> compile(const ir::Module& module, const BackendContext& context,
                                                        llvm::TargetMachine& machine, llvm::LLVMContext& llvm_context,
                                                        std::vector<Remark>* remarks,
                                                        std::vector<std::string>* warnings) const {
    // --prover z3 (prover.h): guards the solver proves away, on a copy of the module.
    std::unique_ptr<ir::Module> proved;
    if (flag_value(context, "prover", "off") == "z3") {
      proved = ir::clone(module);
      PPY_ASSIGN_OR_RETURN(ProverReport r, prove_overflow_guards(*proved, kProverTimeoutMs));
      if (has_flag(context, "report-opt"))
        warnings->push_back(str_cat("prover: ", prover_version(), " removed ", r.proven, " of ", r.asked,
                                    " overflow guards the range analysis kept in module '", module.name(), "'",
                                    r.undecided ? str_cat(" (", r.undecided, " undecided in ", kProverTimeoutMs,
                                                          " ms: kept)")
                                                : ""));
    }
    const ir::Module& source = proved ? *proved : module;
    LowerOptions lo;
    lo.wrap_integers = has_flag(context, "unsafe");
    lo.tracebacks = !has_flag(context, "no-traceback");
    lo.triple = machine.getTargetTriple().str();
    lo.data_layout = machine.createDataLayout().getStringRepresentation();
    PPY_ASSIGN_OR_RETURN(std::unique_ptr<llvm::Module> lowered, lower_module(source, llvm_context, lo));
    PPY_RETURN_IF_ERROR(verify(*lowered));
    PPY_ASSIGN_OR_RETURN(Sanitizers sanitizers, sanitizers_of(context));
    mark_for_sanitizers(*lowered, sanitizers);
    if (option("debug-crash") == "codegen")
      llvm::report_fatal_error("debug-crash: an injected crash inside LLVM code generation", true);
    bool want = has_flag(context, "report-opt") || has_flag(context, "report-opt-json");
    // --pgo FILE / `ppy run --profile` (pgo.h): a profile that does not fit is a warning, never an error.
    ProfileRequest profile = profile_request(context);
    std::vector<std::string> profile_said;
    optimize(*lowered, machine, context.opt_level, want ? remarks : nullptr, pgo_options(profile), &profile_said);
    if (!profile.unusable.empty()) profile_said.push_back(profile.unusable);
    if (!profile.use.empty())
      if (std::string w = foreign_profile_warning(*lowered, profile.use); !w.empty()) profile_said.push_back(w);
    for (auto& w : profile_said) warnings->push_back(profile_warning(w));
    run_sanitizer_passes(*lowered, machine, sanitizers);
    return lowered;
  }

  /// --report-opt: the remarks as notes; --report-opt-json FILE: the caller
  /// writes them (the build lists the file).
  void report(const std::vector<Remark>& remarks, BackendContext& context) const {
    if (!has_flag(context, "report-opt")) return;
    for (auto& r : remarks) context.note(str_cat("remark: ", r.kind, " ", r.pass, " in ", r.function, ": ", r.message));
  }
};

/// The entry module's `__main__` (its module-level code), else its `main`: the
/// module the driver names (`entry`), else the one module with such a function
/// of no parameters and results.
const ir::Function* find_main(ModuleList modules, const BackendContext& context) {
  std::string entry = flag_value(context, "entry");
  for (const char* suffix : {".__main__", ".main"}) {
    std::vector<const ir::Function*> found;
    for (const ir::Module* m : modules) {
      if (!entry.empty() && m->name() != entry) continue;
      for (auto& f : m->functions()) {
        const ir::Attribute* q = f->attributes().get("ppy.qualname");
        if (f->is_declaration() || !q || !q->is<std::string>() || q->as_string() != m->name() + suffix) continue;
        if (f->params().empty() && f->results().empty()) found.push_back(f.get());
      }
    }
    if (!found.empty()) return found.size() == 1 ? found[0] : nullptr;
  }
  return nullptr;
}

/// `int main(void) { return ppy_rt_run(<entry>); }` as an object; with the
/// collector, `main(argc, argv)` first hands its arguments to the runtime
/// (`sys.argv`, issue 33).
absl::StatusOr<std::string> entry_object(const std::string& symbol, llvm::TargetMachine& machine, bool strings) {
  llvm::LLVMContext ctx;
  llvm::Module m("ppy_entry", ctx);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* entry = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
                                       llvm::GlobalValue::ExternalLinkage, symbol, m);
  auto run = m.getOrInsertFunction("ppy_rt_run", llvm::FunctionType::get(i32, {ptr}, false));
  auto* main = llvm::Function::Create(strings ? llvm::FunctionType::get(i32, {i32, ptr}, false)
                                              : llvm::FunctionType::get(i32, false),
                                      llvm::GlobalValue::ExternalLinkage, "main", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", main));
  if (strings) {
    auto set_argv = m.getOrInsertFunction("ppy_sys_set_argv",
                                          llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i32, ptr}, false));
    b.CreateCall(set_argv, {main->getArg(0), main->getArg(1)});
  }
  b.CreateRet(b.CreateCall(run, {entry}));
  return emit_object(m, machine);
}

absl::Status write_archive(const fs::path& path, const std::vector<fs::path>& members) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::vector<llvm::NewArchiveMember> news;
  for (auto& p : members) {
    auto member = llvm::NewArchiveMember::getFile(p.string(), /*Deterministic=*/true);
    if (!member) return absl::InternalError(str_cat("cannot read ", p.string(), ": ", llvm::toString(member.takeError())));
    news.push_back(std::move(*member));
  }
  if (llvm::Error e = llvm::writeArchive(path.string(), news, llvm::SymtabWritingMode::NormalSymtab,
                                         llvm::object::Archive::K_GNU, /*Deterministic=*/true, /*Thin=*/false))
    return absl::InternalError(str_cat("cannot write ", path.string(), ": ", llvm::toString(std::move(e))));
  return absl::OkStatus();
}

absl::StatusOr<BuildResult> LLVMBackend::build(ModuleList modules, const fs::path& out,
                                               BackendContext& context) const {
  PPY_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine, target_machine(context));
  std::string triple = machine->getTargetTriple().str();
  bool cross = llvm::Triple(triple).getArch() != llvm::Triple(host_triple()).getArch();
  std::string name = flag_value(context, "name", modules.empty() ? "program" : modules.front()->name());
  std::string lib = "ppy_" + c_identifier(name);
  bool standalone = has_flag(context, "standalone"), library = has_flag(context, "library");
  bool python = has_flag(context, "python-extension");
  if (int asked = standalone + library + python; asked > 1)
    return coded_error("E1002",
                       "--standalone, --library and --python-extension each build one thing; "
                       "give one of them",
                       absl::StatusCode::kInvalidArgument);
  PPY_ASSIGN_OR_RETURN(Sanitizers sanitizers, sanitizers_of(context));
  if (sanitizers.any()) {
    if (cross)
      return coded_error("E1002", str_cat("--sanitize runs the program here, and ", triple, " is another machine"),
                         absl::StatusCode::kInvalidArgument);
    if (library || python)
      return coded_error("E1002",
                         str_cat("--sanitize with ", library ? "--library" : "--python-extension",
                                 " is refused: sanitized code needs the sanitizer runtime loaded first by the "
                                 "program that hosts it; build the executable (--standalone, or the default)"),
                         absl::StatusCode::kInvalidArgument);
  }
  std::vector<ExportedFunction> exports = exported_functions(modules);
  if (python)
    for (auto& f : exports)
      for (ir::Type t : f.param_types)
        if (!t.is_scalar())
          return validation_error({"llvm", str_cat("@", f.symbol, " in a Python extension (its parameter of type ",
                                                   t.str(), ")"),
                                   "scalar parameters (int, float, bool)", f.loc});

  BuildResult result;
  fs::path work = out / ".work";
  std::error_code ec;
  fs::create_directories(work, ec);
  auto cleanup = [&] { fs::remove_all(work, ec); };

  // One object per module.
  std::vector<fs::path> objects;
  std::vector<Remark> remarks;
  std::vector<std::string> warnings;
  for (const ir::Module* m : modules) {
    llvm::LLVMContext llvm_context;
    auto compiled = compile(*m, context, *machine, llvm_context, &remarks, &warnings);
    if (!compiled.ok()) return cleanup(), compiled.status();
    auto code = emit_object(**compiled, *machine);
    if (!code.ok()) return cleanup(), code.status();
    fs::path obj = out / "obj" / (m->name() + ".o");
    if (auto s = write(obj, *code); !s.ok()) return cleanup(), s;
    objects.push_back(obj);
  }
  report(remarks, context);
  // One warning of each text (an unreadable profile is said once, not per module).
  std::set<std::string> said;
  for (auto& w : warnings)
    if (said.insert(w).second) context.note(w);
  if (has_flag(context, "report-opt-json")) {
    fs::path file = flag_value(context, "report-opt-json");
    fs::path rel = file.filename().empty() ? fs::path("remarks.json") : file.filename();
    if (auto s = write(out / rel, remarks_json(remarks)); !s.ok()) return cleanup(), s;
    result.outputs.push_back(rel);
  }
  (void)remarks_text;

  std::string header = c_header(name, exports);
  std::optional<fs::path> linker = find_linker(cross ? triple : "", host_triple());
  if (!linker) {
    if (standalone || library || python)
      return cleanup(),
             coded_error("E1801", str_cat("backend 'llvm' is unavailable: no linker for ", triple,
                                          cross ? str_cat(" (looked for ", triple, "-gcc; Debian's gcc-",
                                                          triple.substr(0, triple.find('-')), "-linux-gnu gives one)")
                                                : " (looked for cc, clang-19, clang, gcc)"));
    // Objects (and the header) are all a build without a linker can give.
    for (auto& o : objects) result.outputs.push_back(fs::relative(o, out));
    if (auto s = write(out / (lib + ".h"), header); !s.ok()) return cleanup(), s;
    result.outputs.push_back(lib + ".h");
    context.note(str_cat("no linker for ", triple, ": objects only (install a cross gcc for an executable or library)"));
    cleanup();
    return result;
  }

  // The runtime, compiled from the header the backend carries; a program
  // that uses strings gets them, and links Boehm's collector (docs/runtime.md).
  // Lists live on the collector too: a unit that makes, takes or returns one
  // gets the same runtime.
  bool strings = false;
  for (const ir::Module* m : modules)
    for (auto& f : m->functions()) {
      for (const ir::Type& t : f->results())
        if (t.kind() == ir::TypeKind::Buffer) strings = true;
      for (const ir::Param& p : f->params())
        if (p.type.kind() == ir::TypeKind::Buffer) strings = true;
      ir::walk(f->body(), [&](const ir::Operation& op) {
        // A tuple in a list is boxed by ppy_list_box (docs/runtime.md, "Lists").
        ir::CoreOp kind = ir::core_op(op);
        if ((kind == ir::CoreOp::BufferLoad || kind == ir::CoreOp::BufferStore) &&
            op.operand(kind == ir::CoreOp::BufferLoad ? 0 : 1)->type().elem().kind() == ir::TypeKind::Tuple)
          strings = true;
        // A runtime function on the collector (abi.def's COLLECTOR).
        if (const runtime::RuntimeFunction* fn = runtime::runtime_callee(op); fn && fn->has(runtime::kCollector))
          strings = true;
      });
    }
  fs::path rt_c = work / "ppy_runtime.c", rt_o = work / "ppy_runtime.o";
  if (auto s = write(work / "ppy_runtime.h", runtime::source()); !s.ok()) return cleanup(), s;
  std::string rt_text = str_cat("#define PPY_RT_API\n#define PPY_RT_DATA\n", strings ? "#define PPY_RT_STRINGS 1\n" : "",
                                sanitizers.any() ? sanitizer_runtime_prelude(sanitizers) : "",
                                "#include \"ppy_runtime.h\"\n");
  if (auto s = write(rt_c, rt_text); !s.ok()) return cleanup(), s;
  std::string cc = linker->string();
  // Sanitized, the runtime is clang's (instrumented as LLVM 19's runtimes expect).
  std::vector<std::string> rt_compile = {cc, "-std=c11", "-O2", "-fPIC", "-c", rt_c.string(), "-o", rt_o.string()};
  std::vector<std::string> sanitizer_libs;
  if (has_flag(context, "profile-generate")) {
    auto libs = profile_runtime_link_args();
    if (!libs.ok()) return cleanup(), libs.status();
    sanitizer_libs = std::move(*libs);  // linked into executables as the sanitizers' are
  }
  if (sanitizers.any()) {
    auto clang = sanitizer_c_compiler();
    if (!clang.ok()) return cleanup(), clang.status();
    auto libs = sanitizer_link_args(sanitizers);
    if (!libs.ok()) return cleanup(), libs.status();
    sanitizer_libs = std::move(*libs);
    rt_compile[0] = clang->string();
    for (auto& f : sanitizer_compile_flags(sanitizers)) rt_compile.push_back(f);
  }
  // Once per machine (runtime_object.h): the same text, flags and compiler give the same object.
  if (auto s = compile_runtime(rt_compile, rt_text, rt_c, rt_o, work); !s.ok()) return cleanup(), s;
  std::vector<fs::path> with_runtime = objects;
  with_runtime.push_back(rt_o);
  // plugins: the native libraries the externs name, found through an rpath.
  const PluginLink natives = plugin_link(modules, context);
  auto link = [&](std::vector<std::string> args, const fs::path& output) -> absl::Status {
    std::vector<std::string> argv = {cc};
    argv.insert(argv.end(), args.begin(), args.end());
    for (auto& o : with_runtime) argv.push_back(o.string());
    argv.insert(argv.end(), natives.args.begin(), natives.args.end());
    // An executable carries the sanitizer runtime; a shared library leaves it to its host.
    if (std::find(args.begin(), args.end(), "-shared") == args.end())
      argv.insert(argv.end(), sanitizer_libs.begin(), sanitizer_libs.end());
    if (strings) argv.push_back("-lgc");
    argv.insert(argv.end(), {"-lm", "-o", output.string()});
    fs::create_directories(output.parent_path(), ec);
    auto r = run_tool(argv, work);
    return r.ok() ? absl::OkStatus() : r.status();
  };

  const ir::Function* main = find_main(modules, context);
  if (standalone) {
    if (!main)
      return cleanup(),
             coded_error("E1002",
                         "--standalone builds an executable, and the program has no main() in its entry module",
                         absl::StatusCode::kInvalidArgument);
    auto entry = entry_object(main->name(), *machine, strings);
    if (!entry.ok()) return cleanup(), entry.status();
    if (auto s = write(work / "ppy_entry.o", *entry); !s.ok()) return cleanup(), s;
    with_runtime.push_back(work / "ppy_entry.o");
    // The sanitizer runtimes need the dynamic loader: libc stays shared then.
    if (sanitizers.any())
      context.note(str_cat("--standalone --sanitize ", sanitizers.spelled(),
                           ": the program and the sanitizer runtime are linked in, libc and libgc stay shared"));
    // A plugin's library is shared: the executable then loads it, and libc, at start.
    bool shared = sanitizers.any() || !natives.names.empty();
    if (!sanitizers.any() && shared) {
      std::string names;
      for (auto& n : natives.names) str_append(names, names.empty() ? "" : ", ", n);
      context.note(str_cat("--standalone: the program and the runtime are linked in; the native librar",
                           natives.names.size() == 1 ? "y" : "ies", " of its plugins (", names,
                           ") and libc stay shared"));
    }
    if (auto s = link(shared ? std::vector<std::string>{} : std::vector<std::string>{"-static"}, out / name); !s.ok())
      return cleanup(), s;
    fs::remove_all(out / "obj", ec);
    result.outputs.push_back(name);
    cleanup();
    return result;
  }
  if (python) {
    auto py = find_program("python3");
    if (!py) return cleanup(), coded_error("E1801", "backend 'llvm' is unavailable: no python3 for --python-extension");
    auto config = run_tool({py->string(), "-c",
                            "import sysconfig; print(sysconfig.get_paths()['include']); "
                            "print(sysconfig.get_config_var('EXT_SUFFIX'))"},
                           work);
    if (!config.ok()) return cleanup(), config.status();
    std::string include = config->substr(0, config->find('\n'));
    std::string suffix = config->substr(config->find('\n') + 1);
    while (!suffix.empty() && (suffix.back() == '\n' || suffix.back() == '\r')) suffix.pop_back();
    if (!fs::exists(fs::path(include) / "Python.h"))
      return cleanup(), coded_error("E1801", str_cat("backend 'llvm' is unavailable: no Python.h in ", include,
                                                     " (install python3-dev)"));
    std::string mod = c_identifier(name);
    fs::path wrapper = work / (mod + "_module.c");
    if (auto s = write(wrapper, python_extension_source(name, exports)); !s.ok()) return cleanup(), s;
    fs::path wrapper_o = work / (mod + "_module.o");
    if (auto r = run_tool({cc, "-O2", "-fPIC", "-I" + include, "-c", wrapper.string(), "-o", wrapper_o.string()}, work);
        !r.ok())
      return cleanup(), r.status();
    with_runtime.push_back(wrapper_o);
    if (auto s = link({"-shared"}, out / (mod + suffix)); !s.ok()) return cleanup(), s;
    fs::remove_all(out / "obj", ec);
    result.outputs.push_back(mod + suffix);
    cleanup();
    return result;
  }
  if (library) {
    // lib/, include/ and a pkg-config file: `cc main.c $(pkg-config --cflags --libs ppy_<name>)`.
    if (auto s = write_archive(out / "lib" / ("lib" + lib + ".a"), with_runtime); !s.ok()) return cleanup(), s;
    if (auto s = link({"-shared"}, out / "lib" / ("lib" + lib + ".so")); !s.ok()) return cleanup(), s;
    if (auto s = write(out / "include" / (lib + ".h"), header); !s.ok()) return cleanup(), s;
    if (auto s = write(out / "lib" / "pkgconfig" / (lib + ".pc"), pkg_config(name, "0.1.0", strings)); !s.ok())
      return cleanup(), s;
    fs::remove_all(out / "obj", ec);
    for (std::string f : {"lib/lib" + lib + ".a", "lib/lib" + lib + ".so", "include/" + lib + ".h",
                          "lib/pkgconfig/" + lib + ".pc"})
      result.outputs.push_back(f);
    cleanup();
    return result;
  }
  // The default: the objects, both libraries, the header, and the executable
  // when there is a main.
  for (auto& o : objects) result.outputs.push_back(fs::relative(o, out));
  if (auto s = write_archive(out / ("lib" + lib + ".a"), with_runtime); !s.ok()) return cleanup(), s;
  result.outputs.push_back("lib" + lib + ".a");
  if (auto s = link({"-shared"}, out / ("lib" + lib + ".so")); !s.ok()) return cleanup(), s;
  result.outputs.push_back("lib" + lib + ".so");
  if (auto s = write(out / (lib + ".h"), header); !s.ok()) return cleanup(), s;
  result.outputs.push_back(lib + ".h");
  if (main) {
    auto entry = entry_object(main->name(), *machine, strings);
    if (!entry.ok()) return cleanup(), entry.status();
    if (auto s = write(work / "ppy_entry.o", *entry); !s.ok()) return cleanup(), s;
    with_runtime.push_back(work / "ppy_entry.o");
    if (auto s = link({}, out / name); !s.ok()) return cleanup(), s;
    result.outputs.push_back(name);
  }
  cleanup();
  return result;
}

}  // namespace

std::unique_ptr<Backend> create_llvm_backend(const Options& options) { return std::make_unique<LLVMBackend>(options); }

}  // namespace ppy::backends
