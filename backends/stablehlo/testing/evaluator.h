#pragma once
/// A small evaluator of exactly the MLIR the stablehlo backend writes
/// (func.func/call/return and the generic form of the stablehlo ops it uses,
/// on 0-d tensors), so tests can run its output against python3. It is a test
/// oracle, not a StableHLO implementation: an op or a shape it does not know
/// is an error, as is anything StableHLO leaves undefined that the backend
/// should never produce (an integer division by zero or MIN / -1, a float to
/// int conversion out of range).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace ppy::stablehlo::testing {

/// A 0-d tensor's value: its element type (`i64`, `i32`, `i1`, `f64`, ...) and value.
struct Scalar {
  std::string type;
  int64_t i = 0;   ///< ints and i1
  double f = 0.0;  ///< floats

  static Scalar of_int(int64_t v, std::string type = "i64") { return {std::move(type), v, 0.0}; }
  static Scalar of_float(double v, std::string type = "f64") { return {std::move(type), 0, v}; }
  static Scalar of_bool(bool v) { return {"i1", v, 0.0}; }
  bool is_float() const { return !type.empty() && type[0] == 'f'; }
};

class Program {
 public:
  /// Parses the printed module; an unknown construct is an error naming the line.
  static absl::StatusOr<Program> parse(const std::string& text);
  /// Calls `function` with `args`; its results in order.
  absl::StatusOr<std::vector<Scalar>> call(const std::string& function, const std::vector<Scalar>& args) const;

  struct Op;
  struct Region {
    std::vector<std::string> args;
    std::vector<std::shared_ptr<Op>> ops;
  };
  struct Function {
    std::vector<std::string> params;
    std::vector<std::string> param_types;
    Region body;
  };

 private:
  std::map<std::string, Function> functions_;
};

}  // namespace ppy::stablehlo::testing
