#include "fuse_axpy_norm.h"

#include <map>
#include <string_view>

namespace vecmath {
namespace {

using ppy::ir::Block;
using ppy::ir::Operation;
using ppy::ir::Region;
using ppy::ir::Value;

/// Whether `op` calls the C symbol `symbol` (the stub's `@extern`).
bool calls(const Operation& op, std::string_view symbol) {
  if (op.name() != "core.call_extern") return false;
  const ppy::ir::Attribute* callee = op.attr("callee");
  return callee && callee->is<std::string>() && callee->as_string() == symbol;
}

/// Ops that may sit between the two calls: they read nothing y holds.
bool harmless(const Operation& op) {
  return op.name() == "core.buffer_data" || op.name() == "core.buffer_len" || op.name() == "core.const";
}

/// Whether `a` and `b` are the same value, or the same view (`core.buffer_data`
/// or `core.buffer_len`) of the same list.
bool same(const Value* a, const Value* b, const std::map<const Value*, const Operation*>& defined_by) {
  if (a == b) return true;
  auto da = defined_by.find(a), db = defined_by.find(b);
  if (da == defined_by.end() || db == defined_by.end()) return false;
  const Operation& x = *da->second;
  const Operation& y = *db->second;
  return x.name() == y.name() && (x.name() == "core.buffer_data" || x.name() == "core.buffer_len") &&
         x.num_operands() == 1 && y.num_operands() == 1 && x.operand(0) == y.operand(0);
}

bool fuse_in(Block& block, Region& body);

bool fuse_in_regions(Operation& op, Region& body) {
  bool changed = false;
  for (auto& r : op.regions())
    for (auto& b : r->blocks()) changed |= fuse_in(*b, body);
  return changed;
}

bool fuse_in(Block& block, Region& body) {
  bool changed = false;
  std::map<const Value*, const Operation*> defined_by;
  auto& ops = block.operations();
  for (size_t i = 0; i < ops.size(); ++i) {
    Operation& axpy = *ops[i];
    changed |= fuse_in_regions(axpy, body);
    for (size_t r = 0; r < axpy.num_results(); ++r) defined_by[axpy.result(r)] = &axpy;
    // vecmath_axpy(alpha, x_data, x_len, y_data, y_len)
    if (!calls(axpy, "vecmath_axpy") || axpy.num_operands() != 5) continue;
    for (size_t j = i + 1; j < ops.size(); ++j) {
      Operation& next = *ops[j];
      if (harmless(next)) {
        for (size_t r = 0; r < next.num_results(); ++r) defined_by[next.result(r)] = &next;
        continue;
      }
      // vecmath_norm(y_data, y_len) of the y axpy just wrote
      if (calls(next, "vecmath_norm") && next.num_operands() == 2 && next.num_results() == 1 &&
          same(next.operand(0), axpy.operand(3), defined_by) && same(next.operand(1), axpy.operand(4), defined_by)) {
        ppy::ir::AttrDict attrs = axpy.attributes();
        attrs.set("callee", "vecmath_axpy_norm");
        std::vector<Value*> operands(axpy.operands().begin(), axpy.operands().end());
        Operation* fused = block.insert(
            j, Operation::create("core.call_extern", operands, {next.result(0)->type()}, std::move(attrs), next.loc()));
        ppy::ir::replace_all_uses(body, next.result(0), fused->result(0));
        block.remove(j + 1);  // the norm
        block.remove(i);      // the axpy
        changed = true;
      }
      break;
    }
  }
  return changed;
}

}  // namespace

absl::StatusOr<bool> FuseAxpyNorm::run_on_function(ppy::ir::Function& f, const ppy::ir::PassContext&) {
  bool changed = false;
  for (auto& b : f.body().blocks()) changed |= fuse_in(*b, f.body());
  return changed;
}

}  // namespace vecmath
