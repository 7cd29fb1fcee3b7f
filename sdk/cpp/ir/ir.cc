#include "ppy/ir/ir.h"

#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "ppy/util/str_cat.h"

namespace ppy::ir {

namespace {
/// Lets the pool be searched by string_view without building a std::string.
struct ViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};
}  // namespace

const std::string* intern(std::string_view s) {
  static std::mutex mu;
  static auto* pool = new std::unordered_set<std::string, ViewHash, std::equal_to<>>;
  std::lock_guard lock(mu);
  if (auto it = pool->find(s); it != pool->end()) return &*it;  // no allocation when present
  return &*pool->emplace(s).first;
}

std::string Location::str() const {
  return ppy::str_cat(file ? *file : std::string(), ":", line, ":", col);
}

std::unique_ptr<Operation> Operation::create(std::string_view name, std::vector<Value*> operands,
                                             const std::vector<Type>& result_types, AttrDict attributes,
                                             std::optional<Location> loc) {
  return create(intern(name), std::move(operands), result_types, std::move(attributes), loc);
}

std::unique_ptr<Operation> Operation::create(const std::string* interned_name, std::vector<Value*> operands,
                                             const std::vector<Type>& result_types, AttrDict attributes,
                                             std::optional<Location> loc) {
  std::unique_ptr<Operation> op(new Operation);
  op->name_ = interned_name;
  op->operands_ = std::move(operands);
  op->results_.reserve(result_types.size());
  for (size_t i = 0; i < result_types.size(); ++i) {
    Value& v = op->results_.emplace_back(result_types[i], std::string());
    v.def_ = op.get();
    v.index_ = static_cast<uint32_t>(i);
  }
  op->attributes_ = std::move(attributes);
  op->loc_ = loc;
  return op;
}

Operation::~Operation() = default;

std::string_view Operation::dialect() const {
  std::string_view n = *name_;
  return n.substr(0, n.find('.'));
}

Region& Operation::add_region() {
  auto& r = regions_.emplace_back(std::make_unique<Region>());
  r->parent_op_ = this;
  return *r;
}

Function* Operation::parent_function() const {
  if (!parent_ || !parent_->parent()) return nullptr;
  return parent_->parent()->parent_function();
}

Value* Block::add_argument(Type type, std::string hint) {
  auto& v = args_.emplace_back(std::make_unique<Value>(type, std::move(hint)));
  v->arg_owner_ = this;
  v->index_ = static_cast<uint32_t>(args_.size() - 1);
  return v.get();
}

void Block::erase_argument(size_t i) {
  args_.erase(args_.begin() + i);
  for (size_t k = i; k < args_.size(); ++k) args_[k]->index_ = static_cast<uint32_t>(k);
}

Operation* Block::append(std::unique_ptr<Operation> op) { return insert(ops_.size(), std::move(op)); }

Operation* Block::insert(size_t pos, std::unique_ptr<Operation> op) {
  op->parent_ = this;
  return ops_.insert(ops_.begin() + pos, std::move(op))->get();
}

std::unique_ptr<Operation> Block::remove(size_t pos) {
  std::unique_ptr<Operation> op = std::move(ops_[pos]);
  ops_.erase(ops_.begin() + pos);
  op->parent_ = nullptr;
  return op;
}

Block* Region::add_block(std::string label) {
  auto& b = blocks_.emplace_back(std::make_unique<Block>(std::move(label)));
  b->parent_ = this;
  return b.get();
}

std::unique_ptr<Block> Region::remove_block(size_t pos) {
  std::unique_ptr<Block> b = std::move(blocks_[pos]);
  blocks_.erase(blocks_.begin() + pos);
  b->parent_ = nullptr;
  return b;
}

Function* Region::parent_function() const {
  if (function_) return function_;
  return parent_op_ ? parent_op_->parent_function() : nullptr;
}

Function::Function(std::string name, std::vector<Param> params, std::vector<Type> results)
    : name_(std::move(name)), params_(std::move(params)), results_(std::move(results)) {
  body_.function_ = this;
}

Block* Function::create_entry_block(std::string label) {
  Block* b = body_.add_block(std::move(label));
  for (auto& p : params_) b->add_argument(p.type, p.name);
  return b;
}

Function* Module::add_function(std::unique_ptr<Function> f) {
  return functions_.emplace_back(std::move(f)).get();
}

Function* Module::function(std::string_view name) const {
  for (auto& f : functions_)
    if (f->name() == name) return f.get();
  return nullptr;
}

void replace_all_uses(Region& region, Value* from, Value* to) {
  walk(region, [&](Operation& op) {
    for (auto& v : op.operands())
      if (v == from) v = to;
    for (auto& s : op.successors())
      for (auto& v : s.args)
        if (v == from) v = to;
  });
}

namespace {

/// Copies regions, mapping old values and blocks to their copies.
class Cloner {
 public:
  /// Copies `src` into `dst`, then points every copied use at the copies.
  void clone_region(const Region& src, Region& dst) {
    region(src, dst);
    remap();
  }

 private:
  /// Copies blocks and ops; uses are resolved by remap() once every value of
  /// the function has its copy (a nested op may use a value of a block listed
  /// after its own).
  void region(const Region& src, Region& dst) {
    for (auto& b : src.blocks()) {
      Block* nb = dst.add_block(b->label());
      blocks_[b.get()] = nb;
      for (auto& a : b->arguments()) values_[a.get()] = nb->add_argument(a->type(), a->hint());
    }
    for (auto& b : src.blocks())
      for (auto& op : b->operations()) {
        auto copy = Operation::create(&op->name(), {}, types(*op), op->attributes(), op->loc());
        for (size_t i = 0; i < op->num_results(); ++i) {
          copy->result(i)->set_hint(op->result(i)->hint());
          values_[op->result(i)] = copy->result(i);
        }
        Operation* placed = blocks_[b.get()]->append(std::move(copy));
        made_.emplace_back(op.get(), placed);
        for (auto& r : op->regions()) region(*r, placed->add_region());
      }
  }

  void remap() {
    for (auto& [old, copy] : made_) {
      for (Value* v : old->operands()) copy->operands().push_back(map(v));
      for (auto& s : old->successors()) {
        Successor ns{blocks_.count(s.block) ? blocks_[s.block] : s.block, {}};
        for (Value* v : s.args) ns.args.push_back(map(v));
        copy->successors().push_back(std::move(ns));
      }
    }
  }

  static std::vector<Type> types(const Operation& op) {
    std::vector<Type> t;
    for (auto& r : op.results()) t.push_back(r.type());
    return t;
  }
  Value* map(Value* v) {
    auto it = values_.find(v);
    return it == values_.end() ? v : it->second;
  }
  std::unordered_map<const Value*, Value*> values_;
  std::unordered_map<const Block*, Block*> blocks_;
  std::vector<std::pair<const Operation*, Operation*>> made_;
};

}  // namespace

std::unique_ptr<Module> clone(const Module& m) {
  auto out = std::make_unique<Module>(m.name());
  out->dialects() = m.dialects();
  out->attributes() = m.attributes();
  out->globals() = m.globals();
  for (auto& f : m.functions()) {
    auto nf = std::make_unique<Function>(f->name(), f->params(), f->results());
    nf->set_visibility(f->visibility());
    nf->attributes() = f->attributes();
    nf->set_loc(f->loc());
    Cloner().clone_region(f->body(), nf->body());
    out->add_function(std::move(nf));
  }
  return out;
}

}  // namespace ppy::ir
