// The LLVM backend's refusals: device code and what it does not lower.
#include "validate.h"

#include "ppy/backend/backend.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::llvm_backend {
namespace {

bool lowered_type(ir::Type t) {
  switch (t.kind()) {
    case ir::TypeKind::Bool:
    case ir::TypeKind::I64:
    case ir::TypeKind::Index:
    case ir::TypeKind::F64: return true;
    case ir::TypeKind::Ptr:
      if (t.elem().kind() == ir::TypeKind::I8) return true;  // a str handle (docs/runtime.md)
      [[fallthrough]];
    case ir::TypeKind::Buffer: return lowered_type(t.elem());
    case ir::TypeKind::Tuple:
      for (size_t i = 0; i < t.num_elems(); ++i)
        if (!lowered_type(t.elem(i)) ||
            (t.elem(i).kind() == ir::TypeKind::Ptr && t.elem(i).elem().kind() != ir::TypeKind::I8))
          return false;
      return true;
    case ir::TypeKind::Struct:  // an object's memory (docs/runtime.md, "Objects")
      for (auto& f : t.storage()->fields)
        if (!lowered_type(ir::Type(f.type))) return false;
      return true;
    default:
      return false;
  }
}

absl::Status refuse(std::string what, std::string capability, std::optional<ir::Location> loc) {
  return validation_error({"llvm", std::move(what), std::move(capability), loc});
}

}  // namespace

absl::Status validate_module(const ir::Module& module) {
  for (auto& f : module.functions()) {
    if (const ir::Attribute* k = f->attributes().get("gpu.kind"))
      return refuse(str_cat("@", f->name(), " (gpu.kind = ", k->is<std::string>() ? k->as_string() : "?", ")"),
                    "device code; use a GPU backend", f->loc());
    for (auto& p : f->params())
      if (!lowered_type(p.type))
        return refuse(str_cat("a parameter of type ", p.type.str(), " in @", f->name()), "that type", f->loc());
    if (f->results().size() > 1)
      return refuse(str_cat("@", f->name(), ", which returns several values"), "multiple results", f->loc());
    for (ir::Type t : f->results())
      if (!lowered_type(t))  // a list is a handle on the collector (docs/runtime.md, "Lists")
        return refuse(str_cat("a result of type ", t.str(), " in @", f->name()), "that type", f->loc());
    absl::Status status;
    ir::walk(f->body(), [&](const ir::Operation& op) {
      if (!status.ok()) return;
      std::optional<ir::Location> loc = op.loc() ? op.loc() : f->loc();
      if (op.dialect() == "gpu") {
        status = refuse(str_cat(op.name(), " in @", f->name()), "device code; use a GPU backend", loc);
        return;
      }
      if (!op.regions().empty()) {
        status = refuse(str_cat(op.name(), " in @", f->name()), "ops with regions", loc);
        return;
      }
      for (auto& r : op.results())
        if (!lowered_type(r.type())) {
          status = refuse(str_cat(op.name(), " of type ", r.type().str(), " in @", f->name()), "that type", loc);
          return;
        }
    });
    PPY_RETURN_IF_ERROR(status);
  }
  for (auto& [name, g] : module.globals())
    if (!lowered_type(g.type) || ((g.type.kind() == ir::TypeKind::Buffer || g.type.kind() == ir::TypeKind::Ptr) &&
                                  !(g.is_mutable && !g.initializer)))  // a module variable holding a str or a list
      return refuse(str_cat("the global @", name, " of type ", g.type.str()), "that type", std::nullopt);
  return absl::OkStatus();
}

}  // namespace ppy::llvm_backend
