// The `gpu` dialect (v1): thread geometry, barriers, device memory, launches;
// and the rules on functions by `gpu.kind` (host, device, kernel).
#include <algorithm>
#include <string_view>

#include "ppy/ir/core_ops.h"
#include "ppy/ir/dialect.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {
namespace {

using ppy::str_cat;

OpSpec gpu_op(std::string name, std::optional<int> operands, std::optional<int> results) {
  OpSpec s;
  s.name = "gpu." + name;
  s.operands = operands;
  s.results = results;
  return s;
}

/// The function's `gpu.kind`: host (also when absent or malformed), device or kernel.
std::string_view kind_of(const Function& f) {
  const Attribute* k = f.attributes().get("gpu.kind");
  if (!k || !k->is<std::string>()) return "host";
  return k->as_string();
}

bool is_device_code(const Function& f) {
  std::string_view k = kind_of(f);
  return k == "device" || k == "kernel";
}

/// Ops that need the host: the runtime, Python buffers, device allocation, launches.
bool is_host_only(const Operation& op) {
  CoreOp c = core_op(op);
  if (c == CoreOp::Guard || c == CoreOp::CallExtern || c == CoreOp::CallIntrinsic || is_buffer(c)) return true;
  return op.name() == "gpu.device_alloc" || op.name() == "gpu.launch";
}

bool is_device_dialect(std::string_view d) {
  return d == "core" || d == "math" || d == "atomic" || d == "gpu" || d == "simd";
}

/// Thread geometry, barriers, shared memory and shuffles mean nothing on the host.
bool device_only(const Operation& op, DiagSink& sink) {
  const Function* f = op.parent_function();
  if (!f || is_device_code(*f)) return true;
  sink.error(str_cat(op.name(), " runs only in device code; @", f->name(), " is a host function"));
  return false;
}

void verify_geometry(const Operation& op, DiagSink& sink) {
  device_only(op, sink);
  Type t = op.result()->type();
  if (t != Type::index()) sink.error(str_cat("the result must be index, got ", t.str()));
}

void verify_local_alloc(const Operation& op, DiagSink& sink) {
  device_only(op, sink);
  std::string_view space = op.name() == "gpu.shared_alloc" ? "shared" : "private";
  Type t = op.result()->type();
  if (!t.is_ptr() || t.ptr_space() != space || !t.elem().is_scalar())
    sink.error(str_cat("the result must be a ptr<scalar, ", space, ">, got ", t.str()));
  const Attribute& n = *op.attr("count");
  if (!n.is<int64_t>() || n.as_int() < 1) sink.error("count must be a positive int");
}

void verify_device_alloc(const Operation& op, DiagSink& sink) {
  Type n = op.operand(0)->type();
  if (!n.is_integer_like()) sink.error(str_cat("the count must be an integer, got ", n.str()));
  Type t = op.result()->type();
  if (!t.is_ptr() || t.ptr_space() != "generic" || t.ptr_const() || !t.elem().is_scalar())
    sink.error(str_cat("the result must be a mutable ptr<scalar>, got ", t.str()));
}

void verify_shuffle(const Operation& op, DiagSink& sink) {
  device_only(op, sink);
  Type v = op.operand(0)->type();
  if (!v.is_scalar()) sink.error(str_cat("the shuffled value must be a scalar, got ", v.str()));
  Type lane = op.operand(1)->type();
  if (!lane.is_integer_like()) sink.error(str_cat("the lane must be an integer, got ", lane.str()));
  if (op.result()->type() != v)
    sink.error(str_cat("the result is ", op.result()->type().str(), " but the shuffled value is ", v.str()));
}

/// Six integers (grid x, y, z, block x, y, z), then the kernel's arguments.
void verify_launch(const Operation& op, DiagSink& sink) {
  const Attribute& c = *op.attr("callee");
  if (!c.is<SymbolRef>()) {
    sink.error("callee must be a symbol (@kernel)");
    return;
  }
  const std::string& name = c.as_symbol().name;
  const Function* k = sink.function(name);
  if (!k) {
    sink.error(str_cat("callee @", name, " is not a function of the module"));
    return;
  }
  if (kind_of(*k) != "kernel") {
    sink.error(str_cat("launches @", name, ", which is not a kernel (gpu.kind = \"kernel\")"));
    return;
  }
  if (op.num_operands() < 6) {
    sink.error(str_cat("needs 6 integer operands (grid x, y, z, block x, y, z) before the kernel's arguments, got ",
                       op.num_operands()));
    return;
  }
  for (size_t i = 0; i < 6; ++i)
    if (!op.operand(i)->type().is_integer_like())
      sink.error(str_cat("operand #", i, " (", i < 3 ? "grid" : "block", " size) must be an integer, got ",
                         op.operand(i)->type().str()));
  const auto& params = k->params();
  size_t args = op.num_operands() - 6;
  if (args != params.size()) {
    sink.error(str_cat("passes ", args, " argument(s) but kernel @", name, " takes ", params.size()));
    return;
  }
  for (size_t i = 0; i < args; ++i)
    if (op.operand(6 + i)->type() != params[i].type)
      sink.error(str_cat("kernel argument #", i, " is ", op.operand(6 + i)->type().str(), " but @", name,
                         " takes ", params[i].type ? params[i].type.str() : std::string("<no type>")));
}

/// `gpu.kind` is known; kernels take scalars or global/constant/generic
/// pointers and return nothing; device code stays within the device dialects,
/// leaves host-only ops alone and calls only device functions.
void verify_function(const Function& f, const Module& m, DiagSink& sink) {
  if (const Attribute* k = f.attributes().get("gpu.kind")) {
    static constexpr std::string_view kinds[] = {"host", "device", "kernel"};
    if (!k->is<std::string>() ||
        std::find(std::begin(kinds), std::end(kinds), std::string_view(k->as_string())) == std::end(kinds)) {
      sink.error(str_cat("gpu.kind must be \"host\", \"device\" or \"kernel\"",
                         k->is<std::string>() ? str_cat(", not \"", k->as_string(), "\"") : std::string()));
      return;
    }
  }
  std::string_view kind = kind_of(f);
  if (kind == "host") return;
  if (kind == "kernel") {
    if (!f.results().empty()) sink.error(str_cat("kernel @", f.name(), " must return nothing"));
    for (size_t i = 0; i < f.params().size(); ++i) {
      Type t = f.params()[i].type;
      if (!t) continue;
      bool ok = t.is_ptr() ? (t.ptr_space() == "global" || t.ptr_space() == "constant" || t.ptr_space() == "generic")
                           : t.is_scalar() && !t.is_void();
      if (!ok)
        sink.error(str_cat("kernel parameter #", i, " is ", t.str(),
                           "; a kernel takes scalars, or pointers in global, constant or generic memory"));
    }
  }
  walk(f.body(), [&](const Operation& op) {
    std::string_view d = op.dialect();
    if (!is_device_dialect(d)) {
      sink.error_at(op, str_cat("device code may use the core, math, atomic, gpu and simd dialects, not '", d, "'"));
    } else if (is_host_only(op)) {
      sink.error_at(op, str_cat(op.name(), " is host-only; @", f.name(), " is ", kind, " code"));
    } else if (core_op(op) == CoreOp::Call) {
      const std::string* callee = call_callee(op);
      const Function* g = callee ? sink.function(*callee) : nullptr;
      if (g && kind_of(*g) != "device")
        sink.error_at(op, str_cat("device code calls only device functions; @", g->name(), " is a ", kind_of(*g),
                                  " function"));
    }
  });
}

}  // namespace

Dialect gpu_dialect() {
  Dialect d{"gpu", 1};
  for (const char* n : {"thread_id", "block_id", "block_dim", "grid_dim"}) {
    OpSpec s = gpu_op(n, 0, 1);
    s.pure = true;
    s.variant_attribute = "dim";
    s.variants = {"x", "y", "z"};
    s.required_attributes = {"dim"};
    s.verify = verify_geometry;
    d.ops.push_back(std::move(s));
  }
  for (const char* n : {"barrier", "subgroup_barrier"}) {
    OpSpec s = gpu_op(n, 0, 0);
    s.verify = [](const Operation& op, DiagSink& sink) { device_only(op, sink); };
    d.ops.push_back(std::move(s));
  }
  for (const char* n : {"shared_alloc", "private_alloc"}) {
    OpSpec s = gpu_op(n, 0, 1);
    s.required_attributes = {"count"};
    s.verify = verify_local_alloc;
    d.ops.push_back(std::move(s));
  }
  OpSpec dev = gpu_op("device_alloc", 1, 1);
  dev.verify = verify_device_alloc;
  d.ops.push_back(std::move(dev));
  OpSpec shfl = gpu_op("subgroup_shuffle", 2, 1);
  shfl.variant_attribute = "mode";
  shfl.variants = {"idx", "up", "down", "xor"};
  shfl.required_attributes = {"mode"};
  shfl.verify = verify_shuffle;
  d.ops.push_back(std::move(shfl));
  OpSpec launch = gpu_op("launch", std::nullopt, 0);
  launch.required_attributes = {"callee"};
  launch.verify = verify_launch;
  d.ops.push_back(std::move(launch));
  d.verify_function = verify_function;
  return d;
}

}  // namespace ppy::ir
