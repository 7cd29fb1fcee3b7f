#include "hash_key_helpers.h"

#include <map>
#include <vector>

#include "dataclass_options.h"
#include "object_list_helpers.h"
#include "ppy/util/str_cat.h"
#include "written_code.h"

namespace ppy::frontend {
namespace {

/// How a class's instances hash (Python's `__hash__` as the class statement
/// and @dataclass leave it).
enum class Hashing { Identity, Unhashable, ByHash, ByFields };

/// `$` stands for the class, `%` for the fields' tuple type, `@` for the tuple of `k`'s fields.
/// The index dict is held in a list: a function reads module variables of scalars and lists only.
constexpr const char* kByHash = R"(
__ppy_heads_$: list[dict[int, int]] = [{}]
__ppy_keys_$: list[$] = []
__ppy_chain_$: list[int] = []


def __ppy_key_$(k: $) -> $:
    heads = __ppy_heads_$[0]
    keys = __ppy_keys_$
    chain = __ppy_chain_$
    h = k.__hash__()
    i = heads.get(h, -1)
    while i >= 0:
        q = keys[i]
        if q is k or q == k:
            return q
        i = chain[i]
    chain.append(heads.get(h, -1))
    heads[h] = len(keys)
    keys.append(k)
    return k
)";

constexpr const char* kByFields = R"(
__ppy_heads_$: list[dict[%, int]] = [{}]
__ppy_keys_$: list[$] = []


def __ppy_key_$(k: $) -> $:
    heads = __ppy_heads_$[0]
    keys = __ppy_keys_$
    f = @
    i = heads.get(f, -1)
    if i >= 0:
        return keys[i]
    heads[f] = len(keys)
    keys.append(k)
    return k
)";

std::string instantiate(const char* text, const std::string& cls, const std::string& tuple_type,
                        const std::string& fields) {
  std::string out;
  for (const char* c = text; *c; ++c) {
    if (*c == '$')
      out += cls;
    else if (*c == '%')
      out += tuple_type;
    else if (*c == '@')
      out += fields;
    else
      out += *c;
  }
  return out;
}

/// A plain `@dataclass` (no call) or the call `@dataclass(...)`.
bool plain_dataclass(const Stmt& s) {
  for (auto& d : s.def->decorators)
    if (d && (d->kind == ExprKind::Name || d->kind == ExprKind::Attribute) && d->str == "dataclass") return true;
  return false;
}

/// A class's fields as the helper names them: its base's first, each an int or a str.
struct Fields {
  std::vector<std::string> names;
  std::vector<std::string> types;
  bool keyable = true;  ///< every field an int or a str
};

}  // namespace

std::string hash_key_helper(const std::string& cls) { return list_helper_name("key", cls); }

bool object_key_helped(Ty cls) {
  for (Ty t = cls; is_class(t); t = class_info(t)->base)
    if (class_info(t)->dataclass || class_info(t)->methods.count("__eq__")) return true;
  return false;
}

bool unhashable_class(Ty cls) {
  const ClassInfo& c = *class_info(cls);
  auto defines = [&](Ty t, const char* m) {
    auto it = c.methods.find(m);
    return it != c.methods.end() && it->second == t;
  };
  for (Ty t = cls; is_class(t); t = class_info(t)->base) {
    if (defines(t, "__hash__")) return false;
    if (class_info(t)->dataclass) return !class_info(t)->frozen;
    if (defines(t, "__eq__")) return true;
  }
  return false;
}

bool helped_key(Ty key) {
  for (Ty e : tuple_elems(key))
    if (helped_key(e)) return true;
  return is_class(key) && object_key_helped(key);
}

void add_hash_key_helpers(ModuleAst& ast, const std::string& file) {
  std::map<std::string, Hashing> hashing;
  std::map<std::string, bool> has_eq;
  std::map<std::string, Fields> fields;
  add_after_each_class(ast, [&](Stmt& c) -> std::vector<StmtPtr> {
    const std::string& name = c.def->name;
    std::string base;
    if (!c.targets.empty() && c.targets[0] && c.targets[0]->kind == ExprKind::Name && hashing.count(c.targets[0]->str))
      base = c.targets[0]->str;
    Fields& mine = fields[name];
    if (!base.empty()) mine = fields[base];
    bool own_eq = false, own_hash = false;
    for (auto& b : c.def->body) {
      if (!b) continue;
      if (b->kind == StmtKind::Def && b->def) {
        own_eq = own_eq || b->def->name == "__eq__";
        own_hash = own_hash || b->def->name == "__hash__";
      }
      if (b->kind == StmtKind::AnnAssign && b->targets.size() == 1 && b->targets[0] &&
          b->targets[0]->kind == ExprKind::Name) {
        const Expr* a = b->annotation.get();
        bool simple = a && a->kind == ExprKind::Name && (a->str == "int" || a->str == "str");
        mine.names.push_back(b->targets[0]->str);
        mine.types.push_back(simple ? a->str : "");
        mine.keyable = mine.keyable && simple;
      }
    }
    const Expr* deco = dataclass_call(c);
    bool dataclass = deco || plain_dataclass(c);
    bool eq = own_eq || dataclass || (!base.empty() && has_eq[base]);
    has_eq[name] = eq;
    Hashing h = base.empty() ? Hashing::Identity : hashing[base];
    if (own_hash)
      h = eq ? Hashing::ByHash : Hashing::Identity;
    else if (dataclass)
      h = deco && dataclass_flag(*deco, "frozen", false) ? Hashing::ByFields : Hashing::Unhashable;
    else if (own_eq)
      h = Hashing::Unhashable;  // Python sets __hash__ to None beside an __eq__ of the class's own
    hashing[name] = h;
    std::string text;
    if (h == Hashing::ByHash) text = instantiate(kByHash, name, "", "");
    if (h == Hashing::ByFields && mine.keyable && !mine.names.empty()) {
      std::string types = "tuple[";
      for (size_t i = 0; i < mine.types.size(); ++i) str_append(types, i ? ", " : "", mine.types[i]);
      text = instantiate(kByFields, name, types + "]", fields_tuple("k", mine.names));
    }
    // None for identity and for unhashable classes (lowering raises the TypeError where the key is
    // used, so the traceback is Python's), nor for fields the helper cannot key by (the checker refuses).
    if (text.empty()) return {};
    std::vector<StmtPtr> written = parse_written(text, file);
    for (auto& w : written) {
      place_written(*w, c.pos);  // reported (if ever) at the class it serves
      if (w->def) {  // after its module variables: a function uses only those assigned above it
        w->pos.line += 1;
        w->def->pos.line += 1;
      }
    }
    return written;
  });
}

}  // namespace ppy::frontend
