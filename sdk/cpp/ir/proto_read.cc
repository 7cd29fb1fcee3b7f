// ppy.ir.v1 bytes -> IR (proto/ppy/ir/v1/ir.proto).
//
// Functions in the canonical form are read straight from their wire bytes;
// any other form is parsed by protobuf and written again in that form, so
// protobuf alone says what a module may be. The reader numbers values as it
// creates them and patches the few forward references at the end of each
// function.

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/stubs/common.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <optional>

#include "ppy/ir/open_dialect.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/v1/ir.pb.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "proto_schema.h"
#include "wire_fields.h"

namespace ppy::ir {
namespace {

using namespace proto_schema;

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

static_assert(kMaxMessageDepth == 4 * kMaxRegionDepth);

/// Parses `bytes` into `msg` (cleared first), allowing `depth` levels of
/// nesting: kMaxMessageDepth for the Module, one less for a function in it.
bool parse_deep(std::string_view bytes, google::protobuf::MessageLite& msg, int depth) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetRecursionLimit(depth);
  msg.Clear();
  return msg.MergeFromCodedStream(&in) && in.ConsumedEntireMessage();
}

constexpr const char* kNotAModule =
    "ppy.ir.v1.Module: the bytes are not a valid serialized ppy.ir.v1.Module";

/// `m` as protobuf writes it, without unknown fields: the form the function
/// reader takes.
std::string canonical(const google::protobuf::Message& m) {
  std::unique_ptr<google::protobuf::Message> copy(m.New());
  copy->CopyFrom(m);
  copy->DiscardUnknownFields();
  return copy->SerializeAsString();
}

// What each field of a function's messages is (ir.proto), by field number.
using wire::Kind;
constexpr std::array<Kind, 8> kFunctionFields = {Kind::None,   Kind::String,   Kind::Varint,  Kind::Repeated,
                                                 Kind::Packed, Kind::Repeated, Kind::Message, Kind::Message};
constexpr std::array<Kind, 4> kParamFields = {Kind::None, Kind::Varint, Kind::Repeated, Kind::Varint};
/// Region.blocks, AttributeArray.values, AttributeDict.entries: one repeated message.
constexpr std::array<Kind, 2> kListFields = {Kind::None, Kind::Repeated};
constexpr std::array<Kind, 5> kBlockFields = {Kind::None, Kind::Varint, Kind::Packed, Kind::Packed, Kind::Repeated};
constexpr std::array<Kind, 3> kSuccessorFields = {Kind::None, Kind::Varint, Kind::Packed};
/// One of: bool, sint64, double, text, symbol, type, array, dict.
constexpr std::array<Kind, 9> kAttributeFields = {Kind::None,   Kind::Varint,  Kind::Varint,
                                                  Kind::Fixed64, Kind::Varint, Kind::Varint,
                                                  Kind::Varint, Kind::Message, Kind::Message};

/// What `top_field` found at the front of a module's bytes.
enum class Cut {
  Field,  ///< a whole top-level field
  More,   ///< the bytes end inside a field: more may complete it
  Bad,    ///< no bytes that follow make this a module
};

/// Measures the top-level field at the front of `bytes` as protobuf reads it:
/// its tag, its whole `size`, and for a length-delimited field its `payload`.
/// When the bytes end inside a length-delimited field, `size` is at least
/// how many bytes the whole field will need.
Cut top_field(std::string_view bytes, uint64_t& tag, size_t& size, std::string_view& payload) {
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  size_t wanted = 0;
  // A varint of at most `max` bytes, read as protobuf reads one: ten for a
  // value, five for a tag (which keeps its low 32 bits) or a length.
  auto varint = [&](uint64_t& v, int max) {
    const char* from = p;
    if (wire::varint(p, end, v, max)) return Cut::Field;
    return p == end && p - from < max ? Cut::More : Cut::Bad;  // cut short, or too long
  };
  auto read_tag = [&](uint64_t& t) {
    Cut c = varint(t, 5);
    if (c == Cut::Field && ((t &= 0xffffffffu) >> 3) == 0) return Cut::Bad;
    return c;
  };
  // Moves past one field's payload; a group (which protobuf keeps among the
  // unknown fields) is walked to its matching end, nested to a bound.
  auto skip = [&](auto& self, uint64_t field_tag, int depth) -> Cut {
    uint64_t v;
    switch (field_tag & 7) {
      case 0: return varint(v, 10);
      case 1:
      case 5: {
        size_t n = (field_tag & 7) == 1 ? 8 : 4;
        if (static_cast<size_t>(end - p) < n) return Cut::More;
        p += n;
        return Cut::Field;
      }
      case 2: {
        if (Cut c = varint(v, 5); c != Cut::Field) return c;
        if (v > static_cast<uint64_t>(end - p)) {
          wanted = static_cast<size_t>(p - bytes.data()) + v;
          return v > INT_MAX ? Cut::Bad : Cut::More;
        }
        payload = std::string_view(p, static_cast<size_t>(v));
        p += v;
        return Cut::Field;
      }
      case 3:
        if (depth >= kMaxMessageDepth) return Cut::Bad;
        for (;;) {
          uint64_t inner;
          if (Cut c = read_tag(inner); c != Cut::Field) return c;
          if ((inner & 7) == 4) return inner >> 3 == field_tag >> 3 ? Cut::Field : Cut::Bad;
          if (Cut c = self(self, inner, depth + 1); c != Cut::Field) return c;
        }
      default: return Cut::Bad;  // an end without a start
    }
  };
  Cut c = read_tag(tag);
  if (c == Cut::Field) c = skip(skip, tag, 0);
  size = c == Cut::More && wanted ? wanted : static_cast<size_t>(p - bytes.data());
  return c;
}

/// A module's top-level fields, sorted: its functions (field 8), its string
/// table (field 6, viewed in place: the bulk of a data-heavy module) and
/// everything else (`rest`, a serialized Module without either), for
/// protobuf to parse.
struct ModuleParts {
  std::string rest;
  std::vector<std::string_view> functions, strings;

  /// Empties the lists, keeping their room.
  void clear() {
    rest.clear();
    functions.clear();
    strings.clear();
  }

  /// Files one whole field; false for a string that is not UTF-8, which
  /// protobuf refuses on parsing.
  bool add(uint64_t tag, std::string_view field, std::string_view payload) {
    if ((tag & 7) == 2 && tag >> 3 == 8) {
      functions.push_back(payload);
    } else if ((tag & 7) == 2 && tag >> 3 == 6) {
      if (!google::protobuf::internal::IsStructurallyValidUTF8(payload.data(), static_cast<int>(payload.size())))
        return false;
      strings.push_back(payload);
    } else {
      rest.append(field);
    }
    return true;
  }
};

/// Sorts the fields of a whole module; false when its top-level wire is malformed.
bool split_module(std::string_view bytes, ModuleParts& parts) {
  while (!bytes.empty()) {
    uint64_t tag;
    size_t size;
    std::string_view payload;
    if (top_field(bytes, tag, size, payload) != Cut::Field || !parts.add(tag, bytes.substr(0, size), payload))
      return false;
    bytes.remove_prefix(size);
  }
  return true;
}

/// What a ModuleReader read before the module was whole, by index; empty:
/// read at the end.
struct EarlyReads {
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<std::optional<Global>> globals;
};

class Reader {
 public:
  /// Reads `in`; its functions come from `slices` when given (the bytes
  /// road reads them one at a time), else from `in` itself. A function
  /// or global `early` holds was read before the module was whole, and is
  /// taken as is.
  Reader(const pb::Module& in, const DialectRegistry& reg, const std::vector<std::string_view>* slices = nullptr,
         const std::vector<std::string_view>* strings = nullptr,
         EarlyReads* early = nullptr)
      : in_(in), reg_(reg), slices_(slices), string_table_(strings), early_(early) {}

  absl::StatusOr<std::unique_ptr<Module>> module() {
    if (in_.schema_version() != kSchemaVersion)
      return fail(ppy::str_cat("the module is ppyir schema ", in_.schema_version(), "; this compiler reads schema ",
                               kSchemaVersion, " -- emit it again with this compiler"));
    PPY_RETURN_IF_ERROR(strings());
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
    PPY_RETURN_IF_ERROR(types());
    for (const pb::NamedAttribute& na : in_.attrs())
      PPY_RETURN_IF_ERROR(named_attr(canonical(na), m->attributes(), 0, 1));
    for (size_t i = 0; i < static_cast<size_t>(in_.globals_size()); ++i) {
      const pb::Global& pg = in_.globals(static_cast<int>(i));
      Global g;
      if (early_ && i < early_->globals.size() && early_->globals[i]) g = std::move(*early_->globals[i]);
      else
        PPY_RETURN_IF_ERROR(global(pg, g));
      std::string name = g.name;
      if (!m->globals().emplace(std::move(name), std::move(g)).second)
        return fail(ppy::str_cat("global @", pg.name(), " is defined twice"));
    }
    const size_t n = slices_ ? slices_->size() : static_cast<size_t>(in_.functions_size());
    m->functions().reserve(n);
    for (size_t i = 0; i < n; ++i) {
      PPY_ASSIGN_OR_RETURN(auto f, read_function(i));
      m->add_function(std::move(f));
    }
    return m;
  }

 private:
  absl::Status fail(std::string_view msg) const {
    std::string m = "ppy.ir.v1.Module: ";
    if (in_function_) ppy::str_append(m, "function @", function_, ": ");
    m.append(msg);
    return absl::InvalidArgumentError(m);
  }

  absl::Status strings() {
    if (string_table_) {
      strings_ = *string_table_;
    } else {
      strings_.reserve(in_.strings_size() + 1);
      for (const std::string& s : in_.strings()) strings_.emplace_back(s);
    }
    if (!strings_.empty() && !strings_[0].empty()) return fail("the string table must start with the empty string");
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
    PPY_RETURN_IF_ERROR(str(i, s));
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
    for (size_t i = 0; i < n; ++i) PPY_RETURN_IF_ERROR(resolve(static_cast<uint32_t>(i), 0));
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
      PPY_RETURN_IF_ERROR(resolve(e, depth + 1));
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
        PPY_RETURN_IF_ERROR(elem(p.ptr().elem(), e));
        if (p.ptr().space() < 0 || p.ptr().space() >= 6)
          return bad(ppy::str_cat("unknown address space ", static_cast<int>(p.ptr().space())));
        t = Type::ptr(e, kSpaces[p.ptr().space()], p.ptr().is_const());
        break;
      case pb::Type::kBuffer:
      case pb::Type::kFuture: {
        bool buffer = p.kind_case() == pb::Type::kBuffer;
        PPY_RETURN_IF_ERROR(elem(buffer ? p.buffer() : p.future(), e));
        t = buffer ? Type::buffer(e) : Type::future(e);
        break;
      }
      case pb::Type::kVector: {
        PPY_RETURN_IF_ERROR(elem(p.vector().elem(), e));
        auto v = Type::vector(e, p.vector().lanes());
        if (!v.ok()) return bad(std::string_view(v.status().message().data(), v.status().message().size()));
        t = *v;
        break;
      }
      case pb::Type::kTuple: {
        std::vector<Type> members(p.tuple().members_size());
        for (int k = 0; k < p.tuple().members_size(); ++k) PPY_RETURN_IF_ERROR(elem(p.tuple().members(k), members[k]));
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
          PPY_RETURN_IF_ERROR(elem(st.fields(k).type(), fields[k].second));
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
              PPY_RETURN_IF_ERROR(elem(a.type(), e));
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

  /// An attribute held in one varint field: bool (1), int (2), text (4),
  /// symbol (5) or type (6).
  absl::Status varint_attr(uint32_t field, uint64_t v, Attribute& out) {
    switch (field) {
      case 1: out = Attribute(v != 0); break;
      case 2: out = Attribute(static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1))); break;  // zigzag
      case 4:
      case 5: {
        std::string_view s;
        PPY_RETURN_IF_ERROR(str(static_cast<uint32_t>(v), s));
        out = field == 4 ? Attribute(s) : Attribute(SymbolRef{std::string(s)});
        break;
      }
      default: {
        Type t;
        PPY_RETURN_IF_ERROR(type(static_cast<uint32_t>(v), t));
        out = Attribute(t);
      }
    }
    return absl::OkStatus();
  }

  absl::Status attr(std::string_view bytes, Attribute& out, int depth, int level) {
    // Most values are one varint field (a flag, a number, a string's index):
    // read without the slots.
    if (!bytes.empty() && level <= kMaxMessageDepth) {
      uint8_t tag = static_cast<uint8_t>(bytes[0]);
      uint32_t field = tag >> 3;
      if ((tag & 7) == 0 && field >= 1 && field <= 6 && field != 3) {
        const char* p = bytes.data() + 1;
        const char* const end = bytes.data() + bytes.size();
        uint64_t v;
        if (wire::varint(p, end, v) && p == end) return varint_attr(field, v, out);
      }
    }
    std::array<wire::Slot, 9> f;
    PPY_RETURN_IF_ERROR(fields(bytes, kAttributeFields, f, level, true));
    if (f[1].count || f[2].count || f[4].count || f[5].count || f[6].count) {
      uint32_t field = f[1].count ? 1 : f[2].count ? 2 : f[4].count ? 4 : f[5].count ? 5 : 6;
      return varint_attr(field, f[field].value, out);
    } else if (f[3].count) {
      double d;
      std::memcpy(&d, &f[3].value, sizeof d);
      out = Attribute(d);
    } else if (f[7].count) {
      if (depth >= kMaxAttrDepth) return fail("an attribute is nested too deeply");
      std::array<wire::Slot, 2> items;
      PPY_RETURN_IF_ERROR(fields(f[7].bytes(), kListFields, items, level + 1));
      AttrArray arr;
      arr.reserve(items[1].count);
      PPY_RETURN_IF_ERROR(
          wire::each(items[1], [&](std::string_view e) { return attr(e, arr.emplace_back(), depth + 1, level + 2); }));
      out = Attribute(std::move(arr));
    } else if (f[8].count) {
      if (depth >= kMaxAttrDepth) return fail("an attribute is nested too deeply");
      std::array<wire::Slot, 2> entries;
      PPY_RETURN_IF_ERROR(fields(f[8].bytes(), kListFields, entries, level + 1));
      AttrDict d;
      PPY_RETURN_IF_ERROR(attrs(entries[1], d, depth + 1, level + 2));
      out = Attribute(std::move(d));
    } else {
      return fail("an attribute has no value");
    }
    return absl::OkStatus();
  }

  /// The NamedAttributes of a repeated field `scan` found, each at `level`.
  absl::Status attrs(const wire::Slot& field, AttrDict& out, int depth, int level) {
    return wire::each(field, [&](std::string_view na) { return named_attr(na, out, depth, level); });
  }
  absl::Status named_attr(std::string_view bytes, AttrDict& out, int depth, int level) {
    // NamedAttribute: key (1, a varint), value (2, a message), in that order.
    uint64_t key_index = 0;
    std::string_view value;
    bool has_value = false;
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    if (level > kMaxMessageDepth) return not_canonical();
    uint32_t last = 0;
    while (p < end) {
      uint8_t tag = static_cast<uint8_t>(*p++);
      uint64_t n;
      if (tag == (1 << 3) && last < 1) {
        if (!wire::varint(p, end, key_index)) return not_canonical();
        last = 1;
      } else if (tag == (2 << 3 | 2) && last < 2) {
        if (!wire::varint(p, end, n, 5) || n > static_cast<uint64_t>(end - p)) return not_canonical();
        value = std::string_view(p, static_cast<size_t>(n));
        p += n;
        has_value = true;
        last = 2;
      } else {
        return not_canonical();
      }
    }
    std::string_view key;
    PPY_RETURN_IF_ERROR(str(static_cast<uint32_t>(key_index), key));
    if (!has_value) return fail(ppy::str_cat("attribute '", key, "' has no value"));
    Attribute v;
    PPY_RETURN_IF_ERROR(attr(value, v, depth, level + 1));
    if (!out.insert(key, std::move(v))) return fail(ppy::str_cat("attribute '", key, "' appears twice"));
    return absl::OkStatus();
  }

  absl::Status loc(std::string_view bytes, Location& out, int level) {
    std::array<uint64_t, 4> f;
    if (level > kMaxMessageDepth || !wire::varints(bytes, f)) [[unlikely]]
      return not_canonical();
    Location l;
    PPY_RETURN_IF_ERROR(interned(static_cast<uint32_t>(f[1]), l.file));
    l.line = static_cast<uint32_t>(f[2]);
    l.col = static_cast<uint32_t>(f[3]);
    out = l;  // a Location, not an optional: GCC cleared that with `rep stos`
    return absl::OkStatus();
  }

  absl::Status visibility(uint64_t v, Visibility& out) const {
    int32_t n = static_cast<int32_t>(static_cast<uint32_t>(v));  // an enum: protobuf keeps 32 bits
    if (n < 0 || n > static_cast<int>(Visibility::Extern)) return fail(ppy::str_cat("unknown visibility ", n));
    out = static_cast<Visibility>(n);
    return absl::OkStatus();
  }

  // -- functions

  /// Function `i`. Bytes in canonical form (ours, protobuf's) are read as they
  /// are; any other function is parsed by protobuf, which then writes it in
  /// that form to be read: one reader, and protobuf's answer on what it takes.
 public:
  /// For a module still arriving (`in` holding the types so far, the string
  /// table the strings so far): takes what came since the last call. False
  /// when functions cannot be read with them: a string table that does not
  /// start with "", or a type that does not resolve.
  bool catch_up() {
    const std::vector<std::string_view>& table = *string_table_;
    if (table.empty() || !table[0].empty()) return false;
    strings_.insert(strings_.end(), table.begin() + static_cast<ptrdiff_t>(strings_.size()), table.end());
    interned_.resize(strings_.size(), nullptr);
    size_t had = types_.size(), n = static_cast<size_t>(in_.types_size());
    types_.resize(n);
    type_state_.resize(n, 0);
    type_nesting_.resize(n, 0);
    for (size_t i = had; i < n; ++i)
      if (!resolve(static_cast<uint32_t>(i), 0).ok()) return false;
    return true;
  }

  /// A global, with the strings and types taken so far.
  absl::Status global(const pb::Global& pg, Global& g) {
    g.name = pg.name();
    PPY_RETURN_IF_ERROR(visibility(pg.visibility(), g.visibility));
    g.is_mutable = pg.is_mutable();
    PPY_RETURN_IF_ERROR(type(pg.type(), g.type));
    if (pg.has_initializer()) {
      g.initializer.emplace();
      PPY_RETURN_IF_ERROR(attr(canonical(pg.initializer()), *g.initializer, 0, 2));
    }
    return absl::OkStatus();
  }

  /// The string table's bytes have moved: `catch_up` takes it all again.
  void strings_moved() { strings_.clear(); }

  /// A function from its bytes, in whatever form protobuf takes.
  absl::StatusOr<std::unique_ptr<Function>> function_bytes(std::string_view bytes) {
    auto f = function(bytes);
    if (f.ok()) return f;
    pb::Function msg;
    if (!parse_deep(bytes, msg, kMaxMessageDepth - 1)) return absl::InvalidArgumentError(kNotAModule);
    return canonical_function(canonical(msg));
  }

 private:
  absl::StatusOr<std::unique_ptr<Function>> read_function(size_t i) {
    if (early_ && i < early_->functions.size() && early_->functions[i]) return std::move(early_->functions[i]);
    if (!slices_) return canonical_function(canonical(in_.functions(static_cast<int>(i))));
    return function_bytes((*slices_)[i]);
  }
  absl::StatusOr<std::unique_ptr<Function>> canonical_function(const std::string& bytes) {
    auto f = function(bytes);
    // Bytes protobuf wrote: only a message built in memory gets here, with a
    // name that is not UTF-8 or nesting deeper than protobuf reads.
    if (!f.ok() && is_not_canonical(f.status()))
      return fail(ppy::str_cat("a function is not what protobuf reads back: a name that is not UTF-8, or ",
                               "messages nested more than ", kMaxMessageDepth, " deep"));
    return f;
  }

  absl::StatusOr<std::unique_ptr<Function>> function(std::string_view bytes) {
    std::array<wire::Slot, 8> f;
    PPY_RETURN_IF_ERROR(fields(bytes, kFunctionFields, f, 1));
    // protobuf checks a `string` field's UTF-8 on parsing.
    if (!google::protobuf::internal::IsStructurallyValidUTF8(f[1].bytes().data(), static_cast<int>(f[1].bytes().size())))
      return not_canonical();
    // Messages name the function while it is read, and only then: its bytes
    // may be gone after.
    function_ = f[1].bytes();
    in_function_ = true;
    struct Leave {
      bool& in;
      ~Leave() { in = false; }
    } leave{in_function_};
    std::vector<Param> params;
    params.reserve(f[3].count);
    PPY_RETURN_IF_ERROR(wire::each(f[3], [&](std::string_view p) { return param(p, params.emplace_back()); }));
    if (!wire::unpack(f[4].bytes(), ids_)) return not_canonical();
    std::vector<Type> results(ids_.size());
    for (size_t i = 0; i < ids_.size(); ++i) PPY_RETURN_IF_ERROR(type(ids_[i], results[i]));
    auto fn = std::make_unique<Function>(std::string(function_), std::move(params), std::move(results));
    // Every function of the module shares one arena, which each keeps alive.
    if (!arena_) arena_ = std::make_shared<Arena>();
    fn->set_arena(arena_);
    Visibility vis = Visibility::Public;
    PPY_RETURN_IF_ERROR(visibility(f[2].value, vis));
    fn->set_visibility(vis);
    PPY_RETURN_IF_ERROR(attrs(f[5], fn->attributes(), 0, 2));
    if (f[6].count) {
      Location l;
      PPY_RETURN_IF_ERROR(loc(f[6].bytes(), l, 2));
      fn->set_loc(l);
    }
    values_.clear();
    fixups_.clear();
    PPY_RETURN_IF_ERROR(region(f[7].bytes(), fn->body(), 0, 2));
    for (auto [slot, id] : fixups_) {
      if (id >= values_.size())
        return fail(ppy::str_cat("value id ", id, " is not defined (the function has ", values_.size(), " values)"));
      *slot = values_[id];
    }
    return fn;
  }

  absl::Status param(std::string_view bytes, Param& out) {
    std::array<wire::Slot, 4> f;
    PPY_RETURN_IF_ERROR(fields(bytes, kParamFields, f, 2));
    PPY_RETURN_IF_ERROR(type(u32(f[1]), out.type));
    PPY_RETURN_IF_ERROR(attrs(f[2], out.attrs, 0, 3));
    std::string_view name;
    PPY_RETURN_IF_ERROR(str(u32(f[3]), name));
    out.name = std::string(name);
    return absl::OkStatus();
  }

  absl::Status region(std::string_view bytes, Region& r, int depth, int level) {
    if (depth > kMaxRegionDepth) return fail("regions are nested too deeply");
    std::array<wire::Slot, 2> f;
    PPY_RETURN_IF_ERROR(fields(bytes, kListFields, f, level));
    // Every block is made first, a successor may name a later one; each
    // takes its label when it is read.
    r.blocks().reserve(f[1].count);
    for (uint32_t i = 0; i < f[1].count; ++i) r.add_block(arena_.get(), std::string());
    size_t bi = 0;
    return wire::each(f[1], [&](std::string_view b) { return block(b, *r.blocks()[bi++], depth, level + 1); });
  }

  absl::Status block(std::string_view bytes, Block& b, int depth, int level) {
    std::array<wire::Slot, 5> f;
    PPY_RETURN_IF_ERROR(fields(bytes, kBlockFields, f, level));
    if (f[1].value) {
      std::string_view label;
      PPY_RETURN_IF_ERROR(str(u32(f[1]), label));
      b.set_label(std::string(label));
    }
    if (!wire::unpack(f[2].bytes(), ids_) || !wire::unpack(f[3].bytes(), hints_)) return not_canonical();
    size_t n = ids_.size();
    if (!hints_.empty() && hints_.size() != n)
      return fail(ppy::str_cat("block ^", b.label(), " has ", n, " argument(s) but ", hints_.size(), " hint(s)"));
    b.reserve_arguments(n);
    for (size_t i = 0; i < n; ++i) {
      Type t;
      PPY_RETURN_IF_ERROR(type(ids_[i], t));
      const std::string* hint = nullptr;
      if (!hints_.empty() && hints_[i]) PPY_RETURN_IF_ERROR(interned(hints_[i], hint));
      values_.push_back(b.add_interned_argument(t, hint));
    }
    b.operations().reserve(f[4].count);
    return wire::each(f[4], [&](std::string_view op) { return operation(op, b, depth, level + 1); });
  }

  /// `id` as a value, or null with a fix-up recorded by the caller.
  Value* value(uint32_t id) const { return id < values_.size() ? values_[id] : nullptr; }

  absl::Status operation(std::string_view bytes, Block& b, int depth, int level) {
    wire::OpFields f;
    if (level > kMaxMessageDepth || !wire::scan_op(bytes, f)) [[unlikely]]
      return not_canonical();
    const std::string* interned_name = nullptr;
    PPY_RETURN_IF_ERROR(interned(static_cast<uint32_t>(f.name), interned_name));
    std::string_view name = *interned_name;
    if (name.empty()) return fail(ppy::str_cat("block ^", b.label(), ": an operation has no name"));
    if (!wire::unpack(f.operands, operand_ids_) || !wire::unpack(f.result_types, ids_) ||
        !wire::unpack(f.result_hints, hints_))
      return not_canonical();
    size_t nres = ids_.size();
    if (!hints_.empty() && hints_.size() != nres)
      return fail(ppy::str_cat(name, " has ", nres, " result(s) but ", hints_.size(), " hint(s)"));
    result_types_.resize(nres);
    for (size_t i = 0; i < nres; ++i) PPY_RETURN_IF_ERROR(type(ids_[i], result_types_[i]));
    size_t nops = operand_ids_.size();
    operands_.resize(nops);
    bool forward = false;
    for (size_t i = 0; i < nops; ++i) forward |= !(operands_[i] = value(operand_ids_[i]));

    // The op goes into its block first and is filled in place: its attribute
    // dict and location are never moved.
    Operation* op = b.append(Operation::create(arena_.get(), interned_name, operands_, result_types_));
    if (f.attrs.count) PPY_RETURN_IF_ERROR(attrs(f.attrs, op->attributes(), 0, level + 1));
    if (f.has_loc) {
      Location l;
      PPY_RETURN_IF_ERROR(loc(f.loc, l, level + 1));
      op->set_loc(l);
    }
    if (forward)
      for (size_t i = 0; i < nops; ++i)
        if (!op->operands()[i]) fixups_.emplace_back(&op->operands()[i], operand_ids_[i]);
    for (size_t i = 0; i < nres; ++i) {
      Value* v = op->result(i);
      if (!hints_.empty() && hints_[i]) {
        const std::string* hint;
        PPY_RETURN_IF_ERROR(interned(hints_[i], hint));
        v->set_interned_hint(hint);
      }
      values_.push_back(v);
    }

    if (f.successors.count) {
      Region& r = *b.parent();
      op->successors().reserve(f.successors.count);
      auto successor = [&](std::string_view bytes) {
        std::array<wire::Slot, 3> ps;
        PPY_RETURN_IF_ERROR(fields(bytes, kSuccessorFields, ps, level + 1));
        uint32_t target = u32(ps[1]);
        if (target >= r.blocks().size())
          return fail(ppy::str_cat(name, " branches to block ", target, " of a region of ", r.blocks().size(),
                                   " block(s)"));
        if (!wire::unpack(ps[2].bytes(), ids_)) return not_canonical();
        Successor& s = op->successors().emplace_back();
        s.block = r.blocks()[target].get();
        s.args.resize(ids_.size());
        for (size_t k = 0; k < ids_.size(); ++k)
          if (!(s.args[k] = value(ids_[k]))) fixups_.emplace_back(&s.args[k], ids_[k]);
        return absl::OkStatus();
      };
      PPY_RETURN_IF_ERROR(wire::each(f.successors, successor));
    }
    if (!f.regions.count) return absl::OkStatus();
    return wire::each(f.regions, [&](std::string_view r) { return region(r, op->add_region(), depth + 1, level + 1); });
  }

  // -- the wire

  /// Reads one message's fields at `level` (the Module's is 0) into `out`.
  template <size_t N>
  absl::Status fields(std::string_view bytes, const std::array<wire::Kind, N>& kinds, std::array<wire::Slot, N>& out,
                      int level, bool oneof = false) const {
    if (level > kMaxMessageDepth || !wire::scan(bytes, kinds, out, oneof)) return not_canonical();
    return absl::OkStatus();
  }
  /// A uint32 field: protobuf keeps a varint's low 32 bits.
  static uint32_t u32(const wire::Slot& s) { return static_cast<uint32_t>(s.value); }
  /// Bytes the function reader leaves to protobuf (see read_function).
  static absl::Status not_canonical() { return absl::UnimplementedError("not in canonical form"); }
  static bool is_not_canonical(const absl::Status& s) { return s.code() == absl::StatusCode::kUnimplemented; }

  const pb::Module& in_;
  const DialectRegistry& reg_;
  const std::vector<std::string_view>* slices_;        // else in_.functions()
  const std::vector<std::string_view>* string_table_;  // else in_.strings()
  EarlyReads* early_;
  std::string_view function_;  // for messages, while in_function_
  bool in_function_ = false;
  std::vector<std::string_view> strings_;
  std::vector<const std::string*> interned_;
  std::vector<Type> types_;
  std::vector<uint8_t> type_state_;  // 0 unseen, 1 being built, 2 built
  std::vector<int> type_nesting_;    // `ptr<i64>` is 2 deep
  std::vector<Type> result_types_;   // scratch, as are the id lists
  std::vector<uint32_t> ids_, hints_, operand_ids_;
  std::vector<Value*> operands_;  // scratch
  std::shared_ptr<Arena> arena_;  // the module's ops, made with its first function
  std::vector<Value*> values_;  // by id, current function
  std::vector<std::pair<Value**, uint32_t>> fixups_;
};

}  // namespace

DialectRegistry registry_for(const pb::Module& in) {
  std::vector<std::string> names;
  for (const auto& d : in.dialects()) names.push_back(d.name());
  return with_open_dialects(DialectRegistry::builtin(), names);
}

absl::StatusOr<std::unique_ptr<Module>> from_proto(const pb::Module& in, const DialectRegistry& reg) {
  return Reader(in, reg).module();
}

namespace {

/// `read`, unless it failed and some function's bytes are not a function at
/// all: protobuf refuses the whole module then, whatever else is wrong with
/// it (a function is read only when its turn comes).
absl::StatusOr<std::unique_ptr<Module>> refused_as_protobuf_would(absl::StatusOr<std::unique_ptr<Module>> read,
                                                                    const std::vector<std::string_view>& functions) {
  if (read.ok() || read.status().message() == kNotAModule) return read;
  for (std::string_view f : functions) {
    pb::Function msg;
    if (!parse_deep(f, msg, kMaxMessageDepth - 1)) return absl::InvalidArgumentError(kNotAModule);
  }
  return read;
}

absl::Status too_large(uint64_t size) {
  return absl::InvalidArgumentError(
      ppy::str_cat("ppy.ir.v1.Module: ", size, " bytes is more than one message may hold (2 GiB)"));
}
}  // namespace

absl::StatusOr<std::unique_ptr<Module>> from_proto_bytes(std::string_view bytes, const DialectRegistry& reg) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return too_large(bytes.size());
  // The functions, nearly all of the bytes, are read one by one; the rest
  // (tables, globals, attributes) is small and parsed whole. The lists of
  // views are the thread's, kept between modules: growing them anew each
  // time cost more than a tenth of a read (malloc consolidating the heap the
  // last module freed).
  thread_local ModuleParts parts;
  parts.clear();
  struct Trim {  // a module's globals (weights) may be large: their room is not kept
    std::string& rest;
    ~Trim() {
      if (rest.capacity() > (size_t{1} << 20)) std::string().swap(rest);
    }
  } trim{parts.rest};
  pb::Module head;
  if (!split_module(bytes, parts) || !parse_deep(parts.rest, head, kMaxMessageDepth))
    return absl::InvalidArgumentError(kNotAModule);
  return refused_as_protobuf_would(Reader(head, reg, &parts.functions, &parts.strings).module(), parts.functions);
}

struct ModuleReader::State {
  State(const DialectRegistry& r, std::string* buffer)
      : reg(r), bytes(buffer ? *buffer : own), eager(types, r, nullptr, &parts.strings) {
    bytes.clear();
  }

  const DialectRegistry& reg;
  std::string own;
  std::string& bytes;  // all that came: the views in `parts` are of it
  uint64_t total = 0;  // bytes given, kept or not
  size_t scanned = 0;  // the fields before this are filed
  size_t rescan_at = 0;  // the size `bytes` must reach before the field cut short is tried again
  bool bad = false;    // the top level is malformed: nothing that follows mends it
  ModuleParts parts;
  pb::Module types;  // Module.types so far, for reading functions and globals early
  Reader eager;
  bool eager_on = true;
  EarlyReads early;

  /// Moves the views of `parts` to where `bytes` now lies.
  void moved(uintptr_t from) {
    for (auto* views : {&parts.functions, &parts.strings})
      for (std::string_view& v : *views)
        v = std::string_view(bytes.data() + (reinterpret_cast<uintptr_t>(v.data()) - from), v.size());
    eager.strings_moved();
  }

  /// Files the whole fields after `scanned`.
  void scan() {
    std::string_view data = std::string_view(bytes).substr(scanned);
    while (!data.empty()) {
      uint64_t tag;
      size_t size;
      std::string_view payload;
      Cut c = top_field(data, tag, size, payload);
      if (c == Cut::More) {
        // A length-delimited field says how long it is; a group does not,
        // and is walked again only once the bytes have doubled.
        rescan_at = size > data.size() ? scanned + size : 2 * bytes.size();
        return;
      }
      if (c == Cut::Bad || !parts.add(tag, data.substr(0, size), payload)) {
        bad = true;
        return;
      }
      if ((tag & 7) == 2 && tag >> 3 == 5 &&
          !types.add_types()->ParseFromArray(payload.data(), static_cast<int>(payload.size())))
        eager_on = false;  // protobuf will refuse the module; let the end say so
      if ((tag & 7) == 2 && tag >> 3 == 8) function_came();
      if ((tag & 7) == 2 && tag >> 3 == 7) global_came(payload);
      data.remove_prefix(size);
      scanned += size;
    }
  }

  void function_came() {
    size_t i = parts.functions.size() - 1;
    early.functions.resize(i + 1);
    if (!eager_on || !(eager_on = eager.catch_up())) return;
    auto f = eager.function_bytes(parts.functions[i]);
    if (f.ok()) early.functions[i] = std::move(*f);
  }

  /// Weights: their copies out of the buffer are made while more bytes come.
  void global_came(std::string_view payload) {
    early.globals.emplace_back();
    pb::Global pg;
    if (!eager_on || !(eager_on = eager.catch_up()) || !parse_deep(payload, pg, kMaxMessageDepth - 1)) return;
    Global g;
    if (eager.global(pg, g).ok()) early.globals.back() = std::move(g);
  }
};

ModuleReader::ModuleReader(const DialectRegistry& reg, std::string* buffer)
    : state_(std::make_unique<State>(reg, buffer)) {}
ModuleReader::~ModuleReader() = default;

void ModuleReader::add(std::string_view bytes) {
  State& s = *state_;
  s.total += bytes.size();
  if (s.bad || s.total > static_cast<uint64_t>(INT_MAX)) return;  // finish says why
  const char* was = s.bytes.data();
  s.bytes.append(bytes);
  if (s.bytes.data() != was) s.moved(reinterpret_cast<uintptr_t>(was));
  if (s.bytes.size() >= s.rescan_at) s.scan();
}

absl::StatusOr<std::unique_ptr<Module>> ModuleReader::finish() {
  State& s = *state_;
  if (s.total > static_cast<uint64_t>(INT_MAX)) return too_large(s.total);
  pb::Module head;
  if (!s.bad && s.scanned != s.bytes.size()) s.scan();
  if (s.bad || s.scanned != s.bytes.size() || !parse_deep(s.parts.rest, head, kMaxMessageDepth))
    return absl::InvalidArgumentError(kNotAModule);
  return refused_as_protobuf_would(Reader(head, s.reg, &s.parts.functions, &s.parts.strings, &s.early).module(),
                                   s.parts.functions);
}

}  // namespace ppy::ir
