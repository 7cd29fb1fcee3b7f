#pragma once
// Constant folding of the core and math ops (private to ppy_pipeline).

#include <optional>

#include "ppy/ir/ir.h"

namespace ppy::pipeline {

/// The `value` of the core.const `op` folds to when every operand is a
/// constant, or nullopt. Never folds what would behave differently at run
/// time: an overflowing `python`/`checked`/`proven` op (it raises there), a
/// division by zero, a cast out of range, a shift past the width.
std::optional<ir::Attribute> fold_constant(const ir::Operation& op);

/// An integer or bool constant's value, or nullopt (for float constants too).
std::optional<int64_t> int_of(const ir::Value* v);
/// A float constant's value, or nullopt.
std::optional<double> float_of(const ir::Value* v);
/// The attribute a constant of type `t` holding `v` carries.
ir::Attribute int_attr(int64_t v, ir::Type t);

}  // namespace ppy::pipeline
