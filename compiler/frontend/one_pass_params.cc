#include "one_pass_params.h"

#include "ppy/util/str_cat.h"

namespace ppy::frontend {

namespace {

/// How often `name` may be read: 0, 1, or 2 for "more than once".
struct Reads {
  const std::string& name;
  int count = 0;

  void expr(const Expr* e, bool repeated) {
    if (!e) return;
    if (e->kind == ExprKind::Name && e->str == name) count += repeated ? 2 : 1;
    bool inner = repeated || e->kind == ExprKind::Lambda;
    for (auto& k : e->kids) expr(k.get(), inner);
  }

  void stmts(const std::vector<StmtPtr>& body, bool repeated) {
    for (auto& s : body) stmt(*s, repeated);
  }

  void stmt(const Stmt& s, bool repeated) {
    if (s.kind == StmtKind::Def || s.kind == StmtKind::Class) {
      if (s.def) stmts(s.def->body, true);  // called any number of times
      return;
    }
    for (auto& t : s.targets) expr(t.get(), repeated);
    // A for loop's iterable is evaluated once; a while test on each pass.
    expr(s.value.get(), repeated || s.kind == StmtKind::While);
    expr(s.annotation.get(), repeated);
    bool loop = s.kind == StmtKind::For || s.kind == StmtKind::While;
    for_each_suite(s, [&](const std::vector<StmtPtr>& b) { stmts(b, repeated || loop); });
  }
};

bool annotated_iterable(const Expr* ann) {
  if (!ann || ann->kind != ExprKind::Subscript || ann->kids.empty()) return false;
  const Expr& base = *ann->kids[0];
  if (base.kind == ExprKind::Name) return base.str == "Iterable";
  return base.kind == ExprKind::Attribute && base.str == "Iterable";  // typing.Iterable, collections.abc.Iterable
}

}  // namespace

void refuse_iterables_walked_twice(const FuncDef& def, const std::function<void(Pos, std::string)>& refuse) {
  for (auto& p : def.params) {
    if (!annotated_iterable(p.annotation.get())) continue;
    Reads reads{p.name};
    reads.stmts(def.body, false);
    if (reads.count > 1)
      refuse(p.pos, str_cat("parameter '", p.name, "' of ", def.name,
                            "() is an Iterable walked more than once, which is outside the ppy subset (ppy passes an "
                            "Iterable as a one-pass iterator, where python3 would walk a list again): annotate it "
                            "list[...]"));
  }
}

}  // namespace ppy::frontend
