#pragma once
/// A builtin exception's `e.args` where python3's tuple can be given without its
/// static type (issue 33): `print(e.args)` and `f"{e.args}"` print the repr of the
/// args its raise kept (`(2, 'No such file or directory')`, `('a', 1)`), and
/// `e.args[i]` is the str() of its i-th argument (`'a'`, `'1'`), where `e.args` as a
/// value is `(str(e),)` (its arguments' types are not known where it is caught).
/// print, the f-string checker and subscripts mark the operand they check;
/// check_exception_args.cc asks.

#include "ast.h"

namespace ppy::frontend::checking {

enum class ArgsUse { Value, Shown, Indexed };

/// Marks `x` as used so while it lives (one per thread: modules are checked in parallel).
class ArgsUseMark {
 public:
  ArgsUseMark(const Expr& x, ArgsUse use);
  ~ArgsUseMark();
  ArgsUseMark(const ArgsUseMark&) = delete;
  ArgsUseMark& operator=(const ArgsUseMark&) = delete;
  /// How `e` is used: what the last mark says when it marked `e`, else ArgsUse::Value.
  static ArgsUse of(const Expr& e);

 private:
  const Expr* outer_;
  ArgsUse outer_use_;
};

}  // namespace ppy::frontend::checking
