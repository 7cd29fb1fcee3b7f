// Suggestions for names the checker cannot resolve.
#include <algorithm>

#include "body_checker.h"
#include "checker_internal.h"
#include "ppy/util/str_cat.h"
#include "operand_errors.h"
#include "python_attributes.h"
#include "suggest.h"
#include "types.h"
#include "starred.h"

namespace ppy::frontend::checking {

std::string BodyChecker::name_suggestion(const std::string& name) const {
  std::vector<std::string> seen;
  for (const auto& [local, _] : types_) seen.push_back(local);
  for (const auto& [func, _] : m_.func_index) seen.push_back(func);
  for (const auto& [constant, _] : m_.consts) seen.push_back(constant);
  for (const auto& [bound, _] : m_.bindings) seen.push_back(bound);
  for (const std::string& var : m_.module_vars) seen.push_back(var);
  for (const std::string& builtin : python_builtin_names()) seen.push_back(builtin);
  return did_you_mean(name, seen);
}

void BodyChecker::refuse_member(Pos p, Ty base, const std::string& attr, std::string refusal) {
  if (std::string missing = missing_attribute(python_type_of(base), attr); !missing.empty())
    error(p, "E1030", std::move(missing));
  else
    error(p, "E1010", std::move(refusal));
}

void BodyChecker::undefined_member(Pos p, const std::string& path) {
  std::string first = path.substr(0, path.find('.'));
  std::string rest = path.size() > first.size() ? path.substr(first.size() + 1) : "";
  auto b = m_.bindings.find(first);
  std::string module = b == m_.bindings.end()                ? ""
                       : b->second.kind == Binding::Special ? b->second.name
                       : b->second.kind == Binding::Module  ? b->second.module
                                                            : "";
  if (!rest.empty() && rest.find('.') == std::string::npos && python_attributes("module " + module)) {
    if (std::string missing = missing_attribute("module " + module, rest); !missing.empty())
      error(p, "E1020", std::move(missing));
    else
      error(p, "E1010", str_cat("'", module, ".", rest, "' is outside the ppy subset"));
    return;
  }
  if (auto it = all_.find(module); it != all_.end() && !rest.empty() && rest.find('.') == std::string::npos) {
    std::vector<std::string> names;
    for (const auto& [f, _] : it->second.functions) names.push_back(f);
    for (const auto& [c, _] : it->second.constants) names.push_back(c);
    error(p, "E1020", str_cat("module '", module, "' has no attribute '", rest, "'", did_you_mean(rest, names)));
    return;
  }
  error(p, "E1020", str_cat("'", path, "' is not defined (or is outside the ppy subset)"));
}

void BodyChecker::refuse_keyword(const Keyword& k, const std::string& fn) {
  const std::vector<std::string>* names = python_keywords(fn);
  std::string shown = fn.substr(fn.find('.') + 1);  // python3 names list.sort "sort()"
  if (!names)
    error(k.pos, "E1032", str_cat(shown, "() takes no keyword arguments"));
  else if (std::find(names->begin(), names->end(), k.name) != names->end())
    error(k.pos, "E1010", str_cat(shown, "(", k.name, "=...) is outside the ppy subset"));
  else
    error(k.pos, "E1032",
          str_cat("'", k.name, "' is an invalid keyword argument for ", shown, "()", did_you_mean(k.name, *names)));
}

/// The names target `t` binds.
static void target_names(const Expr& t, std::set<std::string>& out) {
  if (t.kind == ExprKind::Name) out.insert(t.str);
  for (const auto& k : t.kids)
    if (t.kind == ExprKind::Tuple || t.kind == ExprKind::List || is_starred(t)) target_names(*k, out);
}

void BodyChecker::refuse_names(const Stmt& s) {
  for (const auto& t : s.targets) target_names(*t, refused_names_);
  if (s.def) refused_names_.insert(s.def->name);
  for (const ImportName& n : s.names) refused_names_.insert(n.asname.empty() ? n.name.substr(0, n.name.find('.')) : n.asname);
  for (const Handler& h : s.handlers)
    if (!h.name.empty()) refused_names_.insert(h.name);
  for_each_suite(s, [&](const std::vector<StmtPtr>& suite) {
    for (const auto& inner : suite) refuse_names(*inner);
  });
}

}  // namespace ppy::frontend::checking
