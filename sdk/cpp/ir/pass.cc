#include "ppy/ir/pass.h"

#include "ppy/ir/verifier.h"
#include "ppy/util/error.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {

namespace {

constexpr std::string_view kStageNames[] = {"after-ir-generation", "after-canonicalization",
                                            "before-optimization", "after-optimization",
                                            "before-backend",      "backend"};

/// The contract's code for a pass of that owner that broke the IR.
std::string_view broken_ir_code(PassOwner owner) {
  switch (owner) {
    case PassOwner::Plugin: return "E1902";
    case PassOwner::Backend: return "E1904";
    case PassOwner::Shared: break;
  }
  return "E1901";
}

std::string_view owner_word(PassOwner owner) {
  switch (owner) {
    case PassOwner::Plugin: return "plugin pass";
    case PassOwner::Backend: return "backend pass";
    case PassOwner::Shared: break;
  }
  return "pass";
}

/// The first diagnostic, and how many more there are.
std::string first_problem(const std::vector<Diagnostic>& diags) {
  std::string out = diags.front().str();
  if (diags.size() > 1) ppy::str_append(out, " (and ", diags.size() - 1, " more)");
  return out;
}

}  // namespace

std::string_view stage_name(Stage s) { return kStageNames[static_cast<int>(s)]; }

std::optional<Stage> parse_stage(std::string_view name) {
  for (Stage s : kAllStages)
    if (stage_name(s) == name) return s;
  return std::nullopt;
}

absl::StatusOr<bool> FunctionPass::run_on_module(Module& m, const PassContext& ctx) {
  bool changed = false;
  for (size_t i = 0; i < m.functions().size(); ++i) {
    Function& f = *m.functions()[i];
    if (f.is_declaration()) continue;
    PPY_ASSIGN_OR_RETURN(bool r, run_on_function(f, ctx));
    changed |= r;
  }
  return changed;
}

absl::Status PassManager::add(Stage stage, std::unique_ptr<Pass> pass, PassOwner owner,
                              std::string_view owner_name) {
  if (!pass) return absl::InvalidArgumentError("PassManager::add was given no pass");
  std::string who(owner_name.empty() ? std::string_view("(unnamed)") : owner_name);
  if (owner == PassOwner::Backend && stage != Stage::Backend)
    return ppy::coded_error(
        "E1802", ppy::str_cat("backend '", who, "' registers a pass at the '", stage_name(stage),
                              "' stage: its pass '", pass->name(),
                              "' would shape the canonical IR every backend receives. A backend's "
                              "passes run at the 'backend' stage and no other; "
                              "`BackendPassRegistrar.add(factory)` is how one is hung there"));
  if (owner == PassOwner::Plugin && stage == Stage::Backend)
    return ppy::coded_error(
        "E1902", ppy::str_cat("plugin '", who, "' registers pass '", pass->name(),
                              "' at the 'backend' stage, which belongs to the selected backend; a "
                              "plugin's passes run from 'after-ir-generation' to 'before-backend'"));
  if (owner == PassOwner::Shared && stage == Stage::Backend)
    return ppy::coded_error(
        "E1901", ppy::str_cat("shared pass '", pass->name(),
                              "' is registered at the 'backend' stage, which belongs to the "
                              "selected backend; the shared pipeline ends at 'before-backend'"));
  if (owner != PassOwner::Shared) has_extension_pass_ = true;
  passes_.push_back(Entry{stage, std::move(pass), owner, std::string(owner_name)});
  return absl::OkStatus();
}

std::vector<const PassManager::Entry*> PassManager::ordered() const {
  std::vector<const Entry*> out;
  out.reserve(passes_.size());
  for (Stage s : kAllStages)
    for (const Entry& e : passes_)
      if (e.stage == s) out.push_back(&e);
  return out;
}

std::vector<std::pair<Stage, std::string>> PassManager::schedule() const {
  std::vector<std::pair<Stage, std::string>> out;
  for (const Entry* e : ordered()) out.emplace_back(e->stage, std::string(e->pass->name()));
  return out;
}

absl::Status PassManager::run(Module& m, Stage from, Stage to) {
  const DialectRegistry& reg = ctx_.registry ? *ctx_.registry : DialectRegistry::builtin();
  if (std::vector<Diagnostic> d = verify(m, reg); !d.empty())
    return ppy::coded_error("E1901", ppy::str_cat("the IR handed to the passes is invalid: ",
                                                  first_problem(d)));
  const bool each = verify_each();
  std::vector<const Entry*> ran;
  for (Stage s : kAllStages) {
    if (s < from || s > to) continue;
    for (const Entry* e : ordered()) {
      if (e->stage != s) continue;
      PPY_RETURN_IF_ERROR(e->pass->run_on_module(m, ctx_).status());
      ran.push_back(e);
      if (!each) continue;
      if (std::vector<Diagnostic> d = verify(m, reg); !d.empty())
        return ppy::coded_error(broken_ir_code(e->owner),
                                ppy::str_cat(owner_word(e->owner), " '", e->pass->name(),
                                             "' left the IR invalid: ", first_problem(d)));
    }
    if (after_stage_) after_stage_(s, m);
  }
  if (each || ran.empty()) return absl::OkStatus();  // already verified after the last pass
  std::vector<Diagnostic> d = verify(m, reg);
  if (d.empty()) return absl::OkStatus();
  if (ran.size() == 1)
    return ppy::coded_error(broken_ir_code(ran[0]->owner),
                            ppy::str_cat(owner_word(ran[0]->owner), " '", ran[0]->pass->name(),
                                         "' left the IR invalid: ", first_problem(d)));
  std::string names;
  for (const Entry* e : ran) ppy::str_append(names, names.empty() ? "'" : ", '", e->pass->name(), "'");
  return ppy::coded_error("E1901", ppy::str_cat("the IR is invalid after passes ", names,
                                                " (verify after each pass to name the one): ",
                                                first_problem(d)));
}

}  // namespace ppy::ir
