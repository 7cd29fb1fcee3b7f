// The `core` dialect's ops for functions as values (docs/ir.md, "Functions as
// values"): `core.func_ref` names a function of the module as a value,
// `core.call_indirect` calls the function such a value names.
#include "ppy/ir/dialect.h"
#include "ppy/ir/verifier.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir::detail {
namespace {

/// What a function value is on the IR: an opaque pointer, as a str or an object
/// handle is, so it is stored, passed and kept in lists with no new type.
Type function_value_type() { return Type::ptr(Type::scalar(TypeKind::I8)); }

std::string type_text(Type t) { return t ? t.str() : std::string("<no type>"); }

void verify_func_ref(const Operation& op, DiagSink& sink) {
  const Attribute& c = *op.attr("callee");
  if (!c.is<SymbolRef>()) {
    sink.error("callee must be a symbol (@name)");
    return;
  }
  if (op.result()->type() != function_value_type())
    sink.error(str_cat("the result must be ptr<i8>, got ", op.result()->type().str()));
  const Function* f = sink.function(c.as_symbol().name);
  if (!f) {
    sink.error(str_cat("callee @", c.as_symbol().name, " is not a function of the module"));
    return;
  }
  if (f->attributes().get("gpu.kind")) sink.error(str_cat("@", f->name(), " is GPU code, which is never a value"));
}

/// The operands after the first are the arguments, the results the callee's:
/// checked against the function when the callee is a `core.func_ref` in sight.
void verify_call_indirect(const Operation& op, DiagSink& sink) {
  if (op.num_operands() < 1) {
    sink.error("needs the function value as its first operand");
    return;
  }
  if (op.operand(0)->type() != function_value_type()) {
    sink.error(str_cat("the function value must be ptr<i8>, got ", op.operand(0)->type().str()));
    return;
  }
  if (op.attr("callee")) sink.error("calls the value of its first operand, so it takes no callee");
  const Operation* def = op.operand(0)->def();
  if (!def || def->name() != "core.func_ref") return;
  const Attribute* c = def->attr("callee");
  const Function* f = c && c->is<SymbolRef>() ? sink.function(c->as_symbol().name) : nullptr;
  if (!f) return;  // reported at the func_ref
  const auto& params = f->params();
  if (op.num_operands() - 1 != params.size()) {
    sink.error(str_cat("passes ", op.num_operands() - 1, " argument(s) but @", f->name(), " takes ", params.size()));
  } else {
    for (size_t i = 0; i < params.size(); ++i)
      if (op.operand(i + 1)->type() != params[i].type)
        sink.error(str_cat("argument #", i, " is ", op.operand(i + 1)->type().str(), " but @", f->name(), " takes ",
                           type_text(params[i].type)));
  }
  if (op.num_results() != f->results().size()) {
    sink.error(str_cat("gives ", op.num_results(), " result(s) but @", f->name(), " returns ", f->results().size()));
    return;
  }
  for (size_t i = 0; i < f->results().size(); ++i)
    if (op.result(i)->type() != f->results()[i])
      sink.error(str_cat("result #", i, " is ", op.result(i)->type().str(), " but @", f->name(), " returns ",
                         type_text(f->results()[i])));
}

}  // namespace

void add_callable_ops(Dialect& d) {
  OpSpec ref;
  ref.name = "core.func_ref";
  ref.pure = true;
  ref.operands = 0;
  ref.results = 1;
  ref.required_attributes = {"callee"};
  ref.verify = verify_func_ref;
  d.ops.push_back(ref);
  OpSpec call;
  call.name = "core.call_indirect";
  call.verify = verify_call_indirect;
  d.ops.push_back(call);
}

}  // namespace ppy::ir::detail
