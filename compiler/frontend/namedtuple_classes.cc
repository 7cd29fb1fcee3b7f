#include "namedtuple_classes.h"

#include "expr_build.h"
#include "ppy/util/str_cat.h"
#include "written_code.h"

namespace ppy::frontend {
namespace {

/// The method that marks a class written from a NamedTuple.
constexpr const char* kMarker = "_ppy_namedtuple";

bool namedtuple_base(const Expr& b) {
  if (b.kind == ExprKind::Name) return b.str == "NamedTuple";
  return b.kind == ExprKind::Attribute && b.str == "NamedTuple" && !b.kids.empty() && b.kids[0] &&
         b.kids[0]->kind == ExprKind::Name && b.kids[0]->str == "typing";
}

/// `T | None`: a `_replace` parameter whose None keeps the field.
ExprPtr or_none(const Expr& annotation, Pos p) {
  return build::binary("|", build::clone(annotation), build::node(ExprKind::NoneLit, p), p);
}

}  // namespace

void expand_namedtuple_classes(ModuleAst& ast, const std::string& file) {
  bool any = false;
  for (auto& s : ast.body) {
    if (!s || s->kind != StmtKind::Class || !s->def || s->targets.size() != 1 || !s->targets[0] ||
        !namedtuple_base(*s->targets[0]))
      continue;
    FuncDef& def = *s->def;
    std::vector<const Stmt*> fields;
    for (auto& b : def.body)
      if (b && b->kind == StmtKind::AnnAssign && b->targets.size() == 1 && b->targets[0] &&
          b->targets[0]->kind == ExprKind::Name && b->annotation)
        fields.push_back(b.get());
    std::string text = str_cat("@__ppy_dataclass(frozen=True, order=True)\nclass ", def.name, ":\n    def ", kMarker,
                               "(self) -> bool:\n        return True\n");
    if (!fields.empty()) {
      text += "    def _replace(self";
      for (const Stmt* f : fields) text += str_cat(", ", f->targets[0]->str, ": int | None = None");
      text += str_cat(") -> \"", def.name, "\":\n        return ", def.name, "(");
      for (size_t i = 0; i < fields.size(); ++i) {
        const std::string& n = fields[i]->targets[0]->str;
        text += str_cat(i ? ", " : "", "self.", n, " if ", n, " is None else ", n);
      }
      text += ")\n";
    }
    std::vector<StmtPtr> written = parse_written(text, file);
    if (written.empty() || !written[0]->def) continue;
    Stmt& w = *written[0];
    place_written(w, s->pos);
    if (!fields.empty()) {  // `_replace`'s parameters: each field's type or None
      FuncDef& replace = *w.def->body[1]->def;
      for (size_t i = 0; i < fields.size(); ++i)
        replace.params[i + 1].annotation = or_none(*fields[i]->annotation, s->pos);
    }
    s->targets.clear();
    def.decorators.insert(def.decorators.begin(), std::move(w.def->decorators[0]));
    for (auto& m : w.def->body) def.body.push_back(std::move(m));
    any = true;
  }
  if (!any) return;
  std::vector<StmtPtr> imports = parse_written("from dataclasses import dataclass as __ppy_dataclass\n", file);
  if (imports.empty()) return;
  size_t at = 0;  // after the module's docstring
  if (!ast.body.empty() && ast.body[0]->kind == StmtKind::Expr && ast.body[0]->value &&
      ast.body[0]->value->kind == ExprKind::Str)
    at = 1;
  ast.body.insert(ast.body.begin() + static_cast<std::ptrdiff_t>(at), std::move(imports[0]));
}

bool is_namedtuple_class(Ty t) { return is_class(t) && class_info(t)->methods.count(kMarker); }

bool namedtuple_item_as_field(Expr& e, Ty object) {
  // The object is checked again as the attribute's: a name or a field, never a call.
  if (!is_namedtuple_class(object) || e.kids.size() != 2 || !e.kids[0] || !e.kids[1] ||
      (e.kids[0]->kind != ExprKind::Name && e.kids[0]->kind != ExprKind::Attribute))
    return false;
  const Expr& k = *e.kids[1];
  int64_t i =
      k.kind == ExprKind::Int ? k.ival
      : k.kind == ExprKind::Unary && k.str == "-" && !k.kids.empty() && k.kids[0] && k.kids[0]->kind == ExprKind::Int
          ? -k.kids[0]->ival
          : INT64_MAX;
  const auto& fields = class_info(object)->fields;
  int64_t n = static_cast<int64_t>(fields.size());
  if (i < 0 && i != INT64_MAX) i += n;
  if (i < 0 || i >= n) return false;
  e.kind = ExprKind::Attribute;
  e.str = fields[static_cast<size_t>(i)].first;
  e.kids.resize(1);
  return true;
}

bool namedtuple_as_display(Expr& v, Ty t) {
  if (!is_namedtuple_class(t) || v.kind != ExprKind::Name) return false;
  std::vector<ExprPtr> items;
  for (auto& f : class_info(t)->fields)
    items.push_back(build::with_kids(
        ExprKind::Attribute, v.pos,
        [&] {
          std::vector<ExprPtr> k;
          k.push_back(build::name(v.str, v.pos));
          return k;
        }(),
        f.first));
  v = std::move(*build::with_kids(ExprKind::Tuple, v.pos, std::move(items)));
  return true;
}

}  // namespace ppy::frontend
