#pragma once
/// The in-memory canonical IR: typed SSA in regions of blocks with block arguments.
///
/// Ownership is a tree: Module owns Functions, a Function owns its body Region,
/// a Region owns Blocks, a Block owns Operations, an Operation owns its result
/// Values and nested Regions. Values are referred to by stable pointer; nothing
/// is reference-counted. An Operation's results are fixed when it is created, so
/// pointers to them never move. There are no use-lists: passes that need uses
/// count them (see `replace_all_uses`).
///
/// Memory (issue 20): an Operation is one allocation, its results after it and
/// up to three operands and one attribute inline; value hints are interned. Ops
/// a reader or `clone` makes live in their module's Arena (ppy/ir/arena.h),
/// which each Function made there keeps alive; an op made by `create` without
/// one is allocated alone. Either way `std::unique_ptr<Operation>` owns it.

#include <cstdint>
#include <map>
#include <new>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "ppy/ir/arena.h"
#include "ppy/ir/attributes.h"
#include "ppy/ir/types.h"

namespace ppy::ir {

class Block;
class Operation;
class Region;
class Function;

/// Returns a process-lifetime copy of `s`; equal strings give the same pointer.
const std::string* intern(std::string_view s);

/// `loc("file":line:col)`.
struct Location {
  const std::string* file = nullptr;  ///< interned
  uint32_t line = 0;
  uint32_t col = 0;

  Location() = default;
  Location(std::string_view f, uint32_t l, uint32_t c) : file(intern(f)), line(l), col(c) {}
  bool operator==(const Location&) const = default;
  std::string str() const;  ///< `file:line:col`
};

/// An SSA value: an operation result or a block argument.
class Value {
 public:
  Value(Type type, std::string_view hint) : type_(type), hint_(hint.empty() ? nullptr : intern(hint)) {}
  /// `hint` is `intern`'s (or null: none).
  Value(Type type, const std::string* hint) : type_(type), hint_(hint && !hint->empty() ? hint : nullptr) {}
  Value(const Value&) = delete;
  Value(Value&&) = default;

  Type type() const { return type_; }
  void set_type(Type t) { type_ = t; }
  /// The name the value would like to print as (`%hint`); may be empty.
  const std::string& hint() const { return hint_ ? *hint_ : empty_hint(); }
  void set_hint(std::string_view h) { hint_ = h.empty() ? nullptr : intern(h); }
  /// As set_hint, with a string `intern` returned (null: none).
  void set_interned_hint(const std::string* h) { hint_ = h && !h->empty() ? h : nullptr; }
  /// The interned hint, or null: readers and writers key on it.
  const std::string* interned_hint() const { return hint_; }
  /// The defining operation, or null for a block argument.
  Operation* def() const { return def_; }
  /// The block of a block argument, or null for a result.
  Block* arg_owner() const { return arg_owner_; }
  /// Position among the defining op's results or the block's arguments.
  uint32_t index() const { return index_; }

  /// Frees the value unless an arena owns its memory (a block argument a
  /// reader or clone made).
  void operator delete(Value* v, std::destroying_delete_t);

 private:
  friend class Operation;
  friend class Block;
  static const std::string& empty_hint();
  Type type_;
  const std::string* hint_;  ///< interned, or null
  Operation* def_ = nullptr;
  Block* arg_owner_ = nullptr;
  uint32_t index_ = 0;
  bool in_arena_ = false;
};

/// A branch target and the values passed to its block arguments.
struct Successor {
  Block* block = nullptr;
  std::vector<Value*> args;
};

/// An op's operands: three inline, more on the heap.
using OperandList = absl::InlinedVector<Value*, 3>;

/// One operation `dialect.name`. The name is interned: compare pointers or views.
class Operation {
 public:
  /// Creates a detached operation; `result_types` fixes its results for good.
  static std::unique_ptr<Operation> create(std::string_view name, absl::Span<Value* const> operands,
                                           absl::Span<const Type> result_types, AttrDict attributes = {},
                                           std::optional<Location> loc = std::nullopt);
  /// As above, with a name `intern` returned: readers that intern each name
  /// once skip the look-up per op.
  static std::unique_ptr<Operation> create(const std::string* interned_name, absl::Span<Value* const> operands,
                                           absl::Span<const Type> result_types, AttrDict attributes = {},
                                           std::optional<Location> loc = std::nullopt);
  /// As above, placed in `arena` (null: alone on the heap). The op must be
  /// appended to a block of a function that keeps `arena` alive (see
  /// Function::arena); Block::insert keeps a foreign arena alive for it.
  static std::unique_ptr<Operation> create(Arena* arena, const std::string* interned_name,
                                           absl::Span<Value* const> operands, absl::Span<const Type> result_types,
                                           AttrDict attributes = {}, std::optional<Location> loc = std::nullopt);

  const std::string& name() const { return *name_; }
  std::string_view dialect() const;  ///< the part before the first '.'
  void set_name(std::string_view n) { name_ = intern(n); }

  OperandList& operands() { return operands_; }
  const OperandList& operands() const { return operands_; }
  Value* operand(size_t i) const { return operands_.at(i); }
  size_t num_operands() const { return operands_.size(); }

  size_t num_results() const { return num_results_; }
  Value* result(size_t i = 0) { return &results().at(i); }
  const Value* result(size_t i = 0) const { return &results().at(i); }
  /// Fixed at creation: a view of the results stored after the op.
  absl::Span<Value> results() { return {reinterpret_cast<Value*>(this + 1), num_results_}; }
  absl::Span<const Value> results() const { return {reinterpret_cast<const Value*>(this + 1), num_results_}; }

  std::vector<Successor>& successors() { return successors_; }
  const std::vector<Successor>& successors() const { return successors_; }

  AttrDict& attributes() { return attributes_; }
  const AttrDict& attributes() const { return attributes_; }
  const Attribute* attr(std::string_view key) const { return attributes_.get(key); }

  std::vector<std::unique_ptr<Region>>& regions() { return regions_; }
  const std::vector<std::unique_ptr<Region>>& regions() const { return regions_; }
  /// Appends an empty region owned by this op.
  Region& add_region();

  const std::optional<Location>& loc() const { return loc_; }
  void set_loc(std::optional<Location> l) { loc_ = l; }

  Block* parent() const { return parent_; }
  /// The function the op is nested in, or null while detached.
  Function* parent_function() const;
  /// The arena the op lives in, or null when it was allocated alone.
  Arena* arena() const { return arena_; }

  ~Operation();
  /// Destroys the op and frees it unless its arena owns the memory.
  void operator delete(Operation* op, std::destroying_delete_t);

 private:
  friend class Block;
  Operation(const std::string* name, Arena* arena, uint32_t num_results)
      : name_(name), arena_(arena), num_results_(num_results) {}
  const std::string* name_ = nullptr;
  Block* parent_ = nullptr;
  Arena* arena_ = nullptr;
  uint32_t num_results_ = 0;
  OperandList operands_;
  std::vector<Successor> successors_;
  AttrDict attributes_;
  std::vector<std::unique_ptr<Region>> regions_;
  std::optional<Location> loc_;
  // The results follow: num_results_ Values.
};
static_assert(alignof(Operation) >= alignof(Value));

class Block {
 public:
  explicit Block(std::string label = "") : label_(std::move(label)) {}
  Block(const Block&) = delete;
  ~Block();
  /// Destroys the block and frees it unless its arena owns the memory.
  void operator delete(Block* b, std::destroying_delete_t);

  const std::string& label() const { return label_; }
  void set_label(std::string l) { label_ = std::move(l); }

  Value* add_argument(Type type, std::string_view hint = "");
  /// As above, with a hint `intern` returned (or null).
  Value* add_interned_argument(Type type, const std::string* hint);
  size_t num_arguments() const { return args_.size(); }
  /// Makes room for `n` arguments in all (a reader knows how many come).
  void reserve_arguments(size_t n) { args_.reserve(n); }
  Value* argument(size_t i) const { return args_.at(i).get(); }
  const std::vector<std::unique_ptr<Value>>& arguments() const { return args_; }
  /// Removes argument i; the caller has already rewritten its uses.
  void erase_argument(size_t i);

  std::vector<std::unique_ptr<Operation>>& operations() { return ops_; }
  const std::vector<std::unique_ptr<Operation>>& operations() const { return ops_; }
  bool empty() const { return ops_.empty(); }
  /// The last operation, or null for an empty block.
  Operation* terminator() const { return ops_.empty() ? nullptr : ops_.back().get(); }

  Operation* append(std::unique_ptr<Operation> op);
  Operation* insert(size_t pos, std::unique_ptr<Operation> op);
  /// Detaches and returns the op at `pos`.
  std::unique_ptr<Operation> remove(size_t pos);

  Region* parent() const { return parent_; }
  /// The arena the block and its arguments live in (Region::add_block with
  /// one), or null.
  Arena* arena() const { return arena_; }

 private:
  friend class Region;
  std::string label_;
  Arena* arena_ = nullptr;
  std::vector<std::unique_ptr<Value>> args_;
  std::vector<std::unique_ptr<Operation>> ops_;
  Region* parent_ = nullptr;
};

class Region {
 public:
  Region() = default;
  Region(const Region&) = delete;

  std::vector<std::unique_ptr<Block>>& blocks() { return blocks_; }
  const std::vector<std::unique_ptr<Block>>& blocks() const { return blocks_; }
  bool empty() const { return blocks_.empty(); }
  Block* entry() const { return blocks_.empty() ? nullptr : blocks_.front().get(); }
  Block* add_block(std::string label = "");
  /// As above, the block and the arguments it is given placed in `arena`,
  /// which the function the region is in must keep alive (Function::arena).
  Block* add_block(Arena* arena, std::string label);
  std::unique_ptr<Block> remove_block(size_t pos);

  /// The op owning this region, or null for a function body.
  Operation* parent_op() const { return parent_op_; }
  /// The function owning this region (directly or through ops).
  Function* parent_function() const;

 private:
  friend class Operation;
  friend class Function;
  std::vector<std::unique_ptr<Block>> blocks_;
  Operation* parent_op_ = nullptr;
  Function* function_ = nullptr;
};

enum class Visibility : uint8_t { Public, Private, Extern };

/// A parameter's declared type and attribute dict; its SSA value is the
/// matching argument of the body's entry block.
struct Param {
  Type type;
  AttrDict attrs;
  std::string name;  ///< the hint for a declaration (no body)
};

class Function {
 public:
  Function(std::string name, std::vector<Param> params, std::vector<Type> results);
  Function(const Function&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  Visibility visibility() const { return visibility_; }
  void set_visibility(Visibility v) { visibility_ = v; }

  std::vector<Param>& params() { return params_; }
  const std::vector<Param>& params() const { return params_; }
  std::vector<Type>& results() { return results_; }
  const std::vector<Type>& results() const { return results_; }

  AttrDict& attributes() { return attributes_; }
  const AttrDict& attributes() const { return attributes_; }
  const std::optional<Location>& loc() const { return loc_; }
  void set_loc(std::optional<Location> l) { loc_ = l; }

  /// True while the function has no body.
  bool is_declaration() const { return body_.empty(); }
  Region& body() { return body_; }
  const Region& body() const { return body_; }
  /// Adds the entry block with one argument per parameter and returns it.
  Block* create_entry_block(std::string label = "entry");

  /// The arena ops of this function were made in by a reader or clone (null:
  /// none), kept alive as long as the function.
  Arena* arena() const { return arena_.get(); }
  void set_arena(std::shared_ptr<Arena> a) { arena_ = std::move(a); }
  /// Keeps `a` alive as long as the function: an op made in another module's
  /// arena was moved into it.
  void keep_alive(std::shared_ptr<Arena> a);

 private:
  // Declared first, destroyed last: the body's ops may live in them.
  std::shared_ptr<Arena> arena_;
  std::vector<std::shared_ptr<Arena>> more_arenas_;
  std::string name_;
  Visibility visibility_ = Visibility::Public;
  std::vector<Param> params_;
  std::vector<Type> results_;
  AttrDict attributes_;
  std::optional<Location> loc_;
  Region body_;
};

struct Global {
  std::string name;
  Type type;
  Visibility visibility = Visibility::Public;
  bool is_mutable = false;
  std::optional<Attribute> initializer;
};

class Module {
 public:
  explicit Module(std::string name = "main") : name_(std::move(name)) { dialects_["core"] = 1; }
  Module(const Module&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }

  /// Dialect name to version; ordered, as the printer writes them.
  std::map<std::string, int64_t>& dialects() { return dialects_; }
  const std::map<std::string, int64_t>& dialects() const { return dialects_; }
  AttrDict& attributes() { return attributes_; }
  const AttrDict& attributes() const { return attributes_; }

  /// Globals ordered by name.
  std::map<std::string, Global>& globals() { return globals_; }
  const std::map<std::string, Global>& globals() const { return globals_; }

  /// Functions in insertion order.
  std::vector<std::unique_ptr<Function>>& functions() { return functions_; }
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  Function* add_function(std::unique_ptr<Function> f);
  Function* function(std::string_view name) const;

 private:
  std::string name_;
  std::map<std::string, int64_t> dialects_;
  AttrDict attributes_;
  std::map<std::string, Global> globals_;
  std::vector<std::unique_ptr<Function>> functions_;
};

/// Rewrites every use of `from` inside `region` (nested regions too) to `to`.
void replace_all_uses(Region& region, Value* from, Value* to);

/// Calls `fn(op)` for every op under `region`, outer op before its nested ones.
template <class Fn>
void walk(Region& region, Fn&& fn) {
  for (auto& b : region.blocks())
    for (size_t i = 0; i < b->operations().size(); ++i) {
      Operation* op = b->operations()[i].get();
      fn(*op);
      for (auto& r : op->regions()) walk(*r, fn);
    }
}
template <class Fn>
void walk(const Region& region, Fn&& fn) {
  for (auto& b : region.blocks())
    for (auto& op : b->operations()) {
      fn(static_cast<const Operation&>(*op));
      for (auto& r : op->regions()) walk(static_cast<const Region&>(*r), fn);
    }
}

/// A deep copy of `m` (values remapped).
std::unique_ptr<Module> clone(const Module& m);

}  // namespace ppy::ir
