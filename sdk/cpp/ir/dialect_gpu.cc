// The `gpu` dialect (v1): thread geometry, barriers, device memory, launches.
#include "ppy/ir/dialect.h"

namespace ppy::ir {
namespace {

OpSpec gpu_op(std::string name, std::optional<int> operands, std::optional<int> results) {
  OpSpec s;
  s.name = "gpu." + name;
  s.operands = operands;
  s.results = results;
  return s;
}

}  // namespace

Dialect gpu_dialect() {
  Dialect d{"gpu", 1};
  for (const char* n : {"thread_id", "block_id", "block_dim", "grid_dim"}) {
    OpSpec s = gpu_op(n, 0, 1);
    s.pure = true;
    s.variant_attribute = "dim";
    s.variants = {"x", "y", "z"};
    s.required_attributes = {"dim"};
    d.ops.push_back(std::move(s));
  }
  d.ops.push_back(gpu_op("barrier", 0, 0));
  d.ops.push_back(gpu_op("subgroup_barrier", 0, 0));
  for (const char* n : {"shared_alloc", "private_alloc"}) {
    OpSpec s = gpu_op(n, 0, 1);
    s.required_attributes = {"count"};
    d.ops.push_back(std::move(s));
  }
  d.ops.push_back(gpu_op("device_alloc", 1, 1));
  OpSpec shfl = gpu_op("subgroup_shuffle", 2, 1);
  shfl.variant_attribute = "mode";
  shfl.variants = {"idx", "up", "down", "xor"};
  shfl.required_attributes = {"mode"};
  d.ops.push_back(std::move(shfl));
  OpSpec launch = gpu_op("launch", std::nullopt, 0);
  launch.required_attributes = {"callee"};
  d.ops.push_back(std::move(launch));
  return d;
}

}  // namespace ppy::ir
