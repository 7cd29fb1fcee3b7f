#include "field_init.h"

#include <functional>
#include <map>
#include <set>

#include "exception_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend {

namespace {

constexpr std::string_view kFlagPrefix = "__isset_";

/// What a class's construction assigns before `self` can be seen: the fields
/// surely set, and whether the walk reached the end (a subclass's `__init__`
/// goes on after `super().__init__()` only then).
struct Construction {
  std::set<std::string> assigned;
  bool clean = true;
};

bool mentions(const Expr& e, const std::string& name);

bool mentions(const std::vector<StmtPtr>& body, const std::string& name);

bool mentions(const Stmt& s, const std::string& name) {
  for (auto& t : s.targets)
    if (mentions(*t, name)) return true;
  if (s.value && mentions(*s.value, name)) return true;
  if (s.annotation && mentions(*s.annotation, name)) return true;
  if (s.def) {
    for (auto& p : s.def->params)
      if (p.default_value && mentions(*p.default_value, name)) return true;
    if (mentions(s.def->body, name)) return true;
  }
  bool found = false;
  for_each_suite(s, [&](const std::vector<StmtPtr>& b) { found = found || mentions(b, name); });
  return found;
}

bool mentions(const std::vector<StmtPtr>& body, const std::string& name) {
  for (auto& s : body)
    if (mentions(*s, name)) return true;
  return false;
}

bool mentions(const Expr& e, const std::string& name) {
  if (e.kind == ExprKind::Name && e.str == name) return true;
  for (auto& k : e.kids)
    if (mentions(*k, name)) return true;
  for (auto& k : e.keywords)
    if (k.value && mentions(*k.value, name)) return true;
  return false;
}

/// Whether a `return` can leave the function from `s` (nested defs aside).
bool returns(const Stmt& s) {
  if (s.kind == StmtKind::Return) return true;
  bool found = false;
  for_each_suite(s, [&](const std::vector<StmtPtr>& b) {
    for (auto& x : b) found = found || returns(*x);
  });
  return found;
}

bool is_property(const ClassInfo& c, const std::string& n) { return c.methods.count(str_cat("@property:", n)) > 0; }

/// Whether `e` uses `self` only to read fields already assigned.
bool reads_only(const Expr& e, const std::string& self, const ClassInfo& c, const std::set<std::string>& assigned) {
  if (e.kind == ExprKind::Attribute && e.kids[0]->kind == ExprKind::Name && e.kids[0]->str == self)
    return assigned.count(e.str) && !is_property(c, e.str) && c.field(e.str) >= 0;
  if (e.kind == ExprKind::Name) return e.str != self;
  for (auto& k : e.kids)
    if (!reads_only(*k, self, c, assigned)) return false;
  for (auto& k : e.keywords)
    if (k.value && !reads_only(*k.value, self, c, assigned)) return false;
  return true;
}

/// `self.NAME` (a field, not a property): NAME, else empty.
std::string self_field(const Expr& t, const std::string& self, const ClassInfo& c) {
  if (t.kind != ExprKind::Attribute || t.kids[0]->kind != ExprKind::Name || t.kids[0]->str != self) return "";
  if (is_property(c, t.str) || c.field(t.str) < 0) return "";
  return t.str;
}

/// Whether `s` is `super().__init__(...)`.
bool is_super_init(const Stmt& s) {
  if (s.kind != StmtKind::Expr || s.value->kind != ExprKind::Call) return false;
  const Expr& callee = *s.value->kids[0];
  return callee.kind == ExprKind::Attribute && callee.str == "__init__" && callee.kids[0]->kind == ExprKind::Call &&
         callee.kids[0]->kids.size() == 1 && callee.kids[0]->kids[0]->kind == ExprKind::Name &&
         callee.kids[0]->kids[0]->str == "super";
}

class Analysis {
 public:
  explicit Analysis(ModuleInfo& m) : m_(m) {}

  const Construction& of(Ty t) {
    if (auto it = memo_.find(t); it != memo_.end()) return it->second;
    Construction r = walk(t);
    return memo_[t] = std::move(r);
  }

 private:
  Construction walk(Ty t) {
    const ClassInfo& c = *class_info(t);
    Construction r;
    for (auto& [n, ft] : c.fields)
      if (is_hidden_field(n) || c.dataclass) r.assigned.insert(n);  // the constructor's own
    if (c.dataclass) return r;
    auto it = c.methods.find("__init__");
    if (it == c.methods.end()) {
      if (c.base != Ty::Error) {
        const Construction& b = of(c.base);
        r.assigned.insert(b.assigned.begin(), b.assigned.end());
        r.clean = b.clean;
      }
      return r;
    }
    if (it->second != t) {  // inherited: the base's __init__ runs, with this class's overrides
      const Construction& b = of(it->second);
      r.assigned.insert(b.assigned.begin(), b.assigned.end());
      r.clean = b.clean;
      return r;
    }
    const FuncInfo* init = m_.func(str_cat(c.name, ".__init__"));
    if (!init || !init->def || init->def->params.empty()) {
      r.clean = false;
      return r;
    }
    const std::string& self = init->def->params[0].name;
    for (auto& sp : init->def->body) {
      const Stmt& s = *sp;
      if (!step(s, self, c, r)) {
        r.clean = false;
        break;
      }
    }
    return r;
  }

  /// Takes one top-level statement of `__init__` into `r`; false when `self`
  /// may be seen (or the function left) before the rest runs.
  bool step(const Stmt& s, const std::string& self, const ClassInfo& c, Construction& r) {
    if (s.kind == StmtKind::Return) return false;
    // `super()` hands `self` on as much as naming it does.
    if (!mentions(s, self) && !mentions(s, "super")) return !returns(s);
    if ((s.kind == StmtKind::Assign || s.kind == StmtKind::AnnAssign) && s.value &&
        reads_only(*s.value, self, c, r.assigned)) {
      std::vector<std::string> names;
      for (auto& t : s.targets) {
        std::string n = self_field(*t, self, c);
        if (n.empty()) {
          if (mentions(*t, self)) return false;
          continue;  // a local, assigned as ever
        }
        names.push_back(n);
      }
      r.assigned.insert(names.begin(), names.end());
      return true;
    }
    if (s.kind == StmtKind::AugAssign && s.targets.size() == 1 && s.value &&
        reads_only(*s.value, self, c, r.assigned)) {
      std::string n = self_field(*s.targets[0], self, c);
      return !n.empty() && r.assigned.count(n);
    }
    if (is_super_init(s)) {
      const Expr& call = *s.value;
      for (size_t i = 1; i < call.kids.size(); ++i)
        if (!reads_only(*call.kids[i], self, c, r.assigned)) return false;
      for (auto& k : call.keywords)
        if (!reads_only(*k.value, self, c, r.assigned)) return false;
      // BaseException's own __init__ (an exception class's root): it fills
      // the hidden fields and hands `self` to nothing.
      if (c.base == Ty::Error || !class_info(c.base)->methods.count("__init__")) return true;
      const Construction& b = of(c.base);
      r.assigned.insert(b.assigned.begin(), b.assigned.end());
      return b.clean;
    }
    return false;
  }

  ModuleInfo& m_;
  std::map<Ty, Construction> memo_;
};

}  // namespace

std::string field_set_flag(std::string_view field) { return str_cat(kFlagPrefix, field); }

bool is_field_set_flag(std::string_view name) { return name.starts_with(kFlagPrefix); }

void add_field_set_flags(ModuleInfo& m) {
  Analysis a(m);
  // Fields some object of some class may be read through before assigned,
  // named by the class that declares them.
  std::set<std::pair<Ty, std::string>> unsafe;
  for (Ty t : m.class_order) {
    const ClassInfo& c = *class_info(t);
    const Construction& built = a.of(t);
    for (auto& [n, ft] : c.fields) {
      if (built.assigned.count(n)) continue;
      Ty owner = t;
      while (class_info(owner)->base != Ty::Error && class_info(class_info(owner)->base)->field(n) >= 0)
        owner = class_info(owner)->base;
      unsafe.insert({owner, n});
    }
  }
  if (unsafe.empty()) return;
  // Rebuilt in preorder: a class's fields are its base's (as rebuilt), then
  // its own, each unsafe one followed by its flag.
  std::function<void(Ty, size_t, const std::vector<std::pair<std::string, Ty>>&)> rebuild =
      [&](Ty t, size_t base_count, const std::vector<std::pair<std::string, Ty>>& base_fields) {
        ClassInfo& c = *class_info(t);
        size_t own_count = c.fields.size();
        std::vector<std::pair<std::string, Ty>> fields = base_fields;
        for (size_t i = base_count; i < c.fields.size(); ++i) {
          fields.push_back(c.fields[i]);
          if (unsafe.count({t, c.fields[i].first})) fields.emplace_back(field_set_flag(c.fields[i].first), Ty::Bool);
        }
        c.fields = std::move(fields);
        for (Ty sub : c.subclasses) rebuild(sub, own_count, c.fields);
      };
  for (Ty t : m.class_order)
    if (class_info(t)->base == Ty::Error) rebuild(t, 0, {});
}

}  // namespace ppy::frontend
