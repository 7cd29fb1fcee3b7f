#include "ppy/ir/types.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {
namespace {

constexpr const char* kScalarNames[] = {"void", "bool", "i8",  "i16", "i32", "i64", "u8",
                                        "u16",  "u32",  "u64", "f16", "f32", "f64", "index"};

/// Interns by canonical text: the text decides identity, so two spellings of one
/// type (`ptr<i64>` and `ptr<i64, generic, mut>`) must be canonicalised first.
class TypeInterner {
 public:
  const TypeStorage* get(TypeStorage&& s) {
    std::lock_guard lock(mu_);
    auto it = map_.find(s.text);
    if (it != map_.end()) return it->second;
    auto* owned = new TypeStorage(std::move(s));  // lives for the process
    map_.emplace(owned->text, owned);
    return owned;
  }
  const TypeStorage* find(std::string_view text) {
    std::lock_guard lock(mu_);
    auto it = map_.find(std::string(text));
    return it == map_.end() ? nullptr : it->second;
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, const TypeStorage*> map_;
};

TypeInterner& interner() {
  static auto* t = new TypeInterner;
  return *t;
}

std::string join_types(const std::vector<const TypeStorage*>& ts) {
  std::string out;
  for (size_t i = 0; i < ts.size(); ++i) ppy::str_append(out, i ? ", " : "", ts[i]->text);
  return out;
}

}  // namespace

Type Type::scalar(TypeKind k) {
  static const TypeStorage* cache[14] = {};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < 14; ++i) {
      TypeStorage s{static_cast<TypeKind>(i), kScalarNames[i]};
      cache[i] = interner().get(std::move(s));
    }
  });
  return Type(cache[static_cast<int>(k)]);
}

Type Type::ptr(Type elem, std::string_view space, bool is_const) {
  TypeStorage s{TypeKind::Ptr};
  s.elems = {elem.storage()};
  s.name = std::string(space);
  s.is_const = is_const;
  if (is_const)
    s.text = ppy::str_cat("ptr<", elem.str(), ", ", space, ", const>");
  else if (space != "generic")
    s.text = ppy::str_cat("ptr<", elem.str(), ", ", space, ">");
  else
    s.text = ppy::str_cat("ptr<", elem.str(), ">");
  return Type(interner().get(std::move(s)));
}

static Type wrap(TypeKind k, const char* word, Type elem) {
  TypeStorage s{k};
  s.elems = {elem.storage()};
  s.text = ppy::str_cat(word, "<", elem.str(), ">");
  return Type(interner().get(std::move(s)));
}

Type Type::buffer(Type elem) { return wrap(TypeKind::Buffer, "buffer", elem); }
Type Type::future(Type elem) { return wrap(TypeKind::Future, "future", elem); }

absl::StatusOr<Type> Type::vector(Type elem, int64_t n) {
  if (n < 1) return absl::InvalidArgumentError(ppy::str_cat("a vector has at least 1 lane, not ", n));
  if (!elem.is_scalar() || elem.is_void())
    return absl::InvalidArgumentError(ppy::str_cat("a vector's lanes are scalars, not ", elem.str()));
  TypeStorage s{TypeKind::Vector};
  s.elems = {elem.storage()};
  s.count = n;
  s.text = ppy::str_cat("vector<", elem.str(), ", ", n, ">");
  return Type(interner().get(std::move(s)));
}

Type Type::tuple(const std::vector<Type>& members) {
  TypeStorage s{TypeKind::Tuple};
  for (Type t : members) s.elems.push_back(t.storage());
  s.text = ppy::str_cat("tuple<", join_types(s.elems), ">");
  return Type(interner().get(std::move(s)));
}

Type Type::struct_(std::string_view name, const std::vector<std::pair<std::string, Type>>& fields) {
  TypeStorage s{TypeKind::Struct};
  s.name = std::string(name);
  s.text = ppy::str_cat("struct<", name);
  for (auto& [fname, ftype] : fields) {
    s.fields.push_back({fname, ftype.storage()});
    ppy::str_append(s.text, ", ", fname, ": ", ftype.str());
  }
  s.text += ">";
  return Type(interner().get(std::move(s)));
}

Type Type::dialect(std::string_view qualified_name, std::vector<DialectTypeArg> args) {
  TypeStorage s{TypeKind::Dialect};
  s.name = std::string(qualified_name);
  s.text = s.name;
  if (!args.empty()) {
    s.text += "<";
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) s.text += ", ";
      if (auto* t = std::get_if<const TypeStorage*>(&args[i])) s.text += (*t)->text;
      else if (auto* n = std::get_if<int64_t>(&args[i])) ppy::str_append(s.text, *n);
      else s.text += std::get<std::string>(args[i]);
    }
    s.text += ">";
  }
  s.args = std::move(args);
  return Type(interner().get(std::move(s)));
}

int Type::bit_width() const {
  switch (kind()) {
    case TypeKind::Bool: return 1;
    case TypeKind::I8: case TypeKind::U8: return 8;
    case TypeKind::I16: case TypeKind::U16: case TypeKind::F16: return 16;
    case TypeKind::I32: case TypeKind::U32: case TypeKind::F32: return 32;
    case TypeKind::I64: case TypeKind::U64: case TypeKind::F64: case TypeKind::Index: return 64;
    default: return 0;
  }
}

namespace {

/// Recursive-descent reader for one type; positions are offsets into `text`.
class TypeReader {
 public:
  explicit TypeReader(std::string_view text) : t_(text) {}

  absl::StatusOr<Type> read_all() {
    PPY_ASSIGN_OR_RETURN(Type ty, read());
    skip_ws();
    if (p_ != t_.size()) return fail(ppy::str_cat("unexpected '", t_.substr(p_), "' after the type"));
    return ty;
  }

 private:
  absl::Status fail(std::string msg) {
    return absl::InvalidArgumentError(ppy::str_cat("bad type '", t_, "': ", msg));
  }
  void skip_ws() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t')) ++p_;
  }
  bool eat(char c) {
    skip_ws();
    if (p_ < t_.size() && t_[p_] == c) return ++p_, true;
    return false;
  }
  std::string_view word() {
    skip_ws();
    size_t b = p_;
    while (p_ < t_.size() && (isalnum(static_cast<unsigned char>(t_[p_])) || t_[p_] == '_' || t_[p_] == '.')) ++p_;
    return t_.substr(b, p_ - b);
  }
  absl::Status expect(char c) {
    if (eat(c)) return absl::OkStatus();
    return fail(ppy::str_cat("expected '", c, "'"));
  }

  /// One type; the depth counts only the types being read, so a failed
  /// attempt (a dialect argument that is a word) leaves it as it was.
  absl::StatusOr<Type> read() {
    if (depth_ >= 64) return fail("nested too deeply");
    ++depth_;
    absl::StatusOr<Type> t = read_one();
    --depth_;
    return t;
  }

  absl::StatusOr<Type> read_one() {
    std::string_view w = word();
    if (w.empty()) return fail("expected a type");
    for (int i = 0; i < 14; ++i)
      if (w == kScalarNames[i]) return Type::scalar(static_cast<TypeKind>(i));
    absl::StatusOr<Type> out;
    if (w == "ptr") out = read_ptr();
    else if (w == "buffer" || w == "future") {
      PPY_RETURN_IF_ERROR(expect('<'));
      PPY_ASSIGN_OR_RETURN(Type e, read());
      PPY_RETURN_IF_ERROR(expect('>'));
      out = w == "buffer" ? Type::buffer(e) : Type::future(e);
    } else if (w == "vector") {
      PPY_RETURN_IF_ERROR(expect('<'));
      PPY_ASSIGN_OR_RETURN(Type e, read());
      PPY_RETURN_IF_ERROR(expect(','));
      PPY_ASSIGN_OR_RETURN(int64_t n, integer());
      PPY_RETURN_IF_ERROR(expect('>'));
      out = Type::vector(e, n);
      if (!out.ok()) return fail(std::string(out.status().message()));
    } else if (w == "tuple") out = read_tuple();
    else if (w == "struct") out = read_struct();
    else if (w.find('.') != std::string_view::npos) out = read_dialect(w);
    else return fail(ppy::str_cat("unknown type '", w, "'"));
    return out;
  }

  absl::StatusOr<int64_t> integer() {
    skip_ws();
    size_t b = p_;
    if (p_ < t_.size() && t_[p_] == '-') ++p_;
    while (p_ < t_.size() && isdigit(static_cast<unsigned char>(t_[p_]))) ++p_;
    if (p_ == b || (p_ == b + 1 && t_[b] == '-') || p_ - b > 18) return fail("expected an integer");
    return std::stoll(std::string(t_.substr(b, p_ - b)));
  }

  absl::StatusOr<Type> read_ptr() {
    PPY_RETURN_IF_ERROR(expect('<'));
    PPY_ASSIGN_OR_RETURN(Type e, read());
    std::string space = "generic";
    bool is_const = false;
    if (eat(',')) {
      std::string_view w = word();
      if (w == "const" || w == "mut") is_const = w == "const";
      else {
        static constexpr std::string_view kSpaces[] = {"generic", "stack",   "global",
                                                       "shared",  "private", "constant"};
        if (std::find(std::begin(kSpaces), std::end(kSpaces), w) == std::end(kSpaces))
          return fail(ppy::str_cat("unknown address space '", w, "'"));
        space = std::string(w);
        if (eat(',')) {
          std::string_view m = word();
          if (m != "const" && m != "mut") return fail("expected const or mut");
          is_const = m == "const";
        }
      }
    }
    PPY_RETURN_IF_ERROR(expect('>'));
    return Type::ptr(e, space, is_const);
  }

  absl::StatusOr<Type> read_tuple() {
    PPY_RETURN_IF_ERROR(expect('<'));
    std::vector<Type> members;
    if (!eat('>')) {
      do {
        PPY_ASSIGN_OR_RETURN(Type e, read());
        members.push_back(std::move(e));
      } while (eat(','));
      PPY_RETURN_IF_ERROR(expect('>'));
    }
    return Type::tuple(members);
  }

  absl::StatusOr<Type> read_struct() {
    PPY_RETURN_IF_ERROR(expect('<'));
    std::string_view name = word();
    if (name.empty()) return fail("a struct needs a name");
    std::vector<std::pair<std::string, Type>> fields;
    while (eat(',')) {
      std::string_view f = word();
      if (f.empty()) return fail("expected a field name");
      PPY_RETURN_IF_ERROR(expect(':'));
      PPY_ASSIGN_OR_RETURN(Type e, read());
      fields.emplace_back(std::string(f), std::move(e));
    }
    PPY_RETURN_IF_ERROR(expect('>'));
    return Type::struct_(name, fields);
  }

  absl::StatusOr<Type> read_dialect(std::string_view qualified) {
    std::vector<DialectTypeArg> args;
    if (eat('<')) {
      do {
        skip_ws();
        if (p_ >= t_.size()) return fail("unterminated dialect type");
        char c = t_[p_];
        if (c == '(') {
          size_t b = p_;
          int d = 0;
          for (; p_ < t_.size(); ++p_) {
            if (t_[p_] == '(') ++d;
            if (t_[p_] == ')' && --d == 0) break;
          }
          if (p_ >= t_.size()) return fail("unbalanced '('");
          ++p_;
          args.emplace_back(std::string(t_.substr(b, p_ - b)));
        } else if (isdigit(static_cast<unsigned char>(c)) || c == '-') {
          PPY_ASSIGN_OR_RETURN(int64_t n, integer());
          args.emplace_back(n);
        } else {
          size_t save = p_;
          auto sub = read();
          if (sub.ok()) {
            args.emplace_back(sub->storage());
          } else {
            p_ = save;
            std::string_view w = word();
            if (w.empty()) return fail("expected a dialect type argument");
            args.emplace_back(std::string(w));
          }
        }
      } while (eat(','));
      PPY_RETURN_IF_ERROR(expect('>'));
    }
    return Type::dialect(qualified, std::move(args));
  }

  std::string_view t_;
  size_t p_ = 0;
  int depth_ = 0;
};

}  // namespace

absl::StatusOr<Type> Type::parse(std::string_view text) {
  // Fast path: most spellings are already canonical.
  if (const TypeStorage* s = interner().find(text)) return Type(s);
  return TypeReader(text).read_all();
}

}  // namespace ppy::ir
