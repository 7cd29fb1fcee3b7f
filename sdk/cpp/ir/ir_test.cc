// Tests of the core IR data structures (ir.cc), types (types.cc) and attributes.
#include "ppy/ir/ir.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace ppy::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Type i64() { return Type::i64(); }

std::unique_ptr<Operation> make(std::string_view name, std::vector<Value*> operands = {},
                                std::vector<Type> results = {}, AttrDict attrs = {}) {
  return Operation::create(name, std::move(operands), results, std::move(attrs));
}

std::vector<std::string> op_names(const Block& b) {
  std::vector<std::string> out;
  for (auto& op : b.operations()) out.push_back(op->name());
  return out;
}

// ---- Operations and blocks -------------------------------------------------------

TEST(Operation, CreateFixesResultsAndInternsTheName) {
  Block b;
  Value* arg = b.add_argument(i64(), "x");
  auto op = Operation::create("core.add", {arg, arg}, {i64()}, {{"overflow", "wrap"}},
                              Location("a.ppy", 3, 7));
  EXPECT_EQ(op->name(), "core.add");
  EXPECT_EQ(op->dialect(), "core");
  EXPECT_EQ(&op->name(), intern("core.add"));
  EXPECT_EQ(op->num_operands(), 2u);
  EXPECT_EQ(op->operand(1), arg);
  ASSERT_EQ(op->num_results(), 1u);
  EXPECT_EQ(op->result()->def(), op.get());
  EXPECT_EQ(op->result()->arg_owner(), nullptr);
  EXPECT_EQ(op->result()->index(), 0u);
  EXPECT_EQ(op->result()->type(), i64());
  EXPECT_EQ(op->attr("overflow")->as_string(), "wrap");
  EXPECT_EQ(op->attr("missing"), nullptr);
  EXPECT_EQ(op->loc()->str(), "a.ppy:3:7");
  EXPECT_EQ(op->parent(), nullptr);
  EXPECT_EQ(op->parent_function(), nullptr);

  auto multi = make("core.call", {}, {i64(), Type::f64()}, {{"callee", SymbolRef{"f"}}});
  EXPECT_EQ(multi->result(1)->index(), 1u);
  EXPECT_EQ(multi->result(1)->def(), multi.get());
  EXPECT_EQ(multi->result(1)->type(), Type::f64());
}

TEST(Operation, DialectOfANameWithoutDotIsTheWholeName) {
  EXPECT_EQ(make("odd")->dialect(), "odd");
  EXPECT_EQ(make("gpu.thread_id")->dialect(), "gpu");
}

TEST(Block, AppendInsertRemoveKeepOrderAndParents) {
  Block b("entry");
  Operation* c = b.append(make("core.const", {}, {i64()}, {{"value", 1}}));
  Operation* r = b.append(make("core.ret", {c->result()}));
  Operation* mid = b.insert(1, make("core.neg", {c->result()}, {i64()}));
  Operation* first = b.insert(0, make("core.const", {}, {i64()}, {{"value", 0}}));
  EXPECT_THAT(op_names(b), ElementsAre("core.const", "core.const", "core.neg", "core.ret"));
  EXPECT_EQ(b.operations()[1].get(), c);
  EXPECT_EQ(b.terminator(), r);
  for (Operation* op : {c, r, mid, first}) EXPECT_EQ(op->parent(), &b);

  std::unique_ptr<Operation> out = b.remove(2);
  EXPECT_EQ(out.get(), mid);
  EXPECT_EQ(out->parent(), nullptr);
  EXPECT_THAT(op_names(b), ElementsAre("core.const", "core.const", "core.ret"));
  b.remove(2);
  EXPECT_EQ(b.terminator()->name(), "core.const");
  b.remove(0);
  b.remove(0);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.terminator(), nullptr);
}

TEST(Block, ArgumentsKnowTheirBlockAndIndexAfterErase) {
  Block b("loop");
  Value* a = b.add_argument(i64(), "a");
  Value* f = b.add_argument(Type::f64(), "f");
  Value* c = b.add_argument(Type::i1(), "c");
  EXPECT_EQ(b.num_arguments(), 3u);
  EXPECT_EQ(a->arg_owner(), &b);
  EXPECT_EQ(a->def(), nullptr);
  EXPECT_EQ(f->hint(), "f");
  EXPECT_EQ(c->index(), 2u);
  b.erase_argument(1);
  ASSERT_EQ(b.num_arguments(), 2u);
  EXPECT_EQ(b.argument(0), a);
  EXPECT_EQ(b.argument(1), c);
  EXPECT_EQ(c->index(), 1u);  // renumbered
  EXPECT_EQ(a->index(), 0u);
}

TEST(Region, BlocksAndParentFunctionThroughNestedOps) {
  Function f("f", {{i64(), {}, "n"}}, {});
  EXPECT_TRUE(f.is_declaration());
  Block* entry = f.create_entry_block();
  EXPECT_FALSE(f.is_declaration());
  EXPECT_EQ(entry->label(), "entry");
  ASSERT_EQ(entry->num_arguments(), 1u);
  EXPECT_EQ(entry->argument(0)->hint(), "n");
  EXPECT_EQ(entry->argument(0)->type(), i64());
  EXPECT_EQ(f.body().entry(), entry);
  EXPECT_EQ(entry->parent(), &f.body());
  EXPECT_EQ(f.body().parent_function(), &f);
  EXPECT_EQ(f.body().parent_op(), nullptr);

  Operation* outer = entry->append(make("test.loop"));
  Region& inner = outer->add_region();
  EXPECT_EQ(inner.parent_op(), outer);
  Block* body = inner.add_block("body");
  Operation* nested = body->append(make("core.ret"));
  EXPECT_EQ(nested->parent_function(), &f);
  EXPECT_EQ(inner.parent_function(), &f);
  EXPECT_EQ(outer->parent_function(), &f);

  Block* second = f.body().add_block("second");
  EXPECT_EQ(f.body().blocks().size(), 2u);
  std::unique_ptr<Block> gone = f.body().remove_block(1);
  EXPECT_EQ(gone.get(), second);
  EXPECT_EQ(gone->parent(), nullptr);
  EXPECT_EQ(f.body().blocks().size(), 1u);
}

TEST(Module, StartsWithCoreAndFindsFunctionsByName) {
  Module m("demo");
  EXPECT_EQ(m.name(), "demo");
  EXPECT_EQ(m.dialects().size(), 1u);
  EXPECT_EQ(m.dialects().at("core"), 1);
  Function* f = m.add_function(std::make_unique<Function>("f", std::vector<Param>{}, std::vector<Type>{}));
  Function* g = m.add_function(std::make_unique<Function>("g", std::vector<Param>{}, std::vector<Type>{}));
  EXPECT_EQ(m.function("g"), g);
  EXPECT_EQ(m.function("f"), f);
  EXPECT_EQ(m.function("h"), nullptr);
  EXPECT_EQ(m.functions()[0].get(), f);
}

TEST(Location, PrintsFileLineColAndInternsTheFile) {
  Location a("x.ppy", 1, 2), b("x.ppy", 1, 2), c("x.ppy", 1, 3);
  EXPECT_EQ(a.str(), "x.ppy:1:2");
  EXPECT_EQ(a.file, b.file);
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a == c);
  EXPECT_EQ(Location().str(), ":0:0");
}

// ---- replace_all_uses and walk -------------------------------------------------

TEST(ReplaceAllUses, RewritesOperandsSuccessorArgsAndNestedRegions) {
  Function f("f", {{i64(), {}, "a"}, {i64(), {}, "b"}}, {i64()});
  Block* entry = f.create_entry_block();
  Value* a = entry->argument(0);
  Value* b = entry->argument(1);
  Operation* add = entry->append(make("core.add", {a, a}, {i64()}));
  Operation* holder = entry->append(make("test.region"));
  Block* inner = holder->add_region().add_block("inner");
  Operation* nested = inner->append(make("core.neg", {a}, {i64()}));
  Block* exit = f.body().add_block("exit");
  exit->add_argument(i64(), "r");
  Operation* br = entry->append(make("core.br"));
  br->successors().push_back({exit, {a}});
  exit->append(make("core.ret", {exit->argument(0)}));

  replace_all_uses(f.body(), a, b);
  EXPECT_THAT(add->operands(), ElementsAre(b, b));
  EXPECT_THAT(nested->operands(), ElementsAre(b));
  EXPECT_THAT(br->successors()[0].args, ElementsAre(b));
  EXPECT_EQ(br->successors()[0].block, exit);
  // Only `from` moves.
  EXPECT_THAT(exit->terminator()->operands(), ElementsAre(exit->argument(0)));
}

TEST(Walk, VisitsOuterOpsBeforeTheirNestedOnesInOrder) {
  Function f("f", {}, {});
  Block* entry = f.create_entry_block();
  entry->append(make("t.a"));
  Operation* b = entry->append(make("t.b"));
  Region& r1 = b->add_region();
  r1.add_block()->append(make("t.b1"));
  Operation* b2 = r1.add_block()->append(make("t.b2"));
  b2->add_region().add_block()->append(make("t.b2x"));
  b->add_region().add_block()->append(make("t.b3"));
  f.body().add_block("next")->append(make("t.c"));

  std::vector<std::string> seen;
  walk(f.body(), [&](Operation& op) { seen.push_back(op.name()); });
  EXPECT_THAT(seen, ElementsAre("t.a", "t.b", "t.b1", "t.b2", "t.b2x", "t.b3", "t.c"));

  std::vector<std::string> seen_const;
  const Region& cr = f.body();
  walk(cr, [&](const Operation& op) { seen_const.push_back(op.name()); });
  EXPECT_EQ(seen_const, seen);
}

TEST(Walk, MutableWalkSeesOpsAppendedToTheCurrentBlock) {
  Function f("f", {}, {});
  Block* entry = f.create_entry_block();
  entry->append(make("t.grow"));
  int visits = 0;
  walk(f.body(), [&](Operation& op) {
    ++visits;
    if (op.name() == "t.grow") op.parent()->append(make("t.added"));
  });
  EXPECT_EQ(visits, 2);
}

// ---- clone ---------------------------------------------------------------

/// A module exercising everything clone must carry: globals, attributes,
/// visibility, params with attrs, locations, hints, block args, successors,
/// nested regions and a use of a value whose block comes later in the region.
std::unique_ptr<Module> sample_module() {
  auto m = std::make_unique<Module>("sample");
  m->dialects()["gpu"] = 1;
  m->attributes().set("ppy.source", "sample.ppy");
  m->globals()["counter"] = Global{"counter", i64(), Visibility::Private, true, Attribute(0)};
  m->add_function(std::make_unique<Function>("ext", std::vector<Param>{{i64(), {}, "x"}},
                                             std::vector<Type>{i64()}))
      ->set_visibility(Visibility::Extern);

  auto f = std::make_unique<Function>("f", std::vector<Param>{{i64(), {{"ppy.name", "n"}}, "n"}},
                                      std::vector<Type>{i64()});
  f->set_visibility(Visibility::Private);
  f->attributes().set("ppy.qualname", "sample.f");
  f->set_loc(Location("sample.ppy", 1, 1));
  Block* entry = f->create_entry_block();
  Block* late = f->body().add_block("late");     // listed second, reached from `mid`
  Block* mid = f->body().add_block("mid");       // defines %m, used in `late`
  Value* n = entry->argument(0);
  Operation* one = entry->append(Operation::create("core.const", {}, {i64()}, {{"value", 1}},
                                                   Location("sample.ppy", 2, 3)));
  one->result()->set_hint("one");
  Operation* br = entry->append(make("core.br"));
  br->successors().push_back({mid, {}});

  Operation* m_op = mid->append(make("core.add", {n, one->result()}, {i64()}, {{"overflow", "wrap"}}));
  m_op->result()->set_hint("m");
  Operation* to_late = mid->append(make("core.br"));
  to_late->successors().push_back({late, {m_op->result()}});

  Value* arg = late->add_argument(i64(), "arg");
  // A nested region in an earlier-listed block using %m from a later-listed one.
  Operation* holder = late->append(make("test.region", {}, {i64()}));
  Block* inner = holder->add_region().add_block("inner");
  Value* inner_arg = inner->add_argument(i64(), "i");
  Operation* use = inner->append(make("core.add", {m_op->result(), inner_arg}, {i64()}));
  inner->append(make("test.yield", {use->result(), arg}));
  late->append(make("core.ret", {holder->result()}));
  m->add_function(std::move(f));
  return m;
}

/// Every value a function's ops use, with where it was found.
std::vector<const Value*> used_values(const Function& f) {
  std::vector<const Value*> out;
  walk(f.body(), [&](const Operation& op) {
    for (const Value* v : op.operands()) out.push_back(v);
    for (auto& s : op.successors())
      for (const Value* v : s.args) out.push_back(v);
  });
  return out;
}

/// Every value a function defines.
std::vector<const Value*> defined_values(const Region& r) {
  std::vector<const Value*> out;
  for (auto& b : r.blocks()) {
    for (auto& a : b->arguments()) out.push_back(a.get());
    for (auto& op : b->operations()) {
      for (auto& v : op->results()) out.push_back(&v);
      for (auto& nested : op->regions()) {
        auto more = defined_values(*nested);
        out.insert(out.end(), more.begin(), more.end());
      }
    }
  }
  return out;
}

TEST(Clone, CopiesModuleLevelState) {
  auto m = sample_module();
  auto c = clone(*m);
  EXPECT_EQ(c->name(), "sample");
  EXPECT_EQ(c->dialects(), m->dialects());
  EXPECT_EQ(c->attributes(), m->attributes());
  ASSERT_EQ(c->globals().size(), 1u);
  const Global& g = c->globals().at("counter");
  EXPECT_EQ(g.visibility, Visibility::Private);
  EXPECT_TRUE(g.is_mutable);
  EXPECT_EQ(*g.initializer, Attribute(0));
  ASSERT_EQ(c->functions().size(), 2u);
  EXPECT_EQ(c->functions()[0]->name(), "ext");
  EXPECT_EQ(c->functions()[0]->visibility(), Visibility::Extern);
  EXPECT_TRUE(c->functions()[0]->is_declaration());
  EXPECT_EQ(c->functions()[0]->params()[0].name, "x");
}

TEST(Clone, CopiesFunctionsDeeplyAndRemapsEveryValueAndBlock) {
  auto m = sample_module();
  auto c = clone(*m);
  const Function& f = *m->function("f");
  const Function& cf = *c->function("f");
  ASSERT_NE(&f, &cf);
  EXPECT_EQ(cf.visibility(), Visibility::Private);
  EXPECT_EQ(cf.attributes(), f.attributes());
  EXPECT_EQ(cf.loc(), f.loc());
  ASSERT_EQ(cf.params().size(), 1u);
  EXPECT_EQ(cf.params()[0].attrs, f.params()[0].attrs);
  EXPECT_EQ(cf.results(), f.results());
  EXPECT_EQ(cf.body().parent_function(), &cf);

  // Same shape: labels, names, types, hints, attributes, locations.
  ASSERT_EQ(cf.body().blocks().size(), 3u);
  std::vector<std::string> labels, clabels;
  for (auto& b : f.body().blocks()) labels.push_back(b->label());
  for (auto& b : cf.body().blocks()) clabels.push_back(b->label());
  EXPECT_EQ(clabels, labels);
  std::vector<const Operation*> ops, cops;
  walk(f.body(), [&](const Operation& op) { ops.push_back(&op); });
  walk(cf.body(), [&](const Operation& op) { cops.push_back(&op); });
  ASSERT_EQ(cops.size(), ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    EXPECT_NE(cops[i], ops[i]);
    EXPECT_EQ(cops[i]->name(), ops[i]->name());
    EXPECT_EQ(cops[i]->attributes(), ops[i]->attributes());
    EXPECT_EQ(cops[i]->loc(), ops[i]->loc());
    ASSERT_EQ(cops[i]->num_results(), ops[i]->num_results());
    for (size_t r = 0; r < ops[i]->num_results(); ++r) {
      EXPECT_EQ(cops[i]->result(r)->hint(), ops[i]->result(r)->hint());
      EXPECT_EQ(cops[i]->result(r)->type(), ops[i]->result(r)->type());
      EXPECT_EQ(cops[i]->result(r)->def(), cops[i]);
    }
    ASSERT_EQ(cops[i]->num_operands(), ops[i]->num_operands());
    ASSERT_EQ(cops[i]->successors().size(), ops[i]->successors().size());
  }
  const Block* late = cf.body().blocks()[1].get();
  EXPECT_EQ(late->argument(0)->hint(), "arg");
  EXPECT_EQ(late->argument(0)->arg_owner(), late);

  // No value or block of the original is reachable from the copy.
  std::vector<const Value*> originals = defined_values(f.body());
  std::vector<const Value*> copies = defined_values(cf.body());
  for (const Value* v : used_values(cf)) {
    EXPECT_EQ(std::count(originals.begin(), originals.end(), v), 0) << "a use still points into the original";
    EXPECT_EQ(std::count(copies.begin(), copies.end(), v), 1);
  }
  for (const Operation* op : cops)
    for (auto& s : op->successors()) EXPECT_EQ(s.block->parent(), &cf.body());

  // Uses map to the corresponding copies, position by position.
  std::vector<const Value*> uses = used_values(f), cuses = used_values(cf);
  ASSERT_EQ(cuses.size(), uses.size());
  for (size_t i = 0; i < uses.size(); ++i) {
    auto at = std::find(originals.begin(), originals.end(), uses[i]) - originals.begin();
    EXPECT_EQ(cuses[i], copies[at]) << "use " << i;
  }
}

TEST(Clone, TheCopyIsIndependentOfTheOriginal) {
  auto m = sample_module();
  auto c = clone(*m);
  m->function("f")->body().blocks()[0]->operations()[0]->attributes().set("value", 99);
  m->globals().clear();
  m.reset();
  EXPECT_EQ(c->function("f")->body().blocks()[0]->operations()[0]->attr("value")->as_int(), 1);
  EXPECT_EQ(c->globals().size(), 1u);
}

// ---- Arenas (issue 20) --------------------------------------------------------------

TEST(Arena, AlignsAndServesRequestsOfEverySize) {
  Arena a;
  EXPECT_EQ(a.bytes_reserved(), 0u);
  char* first = static_cast<char*>(a.allocate(3, 1));
  void* aligned = a.allocate(8, 16);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 16, 0u);
  EXPECT_GT(static_cast<char*>(aligned), first);
  // Bigger than a chunk: served alone, and written end to end.
  size_t big = size_t{1} << 20;
  char* p = static_cast<char*>(a.allocate(big, 8));
  std::fill(p, p + big, 'x');
  EXPECT_GE(a.bytes_reserved(), big);
  // Many small ones spill into further chunks, none overlapping.
  std::vector<uint64_t*> cells;
  for (int i = 0; i < 100000; ++i) {
    cells.push_back(static_cast<uint64_t*>(a.allocate(sizeof(uint64_t), alignof(uint64_t))));
    *cells.back() = static_cast<uint64_t>(i);
  }
  for (int i = 0; i < 100000; ++i) ASSERT_EQ(*cells[i], static_cast<uint64_t>(i));
}

TEST(Clone, PlacesTheCopysOpsInOneArenaEveryFunctionKeeps) {
  Module m;
  auto* f =
      m.add_function(std::make_unique<Function>("f", std::vector<Param>{{i64(), {}, "x"}}, std::vector<Type>{i64()}));
  Block* b = f->create_entry_block();
  Value* v = b->append(make("core.add", {b->argument(0), b->argument(0)}, {i64()}, {{"overflow", "wrap"}}))->result();
  v->set_hint("sum");
  b->append(make("core.ret", {v}));
  m.add_function(std::make_unique<Function>("g", std::vector<Param>{}, std::vector<Type>{}))
      ->create_entry_block()
      ->append(make("core.ret"));
  EXPECT_EQ(b->operations()[0]->arena(), nullptr);  // made by create alone

  auto copy = clone(m);
  Function* cf = copy->function("f");
  Function* cg = copy->function("g");
  ASSERT_NE(cf->arena(), nullptr);
  EXPECT_EQ(cf->arena(), cg->arena());
  for (auto& op : cf->body().entry()->operations()) EXPECT_EQ(op->arena(), cf->arena());
  EXPECT_EQ(cf->body().entry()->operations()[0]->result()->hint(), "sum");
  EXPECT_EQ(&cf->body().entry()->operations()[0]->result()->hint(), &v->hint());  // interned, shared
}

TEST(Clone, AFunctionMovedOutOfTheCopyOutlivesIt) {
  auto original = std::make_unique<Module>();
  auto* f = original->add_function(
      std::make_unique<Function>("f", std::vector<Param>{{i64(), {}, "x"}}, std::vector<Type>{i64()}));
  Block* b = f->create_entry_block();
  Value* v = b->append(make("core.add", {b->argument(0), b->argument(0)}, {i64()}, {{"overflow", "wrap"}}))->result();
  b->append(make("core.ret", {v}));
  std::string text = print_module(*original);

  auto copy = clone(*original);
  Module other;
  other.add_function(std::move(copy->functions()[0]));  // as the linker moves functions
  copy->functions().clear();
  copy.reset();
  // The function's ops still read as they were: its arena lives with it.
  other.set_name(original->name());
  EXPECT_EQ(print_module(other), text);
  EXPECT_TRUE(verify(other).empty());
}

TEST(Clone, AnOpMovedIntoAnotherModulesFunctionKeepsItsArenaAlive) {
  auto original = std::make_unique<Module>();
  auto* f = original->add_function(
      std::make_unique<Function>("f", std::vector<Param>{{i64(), {}, "x"}}, std::vector<Type>{i64()}));
  Block* b = f->create_entry_block();
  b->append(make("core.const", {}, {i64()}, {{"value", 7}}));
  b->append(make("core.ret", {b->argument(0)}));
  auto copy = clone(*original);
  Arena* arena = copy->function("f")->arena();

  Module other;
  auto* g = other.add_function(std::make_unique<Function>("g", std::vector<Param>{}, std::vector<Type>{i64()}));
  Block* gb = g->create_entry_block();
  Operation* moved = gb->append(copy->function("f")->body().entry()->remove(0));
  EXPECT_EQ(moved->arena(), arena);
  gb->append(make("core.ret", {moved->result()}));
  copy.reset();  // the arena's last owner is now g
  EXPECT_EQ(moved->attr("value")->as_int(), 7);
  EXPECT_EQ(moved->result()->def(), moved);
  EXPECT_TRUE(verify(other).empty());
}

TEST(Clone, EveryCorpusModulePrintsAndVerifiesAsItsOriginal) {
  namespace fs = std::filesystem;
  int files = 0;
  for (auto& e : fs::directory_iterator(fs::path(PPY_SOURCE_DIR) / "tests/ir/corpus")) {
    if (e.path().extension() != ".ppyir") continue;
    SCOPED_TRACE(e.path().string());
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<std::unique_ptr<Module>> m = parse_module(text.str());
    ASSERT_TRUE(m.ok()) << m.status();
    std::unique_ptr<Module> c = clone(**m);
    EXPECT_EQ(print_module(*c), print_module(**m));
    std::vector<std::string> want, got;
    for (auto& d : verify(**m)) want.push_back(d.str());
    for (auto& d : verify(*c)) got.push_back(d.str());
    EXPECT_EQ(got, want);
    ++files;
  }
  EXPECT_GE(files, 5);
}

// ---- Types ---------------------------------------------------------------

Type parse(std::string_view s) {
  absl::StatusOr<Type> t = Type::parse(s);
  EXPECT_TRUE(t.ok()) << s << ": " << t.status();
  return t.ok() ? *t : Type();
}

std::string parse_error(std::string_view s) {
  absl::StatusOr<Type> t = Type::parse(s);
  EXPECT_FALSE(t.ok()) << s << " parsed as " << t->str();
  return t.ok() ? "" : std::string(t.status().message());
}

TEST(Types, ScalarsRoundTrip) {
  for (const char* s : {"void", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32",
                        "f64", "index"})
    EXPECT_EQ(parse(s).str(), s);
  EXPECT_EQ(parse("i64"), Type::i64());
  EXPECT_EQ(parse("bool"), Type::i1());
  EXPECT_TRUE(parse("u32").is_int());
  EXPECT_FALSE(parse("u32").is_signed());
  EXPECT_TRUE(parse("i8").is_signed());
  EXPECT_TRUE(parse("index").is_integer_like());
  EXPECT_FALSE(parse("index").is_int());
  EXPECT_TRUE(parse("f16").is_float());
  EXPECT_EQ(parse("f16").bit_width(), 16);
  EXPECT_EQ(parse("bool").bit_width(), 1);
  EXPECT_EQ(parse("index").bit_width(), 64);
  EXPECT_EQ(parse("ptr<i8>").bit_width(), 0);
}

TEST(Types, PointersCanonicalise) {
  Type p = parse("ptr<i64>");
  EXPECT_EQ(p, Type::ptr(Type::i64()));
  EXPECT_EQ(parse("ptr<i64, generic, mut>"), p);
  EXPECT_EQ(parse("ptr<i64, generic>"), p);
  EXPECT_EQ(parse("ptr<i64, mut>"), p);
  EXPECT_EQ(parse("ptr< i64 ,generic , mut >"), p);
  EXPECT_TRUE(p.is_ptr());
  EXPECT_EQ(p.elem(), Type::i64());
  EXPECT_EQ(p.ptr_space(), "generic");
  EXPECT_FALSE(p.ptr_const());

  Type c = parse("ptr<f64, generic, const>");
  EXPECT_EQ(c.str(), "ptr<f64, generic, const>");
  EXPECT_TRUE(c.ptr_const());
  EXPECT_EQ(parse("ptr<f64, const>"), c);
  EXPECT_EQ(Type::ptr(Type::f64(), "generic", true), c);

  EXPECT_EQ(parse("ptr<f64, stack>").str(), "ptr<f64, stack>");
  EXPECT_EQ(parse("ptr<f64, stack, mut>").str(), "ptr<f64, stack>");
  EXPECT_EQ(parse("ptr<f32, shared, const>").str(), "ptr<f32, shared, const>");
  EXPECT_EQ(parse("ptr<f32, global>").ptr_space(), "global");
  EXPECT_EQ(parse("ptr<ptr<i8>>").elem(), Type::ptr(parse("i8")));
}

TEST(Types, CompositesRoundTrip) {
  for (const char* s : {"buffer<i64>", "future<f64>", "vector<f32, 4>", "vector<bool, 8>", "tuple<>",
                        "tuple<i64, f64>", "tuple<tuple<>, ptr<i8, stack>>", "struct<Point, x: f64, y: f64>",
                        "struct<Empty>", "buffer<tuple<i64, bool>>", "future<vector<i32, 2>>"})
    EXPECT_EQ(parse(s).str(), s);
  Type v = parse("vector<f32, 4>");
  EXPECT_EQ(v.kind(), TypeKind::Vector);
  EXPECT_EQ(v.vector_len(), 4);
  EXPECT_EQ(v.elem(), parse("f32"));
  Type t = parse("tuple<i64, f64>");
  EXPECT_EQ(t.num_elems(), 2u);
  EXPECT_EQ(t.elem(1), Type::f64());
  Type s = parse("struct<Point, x: f64, y: i64>");
  ASSERT_EQ(s.storage()->fields.size(), 2u);
  EXPECT_EQ(s.storage()->fields[1].name, "y");
  EXPECT_EQ(Type(s.storage()->fields[1].type), Type::i64());
  EXPECT_EQ(s.storage()->name, "Point");
  EXPECT_EQ(parse("tuple< i64 , f64 >").str(), "tuple<i64, f64>");
}

TEST(Types, DialectTypesKeepTheirArguments) {
  Type t = parse("tensor.tensor<f32, 4, dynamic>");
  EXPECT_EQ(t.kind(), TypeKind::Dialect);
  EXPECT_EQ(t.str(), "tensor.tensor<f32, 4, dynamic>");
  EXPECT_EQ(t.storage()->name, "tensor.tensor");
  const auto& args = t.storage()->args;
  ASSERT_EQ(args.size(), 3u);
  ASSERT_TRUE(std::holds_alternative<const TypeStorage*>(args[0]));
  EXPECT_EQ(Type(std::get<const TypeStorage*>(args[0])), parse("f32"));
  EXPECT_EQ(std::get<int64_t>(args[1]), 4);
  EXPECT_EQ(std::get<std::string>(args[2]), "dynamic");
  EXPECT_EQ(t, Type::dialect("tensor.tensor", {parse("f32").storage(), int64_t{4}, std::string("dynamic")}));

  EXPECT_EQ(parse("async.token").str(), "async.token");
  EXPECT_TRUE(parse("async.token").storage()->args.empty());
  Type e = parse("tensor.tensor<f64, (n + 1), -2, ptr<i8>>");
  EXPECT_EQ(e.str(), "tensor.tensor<f64, (n + 1), -2, ptr<i8>>");
  EXPECT_EQ(std::get<std::string>(e.storage()->args[1]), "(n + 1)");
  EXPECT_EQ(std::get<int64_t>(e.storage()->args[2]), -2);
}

TEST(Types, ManyWordArgumentsAreNotMistakenForDeepNesting) {
  std::string text = "shape.dims<";
  for (int i = 0; i < 100; ++i) text += i ? ", n" : "n";
  text += ", ptr<i8>>";
  Type t = parse(text);
  ASSERT_EQ(t.storage()->args.size(), 101u);
  ASSERT_TRUE(std::holds_alternative<const TypeStorage*>(t.storage()->args[100]));
  EXPECT_EQ(Type(std::get<const TypeStorage*>(t.storage()->args[100])), Type::ptr(parse("i8")));
}

TEST(Types, Refusals) {
  EXPECT_THAT(parse_error("i7"), HasSubstr("unknown type 'i7'"));
  EXPECT_THAT(parse_error("vector<bool>"), HasSubstr("expected ','"));
  EXPECT_THAT(parse_error("ptr<>"), HasSubstr("expected a type"));
  EXPECT_THAT(parse_error("i64 extra"), HasSubstr("unexpected 'extra' after the type"));
  EXPECT_THAT(parse_error("vector<buffer<i64>, 4>"), HasSubstr("a vector's lanes are scalars"));
  EXPECT_THAT(parse_error("vector<void, 4>"), HasSubstr("a vector's lanes are scalars"));
  EXPECT_THAT(parse_error("vector<i64, 0>"), HasSubstr("at least 1 lane"));
  EXPECT_THAT(parse_error("ptr<i64, nowhere>"), HasSubstr("unknown address space 'nowhere'"));
  EXPECT_THAT(parse_error("ptr<i64, stack, maybe>"), HasSubstr("expected const or mut"));
  EXPECT_THAT(parse_error(""), HasSubstr("expected a type"));
  EXPECT_THAT(parse_error("tuple<i64"), HasSubstr("expected '>'"));
  EXPECT_THAT(parse_error("struct<>"), HasSubstr("a struct needs a name"));
  EXPECT_THAT(parse_error("tensor.t<(a"), HasSubstr("unbalanced '('"));
  EXPECT_THAT(parse_error("ptr<i64"), HasSubstr("bad type 'ptr<i64'"));
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "ptr<";
  deep += "i8";
  for (int i = 0; i < 100; ++i) deep += ">";
  EXPECT_THAT(parse_error(deep), HasSubstr("nested too deeply"));
  EXPECT_FALSE(Type::vector(Type::i64(), -1).ok());
}

// ---- Attributes -------------------------------------------------------------

TEST(Attributes, KindsAndEquality) {
  EXPECT_TRUE(Attribute(true).is<bool>());
  EXPECT_TRUE(Attribute(3).is<int64_t>());
  EXPECT_TRUE(Attribute(2.5).is<double>());
  EXPECT_TRUE(Attribute("s").is<std::string>());
  EXPECT_TRUE(Attribute(std::string_view("s")).is<std::string>());
  EXPECT_TRUE(Attribute(SymbolRef{"f"}).is<SymbolRef>());
  EXPECT_TRUE(Attribute(Type::i64()).is<Type>());
  EXPECT_TRUE(Attribute(AttrArray{1, 2}).is_array());
  EXPECT_TRUE(Attribute(AttrDict{{"k", 1}}).is_dict());
  EXPECT_TRUE(Attribute().is<bool>());

  EXPECT_EQ(Attribute(3), Attribute(int64_t{3}));
  EXPECT_FALSE(Attribute(1) == Attribute(true));   // bool and int stay apart
  EXPECT_FALSE(Attribute(1) == Attribute(1.0));    // and int and float
  EXPECT_FALSE(Attribute("f") == Attribute(SymbolRef{"f"}));
  EXPECT_EQ(Attribute(std::nan("")), Attribute(std::nan("")));
  EXPECT_FALSE(Attribute(0.5) == Attribute(std::nan("")));
  EXPECT_EQ(Attribute(Type::i64()), Attribute(parse("i64")));
  EXPECT_EQ(Attribute(AttrArray{1, "a", AttrArray{true}}), Attribute(AttrArray{1, "a", AttrArray{true}}));
  EXPECT_FALSE(Attribute(AttrArray{1, 2}) == Attribute(AttrArray{1, 3}));
  EXPECT_FALSE(Attribute(AttrArray{1}) == Attribute(AttrArray{1, 1}));
  EXPECT_EQ(Attribute(AttrDict{{"a", 1}, {"b", AttrDict{{"n", true}}}}),
            Attribute(AttrDict{{"b", AttrDict{{"n", true}}}, {"a", 1}}));
  EXPECT_FALSE(Attribute(AttrDict{{"a", 1}}) == Attribute(AttrDict{{"a", 2}}));
  EXPECT_EQ(Attribute(SymbolRef{"f"}).as_symbol().name, "f");
}

TEST(Attributes, CopiesShareArrayStorage) {
  Attribute a(AttrArray{1, 2, 3});
  Attribute b = a;
  EXPECT_EQ(&a.as_array(), &b.as_array());
}

TEST(AttrDict, KeepsKeysSortedSetReplacesTakeRemoves) {
  AttrDict d{{"zeta", 1}, {"alpha", 2}, {"mid", 3}};
  std::vector<std::string> keys;
  for (auto& [k, _] : d) keys.push_back(k);
  EXPECT_THAT(keys, ElementsAre("alpha", "mid", "zeta"));
  d.set("beta", "b");
  d.set("alpha", 20);
  keys.clear();
  for (auto& [k, _] : d) keys.push_back(k);
  EXPECT_THAT(keys, ElementsAre("alpha", "beta", "mid", "zeta"));
  EXPECT_EQ(d.get("alpha")->as_int(), 20);
  EXPECT_EQ(d.size(), 4u);
  EXPECT_TRUE(d.has("beta"));
  EXPECT_FALSE(d.has("bet"));
  EXPECT_EQ(d.get("zzz"), nullptr);
  EXPECT_EQ(d.get(""), nullptr);

  std::optional<Attribute> taken = d.take("mid");
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->as_int(), 3);
  EXPECT_FALSE(d.take("mid").has_value());
  EXPECT_EQ(d.size(), 3u);
  EXPECT_FALSE(AttrDict().has("x"));
  EXPECT_TRUE(AttrDict().empty());

  AttrDict dup{{"k", 1}, {"k", 2}};  // the later entry wins
  EXPECT_EQ(dup.size(), 1u);
  EXPECT_EQ(dup.get("k")->as_int(), 2);
  EXPECT_EQ((AttrDict{{"a", 1}, {"b", 2}}), (AttrDict{{"b", 2}, {"a", 1}}));
}

}  // namespace
}  // namespace ppy::ir
