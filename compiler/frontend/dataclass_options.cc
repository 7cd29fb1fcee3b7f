#include "dataclass_options.h"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "ppy/util/str_cat.h"
#include "written_code.h"

namespace ppy::frontend {

bool dataclass_flag(const Expr& deco, const std::string& name, bool dflt) {
  for (auto& k : deco.keywords)
    if (k.name == name && k.value && k.value->kind == ExprKind::Bool) return k.value->bval;
  return dflt;
}

const Expr* dataclass_call(const Stmt& s) {
  if (s.kind != StmtKind::Class || !s.def) return nullptr;
  for (auto& d : s.def->decorators) {
    if (!d || d->kind != ExprKind::Call || d->kids.empty() || !d->kids[0]) continue;
    const Expr& f = *d->kids[0];
    if (((f.kind == ExprKind::Name || f.kind == ExprKind::Attribute) && f.str == "dataclass") ||
        (f.kind == ExprKind::Name && f.str == "__ppy_dataclass"))  // a NamedTuple's (namedtuple_classes.h)
      return d.get();
  }
  return nullptr;
}

std::string fields_tuple(const std::string& x, const std::vector<std::string>& fields) {
  std::string out = "(";
  for (size_t i = 0; i < fields.size(); ++i) out += str_cat(i ? ", " : "", x, ".", fields[i]);
  return out + (fields.size() == 1 ? ",)" : ")");
}

void dataclass_options(ClassInfo& c, const Expr& deco,
                       const std::function<void(const char*, Pos, std::string)>& error) {
  if (deco.kids.size() > 1 && deco.kids[1]) {
    error("E1010", deco.kids[1]->pos, "positional arguments of @dataclass(...) are outside the ppy subset");
    return;
  }
  for (auto& k : deco.keywords) {
    bool literal = k.value && k.value->kind == ExprKind::Bool;
    bool known = k.name == "frozen" || k.name == "order" || k.name == "eq" || k.name == "init" || k.name == "repr";
    if (!known || !literal) {
      error("E1010", k.pos,
            str_cat("@dataclass(", k.name,
                    "=...) is outside the ppy subset (the subset takes frozen=, order=, and eq=, init=, repr= "
                    "left True, as bool literals)"));
      continue;
    }
    if (k.name != "frozen" && k.name != "order" && !k.value->bval)
      error("E1010", k.pos, str_cat("@dataclass(", k.name, "=False) is outside the ppy subset"));
  }
  c.frozen = dataclass_flag(deco, "frozen", false);
}

bool is_frozen_class(Ty cls) {
  for (Ty t = cls; is_class(t); t = class_info(t)->base)
    if (class_info(t)->frozen) return true;
  return false;
}

void add_dataclass_order_methods(ModuleAst& ast, const std::string& file) {
  std::map<std::string, std::vector<std::string>> fields;  // each dataclass's, its base's first
  for (auto& s : ast.body) {
    if (!s) continue;
    const Expr* deco = dataclass_call(*s);
    if (s->kind != StmtKind::Class || !s->def) continue;
    std::vector<std::string>& mine = fields[s->def->name];
    if (!s->targets.empty() && s->targets[0] && s->targets[0]->kind == ExprKind::Name &&
        fields.count(s->targets[0]->str))
      mine = fields[s->targets[0]->str];
    for (auto& b : s->def->body)
      if (b && b->kind == StmtKind::AnnAssign && b->targets.size() == 1 && b->targets[0] &&
          b->targets[0]->kind == ExprKind::Name)
        mine.push_back(b->targets[0]->str);
    if (!deco || !dataclass_flag(*deco, "order", false)) continue;
    const std::string& name = s->def->name;
    std::string text = str_cat("class ", name, ":\n");
    for (auto [method, op] : {std::pair{"__lt__", "<"}, {"__le__", "<="}, {"__gt__", ">"}, {"__ge__", ">="}}) {
      std::string result = mine.empty()
                               ? (op[1] ? "True" : "False")
                               : str_cat(fields_tuple("self", mine), " ", op, " ", fields_tuple("other", mine));
      text += str_cat("    def ", method, "(self, other: \"", name, "\") -> bool:\n        return ", result, "\n");
    }
    std::vector<StmtPtr> written = parse_written(text, file);
    if (written.empty() || !written[0]->def) continue;
    for (auto& m : written[0]->def->body) {
      place_written(*m, deco->pos);
      s->def->body.push_back(std::move(m));
    }
  }
}

namespace {

/// Whether annotation `a` names class `name` (a name, or a word of a string annotation).
bool names_class(const Expr& a, const std::string& name) {
  if (a.kind == ExprKind::Name && a.str == name) return true;
  if (a.kind == ExprKind::Str) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t at = a.str.find(name); at != std::string::npos; at = a.str.find(name, at + 1))
      if ((at == 0 || !word(a.str[at - 1])) && (at + name.size() == a.str.size() || !word(a.str[at + name.size()])))
        return true;
  }
  for (auto& k : a.kids)
    if (k && names_class(*k, name)) return true;
  return false;
}

}  // namespace

void add_dataclass_recursive_repr(ModuleAst& ast, const std::string& file) {
  std::set<std::string> bases;  // the classes some class of the module derives from
  for (auto& s : ast.body)
    if (s && s->kind == StmtKind::Class && s->def)
      for (auto& t : s->targets)
        if (t && t->kind == ExprKind::Name) bases.insert(t->str);
  for (auto& s : ast.body) {
    if (!s || s->kind != StmtKind::Class || !s->def || !s->targets.empty() || bases.count(s->def->name)) continue;
    const Expr* deco = nullptr;
    bool plain = false;
    for (auto& d : s->def->decorators)
      if (d && (d->kind == ExprKind::Name || d->kind == ExprKind::Attribute) && d->str == "dataclass") plain = true;
    deco = dataclass_call(*s);
    if (!plain && !deco) continue;
    const std::string& name = s->def->name;
    std::vector<std::string> fields;
    bool recursive = false, own_repr = false;
    Pos at = s->pos;
    for (auto& b : s->def->body) {
      if (!b) continue;
      if (b->kind == StmtKind::Def && b->def && b->def->name == "__repr__") own_repr = true;
      if (b->kind != StmtKind::AnnAssign || b->targets.size() != 1 || !b->targets[0] ||
          b->targets[0]->kind != ExprKind::Name)
        continue;
      fields.push_back(b->targets[0]->str);
      if (b->annotation && names_class(*b->annotation, name)) {
        recursive = true;
        at = b->pos;
      }
    }
    if (!recursive || own_repr) continue;
    std::string body = str_cat("\"", name, "(\"");
    for (size_t i = 0; i < fields.size(); ++i)
      body += str_cat(" + \"", i ? ", " : "", fields[i], "=\" + repr(self.", fields[i], ")");
    std::string text = str_cat("class ", name, ":\n    def __repr__(self) -> str:\n        return ", body, " + \")\"\n");
    std::vector<StmtPtr> written = parse_written(text, file);
    if (written.empty() || !written[0]->def) continue;
    for (auto& m : written[0]->def->body) {
      place_written(*m, at);
      s->def->body.push_back(std::move(m));
    }
  }
}

}  // namespace ppy::frontend
