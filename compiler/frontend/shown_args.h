#pragma once
/// A builtin exception's `e.args` shown as text (issue 33): `print(e.args)` and
/// `f"{e.args}"` print python3's tuple, the repr of the args its raise kept
/// (`(2, 'No such file or directory')`, `('a', 1)`), where `e.args` as a value is
/// `(str(e),)` (its arguments' types are not known where it is caught). print and
/// the f-string checker mark the argument they check; check_exception_args.cc asks.

#include "ast.h"

namespace ppy::frontend::checking {

/// Marks `x` as shown while it lives (one per thread: modules are checked in parallel).
class ShownArgs {
 public:
  explicit ShownArgs(const Expr& x);
  ~ShownArgs();
  ShownArgs(const ShownArgs&) = delete;
  ShownArgs& operator=(const ShownArgs&) = delete;
  /// Whether `e` is the expression marked last.
  static bool is(const Expr& e);

 private:
  const Expr* outer_;
};

}  // namespace ppy::frontend::checking
