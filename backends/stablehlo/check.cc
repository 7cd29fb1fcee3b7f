// What the stablehlo backend takes: marked functions of scalars whose ops it
// can express on 0-d tensors. Everything else in them is refused by name,
// with its location.
#include <map>
#include <set>

#include "ppy/util/str_cat.h"
#include "stablehlo.h"

namespace ppy::stablehlo {
namespace {

bool scalar(ir::Type t) { return t.is_scalar() && !t.is_void() && t.kind() != ir::TypeKind::F16; }

const std::set<std::string, std::less<>>& supported_ops() {
  static const auto* s = new std::set<std::string, std::less<>>{
      "core.const", "core.add", "core.sub", "core.mul", "core.div", "core.mod", "core.neg", "core.and",
      "core.or", "core.xor", "core.cmp", "core.select", "core.cast", "core.br", "core.cond_br", "core.ret",
      "core.unreachable", "core.guard", "core.alloca", "core.load", "core.store", "core.call", "math.sqrt",
      "math.sin", "math.cos", "math.tan", "math.exp", "math.exp2", "math.log", "math.log2", "math.log10",
      "math.floor", "math.ceil", "math.trunc", "math.abs", "math.pow"};
  return *s;
}

/// A stack slot this backend keeps as a value: a scalar alloca used only as
/// the address of loads and stores.
bool is_value_slot(const ir::Value* v, const ir::Function& f) {
  const ir::Operation* def = v->def();
  if (!def || ir::core_op(*def) != ir::CoreOp::Alloca || def->attr("count") || !scalar(v->type().elem())) return false;
  bool ok = true;
  ir::walk(f.body(), [&](const ir::Operation& op) {
    ir::CoreOp kind = ir::core_op(op);
    for (size_t i = 0; i < op.num_operands(); ++i)
      if (op.operand(i) == v && !((kind == ir::CoreOp::Load && i == 0) || (kind == ir::CoreOp::Store && i == 1)))
        ok = false;
    for (const ir::Successor& s : op.successors())
      for (const ir::Value* a : s.args)
        if (a == v) ok = false;
  });
  return ok;
}

class Checker {
 public:
  explicit Checker(const ir::Module& m) : m_(m) {}

  std::optional<Refusal> run() {
    for (const auto& f : m_.functions())
      if (is_marked(*f) && !f->is_declaration())
        if (auto r = function(*f)) return r;
    for (const auto& f : m_.functions())
      if (is_marked(*f) && !f->is_declaration())
        if (auto r = recursion(*f)) return r;
    return std::nullopt;
  }

 private:
  std::optional<Refusal> function(const ir::Function& f) {
    for (const ir::Param& p : f.params())
      if (!scalar(p.type))
        return Refusal{str_cat("parameter '", p.name, "' of type ", p.type.str(), " of @", f.name()),
                       "int, float and bool parameters only", f.loc()};
    if (f.results().size() > 1 || (f.results().size() == 1 && !scalar(f.results()[0])))
      return Refusal{str_cat("the result of @", f.name()), "one int, float or bool result at most", f.loc()};
    std::optional<Refusal> found;
    ir::walk(f.body(), [&](const ir::Operation& op) {
      if (!found) found = operation(op, f);
    });
    return found;
  }

  std::optional<Refusal> operation(const ir::Operation& op, const ir::Function& f) {
    auto refuse = [&](std::string what, std::string capability) {
      return Refusal{str_cat(what, " in @", f.name()), std::move(capability), op.loc() ? op.loc() : f.loc()};
    };
    const std::string& n = op.name();
    const ir::CoreOp kind = ir::core_op(op);
    if (kind == ir::CoreOp::CallExtern) {
      const std::string* c = ir::extern_callee(op);
      return refuse(str_cat("core.call_extern of ", c ? *c : "?"),
                    "calls outside the marked functions (XLA runs no host code)");
    }
    if (!supported_ops().count(n)) return refuse(n, "a StableHLO form of this op");
    if (!op.regions().empty()) return refuse(n, "ops with regions");
    if (kind == ir::CoreOp::Alloca) {
      if (!is_value_slot(op.result(), f)) return refuse(str_cat(n, " of ", op.result()->type().str()), "memory (only scalar locals)");
      return std::nullopt;
    }
    if (kind == ir::CoreOp::Load || kind == ir::CoreOp::Store) {
      const ir::Value* ptr = op.operand(kind == ir::CoreOp::Load ? 0 : 1);
      if (!is_value_slot(ptr, f)) return refuse(str_cat(n, " through ", ptr->type().str()), "memory (only scalar locals)");
    } else {
      for (const ir::Value* v : op.operands())
        if (!scalar(v->type())) return refuse(str_cat(n, " of ", v->type().str()), "int, float and bool values only");
    }
    for (const ir::Value& r : op.results())
      if (!scalar(r.type())) return refuse(str_cat(n, " of ", r.type().str()), "int, float and bool values only");
    if (kind == ir::CoreOp::Call) {
      const std::string* callee_name = ir::call_callee(op);
      const ir::Function* callee = callee_name ? m_.function(*callee_name) : nullptr;
      if (!callee) return refuse(n, "a callee in this module");
      if (callee->is_declaration())
        return refuse(str_cat("a call to @", callee->name(), " of another module"), "calls across modules");
      if (!is_marked(*callee))
        return refuse(str_cat("a call to @", callee->name(), ", which is not @xla.jit"), "calls to marked functions only");
    }
    return std::nullopt;
  }

  /// XLA has no recursion: a cycle of calls among marked functions is refused.
  std::optional<Refusal> recursion(const ir::Function& f) {
    std::optional<Refusal> found;
    std::set<const ir::Function*> path;
    visit(f, path, found);
    return found;
  }

  void visit(const ir::Function& f, std::set<const ir::Function*>& path, std::optional<Refusal>& found) {
    if (found || done_.count(&f)) return;
    path.insert(&f);
    ir::walk(f.body(), [&](const ir::Operation& op) {
      if (found || ir::core_op(op) != ir::CoreOp::Call) return;
      const ir::Function* callee = m_.function(*ir::call_callee(op));
      if (path.count(callee)) {
        found = Refusal{str_cat("a recursive call to @", callee->name(), " in @", f.name()), "recursion (XLA has none)",
                        op.loc() ? op.loc() : f.loc()};
        return;
      }
      visit(*callee, path, found);
    });
    path.erase(&f);
    done_.insert(&f);
  }

  const ir::Module& m_;
  std::set<const ir::Function*> done_;
};

}  // namespace

bool is_marked(const ir::Function& f) {
  const ir::Attribute* a = f.attributes().get("xla.jit");
  return a && a->is<bool>() && a->as_bool();
}

int status_code(ir::GuardKind kind) {
  // 1 overflow, 2 bounds, 3 zero_division, 4 range, 5 contract, 6 assert, 7 unknown.
  return static_cast<int>(kind) + 1;
}

int status_code(std::string_view kind) {
  return status_code(ir::parse_guard_kind(kind).value_or(ir::GuardKind::Unknown));
}

std::optional<Refusal> check_module(const ir::Module& module) { return Checker(module).run(); }

}  // namespace ppy::stablehlo
