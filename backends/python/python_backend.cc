#include "ppy/backends/python_backend.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ppy/backend/api_version.h"
#include "ppy/ir/core_ops.h"
#include "ppy/runtime/abi.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "ppy/backends/source/values.h"
#include "python_helpers.h"
#include "python_template.h"

namespace fs = std::filesystem;

namespace ppy::backends {
namespace {

/// The runtime functions the python backend writes out (abi.def's table, its
/// template compiled); any other is refused.
bool known_extern(std::string_view c) {
  const runtime::RuntimeFunction* fn = runtime::find_runtime_function(c);
  return fn && python::writes_call(*fn);
}

/// Types the backend writes as Python values: i64, index, bool, f64, lists of
/// i64/f64, and stack slots of those (locals before mem2reg).
/// Whether `v` is the address of a mutable scalar global of `m` (a module
/// variable: `core.const @g : ptr<T>`), which the writer makes a Python global.
bool global_address(const ir::Value* v, const ir::Module& m) {
  const ir::Operation* d = v->def();
  const ir::Attribute* a = d ? ir::const_value(*d) : nullptr;
  if (!a || !a->is<ir::SymbolRef>()) return false;
  auto g = m.globals().find(a->as_symbol().name);
  return g != m.globals().end() && g->second.is_mutable && backends::source::global_value_type(g->second.type) &&
         v->type() == ir::Type::ptr(g->second.type);
}

/// Whether the writer has a Python spelling for `op` (core op `c`) at all:
/// not pointer arithmetic, a list's raw storage, intrinsics, arrays on the
/// stack, or shifts of anything but i64.
bool writes_op(const ir::Operation& op, ir::CoreOp c) {
  switch (c) {
    case ir::CoreOp::Shl:
    case ir::CoreOp::Shr:
      return op.result(0)->type() == ir::Type::i64();
    case ir::CoreOp::PtrOffset:
    case ir::CoreOp::BufferData:
    case ir::CoreOp::CallIntrinsic:
      return false;
    case ir::CoreOp::Alloca:
      return !op.attr("count");
    default:
      return true;
  }
}

bool known_type(ir::Type t) {
  switch (t.kind()) {
    case ir::TypeKind::I64:
    case ir::TypeKind::Index:
    case ir::TypeKind::Bool:
    case ir::TypeKind::F64:
      return true;
    case ir::TypeKind::Buffer:  // a Python list of Python values (a str, a list)
      return t.elem().kind() == ir::TypeKind::I64 || t.elem().kind() == ir::TypeKind::F64 ||
             t.elem().kind() == ir::TypeKind::Bool ||
             (t.elem().kind() == ir::TypeKind::Ptr && t.elem().ptr_space() == "generic" &&
              t.elem().elem().kind() == ir::TypeKind::I8) ||
             ((t.elem().kind() == ir::TypeKind::Buffer || t.elem().kind() == ir::TypeKind::Tuple) &&
              known_type(t.elem()));
    case ir::TypeKind::Ptr:
      if (t.ptr_space() == "generic" && t.elem().kind() == ir::TypeKind::I8) return true;  // a str (a Python str)
      if (t.ptr_space() == "generic" && t.elem().kind() == ir::TypeKind::Struct)
        return known_type(t.elem());  // an object
      return t.ptr_space() == "stack" && known_type(t.elem());
    case ir::TypeKind::Struct:  // an object's fields (a Python list), loaded as a
                                // tuple
      for (auto& f : t.storage()->fields)
        if (!known_type(ir::Type(f.type))) return false;
      return true;
    case ir::TypeKind::Tuple:  // a Python tuple
      for (size_t i = 0; i < t.num_elems(); ++i)
        if (!known_type(t.elem(i)) || (t.elem(i).is_ptr() && t.elem(i).elem().kind() != ir::TypeKind::I8)) return false;
      return true;
    default:
      return false;
  }
}

std::string python3_path() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    fs::path p = fs::path(dir) / "python3";
    std::error_code ec;
    if (fs::exists(p, ec)) return p.string();
  }
  return {};
}

class PythonBackend : public Backend {
 public:
  using Backend::Backend;

  std::string_view name() const override { return "python"; }
  std::optional<int> api_version() const override { return kBackendApiVersion; }
  std::string fingerprint() const override { return str_cat("python:2; helpers ", python::helpers_digest()); }

  std::vector<EmitFormat> emit_formats() const override {
    return {{"python", ".py", false, "Python 3 source per module, run by python3", EmitScope::Module, false}};
  }

  ToolchainStatus toolchain_status() const override {
    std::string p = python3_path();
    // Writing Python needs nothing; running it (`ppy run --backend python`) needs python3.
    return {true, p.empty() ? "writes Python 3 source; no python3 on PATH to run it" : "python3 at " + p};
  }

  absl::Status validate(const ir::Module& module, const BackendContext&) const override {
    for (auto& f : module.functions()) {
      auto refuse = [&](std::string what, std::string capability, const std::optional<ir::Location>& loc) {
        return validation_error({"python", std::move(what), std::move(capability), loc ? loc : f->loc()});
      };
      if (const ir::Attribute* k = f->attributes().get("gpu.kind"))
        return refuse(str_cat("the ", k->is<std::string>() ? k->as_string() : "device", " function ", f->name()),
                      "device code, which python3 cannot run", f->loc());
      for (auto& p : f->params())
        if (!known_type(p.type))
          return refuse(str_cat("a parameter of type ", p.type.str(), " in ", f->name()), "", f->loc());
      for (ir::Type t : f->results())
        if (!known_type(t)) return refuse(str_cat("a result of type ", t.str(), " in ", f->name()), "", f->loc());
      absl::Status status;
      ir::walk(f->body(), [&](const ir::Operation& op) {  // plugins (issue 36): a native library's symbol
        const std::string* library = ir::attr_if<std::string>(op, "library");
        if (!status.ok() || !library || ir::core_op(op) != ir::CoreOp::CallExtern) return;
        const std::string* callee = ir::extern_callee(op);
        status = refuse(str_cat("the symbol '", callee ? *callee : "", "' of the native library '", *library,
                                "' in ", f->name()),
                        "native code, which python3 cannot call", op.loc());
      });
      ir::walk(f->body(), [&](const ir::Operation& op) {
        if (!status.ok()) return;
        std::string where = str_cat(op.name(), " in ", f->name());
        ir::CoreOp c = ir::core_op(op);
        bool capture = c == ir::CoreOp::Call && ir::captures_status(op) && op.num_results() == 2;
        // A stack slot a try body was handed (its parameter): a one-element list.
        auto slot_param = [&](const ir::Value* v) {
          return v->arg_owner() == f->body().entry() && v->type().is_ptr() && v->type().ptr_space() == "stack";
        };
        // The address a load reads or a store writes.
        const ir::Value* address = c == ir::CoreOp::Load    ? op.operand(0)
                                   : c == ir::CoreOp::Store ? op.operand(1)
                                                            : nullptr;
        if (op.dialect() == "gpu") {
          status = refuse(where, "device code, which python3 cannot run", op.loc());
        } else if (op.dialect() != "core" && op.dialect() != "math") {
          status = refuse(where, "", op.loc());
        } else if (c == ir::CoreOp::CallExtern) {
          const std::string* callee = ir::extern_callee(op);
          std::string name = callee ? *callee : "";
          if (!known_extern(name))
            status = refuse(str_cat("the runtime function '", name, "' in ", f->name()), "", op.loc());
        } else if (!writes_op(op, c) || !op.regions().empty() || (op.num_results() > 1 && !capture)) {
          status = refuse(where, "", op.loc());
        } else if (c == ir::CoreOp::Const && op.num_results() == 1 && global_address(op.result(0), module)) {
          // a module variable's address: read and written as a Python global
        } else if (address && address->type().elem().kind() != ir::TypeKind::Struct &&
                   !(address->def() && ir::core_op(*address->def()) == ir::CoreOp::Alloca) && !slot_param(address) &&
                   !global_address(address, module)) {
          status = refuse(str_cat(op.name(), " through a pointer in ", f->name()), "", op.loc());
        } else {
          for (auto& r : op.results())
            if (!known_type(r.type())) {
              status = refuse(str_cat(where, " of type ", r.type().str()), "", op.loc());
              break;
            }
        }
      });
      PPY_RETURN_IF_ERROR(status);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Artifact> emit(const ir::Module& module, const EmitFormat&, BackendContext&) const override {
    PPY_ASSIGN_OR_RETURN(std::string text, python_source(module));
    return Artifact(std::move(text));
  }

  absl::StatusOr<BuildResult> build(ModuleList modules, const fs::path& output_dir, BackendContext&) const override {
    BuildResult result;
    for (const ir::Module* m : modules) {
      PPY_ASSIGN_OR_RETURN(auto traced, python_source_traced(*m));
      std::string& text = traced.first;
      fs::path rel = python_module_path(m->name(), modules);
      fs::path path = output_dir / rel;
      std::error_code ec;
      fs::create_directories(path.parent_path(), ec);
      std::ofstream out(path, std::ios::binary);
      out << text;
      if (!out.flush()) return absl::InternalError(str_cat("cannot write ", path.string()));
      result.outputs.push_back(rel);
      // Tracebacks (issue 34): the module's table beside it, `<module>.py.trace.json`.
      fs::path table_rel = rel;
      table_rel += ".trace.json";
      std::ofstream table(output_dir / table_rel, std::ios::binary);
      table << traced.second;
      if (!table.flush()) return absl::InternalError(str_cat("cannot write ", (output_dir / table_rel).string()));
      result.outputs.push_back(table_rel);
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Backend> create_python_backend(const Options& options) {
  return std::make_unique<PythonBackend>(options);
}

}  // namespace ppy::backends
