#include "ppy/ir/ir.h"

#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "absl/container/flat_hash_map.h"
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
  // Each thread remembers the strings it interned last, by hash: a builder
  // hinting value after value takes the lock only for a new string.
  thread_local const std::string* recent[256] = {};
  size_t h = std::hash<std::string_view>()(s);
  const std::string*& slot = recent[(h ^ (h >> 17)) & 255];
  if (slot && *slot == s) return slot;
  static std::mutex mu;
  static auto* pool = new std::unordered_set<std::string, ViewHash, std::equal_to<>>;
  std::lock_guard lock(mu);
  auto it = pool->find(s);
  if (it == pool->end()) it = pool->emplace(s).first;
  return slot = &*it;
}

const std::string& Value::empty_hint() {
  static const std::string* empty = new std::string();
  return *empty;
}

std::string Location::str() const {
  return ppy::str_cat(file ? *file : std::string(), ":", line, ":", col);
}

std::unique_ptr<Operation> Operation::create(std::string_view name, absl::Span<Value* const> operands,
                                             absl::Span<const Type> result_types, AttrDict attributes,
                                             std::optional<Location> loc) {
  return create(nullptr, intern(name), operands, result_types, std::move(attributes), loc);
}

std::unique_ptr<Operation> Operation::create(const std::string* interned_name, absl::Span<Value* const> operands,
                                             absl::Span<const Type> result_types, AttrDict attributes,
                                             std::optional<Location> loc) {
  return create(nullptr, interned_name, operands, result_types, std::move(attributes), loc);
}

std::unique_ptr<Operation> Operation::create(Arena* arena, const std::string* interned_name,
                                             absl::Span<Value* const> operands, absl::Span<const Type> result_types,
                                             AttrDict attributes, std::optional<Location> loc) {
  size_t n = result_types.size();
  size_t size = sizeof(Operation) + n * sizeof(Value);
  void* mem = arena ? arena->allocate(size, alignof(Operation)) : ::operator new(size);
  std::unique_ptr<Operation> op(new (mem) Operation(interned_name, arena, static_cast<uint32_t>(n)));
  op->operands_.assign(operands.begin(), operands.end());
  Value* results = reinterpret_cast<Value*>(op.get() + 1);
  for (size_t i = 0; i < n; ++i) {
    Value* v = new (results + i) Value(result_types[i], static_cast<const std::string*>(nullptr));
    v->def_ = op.get();
    v->index_ = static_cast<uint32_t>(i);
  }
  op->attributes_ = std::move(attributes);
  op->loc_ = loc;
  return op;
}

// Values hold no resources: the results need no destructor of their own.
static_assert(std::is_trivially_destructible_v<Value>);
Operation::~Operation() = default;

void Operation::operator delete(Operation* op, std::destroying_delete_t) {
  Arena* arena = op->arena_;
  op->~Operation();
  if (!arena) ::operator delete(static_cast<void*>(op));
}

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

Value* Block::add_argument(Type type, std::string_view hint) {
  return add_interned_argument(type, hint.empty() ? nullptr : intern(hint));
}

void Value::operator delete(Value* v, std::destroying_delete_t) {
  bool in_arena = v->in_arena_;
  v->~Value();
  if (!in_arena) ::operator delete(static_cast<void*>(v));
}

Block::~Block() = default;

void Block::operator delete(Block* b, std::destroying_delete_t) {
  Arena* arena = b->arena_;
  b->~Block();
  if (!arena) ::operator delete(static_cast<void*>(b));
}

Value* Block::add_interned_argument(Type type, const std::string* hint) {
  std::unique_ptr<Value> made;
  if (arena_) {
    made.reset(new (arena_->allocate(sizeof(Value), alignof(Value))) Value(type, hint));
    made->in_arena_ = true;
  } else {
    made = std::make_unique<Value>(type, hint);
  }
  auto& v = args_.emplace_back(std::move(made));
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
  if (op->arena_) [[unlikely]] {
    // An op made in an arena: the function it joins keeps that arena alive.
    Function* f = parent_ ? parent_->parent_function() : nullptr;
    if (f && f->arena() != op->arena_) f->keep_alive(op->arena_->shared_from_this());
  }
  op->parent_ = this;
  return ops_.insert(ops_.begin() + pos, std::move(op))->get();
}

std::unique_ptr<Operation> Block::remove(size_t pos) {
  std::unique_ptr<Operation> op = std::move(ops_[pos]);
  ops_.erase(ops_.begin() + pos);
  op->parent_ = nullptr;
  return op;
}

Block* Region::add_block(std::string label) { return add_block(nullptr, std::move(label)); }

Block* Region::add_block(Arena* arena, std::string label) {
  std::unique_ptr<Block> made;
  if (arena) {
    made.reset(new (arena->allocate(sizeof(Block), alignof(Block))) Block(std::move(label)));
    made->arena_ = arena;
  } else {
    made = std::make_unique<Block>(std::move(label));
  }
  auto& b = blocks_.emplace_back(std::move(made));
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

void Function::keep_alive(std::shared_ptr<Arena> a) {
  for (auto& have : more_arenas_)
    if (have == a) return;
  more_arenas_.push_back(std::move(a));
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
  /// The copies' ops go in `arena`, which their function keeps.
  explicit Cloner(Arena* arena) : arena_(arena) {}

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
    dst.blocks().reserve(src.blocks().size());
    for (auto& b : src.blocks()) {
      Block* nb = dst.add_block(arena_, b->label());
      blocks_[b.get()] = nb;
      nb->reserve_arguments(b->num_arguments());
      for (auto& a : b->arguments()) values_[a.get()] = nb->add_interned_argument(a->type(), a->interned_hint());
      nb->operations().reserve(b->operations().size());
    }
    for (auto& b : src.blocks()) {
      Block* nb = blocks_[b.get()];
      for (auto& op : b->operations()) {
        types_.clear();
        for (const Value& r : op->results()) types_.push_back(r.type());
        auto copy = Operation::create(arena_, &op->name(), {}, types_, op->attributes(), op->loc());
        for (size_t i = 0; i < op->num_results(); ++i) {
          copy->result(i)->set_interned_hint(op->result(i)->interned_hint());
          values_[op->result(i)] = copy->result(i);
        }
        Operation* placed = nb->append(std::move(copy));
        made_.emplace_back(op.get(), placed);
        for (auto& r : op->regions()) region(*r, placed->add_region());
      }
    }
  }

  void remap() {
    for (auto& [old, copy] : made_) {
      for (Value* v : old->operands()) copy->operands().push_back(map(v));
      if (old->successors().empty()) continue;
      copy->successors().reserve(old->successors().size());
      for (auto& s : old->successors()) {
        auto it = blocks_.find(s.block);
        Successor& ns = copy->successors().emplace_back();
        ns.block = it == blocks_.end() ? s.block : it->second;
        ns.args.reserve(s.args.size());
        for (Value* v : s.args) ns.args.push_back(map(v));
      }
    }
  }

  Value* map(Value* v) {
    auto it = values_.find(v);
    return it == values_.end() ? v : it->second;
  }
  Arena* arena_;
  std::vector<Type> types_;  // scratch
  absl::flat_hash_map<const Value*, Value*> values_;
  absl::flat_hash_map<const Block*, Block*> blocks_;
  std::vector<std::pair<const Operation*, Operation*>> made_;
};

}  // namespace

std::unique_ptr<Module> clone(const Module& m) {
  auto out = std::make_unique<Module>(m.name());
  auto arena = std::make_shared<Arena>();
  out->dialects() = m.dialects();
  out->attributes() = m.attributes();
  out->globals() = m.globals();
  for (auto& f : m.functions()) {
    auto nf = std::make_unique<Function>(f->name(), f->params(), f->results());
    nf->set_visibility(f->visibility());
    nf->attributes() = f->attributes();
    nf->set_loc(f->loc());
    nf->set_arena(arena);
    Cloner(arena.get()).clone_region(f->body(), nf->body());
    out->add_function(std::move(nf));
  }
  return out;
}

}  // namespace ppy::ir
