// The `core` dialect (v1): op specs as ppyir-format.md lists them.
#include "ppy/ir/dialect.h"

namespace ppy::ir {
namespace {

OpSpec op(std::string name, std::optional<int> operands, std::optional<int> results) {
  OpSpec s;
  s.name = "core." + name;
  s.operands = operands;
  s.results = results;
  return s;
}
OpSpec pure(std::string name, std::optional<int> operands, std::optional<int> results,
            bool commutative = false) {
  OpSpec s = op(std::move(name), operands, results);
  s.pure = true;
  s.commutative = commutative;
  return s;
}

}  // namespace

Dialect core_dialect() {
  Dialect d{"core", 1};
  auto& ops = d.ops;
  OpSpec c = pure("const", 0, 1);
  c.inline_attribute = "value";
  c.required_attributes = {"value"};
  ops.push_back(c);
  ops.push_back(pure("add", 2, 1, true));
  ops.push_back(pure("sub", 2, 1));
  ops.push_back(pure("mul", 2, 1, true));
  ops.push_back(pure("div", 2, 1));
  ops.push_back(pure("mod", 2, 1));
  ops.push_back(pure("neg", 1, 1));
  ops.push_back(pure("and", 2, 1, true));
  ops.push_back(pure("or", 2, 1, true));
  ops.push_back(pure("xor", 2, 1, true));
  ops.push_back(pure("shl", 2, 1));
  ops.push_back(pure("shr", 2, 1));
  OpSpec cmp = pure("cmp", 2, 1);
  cmp.variant_attribute = "predicate";
  cmp.variants = {"eq", "ne", "lt", "le", "gt", "ge"};
  cmp.required_attributes = {"predicate"};
  ops.push_back(cmp);
  ops.push_back(pure("select", 3, 1));
  ops.push_back(pure("cast", 1, 1));
  OpSpec br = op("br", 0, 0);
  br.terminator = true;
  br.successors = 1;
  ops.push_back(br);
  OpSpec cond = op("cond_br", 1, 0);
  cond.terminator = true;
  cond.successors = 2;
  ops.push_back(cond);
  OpSpec ret = op("ret", std::nullopt, 0);
  ret.terminator = true;
  ret.successors = 0;
  ops.push_back(ret);
  OpSpec unr = op("unreachable", 0, 0);
  unr.terminator = true;
  unr.successors = 0;
  ops.push_back(unr);
  ops.push_back(op("alloca", 0, 1));
  ops.push_back(op("load", 1, 1));
  ops.push_back(op("store", 2, 0));
  ops.push_back(pure("ptr_offset", 2, 1));
  ops.push_back(pure("buffer_data", 1, 1));
  ops.push_back(pure("buffer_len", 1, 1));
  ops.push_back(op("buffer_load", 2, 1));
  ops.push_back(op("buffer_store", 3, 0));
  ops.push_back(pure("tuple_make", std::nullopt, 1));
  ops.push_back(pure("struct_make", std::nullopt, 1));
  OpSpec te = pure("tuple_extract", 1, 1);
  te.required_attributes = {"index"};
  ops.push_back(te);
  OpSpec se = pure("struct_extract", 1, 1);
  se.required_attributes = {"field"};
  ops.push_back(se);
  OpSpec call = op("call", std::nullopt, std::nullopt);
  call.required_attributes = {"callee"};
  ops.push_back(call);
  OpSpec ce = op("call_extern", std::nullopt, std::nullopt);
  ce.required_attributes = {"callee"};
  ops.push_back(ce);
  OpSpec ci = op("call_intrinsic", std::nullopt, std::nullopt);
  ci.required_attributes = {"intrinsic"};
  ops.push_back(ci);
  OpSpec guard = op("guard", 1, 0);
  guard.required_attributes = {"kind"};
  ops.push_back(guard);
  return d;
}

}  // namespace ppy::ir
