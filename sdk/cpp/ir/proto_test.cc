// Tests of the IR <-> ppy.ir.v1 conversion (proto_write.cc, proto_read.cc): exact round trips, the
// tables that keep the wire small, and each refusal of bad input.
#include "ppy/ir/proto.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/io/coded_stream.h"
#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/ir/v1/ir.pb.h"

namespace ppy::ir {
namespace {

using ::testing::HasSubstr;
namespace pb = ppy::ir::v1;

Type i64() { return Type::i64(); }
Type f64() { return Type::f64(); }
Type vec(Type t, int64_t n) { return *Type::vector(t, n); }

// ---- A structural dump, independent of proto_read.cc and of the printer ---------------
//
// Values print as v<n> in order of first appearance (definition or use), blocks as
// their region path and index, so two modules dump the same iff they have the same
// shape, names, hints, types, attributes and locations.

class Dumper {
 public:
  std::string module(const Module& m) {
    out_ << "module " << m.name() << "\n";
    for (auto& [d, v] : m.dialects()) out_ << "dialect " << d << " " << v << "\n";
    out_ << "attrs " << dict(m.attributes()) << "\n";
    for (auto& [name, g] : m.globals())
      out_ << "global " << name << " key=" << g.name << " vis=" << int(g.visibility) << " mut=" << g.is_mutable
           << " : " << g.type.str() << " = " << (g.initializer ? attr(*g.initializer) : "<none>") << "\n";
    for (auto& f : m.functions()) function(*f);
    return out_.str();
  }

 private:
  void function(const Function& f) {
    values_.clear();
    blocks_.clear();
    out_ << "func " << f.name() << " vis=" << int(f.visibility()) << " decl=" << f.is_declaration() << " (";
    for (auto& p : f.params()) out_ << p.name << ": " << p.type.str() << " " << dict(p.attrs) << ", ";
    out_ << ") -> (";
    for (Type t : f.results()) out_ << t.str() << ", ";
    out_ << ") attrs " << dict(f.attributes()) << " " << loc(f.loc()) << "\n";
    name_blocks(f.body(), "r");
    region(f.body(), 1);
  }
  void name_blocks(const Region& r, const std::string& path) {
    for (size_t i = 0; i < r.blocks().size(); ++i) {
      blocks_[r.blocks()[i].get()] = path + "." + std::to_string(i);
      size_t k = 0;
      for (auto& op : r.blocks()[i]->operations())
        for (auto& nested : op->regions()) name_blocks(*nested, path + "." + std::to_string(i) + "." + std::to_string(k++));
    }
  }
  void region(const Region& r, int depth) {
    std::string pad(depth * 2, ' ');
    for (auto& b : r.blocks()) {
      out_ << pad << "block " << blocks_[b.get()] << " ^" << b->label() << " (";
      for (auto& a : b->arguments()) out_ << value(a.get()) << " '" << a->hint() << "': " << a->type().str() << ", ";
      out_ << ")\n";
      for (auto& op : b->operations()) {
        out_ << pad << "  ";
        for (auto& r : op->results()) out_ << value(&r) << " '" << r.hint() << "': " << r.type().str() << ", ";
        out_ << "= " << op->name() << " (";
        for (Value* v : op->operands()) out_ << value(v) << ", ";
        out_ << ") [";
        for (auto& s : op->successors()) {
          out_ << (blocks_.count(s.block) ? blocks_[s.block] : "?") << "(";
          for (Value* v : s.args) out_ << value(v) << ", ";
          out_ << "), ";
        }
        out_ << "] " << dict(op->attributes()) << " " << loc(op->loc()) << "\n";
        for (auto& nested : op->regions()) {
          out_ << pad << "  {\n";
          region(*nested, depth + 2);
          out_ << pad << "  }\n";
        }
      }
    }
  }
  std::string value(const Value* v) {
    auto [it, _] = values_.emplace(v, values_.size());
    return "v" + std::to_string(it->second);
  }
  static std::string loc(const std::optional<Location>& l) {
    if (!l) return "noloc";
    return "loc(" + (l->file ? *l->file : std::string("<null>")) + ":" + std::to_string(l->line) + ":" +
           std::to_string(l->col) + ")";
  }
  static std::string attr(const Attribute& a) {
    std::ostringstream o;
    if (a.is<bool>()) o << "bool:" << a.as_bool();
    else if (a.is<int64_t>()) o << "int:" << a.as_int();
    else if (a.is<double>()) {
      double d = a.as_float();
      o << "float:" << (std::isnan(d) ? "nan" : "") << (std::signbit(d) ? "-" : "+");
      o.precision(17);
      if (!std::isnan(d)) o << std::fabs(d);
    } else if (a.is<std::string>()) o << "str:'" << a.as_string() << "'";
    else if (a.is<SymbolRef>()) o << "@" << a.as_symbol().name;
    else if (a.is<Type>()) o << "!" << a.as_type().str();
    else if (a.is_array()) {
      o << "[";
      for (auto& e : a.as_array()) o << attr(e) << ", ";
      o << "]";
    } else o << dict(a.as_dict());
    return o.str();
  }
  static std::string dict(const AttrDict& d) {
    std::string s = "{";
    for (auto& [k, v] : d) s += k + " = " + attr(v) + ", ";
    return s + "}";
  }

  std::ostringstream out_;
  std::map<const Value*, size_t> values_;
  std::map<const Block*, std::string> blocks_;
};

std::string dump(const Module& m) { return Dumper().module(m); }

std::unique_ptr<Module> round_trip(const Module& m) {
  auto back = from_proto_bytes(to_proto_bytes(m));
  EXPECT_TRUE(back.ok()) << back.status();
  return back.ok() ? std::move(*back) : std::make_unique<Module>("failed");
}

// ---- A module using every form the wire has --------------------------------------

Operation* add_op(Block* b, std::string_view name, std::vector<Value*> operands, std::vector<Type> results,
                  AttrDict attrs = {}, std::optional<Location> loc = std::nullopt) {
  return b->append(Operation::create(name, std::move(operands), results, std::move(attrs), loc));
}

std::vector<Type> every_type() {
  std::vector<Type> ts;
  for (int k = 0; k <= static_cast<int>(TypeKind::Index); ++k) ts.push_back(Type::scalar(static_cast<TypeKind>(k)));
  ts.push_back(Type::ptr(i64()));
  ts.push_back(Type::ptr(f64(), "stack"));
  ts.push_back(Type::ptr(f64(), "generic", true));
  ts.push_back(Type::ptr(Type::scalar(TypeKind::F32), "shared"));
  ts.push_back(Type::ptr(Type::scalar(TypeKind::U8), "global", true));
  ts.push_back(Type::ptr(i64(), "private"));
  ts.push_back(Type::ptr(i64(), "constant", true));
  ts.push_back(Type::ptr(Type::ptr(i64())));
  ts.push_back(Type::buffer(i64()));
  ts.push_back(Type::future(Type::buffer(f64())));
  ts.push_back(vec(Type::scalar(TypeKind::F32), 4));
  ts.push_back(vec(Type::i1(), 1));
  ts.push_back(Type::tuple({}));
  ts.push_back(Type::tuple({i64(), Type::tuple({f64(), Type::i1()})}));
  ts.push_back(Type::struct_("Point", {{"x", f64()}, {"y", f64()}, {"tag", Type::ptr(Type::scalar(TypeKind::U8))}}));
  ts.push_back(Type::struct_("Empty", {}));
  ts.push_back(Type::dialect("tensor.tensor", {Type::scalar(TypeKind::F32).storage(), int64_t{4}, std::string("dynamic")}));
  ts.push_back(Type::dialect("tensor.shaped", {std::string("(n + 1)"), int64_t{-3}}));
  ts.push_back(Type::dialect("async.token", {}));
  return ts;
}

AttrDict every_attr() {
  AttrDict inner{{"n", true}, {"t", Attribute(Type::scalar(TypeKind::I32))}};
  return AttrDict{
      {"b_false", false},
      {"b_true", true},
      {"i_zero", 0},
      {"i_neg", int64_t{-42}},
      {"i_max", std::numeric_limits<int64_t>::max()},
      {"i_min", std::numeric_limits<int64_t>::min()},
      {"f_half", 2.5},
      {"f_negzero", -0.0},
      {"f_tiny", 5e-324},
      {"f_nan", std::numeric_limits<double>::quiet_NaN()},
      {"f_inf", std::numeric_limits<double>::infinity()},
      {"f_ninf", -std::numeric_limits<double>::infinity()},
      {"s_empty", ""},
      {"s_text", "a \"quoted\"\nline \xc3\xa9\xe2\x82\xac"},
      {"sym", SymbolRef{"callee"}},
      {"ty", Attribute(Type::ptr(f64(), "generic", true))},
      {"arr_empty", AttrArray{}},
      {"arr", AttrArray{1, 2.5, "s", AttrArray{Attribute(true)}, AttrDict{{"k", SymbolRef{"g"}}}}},
      {"dict_empty", AttrDict{}},
      {"dict", AttrDict{{"alpha", inner}, {"zeta", AttrArray{1, 2.5, "s"}}}},
  };
}

std::unique_ptr<Module> rich_module() {
  auto m = std::make_unique<Module>("rich.mod");
  m->dialects()["math"] = 1;
  m->dialects()["gpu"] = 1;
  m->attributes() = AttrDict{{"ppy.source", "rich.ppy"}, {"version", 3}};

  // Globals: every visibility, mutable or not, with and without initializers.
  m->globals()["counter"] = Global{"counter", i64(), Visibility::Private, true, Attribute(0)};
  m->globals()["table"] = Global{"table", Type::buffer(f64()), Visibility::Extern, false, std::nullopt};
  m->globals()["pi"] = Global{"pi", f64(), Visibility::Public, false, Attribute(3.14159)};
  m->globals()["cfg"] = Global{"cfg", Type::tuple({i64(), f64()}), Visibility::Public, false, Attribute(every_attr())};

  // A declaration: named and unnamed params with attribute dicts, no body.
  {
    std::vector<Param> params{{i64(), {{"ppy.noalias", true}}, "n"}, {Type::ptr(f64()), {}, ""}};
    auto f = std::make_unique<Function>("util_twice", std::move(params), std::vector<Type>{i64(), f64()});
    f->set_visibility(Visibility::Extern);
    f->attributes() = AttrDict{{"ppy.external", true}, {"ppy.qualname", "util.twice"}};
    f->set_loc(Location("util.ppy", 1, 1));
    m->add_function(std::move(f));
  }

  // Control flow: a loop whose header uses a value defined later (a back edge),
  // successors with args, repeated and empty hints, and locations.
  {
    auto f = std::make_unique<Function>("loop", std::vector<Param>{{i64(), {}, "n"}, {f64(), {}, "x"}},
                                        std::vector<Type>{f64()});
    f->set_visibility(Visibility::Private);
    f->set_loc(Location("loop.ppy", 10, 1));
    Block* entry = f->create_entry_block("entry");
    Value* n = entry->argument(0);
    Value* x = entry->argument(1);
    Region& body = f->body();
    Block* head = body.add_block("for.head6");
    Block* loop = body.add_block("loop.body");
    Block* exit = body.add_block("exit");
    Value* i = head->add_argument(i64(), "i");
    Value* acc = head->add_argument(f64(), "");
    Location l1("loop.ppy", 11, 5), l2("loop.ppy", 12, 9);
    Operation* zero = add_op(entry, "core.const", {}, {i64()}, {{"value", 0}}, l1);
    zero->result()->set_hint("same");
    add_op(entry, "core.br", {}, {}, {}, l1)->successors().push_back({head, {zero->result(), x}});
    Operation* cmp = add_op(head, "core.cmp", {i, n}, {Type::i1()}, {{"predicate", "lt"}}, l2);
    Operation* cb = add_op(head, "core.cond_br", {cmp->result()}, {}, {}, l2);
    Operation* one = add_op(loop, "core.const", {}, {i64()}, {{"value", 1}});
    one->result()->set_hint("same");
    Operation* next = add_op(loop, "core.add", {i, one->result()}, {i64()}, {{"overflow", "wrap"}}, l2);
    Operation* fi = add_op(loop, "core.cast", {i}, {f64()}, {}, Location("", 0, 0));
    Operation* acc2 = add_op(loop, "core.add", {acc, fi->result()}, {f64()});
    acc2->result()->set_hint("acc.next");
    add_op(loop, "core.br", {}, {})->successors().push_back({head, {next->result(), acc2->result()}});
    // The cond_br refers to the loop block and to the exit with `acc`.
    cb->successors().push_back({loop, {}});
    cb->successors().push_back({exit, {acc}});
    Value* r = exit->add_argument(f64(), "r");
    add_op(exit, "core.ret", {r}, {});
    m->add_function(std::move(f));
  }

  // Nested regions, values of every type, multi-result ops, ops with every attribute form.
  {
    std::vector<Type> ts = every_type();
    std::vector<Param> params;
    for (size_t k = 0; k < ts.size(); ++k) params.push_back({ts[k], {}, "p" + std::to_string(k)});
    auto f = std::make_unique<Function>("kernel", std::move(params), std::vector<Type>{});
    f->attributes() = AttrDict{{"gpu.kind", "kernel"}};
    Block* entry = f->create_entry_block("entry");
    Operation* tid = add_op(entry, "gpu.thread_id", {}, {Type::index()}, {{"dim", "x"}});
    Operation* multi =
        add_op(entry, "core.call", {entry->argument(5), tid->result()}, ts, {{"callee", SymbolRef{"util_twice"}}});
    add_op(entry, "core.call_extern", {multi->result(3)}, {}, every_attr());
    Operation* outer = add_op(entry, "test.region_op", {tid->result()}, {i64()}, {}, Location("k.ppy", 3, 4));
    Region& r1 = outer->add_region();
    Block* rb = r1.add_block("inner");
    Value* arg = rb->add_argument(Type::index(), "k");
    Operation* nested = add_op(rb, "test.nest", {arg, multi->result(0)}, {Type::index()});
    Region& r2 = nested->add_region();
    Block* deep = r2.add_block("");  // an empty label
    Value* d = deep->add_argument(Type::i1(), "");
    add_op(deep, "test.yield", {d, arg, tid->result()}, {});
    Block* rb2 = r1.add_block("inner2");
    add_op(rb, "core.br", {}, {})->successors().push_back({rb2, {}});
    add_op(rb2, "test.yield", {nested->result()}, {});
    outer->add_region();  // an empty second region
    add_op(entry, "core.ret", {}, {});
    m->add_function(std::move(f));
  }
  return m;
}

// ---- Round trips ----------------------------------------------------------------

TEST(Proto, RoundTripIsExact) {
  auto m = rich_module();
  auto back = round_trip(*m);
  EXPECT_EQ(dump(*back), dump(*m));
  // Types, locations' files and op names are interned: equal pointers, not just text.
  const Function& k = *back->function("kernel");
  std::vector<Type> ts = every_type();
  ASSERT_EQ(k.params().size(), ts.size());
  for (size_t i = 0; i < ts.size(); ++i) EXPECT_EQ(k.params()[i].type, ts[i]) << ts[i].str();
  const Operation& cmp = *back->function("loop")->body().blocks()[1]->operations()[0];
  EXPECT_EQ(cmp.loc()->file, intern("loop.ppy"));
  EXPECT_EQ(&cmp.name(), intern("core.cmp"));
}

TEST(Proto, RoundTripPrintsTheSameText) {
  auto m = rich_module();
  auto back = round_trip(*m);
  EXPECT_EQ(print_module(*back), print_module(*m));
}

TEST(Proto, KeepsDeclarationsHintsLabelsAndLocations) {
  auto m = rich_module();
  auto back = round_trip(*m);
  const Function& decl = *back->function("util_twice");
  EXPECT_TRUE(decl.is_declaration());
  EXPECT_EQ(decl.visibility(), Visibility::Extern);
  ASSERT_EQ(decl.params().size(), 2u);
  EXPECT_EQ(decl.params()[0].name, "n");
  EXPECT_EQ(decl.params()[1].name, "");
  EXPECT_TRUE(decl.params()[0].attrs.get("ppy.noalias")->as_bool());
  EXPECT_EQ(decl.loc()->str(), "util.ppy:1:1");

  const Function& loop = *back->function("loop");
  EXPECT_EQ(loop.visibility(), Visibility::Private);
  ASSERT_EQ(loop.body().blocks().size(), 4u);
  EXPECT_EQ(loop.body().blocks()[1]->label(), "for.head6");
  const Block& head = *loop.body().blocks()[1];
  EXPECT_EQ(head.argument(0)->hint(), "i");
  EXPECT_EQ(head.argument(1)->hint(), "");
  // The header's cmp uses %i; the cond_br passes the header's own arg to exit.
  const Operation& cb = *head.operations()[1];
  ASSERT_EQ(cb.successors().size(), 2u);
  EXPECT_EQ(cb.successors()[0].block, loop.body().blocks()[2].get());
  EXPECT_EQ(cb.successors()[1].block, loop.body().blocks()[3].get());
  EXPECT_EQ(cb.successors()[1].args.at(0), head.argument(1));
  // The back edge from the loop body names values defined in its own block.
  const Block& body = *loop.body().blocks()[2];
  const Operation& br = *body.operations().back();
  EXPECT_EQ(br.successors()[0].args[1], body.operations()[3]->result());
  EXPECT_EQ(body.operations()[3]->result()->hint(), "acc.next");
  // Both constants asked for `same`; both keep the hint.
  EXPECT_EQ(loop.body().blocks()[0]->operations()[0]->result()->hint(), "same");
  EXPECT_EQ(body.operations()[0]->result()->hint(), "same");
  // A location with an empty file name survives; an op without one stays without.
  EXPECT_EQ(body.operations()[2]->loc()->str(), ":0:0");
  EXPECT_FALSE(body.operations()[3]->loc().has_value());
}

TEST(Proto, KeepsEveryAttributeForm) {
  auto m = rich_module();
  auto back = round_trip(*m);
  const Operation& ce = *back->function("kernel")->body().entry()->operations()[2];
  EXPECT_EQ(ce.attributes(), every_attr());
  EXPECT_TRUE(std::isnan(ce.attr("f_nan")->as_float()));
  EXPECT_TRUE(std::signbit(ce.attr("f_negzero")->as_float()));
  EXPECT_EQ(ce.attr("i_min")->as_int(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ce.attr("s_text")->as_string(), "a \"quoted\"\nline \xc3\xa9\xe2\x82\xac");
  EXPECT_EQ(back->globals().at("cfg").initializer->as_dict(), every_attr());
  EXPECT_FALSE(back->globals().at("table").initializer.has_value());
  EXPECT_TRUE(back->globals().at("counter").is_mutable);
  EXPECT_EQ(back->globals().at("counter").visibility, Visibility::Private);
}

TEST(Proto, KeepsNestedRegions) {
  auto m = rich_module();
  auto back = round_trip(*m);
  const Block& entry = *back->function("kernel")->body().entry();
  const Operation& outer = *entry.operations()[3];
  ASSERT_EQ(outer.regions().size(), 2u);
  EXPECT_TRUE(outer.regions()[1]->empty());
  const Region& r1 = *outer.regions()[0];
  ASSERT_EQ(r1.blocks().size(), 2u);
  const Operation& nested = *r1.entry()->operations()[0];
  EXPECT_EQ(nested.operand(0), r1.entry()->argument(0));
  EXPECT_EQ(nested.operand(1), entry.operations()[1]->result(0));
  const Block& deep = *nested.regions()[0]->entry();
  EXPECT_EQ(deep.label(), "");
  // The innermost op reaches out to values of two enclosing levels.
  EXPECT_EQ(deep.operations()[0]->operand(1), r1.entry()->argument(0));
  EXPECT_EQ(deep.operations()[0]->operand(2), entry.operations()[0]->result());
  EXPECT_EQ(r1.entry()->operations()[1]->successors()[0].block, r1.blocks()[1].get());
}

TEST(Proto, DialectsAreExactlyTheModules) {
  Module m("m");
  m.dialects().clear();
  m.dialects()["math"] = 1;
  auto back = round_trip(m);
  EXPECT_EQ(back->dialects(), (std::map<std::string, int64_t>{{"math", 1}}));
}

TEST(Proto, TablesHoldEachTypeAndStringOnce) {
  auto m = rich_module();
  pb::Module p;
  to_proto(*m, p);
  EXPECT_EQ(p.schema_version(), 1u);
  ASSERT_GT(p.strings_size(), 0);
  EXPECT_EQ(p.strings(0), "");
  std::set<std::string> strings(p.strings().begin(), p.strings().end());
  EXPECT_EQ(strings.size(), static_cast<size_t>(p.strings_size()));
  EXPECT_TRUE(strings.count("core.const"));
  EXPECT_TRUE(strings.count("loop.ppy"));
  std::set<std::string> types;
  auto back = from_proto(p);
  ASSERT_TRUE(back.ok()) << back.status();
  // Every entry refers only to earlier ones, and no two entries are one type.
  for (int i = 0; i < p.types_size(); ++i) {
    const pb::Type& t = p.types(i);
    if (t.has_ptr()) EXPECT_LT(t.ptr().elem(), static_cast<uint32_t>(i));
    for (uint32_t e : t.tuple().members()) EXPECT_LT(e, static_cast<uint32_t>(i));
    types.insert(t.SerializeAsString());
  }
  EXPECT_EQ(types.size(), static_cast<size_t>(p.types_size()));
}

TEST(Proto, WritesTheBytesProtobufWould) {
  // The writer encodes the wire by hand; protobuf's own serializer of the same
  // message must give the very same bytes (field order, packing, oneof defaults,
  // lengths of 128 bytes and more).
  auto m = rich_module();
  // One long function: its block, body and function lengths need 3 varint bytes.
  auto f = std::make_unique<Function>("long", std::vector<Param>{{i64(), {}, "a"}}, std::vector<Type>{i64()});
  Block* b = f->create_entry_block();
  Value* v = b->argument(0);
  for (int k = 0; k < 1000; ++k)
    v = add_op(b, "core.add", {v, b->argument(0)}, {i64()}, {{"overflow", "wrap"}}, Location("f.ppy", k, 5))->result();
  add_op(b, "core.ret", {v}, {});
  m->add_function(std::move(f));
  std::string ours = to_proto_bytes(*m);
  EXPECT_GT(ours.size(), 16384u);
  pb::Module p;
  ASSERT_TRUE(p.ParseFromString(ours));
  EXPECT_EQ(p.SerializeAsString(), ours);
}

TEST(Proto, LargeStringsAreSharedAndWrittenAsProtobufWould) {
  // Strings of 64 KiB and more are handed over as views of the module rather
  // than copied into the writer's buffers; equal ones still share one table
  // entry, ones that differ in one byte deep inside do not.
  auto m = rich_module();
  std::string blob(200'000, 'w');
  std::string other = blob;
  other[123'456] = 'x';
  int k = 0;
  for (const std::string* s : {&blob, &other, &blob}) {
    Global g;
    g.name = "blob" + std::to_string(k++);
    g.type = i64();
    g.initializer = Attribute(*s);
    m->globals().emplace(g.name, std::move(g));
  }
  std::string ours = to_proto_bytes(*m);
  pb::Module p;
  ASSERT_TRUE(p.ParseFromString(ours));
  EXPECT_EQ(p.SerializeAsString(), ours);
  EXPECT_EQ(std::count(p.strings().begin(), p.strings().end(), blob), 1);
  EXPECT_EQ(std::count(p.strings().begin(), p.strings().end(), other), 1);
  auto back = from_proto_bytes(ours);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(dump(**back), dump(*m));
  EXPECT_EQ((*back)->globals().at("blob1").initializer->as_string(), other);
}

TEST(Proto, AnOpCostsAFewBytes) {
  // 1000 `%v = core.add %a, %b : i64` with a location: ids and indices, no text.
  Module m("m");
  auto f = std::make_unique<Function>("f", std::vector<Param>{{i64(), {}, "a"}}, std::vector<Type>{i64()});
  Block* b = f->create_entry_block();
  Value* v = b->argument(0);
  for (int k = 0; k < 1000; ++k)
    v = add_op(b, "core.add", {v, b->argument(0)}, {i64()}, {{"overflow", "wrap"}}, Location("f.ppy", 1000 + k, 5))
            ->result();
  add_op(b, "core.ret", {v}, {});
  m.add_function(std::move(f));
  std::string bytes = to_proto_bytes(m);
  EXPECT_LT(bytes.size(), 1000u * 32) << bytes.size();
  EXPECT_EQ(dump(*round_trip(m)), dump(m));
}

// ---- Refusals -------------------------------------------------------------------

/// A small valid module's message, for the refusal tests to break.
pb::Module valid_proto() {
  auto m = rich_module();
  pb::Module p;
  to_proto(*m, p);
  EXPECT_TRUE(from_proto(p).ok());
  return p;
}

/// Why `p` is refused; its bytes are refused with the same words.
std::string refusal(const pb::Module& p) {
  auto r = from_proto(p);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "<accepted>";
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  auto via_bytes = from_proto_bytes(p.SerializeAsString());
  EXPECT_EQ(via_bytes.status(), r.status());
  return std::string(r.status().message());
}

pb::Function& fn(pb::Module& p, std::string_view name) {
  for (auto& f : *p.mutable_functions())
    if (f.name() == name) return f;
  ADD_FAILURE() << "no function " << name;
  return *p.mutable_functions(0);
}
pb::Operation& op(pb::Module& p, std::string_view f, int block, int index) {
  return *fn(p, f).mutable_body()->mutable_blocks(block)->mutable_ops(index);
}

TEST(ProtoRefuses, OtherSchemaVersions) {
  pb::Module p = valid_proto();
  p.set_schema_version(2);
  EXPECT_EQ(refusal(p),
            "ppy.ir.v1.Module: the module is ppyir schema 2; this compiler reads schema 1 -- emit it again with this "
            "compiler");
  p.set_schema_version(0);
  EXPECT_THAT(refusal(p), HasSubstr("is ppyir schema 0"));
}

TEST(ProtoRefuses, UnknownAndNewerDialects) {
  pb::Module p = valid_proto();
  auto* d = p.add_dialects();
  d->set_name("tensor");
  d->set_version(1);
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: the module uses dialect 'tensor', which this compiler does not have");
  d->set_name("math");
  d->set_version(1);
  EXPECT_THAT(refusal(p), HasSubstr("dialect 'math' is listed twice"));
  p.mutable_dialects()->RemoveLast();
  for (auto& dv : *p.mutable_dialects())
    if (dv.name() == "gpu") dv.set_version(7);
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: the module uses dialect 'gpu' at version 7; this compiler has version 1");
  // An older version is read.
  for (auto& dv : *p.mutable_dialects())
    if (dv.name() == "gpu") dv.set_version(0);
  EXPECT_TRUE(from_proto(p).ok());
}

TEST(ProtoRefuses, ABadStringTable) {
  pb::Module p = valid_proto();
  p.set_strings(0, "x");
  EXPECT_THAT(refusal(p), HasSubstr("the string table must start with the empty string"));
  p = valid_proto();
  op(p, "loop", 1, 0).set_name(p.strings_size());
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: function @loop: string index " + std::to_string(p.strings_size()) +
                            " is out of range (" + std::to_string(p.strings_size()) + " strings)");
  p = valid_proto();
  op(p, "loop", 1, 0).mutable_loc()->set_file(9999);
  EXPECT_THAT(refusal(p), HasSubstr("string index 9999 is out of range"));
  p = valid_proto();
  op(p, "loop", 1, 0).set_name(0);
  EXPECT_THAT(refusal(p), HasSubstr("function @loop: block ^for.head6: an operation has no name"));
}

TEST(ProtoRefuses, TypeIndicesOutOfRange) {
  pb::Module p = valid_proto();
  int n = p.types_size();
  op(p, "loop", 1, 0).set_result_types(0, n);
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: function @loop: type index " + std::to_string(n) +
                            " is out of range (" + std::to_string(n) + " types)");
  p = valid_proto();
  p.mutable_types(0)->mutable_tuple()->add_members(12345);
  EXPECT_THAT(refusal(p), HasSubstr("type index 12345 is out of range"));
  p = valid_proto();
  p.mutable_globals(0)->set_type(n + 1);
  EXPECT_THAT(refusal(p), HasSubstr("type index " + std::to_string(n + 1) + " is out of range"));
  p = valid_proto();
  fn(p, "loop").mutable_params(0)->set_type(n);
  EXPECT_THAT(refusal(p), HasSubstr("function @loop: type index"));
}

TEST(ProtoRefuses, TypeCycles) {
  pb::Module p = valid_proto();
  int n = p.types_size();
  p.add_types()->set_buffer(n);  // buffer<itself>
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: type " + std::to_string(n) + " refers to itself");
  p = valid_proto();
  n = p.types_size();
  p.add_types()->mutable_ptr()->set_elem(n + 1);
  p.add_types()->mutable_tuple()->add_members(n);  // n -> n+1 -> n
  EXPECT_THAT(refusal(p), HasSubstr("refers to itself"));
  // A chain deeper than the text reader's limit.
  p = valid_proto();
  n = p.types_size();
  p.add_types()->set_scalar(pb::SCALAR_KIND_I64);
  for (int k = 0; k < 100; ++k) p.add_types()->set_future(n + k);
  EXPECT_THAT(refusal(p), HasSubstr("is nested too deeply"));
}

TEST(ProtoRefuses, MalformedTypes) {
  auto refuse_type = [](auto&& edit, std::string_view what) {
    pb::Module p = valid_proto();
    pb::Type* t = p.add_types();
    edit(*t, static_cast<uint32_t>(p.types_size() - 1));
    EXPECT_THAT(refusal(p), HasSubstr(what));
  };
  refuse_type([](pb::Type& t, uint32_t) {}, "the type is empty");
  refuse_type([](pb::Type& t, uint32_t) { t.set_scalar(static_cast<pb::ScalarKind>(99)); }, "unknown scalar kind 99");
  refuse_type([](pb::Type& t, uint32_t) { t.mutable_ptr()->set_space(static_cast<pb::AddressSpace>(9)); },
              "unknown address space 9");
  refuse_type([](pb::Type& t, uint32_t) { t.mutable_vector()->set_lanes(0); }, "a vector has at least 1 lane, not 0");
  refuse_type([](pb::Type& t, uint32_t) { t.mutable_struct_type()->set_name("a, b"); }, "'a, b' is not a struct name");
  refuse_type(
      [](pb::Type& t, uint32_t) {
        t.mutable_struct_type()->set_name("S");
        t.mutable_struct_type()->add_fields()->set_name("");
      },
      "'' is not a field name");
  refuse_type([](pb::Type& t, uint32_t) { t.mutable_dialect()->set_name("nodot"); },
              "'nodot' is not a dialect type name");
  refuse_type(
      [](pb::Type& t, uint32_t) {
        t.mutable_dialect()->set_name("d.t");
        t.mutable_dialect()->add_args()->set_word("(unbalanced");
      },
      "'(unbalanced' is not a dialect type argument");
  refuse_type(
      [](pb::Type& t, uint32_t) {
        t.mutable_dialect()->set_name("d.t");
        t.mutable_dialect()->add_args();
      },
      "a dialect type argument is empty");
}

TEST(ProtoRefuses, VectorsOfNonScalars) {
  pb::Module p = valid_proto();
  uint32_t n = p.types_size();
  p.add_types()->set_scalar(pb::SCALAR_KIND_F32);
  p.add_types()->mutable_ptr()->set_elem(n);
  p.add_types()->mutable_vector()->set_elem(n + 1);
  p.mutable_types(n + 2)->mutable_vector()->set_lanes(4);
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: type " + std::to_string(n + 2) + ": a vector's lanes are scalars, not ptr<f32>");
}

TEST(ProtoRefuses, DanglingValueIds) {
  pb::Module p = valid_proto();
  op(p, "loop", 1, 0).set_operands(1, 500);
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: function @loop: value id 500 is not defined (the function has 11 values)");
  p = valid_proto();
  op(p, "loop", 2, 4).mutable_successors(0)->set_args(0, 11);
  EXPECT_THAT(refusal(p), HasSubstr("value id 11 is not defined"));
  // Ids are per function: one of kernel's many values is not loop's.
  p = valid_proto();
  op(p, "loop", 3, 0).set_operands(0, 40);
  EXPECT_THAT(refusal(p), HasSubstr("function @loop: value id 40 is not defined"));
}

TEST(ProtoRefuses, SuccessorsOutsideTheRegion) {
  pb::Module p = valid_proto();
  op(p, "loop", 1, 1).mutable_successors(1)->set_block(4);
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: function @loop: core.cond_br branches to block 4 of a region of 4 block(s)");
}

TEST(ProtoRefuses, HintCountsThatDoNotMatch) {
  pb::Module p = valid_proto();
  op(p, "loop", 0, 0).add_result_hints(0);
  EXPECT_THAT(refusal(p), HasSubstr("core.const has 1 result(s) but 2 hint(s)"));
  p = valid_proto();
  fn(p, "loop").mutable_body()->mutable_blocks(1)->add_arg_hints(0);
  EXPECT_THAT(refusal(p), HasSubstr("block ^for.head6 has 2 argument(s) but 3 hint(s)"));
}

TEST(ProtoRefuses, BadAttributes) {
  pb::Module p = valid_proto();
  *op(p, "loop", 1, 0).add_attrs() = op(p, "loop", 1, 0).attrs(0);
  EXPECT_THAT(refusal(p), HasSubstr("function @loop: attribute 'predicate' appears twice"));
  p = valid_proto();
  op(p, "loop", 1, 0).mutable_attrs(0)->clear_value();
  EXPECT_THAT(refusal(p), HasSubstr("attribute 'predicate' has no value"));
  p = valid_proto();
  op(p, "loop", 1, 0).mutable_attrs(0)->mutable_value()->mutable_array()->add_values();
  EXPECT_THAT(refusal(p), HasSubstr("an attribute has no value"));
  p = valid_proto();
  op(p, "loop", 1, 0).mutable_attrs(0)->mutable_value()->set_symbol(77777);
  EXPECT_THAT(refusal(p), HasSubstr("string index 77777 is out of range"));
  p = valid_proto();
  pb::Attribute* a = op(p, "loop", 1, 0).mutable_attrs(0)->mutable_value();
  for (int k = 0; k < 300; ++k) a = a->mutable_array()->add_values();
  a->set_int_value(1);
  EXPECT_THAT(refusal(p), HasSubstr("an attribute is nested too deeply"));
}

TEST(ProtoRefuses, GlobalsTwiceAndUnknownVisibility) {
  pb::Module p = valid_proto();
  *p.add_globals() = p.globals(0);
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: global @cfg is defined twice");
  p = valid_proto();
  fn(p, "loop").set_visibility(static_cast<pb::Visibility>(5));
  EXPECT_EQ(refusal(p), "ppy.ir.v1.Module: function @loop: unknown visibility 5");
}

TEST(ProtoRefuses, RegionsNestedTooDeeply) {
  pb::Module p;
  p.set_schema_version(1);
  pb::Function* f = p.add_functions();
  f->set_name("deep");
  p.add_strings();
  p.add_strings("test.op");
  pb::Region* r = f->mutable_body();
  for (int k = 0; k < 300; ++k) {
    pb::Operation* o = r->add_blocks()->add_ops();
    o->set_name(1);
    r = o->add_regions();
  }
  EXPECT_THAT(refusal(p), HasSubstr("function @deep: regions are nested too deeply"));
  // 200 levels are fine, in memory and through the bytes.
  pb::Region* cut = f->mutable_body();
  for (int k = 0; k < 200; ++k) cut = cut->mutable_blocks(0)->mutable_ops(0)->mutable_regions(0);
  cut->Clear();
  auto ok = from_proto_bytes(p.SerializeAsString());
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(dump(*round_trip(**ok)), dump(**ok));
}

TEST(ProtoRefuses, BytesThatAreNotAModule) {
  auto r = from_proto_bytes("\xff\xff\xff garbage");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "ppy.ir.v1.Module: the bytes are not a valid serialized ppy.ir.v1.Module");
  std::string truncated = to_proto_bytes(*rich_module());
  truncated.resize(truncated.size() / 2);
  EXPECT_FALSE(from_proto_bytes(truncated).ok());
  // No bytes at all is a module of schema 0.
  EXPECT_THAT(from_proto_bytes("").status().message(), HasSubstr("is ppyir schema 0"));
}

TEST(Proto, BytesAndMessageAgreeOnUnknownFields) {
  // What protobuf keeps as unknown fields the bytes road skips too: a group
  // (start 0x73 = field 14, end 0x74) holding a nested group and a string, and
  // a five-byte tag whose high bits protobuf drops (field 100663282, bytes).
  std::string good = to_proto_bytes(*rich_module());
  std::string unknown = std::string("\x73\x0a\x02hi\x7b\x08\x01\x7c\x74", 10) +
                        std::string("\x92\xff\xff\xff\x12\x02ok", 8);
  for (std::string bytes : {unknown + good, good + unknown}) {
    pb::Module msg;
    ASSERT_TRUE(msg.ParseFromString(bytes));
    auto via_bytes = from_proto_bytes(bytes);
    ASSERT_TRUE(via_bytes.ok()) << via_bytes.status();
    EXPECT_EQ(dump(**via_bytes), dump(**from_proto(msg)));
  }
  // An unmatched end, or a group that never ends, is refused by both.
  for (std::string bad : {std::string("\x74"), std::string("\x73\x08\x01"), std::string("\x73\x7c")}) {
    EXPECT_FALSE(pb::Module().ParseFromString(good + bad));
    EXPECT_FALSE(from_proto_bytes(good + bad).ok());
  }
}

TEST(Proto, BytesAndMessageAgreeOnHowDeepAFunctionNests) {
  // Unknown groups nested in a function: the function itself is one level of
  // the module's budget, read alone or not.
  auto parses = [](const std::string& bytes) {
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              static_cast<int>(bytes.size()));
    in.SetRecursionLimit(kMaxMessageDepth);
    pb::Module m;
    return m.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
  };
  std::string good = to_proto_bytes(*rich_module());
  for (int n : {kMaxMessageDepth - 2, kMaxMessageDepth - 1, kMaxMessageDepth}) {
    std::string body = "\x0a\x01g" + std::string(n, '\x7b') + std::string(n, '\x7c');  // name "g", groups of field 15
    std::string function = "\x42" + std::string(1, static_cast<char>(0x80 | (body.size() & 0x7f))) +
                           std::string(1, static_cast<char>(body.size() >> 7)) + body;
    bool message_road = parses(good + function);
    EXPECT_EQ(message_road, n < kMaxMessageDepth) << n;
    EXPECT_EQ(from_proto_bytes(good + function).ok(), message_road) << n;
  }
}

TEST(Proto, ReadsForwardReferencesAnywhereInTheFunction) {
  // Use before definition is the verifier's business; the ids resolve.
  pb::Module p = valid_proto();
  pb::Operation& cmp = op(p, "loop", 1, 0);
  cmp.set_operands(0, 10);  // the exit block's argument, defined last
  auto m = from_proto(p);
  ASSERT_TRUE(m.ok()) << m.status();
  const Function& loop = *(*m)->function("loop");
  EXPECT_EQ(loop.body().blocks()[1]->operations()[0]->operand(0), loop.body().blocks()[3]->argument(0));
}

TEST(Proto, WritesUsesThatComeBeforeTheirDefinition) {
  // Block ^early uses a value of ^late, which comes after it; the writer must
  // know the id before it has walked there.
  auto m = std::make_unique<Module>("m");
  auto f = std::make_unique<Function>("f", std::vector<Param>{{i64(), {}, "n"}}, std::vector<Type>{i64()});
  Block* entry = f->create_entry_block("entry");
  Block* early = f->body().add_block("early");
  Block* late = f->body().add_block("late");
  add_op(entry, "core.br", {}, {})->successors().push_back({late, {}});
  Operation* late_value = add_op(late, "core.add", {entry->argument(0), entry->argument(0)}, {i64()});
  add_op(late, "core.br", {}, {})->successors().push_back({early, {}});
  Operation* use = add_op(early, "core.add", {late_value->result(), entry->argument(0)}, {i64()});
  add_op(early, "core.ret", {use->result()}, {});
  m->add_function(std::move(f));
  auto back = from_proto_bytes(to_proto_bytes(*m));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(print_module(**back), print_module(*m));
  const Region& body = (*back)->function("f")->body();
  EXPECT_EQ(body.blocks()[1]->operations()[0]->operand(0), body.blocks()[2]->operations()[0]->result());
}

/// `field` as a protobuf tag of `wire_type`, then `payload` (a varint's bytes, or a length and bytes).
std::string field(int number, int wire_type, std::string payload) {
  std::string out(1, static_cast<char>(number << 3 | wire_type));
  if (wire_type == 2) out += static_cast<char>(payload.size());  // short payloads only
  return out + payload;
}

TEST(Proto, ReadsFunctionsInEveryFormProtobufTakes) {
  // Fields given again (the last wins, messages merge), repeated scalars
  // unpacked, and unknown fields: a function in any of these forms reads as
  // protobuf's parse of it does.
  pb::Module p = valid_proto();
  pb::Function loop = fn(p, "loop");
  p.clear_functions();
  std::string function = loop.SerializeAsString();
  function += field(2, 0, std::string(1, '\0'));       // visibility: public, after private
  function += field(6, 2, field(2, 0, "\x63"));        // loc: line 99, its file and column kept
  function += field(4, 0, "\x01");                     // one more result, unpacked
  function += field(15, 2, "unknown");                 // a field this schema lacks
  std::string bytes = p.SerializeAsString() + field(8, 2, "").substr(0, 1);
  bytes += static_cast<char>(0x80 | (function.size() & 0x7f));
  bytes += static_cast<char>(function.size() >> 7);
  bytes += function;
  ASSERT_LT(function.size(), 1u << 14);
  pb::Module parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  auto via_message = from_proto(parsed);
  auto via_bytes = from_proto_bytes(bytes);
  ASSERT_TRUE(via_message.ok()) << via_message.status();
  ASSERT_TRUE(via_bytes.ok()) << via_bytes.status();
  EXPECT_EQ(dump(**via_bytes), dump(**via_message));
  const Function& f = *(*via_bytes)->function("loop");
  EXPECT_EQ(f.visibility(), Visibility::Public);
  ASSERT_TRUE(f.loc());
  EXPECT_EQ(f.loc()->str(), "loop.ppy:99:1");
  EXPECT_EQ(f.results().size(), 2u);
}

TEST(Proto, BytesAndMessageAgreeOnHowDeepRegionsAndAttributesNest) {
  // An op 256 regions down holds an attribute of arrays `d` deep: within the
  // reader's own limits, but past protobuf's message depth for large `d`.
  for (int d = 118; d <= 130; ++d) {
    pb::Module p = valid_proto();
    pb::Function* f = p.add_functions();
    f->set_name("deep");
    pb::Region* r = f->mutable_body();
    pb::Operation* o = nullptr;
    for (int k = 0; k <= 256; ++k) {
      o = r->add_blocks()->add_ops();
      o->set_name(1);
      if (k < 256) r = o->add_regions();
    }
    pb::NamedAttribute* na = o->add_attrs();
    na->set_key(1);
    pb::Attribute* a = na->mutable_value();
    for (int k = 0; k < d; ++k) a = a->mutable_array()->add_values();
    a->mutable_array();
    std::string bytes = p.SerializeAsString();
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              static_cast<int>(bytes.size()));
    in.SetRecursionLimit(kMaxMessageDepth);
    pb::Module parsed;
    bool message_road = parsed.ParseFromCodedStream(&in) && in.ConsumedEntireMessage() && from_proto(parsed).ok();
    EXPECT_EQ(from_proto_bytes(bytes).ok(), message_road) << d;
    if (d == 118) EXPECT_TRUE(message_road);
    if (d == 130) EXPECT_FALSE(message_road);
  }
}

// ---- The text corpus: text -> IR -> bytes -> IR -> text -------------------------

/// `bytes` through a ModuleReader, given `piece` bytes at a time.
absl::StatusOr<std::unique_ptr<Module>> read_in_pieces(std::string_view bytes, size_t piece) {
  ModuleReader reader;
  for (size_t at = 0; at < bytes.size(); at += piece) reader.add(bytes.substr(at, piece));
  return reader.finish();
}

TEST(Proto, ModuleReaderReadsBytesCutAnywhere) {
  std::string bytes = to_proto_bytes(*rich_module());
  for (size_t piece : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{1000}, bytes.size()}) {
    auto m = read_in_pieces(bytes, piece);
    ASSERT_TRUE(m.ok()) << piece << ": " << m.status();
    EXPECT_EQ(dump(**m), dump(*rich_module())) << piece;
  }
  EXPECT_THAT(ModuleReader().finish().status().message(), HasSubstr("is ppyir schema 0"));
  // In a buffer the caller keeps: what it held before is not part of the module.
  std::string kept = "left over";
  ModuleReader reader(DialectRegistry::builtin(), &kept);
  reader.add(bytes);
  auto m = reader.finish();
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(dump(**m), dump(*rich_module()));
}

TEST(Proto, ModuleReaderReadsFunctionsThatComeBeforeTheirTables) {
  // Protobuf takes fields in any order: functions first, then the strings
  // and types they name. Nothing can be read early; all is read at the end.
  pb::Module p = valid_proto();
  pb::Module functions;
  *functions.mutable_functions() = p.functions();
  p.clear_functions();
  std::string bytes = functions.SerializeAsString() + p.SerializeAsString();
  auto want = from_proto_bytes(bytes);
  ASSERT_TRUE(want.ok()) << want.status();
  for (size_t piece : {size_t{3}, size_t{100}, bytes.size()}) {
    auto m = read_in_pieces(bytes, piece);
    ASSERT_TRUE(m.ok()) << piece << ": " << m.status();
    EXPECT_EQ(dump(**m), dump(**want)) << piece;
  }
}

TEST(Proto, ModuleReaderReadsGlobalsWhereverTheyCome) {
  // Globals are read as they come when their strings and types are in; those
  // that come first are read at the end. Either way, the whole bytes' answer.
  pb::Module p;
  ASSERT_TRUE(p.ParseFromString(to_proto_bytes(*rich_module())));
  ASSERT_GT(p.globals_size(), 1);
  pb::Module globals;
  *globals.mutable_globals() = p.globals();
  pb::Module rest = p;
  rest.clear_globals();
  pb::Module twice = p;
  *twice.add_globals() = p.globals(0);
  pb::Module bad_type = p;
  bad_type.mutable_globals(1)->set_type(9999);
  pb::Module bad_string = p;
  bad_string.mutable_globals(0)->mutable_initializer()->set_text(9999);
  for (std::string bytes : {p.SerializeAsString(), globals.SerializeAsString() + rest.SerializeAsString(),
                            twice.SerializeAsString(), bad_type.SerializeAsString(), bad_string.SerializeAsString()}) {
    auto want = from_proto_bytes(bytes);
    for (size_t piece : {size_t{1}, size_t{9}, bytes.size()}) {
      auto got = read_in_pieces(bytes, piece);
      ASSERT_EQ(got.status(), want.status()) << piece;
      if (want.ok()) EXPECT_EQ(dump(**got), dump(*rich_module())) << piece;
    }
  }
  EXPECT_THAT(from_proto_bytes(twice.SerializeAsString()).status().message(), HasSubstr("is defined twice"));
  EXPECT_THAT(from_proto_bytes(bad_type.SerializeAsString()).status().message(), HasSubstr("type index 9999"));
  EXPECT_THAT(from_proto_bytes(bad_string.SerializeAsString()).status().message(), HasSubstr("string index 9999"));
}

TEST(ProtoRefuses, AModuleWithAFunctionThatIsNotOneAsNotAModule) {
  // Protobuf refuses the whole message, so that is the answer, though the
  // schema (checked first) is wrong too and the function comes last.
  pb::Module p = valid_proto();
  p.set_schema_version(2);
  std::string bytes = p.SerializeAsString() + std::string("\x42\x02\x0a\x05", 4);  // a name of 5 bytes, none there
  EXPECT_FALSE(pb::Module().ParseFromString(bytes));
  EXPECT_EQ(from_proto_bytes(bytes).status().message(), "ppy.ir.v1.Module: the bytes are not a valid serialized ppy.ir.v1.Module");
  EXPECT_EQ(read_in_pieces(bytes, 7).status(), from_proto_bytes(bytes).status());
}

TEST(Proto, ModuleReaderRefusesAsTheWholeBytesAre) {
  std::string good = to_proto_bytes(*rich_module());
  pb::Module dangling = valid_proto();
  op(dangling, "loop", 1, 0).set_operands(0, 999);
  pb::Module bad_type = valid_proto();
  bad_type.mutable_types(0)->mutable_ptr()->set_elem(9999);
  for (std::string bytes : {good.substr(0, good.size() / 2), good + "\x74", std::string("\xff\xff\xff garbage"),
                            dangling.SerializeAsString(), bad_type.SerializeAsString()}) {
    auto want = from_proto_bytes(bytes);
    ASSERT_FALSE(want.ok());
    for (size_t piece : {size_t{1}, size_t{5}, bytes.size()}) EXPECT_EQ(read_in_pieces(bytes, piece).status(), want.status());
  }
}

TEST(Proto, SegmentsAreWholeFieldsThatReadAsTheModule) {
  auto m = rich_module();
  std::vector<std::string> segments;
  int lasts = 0;
  to_proto_segments(*m, 1, [&](const std::vector<std::string_view>& pieces, bool last) {
    std::string segment;
    for (std::string_view p : pieces) segment += p;
    segments.push_back(segment);
    lasts += last;
  });
  EXPECT_EQ(lasts, 1);
  ASSERT_GT(m->globals().size(), 1u);
  // One global or function each: the first segment is 1 byte.
  EXPECT_EQ(segments.size(), m->globals().size() + m->functions().size());
  ModuleReader reader;
  std::string all;
  for (const std::string& segment : segments) {
    EXPECT_TRUE(pb::Module().ParseFromString(segment));  // whole top-level fields
    reader.add(segment);
    all += segment;
  }
  auto via_reader = reader.finish();
  auto via_bytes = from_proto_bytes(all);
  ASSERT_TRUE(via_reader.ok()) << via_reader.status();
  ASSERT_TRUE(via_bytes.ok()) << via_bytes.status();
  EXPECT_EQ(dump(**via_reader), dump(*m));
  EXPECT_EQ(dump(**via_bytes), dump(*m));
}

TEST(Proto, CorpusRoundTripsThroughBytes) {
  std::filesystem::path dir = std::filesystem::path(PPY_SOURCE_DIR) / "tests/ir/corpus";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no corpus at " << dir;
  int n = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".ppyir") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto m = parse_module(text);
    if (!m.ok()) continue;  // files that test parse errors
    ++n;
    std::string printed = print_module(**m);
    auto back = from_proto_bytes(to_proto_bytes(**m));
    ASSERT_TRUE(back.ok()) << e.path() << ": " << back.status();
    EXPECT_EQ(print_module(**back), printed) << e.path();
    EXPECT_EQ(dump(**back), dump(**m)) << e.path();
  }
  EXPECT_GT(n, 0) << "no readable .ppyir file in " << dir;
}

}  // namespace
}  // namespace ppy::ir
