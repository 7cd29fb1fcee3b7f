// What the nvvm backend takes: device functions whose ops and types it can
// lower. Everything else in them is refused by name, with its location.
#include <set>

#include "nvvm.h"
#include "ppy/ir/core_ops.h"
#include "ppy/util/str_cat.h"

namespace ppy::nvvm {
namespace {

bool lowerable_type(ir::Type t) {
  if (t.is_ptr()) return !t.elem().is_void() && lowerable_type(t.elem());
  return t.is_scalar() && t.kind() != ir::TypeKind::F16;
}

/// Ops lowered directly (arithmetic wraps; see `check_op` for the attributes).
const std::set<std::string, std::less<>>& plain_ops() {
  static const auto* s = new std::set<std::string, std::less<>>{
      "core.const", "core.add", "core.sub", "core.mul", "core.div", "core.mod", "core.neg",
      "core.and", "core.or", "core.xor", "core.cmp", "core.select", "core.cast", "core.br",
      "core.cond_br", "core.ret", "core.unreachable", "core.alloca", "core.load", "core.store",
      "core.ptr_offset", "core.call", "gpu.thread_id", "gpu.block_id", "gpu.block_dim",
      "gpu.grid_dim", "gpu.barrier", "gpu.shared_alloc", "gpu.private_alloc", "math.sqrt",
      "math.floor", "math.ceil", "math.trunc", "math.abs"};
  return *s;
}

std::optional<Refusal> check_op(const ir::Operation& op, const ir::Function& f, const ir::Module& m,
                                bool have_libdevice) {
  auto refuse = [&](std::string what, std::string capability) {
    return Refusal{str_cat(what, " in @", f.name()), std::move(capability), op.loc() ? op.loc() : f.loc()};
  };
  const std::string& name = op.name();
  if (needs_libdevice(name)) {
    if (!have_libdevice)
      return refuse(name, "libdevice, which this machine lacks (CUDA's nvvm/libdevice/libdevice.10.bc)");
  } else if (!plain_ops().count(name)) {
    return refuse(name, "an NVPTX lowering of this op");
  }
  if (!op.regions().empty()) return refuse(name, "ops with regions");
  for (const ir::Value& r : op.results())
    if (!lowerable_type(r.type())) return refuse(str_cat(name, " of type ", r.type().str()), "this type on the GPU");
  for (const ir::Value* v : op.operands())
    if (!lowerable_type(v->type())) return refuse(str_cat(name, " of type ", v->type().str()), "this type on the GPU");
  if (const std::string* mode = ir::attr_if<std::string>(op, "overflow")) {
    ir::Overflow o = ir::overflow_of(op);
    if (o != ir::Overflow::Wrap && o != ir::Overflow::Proven)
      return refuse(str_cat(name, " with overflow = \"", *mode, "\""), "integer overflow checks (device ints wrap)");
  }
  const ir::CoreOp kind = ir::core_op(op);
  if (kind == ir::CoreOp::Call) {
    const std::string* callee_name = ir::call_callee(op);
    const ir::Function* callee = callee_name ? m.function(*callee_name) : nullptr;
    if (!callee) return refuse(name, "a callee in this module");
    if (!is_device_function(*callee))
      return refuse(str_cat("a call to host function @", callee->name()), "host calls from device code");
    if (callee->is_declaration())
      return refuse(str_cat("a call to @", callee->name(), " of another module"),
                    "device calls across modules (PTX is written per module)");
  }
  if (kind == ir::CoreOp::Cast) {
    ir::Type from = op.operand(0)->type(), to = op.result()->type();
    if (from.is_ptr() != to.is_ptr()) return refuse(str_cat(name, " from ", from.str(), " to ", to.str()), "pointer/number casts");
  }
  return std::nullopt;
}

}  // namespace

bool is_device_function(const ir::Function& f) {
  const ir::Attribute* k = f.attributes().get("gpu.kind");
  return k && k->is<std::string>() && (k->as_string() == "kernel" || k->as_string() == "device");
}

bool needs_libdevice(std::string_view op_name) {
  static const std::set<std::string_view> s = {"math.sin", "math.cos", "math.tan", "math.exp", "math.exp2",
                                               "math.log", "math.log2", "math.log10", "math.pow"};
  return s.count(op_name) != 0;
}

std::optional<Refusal> check_module(const ir::Module& module, bool have_libdevice) {
  for (const auto& f : module.functions()) {
    if (!is_device_function(*f) || f->is_declaration()) continue;
    for (const ir::Param& p : f->params())
      if (!lowerable_type(p.type))
        return Refusal{str_cat("parameter of type ", p.type.str(), " of @", f->name()), "this type on the GPU", f->loc()};
    for (ir::Type t : f->results())
      if (!t.is_scalar() || !lowerable_type(t))
        return Refusal{str_cat("result of type ", t.str(), " of @", f->name()), "this type on the GPU", f->loc()};
    std::optional<Refusal> found;
    ir::walk(f->body(), [&](const ir::Operation& op) {
      if (!found) found = check_op(op, *f, module, have_libdevice);
    });
    if (found) return found;
  }
  return std::nullopt;
}

}  // namespace ppy::nvvm
