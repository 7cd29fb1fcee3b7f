// IR generation, the `random` and `time` modules (check_random.cc): a runtime
// call each (ppy_random.c, ppy_time.c), its arguments converted to the
// line's parameter types and defaults filled in; `choice` indexes its
// sequence at the index the runtime draws, so it gives any element type.
#include "lowerer.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::random_call(const Expr& e) {
  Pos p = e.pos;
  const BuiltinMethod& m = builtin_method(e.builtin);
  std::string fn(m.runtime);
  // The arguments in source order, each with the parameter it fills.
  std::vector<std::pair<std::string, const Expr*>> given;
  for (size_t k = 1; k < e.kids.size(); ++k) given.emplace_back("", e.kids[k].get());
  for (auto& kw : e.keywords) given.emplace_back(kw.name, kw.value.get());
  if (m.id == BuiltinId::RandomChoice) {
    const Expr& seq = *e.kids[1];
    Value* s = expr(seq);
    if (seq.ty == Ty::Str) {
      Value* i = rt("ppy_random_choice_index", {rt("ppy_str_len", {s}, Type::i64(), p)}, Type::i64(), p);
      return rt("ppy_str_index", {s, i}, str_type(), p);
    }
    Value* i = rt("ppy_random_choice_index", {list_len(s, p)}, Type::i64(), p);
    return emit("core.buffer_load", {s, cast(i, Type::index(), p)}, {ir_type(e.ty)}, {}, p);
  }
  if (m.id == BuiltinId::RandomChoices || m.id == BuiltinId::RandomSample) {
    Value* population = nullptr;
    Value* weights = nullptr;
    Value* count = nullptr;
    Ty weights_ty = Ty::Error;
    bool cumulative = false;
    for (auto& [name, a] : given) {
      Value* v = expr(*a);
      if (!population && name.empty())
        population = v;
      else if (name == "k" || (m.id == BuiltinId::RandomSample && name.empty()))
        count = convert(v, a->ty, Ty::Int, p);
      else {
        weights = v;
        weights_ty = a->ty;
        cumulative = name == "cum_weights";
      }
    }
    if (!count) count = const_i64(1, p);
    if (m.id == BuiltinId::RandomSample) return rt(fn.c_str(), {population, count}, ir_type(e.ty), p);
    if (!weights) return rt("ppy_random_choices", {population, count}, ir_type(e.ty), p);
    bool floats = weights_ty == list_of(Ty::Float);
    const char* which = cumulative ? (floats ? "ppy_random_choices_cf" : "ppy_random_choices_ci")
                                   : (floats ? "ppy_random_choices_wf" : "ppy_random_choices_wi");
    return rt(which, {population, weights, count}, ir_type(e.ty), p);
  }
  if (m.id == BuiltinId::RandomShuffle) {
    call_extern(fn.c_str(), {expr(*e.kids[1])}, p);
    return nullptr;
  }
  // Numbers: placed by parameter (gauss's mu and sigma by keyword too).
  std::vector<Value*> args(m.params.size(), nullptr);
  size_t next = 0;
  for (auto& [name, a] : given) {
    size_t at = name == "mu" ? 0 : name == "sigma" ? 1 : next++;
    Value* v = expr(*a);
    if (at >= args.size()) continue;  // seed(None): the OS's seed takes nothing
    Ty want = resolve(m.params[at], Ty::Error);
    args[at] = want == Ty::Float || want == Ty::Int ? convert(v, a->ty, want, p) : v;
  }
  for (size_t k = 0; k < args.size(); ++k)  // the defaults of parameters left out
    if (!args[k])
      args[k] =
          m.params[k].ty == Ty::Float ? const_f64(m.params[k].float_default, p) : const_i64(m.params[k].int_default, p);
  if (e.ty == Ty::None) {
    call_extern(fn.c_str(), args, p);
    return nullptr;
  }
  return rt(fn.c_str(), args, ir_type(e.ty), p);
}

}  // namespace ppy::frontend::lowering
