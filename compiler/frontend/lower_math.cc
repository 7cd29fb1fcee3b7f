// IR generation, the math module's functions of builtins.def (docs/runtime.md,
// "math"): a runtime call each, its arguments converted to the line's
// parameter types, defaults filled in; gcd and lcm folded pairwise.
#include <algorithm>

#include "lowerer.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::math_table_call(const Expr& e) {
  Pos p = e.pos;
  const BuiltinMethod& m = builtin_method(e.builtin);
  std::vector<std::pair<int, const Expr*>> placed;
  for (size_t k = 1; k < e.kids.size(); ++k) placed.emplace_back(e.kids[k]->param_index, e.kids[k].get());
  for (auto& kw : e.keywords) placed.emplace_back(kw.value->param_index, kw.value.get());
  size_t nargs = 0;
  for (auto& [i, a] : placed) nargs = std::max(nargs, static_cast<size_t>(i) + 1);
  std::vector<Value*> args(nargs, nullptr);
  bool variadic = m.name == "gcd" || m.name == "lcm";
  for (auto& [i, a] : placed) {  // evaluated in source order, placed by parameter
    Ty want = resolve(m.params[variadic ? 0 : static_cast<size_t>(i)], Ty::Error);
    Value* v = expr(*a);
    args[static_cast<size_t>(i)] = want == Ty::Float || want == Ty::Int ? convert(v, a->ty, want, p) : v;
  }
  std::string fn(m.runtime);
  if (variadic) {  // gcd() is 0, lcm() is 1; one argument is its absolute value
    Value* acc = const_i64(m.name == "gcd" ? 0 : 1, p);
    if (args.empty()) return acc;
    if (args.size() == 1) return rt(fn.c_str(), {args[0], const_i64(m.name == "gcd" ? 0 : 1, p)}, Type::i64(), p);
    acc = args[0];
    for (size_t k = 1; k < args.size(); ++k) acc = rt(fn.c_str(), {acc, args[k]}, Type::i64(), p);
    return acc;
  }
  args.resize(m.params.size(), nullptr);
  for (size_t k = 0; k < args.size(); ++k)  // the defaults of parameters left out
    if (!args[k])
      args[k] =
          m.params[k].ty == Ty::Float ? const_f64(m.params[k].float_default, p) : const_i64(m.params[k].int_default, p);
  if (e.ty == Ty::Bool) return cmp("ne", rt(fn.c_str(), args, Type::i64(), p), const_i64(0, p), p);
  return rt(fn.c_str(), args, ir_type(e.ty), p);
}

}  // namespace ppy::frontend::lowering
