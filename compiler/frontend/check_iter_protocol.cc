// The body checker, the iteration protocol written by hand (iter_protocol.h): an object whose
// `__iter__` returns an instance of a class with `__next__` is walked by that class's generator
// `__ppy_iter_C`; `next(obj)` of such an instance is `obj.__next__()`.
#include <string>

#include "body_checker.h"
#include "expr_build.h"
#include "iter_protocol.h"
#include "ppy/util/str_cat.h"
#include "types.h"

namespace ppy::frontend::checking {

using build::node;

std::string BodyChecker::next_walker(Ty cls) const {
  const ClassInfo* c = class_info(cls);
  if (!c) return {};
  auto m = c->methods.find("__next__");
  if (m == c->methods.end()) return {};
  std::string name = protocol_iter_name(class_info(m->second)->name);
  return m_.func(name) ? name : std::string();
}

std::string BodyChecker::protocol_iter(Ty cls) const {
  const ClassInfo* c = class_info(cls);
  if (!c) return {};
  auto m = c->methods.find("__iter__");
  if (m == c->methods.end()) return {};
  const FuncInfo* f = m_.func(class_info(m->second)->name + ".__iter__");
  if (!f || !is_class(f->result)) return {};
  return next_walker(f->result);
}

bool BodyChecker::protocol_object(Expr& it) {
  std::string walker = protocol_iter(it.ty);
  if (walker.empty()) return false;
  // `for x in obj`: `for x in __ppy_iter_C(obj.__iter__())`, the node rewritten in place.
  auto obj = std::make_unique<Expr>(std::move(it));
  Pos p = obj->pos;
  auto attr = node(ExprKind::Attribute, p, "__iter__");
  attr->depth = obj->depth + 1;
  attr->kids.push_back(std::move(obj));
  auto inner = node(ExprKind::Call, p);
  inner->depth = attr->depth + 1;
  inner->kids.push_back(std::move(attr));
  it = Expr{};
  it.kind = ExprKind::Call;
  it.pos = p;
  it.depth = inner->depth + 1;
  it.kids.push_back(node(ExprKind::Name, p, walker));
  it.kids.push_back(std::move(inner));
  return true;
}

std::optional<Ty> BodyChecker::protocol_next(Expr& e, Ty g) {
  std::string walker = next_walker(g);
  if (walker.empty()) return std::nullopt;
  Pos p = e.pos;
  ExprPtr obj = std::move(e.kids[1]);
  if (e.kids.size() == 2) {  // next(obj): obj.__next__()
    auto attr = node(ExprKind::Attribute, p, "__next__");
    attr->depth = obj->depth + 1;
    attr->kids.push_back(std::move(obj));
    e.kids.clear();
    e.kids.push_back(std::move(attr));
    e.depth = e.kids[0]->depth + 1;
  } else {  // next(obj, default): the walker's first value, or the default
    auto call = node(ExprKind::Call, p);
    call->depth = obj->depth + 1;
    call->kids.push_back(node(ExprKind::Name, p, walker));
    call->kids.push_back(std::move(obj));
    e.kids[1] = std::move(call);
  }
  e.ref = Ref::Unresolved;
  e.target.clear();
  return value(e, Ty::Error);
}

}  // namespace ppy::frontend::checking
