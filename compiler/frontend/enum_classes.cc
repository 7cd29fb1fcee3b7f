#include "enum_classes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "ppy/util/str_cat.h"
#include "written_code.h"

namespace ppy::frontend {
namespace {

/// An enum class of the module and how its uses are rewritten.
struct EnumClass {
  std::string name;
  std::map<std::string, size_t> member_index;  ///< each member's (an alias's: its first's) place
};

/// Whether `b` names `enum.Enum` / `enum.IntEnum` (or imported as `Enum`, `IntEnum`); which one.
std::optional<bool> enum_base(const Expr& b) {
  const std::string* n = nullptr;
  if (b.kind == ExprKind::Name) n = &b.str;
  if (b.kind == ExprKind::Attribute && !b.kids.empty() && b.kids[0] && b.kids[0]->kind == ExprKind::Name &&
      b.kids[0]->str == "enum")
    n = &b.str;
  if (!n) return std::nullopt;
  if (*n == "Enum") return false;
  if (*n == "IntEnum") return true;
  return std::nullopt;
}

bool is_auto(const Expr& v) {
  if (v.kind != ExprKind::Call || v.kids.size() != 1 || !v.kids[0] || !v.keywords.empty()) return false;
  const Expr& f = *v.kids[0];
  return (f.kind == ExprKind::Name && f.str == "auto") || (f.kind == ExprKind::Attribute && f.str == "auto");
}

/// Python's repr of a member value: an int's digits, a str quoted as repr() quotes it.
std::string literal(const Expr& v) {
  if (v.kind == ExprKind::Int) return std::to_string(v.ival);
  if (v.kind == ExprKind::Unary && v.str == "-" && !v.kids.empty() && v.kids[0] && v.kids[0]->kind == ExprKind::Int)
    return std::to_string(-v.kids[0]->ival);
  std::string out = "\"";
  for (char c : v.str) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

class Expander {
 public:
  Expander(const std::string& file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

  void run(ModuleAst& ast) {
    std::vector<StmtPtr> body;
    for (auto& s : ast.body) {
      if (!s) continue;
      bool is_enum =
          s->kind == StmtKind::Class && s->def && s->targets.size() == 1 && enum_base(*s->targets[0]).has_value();
      bool int_enum = is_enum && *enum_base(*s->targets[0]);
      StmtPtr taken = std::move(s);
      Stmt& c = *taken;
      body.push_back(std::move(taken));
      if (is_enum) expand(c, int_enum, body);
    }
    // Then the uses, everywhere: a function above the class may name its members.
    for (auto& s : body) rewrite(*s);
    ast.body = std::move(body);
  }

 private:
  void error(Pos p, std::string msg) { diags_.error("E1010", file_, p.line, p.col, std::move(msg)); }

  /// The class `c` as a plain one, and after it (in `body`) its members and lookups.
  void expand(Stmt& c, bool int_enum, std::vector<StmtPtr>& body) {
    const std::string& cls = c.def->name;
    EnumClass e{cls, {}};
    std::vector<std::pair<std::string, std::string>> members;  // name, value's repr (first of its value)
    std::map<std::string, size_t> by_value;
    std::vector<StmtPtr> kept;
    bool ints = false, strs = false;
    int64_t last = 0;
    for (auto& b : c.def->body) {
      if (!b) continue;
      bool member = b->kind == StmtKind::Assign && b->targets.size() == 1 && b->targets[0]->kind == ExprKind::Name;
      if (!member) {
        kept.push_back(std::move(b));
        continue;
      }
      const std::string& n = b->targets[0]->str;
      if (!b->value) continue;
      const Expr& v = *b->value;
      std::string text;
      if (is_auto(v)) {
        text = std::to_string(++last);
        ints = true;
      } else if (v.kind == ExprKind::Int || (v.kind == ExprKind::Unary && v.str == "-" && !v.kids.empty() &&
                                             v.kids[0] && v.kids[0]->kind == ExprKind::Int)) {
        text = literal(v);
        last = std::stoll(text);
        ints = true;
      } else if (v.kind == ExprKind::Str && !int_enum) {
        text = literal(v);
        strs = true;
      } else {
        error(v.pos, str_cat("the value of enum member '", n, "' is outside the ppy subset (an ",
                             int_enum ? "int literal or auto()" : "int or str literal or auto()", ")"));
        continue;
      }
      auto [at, fresh] = by_value.emplace(text, members.size());
      if (fresh) members.emplace_back(n, text);
      e.member_index[n] = at->second;
    }
    auto give_up = [&] {  // the class keeps its methods, and nothing else is said of it
      c.def->body = std::move(kept);
      c.targets.clear();
    };
    if (ints && strs) {
      error(c.pos, str_cat("enum ", cls, " mixes int and str values, which is outside the ppy subset"));
      return give_up();
    }
    if (members.empty()) {
      error(c.pos, str_cat("an enum without members (", cls, ") is outside the ppy subset"));
      return give_up();
    }
    const char* vt = strs ? "str" : "int";
    std::string text = str_cat("class ", cls, ":\n    def __init__(self, name: str, value: ", vt,
                               ") -> None:\n        self.name = name\n        self.value = value\n",
                               "    def __repr__(self) -> str:\n        return \"<", cls,
                               ".\" + self.name + \": \" + repr(self.value) + \">\"\n",
                               "    def __str__(self) -> str:\n        return ",
                               int_enum ? "str(self.value)" : str_cat("\"", cls, ".\" + self.name"), "\n");
    if (int_enum) {
      for (auto [m, op] : {std::pair{"__lt__", "<"}, {"__le__", "<="}, {"__gt__", ">"}, {"__ge__", ">="}})
        text += str_cat("    def ", m, "(self, other: \"", cls, "\") -> bool:\n        return self.value ", op,
                        " other.value\n");
      for (auto [m, op] :
           {std::pair{"__add__", "+"}, {"__sub__", "-"}, {"__mul__", "*"}, {"__floordiv__", "//"}, {"__mod__", "%"}})
        text += str_cat("    def ", m, "(self, other: int) -> int:\n        return self.value ", op, " other\n");
      for (auto [m, op] : {std::pair{"__radd__", "+"}, {"__rsub__", "-"}, {"__rmul__", "*"}})
        text += str_cat("    def ", m, "(self, other: int) -> int:\n        return other ", op, " self.value\n");
    }
    std::string list = str_cat("__ppy_", cls, "_members");
    text += str_cat(list, ": list[", cls, "] = [");
    for (size_t i = 0; i < members.size(); ++i)
      text += str_cat(i ? ", " : "", cls, "(\"", members[i].first, "\", ", members[i].second, ")");
    text += str_cat("]\n\n\ndef __ppy_", cls, "_member(i: int) -> ", cls, ":\n    return ", list, "[i]\n\n\n");
    text += str_cat("def __ppy_", cls, "_all() -> list[", cls, "]:\n    return ", list, "[:]\n\n\n");
    text +=
        str_cat("def __ppy_", cls, "_of(value: ", vt, ") -> ", cls, ":\n    for m in ", list,
                ":\n        if m.value == value:\n            return m\n    raise ValueError(repr(value) + \" is not a "
                "valid ",
                cls, "\")\n\n\n");
    text += str_cat("def __ppy_", cls, "_named(name: str) -> ", cls, ":\n    for m in ", list,
                    ":\n        if m.name == name:\n            return m\n    raise KeyError(name)\n");
    std::vector<StmtPtr> written = parse_written(text, file_);
    if (written.empty() || !written[0]->def) {
      error(c.pos, str_cat("enum ", cls, " is outside the ppy subset"));
      return give_up();
    }
    // The functions a line below the list they read (a function reads a module variable assigned above it).
    Pos below{c.pos.line + 1, c.pos.col};
    for (auto& w : written) place_written(*w, w->kind == StmtKind::Def ? below : c.pos);
    c.targets.clear();          // a plain class now
    std::set<std::string> own;  // the program's methods win over those written here (its `__str__`)
    for (auto& k : kept)
      if (k->kind == StmtKind::Def && k->def) own.insert(k->def->name);
    std::vector<StmtPtr> methods;
    for (auto& m : written[0]->def->body)
      if (!own.count(m->def->name)) methods.push_back(std::move(m));
    for (auto& k : kept) methods.push_back(std::move(k));
    c.def->body = std::move(methods);
    for (size_t i = 1; i < written.size(); ++i) body.push_back(std::move(written[i]));
    enums_[cls] = std::move(e);
  }

  // --- the program's uses ---

  const EnumClass* enum_named(const Expr& e) const {
    if (e.kind != ExprKind::Name) return nullptr;
    auto it = enums_.find(e.str);
    return it == enums_.end() ? nullptr : &it->second;
  }

  static void become_call(Expr& e, const std::string& fn, std::vector<ExprPtr> args) {
    Pos p = e.pos;
    auto callee = std::make_unique<Expr>();
    callee->kind = ExprKind::Name;
    callee->pos = p;
    callee->str = fn;
    Expr fresh;
    fresh.kind = ExprKind::Call;
    fresh.pos = p;
    fresh.kids.push_back(std::move(callee));
    for (auto& a : args) fresh.kids.push_back(std::move(a));
    fresh.depth = 2;
    for (auto& k : fresh.kids) fresh.depth = std::max(fresh.depth, k->depth + 1);
    e = std::move(fresh);
  }

  void rewrite(Expr& e) {
    // isinstance(x, Color) names the class itself.
    if ((e.kind == ExprKind::Call || e.kind == ExprKind::Attribute || e.kind == ExprKind::Subscript) &&
        (e.kids.empty() || !e.kids[0]))
      return;  // a node the parser gave up on (reported)
    bool isinstance = e.kind == ExprKind::Call && e.kids[0]->kind == ExprKind::Name && e.kids[0]->str == "isinstance";
    for (size_t i = 0; i < e.kids.size(); ++i) {
      if (!e.kids[i]) continue;
      if (i == 0 && (e.kind == ExprKind::Call || e.kind == ExprKind::Attribute || e.kind == ExprKind::Subscript) &&
          enum_named(*e.kids[0]))
        continue;  // handled below
      if (isinstance && i == 2) continue;
      rewrite(*e.kids[i]);
    }
    for (auto& k : e.keywords)
      if (k.value) rewrite(*k.value);
    if (e.kind == ExprKind::Attribute && enum_named(*e.kids[0])) {
      const EnumClass& en = *enum_named(*e.kids[0]);
      auto m = en.member_index.find(e.str);
      if (m == en.member_index.end()) return;  // a method or an unknown name: the checker says
      auto i = std::make_unique<Expr>();
      i->kind = ExprKind::Int;
      i->pos = e.pos;
      i->ival = static_cast<int64_t>(m->second);
      std::vector<ExprPtr> args;
      args.push_back(std::move(i));
      become_call(e, str_cat("__ppy_", en.name, "_member"), std::move(args));
      return;
    }
    if (e.kind == ExprKind::Call && enum_named(*e.kids[0]) && e.kids.size() == 2 && e.kids[1] && e.keywords.empty()) {
      std::string fn = str_cat("__ppy_", enum_named(*e.kids[0])->name, "_of");
      std::vector<ExprPtr> args;
      args.push_back(std::move(e.kids[1]));
      become_call(e, fn, std::move(args));
      return;
    }
    if (e.kind == ExprKind::Subscript && enum_named(*e.kids[0]) && e.kids.size() == 2 && e.kids[1]) {
      std::string fn = str_cat("__ppy_", enum_named(*e.kids[0])->name, "_named");
      std::vector<ExprPtr> args;
      args.push_back(std::move(e.kids[1]));
      rewrite(*args[0]);
      become_call(e, fn, std::move(args));
      return;
    }
    if (const EnumClass* en = enum_named(e)) become_call(e, str_cat("__ppy_", en->name, "_all"), {});
  }

  void rewrite(Stmt& s) {
    if (s.value) rewrite(*s.value);
    if (s.annotation && s.kind != StmtKind::AnnAssign) rewrite(*s.annotation);
    for (auto& t : s.targets)
      if (t && s.kind != StmtKind::Class) rewrite(*t);
    if (s.def) {
      for (auto& prm : s.def->params)
        if (prm.default_value) rewrite(*prm.default_value);
      for (auto& b : s.def->body)
        if (b) rewrite(*b);
    }
    for_each_suite(s, [&](const std::vector<StmtPtr>& body) {
      for (auto& b : body)
        if (b) rewrite(*b);
    });
  }

  const std::string& file_;
  DiagnosticEngine& diags_;
  std::map<std::string, EnumClass> enums_;
};

}  // namespace

void expand_enum_classes(ModuleAst& ast, const std::string& file, DiagnosticEngine& diags) {
  Expander(file, diags).run(ast);
}

}  // namespace ppy::frontend
