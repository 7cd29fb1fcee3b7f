#pragma once
/// Dialects: a name, a version and op specs. The verifier reads specs and calls
/// each dialect's hooks; a new dialect is a registration, never a verifier edit.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ppy/ir/ir.h"

namespace ppy::ir {

/// Where a diagnostic points: the function, block label and op it is about.
struct Diagnostic {
  std::string message;
  std::string function;
  std::string block;
  std::string op;  ///< op name, or empty
  std::optional<Location> loc;
  /// `function @f, block ^b, op core.add at file:1:2: message`
  std::string str() const;
};

/// Collects diagnostics for one op or function; dialect hooks report through it.
class DiagSink {
 public:
  virtual ~DiagSink() = default;
  virtual void error(std::string message) = 0;
  /// An error about `op` rather than the op or function being checked: a
  /// function-level hook uses it so the diagnostic names the op's block and location.
  virtual void error_at(const Operation& op, std::string message) { error(std::move(message)); }
  /// The function of the module being verified that `name` names, or null: how
  /// hooks check callees (`core.call`, `gpu.launch`) without scanning the module.
  virtual const Function* function(std::string_view name) const { return nullptr; }
};

struct OpSpec {
  std::string name;  ///< full name, e.g. `core.add`
  bool terminator = false;
  bool pure = false;
  bool commutative = false;
  std::string variant_attribute;      ///< printed as a name suffix (`core.cmp.lt`)
  std::vector<std::string> variants;  ///< the values it may take
  std::string inline_attribute;       ///< printed right after the name (`core.const 0`)
  std::optional<int> operands;        ///< exact count, or any
  std::optional<int> results;
  std::optional<int> successors;
  int regions = 0;
  std::vector<std::string> required_attributes;
  /// The op's own rules (types, attribute values), after the generic checks pass.
  std::function<void(const Operation&, DiagSink&)> verify;
};

struct Dialect {
  std::string name;
  int64_t version = 1;
  std::vector<OpSpec> ops;
  /// Rules about a whole function (e.g. gpu kinds), run once per function.
  std::function<void(const Function&, const Module&, DiagSink&)> verify_function;
};

/// The dialects a module is verified, parsed and printed against.
class DialectRegistry {
 public:
  /// core, math and gpu, at version 1.
  static const DialectRegistry& builtin();

  DialectRegistry() = default;
  /// Copies rebuild the op index, which points into the copy's own dialects.
  DialectRegistry(const DialectRegistry& other) : dialects_(other.dialects_) { reindex(); }
  DialectRegistry& operator=(const DialectRegistry& other) {
    dialects_ = other.dialects_;
    reindex();
    return *this;
  }

  void add(Dialect d);
  const Dialect* dialect(std::string_view name) const;
  const OpSpec* op(std::string_view full_name) const;
  const std::map<std::string, Dialect, std::less<>>& dialects() const { return dialects_; }

 private:
  void reindex();
  std::map<std::string, Dialect, std::less<>> dialects_;
  std::unordered_map<std::string, const OpSpec*> ops_;
};

Dialect core_dialect();
Dialect math_dialect();
Dialect gpu_dialect();

}  // namespace ppy::ir
