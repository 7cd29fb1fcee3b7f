#include "ppy/pipeline/passes.h"

#include "ppy/util/str_cat.h"

namespace ppy::pipeline {

std::vector<std::string> shared_pass_names() {
  return {"canonicalize", "mem2reg", "simplify-cfg", "cse", "dce", "inline", "int-range"};
}

absl::StatusOr<std::unique_ptr<ir::Pass>> create_pass(std::string_view name) {
  if (name == "canonicalize") return create_canonicalize_pass();
  if (name == "mem2reg") return create_mem2reg_pass();
  if (name == "simplify-cfg") return create_simplify_cfg_pass();
  if (name == "cse") return create_cse_pass();
  if (name == "dce") return create_dce_pass();
  if (name == "inline") return create_inline_pass();
  if (name == "int-range") return create_int_range_pass();
  std::string known;
  for (auto& n : shared_pass_names()) ppy::str_append(known, known.empty() ? "" : ", ", n);
  return absl::NotFoundError(ppy::str_cat("no shared pass is called '", name, "'; the passes are ", known));
}

}  // namespace ppy::pipeline
