#include "ppy/pipeline/passes.h"

#include "ppy/util/str_cat.h"

namespace ppy::pipeline {

namespace {

std::unique_ptr<ir::Pass> create_default_inline_pass() { return create_inline_pass(); }

/// Every shared pass, in pipeline order. A pass is named once, by its own
/// `name()`: the list of names and the lookup by name both ask the pass.
constexpr std::unique_ptr<ir::Pass> (*kSharedPasses[])() = {
    create_canonicalize_pass, create_mem2reg_pass, create_simplify_cfg_pass, create_cse_pass,
    create_dce_pass,          create_default_inline_pass, create_int_range_pass,
};

}  // namespace

std::vector<std::string> shared_pass_names() {
  std::vector<std::string> names;
  for (auto create : kSharedPasses) names.emplace_back(create()->name());
  return names;
}

absl::StatusOr<std::unique_ptr<ir::Pass>> create_pass(std::string_view name) {
  for (auto create : kSharedPasses)
    if (auto pass = create(); pass->name() == name) return pass;
  std::string known;
  for (auto& n : shared_pass_names()) ppy::str_append(known, known.empty() ? "" : ", ", n);
  return absl::NotFoundError(ppy::str_cat("no shared pass is called '", name, "'; the passes are ", known));
}

}  // namespace ppy::pipeline
