#pragma once
/// What every part of the Python writer shares: a Python expression with how
/// tightly it binds, and Python's spelling of names and literals.

#include <set>
#include <string>
#include <string_view>

#include "ppy/source/names.h"

namespace ppy::backends::python {

/// How tightly a Python expression binds (higher binds tighter): the levels of
/// Python's grammar, from a statement (`raise x`, which no expression holds)
/// up to an atom.
enum Prec {
  kStatement = 0,
  kTernary = 1,
  kOr = 2,
  kAnd = 3,
  kNot = 4,
  kCmp = 5,
  kBitOr = 6,
  kBitXor = 7,
  kBitAnd = 8,
  kShift = 9,
  kAdd = 10,
  kMul = 11,
  kUnary = 12,
  kPow = 13,
  kAtom = 20,
};

/// An expression and how tightly it binds.
struct Expr {
  std::string text;
  int prec;
};

/// `e` where a place needs at least `need`: as it is, or in parentheses.
std::string paren(const Expr& e, int need);

/// A Python string literal for `s`: the SDK's spelling, which Python reads back.
inline std::string py_string(std::string_view s) { return ppy::source::double_quoted(s); }

/// Python's reserved words and the builtins the generated code calls or
/// raises (the exceptions of guards, range checks and helpers among them): no
/// variable or function of a generated module takes these names, so none
/// shadows a builtin the module needs. Python's own names, not the IR's.
const std::set<std::string, std::less<>>& python_reserved();

}  // namespace ppy::backends::python
