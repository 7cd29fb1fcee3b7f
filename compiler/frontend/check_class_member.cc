// The body checker's class members other than fields and methods
// (docs/language.md, "Classes"): class constants, static and class methods,
// properties with setters. The declarer marks them in a class's methods
// (`@static:m`, `@classmethod:m`, `@property:x`, `@setter:x`) and keeps a
// constant as the module constant `Class.NAME`.
#include "body_checker.h"
#include "imported_classes.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

bool BodyChecker::class_member(Ty cls, const std::string& member, Resolved& r) {
  for (Ty k = cls; k != Ty::Error; k = class_info(k)->base) {
    const ClassInfo& c = *class_info(k);
    const ModuleInfo& home = owner_of(m_, k);  // an imported class's members are its module's (imported_classes.h)
    if (auto it = home.consts.find(str_cat(c.name, ".", member)); it != home.consts.end()) {
      r.ref = Ref::Const;
      r.value = it->second;
      r.ty = it->second.ty;
      return true;
    }
    bool is_static = c.methods.count(str_cat("@static:", member)) != 0;
    if (is_static || c.methods.count(str_cat("@classmethod:", member))) {
      // A subclass carries its base's marker but not the function: a static
      // method is its base's (`Rect.units()` calls `Shape.units`); an inherited
      // classmethod would bind `cls` to the base, so it is not resolved here.
      std::string name = str_cat(c.name, ".", member);
      if (!home.func(name)) {
        if (is_static) continue;
        return false;
      }
      r.ref = Ref::Func;
      r.module = home.name;
      r.name = std::move(name);
      return true;
    }
  }
  return false;
}

Ty BodyChecker::classmethod_cls(const std::string& name) {
  if (name != "cls") return Ty::Error;
  size_t dot = f_.name.find('.');
  if (dot == std::string::npos) return Ty::Error;
  auto it = m_.classes.find(f_.name.substr(0, dot));
  if (it == m_.classes.end() ||
      !class_info(it->second)->methods.count(str_cat("@classmethod:", f_.name.substr(dot + 1))))
    return Ty::Error;
  return it->second;
}

void BodyChecker::cls_member(Expr& x) {
  if (x.kind != ExprKind::Attribute || x.kids[0]->kind != ExprKind::Name || x.kids[0]->str != "cls" ||
      types_.count("cls") || classmethod_cls("cls") == Ty::Error)
    return;
  x.kids[0]->str = f_.name.substr(0, f_.name.find('.'));
}

bool BodyChecker::property_set_stmt(Stmt& s) {
  if (s.targets.size() != 1 || s.targets[0]->kind != ExprKind::Attribute) return false;
  Expr& t = *s.targets[0];
  Ty bt = Ty::Error;
  if (t.kids[0]->kind == ExprKind::Name) {
    auto it = types_.find(t.kids[0]->str);
    if (it != types_.end()) bt = it->second;
  } else if (t.kids[0]->kind == ExprKind::Attribute) {  // `self.target.celsius = v`
    bt = value(*t.kids[0], Ty::Error);
  }
  if (!is_class(bt) || !class_info(bt)->methods.count(str_cat("@setter:", t.str))) return false;
  Pos p = t.pos;
  auto callee = std::make_unique<Expr>();
  callee->kind = ExprKind::Attribute;
  callee->pos = p;
  callee->str = str_cat("__set_", t.str);
  callee->kids.push_back(std::move(t.kids[0]));
  auto call = std::make_unique<Expr>();
  call->kind = ExprKind::Call;
  call->pos = p;
  call->kids.push_back(std::move(callee));
  call->kids.push_back(std::move(s.value));
  s.targets.clear();
  s.value = std::move(call);
  s.kind = StmtKind::Expr;
  return true;
}

}  // namespace ppy::frontend::checking
