#pragma once
/// The C spelling the writer's parts share: expressions with their
/// precedence, literals and reserved names. What an op means (which op, its
/// overflow, rounding, predicate, guard) is read through ppy/ir/core_ops.h.
/// Internal to the c backend (not installed).

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "ppy/ir/core_ops.h"
#include "ppy/ir/ir.h"

namespace ppy::backends::cgen {

/// A C expression and the precedence of its outermost operator, so an
/// operand is parenthesized only where C needs it.
struct Expr {
  std::string text;
  int prec;
};

/// C's precedence levels, higher binding tighter.
enum Prec {
  kAssign = 1,
  kTernary = 3,
  kOrOr = 4,
  kAndAnd = 5,
  kBitOr = 6,
  kBitXor = 7,
  kBitAnd = 8,
  kEq = 9,
  kRel = 10,
  kAdd = 12,
  kMul = 13,
  kUnary = 14,
  kPostfix = 15,
  kAtom = 16
};

/// `e` as an operand where precedence `need` is required.
std::string paren(const Expr& e, int need);

/// Names a variable may not take: C and C++ keywords, what the runtime and the
/// C library declare, CUDA's builtins.
const std::set<std::string, std::less<>>& c_reserved();

/// `s` as a C string literal that reads back as the same bytes.
std::string c_string(std::string_view s);

/// A double as a C literal: Python's repr where it is one, NAN and INFINITY.
std::string float_literal(double d);

/// A string attribute of `op`, or empty.
std::string_view str_attr(const ir::Operation& op, std::string_view key);

/// i64 or index: both int64_t in C.
bool int_type(ir::Type t);

/// Helpers for checked and wrapping arithmetic the runtime does not spell
/// (`ppy_c_add`, ...), by name; a unit carries those it calls.
const std::map<std::string, std::string>& helper_texts();

}  // namespace ppy::backends::cgen
