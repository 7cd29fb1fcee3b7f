#pragma once
/// How a builtin exception's `e.args` is used (issue 33), since its length and its
/// arguments' types are known only at run time: `print(e.args)`, `str(e.args)` and
/// `f"{e.args}"` print the repr of the args its raise kept (`(2, 'No such file or
/// directory')`, `('a', 1)`); `a, b = e.args` unpacks that many of its arguments
/// (python3's ValueError when the count differs); any other use is the arguments as
/// a `list[int | float | bool | str]`, each of its own type (`e.args[0] == 2`,
/// `len(e.args)`, `for a in e.args`). print, str()/repr(), the f-string checker and
/// assignments mark the operand they check; check_exception_args.cc asks.

#include <cstddef>

#include "ast.h"

namespace ppy::frontend::checking {

enum class ArgsUse { Value, Shown, Unpacked };

/// Marks `x` as used so while it lives (one per thread: modules are checked in parallel).
class ArgsUseMark {
 public:
  /// `n`: the number of names an Unpacked use assigns.
  ArgsUseMark(const Expr& x, ArgsUse use, size_t n = 0);
  ~ArgsUseMark();
  ArgsUseMark(const ArgsUseMark&) = delete;
  ArgsUseMark& operator=(const ArgsUseMark&) = delete;
  /// How `e` is used: what the last mark says when it marked `e`, else ArgsUse::Value.
  static ArgsUse of(const Expr& e);
  /// The number of names of the Unpacked use that marked `e`.
  static size_t count();

 private:
  const Expr* outer_;
  ArgsUse outer_use_;
  size_t outer_n_;
};

/// Whether `x` (checked) is a Shown `e.args` rewritten: the call giving the repr of the
/// args tuple, which str() and `!r` leave as it is (its repr is its str).
bool shows_exception_args(const Expr& x);

}  // namespace ppy::frontend::checking
