// The verifier: generic rules read from OpSpecs, then each dialect's hooks.
//
// Per function it makes two walks. The first numbers every block (all regions,
// flat, each region's blocks contiguous) and every value definition (block and
// position), links the parent pointers it can check, and collects branch edges;
// then it computes dominators per region (Cooper, Harvey & Kennedy). The second
// checks each op. Nothing on the success path builds a string or allocates per
// op: the tables are flat vectors and an open-addressing pointer map, kept per
// thread across functions and calls (see Scratch).
#include "ppy/ir/verifier.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ppy/util/str_cat.h"

namespace ppy::ir {
namespace {

/// Pointer-keyed open-addressing map (linear probing, null means empty).
/// clear() costs what the last use inserted, so one map, kept per thread,
/// serves every function verified without being re-allocated or re-zeroed.
template <class V>
class PtrMap {
 public:
  void clear() {
    for (uint32_t i : used_) slots_[i].key = nullptr;
    used_.clear();
  }

  /// Inserts unless present; returns the slot's value and whether it was new.
  /// `key` is never null.
  std::pair<V*, bool> insert(const void* key, const V& v) {
    if ((used_.size() + 1) * 2 > slots_.size()) grow();
    for (size_t i = slot_of(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.key) {
        s.key = key;
        s.val = v;
        used_.push_back(static_cast<uint32_t>(i));
        return {&s.val, true};
      }
      if (s.key == key) return {&s.val, false};
    }
  }

  const V* find(const void* key) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = slot_of(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s.val;
      if (!s.key) return nullptr;
    }
  }

 private:
  struct Slot {
    const void* key = nullptr;
    V val{};
  };

  size_t slot_of(const void* key) const {
    // Keys close in memory land close in the table, so the values an op uses
    // (mostly defined just before it, allocated just before it) are in cache;
    // each 64 KiB of address space gets its own hashed base, so far-apart
    // allocations do not pile onto the same stretch.
    uintptr_t p = reinterpret_cast<uintptr_t>(key);
    uint64_t base = ((p >> 16) * 0x9E3779B97F4A7C15ull) >> 32;
    return static_cast<size_t>((p >> 4) + base) & mask_;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    size_t cap = old.empty() ? 256 : old.size() * 2;
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
    std::vector<uint32_t> live = std::move(used_);
    used_.clear();
    used_.reserve(cap / 2);
    for (uint32_t i : live) insert(old[i].key, old[i].val);
  }

  std::vector<Slot> slots_;
  std::vector<uint32_t> used_;
  size_t mask_ = 0;
};

/// Where a value is defined: a block (flat index) and a position in it; block
/// arguments sit at 0 and the op at index i at i + 1.
struct DefInfo {
  uint32_t block = 0;
  uint32_t pos = 0;
};

constexpr uint32_t kNone = UINT32_MAX;

struct BlockInfo {
  const Block* block = nullptr;
  uint32_t region = 0;
  uint32_t idom = kNone;   ///< flat index; kNone while unreachable
  uint32_t po = 0;         ///< postorder number within the region
  uint32_t in = 0, out = 0;  ///< dominator-tree interval
};

struct RegionInfo {
  uint32_t first = 0, count = 0;     ///< its blocks in the flat table
  uint32_t parent_block = kNone;     ///< the block of the op owning it; kNone for a body
  uint32_t parent_pos = 0;           ///< that op's position
};

/// What an op name resolves to, cached per interned name.
struct OpKind {
  const OpSpec* spec = nullptr;
  const Dialect* dialect = nullptr;
  bool declared = false;  ///< the module lists the op's dialect
};

enum class Use { Ok, Undefined, NotEnclosing, NotDominating };

/// The verifier's tables. Kept per thread between calls: the pipeline verifies
/// after every pass, and fresh multi-megabyte tables cost more in page faults
/// than the checks themselves.
struct Scratch {
  std::vector<BlockInfo> blocks;
  std::vector<RegionInfo> regions;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  PtrMap<DefInfo> values;
  PtrMap<uint32_t> block_index;
  std::unordered_set<std::string_view> labels;
  PtrMap<OpKind> kinds;
  std::vector<uint32_t> succ_start, pred_start, succ, pred, fill, rpo, children_start, children;
  std::vector<uint8_t> visited;
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  bool busy = false;
};

const char* attr_kind(const Attribute& a) {
  switch (a.storage().index()) {
    case 0: return "a bool";
    case 1: return "an int";
    case 2: return "a float";
    case 3: return "a string";
    case 4: return "a symbol";
    case 5: return "a type";
    case 6: return "an array";
    default: return "a dict";
  }
}

std::string type_str(Type t) { return t ? t.str() : std::string("<no type>"); }

class Verifier final : public DiagSink {
 public:
  Verifier(const Module& m, const DialectRegistry& reg, Scratch& s) : m_(m), reg_(reg), s_(s) {}

  std::vector<Diagnostic> run() {
    kinds_.clear();  // what a name resolves to depends on the registry and module
    check_module();
    for (const auto& f : m_.functions()) check_function(*f);
    return std::move(diags_);
  }

  // DiagSink
  void error(std::string message) override {
    Diagnostic d;
    d.message = std::move(message);
    if (fn_) d.function = fn_->name();
    if (block_) d.block = block_->label();
    if (op_) {
      d.op = op_->name();
      d.loc = op_->loc();
    } else if (fn_ && !block_) {
      d.loc = fn_->loc();
    }
    diags_.push_back(std::move(d));
  }

  void error_at(const Operation& op, std::string message) override {
    const Block* saved_block = block_;
    const Operation* saved_op = op_;
    block_ = op.parent();
    op_ = &op;
    error(std::move(message));
    block_ = saved_block;
    op_ = saved_op;
  }

  const Function* function(std::string_view name) const override {
    auto it = symbols_.find(name);
    return it == symbols_.end() ? nullptr : it->second;
  }

 private:
  // ---- module ----

  void check_module() {
    for (const auto& [name, version] : m_.dialects()) {
      const Dialect* d = reg_.dialect(name);
      if (!d)
        error(str_cat("the module uses dialect '", name, "', which the registry does not have"));
      else if (version > d->version)
        error(str_cat("the module uses dialect '", name, "' at version ", version,
                      "; the registry has version ", d->version));
    }
    symbols_.reserve(m_.functions().size());
    for (const auto& f : m_.functions()) {
      if (!symbols_.emplace(f->name(), f.get()).second)
        error(str_cat("function @", f->name(), " is defined twice"));
      if (m_.globals().count(f->name()))
        error(str_cat("symbol @", f->name(), " names both a global and a function"));
    }
    for (const auto& [key, g] : m_.globals()) {
      if (g.name != key)
        error(str_cat("global @", g.name, " is filed under the name @", key));
      if (!g.type || g.type.is_void()) {
        error(str_cat("global @", g.name, " has no type"));
        continue;
      }
      if (g.initializer && !attribute_fits(*g.initializer, g.type))
        error(str_cat("global @", g.name, " : ", g.type.str(), " has an initializer of another type (",
                      attr_kind(*g.initializer), ")"));
      if (g.initializer && g.initializer->is<SymbolRef>()) {
        const std::string& s = g.initializer->as_symbol().name;
        if (!symbols_.count(s) && !m_.globals().count(s))
          error(str_cat("global @", g.name, " is initialized with @", s, ", which names nothing"));
      }
    }
  }

  // ---- functions ----

  void check_function(const Function& f) {
    fn_ = &f;
    block_ = nullptr;
    op_ = nullptr;
    for (size_t i = 0; i < f.params().size(); ++i)
      if (!f.params()[i].type || f.params()[i].type.is_void())
        error(str_cat("parameter #", i, " has no type"));
    for (size_t i = 0; i < f.results().size(); ++i)
      if (!f.results()[i] || f.results()[i].is_void())
        error(str_cat("result #", i, " has no type"));

    if (!f.is_declaration()) {
      number(f);
      check_entry(f);
      check_region(f.body());
    }
    block_ = nullptr;
    op_ = nullptr;
    for (const auto& [name, d] : reg_.dialects())
      if (d.verify_function) d.verify_function(f, m_, *this);
    fn_ = nullptr;
  }

  void check_entry(const Function& f) {
    const Block* entry = f.body().entry();
    block_ = entry;
    const auto& params = f.params();
    if (entry->num_arguments() != params.size()) {
      error(str_cat("the entry block takes ", entry->num_arguments(), " argument(s) but the function has ",
                    params.size(), " parameter(s)"));
    } else {
      for (size_t i = 0; i < params.size(); ++i) {
        Type a = entry->argument(i)->type();
        if (a != params[i].type)
          error(str_cat("entry block argument #", i, " is ", type_str(a), " but parameter #", i, " is ",
                        type_str(params[i].type)));
      }
    }
    block_ = nullptr;
  }

  // ---- first walk: numbering ----

  void number(const Function& f) {
    blocks_.clear();
    regions_.clear();
    edges_.clear();
    values_.clear();
    block_index_.clear();
    labels_.clear();
    number_region(f.body(), kNone, 0);
    compute_dominators();
  }

  void number_region(const Region& region, uint32_t parent_block, uint32_t parent_pos) {
    uint32_t r = static_cast<uint32_t>(regions_.size());
    uint32_t first = static_cast<uint32_t>(blocks_.size());
    regions_.push_back({first, static_cast<uint32_t>(region.blocks().size()), parent_block, parent_pos});
    for (const auto& b : region.blocks()) {
      uint32_t bi = static_cast<uint32_t>(blocks_.size());
      blocks_.push_back({b.get(), r});
      block_index_.insert(b.get(), bi);
      block_ = b.get();
      if (b->parent() != &region) error("the block's parent link does not name its region");
      if (!b->label().empty() && !labels_.insert(b->label()).second)
        error(str_cat("block ^", b->label(), " is defined twice"));
    }
    block_ = nullptr;
    for (uint32_t i = 0; i < region.blocks().size(); ++i) {
      const Block& b = *region.blocks()[i];
      uint32_t bi = first + i;
      for (size_t k = 0; k < b.arguments().size(); ++k) {
        const Value* v = b.arguments()[k].get();
        define(v, bi, 0);
        if (v->arg_owner() != &b || v->index() != k) {
          block_ = &b;
          error(str_cat("block argument #", k, " does not know its block"));
          block_ = nullptr;
        }
      }
      const auto& ops = b.operations();
      for (uint32_t k = 0; k < ops.size(); ++k) {
        const Operation& op = *ops[k];
        for (size_t j = 0; j < op.results().size(); ++j) define(&op.results()[j], bi, k + 1);
        for (const Successor& s : op.successors()) {
          const uint32_t* t = block_index_.find(s.block);
          if (t && blocks_[*t].region == r) edges_.emplace_back(bi, *t);
        }
        for (const auto& nested : op.regions()) number_region(*nested, bi, k + 1);
      }
    }
  }

  void define(const Value* v, uint32_t block, uint32_t pos) {
    if (!values_.insert(v, DefInfo{block, pos}).second) {
      // Only reachable by corrupting the tree (one Value object in two places).
      block_ = blocks_[block].block;
      error("a value is defined twice");
      block_ = nullptr;
    }
  }

  // ---- dominators ----

  void compute_dominators() {
    size_t n = blocks_.size();
    // Successor and predecessor lists, CSR over flat block indices.
    succ_start_.assign(n + 1, 0);
    pred_start_.assign(n + 1, 0);
    for (auto [a, b] : edges_) {
      ++succ_start_[a + 1];
      ++pred_start_[b + 1];
    }
    for (size_t i = 0; i < n; ++i) {
      succ_start_[i + 1] += succ_start_[i];
      pred_start_[i + 1] += pred_start_[i];
    }
    succ_.resize(edges_.size());
    pred_.resize(edges_.size());
    fill_.assign(succ_start_.begin(), succ_start_.end() - 1);
    for (auto [a, b] : edges_) succ_[fill_[a]++] = b;
    fill_.assign(pred_start_.begin(), pred_start_.end() - 1);
    for (auto [a, b] : edges_) pred_[fill_[b]++] = a;

    for (const RegionInfo& r : regions_) {
      if (r.count == 0) continue;
      if (r.count == 1) {  // the common case: nothing to compute
        BlockInfo& e = blocks_[r.first];
        e.idom = r.first;
        e.in = 0;
        e.out = 1;
        continue;
      }
      dominators(r);
    }
  }

  void dominators(const RegionInfo& r) {
    uint32_t entry = r.first;
    // Postorder by an iterative DFS from the entry.
    rpo_.clear();
    stack_.clear();
    for (uint32_t i = 0; i < r.count; ++i) {
      blocks_[r.first + i].idom = kNone;
      blocks_[r.first + i].po = kNone;
    }
    visited_.assign(r.count, 0);
    visited_[0] = 1;
    stack_.push_back({entry, succ_start_[entry]});
    while (!stack_.empty()) {
      auto& [b, next] = stack_.back();
      if (next < succ_start_[b + 1]) {
        uint32_t s = succ_[next++];
        if (!visited_[s - r.first]) {
          visited_[s - r.first] = 1;
          stack_.push_back({s, succ_start_[s]});
        }
      } else {
        blocks_[b].po = static_cast<uint32_t>(rpo_.size());
        rpo_.push_back(b);
        stack_.pop_back();
      }
    }
    std::reverse(rpo_.begin(), rpo_.end());

    auto intersect = [&](uint32_t a, uint32_t b) {
      while (a != b) {
        while (blocks_[a].po < blocks_[b].po) a = blocks_[a].idom;
        while (blocks_[b].po < blocks_[a].po) b = blocks_[b].idom;
      }
      return a;
    };
    blocks_[entry].idom = entry;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 1; i < rpo_.size(); ++i) {
        uint32_t b = rpo_[i];
        uint32_t best = kNone;
        for (uint32_t p = pred_start_[b]; p < pred_start_[b + 1]; ++p) {
          uint32_t q = pred_[p];
          if (blocks_[q].idom == kNone) continue;
          best = best == kNone ? q : intersect(q, best);
        }
        if (best != kNone && blocks_[b].idom != best) {
          blocks_[b].idom = best;
          changed = true;
        }
      }
    }

    // Dominator-tree intervals, so that a query is two comparisons.
    children_start_.assign(r.count + 1, 0);
    for (uint32_t b : rpo_)
      if (b != entry) ++children_start_[blocks_[b].idom - r.first + 1];
    for (uint32_t i = 0; i < r.count; ++i) children_start_[i + 1] += children_start_[i];
    children_.resize(rpo_.size());
    fill_.assign(children_start_.begin(), children_start_.end() - 1);
    for (uint32_t b : rpo_)
      if (b != entry) children_[fill_[blocks_[b].idom - r.first]++] = b;
    uint32_t clock = 0;
    stack_.clear();
    blocks_[entry].in = clock++;
    stack_.push_back({entry, children_start_[0]});
    while (!stack_.empty()) {
      auto& [b, next] = stack_.back();
      if (next < children_start_[b - r.first + 1]) {
        uint32_t c = children_[next++];
        blocks_[c].in = clock++;
        stack_.push_back({c, children_start_[c - r.first]});
      } else {
        blocks_[b].out = clock++;
        stack_.pop_back();
      }
    }
  }

  /// Whether block a dominates block b (same region). A use in an unreachable
  /// block is dominated by everything, as in LLVM; a def in one dominates nothing.
  bool dominates(uint32_t a, uint32_t b) const {
    if (a == b) return true;
    const BlockInfo& y = blocks_[b];
    if (y.idom == kNone) return true;
    const BlockInfo& x = blocks_[a];
    if (x.idom == kNone) return false;
    return x.in <= y.in && y.out <= x.out;
  }

  /// Is `v` visible at position `pos` of flat block `block`?
  Use check_use(const Value* v, uint32_t block, uint32_t pos) const {
    const DefInfo* d = values_.find(v);
    if (!d) return Use::Undefined;
    uint32_t def_region = blocks_[d->block].region;
    while (blocks_[block].region != def_region) {
      const RegionInfo& r = regions_[blocks_[block].region];
      if (r.parent_block == kNone) return Use::NotEnclosing;
      block = r.parent_block;
      pos = r.parent_pos;
    }
    if (block == d->block) return d->pos < pos ? Use::Ok : Use::NotDominating;
    return dominates(d->block, block) ? Use::Ok : Use::NotDominating;
  }

  /// Reports a bad use; false when the value cannot be looked at.
  bool report_use(Use u, const Value* v, std::string_view what) {
    switch (u) {
      case Use::Ok:
        return true;
      case Use::Undefined:
        error(str_cat(what, " is not defined in this function"));
        return false;
      case Use::NotEnclosing:
        error(str_cat(what, " (", describe(v), ") is defined in a region that does not enclose this use"));
        return true;
      case Use::NotDominating:
        error(str_cat(what, " (", describe(v), ") does not dominate this use"));
        return true;
    }
    return true;
  }

  /// `%hint in ^b`, for a value known to be live in this function.
  std::string describe(const Value* v) const {
    std::string out;
    if (!v->hint().empty())
      str_append(out, "%", v->hint());
    else if (v->def())
      str_append(out, "result #", v->index(), " of ", v->def()->name());
    else
      str_append(out, "argument #", v->index());
    const Block* b = blocks_[values_.find(v)->block].block;
    if (!b->label().empty()) str_append(out, " in ^", b->label());
    return out;
  }

  // ---- second walk: ops ----

  void check_region(const Region& region) {
    for (const auto& b : region.blocks()) {
      uint32_t bi = *block_index_.find(b.get());
      const auto& ops = b->operations();
      for (uint32_t k = 0; k < ops.size(); ++k) {
        block_ = b.get();
        op_ = ops[k].get();
        OpKind kind = check_op(*ops[k], bi, k + 1);
        if (kind.spec && kind.spec->terminator && k + 1 != ops.size())
          error(str_cat("the terminator ", ops[k]->name(), " is not the last op of block ^", b->label()));
        for (const auto& nested : ops[k]->regions()) check_region(*nested);
      }
      block_ = b.get();
      op_ = nullptr;
      for (size_t k = 0; k < b->arguments().size(); ++k) {
        Type t = b->arguments()[k]->type();
        if (!t || t.is_void()) error(str_cat("block argument #", k, " has no type"));
      }
      if (ops.empty()) {
        error(str_cat("block ^", b->label(), " is empty; it needs a terminator"));
      } else {
        OpKind last = kind_of(*ops.back());
        if (last.spec && !last.spec->terminator) {
          op_ = ops.back().get();
          error(str_cat("block ^", b->label(), " does not end with a terminator"));
        }
      }
      block_ = nullptr;
      op_ = nullptr;
    }
  }

  OpKind kind_of(const Operation& op) {
    const std::string* name = &op.name();  // interned: one pointer per name
    if (const OpKind* k = kinds_.find(name)) return *k;
    OpKind k;
    k.dialect = reg_.dialect(op.dialect());
    if (k.dialect) k.spec = reg_.op(op.name());
    k.declared = m_.dialects().count(std::string(op.dialect())) != 0;
    return *kinds_.insert(name, k).first;
  }

  OpKind check_op(const Operation& op, uint32_t bi, uint32_t pos) {
    OpKind kind = kind_of(op);
    bool ok = true;
    if (!kind.dialect) {
      error(str_cat("op ", op.name(), " belongs to dialect '", op.dialect(),
                    "', which the registry does not have"));
      ok = false;
    } else if (!kind.declared) {
      error(str_cat("op ", op.name(), " belongs to dialect '", op.dialect(),
                    "', which the module does not declare"));
    }
    if (kind.dialect && !kind.spec) {
      error(str_cat("unknown op ", op.name(), ": dialect '", op.dialect(), "' has no such op"));
      ok = false;
    }
    const OpSpec* spec = kind.spec;
    if (spec) ok &= check_shape(op, *spec);

    for (size_t i = 0; i < op.num_results(); ++i) {
      Type t = op.results()[i].type();
      if (!t || t.is_void()) {
        error(str_cat("result #", i, " has no type"));
        ok = false;
      } else if (op.results()[i].def() != &op || op.results()[i].index() != i) {
        error(str_cat("result #", i, " does not know its op"));
      }
    }
    for (size_t i = 0; i < op.num_operands(); ++i) {
      const Value* v = op.operands()[i];
      if (!v) {
        error(str_cat("operand #", i, " is null"));
        ok = false;
        continue;
      }
      Use u = check_use(v, bi, pos);
      if (u != Use::Ok) ok &= report_use(u, v, str_cat("operand #", i));
      else if (!v->type() || v->type().is_void()) ok = false;  // reported at its definition
    }
    if (!op.successors().empty()) ok &= check_successors(op, bi, pos, spec);
    if (op.parent() != block_) error("the op's parent link does not name its block");
    if (ok && spec && spec->verify) spec->verify(op, *this);
    return kind;
  }

  /// Arity, required attributes and the variant; false when the hook must not run.
  bool check_shape(const Operation& op, const OpSpec& spec) {
    bool ok = true;
    auto count = [&](std::optional<int> want, size_t got, const char* what) {
      if (want && static_cast<size_t>(*want) != got) {
        error(str_cat("expects ", *want, " ", what, ", got ", got));
        ok = false;
      }
    };
    count(spec.operands, op.num_operands(), "operand(s)");
    count(spec.results, op.num_results(), "result(s)");
    count(spec.successors, op.successors().size(), "successor(s)");
    count(spec.regions, op.regions().size(), "region(s)");
    for (const std::string& key : spec.required_attributes)
      if (!op.attr(key)) {
        error(str_cat("needs attribute '", key, "'"));
        ok = false;
      }
    if (!spec.variant_attribute.empty()) {
      if (const Attribute* a = op.attr(spec.variant_attribute)) {
        bool known = a->is<std::string>() &&
                     std::find(spec.variants.begin(), spec.variants.end(), a->as_string()) != spec.variants.end();
        if (!known) {
          std::string list;
          for (const std::string& v : spec.variants) str_append(list, list.empty() ? "" : ", ", v);
          if (a->is<std::string>())
            error(str_cat(spec.variant_attribute, " = '", a->as_string(), "' is not one of ", list));
          else
            error(str_cat(spec.variant_attribute, " is ", attr_kind(*a), ", not one of ", list));
          ok = false;
        }
      }
    }
    return ok;
  }

  bool check_successors(const Operation& op, uint32_t bi, uint32_t pos, const OpSpec* spec) {
    bool ok = true;
    if (spec && !spec->terminator) error("only a terminator may have successors");
    const Region* region = blocks_[bi].block->parent();
    for (size_t i = 0; i < op.successors().size(); ++i) {
      const Successor& s = op.successors()[i];
      const uint32_t* t = s.block ? block_index_.find(s.block) : nullptr;
      if (!t) {
        error(str_cat("successor #", i, s.block ? " is not a block of this function" : " has no block"));
        ok = false;
        continue;
      }
      const BlockInfo& target = blocks_[*t];
      const std::string& label = target.block->label();
      if (target.region != blocks_[bi].region) {
        error(str_cat("successor #", i, " ^", label, " is not a block of this region"));
        continue;
      }
      if (region && target.block == region->entry())
        error(str_cat("branch to the entry block ^", label, "; an entry block has no predecessors"));
      bool args_ok = true;
      for (size_t k = 0; k < s.args.size(); ++k) {
        const Value* v = s.args[k];
        if (!v) {
          error(str_cat("argument #", k, " to ^", label, " is null"));
          args_ok = false;
          continue;
        }
        Use u = check_use(v, bi, pos);
        if (u != Use::Ok && !report_use(u, v, str_cat("argument #", k, " to ^", label))) args_ok = false;
      }
      ok &= args_ok;
      const Block& tb = *target.block;
      if (s.args.size() != tb.num_arguments()) {
        error(str_cat("branch to ^", label, " passes ", s.args.size(), " argument(s) but ^", label, " takes ",
                      tb.num_arguments()));
        continue;
      }
      if (!args_ok) continue;
      for (size_t k = 0; k < s.args.size(); ++k) {
        Type have = s.args[k]->type(), want = tb.argument(k)->type();
        if (have != want)
          error(str_cat("branch to ^", label, " passes ", type_str(have), " as argument #", k, " but ^", label,
                        " takes ", type_str(want)));
      }
    }
    return ok;
  }

  const Module& m_;
  const DialectRegistry& reg_;
  Scratch& s_;
  std::vector<Diagnostic> diags_;
  std::unordered_map<std::string_view, const Function*> symbols_;

  const Function* fn_ = nullptr;
  const Block* block_ = nullptr;
  const Operation* op_ = nullptr;

  // Per-function tables, in the thread's Scratch.
  std::vector<BlockInfo>& blocks_ = s_.blocks;
  std::vector<RegionInfo>& regions_ = s_.regions;
  std::vector<std::pair<uint32_t, uint32_t>>& edges_ = s_.edges;
  PtrMap<DefInfo>& values_ = s_.values;
  PtrMap<uint32_t>& block_index_ = s_.block_index;
  std::unordered_set<std::string_view>& labels_ = s_.labels;
  PtrMap<OpKind>& kinds_ = s_.kinds;

  // Dominator scratch.
  std::vector<uint32_t>& succ_start_ = s_.succ_start;
  std::vector<uint32_t>& pred_start_ = s_.pred_start;
  std::vector<uint32_t>& succ_ = s_.succ;
  std::vector<uint32_t>& pred_ = s_.pred;
  std::vector<uint32_t>& fill_ = s_.fill;
  std::vector<uint32_t>& rpo_ = s_.rpo;
  std::vector<uint32_t>& children_start_ = s_.children_start;
  std::vector<uint32_t>& children_ = s_.children;
  std::vector<uint8_t>& visited_ = s_.visited;
  std::vector<std::pair<uint32_t, uint32_t>>& stack_ = s_.stack;
};

}  // namespace

bool attribute_fits(const Attribute& a, Type t) {
  if (!t) return false;
  if (a.is<bool>()) return t.is_bool();
  if (a.is<int64_t>()) return t.is_integer_like() || t.is_float();
  if (a.is<double>()) return t.is_float();
  if (t.kind() == TypeKind::Vector) {
    if (!a.is_array()) return false;
    const AttrArray& xs = a.as_array();
    if (static_cast<int64_t>(xs.size()) != t.vector_len()) return false;
    for (const Attribute& x : xs)
      if (!attribute_fits(x, t.elem())) return false;
    return true;
  }
  if (t.kind() == TypeKind::Tuple) {
    if (!a.is_array() || a.as_array().size() != t.num_elems()) return false;
    for (size_t i = 0; i < t.num_elems(); ++i)
      if (!attribute_fits(a.as_array()[i], t.elem(i))) return false;
    return true;
  }
  if (t.kind() == TypeKind::Struct) {
    const auto& fields = t.storage()->fields;
    if (a.is_array()) {
      if (a.as_array().size() != fields.size()) return false;
      for (size_t i = 0; i < fields.size(); ++i)
        if (!attribute_fits(a.as_array()[i], Type(fields[i].type))) return false;
      return true;
    }
    if (a.is_dict()) {
      if (a.as_dict().size() != fields.size()) return false;
      for (const StructField& f : fields) {
        const Attribute* x = a.as_dict().get(f.name);
        if (!x || !attribute_fits(*x, Type(f.type))) return false;
      }
      return true;
    }
    return false;
  }
  if (t.kind() == TypeKind::Buffer) {
    if (a.is<std::string>()) return true;
    if (!a.is_array()) return false;
    for (const Attribute& x : a.as_array())
      if (!attribute_fits(x, t.elem())) return false;
    return true;
  }
  if (t.is_scalar()) return false;
  // Strings, symbols (addresses) and types stand for pointers, futures and
  // dialect types, whose constants the dialect defines.
  return a.is<std::string>() || a.is<SymbolRef>() || a.is<Type>() || t.kind() == TypeKind::Dialect;
}

std::vector<Diagnostic> verify(const Module& m, const DialectRegistry& reg) {
  thread_local Scratch scratch;
  if (scratch.busy) {  // a hook verifying another module: use fresh tables
    Scratch local;
    return Verifier(m, reg, local).run();
  }
  struct Busy {
    Scratch& s;
    explicit Busy(Scratch& x) : s(x) { s.busy = true; }
    ~Busy() { s.busy = false; }
  } busy(scratch);
  return Verifier(m, reg, scratch).run();
}

absl::Status verify_status(const Module& m, const DialectRegistry& reg) {
  std::vector<Diagnostic> diags = verify(m, reg);
  if (diags.empty()) return absl::OkStatus();
  std::string msg;
  for (const Diagnostic& d : diags) str_append(msg, msg.empty() ? "" : "\n", d.str());
  return absl::FailedPreconditionError(msg);
}

}  // namespace ppy::ir
