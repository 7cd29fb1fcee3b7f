// generics: generic classes, one plain class per instantiation (generic_classes.h).
#include "generic_classes.h"

#include <algorithm>
#include <map>
#include <set>

#include "checker.h"
#include "checker_internal.h"
#include "expr_build.h"
#include "generics.h"
#include "parser.h"
#include "ppy/util/str_cat.h"

namespace ppy::frontend {
namespace {

using checking::dotted;

/// Every node of `e` at `p` (a string annotation's parse sits where the string does).
void move_to(Expr& e, Pos p) {
  e.pos = p;
  for (auto& k : e.kids) move_to(*k, p);
}

/// A string annotation that subscripts (`"Pair[V, K]"`, Python's forward
/// reference) as the annotation it spells, so that its type parameters are
/// replaced and its instantiations made like any other's.
void unquote(ExprPtr& a) {
  if (!a || a->kind != ExprKind::Str || a->str.find('[') == std::string::npos) return;
  DiagnosticEngine quiet;
  ModuleAst parsed = parse_module("x: " + a->str + "\n", "<annotation>", quiet);
  if (quiet.has_errors() || parsed.body.size() != 1 || !parsed.body[0]->annotation) return;
  Pos p = a->pos;
  a = std::move(parsed.body[0]->annotation);
  move_to(*a, p);
}

void unquote_annotations(Stmt& s) {
  if (s.kind == StmtKind::AnnAssign) unquote(s.annotation);
  if (s.def) {
    for (auto& p : s.def->params) unquote(p.annotation);
    unquote(s.def->returns);
    for (auto& b : s.def->body) unquote_annotations(*b);
  }
  for_each_suite(s, [&](const std::vector<StmtPtr>& body) {
    for (auto& b : body) unquote_annotations(*b);
  });
}

/// The type a literal argument has, as an annotation (`3` int, `[1, 2]`
/// list[int]); null when it is no literal (or an empty or mixed display).
ExprPtr literal_type(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int: return build::name("int", e.pos);
    case ExprKind::Float: return build::name("float", e.pos);
    case ExprKind::Bool: return build::name("bool", e.pos);
    case ExprKind::Str:
    case ExprKind::FString: return build::name("str", e.pos);
    case ExprKind::List: {
      if (e.kids.empty()) return nullptr;
      ExprPtr elem = literal_type(*e.kids[0]);
      for (auto& k : e.kids) {
        ExprPtr t = literal_type(*k);
        if (!elem || !t || t->str != elem->str || t->kind != ExprKind::Name) return nullptr;
      }
      std::vector<ExprPtr> kids;
      kids.push_back(build::name("list", e.pos));
      kids.push_back(std::move(elem));
      return build::with_kids(ExprKind::Subscript, e.pos, std::move(kids));
    }
    default: return nullptr;
  }
}

/// Whether `e` is `Generic` however typing was imported (`Generic`, `typing.Generic`, `t.Generic`).
bool is_generic_marker(const Expr& e) {
  auto d = dotted(e);
  return d && (*d == "Generic" || d->ends_with(".Generic"));
}

struct Template {
  StmtPtr stmt;  ///< the class as written, its `Generic[...]` base dropped
  std::vector<std::string> params;
  std::vector<StmtPtr> instances;  ///< in the order they were first named
};

class Expander {
 public:
  Expander(ModuleAst& ast, const std::string& file, DiagnosticEngine& d) : ast_(ast), file_(file), d_(d) {}

  void run() {
    for (auto& s : ast_.body) note_type_var(*s);
    // The templates leave the body; their instantiations come back at their place.
    std::vector<StmtPtr> rest;
    std::vector<std::pair<size_t, std::string>> slots;
    for (auto& s : ast_.body) {
      if (s->kind == StmtKind::Class && !templates_.count(s->def->name)) {
        std::vector<std::string> params = class_params(*s);
        if (!params.empty() && sugared_base(*s)) continue;  // refused
        if (!params.empty()) {
          std::string name = s->def->name;
          slots.emplace_back(rest.size(), name);
          templates_[name] = Template{std::move(s), std::move(params), {}};
          continue;
        }
      }
      rest.push_back(std::move(s));
    }
    if (templates_.empty()) {
      ast_.body = std::move(rest);
      return;
    }
    for (auto& [name, t] : templates_) unquote_annotations(*t.stmt);
    for (auto& s : rest) {
      unquote_annotations(*s);
      stmt(*s);
    }
    while (!pending_.empty()) {  // an instantiation may name more
      Stmt* s = pending_.back();
      pending_.pop_back();
      stmt(*s);
    }
    ast_.body.clear();
    size_t slot = 0;
    for (size_t i = 0; i <= rest.size(); ++i) {
      for (; slot < slots.size() && slots[slot].first == i; ++slot)
        for (auto& inst : templates_[slots[slot].second].instances) ast_.body.push_back(std::move(inst));
      if (i < rest.size()) ast_.body.push_back(std::move(rest[i]));
    }
  }

 private:
  void error(Pos p, const char* code, std::string msg) { d_.error(code, file_, p.line, p.col, std::move(msg)); }

  /// `T = TypeVar("T")` (bounds and constraints are the declarer's to refuse).
  void note_type_var(const Stmt& s) {
    if (s.kind != StmtKind::Assign || s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Name || !s.value ||
        s.value->kind != ExprKind::Call)
      return;
    auto callee = dotted(*s.value->kids[0]);
    if (callee && (*callee == "TypeVar" || callee->ends_with(".TypeVar"))) type_vars_.insert(s.targets[0]->str);
  }

  /// A generic NamedTuple or Enum (their classes are written from the class's
  /// name, class_sugar.h): refused; true when it is one.
  bool sugared_base(const Stmt& s) {
    for (auto& b : s.targets)
      if (auto d = dotted(*b); d && (d->ends_with("NamedTuple") || d->ends_with("Enum"))) {
        error(b->pos, "E1010", str_cat("a generic ", *d, " (", s.def->name, ") is outside the ppy subset"));
        return true;
      }
    return false;
  }

  /// A class's type parameters: PEP 695's, its `Generic[T, ...]` base's (dropped
  /// here), else the TypeVars its bases name (`class Sub(Base[T])`); none for a
  /// plain class.
  std::vector<std::string> class_params(Stmt& s) {
    std::vector<std::string> out = s.def->type_params;
    for (size_t i = 0; i < s.targets.size(); ++i) {
      Expr& b = *s.targets[i];
      if (b.kind != ExprKind::Subscript || !is_generic_marker(*b.kids[0])) continue;
      const Expr& arg = *b.kids[1];
      std::vector<const Expr*> names;
      if (arg.kind == ExprKind::Tuple)
        for (auto& k : arg.kids) names.push_back(k.get());
      else
        names.push_back(&arg);
      for (const Expr* n : names) {
        if (n->kind == ExprKind::Name && type_vars_.count(n->str))
          out.push_back(n->str);
        else
          error(n->pos, "E1030", str_cat("Generic[...] takes the module's TypeVars (T = TypeVar(\"T\")), not '",
                                         checking::annotation_text(*n), "'"));
      }
      s.targets.erase(s.targets.begin() + static_cast<std::ptrdiff_t>(i));
      return out;
    }
    if (!out.empty()) return out;
    for (auto& b : s.targets) collect_type_vars(*b, out);
    return out;
  }

  void collect_type_vars(const Expr& e, std::vector<std::string>& out) {
    if (e.kind == ExprKind::Name && type_vars_.count(e.str) &&
        std::find(out.begin(), out.end(), e.str) == out.end())
      out.push_back(e.str);
    for (auto& k : e.kids) collect_type_vars(*k, out);
  }

  /// Whether `e` names a type parameter of the code around it (a generic
  /// function's): its instantiation is not known here.
  bool names_type_param(const Expr& e) const {
    if (e.kind == ExprKind::Name && (type_vars_.count(e.str) || scope_params_.count(e.str))) return true;
    for (auto& k : e.kids)
      if (names_type_param(*k)) return true;
    return false;
  }

  void stmt(Stmt& s) {
    for (auto& t : s.targets) expr(t);
    expr(s.annotation);
    if (s.kind == StmtKind::AnnAssign) infer_ctor(s.annotation.get(), s.value.get());
    if (s.kind == StmtKind::Return && !returns_.empty()) infer_ctor(returns_.back(), s.value.get());
    expr(s.value);
    if (s.def) def(*s.def);
    for_each_suite(s, [&](const std::vector<StmtPtr>& body) {
      for (auto& b : body) stmt(*b);
    });
  }

  void def(FuncDef& d) {
    std::set<std::string> saved = scope_params_;
    scope_params_.insert(d.type_params.begin(), d.type_params.end());  // `def top[T](s: Stack[T])`
    for (auto& p : d.params) {
      expr(p.annotation);
      expr(p.default_value);
    }
    expr(d.returns);
    for (auto& deco : d.decorators) expr(deco);
    returns_.push_back(d.returns.get());
    params_.push_back(&d);
    for (auto& b : d.body) stmt(*b);
    returns_.pop_back();
    params_.pop_back();
    scope_params_ = std::move(saved);
  }

  /// `s: Stack[int] = Stack()`, `return Stack()` under `-> Stack[int]`: the
  /// bare template called where the instantiation is the type wanted.
  void infer_ctor(const Expr* want, Expr* value) {
    if (!want || !value || want->kind != ExprKind::Name || value->kind != ExprKind::Call) return;
    Expr& callee = *value->kids[0];
    auto it = made_.find(want->str);
    if (callee.kind == ExprKind::Name && it != made_.end() && it->second == callee.str) callee.str = want->str;
  }

  void expr(ExprPtr& e) {
    if (!e) return;
    if (e->kind == ExprKind::Subscript && e->kids[0]->kind == ExprKind::Name && templates_.count(e->kids[0]->str)) {
      Expr& arg = *e->kids[1];
      std::vector<ExprPtr*> args;
      if (arg.kind == ExprKind::Tuple)
        for (auto& k : arg.kids) args.push_back(&k);
      else
        args.push_back(&e->kids[1]);
      for (ExprPtr* a : args) expr(*a);  // `Stack[Pair[int, str]]`: the inner one first
      const std::string& name = e->kids[0]->str;
      const Template& t = templates_.at(name);
      if (args.size() != t.params.size()) {
        error(e->pos, "E1030",
              str_cat("generic class '", name, "' takes ", t.params.size(), " type argument",
                      t.params.size() == 1 ? "" : "s", ", not ", args.size()));
        return;
      }
      for (ExprPtr* a : args)
        if (names_type_param(**a)) return;  // read by the generic function's instantiation (type_alias.cc)
      e = build::name(instantiate(name, args), e->pos);
      return;
    }
    if (e->kind == ExprKind::Call && e->kids[0]->kind == ExprKind::Name && templates_.count(e->kids[0]->str))
      infer_from_literals(*e);  // `Pair("apples", 3)`
    if (e->kind == ExprKind::Call && e->kids.size() == 3 && e->kids[0]->kind == ExprKind::Name &&
        e->kids[0]->str == "isinstance" && e->kids[2]->kind == ExprKind::Name && templates_.count(e->kids[2]->str)) {
      error(e->kids[2]->pos, "E1010",
            str_cat("isinstance() of generic class '", e->kids[2]->str,
                    "' is outside the ppy subset (each instantiation is a class of its own)"));
      return;
    }
    if (e->kind == ExprKind::Name && templates_.count(e->str)) {
      error(e->pos, "E1030",
            str_cat("the type arguments of generic class '", e->str, "' are not known here: write ", e->str,
                    "[int](...), or annotate what it is assigned to (s: ", e->str, "[int] = ", e->str, "())"));
      return;
    }
    for (auto& k : e->kids) expr(k);
    for (auto& k : e->keywords) expr(k.value);
  }

  /// The parameters a template's constructor takes after self, by name: its
  /// `__init__`'s, or a dataclass's fields'; their annotations.
  static std::vector<std::pair<std::string, const Expr*>> ctor_params(const Stmt& cls) {
    std::vector<std::pair<std::string, const Expr*>> out;
    for (auto& b : cls.def->body) {
      if (b->kind == StmtKind::Def && b->def->name == "__init__") {
        out.clear();
        for (size_t i = 1; i < b->def->params.size(); ++i)
          out.emplace_back(b->def->params[i].name, b->def->params[i].annotation.get());
        return out;
      }
      if (b->kind == StmtKind::AnnAssign && b->targets.size() == 1 && b->targets[0]->kind == ExprKind::Name)
        out.emplace_back(b->targets[0]->str, b->annotation.get());  // a dataclass's field
    }
    return cls.def->decorators.empty() ? std::vector<std::pair<std::string, const Expr*>>{} : out;
  }

  /// `Pair("apples", 3)`: a template called bare, each type parameter bound by
  /// a literal argument passed where the constructor takes it (as `T` itself),
  /// calls that instantiation (`Pair[str, int]`). Left as it is when some
  /// parameter stays unbound or is bound twice apart.
  void infer_from_literals(Expr& call) {
    Template& t = templates_.at(call.kids[0]->str);
    auto params = ctor_params(*t.stmt);
    std::map<std::string, ExprPtr> bound;
    auto bind = [&](const Expr* ann, const Expr& arg) {
      if (!ann || ann->kind != ExprKind::Name ||
          std::find(t.params.begin(), t.params.end(), ann->str) == t.params.end())
        return true;
      ExprPtr ty = literal_type(arg);
      if (!ty) ty = param_type(arg);
      if (!ty) return true;
      auto [it, fresh] = bound.emplace(ann->str, nullptr);
      if (fresh) {
        it->second = std::move(ty);
        return true;
      }
      return checking::annotation_text(*it->second) == checking::annotation_text(*ty);
    };
    for (size_t i = 1; i < call.kids.size(); ++i)
      if (i - 1 >= params.size() || !bind(params[i - 1].second, *call.kids[i])) return;
    for (auto& k : call.keywords)
      for (auto& [n, ann] : params)
        if (n == k.name && !bind(ann, *k.value)) return;
    std::vector<ExprPtr> args;
    for (auto& p : t.params) {
      auto it = bound.find(p);
      if (it == bound.end()) return;
      args.push_back(std::move(it->second));
    }
    std::vector<ExprPtr*> refs;
    for (auto& a : args) refs.push_back(&a);
    call.kids[0]->str = instantiate(call.kids[0]->str, refs);
  }

  /// The annotation of the parameter `arg` names, of the def around it
  /// (`item: str` in `Entry(priority, item)`); null when it is none or names
  /// a type parameter.
  ExprPtr param_type(const Expr& arg) const {
    if (arg.kind != ExprKind::Name || params_.empty()) return nullptr;
    for (auto& p : params_.back()->params)
      if (p.name == arg.str && p.annotation && !names_type_param(*p.annotation))
        return checking::clone_expr(p.annotation.get());
    return nullptr;
  }

  /// The instantiation `name[args]`'s class name, made (and queued to be
  /// walked) the first time it is named.
  std::string instantiate(const std::string& name, const std::vector<ExprPtr*>& args) {
    std::string inst = name + "[";
    for (size_t i = 0; i < args.size(); ++i) str_append(inst, i ? ", " : "", checking::annotation_text(**args[i]));
    inst += "]";
    if (made_.count(inst)) return inst;
    made_[inst] = name;
    Template& t = templates_.at(name);
    std::map<std::string, const Expr*> bound;
    for (size_t i = 0; i < args.size(); ++i) bound[t.params[i]] = args[i]->get();
    StmtPtr s = checking::clone_stmt(*t.stmt);
    s->def->name = inst;
    s->def->type_params.clear();
    substitute(*s, bound);
    pending_.push_back(s.get());
    t.instances.push_back(std::move(s));
    return inst;
  }

  static void substitute(ExprPtr& e, const std::map<std::string, const Expr*>& bound) {
    if (!e) return;
    if (e->kind == ExprKind::Name)
      if (auto it = bound.find(e->str); it != bound.end()) {
        Pos p = e->pos;
        e = checking::clone_expr(it->second);
        e->pos = p;
        return;
      }
    for (auto& k : e->kids) substitute(k, bound);
    for (auto& k : e->keywords) substitute(k.value, bound);
  }

  static void substitute(Stmt& s, const std::map<std::string, const Expr*>& bound) {
    for (auto& t : s.targets) substitute(t, bound);
    substitute(s.annotation, bound);
    substitute(s.value, bound);
    if (s.def) {
      for (auto& p : s.def->params) {
        substitute(p.annotation, bound);
        substitute(p.default_value, bound);
      }
      substitute(s.def->returns, bound);
      for (auto& deco : s.def->decorators) substitute(deco, bound);
      for (auto& b : s.def->body) substitute(*b, bound);
    }
    for_each_suite(s, [&](const std::vector<StmtPtr>& body) {
      for (auto& b : body) substitute(*b, bound);
    });
  }

  ModuleAst& ast_;
  const std::string& file_;
  DiagnosticEngine& d_;
  std::set<std::string> type_vars_;  ///< the module's `T = TypeVar("T")` names
  std::map<std::string, Template> templates_;
  std::map<std::string, std::string> made_;  ///< instantiation -> its template
  std::vector<Stmt*> pending_;               ///< instantiations not walked yet
  std::set<std::string> scope_params_;       ///< PEP 695 parameters of the defs around
  std::vector<const FuncDef*> params_;       ///< the defs around, innermost last
  std::vector<const Expr*> returns_;         ///< result annotations of the defs around
};

}  // namespace

void expand_generic_classes(ModuleAst& ast, const std::string& file, DiagnosticEngine& diags) {
  Expander(ast, file, diags).run();
}

std::string shown_name(const ClassInfo& c) { return c.name.substr(0, c.name.find('[')); }

std::vector<Ty> class_type_args(const ClassInfo& c) {
  size_t open = c.name.find('[');
  if (open == std::string::npos || c.name.back() != ']') return {};
  std::string text = c.name.substr(open + 1, c.name.size() - open - 2);
  std::vector<Ty> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '[') ++depth;
    if (i < text.size() && text[i] == ']') --depth;
    if (i < text.size() && (text[i] != ',' || depth > 0)) continue;
    std::string piece = text.substr(start, i - start);
    start = i + 2;  // past ", " (instantiate writes it)
    Ty t = ty_from_name(piece);
    if (t == Ty::Error && piece.find('|') == std::string::npos)  // a class of the module
      if (Ty k = class_type(c.module, piece); class_info(k)->ty == k) t = k;
    out.push_back(t);
  }
  return out;
}

}  // namespace ppy::frontend
