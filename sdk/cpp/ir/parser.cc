// The `ppyir 1` parser: a hand-written recursive descent over the grammar and
// quirks of the text format (docs/ir.md). One cursor over the text; names are
// resolved per function through flat tables keyed by views into the text, so a
// branch may name a block or value defined further down.
//
// Failures are thrown as ParseFailure inside this file only and become an
// InvalidArgument status `line L:C: reason` at parse_module's boundary.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "absl/status/status.h"
#include "ppy/ir/text.h"
#include "ppy/util/status_macros.h"
#include "ppy/util/str_cat.h"
#include "text_internal.h"

namespace ppy::ir {
namespace {

using text_detail::append_utf8;
using text_detail::decode_utf8;
using text_detail::FlatMap;
using text_detail::is_name_byte;
using text_detail::py_repr;
using text_detail::ViewHash;

/// Regions, attribute values and types nest at most this deep.
constexpr int kMaxDepth = 200;

struct ParseFailure {
  const char* at;
  std::string message;
};

/// What an op names that is resolved when its function ends.
struct PendingOperand {
  Operation* op;
  uint32_t index;
  std::string_view name;
  const char* at;
};
struct PendingSuccessor {
  Operation* op;
  uint32_t succ;
  uint32_t index;  // argument index; unused for the block itself
  std::string_view name;
  const char* at;
};

struct BlockEntry {
  Block* block = nullptr;  // null until the label is defined
};

class Parser {
 public:
  Parser(std::string_view text, const DialectRegistry& reg)
      : b_(text.data()), p_(text.data()), e_(text.data() + text.size()), reg_(reg) {}

  std::unique_ptr<Module> module() {
    expect("ppyir");
    integer();  // the schema; the codec checked the first line already
    expect("module");
    expect("@");
    auto m = std::make_unique<Module>(std::string(word(true)));
    module_ = m.get();
    while (accept("dialect")) {
      std::string_view name = word(false);
      int64_t version = integer();
      m->dialects()[std::string(name)] = version;
      if (name != "core") dialect_order_.emplace_back(name);
    }
    if (accept("attrs")) m->attributes() = dict_value(0);
    // The reference keeps the schema in the attributes and the codec drops it.
    m->attributes().take("_schema");
    while (skip(), p_ < e_) {
      Visibility vis = Visibility::Public;
      if (accept("private")) vis = Visibility::Private;
      else if (accept("extern")) vis = Visibility::Extern;
      bool is_mutable = accept("mutable");
      if (accept("global")) global(vis, is_mutable);
      else if (accept("func")) function(vis);
      else fail(p_, str_cat("expected `func` or `global`, found ", next12()));
    }
    return m;
  }

  /// Dialects in the order the reference checks them: core, then as written.
  std::vector<std::string> dialect_order() const {
    std::vector<std::string> out{"core"};
    for (auto n : dialect_order_) out.emplace_back(n);
    return out;
  }

  [[noreturn]] static void fail(const char* at, std::string message) {
    throw ParseFailure{at, std::move(message)};
  }

 private:
  // ---- cursor ------------------------------------------------------------

  /// Whitespace and `//` comments.
  void skip() {
    while (p_ < e_) {
      char c = *p_;
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        ++p_;
      } else if (c == '/' && p_ + 1 < e_ && p_[1] == '/') {
        const void* nl = std::memchr(p_, '\n', e_ - p_);
        p_ = nl ? static_cast<const char*>(nl) : e_;
      } else {
        break;
      }
    }
  }
  bool starts(const char* q, std::string_view lit) const {
    return static_cast<size_t>(e_ - q) >= lit.size() && std::memcmp(q, lit.data(), lit.size()) == 0;
  }
  bool peek(std::string_view lit) {
    skip();
    return starts(p_, lit);
  }
  bool peek_char(char c) {
    skip();
    return p_ < e_ && *p_ == c;
  }
  bool accept(std::string_view lit) {
    if (!peek(lit)) return false;
    p_ += lit.size();
    return true;
  }
  bool accept_char(char c) {
    if (!peek_char(c)) return false;
    ++p_;
    return true;
  }
  void expect(std::string_view lit) {
    if (!accept(lit)) fail(p_, str_cat("expected ", py_repr(lit), ", found ", next12()));
  }
  void expect_char(char c) {
    if (!accept_char(c)) fail(p_, str_cat("expected ", py_repr(std::string_view(&c, 1)), ", found ", next12()));
  }
  /// The end of the current line (where an op's own tokens must start by).
  const char* line_end() const {
    const void* nl = std::memchr(p_, '\n', e_ - p_);
    return nl ? static_cast<const char*>(nl) : e_;
  }
  /// Whether `lit` comes next on this line, before `limit`.
  bool peek_inline(std::string_view lit, const char* limit) const {
    const char* q = p_;
    while (q < e_ && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    if (q > limit) return false;
    return starts(q, lit);
  }
  bool accept_inline(std::string_view lit, const char* limit) {
    if (!peek_inline(lit, limit)) return false;
    skip();
    p_ += lit.size();
    return true;
  }
  /// Python's repr of the next 12 characters, as the reference quotes them.
  std::string next12() const {
    const char* q = p_;
    for (int i = 0; i < 12 && q < e_; ++i) {
      uint32_t cp;
      size_t n = decode_utf8(q, e_, cp);
      q += n ? n : 1;
    }
    return py_repr(std::string_view(p_, q - p_));
  }

  std::string_view word(bool dots) {
    skip();
    const char* start = p_;
    while (p_ < e_ && (is_name_byte(static_cast<unsigned char>(*p_)) || (dots && *p_ == '.'))) ++p_;
    if (p_ == start) fail(p_, str_cat("expected a name, found ", next12()));
    return std::string_view(start, p_ - start);
  }

  int64_t integer() {
    skip();
    const char* start = p_;
    if (p_ < e_ && *p_ == '-') ++p_;
    while (p_ < e_ && *p_ >= '0' && *p_ <= '9') ++p_;
    if (p_ == start || (p_ == start + 1 && *start == '-')) fail(start, "expected an integer");
    int64_t v = 0;
    auto r = std::from_chars(start, p_, v);
    if (r.ec != std::errc() || r.ptr != p_)
      fail(start, str_cat("integer out of range: ", std::string_view(start, p_ - start)));
    return v;
  }

  /// A JSON string literal, decoded (strictly, as Python's json.loads).
  std::string string() {
    skip();
    if (p_ >= e_ || *p_ != '"') fail(p_, "expected a string");
    const char* start = p_;
    const char* q = p_ + 1;
    while (q < e_ && *q != '"') q += *q == '\\' && q + 1 < e_ ? 2 : 1;
    const char* end = q < e_ ? q + 1 : e_;  // past the closing quote
    p_ = end;
    std::string out;
    if (!decode_json(start, end, out)) {
      std::string_view raw(start, end - start);
      if (raw.size() > 80) raw = raw.substr(0, 80);  // keep the message short
      fail(start, str_cat("bad string ", py_repr(raw)));
    }
    return out;
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  static bool hex4(const char* q, const char* end, uint32_t& v) {
    if (end - q < 4) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hex(q[i]);
      if (h < 0) return false;
      v = v << 4 | h;
    }
    return true;
  }
  /// `[start, end)` is `"..."`; false when it is not a valid JSON string.
  static bool decode_json(const char* start, const char* end, std::string& out) {
    if (end - start < 2 || end[-1] != '"') return false;
    const char* q = start + 1;
    const char* stop = end - 1;
    while (q < stop) {
      unsigned char c = static_cast<unsigned char>(*q);
      if (c == '\\') {
        if (stop - q < 2) return false;
        char k = q[1];
        q += 2;
        switch (k) {
          case '"': out.push_back('"'); break;
          case '\\': out.push_back('\\'); break;
          case '/': out.push_back('/'); break;
          case 'b': out.push_back('\b'); break;
          case 'f': out.push_back('\f'); break;
          case 'n': out.push_back('\n'); break;
          case 'r': out.push_back('\r'); break;
          case 't': out.push_back('\t'); break;
          case 'u': {
            uint32_t u;
            if (!hex4(q, stop, u)) return false;
            q += 4;
            uint32_t lo;
            if (u >= 0xD800 && u <= 0xDBFF && stop - q >= 6 && q[0] == '\\' && q[1] == 'u' &&
                hex4(q + 2, stop, lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
              u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
              q += 6;
            }
            // A lone surrogate is not text: no backend could take the string.
            if (u >= 0xD800 && u <= 0xDFFF) return false;
            append_utf8(out, u);
            break;
          }
          default: return false;
        }
      } else if (c < 0x20) {
        return false;  // strict JSON: no raw control characters
      } else if (c < 0x80) {
        out.push_back(static_cast<char>(c));
        ++q;
      } else {
        uint32_t cp;
        size_t n = decode_utf8(q, stop, cp);
        if (n == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return false;  // not UTF-8 text
        out.append(q, n);
        q += n;
      }
    }
    return true;
  }

  /// One type at the cursor: its extent (a word, then `<...>` on the same
  /// line), read by Type::parse and cached by spelling.
  Type type() {
    skip();
    const char* start = p_;
    while (p_ < e_ && (is_name_byte(static_cast<unsigned char>(*p_)) || *p_ == '.')) ++p_;
    if (p_ == start) fail(p_, str_cat("expected a type, found ", next12()));
    const char* q = p_;
    while (q < e_ && (*q == ' ' || *q == '\t')) ++q;
    if (q < e_ && *q == '<') {
      int angle = 0, paren = 0;
      for (;; ++q) {
        if (q >= e_ || *q == '\n') fail(start, str_cat("unterminated type ", py_repr(std::string_view(start, q - start))));
        char c = *q;
        if (c == '(') ++paren;
        else if (c == ')' && paren > 0) --paren;
        else if (paren == 0 && c == '<') {
          if (++angle > kMaxDepth) fail(start, "the type is nested too deeply");
        } else if (paren == 0 && c == '>' && --angle == 0) break;
      }
      p_ = q + 1;
    }
    std::string_view spelled(start, p_ - start);
    if (Type* t = types_.find(spelled)) return *t;
    auto t = Type::parse(spelled);
    if (!t.ok()) fail(start, std::string(t.status().message()));
    types_.insert(spelled, *t);
    return *t;
  }

  // ---- attribute values --------------------------------------------------

  Attribute attribute(int depth) {
    if (depth > kMaxDepth) fail(p_, "attribute values are nested too deeply");
    skip();
    if (p_ >= e_) fail(p_, str_cat("expected an attribute value, found ", next12()));
    switch (*p_) {
      case '{': return Attribute(dict_value(depth));
      case '[': {
        ++p_;
        AttrArray items;
        while (!accept_char(']')) {
          items.push_back(attribute(depth + 1));
          if (!accept_char(',')) {
            expect_char(']');
            break;
          }
        }
        return Attribute(std::move(items));
      }
      case '"': return Attribute(string());
      case '@': ++p_; return Attribute(SymbolRef{std::string(word(true))});
      case '!': ++p_; return Attribute(type());
    }
    if (accept("true")) return Attribute(true);
    if (accept("false")) return Attribute(false);
    if (accept("nan")) return Attribute(std::numeric_limits<double>::quiet_NaN());
    if (accept("-inf")) return Attribute(-std::numeric_limits<double>::infinity());
    if (accept("inf")) return Attribute(std::numeric_limits<double>::infinity());
    return number();
  }

  AttrDict dict_value(int depth) {
    if (depth > kMaxDepth) fail(p_, "attribute values are nested too deeply");
    expect_char('{');
    // One scratch list per depth: no allocation per dict once warm.
    if (dict_scratch_.size() <= static_cast<size_t>(depth)) dict_scratch_.resize(depth + 1);
    dict_scratch_[depth].clear();
    bool sorted = true;
    while (!accept_char('}')) {
      std::string_view key = word(true);
      expect_char('=');
      Attribute value = attribute(depth + 1);
      auto& list = dict_scratch_[depth];  // nested values may have grown the pool
      if (!list.empty() && !(list.back().first < key)) sorted = false;
      list.emplace_back(key, std::move(value));
      if (!accept_char(',')) {
        expect_char('}');
        break;
      }
    }
    auto& list = dict_scratch_[depth];
    // Sorted first, so each set() appends: a dict of many keys stays n log n.
    // Of keys given twice the last wins, as in a Python dict.
    if (!sorted)
      std::stable_sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.first < b.first; });
    AttrDict d;
    for (size_t i = 0; i < list.size(); ++i)
      if (i + 1 == list.size() || list[i + 1].first != list[i].first) d.set(list[i].first, std::move(list[i].second));
    list.clear();
    return d;
  }

  Attribute number() {
    skip();
    const char* start = p_;
    if (p_ < e_ && *p_ == '-') ++p_;
    bool is_float = false;
    while (p_ < e_) {
      char c = *p_;
      if (c >= '0' && c <= '9') {
      } else if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
      } else if ((c == '+' || c == '-') && p_ > start && (p_[-1] == 'e' || p_[-1] == 'E')) {
      } else {
        break;
      }
      ++p_;
    }
    std::string_view raw(start, p_ - start);
    if (raw.empty() || raw == "-") {
      p_ = start;
      fail(start, str_cat("expected an attribute value, found ", next12()));
    }
    if (is_float) {
      double v = 0;
      auto r = std::from_chars(raw.data(), raw.data() + raw.size(), v);
      if (r.ec == std::errc::result_out_of_range && r.ptr == raw.data() + raw.size()) {
        // Python's float() overflows to inf and underflows to 0.
        v = std::strtod(std::string(raw).c_str(), nullptr);
      } else if (r.ec != std::errc() || r.ptr != raw.data() + raw.size()) {
        fail(start, str_cat("bad number ", py_repr(raw)));
      }
      return Attribute(v);
    }
    int64_t v = 0;
    auto r = std::from_chars(raw.data(), raw.data() + raw.size(), v);
    if (r.ec != std::errc() || r.ptr != raw.data() + raw.size()) fail(start, str_cat("bad number ", py_repr(raw)));
    return Attribute(v);
  }

  std::optional<Location> location(const char* limit) {
    if (!accept_inline("loc(", limit)) return std::nullopt;
    skip();
    const char* file_at = p_;
    std::string file = string();
    std::string_view spelled(file_at, p_ - file_at);
    expect_char(':');
    const char* at = (skip(), p_);
    int64_t line = integer();
    expect_char(':');
    int64_t col = integer();
    expect_char(')');
    if (line < 0 || line > UINT32_MAX || col < 0 || col > UINT32_MAX)
      fail(at, "a location's line and column are numbers from 0 to 4294967295");
    Location l;
    // Files repeat: intern each spelling once per parse.
    auto [slot, fresh] = files_.insert(spelled, nullptr);
    if (fresh) *slot = intern(file);
    l.file = *slot;
    l.line = static_cast<uint32_t>(line);
    l.col = static_cast<uint32_t>(col);
    return l;
  }

  // ---- module items ------------------------------------------------------

  void claim_symbol(std::string_view name, const char* at) {
    if (!symbols_.insert(std::string(name)).second)
      fail(at, str_cat("@", name, " is already defined in module ", module_->name()));
  }

  void global(Visibility vis, bool is_mutable) {
    expect_char('@');
    const char* at = p_;
    std::string_view name = word(true);
    expect_char(':');
    Type t = type();
    std::optional<Attribute> value;
    if (accept_char('=')) value = attribute(0);
    claim_symbol(name, at);
    Global g{std::string(name), t, vis, is_mutable, std::move(value)};
    module_->globals().emplace(g.name, std::move(g));
  }

  void function(Visibility vis) {
    expect_char('@');
    const char* name_at = p_;
    std::string_view name = word(true);
    expect_char('(');
    std::vector<Param> params;
    std::vector<const char*> param_at;
    while (!accept_char(')')) {
      Param param;
      skip();
      param_at.push_back(p_);
      if (accept_char('%')) {
        param.name = std::string(word(false));
        expect_char(':');
      } else {
        param.name = str_cat("arg", params.size());
      }
      param.type = type();
      if (peek_char('{')) param.attrs = dict_value(0);
      params.push_back(std::move(param));
      if (!accept_char(',')) {
        expect_char(')');
        break;
      }
    }
    expect("->");
    std::vector<Type> results;
    if (accept_char('(')) {
      while (!accept_char(')')) {
        results.push_back(type());
        if (!accept_char(',')) {
          expect_char(')');
          break;
        }
      }
    } else {
      Type t = type();
      if (!t.is_void()) results.push_back(t);
    }
    AttrDict attrs;
    if (accept("attrs")) attrs = dict_value(0);
    std::optional<Location> loc = location(e_);
    claim_symbol(name, name_at);
    auto f = std::make_unique<Function>(std::string(name), std::move(params), std::move(results));
    f->set_visibility(vis);
    f->attributes() = std::move(attrs);
    f->set_loc(loc);
    Function* fn = module_->add_function(std::move(f));
    if (accept_char('{')) {
      values_.clear();
      blocks_.clear();
      operands_.clear();
      succ_blocks_.clear();
      succ_args_.clear();
      entry_params_ = &fn->params();
      entry_param_at_ = &param_at;
      region(fn->body(), /*is_body=*/true, 0);
      expect_char('}');
      resolve();
    }
  }

  void define(std::string_view name, Value* v, const char* at) {
    if (!values_.insert(name, v).second) fail(at, str_cat("%", name, " is defined twice"));
  }

  void region(Region& r, bool is_body, int depth) {
    if (depth > kMaxDepth) fail(p_, "regions are nested too deeply");
    while (peek_char('^')) {
      const char* label_at = p_++;
      std::string_view label = word(true);
      auto [entry, fresh] = blocks_.insert(label, BlockEntry{});
      if (entry->block) fail(label_at, str_cat("^", label, " is defined twice"));
      Block* block = r.add_block(std::string(label));
      entry->block = block;
      if (is_body && r.blocks().size() == 1 && !peek_char('(')) {
        // The entry block of a function takes the parameters.
        auto& params = *entry_params_;
        for (size_t i = 0; i < params.size(); ++i) {
          Value* v = block->add_argument(params[i].type, params[i].name);
          define(v->hint(), v, (*entry_param_at_)[i]);
        }
      } else if (accept_char('(')) {
        while (!accept_char(')')) {
          expect_char('%');
          const char* at = p_ - 1;
          std::string_view name = word(false);
          expect_char(':');
          Value* v = block->add_argument(type(), std::string(name));
          define(name, v, at);
          if (!accept_char(',')) {
            expect_char(')');
            break;
          }
        }
      }
      expect_char(':');
      std::optional<Location> prev;
      while (skip(), p_ < e_ && *p_ != '^' && *p_ != '}') {
        Operation* op = operation(*block, depth);
        // An op without `loc(...)` has the previous op's location.
        if (!op->loc()) op->set_loc(prev);
        prev = op->loc();
      }
    }
  }

  const OpSpec* spec(std::string_view name) {
    if (const OpSpec** s = specs_.find(name)) return *s;
    const OpSpec* s = reg_.op(name);
    specs_.insert(name, s);
    return s;
  }

  Operation* operation(Block& block, int depth) {
    skip();
    const char* limit = line_end();
    res_names_.clear();
    if (peek_char('%')) {
      while (accept_char('%')) {
        const char* at = p_ - 1;
        res_names_.push_back({word(false), at});
        if (!accept_char(',')) break;
      }
      expect_char('=');
    }
    skip();
    const char* name_at = p_;
    std::string_view name = word(true);
    AttrDict attrs;
    const OpSpec* s = spec(name);
    if (!s && std::count(name.begin(), name.end(), '.') >= 2) {
      // `core.cmp.lt`: the variant rides on the name.
      size_t dot = name.rfind('.');
      const OpSpec* base = spec(name.substr(0, dot));
      if (base && !base->variant_attribute.empty()) {
        s = base;
        attrs.set(base->variant_attribute, Attribute(name.substr(dot + 1)));
        name = name.substr(0, dot);
      }
    }
    if (s && !s->inline_attribute.empty() && !peek_inline("%", limit) && !peek_inline("{", limit) &&
        !peek_inline(":", limit) && !peek_inline("^", limit) && !peek_inline("loc(", limit))
      attrs.set(s->inline_attribute, attribute(0));
    opd_names_.clear();
    while (accept_inline("%", limit)) {
      const char* at = p_ - 1;
      opd_names_.push_back({word(false), at});
      if (!accept_char(',')) break;
    }
    succ_names_.clear();
    succ_arg_names_.clear();
    while (accept_inline("^", limit)) {
      const char* at = p_ - 1;
      std::string_view target = word(true);
      if (accept_char('(')) {
        while (!accept_char(')')) {
          expect_char('%');
          const char* arg_at = p_ - 1;
          succ_arg_names_.push_back({word(false), arg_at, static_cast<uint32_t>(succ_names_.size())});
          if (!accept_char(',')) {
            expect_char(')');
            break;
          }
        }
      }
      succ_names_.push_back({target, at});
      if (!accept_char(',')) break;
    }
    if (peek_inline("{", limit) && !peek_inline("{\n", limit)) {
      AttrDict more = dict_value(0);
      if (attrs.empty()) attrs = std::move(more);
      else
        for (auto& [k, v] : more) attrs.set(k, v);
    }
    types_scratch_.clear();
    if (accept_inline(":", limit)) {
      types_scratch_.push_back(type());
      while (accept_char(',')) types_scratch_.push_back(type());
    }
    if (types_scratch_.size() != res_names_.size())
      fail(name_at, str_cat(name, " names ", res_names_.size(), " result(s) but gives ", types_scratch_.size(),
                            " type(s)"));
    std::optional<Location> loc = location(limit);
    if (name.find('.') == std::string_view::npos)
      fail(name_at, str_cat("an operation name is `dialect.name`, not ", py_repr(name)));

    Operation* op = block.append(Operation::create(name, {}, types_scratch_, std::move(attrs), loc));
    for (size_t i = 0; i < res_names_.size(); ++i) {
      Value* v = op->result(i);
      v->set_hint(std::string(res_names_[i].name));
      define(res_names_[i].name, v, res_names_[i].at);
    }
    auto& operands = op->operands();
    operands.reserve(opd_names_.size());
    for (auto& o : opd_names_) {
      Value** v = values_.find(o.name);
      if (!v) operands_.push_back({op, static_cast<uint32_t>(operands.size()), o.name, o.at});
      operands.push_back(v ? *v : nullptr);
    }
    auto& succs = op->successors();
    succs.resize(succ_names_.size());
    for (size_t i = 0; i < succ_names_.size(); ++i) {
      auto& sn = succ_names_[i];
      BlockEntry* be = blocks_.find(sn.name);
      if (be && be->block) succs[i].block = be->block;
      else succ_blocks_.push_back({op, static_cast<uint32_t>(i), 0, sn.name, sn.at});
    }
    for (auto& a : succ_arg_names_) {
      auto& args = succs[a.succ].args;
      Value** v = values_.find(a.name);
      if (!v) succ_args_.push_back({op, a.succ, static_cast<uint32_t>(args.size()), a.name, a.at});
      args.push_back(v ? *v : nullptr);
    }
    while (peek_inline("{", limit)) {
      expect_char('{');
      region(op->add_region(), false, depth + 1);
      expect_char('}');
      limit = line_end();
    }
    return op;
  }

  /// Names used before their definition, now that the function is read.
  void resolve() {
    for (auto& s : succ_blocks_) {
      BlockEntry* be = blocks_.find(s.name);
      if (!be || !be->block) fail(s.at, str_cat("branch to undefined block ^", s.name));
      s.op->successors()[s.succ].block = be->block;
    }
    for (auto& o : operands_) {
      Value** v = values_.find(o.name);
      if (!v) fail(o.at, str_cat("%", o.name, " is not defined"));
      o.op->operands()[o.index] = *v;
    }
    for (auto& a : succ_args_) {
      Value** v = values_.find(a.name);
      if (!v) fail(a.at, str_cat("%", a.name, " is not defined"));
      a.op->successors()[a.succ].args[a.index] = *v;
    }
  }

  /// A name as written, before it is resolved.
  struct NameAt {
    std::string_view name;
    const char* at;
    uint32_t succ = 0;  ///< for a successor's argument: which successor
  };

  const char* b_;
  const char* p_;
  const char* e_;
  const DialectRegistry& reg_;
  Module* module_ = nullptr;
  std::vector<std::string_view> dialect_order_;
  std::unordered_set<std::string> symbols_;

  // Per function.
  FlatMap<std::string_view, Value*, ViewHash> values_;
  FlatMap<std::string_view, BlockEntry, ViewHash> blocks_;
  std::vector<PendingOperand> operands_;
  std::vector<PendingSuccessor> succ_blocks_;
  std::vector<PendingSuccessor> succ_args_;
  const std::vector<Param>* entry_params_ = nullptr;
  const std::vector<const char*>* entry_param_at_ = nullptr;

  // Per op (consumed before nested regions are read, so shared).
  std::vector<NameAt> res_names_, opd_names_, succ_names_, succ_arg_names_;
  std::vector<Type> types_scratch_;
  std::vector<std::vector<std::pair<std::string_view, Attribute>>> dict_scratch_;

  // Per parse.
  FlatMap<std::string_view, Type, ViewHash> types_;
  FlatMap<std::string_view, const OpSpec*, ViewHash> specs_;
  FlatMap<std::string_view, const std::string*, ViewHash> files_;
};

/// `line L:C` of `at` in `text` (1-based; the column counts characters).
std::string position(std::string_view text, const char* at) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (at < b) at = b;
  if (at > e) at = e;
  size_t line = 1;
  const char* line_start = b;
  for (const char* q = b; q < at; ++q)
    if (*q == '\n') ++line, line_start = q + 1;
  size_t col = 1;
  for (const char* q = line_start; q < at;) {
    uint32_t cp;
    size_t n = decode_utf8(q, e, cp);
    q += n ? n : 1;
    ++col;
  }
  return str_cat("line ", line, ":", col);
}

bool is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

/// The codec's first check: the first non-blank line is exactly `ppyir <digits>`.
absl::Status check_schema(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && is_space(text[i])) ++i;
  size_t nl = text.find('\n', i);
  std::string_view line = text.substr(i, nl == std::string_view::npos ? std::string_view::npos : nl - i);
  std::vector<std::string_view> words;
  for (size_t k = 0; k < line.size();) {
    while (k < line.size() && is_space(line[k])) ++k;
    size_t start = k;
    while (k < line.size() && !is_space(line[k])) ++k;
    if (k > start) words.push_back(line.substr(start, k - start));
  }
  bool digits = words.size() == 2 && !words[1].empty();
  if (digits)
    for (char c : words[1]) digits &= c >= '0' && c <= '9';
  if (!digits || words[0] != "ppyir")
    return absl::InvalidArgumentError("not a .ppyir file: the first line names the schema, `ppyir N`");
  std::string_view n = words[1];
  while (n.size() > 1 && n[0] == '0') n.remove_prefix(1);
  if (n != std::to_string(kIRSchemaVersion))
    return absl::InvalidArgumentError(str_cat("the file is .ppyir schema ", n, "; this compiler reads schema ",
                                              kIRSchemaVersion, " -- emit it again with this compiler"));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Module>> parse_module(std::string_view text, const DialectRegistry& reg) {
  PPY_RETURN_IF_ERROR(check_schema(text));
  // The text is UTF-8 throughout, so every name and string in the module is
  // text a backend (and protobuf's string fields) will take.
  if (Utf8Error bad = check_utf8(text)) {
    static const char hex[] = "0123456789abcdef";
    auto byte = static_cast<unsigned char>(text[bad.offset]);
    return absl::InvalidArgumentError(str_cat(position(text, text.data() + bad.offset), ": not UTF-8: byte 0x",
                                              hex[byte >> 4], hex[byte & 15], ", ", bad.reason));
  }
  Parser parser(text, reg);
  std::unique_ptr<Module> m;
  try {
    m = parser.module();
  } catch (const ParseFailure& f) {
    return absl::InvalidArgumentError(str_cat(position(text, f.at), ": ", f.message));
  }
  for (const std::string& name : parser.dialect_order()) {
    auto it = m->dialects().find(name);
    if (it == m->dialects().end()) continue;
    const Dialect* d = reg.dialect(name);
    if (!d)
      return absl::InvalidArgumentError(
          str_cat("the module uses dialect ", py_repr(name), ", which this compiler does not have"));
    if (it->second > d->version)
      return absl::InvalidArgumentError(str_cat("the module uses dialect ", py_repr(name), " at version ",
                                                it->second, "; this compiler has version ", d->version));
  }
  return m;
}

}  // namespace ppy::ir
