// IR -> ppy.ir.v1 bytes (proto/ppy/ir/v1/ir.proto).
//
// The writer numbers a function's values as it writes them; a use before the
// definition (a back edge) makes it number the function in a walk of its own
// and write it again. It keeps its look-up tables across functions.

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "absl/hash/hash.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/v1/ir.pb.h"
#include "proto_schema.h"

namespace ppy::ir {
namespace {

using namespace proto_schema;

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
    size_t i = (reinterpret_cast<uintptr_t>(key) * 0x9E3779B97F4A7C15ull) >> shift_ & mask;
    while (slots_[i].gen == gen_ && slots_[i].key != key) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    --shift_;
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
  int shift_ = 64 - 6;  // the hash's top bits index 64 slots
};

/// Open-addressing map from a string (viewed, not copied) to its string index.
class StringIds {
 public:
  StringIds() { slots_.resize(256, kEmpty); }

  /// The index of `s`, or `next` after recording it under that index.
  uint32_t get_or_put(std::string_view s, uint32_t next) {
    if (size_ * 2 + 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    Words k = words(s);
    for (size_t i = hash(s, k) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.id == kNone) {
        slot = {s, k, next};
        ++size_;
        return next;
      }
      // Keys of up to 16 bytes are equal when their words and sizes are.
      if (slot.key.size() == s.size() && slot.words.a == k.a && slot.words.b == k.b &&
          (s.size() <= 16 || slot.key == s))
        return slot.id;
    }
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  /// The first 16 bytes of a key, zero-padded.
  struct Words {
    uint64_t a, b;
  };
  struct Slot {
    std::string_view key;
    Words words;
    uint32_t id;
  };
  static constexpr Slot kEmpty{{}, {0, 0}, kNone};
  static Words words(std::string_view s) {
    Words w{0, 0};
    size_t n = std::min<size_t>(s.size(), 16);
    std::memcpy(&w.a, s.data(), std::min<size_t>(n, 8));
    if (n > 8) std::memcpy(&w.b, s.data() + 8, n - 8);
    return w;
  }
  /// Keys are mostly short (`overflow`, `wrap`, `x`): hash their words.
  /// Long ones (weights, tables) go to absl's hash, three times faster over
  /// megabytes than std::hash. It must be given an absl::string_view: Debian's
  /// absl has its own, and hashes a std::string_view with std::hash.
  static size_t hash(std::string_view s, Words w) {
    if (s.size() > 16) return absl::Hash<absl::string_view>()(absl::string_view(s.data(), s.size()));
    uint64_t h = (w.a * 0x9E3779B97F4A7C15ull) ^ (w.b * 0xC2B2AE3D27D4EB4Full) ^ s.size();
    return static_cast<size_t>(h ^ (h >> 29));
  }
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

// The writer encodes the wire format itself rather than filling messages and
// serializing them: no message tree is built, and each op costs a few varints.
// Field numbers are ir.proto's; keep the two in step.

/// A growing buffer of protobuf wire data.
class Wire {
 public:
  Wire() { grow(4096); }

  /// Empties the buffer, keeping its memory unless it grew past `keep` bytes.
  void reset(size_t keep) {
    if (static_cast<size_t>(end_ - buf_.get()) > keep) {
      buf_.reset();
      p_ = end_ = nullptr;
      grow(4096);
    }
    p_ = buf_.get();
  }

  size_t size() const { return static_cast<size_t>(p_ - buf_.get()); }
  /// Drops what was written after the first `n` bytes.
  void truncate(size_t n) { p_ = buf_.get() + n; }
  const char* data() const { return buf_.get(); }

  void varint(uint64_t v) {
    room(10);
    while (v >= 0x80) {
      *p_++ = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    *p_++ = static_cast<char>(v);
  }
  void tag(uint32_t field, int wire_type) { varint(uint64_t{field} << 3 | wire_type); }

  /// A scalar field; proto3 leaves zero out unless the field is a oneof member.
  void uint(uint32_t field, uint64_t v, bool always = false) {
    if (!v && !always) return;
    tag(field, 0);
    varint(v);
  }
  void sint(uint32_t field, int64_t v) {  // oneof member: always written
    tag(field, 0);
    varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void fixed64(uint32_t field, double d) {  // oneof member: always written
    tag(field, 1);
    append(reinterpret_cast<const char*>(&d), 8);
  }
  void bytes(uint32_t field, std::string_view s, bool always = false) {
    if (s.empty() && !always) return;
    tag(field, 2);
    varint(s.size());
    append(s.data(), s.size());
  }
  void append(const char* p, size_t n) {
    room(n);
    std::memcpy(p_, p, n);
    p_ += n;
  }

  /// Opens a length-delimited field; `end` patches its length in.
  size_t begin(uint32_t field) {
    tag(field, 2);
    room(1);
    *p_++ = 0;
    return size();
  }
  void end(size_t start) {
    size_t len = size() - start;
    char* base = buf_.get();
    if (len < 128) [[likely]] {
      base[start - 1] = static_cast<char>(len);
      return;
    }
    size_t n = 1;
    for (size_t v = len; v >= 0x80; v >>= 7) ++n;
    room(n - 1);
    base = buf_.get();
    std::memmove(base + start + n - 1, base + start, len);
    p_ += n - 1;
    char* q = base + start - 1;
    for (size_t v = len; v >= 0x80; v >>= 7) *q++ = static_cast<char>(v | 0x80);
    *q = static_cast<char>(len >> 7 * (n - 1));
  }

 private:
  void room(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) [[unlikely]]
      grow(n);
  }
  [[gnu::noinline]] void grow(size_t n) {
    size_t used = buf_ ? size() : 0;
    size_t cap = std::max<size_t>(2 * static_cast<size_t>(end_ - buf_.get()), used + n);
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (used) std::memcpy(bigger.get(), buf_.get(), used);
    buf_ = std::move(bigger);
    p_ = buf_.get() + used;
    end_ = buf_.get() + cap;
  }
  std::unique_ptr<char[]> buf_;
  char* p_ = nullptr;
  char* end_ = nullptr;
};

/// The buffers of one write, kept per thread: a module's bytes are written
/// into memory that is already mapped, not into fresh pages each time.
struct Buffers {
  Wire head;     // Module fields 1-4
  Wire types;    // Module.types entries
  Wire strings;  // Module.strings entries
  Wire body;     // Module.globals and Module.functions
};

class Encoder {
 public:
  explicit Encoder(Buffers& b) : head_(b.head), types_(b.types), strings_(b.strings), body_(b.body) {
    for (Wire* w : {&head_, &types_, &strings_, &body_}) w->reset(size_t{64} << 20);
  }

  using Use = std::function<void(const std::vector<std::string_view>&, bool last)>;

  /// Writes `m`, handing `use` what is written each time the functions in it
  /// reach `segment` bytes (twice that the next time, up to kMaxSegment), and
  /// the rest at the end.
  void write(const Module& m, size_t segment, const Use& use) {
    Wire& head = head_;
    head.uint(1, kSchemaVersion);
    head.bytes(2, m.name());
    for (auto& [name, version] : m.dialects()) {
      size_t d = head.begin(3);
      head.bytes(1, name);
      head.uint(2, static_cast<uint64_t>(version));
      head.end(d);
    }
    strings_.bytes(6, "", true);  // strings[0] = ""
    string_ids_.get_or_put("", 0);
    num_strings_ = 1;
    attrs(head, 4, m.attributes());
    // A segment ends after a global or function, never after the last one.
    size_t left = m.globals().size() + m.functions().size();
    for (auto& [name, g] : m.globals()) {
      size_t pg = body_.begin(7);
      body_.bytes(1, name);
      body_.uint(2, static_cast<uint64_t>(g.visibility));
      body_.uint(3, g.is_mutable);
      body_.uint(4, type(g.type));
      if (g.initializer) {
        size_t a = body_.begin(5);
        attr(body_, *g.initializer);
        body_.end(a);
      }
      body_.end(pg);
      // Weights go out as they are written, not after the last of them.
      if (--left > 0) flush_at(segment, use);
    }
    for (const auto& f : m.functions()) {
      function(*f);
      if (--left > 0) flush_at(segment, use);
    }
    use(pieces(), true);
  }
  /// Hands `use` what is written once the globals and functions in it, with
  /// the large strings they name, reach `segment` bytes; the next segment is
  /// then twice as big, up to kMaxSegment.
  void flush_at(size_t& segment, const Use& use) {
    size_t size = body_.size();
    for (auto [at, view] : big_strings_) size += view.size();
    if (size < segment) return;
    use(pieces(), false);
    for (Wire* w : {&head_, &types_, &strings_, &body_}) w->truncate(0);
    big_strings_.clear();
    segment = std::min(segment * 2, std::max(segment, kMaxSegment));
  }
  /// The bytes, in order: the buffers, with each large string of the table
  /// viewed where it lies in the module instead of copied into a buffer.
  std::vector<std::string_view> pieces() const {
    std::vector<std::string_view> out;
    for (const Wire* w : {&head_, &types_}) out.emplace_back(w->data(), w->size());
    size_t from = 0;
    for (auto [at, view] : big_strings_) {
      out.emplace_back(strings_.data() + from, at - from);
      out.push_back(view);
      from = at;
    }
    out.emplace_back(strings_.data() + from, strings_.size() - from);
    out.emplace_back(body_.data(), body_.size());
    return out;
  }

 private:
  uint32_t str(std::string_view s) {
    if (s.empty()) return 0;
    uint32_t id = string_ids_.get_or_put(s, num_strings_);
    if (id == num_strings_) {
      ++num_strings_;
      if (s.size() < kViewStringsFrom) {
        strings_.bytes(6, s, true);
      } else {  // weights, tables: the module outlives the pieces
        strings_.tag(6, 2);
        strings_.varint(s.size());
        big_strings_.emplace_back(strings_.size(), s);
      }
    }
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
    if (t.storage() == last_type_) return last_type_id_;
    int64_t id = type_ids_.get(t.storage());
    if (id < 0) id = add_type(*t.storage());
    last_type_ = t.storage();
    last_type_id_ = static_cast<uint32_t>(id);
    return last_type_id_;
  }
  uint32_t add_type(const TypeStorage& s) {
    // Elements first, so each entry refers only to earlier ones.
    std::vector<uint32_t> elems;
    for (const TypeStorage* e : s.elems) elems.push_back(type(Type(e)));
    std::vector<uint32_t> fields;
    for (const StructField& f : s.fields) fields.push_back(type(Type(f.type)));
    std::vector<uint32_t> args;
    for (const DialectTypeArg& a : s.args)
      args.push_back(std::holds_alternative<const TypeStorage*>(a) ? type(Type(std::get<const TypeStorage*>(a))) : 0);
    Wire& w = types_;
    size_t entry = w.begin(5);
    switch (s.kind) {
      case TypeKind::Ptr: {
        size_t p = w.begin(2);
        w.uint(1, elems.at(0));
        int space = 0;
        for (int i = 0; i < 6; ++i)
          if (s.name == kSpaces[i]) space = i;
        w.uint(2, space);
        w.uint(3, s.is_const);
        w.end(p);
        break;
      }
      case TypeKind::Buffer: w.uint(3, elems.at(0), true); break;
      case TypeKind::Future: w.uint(4, elems.at(0), true); break;
      case TypeKind::Vector: {
        size_t v = w.begin(5);
        w.uint(1, elems.at(0));
        w.uint(2, static_cast<uint64_t>(s.count));
        w.end(v);
        break;
      }
      case TypeKind::Tuple: {
        size_t t = w.begin(6);
        packed(w, 1, elems.begin(), elems.end(), [](uint32_t e) { return e; });
        w.end(t);
        break;
      }
      case TypeKind::Struct: {
        size_t st = w.begin(7);
        w.bytes(1, s.name);
        for (size_t i = 0; i < s.fields.size(); ++i) {
          size_t f = w.begin(2);
          w.bytes(1, s.fields[i].name);
          w.uint(2, fields[i]);
          w.end(f);
        }
        w.end(st);
        break;
      }
      case TypeKind::Dialect: {
        size_t d = w.begin(8);
        w.bytes(1, s.name);
        for (size_t i = 0; i < s.args.size(); ++i) {
          size_t a = w.begin(2);
          if (std::holds_alternative<const TypeStorage*>(s.args[i])) w.uint(1, args[i], true);
          else if (auto* n = std::get_if<int64_t>(&s.args[i])) w.uint(2, static_cast<uint64_t>(*n), true);
          else w.bytes(3, std::get<std::string>(s.args[i]), true);
          w.end(a);
        }
        w.end(d);
        break;
      }
      default: w.uint(1, static_cast<uint64_t>(s.kind), true); break;
    }
    w.end(entry);
    uint32_t index = num_types_++;
    type_ids_.put(&s, index);
    return index;
  }

  /// A packed repeated uint32 field (left out when empty).
  template <class It, class F>
  static void packed(Wire& w, uint32_t field, It first, It last, F&& get) {
    if (first == last) return;
    size_t p = w.begin(field);
    for (; first != last; ++first) w.varint(get(*first));
    w.end(p);
  }

  void attr(Wire& w, const Attribute& a) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, bool>) w.uint(1, v, true);
          else if constexpr (std::is_same_v<T, int64_t>) w.sint(2, v);
          else if constexpr (std::is_same_v<T, double>) w.fixed64(3, v);
          else if constexpr (std::is_same_v<T, std::string>) w.uint(4, str(v), true);
          else if constexpr (std::is_same_v<T, SymbolRef>) w.uint(5, str(v.name), true);
          else if constexpr (std::is_same_v<T, Type>) w.uint(6, type(v), true);
          else if constexpr (std::is_same_v<T, std::shared_ptr<const AttrArray>>) {
            size_t arr = w.begin(7);
            for (const Attribute& e : *v) {
              size_t item = w.begin(1);
              attr(w, e);
              w.end(item);
            }
            w.end(arr);
          } else {
            size_t d = w.begin(8);
            attrs(w, 1, *v);
            w.end(d);
          }
        },
        a.storage());
  }

  /// A dict as repeated NamedAttribute in `field`.
  void attrs(Wire& w, uint32_t field, const AttrDict& d) {
    for (auto& [key, value] : d) {
      size_t na = w.begin(field);
      w.uint(1, str(key));
      size_t v = w.begin(2);
      attr(w, value);
      w.end(v);
      w.end(na);
    }
  }

  void loc(Wire& w, uint32_t field, const Location& l) {
    size_t p = w.begin(field);
    w.uint(1, interned(l.file));
    w.uint(2, l.line);
    w.uint(3, l.col);
    w.end(p);
  }

  void function(const Function& f) {
    Wire& w = body_;
    size_t pf = w.begin(8);
    w.bytes(1, f.name());
    w.uint(2, static_cast<uint64_t>(f.visibility()));
    for (const Param& param : f.params()) {
      size_t pp = w.begin(3);
      w.uint(1, type(param.type));
      attrs(w, 2, param.attrs);
      w.uint(3, str(param.name));
      w.end(pp);
    }
    packed(w, 4, f.results().begin(), f.results().end(), [&](Type t) { return type(t); });
    attrs(w, 5, f.attributes());
    if (f.loc()) loc(w, 6, *f.loc());
    if (!f.is_declaration()) {
      // Values are numbered as they are written. A use before its definition
      // (a back edge) has no id yet: then the body is numbered in a walk of
      // its own and written again.
      size_t body = w.begin(7);
      values_.clear();
      next_value_ = 0;
      prenumbered_ = forward_use_ = false;
      region(f.body());
      if (forward_use_) {
        w.truncate(body);
        values_.clear();
        next_value_ = 0;
        number(f.body());
        prenumbered_ = true;
        region(f.body());
      }
      w.end(body);
    }
    w.end(pf);
  }

  /// Gives every value its id (ir.proto, Function) and every block its index in
  /// its region.
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
  /// Numbers `v` next, unless `number` did.
  void define(const Value* v) {
    if (!prenumbered_) values_.put(v, next_value_++);
  }
  /// A value outside the function gets an id past its last; the reader refuses it.
  uint32_t id(const Value* v) {
    int64_t id = values_.get(v);
    if (id >= 0) return static_cast<uint32_t>(id);
    forward_use_ |= !prenumbered_;
    return next_value_;
  }

  /// The fields of a Region (its blocks), into `body_`.
  void region(const Region& r) {
    Wire& w = body_;
    uint32_t bi = 0;
    if (!prenumbered_)
      for (auto& b : r.blocks()) values_.put(b.get(), bi++);
    for (auto& b : r.blocks()) {
      size_t pb = w.begin(1);
      w.uint(1, str(b->label()));
      auto& args = b->arguments();
      for (auto& a : args) define(a.get());
      packed(w, 2, args.begin(), args.end(), [&](const std::unique_ptr<Value>& a) { return type(a->type()); });
      bool hints = false;
      for (auto& a : args) hints |= a->interned_hint() != nullptr;
      if (hints)
        packed(w, 3, args.begin(), args.end(),
               [&](const std::unique_ptr<Value>& a) { return interned(a->interned_hint()); });
      for (auto& op : b->operations()) operation(*op);
      w.end(pb);
    }
  }

  void operation(const Operation& op) {
    Wire& w = body_;
    size_t po = w.begin(4);  // Block.ops
    w.uint(1, interned(&op.name()));
    packed(w, 2, op.operands().begin(), op.operands().end(), [&](const Value* v) { return id(v); });
    auto results = op.results();
    for (const Value& v : results) define(&v);
    packed(w, 3, results.begin(), results.end(), [&](const Value& v) { return type(v.type()); });
    bool hints = false;
    for (const Value& v : results) hints |= v.interned_hint() != nullptr;
    if (hints) packed(w, 4, results.begin(), results.end(), [&](const Value& v) { return interned(v.interned_hint()); });
    for (const Successor& s : op.successors()) {
      size_t ps = w.begin(5);
      int64_t bi = values_.get(s.block);
      w.uint(1, bi >= 0 ? static_cast<uint32_t>(bi) : UINT32_MAX);
      packed(w, 2, s.args.begin(), s.args.end(), [&](const Value* v) { return id(v); });
      w.end(ps);
    }
    attrs(w, 6, op.attributes());
    for (auto& r : op.regions()) {
      size_t pr = w.begin(7);
      region(*r);
      w.end(pr);
    }
    if (op.loc()) loc(w, 8, *op.loc());
    w.end(po);
  }

  Wire& head_;
  Wire& types_;
  Wire& strings_;
  Wire& body_;
  StringIds string_ids_;
  uint32_t num_strings_ = 0;
  static constexpr size_t kViewStringsFrom = 64 << 10;
  static constexpr size_t kMaxSegment = 1 << 20;
  std::vector<std::pair<size_t, std::string_view>> big_strings_;  // offset in strings_, bytes
  PtrIds interned_;
  PtrIds type_ids_;
  uint32_t num_types_ = 0;
  const TypeStorage* last_type_ = nullptr;
  uint32_t last_type_id_ = 0;
  PtrIds values_;  // values and blocks of the current function
  uint32_t next_value_ = 0;
  bool prenumbered_ = false;  // `number` has walked the function
  bool forward_use_ = false;  // a value was used before its id was known
};

}  // namespace

void to_proto(const Module& m, pb::Module& out) {
  std::string bytes = to_proto_bytes(m);
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetRecursionLimit(kMaxMessageDepth);  // as deep as the reader takes, not protobuf's 100
  out.Clear();
  out.MergeFromCodedStream(&in);  // bytes we wrote always parse
}

void to_proto_segments(const Module& m, size_t first_segment,
                       const std::function<void(const std::vector<std::string_view>&, bool last)>& use) {
  thread_local Buffers buffers;
  Encoder(buffers).write(m, first_segment, use);
}

void to_proto_pieces(const Module& m, const std::function<void(const std::vector<std::string_view>&)>& use) {
  to_proto_segments(m, SIZE_MAX, [&](const std::vector<std::string_view>& pieces, bool) { use(pieces); });
}

std::string to_proto_bytes(const Module& m) {
  std::string out;
  to_proto_pieces(m, [&](const std::vector<std::string_view>& pieces) {
    size_t n = 0;
    for (std::string_view p : pieces) n += p.size();
    out.reserve(n);
    for (std::string_view p : pieces) out.append(p);
  });
  return out;
}

}  // namespace ppy::ir
