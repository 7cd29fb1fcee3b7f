#include "ppy/pipeline/builder.h"

namespace ppy::pipeline {

ir::Operation* Builder::create(std::string_view name, std::vector<ir::Value*> operands,
                               const std::vector<ir::Type>& results, ir::AttrDict attrs) {
  auto op = ir::Operation::create(name, std::move(operands), results, std::move(attrs), loc_);
  if (at_end_) return block_->append(std::move(op));
  return block_->insert(pos_++, std::move(op));
}

ir::Value* Builder::op(std::string_view name, std::vector<ir::Value*> operands, ir::Type result,
                       ir::AttrDict attrs) {
  return create(name, std::move(operands), {result}, std::move(attrs))->result(0);
}

ir::Value* Builder::const_int(int64_t v, ir::Type t) {
  return op("core.const", {}, t, ir::AttrDict{{"value", ir::Attribute(v)}});
}

ir::Value* Builder::const_float(double v, ir::Type t) {
  return op("core.const", {}, t, ir::AttrDict{{"value", ir::Attribute(v)}});
}

ir::Value* Builder::const_bool(bool v) {
  return op("core.const", {}, ir::Type::i1(), ir::AttrDict{{"value", ir::Attribute(v)}});
}

ir::Operation* Builder::br(ir::Block* dest, std::vector<ir::Value*> args) {
  ir::Operation* o = create("core.br", {}, {});
  o->successors().push_back({dest, std::move(args)});
  return o;
}

ir::Operation* Builder::cond_br(ir::Value* cond, ir::Block* t, std::vector<ir::Value*> targs,
                                ir::Block* f, std::vector<ir::Value*> fargs) {
  ir::Operation* o = create("core.cond_br", {cond}, {});
  o->successors().push_back({t, std::move(targs)});
  o->successors().push_back({f, std::move(fargs)});
  return o;
}

ir::Operation* Builder::ret(std::vector<ir::Value*> values) {
  return create("core.ret", std::move(values), {});
}

}  // namespace ppy::pipeline
