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

bool is_dataclass_stmt(const Stmt& s) {
  if (s.kind != StmtKind::Class || !s.def) return false;
  for (auto& d : s.def->decorators)
    if (d && (d->kind == ExprKind::Name || d->kind == ExprKind::Attribute) && d->str == "dataclass") return true;
  return dataclass_call(s) != nullptr;
}

bool field_option(const Stmt& field, const std::string& name) {
  const Expr* v = field.value.get();
  if (!v || v->kind != ExprKind::Call || v->kids.empty() || !v->kids[0]) return true;
  const Expr& f = *v->kids[0];
  if ((f.kind != ExprKind::Name && f.kind != ExprKind::Attribute) || f.str != "field") return true;
  return dataclass_flag(*v, name, true);
}

namespace {

/// A field of a dataclass as the methods written for it see it.
struct WrittenField {
  std::string name;
  bool compare = true, repr = true;
  /// For an `Optional[T]` / `T | None` field, the name Python's TypeError gives T
  /// (`float`, `Point`, `list`); empty for any other field.
  std::string optional_of;
};

/// The name of the type annotation `a` names, as `type(x).__name__` gives it.
std::string type_word(const Expr& a) {
  if (a.kind == ExprKind::Name || a.kind == ExprKind::Attribute) return a.str;
  if (a.kind == ExprKind::Subscript && !a.kids.empty() && a.kids[0]) return type_word(*a.kids[0]);
  if (a.kind == ExprKind::Str) return a.str.substr(0, a.str.find('['));  // `Optional["Node"]`
  return "";
}

/// T of an annotation `Optional[T]`, `T | None` or `None | T`; empty for any other.
std::string optional_of(const Expr* a) {
  if (!a) return "";
  if (a->kind == ExprKind::Subscript && a->kids.size() == 2 && a->kids[0] && a->kids[1] &&
      (a->kids[0]->kind == ExprKind::Name || a->kids[0]->kind == ExprKind::Attribute) && a->kids[0]->str == "Optional")
    return type_word(*a->kids[1]);
  if (a->kind == ExprKind::Binary && a->str == "|" && a->kids.size() == 2 && a->kids[0] && a->kids[1]) {
    if (a->kids[1]->kind == ExprKind::NoneLit) return type_word(*a->kids[0]);
    if (a->kids[0]->kind == ExprKind::NoneLit) return type_word(*a->kids[1]);
  }
  return "";
}

/// `__lt__` (`op` "<") and its siblings as Python's order=True writes them:
/// the fields compared as tuples are, the first pair that differs deciding, so a
/// None meets `<` (a TypeError) only when the fields before it are equal.
std::string order_method(const std::string& cls, const char* method, const std::string& op,
                         const std::vector<WrittenField>& fields) {
  std::string text = str_cat("    def ", method, "(self, other: \"", cls, "\") -> bool:\n");
  for (const WrittenField& f : fields) {
    if (!f.compare) continue;
    str_append(text, "        if self.", f.name, " != other.", f.name, ":\n");
    if (f.optional_of.empty()) {
      str_append(text, "            return self.", f.name, " ", op, " other.", f.name, "\n");
      continue;
    }
    std::string l = "left_" + f.name, r = "right_" + f.name;
    auto raise = [&](const std::string& x, const std::string& a, const std::string& b) {
      str_append(text, "            if ", x, " is None:\n", "                raise TypeError(\"'", op,
                 "' not supported between instances of '", a, "' and '", b, "'\")\n");
    };
    str_append(text, "            ", l, " = self.", f.name, "\n            ", r, " = other.", f.name, "\n");
    raise(l, "NoneType", f.optional_of);
    raise(r, f.optional_of, "NoneType");
    str_append(text, "            return ", l, " ", op, " ", r, "\n");
  }
  return text + str_cat("        return ", op.size() == 2 ? "True" : "False", "\n");
}

/// `__eq__` comparing the fields `field(compare=False)` leaves in.
std::string eq_method(const std::string& cls, const std::vector<WrittenField>& fields) {
  std::string cond;
  for (const WrittenField& f : fields)
    if (f.compare) str_append(cond, cond.empty() ? "" : " and ", "self.", f.name, " == other.", f.name);
  return str_cat("    def __eq__(self, other: \"", cls, "\") -> bool:\n        return ", cond.empty() ? "True" : cond,
                 "\n");
}

/// `__repr__` as @dataclass writes it: `Name(a=1, b='x')`, the fields `field(repr=False)` leaves in.
std::string repr_method(const std::string& cls, const std::vector<WrittenField>& fields) {
  std::string body = str_cat("\"", cls, "(\"");
  bool first = true;
  for (const WrittenField& f : fields) {
    if (!f.repr) continue;
    body += str_cat(" + \"", first ? "" : ", ", f.name, "=\" + repr(self.", f.name, ")");
    first = false;
  }
  return str_cat("    def __repr__(self) -> str:\n        return ", body, " + \")\"\n");
}

/// Appends the methods of `text` (a class body, without its `class` line) to class `s`, placed at `at`.
void add_written_methods(Stmt& s, const std::string& text, Pos at, const std::string& file) {
  std::vector<StmtPtr> written = parse_written(str_cat("class ", s.def->name, ":\n", text), file);
  if (written.empty() || !written[0]->def) return;
  for (auto& m : written[0]->def->body) {
    place_written(*m, at);
    s.def->body.push_back(std::move(m));
  }
}

}  // namespace

void add_dataclass_methods(ModuleAst& ast, const std::string& file) {
  std::map<std::string, std::vector<WrittenField>> fields;  // each class's, its base's first
  for (auto& s : ast.body) {
    if (!s || s->kind != StmtKind::Class || !s->def) continue;
    std::vector<WrittenField>& mine = fields[s->def->name];
    if (!s->targets.empty() && s->targets[0] && s->targets[0]->kind == ExprKind::Name &&
        fields.count(s->targets[0]->str))
      mine = fields[s->targets[0]->str];
    std::set<std::string> own;  // the methods the class body defines
    for (auto& b : s->def->body) {
      if (b && b->kind == StmtKind::Def && b->def) own.insert(b->def->name);
      if (b && b->kind == StmtKind::AnnAssign && b->targets.size() == 1 && b->targets[0] &&
          b->targets[0]->kind == ExprKind::Name)
        mine.push_back({b->targets[0]->str, field_option(*b, "compare"), field_option(*b, "repr"),
                        optional_of(b->annotation.get())});
    }
    if (!is_dataclass_stmt(*s)) continue;
    const Expr* deco = dataclass_call(*s);
    Pos at = deco ? deco->pos : s->pos;
    const std::string& name = s->def->name;
    std::string text;
    if (deco && dataclass_flag(*deco, "order", false))
      for (auto [method, op] : {std::pair{"__lt__", "<"}, {"__le__", "<="}, {"__gt__", ">"}, {"__ge__", ">="}})
        text += order_method(name, method, op, mine);
    bool compare_all = true, repr_all = true;
    for (const WrittenField& f : mine) {
      compare_all = compare_all && f.compare;
      repr_all = repr_all && f.repr;
    }
    // Else the generated ones the lowering gives every dataclass (lower_class.cc) are Python's.
    if (!compare_all && !own.count("__eq__")) text += eq_method(name, mine);
    if (!repr_all && !own.count("__repr__")) text += repr_method(name, mine);
    if (!text.empty()) add_written_methods(*s, text, at, file);
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
    if (!is_dataclass_stmt(*s)) continue;
    const std::string& name = s->def->name;
    std::vector<WrittenField> fields;
    bool recursive = false, own_repr = false;
    Pos at = s->pos;
    for (auto& b : s->def->body) {
      if (!b) continue;
      if (b->kind == StmtKind::Def && b->def && b->def->name == "__repr__") own_repr = true;
      if (b->kind != StmtKind::AnnAssign || b->targets.size() != 1 || !b->targets[0] ||
          b->targets[0]->kind != ExprKind::Name)
        continue;
      fields.push_back({b->targets[0]->str, true, field_option(*b, "repr")});
      if (b->annotation && names_class(*b->annotation, name)) {
        recursive = true;
        at = b->pos;
      }
    }
    if (!recursive || own_repr) continue;
    add_written_methods(*s, repr_method(name, fields), at, file);
  }
}

}  // namespace ppy::frontend
