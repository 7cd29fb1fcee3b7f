// IR generation, numeric builtins (docs/runtime.md, "Numbers"): `int(s,
// base)`, `hex`, `oct`, `bin`, `round`, `divmod` and `pow`.
#include "lowerer.h"

namespace ppy::frontend::lowering {

Value* FunctionLowerer::number_builtin(const Expr& e) {
  Pos p = e.pos;
  const std::string& n = e.target;
  std::vector<Value*> v;
  std::vector<Ty> t;
  for (size_t k = 1; k < e.kids.size(); ++k) {
    v.push_back(expr(*e.kids[k]));
    t.push_back(e.kids[k]->ty);
  }
  if (n == "int.base") return rt("ppy_str_to_i64_base", {v[0], convert(v[1], t[1], Ty::Int, p)}, Type::i64(), p);
  if (n == "hex" || n == "oct" || n == "bin")  // hex(x) is format(x, '#x')
    return rt("ppy_str_format_i64",
              {convert(v[0], t[0], Ty::Int, p), str_literal(n == "hex"   ? "#x"
                                                            : n == "oct" ? "#o"
                                                                         : "#b",
                                                            p)},
              str_type(), p);
  if (n == "round") {
    if (t[0] == Ty::Float) {
      Value* digits = v.size() > 1 ? convert(v[1], t[1], Ty::Int, p) : const_i64(0, p);
      Value* r = rt("ppy_f64_round", {v[0], digits}, Type::f64(), p);
      return v.size() > 1 ? r : float_to_int(r, p);
    }
    Value* x = convert(v[0], t[0], Ty::Int, p);
    if (v.size() == 1) return x;
    return rt("ppy_i64_round", {x, convert(v[1], t[1], Ty::Int, p)}, Type::i64(), p);
  }
  if (n == "divmod") {
    Ty r = tuple_elems(e.ty)[0];
    Value* q = arith("//", v[0], t[0], v[1], t[1], r, p);
    Value* m = arith("%", v[0], t[0], v[1], t[1], r, p);
    return make_tuple({q, m}, e.ty, p);
  }
  // pow
  if (v.size() == 2) return arith("**", v[0], t[0], v[1], t[1], e.ty, p);
  return rt("ppy_pow_mod_i64",
            {convert(v[0], t[0], Ty::Int, p), convert(v[1], t[1], Ty::Int, p), convert(v[2], t[2], Ty::Int, p)},
            Type::i64(), p);
}

}  // namespace ppy::frontend::lowering
