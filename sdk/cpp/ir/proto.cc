// Conversion between the in-memory IR and ppy.ir.v1 (proto/ppy/ir/v1/ir.proto).
//
// The writer numbers a function's values in one walk and emits in a second, so
// operands that refer forward (back edges) need no fix-ups. The reader numbers
// values as it creates them and patches the few forward references at the end
// of each function. Both keep their look-up tables across functions: a module of
// 100k ops is converted at hundreds of MB/s.

#include "ppy/ir/proto.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>

#include "ppy/ir/v1/ir.pb.h"
#include "ppy/util/str_cat.h"

namespace ppy::ir {
namespace {

namespace pb = ppy::ir::v1;

/// The IR schema this file reads and writes (`Module.schema_version`).
constexpr uint32_t kSchemaVersion = 1;
/// Deepest nesting of regions in ops, of attributes, and of types the reader
/// accepts: deep enough for any real module, shallow enough for the stack.
constexpr int kMaxRegionDepth = 256;
constexpr int kMaxAttrDepth = 256;
constexpr int kMaxTypeDepth = 64;  // as the text reader's

constexpr const char* kSpaces[] = {"generic", "stack", "global", "shared", "private", "constant"};

/// Open-addressing map from a pointer to a small id. `clear()` is O(1) (a new
/// generation), so one table serves every function of a module.
class PtrIds {
 public:
  PtrIds() { slots_.resize(64); }

  void clear() {
    size_ = 0;
    if (++gen_ == 0) {  // wrapped: old stamps could look current
      for (Slot& s : slots_) s.gen = 0;
      gen_ = 1;
    }
  }
  void put(const void* key, uint32_t id) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Slot& s = slots_[find(key)];
    if (s.gen != gen_) ++size_;
    s = {key, id, gen_};
  }
  /// The id of `key`, or -1.
  int64_t get(const void* key) const {
    const Slot& s = slots_[find(key)];
    return s.gen == gen_ ? int64_t{s.id} : -1;
  }

 private:
  struct Slot {
    const void* key = nullptr;
    uint32_t id = 0;
    uint32_t gen = 0;
  };
  /// The slot holding `key`, or the free slot where it would go.
  size_t find(const void* key) const {
    size_t mask = slots_.size() - 1;
    size_t i = (reinterpret_cast<uintptr_t>(key) * 0x9E3779B97F4A7C15ull) >> 40 & mask;
    while (slots_[i].gen == gen_ && slots_[i].key != key) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    uint32_t g = gen_;
    gen_ = 1;
    size_ = 0;
    for (Slot& s : slots_) s.gen = 0;
    for (const Slot& s : old)
      if (s.gen == g) put(s.key, s.id);
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
  uint32_t gen_ = 1;
};

/// Open-addressing map from a string (viewed, not copied) to its string index.
class StringIds {
 public:
  StringIds() { slots_.resize(256, kEmpty); }

  /// The index of `s`, or `next` after recording it under that index.
  uint32_t get_or_put(std::string_view s, uint32_t next) {
    if (size_ * 2 + 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = std::hash<std::string_view>()(s) & mask;; i = (i + 1) & mask) {
      if (slots_[i].id == kNone) {
        slots_[i] = {s, next};
        ++size_;
        return next;
      }
      if (slots_[i].key == s) return slots_[i].id;
    }
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Slot {
    std::string_view key;
    uint32_t id;
  };
  static constexpr Slot kEmpty{{}, kNone};
  void grow() {
    std::vector<Slot> old(slots_.size() * 2, kEmpty);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& s : old)
      if (s.id != kNone) get_or_put(s.key, s.id);
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// ---------------------------------------------------------------------------
// IR -> proto

class Writer {
 public:
  explicit Writer(pb::Module& out) : out_(out) {}

  void module(const Module& m) {
    out_.Clear();
    out_.set_schema_version(kSchemaVersion);
    out_.set_name(m.name());
    out_.add_strings();  // strings[0] = ""
    strings_.get_or_put("", 0);
    for (auto& [name, version] : m.dialects()) {
      pb::DialectVersion* d = out_.add_dialects();
      d->set_name(name);
      d->set_version(version);
    }
    attrs(m.attributes(), *out_.mutable_attrs());
    out_.mutable_globals()->Reserve(static_cast<int>(m.globals().size()));
    for (auto& [name, g] : m.globals()) {
      pb::Global* pg = out_.add_globals();
      pg->set_name(name);
      pg->set_visibility(static_cast<pb::Visibility>(g.visibility));
      pg->set_is_mutable(g.is_mutable);
      pg->set_type(type(g.type));
      if (g.initializer) attr(*g.initializer, *pg->mutable_initializer());
    }
    out_.mutable_functions()->Reserve(static_cast<int>(m.functions().size()));
    for (auto& f : m.functions()) function(*f, *out_.add_functions());
  }

 private:
  uint32_t str(std::string_view s) {
    if (s.empty()) return 0;
    uint32_t next = static_cast<uint32_t>(out_.strings_size());
    uint32_t id = strings_.get_or_put(s, next);
    if (id == next) out_.add_strings()->assign(s.data(), s.size());
    return id;
  }
  /// An interned string (op name, location file): cached by pointer.
  uint32_t interned(const std::string* s) {
    if (!s) return 0;
    int64_t id = interned_.get(s);
    if (id >= 0) return static_cast<uint32_t>(id);
    uint32_t sid = str(*s);
    interned_.put(s, sid);
    return sid;
  }

  uint32_t type(Type t) {
    if (!t) return type(Type::void_());  // a null type cannot travel; void stands in
    int64_t id = types_.get(t.storage());
    if (id >= 0) return static_cast<uint32_t>(id);
    const TypeStorage& s = *t.storage();
    // Elements first, so each entry refers only to earlier ones.
    std::vector<uint32_t> elems;
    for (const TypeStorage* e : s.elems) elems.push_back(type(Type(e)));
    std::vector<uint32_t> fields;
    for (const StructField& f : s.fields) fields.push_back(type(Type(f.type)));
    std::vector<int64_t> arg_types;
    for (const DialectTypeArg& a : s.args)
      arg_types.push_back(std::holds_alternative<const TypeStorage*>(a)
                              ? int64_t{type(Type(std::get<const TypeStorage*>(a)))}
                              : int64_t{-1});
    pb::Type* p = out_.add_types();
    switch (s.kind) {
      case TypeKind::Ptr: {
        pb::PtrType* pt = p->mutable_ptr();
        pt->set_elem(elems.at(0));
        int space = 0;
        for (int i = 0; i < 6; ++i)
          if (s.name == kSpaces[i]) space = i;
        pt->set_space(static_cast<pb::AddressSpace>(space));
        pt->set_is_const(s.is_const);
        break;
      }
      case TypeKind::Buffer: p->set_buffer(elems.at(0)); break;
      case TypeKind::Future: p->set_future(elems.at(0)); break;
      case TypeKind::Vector:
        p->mutable_vector()->set_elem(elems.at(0));
        p->mutable_vector()->set_lanes(s.count);
        break;
      case TypeKind::Tuple:
        for (uint32_t e : elems) p->mutable_tuple()->add_members(e);
        p->mutable_tuple();  // `tuple<>` still sets the oneof
        break;
      case TypeKind::Struct: {
        pb::StructType* st = p->mutable_struct_type();
        st->set_name(s.name);
        for (size_t i = 0; i < s.fields.size(); ++i) {
          pb::StructField* f = st->add_fields();
          f->set_name(s.fields[i].name);
          f->set_type(fields[i]);
        }
        break;
      }
      case TypeKind::Dialect: {
        pb::DialectType* dt = p->mutable_dialect();
        dt->set_name(s.name);
        for (size_t i = 0; i < s.args.size(); ++i) {
          pb::DialectTypeArg* a = dt->add_args();
          if (arg_types[i] >= 0) a->set_type(static_cast<uint32_t>(arg_types[i]));
          else if (auto* n = std::get_if<int64_t>(&s.args[i])) a->set_int_value(*n);
          else a->set_word(std::get<std::string>(s.args[i]));
        }
        break;
      }
      default: p->set_scalar(static_cast<pb::ScalarKind>(s.kind)); break;
    }
    uint32_t index = static_cast<uint32_t>(out_.types_size() - 1);
    types_.put(t.storage(), index);
    return index;
  }

  void attr(const Attribute& a, pb::Attribute& p) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, bool>) p.set_bool_value(v);
          else if constexpr (std::is_same_v<T, int64_t>) p.set_int_value(v);
          else if constexpr (std::is_same_v<T, double>) p.set_float_value(v);
          else if constexpr (std::is_same_v<T, std::string>) p.set_text(str(v));
          else if constexpr (std::is_same_v<T, SymbolRef>) p.set_symbol(str(v.name));
          else if constexpr (std::is_same_v<T, Type>) p.set_type(type(v));
          else if constexpr (std::is_same_v<T, std::shared_ptr<const AttrArray>>) {
            pb::AttributeArray* arr = p.mutable_array();
            arr->mutable_values()->Reserve(static_cast<int>(v->size()));
            for (const Attribute& e : *v) attr(e, *arr->add_values());
          } else {
            attrs(*v, *p.mutable_dict()->mutable_entries());
          }
        },
        a.storage());
  }

  void attrs(const AttrDict& d, google::protobuf::RepeatedPtrField<pb::NamedAttribute>& out) {
    if (d.empty()) return;
    out.Reserve(static_cast<int>(d.size()));
    for (auto& [key, value] : d) {
      pb::NamedAttribute* na = out.Add();
      na->set_key(str(key));
      attr(value, *na->mutable_value());
    }
  }

  void loc(const Location& l, pb::Location& p) {
    p.set_file(interned(l.file));
    p.set_line(l.line);
    p.set_col(l.col);
  }

  void function(const Function& f, pb::Function& p) {
    p.set_name(f.name());
    p.set_visibility(static_cast<pb::Visibility>(f.visibility()));
    p.mutable_params()->Reserve(static_cast<int>(f.params().size()));
    for (const Param& param : f.params()) {
      pb::Param* pp = p.add_params();
      pp->set_type(type(param.type));
      attrs(param.attrs, *pp->mutable_attrs());
      pp->set_name(str(param.name));
    }
    for (Type t : f.results()) p.add_results(type(t));
    attrs(f.attributes(), *p.mutable_attrs());
    if (f.loc()) loc(*f.loc(), *p.mutable_loc());
    if (f.is_declaration()) return;
    values_.clear();
    next_value_ = 0;
    number(f.body());
    region(f.body(), *p.mutable_body());
  }

  /// Gives every value its id (ppy.ir.v1 Function's order) and every block its
  /// index in its region.
  void number(const Region& r) {
    uint32_t bi = 0;
    for (auto& b : r.blocks()) values_.put(b.get(), bi++);
    for (auto& b : r.blocks()) {
      for (auto& a : b->arguments()) values_.put(a.get(), next_value_++);
      for (auto& op : b->operations()) {
        for (const Value& v : op->results()) values_.put(&v, next_value_++);
        for (auto& nested : op->regions()) number(*nested);
      }
    }
  }
  /// A value outside the function gets an id past its last; the reader refuses it.
  uint32_t id(const void* v) {
    int64_t id = values_.get(v);
    return id >= 0 ? static_cast<uint32_t>(id) : next_value_;
  }

  void region(const Region& r, pb::Region& p) {
    p.mutable_blocks()->Reserve(static_cast<int>(r.blocks().size()));
    for (auto& b : r.blocks()) {
      pb::Block* pb = p.add_blocks();
      pb->set_label(str(b->label()));
      size_t n = b->num_arguments();
      if (n) {
        auto* types = pb->mutable_arg_types();
        types->Reserve(static_cast<int>(n));
        bool hints = false;
        for (auto& a : b->arguments()) {
          types->AddAlreadyReserved(type(a->type()));
          hints |= !a->hint().empty();
        }
        if (hints) {
          auto* h = pb->mutable_arg_hints();
          h->Reserve(static_cast<int>(n));
          for (auto& a : b->arguments()) h->AddAlreadyReserved(str(a->hint()));
        }
      }
      auto* ops = pb->mutable_ops();
      ops->Reserve(static_cast<int>(b->operations().size()));
      for (auto& op : b->operations()) operation(*op, *ops->Add());
    }
  }

  void operation(const Operation& op, pb::Operation& p) {
    p.set_name(interned(&op.name()));
    if (size_t n = op.num_operands()) {
      auto* ids = p.mutable_operands();
      ids->Reserve(static_cast<int>(n));
      for (Value* v : op.operands()) ids->AddAlreadyReserved(id(v));
    }
    if (size_t n = op.num_results()) {
      auto* types = p.mutable_result_types();
      types->Reserve(static_cast<int>(n));
      bool hints = false;
      for (const Value& v : op.results()) {
        types->AddAlreadyReserved(type(v.type()));
        hints |= !v.hint().empty();
      }
      if (hints) {
        auto* h = p.mutable_result_hints();
        h->Reserve(static_cast<int>(n));
        for (const Value& v : op.results()) h->AddAlreadyReserved(str(v.hint()));
      }
    }
    for (const Successor& s : op.successors()) {
      pb::Successor* ps = p.add_successors();
      int64_t bi = values_.get(s.block);
      ps->set_block(bi >= 0 ? static_cast<uint32_t>(bi) : UINT32_MAX);
      auto* args = ps->mutable_args();
      args->Reserve(static_cast<int>(s.args.size()));
      for (Value* v : s.args) args->AddAlreadyReserved(id(v));
    }
    attrs(op.attributes(), *p.mutable_attrs());
    for (auto& r : op.regions()) region(*r, *p.add_regions());
    if (op.loc()) loc(*op.loc(), *p.mutable_loc());
  }

  pb::Module& out_;
  StringIds strings_;
  PtrIds interned_;
  PtrIds types_;
  PtrIds values_;  // values and blocks of the current function
  uint32_t next_value_ = 0;
};

// ---------------------------------------------------------------------------
// proto -> IR

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}
/// A name the type text can spell unambiguously (`[A-Za-z0-9_.]+`).
bool is_word(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_word_char(c)) return false;
  return true;
}

class Reader {
 public:
  Reader(const pb::Module& in, const DialectRegistry& reg) : in_(in), reg_(reg) {}

  absl::StatusOr<std::unique_ptr<Module>> module() {
    if (in_.schema_version() != kSchemaVersion)
      return fail(ppy::str_cat("the module is ppyir schema ", in_.schema_version(), "; this compiler reads schema ",
                               kSchemaVersion, " -- emit it again with this compiler"));
    if (auto s = strings(); !s.ok()) return s;
    auto m = std::make_unique<Module>(in_.name());
    m->dialects().clear();
    for (const pb::DialectVersion& d : in_.dialects()) {
      const Dialect* have = reg_.dialect(d.name());
      if (!have)
        return fail(ppy::str_cat("the module uses dialect '", d.name(), "', which this compiler does not have"));
      if (d.version() > have->version)
        return fail(ppy::str_cat("the module uses dialect '", d.name(), "' at version ", d.version(),
                                 "; this compiler has version ", have->version));
      if (!m->dialects().emplace(d.name(), d.version()).second)
        return fail(ppy::str_cat("dialect '", d.name(), "' is listed twice"));
    }
    if (auto s = types(); !s.ok()) return s;
    if (auto s = attrs(in_.attrs(), m->attributes(), 0); !s.ok()) return s;
    for (const pb::Global& pg : in_.globals()) {
      Global g;
      g.name = pg.name();
      if (auto s = visibility(pg.visibility(), g.visibility); !s.ok()) return s;
      g.is_mutable = pg.is_mutable();
      if (auto s = type(pg.type(), g.type); !s.ok()) return s;
      if (pg.has_initializer()) {
        g.initializer.emplace();
        if (auto s = attr(pg.initializer(), *g.initializer, 0); !s.ok()) return s;
      }
      std::string name = g.name;
      if (!m->globals().emplace(std::move(name), std::move(g)).second)
        return fail(ppy::str_cat("global @", pg.name(), " is defined twice"));
    }
    m->functions().reserve(in_.functions_size());
    for (const pb::Function& pf : in_.functions()) {
      auto f = function(pf);
      if (!f.ok()) return f.status();
      m->add_function(std::move(*f));
    }
    return m;
  }

 private:
  absl::Status fail(std::string_view msg) const {
    std::string m = "ppy.ir.v1.Module: ";
    if (function_) ppy::str_append(m, "function @", *function_, ": ");
    m.append(msg);
    return absl::InvalidArgumentError(m);
  }

  absl::Status strings() {
    if (in_.strings_size() > 0 && !in_.strings(0).empty())
      return fail("the string table must start with the empty string");
    strings_.reserve(in_.strings_size() + 1);
    for (const std::string& s : in_.strings()) strings_.emplace_back(s);
    if (strings_.empty()) strings_.emplace_back();
    interned_.assign(strings_.size(), nullptr);
    return absl::OkStatus();
  }
  absl::Status str(uint32_t i, std::string_view& out) const {
    if (i >= strings_.size()) [[unlikely]]
      return fail(ppy::str_cat("string index ", i, " is out of range (", strings_.size(), " strings)"));
    out = strings_[i];
    return absl::OkStatus();
  }
  absl::Status interned(uint32_t i, const std::string*& out) {
    std::string_view s;
    if (auto st = str(i, s); !st.ok()) return st;
    if (!interned_[i]) interned_[i] = intern(s);
    out = interned_[i];
    return absl::OkStatus();
  }

  // -- types

  absl::Status types() {
    size_t n = in_.types_size();
    types_.assign(n, Type());
    type_state_.assign(n, 0);
    type_nesting_.assign(n, 0);
    for (size_t i = 0; i < n; ++i)
      if (auto s = resolve(static_cast<uint32_t>(i), 0); !s.ok()) return s;
    return absl::OkStatus();
  }
  absl::Status type(uint32_t i, Type& out) const {
    if (i >= types_.size()) [[unlikely]]
      return fail(ppy::str_cat("type index ", i, " is out of range (", types_.size(), " types)"));
    out = types_[i];
    return absl::OkStatus();
  }
  /// Builds entry `i` after the entries it refers to; refuses cycles.
  absl::Status resolve(uint32_t i, int depth) {
    if (i >= types_.size())
      return fail(ppy::str_cat("type index ", i, " is out of range (", types_.size(), " types)"));
    if (type_state_[i] == 2) return absl::OkStatus();
    if (type_state_[i] == 1) return fail(ppy::str_cat("type ", i, " refers to itself"));
    if (depth > kMaxTypeDepth) return fail(ppy::str_cat("type ", i, " is nested too deeply"));
    type_state_[i] = 1;
    int nesting = 1;
    auto elem = [&](uint32_t e, Type& out) -> absl::Status {
      if (auto s = resolve(e, depth + 1); !s.ok()) return s;
      out = types_[e];
      nesting = std::max(nesting, type_nesting_[e] + 1);
      return absl::OkStatus();
    };
    const pb::Type& p = in_.types(i);
    auto bad = [&](std::string_view why) { return fail(ppy::str_cat("type ", i, ": ", why)); };
    Type t, e;
    switch (p.kind_case()) {
      case pb::Type::kScalar:
        if (p.scalar() < 0 || p.scalar() > static_cast<int>(TypeKind::Index))
          return bad(ppy::str_cat("unknown scalar kind ", static_cast<int>(p.scalar())));
        t = Type::scalar(static_cast<TypeKind>(p.scalar()));
        break;
      case pb::Type::kPtr:
        if (auto s = elem(p.ptr().elem(), e); !s.ok()) return s;
        if (p.ptr().space() < 0 || p.ptr().space() >= 6)
          return bad(ppy::str_cat("unknown address space ", static_cast<int>(p.ptr().space())));
        t = Type::ptr(e, kSpaces[p.ptr().space()], p.ptr().is_const());
        break;
      case pb::Type::kBuffer:
      case pb::Type::kFuture: {
        bool buffer = p.kind_case() == pb::Type::kBuffer;
        if (auto s = elem(buffer ? p.buffer() : p.future(), e); !s.ok()) return s;
        t = buffer ? Type::buffer(e) : Type::future(e);
        break;
      }
      case pb::Type::kVector: {
        if (auto s = elem(p.vector().elem(), e); !s.ok()) return s;
        auto v = Type::vector(e, p.vector().lanes());
        if (!v.ok()) return bad(std::string_view(v.status().message().data(), v.status().message().size()));
        t = *v;
        break;
      }
      case pb::Type::kTuple: {
        std::vector<Type> members(p.tuple().members_size());
        for (int k = 0; k < p.tuple().members_size(); ++k)
          if (auto s = elem(p.tuple().members(k), members[k]); !s.ok()) return s;
        t = Type::tuple(members);
        break;
      }
      case pb::Type::kStructType: {
        const pb::StructType& st = p.struct_type();
        if (!is_word(st.name())) return bad(ppy::str_cat("'", st.name(), "' is not a struct name"));
        std::vector<std::pair<std::string, Type>> fields(st.fields_size());
        for (int k = 0; k < st.fields_size(); ++k) {
          if (!is_word(st.fields(k).name()))
            return bad(ppy::str_cat("'", st.fields(k).name(), "' is not a field name"));
          fields[k].first = st.fields(k).name();
          if (auto s = elem(st.fields(k).type(), fields[k].second); !s.ok()) return s;
        }
        t = Type::struct_(st.name(), fields);
        break;
      }
      case pb::Type::kDialect: {
        const pb::DialectType& dt = p.dialect();
        if (!is_word(dt.name()) || dt.name().find('.') == std::string::npos)
          return bad(ppy::str_cat("'", dt.name(), "' is not a dialect type name (`d.name`)"));
        std::vector<DialectTypeArg> args;
        for (const pb::DialectTypeArg& a : dt.args()) {
          switch (a.arg_case()) {
            case pb::DialectTypeArg::kType:
              if (auto s = elem(a.type(), e); !s.ok()) return s;
              args.emplace_back(e.storage());
              break;
            case pb::DialectTypeArg::kIntValue: args.emplace_back(a.int_value()); break;
            case pb::DialectTypeArg::kWord:
              if (!valid_word_arg(a.word()))
                return bad(ppy::str_cat("'", a.word(), "' is not a dialect type argument"));
              args.emplace_back(a.word());
              break;
            default: return bad("a dialect type argument is empty");
          }
        }
        t = Type::dialect(dt.name(), std::move(args));
        break;
      }
      default: return bad("the type is empty");
    }
    if (nesting > kMaxTypeDepth) return fail(ppy::str_cat("type ", i, " is nested too deeply"));
    types_[i] = t;
    type_state_[i] = 2;
    type_nesting_[i] = nesting;
    return absl::OkStatus();
  }
  /// A bare word that does not read as a number, or a balanced `(...)`.
  static bool valid_word_arg(std::string_view w) {
    if (w.empty()) return false;
    if (w.front() == '(') {
      int depth = 0;
      for (size_t i = 0; i < w.size(); ++i) {
        if (w[i] == '(') ++depth;
        if (w[i] == ')' && --depth == 0) return i + 1 == w.size();
      }
      return false;
    }
    return is_word(w) && !(w.front() >= '0' && w.front() <= '9');
  }

  // -- attributes

  absl::Status attr(const pb::Attribute& p, Attribute& out, int depth) {
    switch (p.value_case()) {
      case pb::Attribute::kBoolValue: out = Attribute(p.bool_value()); break;
      case pb::Attribute::kIntValue: out = Attribute(static_cast<int64_t>(p.int_value())); break;
      case pb::Attribute::kFloatValue: out = Attribute(p.float_value()); break;
      case pb::Attribute::kText: {
        std::string_view s;
        if (auto st = str(p.text(), s); !st.ok()) return st;
        out = Attribute(s);
        break;
      }
      case pb::Attribute::kSymbol: {
        std::string_view s;
        if (auto st = str(p.symbol(), s); !st.ok()) return st;
        out = Attribute(SymbolRef{std::string(s)});
        break;
      }
      case pb::Attribute::kType: {
        Type t;
        if (auto s = type(p.type(), t); !s.ok()) return s;
        out = Attribute(t);
        break;
      }
      case pb::Attribute::kArray: {
        if (depth >= kMaxAttrDepth) return fail("an attribute is nested too deeply");
        AttrArray arr(p.array().values_size());
        for (int i = 0; i < p.array().values_size(); ++i)
          if (auto s = attr(p.array().values(i), arr[i], depth + 1); !s.ok()) return s;
        out = Attribute(std::move(arr));
        break;
      }
      case pb::Attribute::kDict: {
        if (depth >= kMaxAttrDepth) return fail("an attribute is nested too deeply");
        AttrDict d;
        if (auto s = attrs(p.dict().entries(), d, depth + 1); !s.ok()) return s;
        out = Attribute(std::move(d));
        break;
      }
      default: return fail("an attribute has no value");
    }
    return absl::OkStatus();
  }

  absl::Status attrs(const google::protobuf::RepeatedPtrField<pb::NamedAttribute>& in, AttrDict& out, int depth) {
    for (const pb::NamedAttribute& na : in) {
      std::string_view key;
      if (auto s = str(na.key(), key); !s.ok()) return s;
      if (!na.has_value()) return fail(ppy::str_cat("attribute '", key, "' has no value"));
      Attribute v;
      if (auto s = attr(na.value(), v, depth); !s.ok()) return s;
      size_t before = out.size();
      out.set(key, std::move(v));
      if (out.size() == before) return fail(ppy::str_cat("attribute '", key, "' appears twice"));
    }
    return absl::OkStatus();
  }

  absl::Status loc(const pb::Location& p, std::optional<Location>& out) {
    Location l;
    if (auto s = interned(p.file(), l.file); !s.ok()) return s;
    l.line = p.line();
    l.col = p.col();
    out = l;
    return absl::OkStatus();
  }

  absl::Status visibility(int v, Visibility& out) const {
    if (v < 0 || v > static_cast<int>(Visibility::Extern)) return fail(ppy::str_cat("unknown visibility ", v));
    out = static_cast<Visibility>(v);
    return absl::OkStatus();
  }

  // -- functions

  absl::StatusOr<std::unique_ptr<Function>> function(const pb::Function& p) {
    function_ = &p.name();
    std::vector<Param> params(p.params_size());
    for (int i = 0; i < p.params_size(); ++i) {
      const pb::Param& pp = p.params(i);
      if (auto s = type(pp.type(), params[i].type); !s.ok()) return s;
      if (auto s = attrs(pp.attrs(), params[i].attrs, 0); !s.ok()) return s;
      std::string_view name;
      if (auto s = str(pp.name(), name); !s.ok()) return s;
      params[i].name = std::string(name);
    }
    std::vector<Type> results(p.results_size());
    for (int i = 0; i < p.results_size(); ++i)
      if (auto s = type(p.results(i), results[i]); !s.ok()) return s;
    auto f = std::make_unique<Function>(p.name(), std::move(params), std::move(results));
    Visibility vis = Visibility::Public;
    if (auto s = visibility(p.visibility(), vis); !s.ok()) return s;
    f->set_visibility(vis);
    if (auto s = attrs(p.attrs(), f->attributes(), 0); !s.ok()) return s;
    if (p.has_loc()) {
      std::optional<Location> l;
      if (auto s = loc(p.loc(), l); !s.ok()) return s;
      f->set_loc(l);
    }
    values_.clear();
    fixups_.clear();
    if (auto s = region(p.body(), f->body(), 0); !s.ok()) return s;
    for (auto [slot, id] : fixups_) {
      if (id >= values_.size())
        return fail(ppy::str_cat("value id ", id, " is not defined (the function has ", values_.size(), " values)"));
      *slot = values_[id];
    }
    function_ = nullptr;
    return f;
  }

  absl::Status region(const pb::Region& p, Region& r, int depth) {
    if (depth > kMaxRegionDepth) return fail("regions are nested too deeply");
    r.blocks().reserve(p.blocks_size());
    for (const pb::Block& pb : p.blocks()) {
      std::string_view label;
      if (auto s = str(pb.label(), label); !s.ok()) return s;
      r.add_block(std::string(label));
    }
    for (int bi = 0; bi < p.blocks_size(); ++bi)
      if (auto s = block(p.blocks(bi), *r.blocks()[bi], depth); !s.ok()) return s;
    return absl::OkStatus();
  }

  absl::Status block(const pb::Block& p, Block& b, int depth) {
    int n = p.arg_types_size();
    if (p.arg_hints_size() != 0 && p.arg_hints_size() != n)
      return fail(ppy::str_cat("block ^", b.label(), " has ", n, " argument(s) but ", p.arg_hints_size(), " hint(s)"));
    for (int i = 0; i < n; ++i) {
      Type t;
      if (auto s = type(p.arg_types(i), t); !s.ok()) return s;
      std::string_view hint;
      if (p.arg_hints_size())
        if (auto s = str(p.arg_hints(i), hint); !s.ok()) return s;
      values_.push_back(b.add_argument(t, std::string(hint)));
    }
    b.operations().reserve(p.ops_size());
    for (const pb::Operation& op : p.ops())
      if (auto s = operation(op, b, depth); !s.ok()) return s;
    return absl::OkStatus();
  }

  /// `id` as a value, or null with a fix-up recorded by the caller.
  Value* value(uint32_t id) const { return id < values_.size() ? values_[id] : nullptr; }

  absl::Status operation(const pb::Operation& p, Block& b, int depth) {
    std::string_view name;
    if (auto s = str(p.name(), name); !s.ok()) return s;
    if (name.empty()) return fail(ppy::str_cat("block ^", b.label(), ": an operation has no name"));
    int nres = p.result_types_size();
    if (p.result_hints_size() != 0 && p.result_hints_size() != nres)
      return fail(ppy::str_cat(name, " has ", nres, " result(s) but ", p.result_hints_size(), " hint(s)"));
    result_types_.resize(nres);
    for (int i = 0; i < nres; ++i)
      if (auto s = type(p.result_types(i), result_types_[i]); !s.ok()) return s;
    AttrDict attributes;
    if (auto s = attrs(p.attrs(), attributes, 0); !s.ok()) return s;
    std::optional<Location> l;
    if (p.has_loc())
      if (auto s = loc(p.loc(), l); !s.ok()) return s;

    const uint32_t* ids = p.operands().data();
    int nops = p.operands_size();
    std::vector<Value*> operands(nops);
    bool forward = false;
    for (int i = 0; i < nops; ++i) forward |= !(operands[i] = value(ids[i]));

    Operation* op = b.append(Operation::create(name, std::move(operands), result_types_, std::move(attributes), l));
    if (forward)
      for (int i = 0; i < nops; ++i)
        if (!op->operands()[i]) fixups_.emplace_back(&op->operands()[i], ids[i]);
    for (int i = 0; i < nres; ++i) {
      Value* v = op->result(i);
      if (p.result_hints_size()) {
        std::string_view hint;
        if (auto s = str(p.result_hints(i), hint); !s.ok()) return s;
        if (!hint.empty()) v->set_hint(std::string(hint));
      }
      values_.push_back(v);
    }

    if (p.successors_size()) {
      Region& r = *b.parent();
      op->successors().resize(p.successors_size());
      for (int i = 0; i < p.successors_size(); ++i) {
        const pb::Successor& ps = p.successors(i);
        if (ps.block() >= r.blocks().size())
          return fail(ppy::str_cat(name, " branches to block ", ps.block(), " of a region of ", r.blocks().size(),
                                   " block(s)"));
        Successor& s = op->successors()[i];
        s.block = r.blocks()[ps.block()].get();
        s.args.resize(ps.args_size());
        for (int k = 0; k < ps.args_size(); ++k)
          if (!(s.args[k] = value(ps.args(k)))) fixups_.emplace_back(&s.args[k], ps.args(k));
      }
    }
    for (const pb::Region& pr : p.regions())
      if (auto s = region(pr, op->add_region(), depth + 1); !s.ok()) return s;
    return absl::OkStatus();
  }

  const pb::Module& in_;
  const DialectRegistry& reg_;
  const std::string* function_ = nullptr;  // for messages
  std::vector<std::string_view> strings_;
  std::vector<const std::string*> interned_;
  std::vector<Type> types_;
  std::vector<uint8_t> type_state_;  // 0 unseen, 1 being built, 2 built
  std::vector<int> type_nesting_;    // `ptr<i64>` is 2 deep
  std::vector<Type> result_types_;   // scratch
  std::vector<Value*> values_;       // by id, current function
  std::vector<std::pair<Value**, uint32_t>> fixups_;
};

}  // namespace

void to_proto(const Module& m, pb::Module& out) { Writer(out).module(m); }

absl::StatusOr<std::unique_ptr<Module>> from_proto(const pb::Module& in, const DialectRegistry& reg) {
  return Reader(in, reg).module();
}

namespace {
google::protobuf::ArenaOptions arena_options(size_t bytes) {
  google::protobuf::ArenaOptions o;
  o.start_block_size = std::clamp<size_t>(bytes, 4096, size_t{64} << 20);
  o.max_block_size = size_t{64} << 20;
  return o;
}
}  // namespace

std::string to_proto_bytes(const Module& m) {
  google::protobuf::Arena arena(arena_options(size_t{1} << 20));
  auto* msg = google::protobuf::Arena::CreateMessage<pb::Module>(&arena);
  to_proto(m, *msg);
  std::string out;
  msg->SerializeToString(&out);
  return out;
}

absl::StatusOr<std::unique_ptr<Module>> from_proto_bytes(std::string_view bytes, const DialectRegistry& reg) {
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    return absl::InvalidArgumentError(
        ppy::str_cat("ppy.ir.v1.Module: ", bytes.size(), " bytes is more than one message may hold (2 GiB)"));
  // The message tree takes a few times the wire size; one block holds most of it.
  google::protobuf::Arena arena(arena_options(bytes.size() * 4));
  auto* msg = google::protobuf::Arena::CreateMessage<pb::Module>(&arena);
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  // Each region level costs three message levels (Region, Block, Operation).
  in.SetRecursionLimit(4 * kMaxRegionDepth);
  if (!msg->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    return absl::InvalidArgumentError("ppy.ir.v1.Module: the bytes are not a valid serialized ppy.ir.v1.Module");
  return from_proto(*msg, reg);
}

}  // namespace ppy::ir
