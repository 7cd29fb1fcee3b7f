#pragma once
/// What a source-writing backend needs to know of a function's values: which
/// are written where they are read (inlined) and which get a variable, and the
/// variables' names (the source names where the IR keeps them as hints).

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ppy/ir/ir.h"
#include "ppy/source/names.h"
#include "ppy/source/structure.h"

namespace ppy::backends::source {

/// What evaluating an op may do, for deciding what it may be moved past.
struct Effects {
  bool reads = false;   ///< reads memory (a slot, a list element)
  bool writes = false;  ///< writes memory or output, or calls something that may
  bool raises = false;  ///< may end the program with a Python exception

  bool any() const { return reads || writes || raises; }
  Effects& operator|=(const Effects& o) {
    reads |= o.reads;
    writes |= o.writes;
    raises |= o.raises;
    return *this;
  }
  /// Whether evaluating one later than the other changes nothing observable.
  bool commutes_with(const Effects& o) const {
    if (writes && o.any()) return false;
    if (o.writes && any()) return false;
    return !(raises && o.raises);
  }
};

/// The effects of `op` by the conventions of docs/runtime.md (a call takes its
/// callee's `ppy.effects` when the module declares them).
Effects effects_of(const ir::Operation& op, const ir::Module* module = nullptr);

/// Whether `v` is an alloca'd slot used only as the address of loads and
/// stores: a local variable in source.
bool is_slot(const ir::Value* v);

/// Whether a module variable (a mutable global) of type `t` is a variable of
/// the written source: a scalar, a list, a str or another handle, or a tuple of
/// those (a struct in C, a tuple in Python).
bool global_value_type(ir::Type t);

struct ValueOptions {
  /// Whether an op with one result may be written inside another expression at
  /// all (Python writes overflow-checked arithmetic as statements).
  std::function<bool(const ir::Operation&)> inlinable;
  /// Whether the value `def` makes may be written inside the op `user` (null:
  /// always): Python maps a generated line to one source line, so a call an
  /// exception may come through stays a statement of its own line (issue 34).
  std::function<bool(const ir::Operation& def, const ir::Operation& user)> inlinable_into;
  /// C leaves the order of an expression's operands unspecified: at most one
  /// operand with effects may be inlined. Python evaluates left to right: any
  /// number, in the order they were computed.
  bool one_effectful_operand = false;
  /// Names a variable may not take (the language's keywords, the runtime's).
  std::set<std::string, std::less<>> reserved;
  /// Whether a branch argument may share the variable of the block argument
  /// it is passed to (`n = n // 2` rather than `n_3 = n_2 // 2` and a copy
  /// back). Only for a language whose statement assigning a result reads no
  /// operand after the assignment (Python; C's floor division does).
  bool coalesce_copies = false;
};

class FunctionValues {
 public:
  FunctionValues(const ir::Function& f, const ir::Module* module, ValueOptions options);

  /// Written where it is read, not held in a variable.
  bool inlined(const ir::Value* v) const { return inlined_.count(v) != 0; }
  /// How many times `v` is read (operands and branch arguments).
  int uses(const ir::Value* v) const {
    auto it = uses_.find(v);
    return it == uses_.end() ? 0 : it->second;
  }
  /// Whether anything reads `v`: a use other than passing it to a block
  /// argument nothing reads (itself passed on only to such arguments). A
  /// backend that skips the moves into unread block arguments writes a value
  /// that is not live for its effects alone (a call's, a guard's), never into
  /// a variable.
  [[nodiscard]] bool live(const ir::Value* v) const { return uses(v) > 0 && !unread_.count(v); }
  /// The variable of a parameter, block argument, slot or materialized result.
  const std::string& name(const ir::Value* v) const;
  /// Whether `op` is written as a statement of its own: not inlined, not a
  /// slot's declaration, and not an unused result without effects.
  bool is_statement(const ir::Operation& op) const;
  /// Every variable the function needs, in first-seen order (C declares them).
  const std::vector<const ir::Value*>& variables() const { return variables_; }
  /// The block arguments `edge` assigns whose values are not already there.
  std::vector<std::pair<const ir::Value*, const ir::Value*>> moves(const ir::Successor& edge) const;
  /// The block-argument and slot variables an expression for `v` reads.
  void variables_read(const ir::Value* v, std::set<const ir::Value*>& out) const;

 private:
  void count_uses(const ir::Function& f);
  /// The values only passed to block arguments nothing reads (live()).
  void find_unread(const ir::Function& f);
  void decide_inlining(const ir::Block& b);
  void coalesce_copies(const ir::Function& f);
  void assign_names(const ir::Function& f);
  const ir::Value* leader(const ir::Value* v) const {
    auto it = leader_.find(v);
    return it == leader_.end() ? v : it->second;
  }
  std::string unique(std::string base);

  const ir::Module* module_;
  ValueOptions options_;
  std::unordered_map<const ir::Value*, int> uses_;
  std::set<const ir::Value*> unread_;
  std::unordered_map<const ir::Value*, const ir::Operation*> user_;  ///< the only user
  std::set<const ir::Value*> inlined_;
  std::unordered_map<const ir::Operation*, Effects> tree_effects_;
  std::unordered_map<const ir::Value*, std::string> names_;
  std::unordered_map<const ir::Value*, const ir::Value*> same_var_;  ///< slot -> param
  std::unordered_map<const ir::Value*, const ir::Value*> leader_;    ///< value -> the one whose variable it shares
  std::set<std::string, std::less<>> taken_;
  std::vector<const ir::Value*> variables_;
};

/// The symbol of the global whose address `v` is (`core.const @g : ptr<T>`),
/// or null: how a source backend finds the variable a load or store names.
const std::string* global_symbol(const ir::Value* v);

// The structurizer and the name helpers are the SDK's (ppy/source/, PpySdk::source),
// offered to every source-emitting backend; the c and python backends spell them
// source::X.
using ppy::source::identifier;
using ppy::source::Node;
using ppy::source::reachable_blocks;
using ppy::source::Seq;
using ppy::source::structure;

}  // namespace ppy::backends::source
