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
  if (!def || def->name() != "core.alloca" || def->attr("count") || !scalar(v->type().elem())) return false;
  bool ok = true;
  ir::walk(f.body(), [&](const ir::Operation& op) {
    for (size_t i = 0; i < op.num_operands(); ++i)
      if (op.operand(i) == v && !((op.name() == "core.load" && i == 0) || (op.name() == "core.store" && i == 1)))
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
    if (n == "core.call_extern") {
      const ir::Attribute* c = op.attr("callee");
      return refuse(str_cat("core.call_extern of ", c && c->is<std::string>() ? c->as_string() : "?"),
                    "calls outside the marked functions (XLA runs no host code)");
    }
    if (!supported_ops().count(n)) return refuse(n, "a StableHLO form of this op");
    if (!op.regions().empty()) return refuse(n, "ops with regions");
    if (n == "core.alloca") {
      if (!is_value_slot(op.result(), f)) return refuse(str_cat(n, " of ", op.result()->type().str()), "memory (only scalar locals)");
      return std::nullopt;
    }
    if (n == "core.load" || n == "core.store") {
      const ir::Value* ptr = op.operand(n == "core.load" ? 0 : 1);
      if (!is_value_slot(ptr, f)) return refuse(str_cat(n, " through ", ptr->type().str()), "memory (only scalar locals)");
    } else {
      for (const ir::Value* v : op.operands())
        if (!scalar(v->type())) return refuse(str_cat(n, " of ", v->type().str()), "int, float and bool values only");
    }
    for (const ir::Value& r : op.results())
      if (!scalar(r.type())) return refuse(str_cat(n, " of ", r.type().str()), "int, float and bool values only");
    if (n == "core.call") {
      const ir::Attribute* c = op.attr("callee");
      const ir::Function* callee = c && c->is<ir::SymbolRef>() ? m_.function(c->as_symbol().name) : nullptr;
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
      if (found || op.name() != "core.call") return;
      const ir::Function* callee = m_.function(op.attr("callee")->as_symbol().name);
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

int status_code(std::string_view kind) {
  static const std::map<std::string_view, int> codes = {{"overflow", 1}, {"bounds", 2},   {"zero_division", 3},
                                                        {"range", 4},    {"contract", 5}, {"assert", 6}};
  auto it = codes.find(kind);
  return it == codes.end() ? 7 : it->second;
}

std::optional<Refusal> check_module(const ir::Module& module) { return Checker(module).run(); }

}  // namespace ppy::stablehlo
