// The body checker's narrowing of optional fields (issue 32): `self.left is not
// None` or `while node.next is not None` proves the field `self.left` /
// `node.next` holds a value until the object's local or that field is assigned,
// as mypy reads it. A fact is the field's path over a local ("node.next",
// "self.head.next") in Flow::not_none beside the locals' names (check_tuple.cc).
#include "body_checker.h"

namespace ppy::frontend::checking {

std::string BodyChecker::field_path(const Expr& x) const {
  if (x.kind == ExprKind::Name) return x.ref == Ref::Local && types_.count(x.str) ? x.str : std::string();
  if (x.kind != ExprKind::Attribute || x.kids.size() != 1 || x.ref == Ref::Const) return {};
  std::string base = field_path(*x.kids[0]);
  return base.empty() || !is_class(x.kids[0]->ty) ? std::string() : base + "." + x.str;
}

Ty BodyChecker::field_narrowed(const Expr& e, Ty ft) {
  if (!is_optional(ft)) return ft;
  std::string path = field_path(e);
  if (path.empty() || !flow_.not_none.count(path)) return ft;
  effect("raises");  // a call since the test may have set it back to None (lower_field_init.cc's attribute_owner)
  return optional_inner(ft);
}

void BodyChecker::forget_fields_of(const std::string& path) {
  std::string prefix = path + ".";
  for (auto it = flow_.not_none.lower_bound(prefix);
       it != flow_.not_none.end() && it->compare(0, prefix.size(), prefix) == 0;)
    it = flow_.not_none.erase(it);
}

void BodyChecker::forget_field(const std::string& attr) {
  std::string tail = "." + attr;
  for (auto it = flow_.not_none.begin(); it != flow_.not_none.end();) {
    size_t at = it->find(tail);  // the field itself, through any object that may alias it, and what it holds
    bool hit = at != std::string::npos && (at + tail.size() == it->size() || (*it)[at + tail.size()] == '.');
    it = hit ? flow_.not_none.erase(it) : std::next(it);
  }
}

void BodyChecker::after_field_assign(const Expr& t, Ty ft, Ty vt) {
  forget_field(t.str);
  std::string path = field_path(t);
  if (!path.empty() && is_optional(ft) && vt != Ty::Error && !is_optional(vt) && !is_none_value(vt))
    flow_.not_none.insert(path);
}

}  // namespace ppy::frontend::checking
