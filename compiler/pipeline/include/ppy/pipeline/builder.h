#pragma once
/// A small builder of canonical IR: passes use it to create the ops they
/// rewrite into (constants, branches), tests to write functions by hand.

#include <cstdint>
#include <string_view>
#include <vector>

#include "ppy/ir/ir.h"

namespace ppy::pipeline {

class Builder {
 public:
  /// Inserts at the end of `block`.
  explicit Builder(ir::Block* block) : block_(block), pos_(0), at_end_(true) {}
  /// Inserts before the op at `pos` of `block` (and after each op it inserts).
  Builder(ir::Block* block, size_t pos) : block_(block), pos_(pos), at_end_(false) {}

  ir::Block* block() const { return block_; }
  void set_block(ir::Block* block) {
    block_ = block;
    at_end_ = true;
  }
  /// Location given to the ops created from now on.
  void set_loc(std::optional<ir::Location> loc) { loc_ = loc; }

  /// Creates and inserts an op.
  ir::Operation* create(std::string_view name, std::vector<ir::Value*> operands,
                        const std::vector<ir::Type>& results, ir::AttrDict attrs = {});
  /// An op with exactly one result; returns the result.
  ir::Value* op(std::string_view name, std::vector<ir::Value*> operands, ir::Type result,
                ir::AttrDict attrs = {});

  ir::Value* const_int(int64_t v, ir::Type t = ir::Type::i64());
  ir::Value* const_float(double v, ir::Type t = ir::Type::f64());
  ir::Value* const_bool(bool v);

  ir::Operation* br(ir::Block* dest, std::vector<ir::Value*> args = {});
  ir::Operation* cond_br(ir::Value* cond, ir::Block* t, std::vector<ir::Value*> targs, ir::Block* f,
                         std::vector<ir::Value*> fargs);
  ir::Operation* ret(std::vector<ir::Value*> values = {});

 private:
  ir::Block* block_;
  size_t pos_;
  bool at_end_;
  std::optional<ir::Location> loc_;
};

}  // namespace ppy::pipeline
