// The `ppyir 1` text format: the hand-written corpus round-trips byte for byte,
// the printer follows the reference's layout and naming, and every parser
// refusal carries the reference's words at `line L:C`.
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/text.h"

namespace ppy::ir {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> corpus() {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(fs::path(PPY_SOURCE_DIR) / "tests/ir/corpus"))
    if (e.path().extension() == ".ppyir") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<Module> parse_ok(std::string_view text) {
  auto m = parse_module(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : nullptr;
}

std::string parse_error(std::string_view text) {
  auto m = parse_module(text);
  EXPECT_FALSE(m.ok()) << "parsed:\n" << text;
  return m.ok() ? std::string() : std::string(m.status().message());
}

// ---- corpus ------------------------------------------------------------------

TEST(TextCorpus, EveryFileRoundTripsByteForByte) {
  auto files = corpus();
  ASSERT_GE(files.size(), 7u);
  for (auto& path : files) {
    SCOPED_TRACE(path.string());
    std::string text = read_file(path);
    auto m = parse_module(text);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(print_module(**m), text);
  }
}

TEST(TextCorpus, CoversEveryBuiltinOp) {
  std::set<std::string> seen;
  for (auto& path : corpus()) {
    auto m = parse_module(read_file(path));
    ASSERT_TRUE(m.ok()) << m.status();
    for (auto& f : (*m)->functions()) walk(f->body(), [&](const Operation& op) { seen.insert(op.name()); });
  }
  for (auto& [name, dialect] : DialectRegistry::builtin().dialects())
    for (auto& spec : dialect.ops) EXPECT_TRUE(seen.count(spec.name)) << spec.name << " is not in the corpus";
}

TEST(TextCorpus, ParsedStructureIsWhatTheTextSays) {
  auto m = parse_ok(read_file(fs::path(PPY_SOURCE_DIR) / "tests/ir/corpus/core_ops.ppyir"));
  ASSERT_TRUE(m);
  Function* control = m->function("control");
  ASSERT_TRUE(control);
  ASSERT_EQ(control->body().blocks().size(), 5u);
  Block* entry = control->body().entry();
  EXPECT_EQ(entry->num_arguments(), 2u);  // the parameters
  EXPECT_EQ(entry->argument(0)->hint(), "c");
  Operation* br = entry->terminator();
  EXPECT_EQ(br->name(), "core.cond_br");
  ASSERT_EQ(br->successors().size(), 2u);
  EXPECT_EQ(br->successors()[0].block->label(), "then");
  EXPECT_EQ(br->successors()[1].block->label(), "else");
  ASSERT_EQ(br->successors()[1].args.size(), 1u);
  EXPECT_EQ(br->successors()[1].args[0], entry->argument(1));

  Function* compare = m->function("compare");
  Operation* lt = compare->body().entry()->operations()[2].get();
  EXPECT_EQ(lt->name(), "core.cmp");  // the variant is split off
  ASSERT_TRUE(lt->attr("predicate"));
  EXPECT_EQ(lt->attr("predicate")->as_string(), "lt");

  Operation* zero = control->body().blocks()[1]->operations()[0].get();
  EXPECT_EQ(zero->name(), "core.const");
  EXPECT_EQ(zero->attr("value")->as_int(), 1);
  EXPECT_TRUE(m->dialects().count("core"));
}

// ---- the reference's examples ----------------------------------------------

TEST(TextPrinter, NamesValuesLikeTheReference) {
  // A hint already taken gets a number; numbers skip names taken as hints.
  Module m("m");
  auto* f = m.add_function(std::make_unique<Function>("f", std::vector<Param>{{Type::i64(), {}, "x"}},
                                                      std::vector<Type>{Type::i64()}));
  Block* b = f->create_entry_block();
  Value* x = b->argument(0);
  auto add = [&](Value* l, Value* r, std::string hint) {
    Operation* op = b->append(Operation::create("core.add", {l, r}, {Type::i64()}));
    op->result()->set_hint(std::move(hint));
    return op->result();
  };
  Value* v0 = add(x, x, "x");
  Value* v1 = add(v0, x, "");
  Value* d = add(v1, v0, "d");
  Value* s1 = add(d, d, "same");
  Value* s2 = add(s1, s1, "same");
  Value* odd = add(s2, s2, "a-b.c");
  b->append(Operation::create("core.ret", {odd}, {}));
  EXPECT_EQ(print_function(*f),
            "func @f(%x: i64) -> i64 {\n"
            "^entry:\n"
            "    %0 = core.add %x, %x : i64\n"
            "    %1 = core.add %0, %x : i64\n"
            "    %d = core.add %1, %0 : i64\n"
            "    %same = core.add %d, %d : i64\n"
            "    %2 = core.add %same, %same : i64\n"
            "    %a_b_c = core.add %2, %2 : i64\n"
            "    core.ret %a_b_c\n"
            "}");
}

TEST(TextPrinter, NumbersSkipHintsTakenAsNumbers) {
  auto m = parse_ok(
      "ppyir 1\nmodule @m\nfunc @f() -> () {\n^entry:\n"
      "    %a = core.const 0 : i64\n    %1 = core.const 1 : i64\n    %b = core.const 2 : i64\n"
      "    core.ret\n}\n");
  ASSERT_TRUE(m);
  auto& ops = m->functions()[0]->body().entry()->operations();
  ops[0]->result()->set_hint("");
  ops[2]->result()->set_hint("");
  EXPECT_THAT(print_module(*m), HasSubstr("    %0 = core.const 0 : i64\n"
                                          "    %1 = core.const 1 : i64\n"
                                          "    %2 = core.const 2 : i64\n"));
}

TEST(TextPrinter, NamesResultsBreadthFirstThenNestedBlockArguments) {
  Module m("m");
  auto* f = m.add_function(std::make_unique<Function>("f", std::vector<Param>{}, std::vector<Type>{}));
  Block* b = f->create_entry_block();
  Operation* loop = b->append(Operation::create("test.loop", {}, {Type::i64()}));
  Block* body = loop->add_region().add_block("body");
  Value* i = body->add_argument(Type::index());
  Operation* inner = body->append(Operation::create("test.use", {i}, {Type::i64()}));
  body->append(Operation::create("test.yield", {inner->result()}, {}));
  Operation* after = b->append(Operation::create("test.after", {loop->result()}, {Type::i64()}));
  b->append(Operation::create("core.ret", {after->result()}, {}));
  EXPECT_EQ(print_function(*f),
            "func @f() -> () {\n"
            "^entry:\n"
            "    %0 = test.loop : i64 {\n"
            "    ^body(%3: index):\n"
            "        %2 = test.use %3 : i64\n"
            "        test.yield %2\n"
            "    }\n"
            "    %1 = test.after %0 : i64\n"
            "    core.ret %1\n"
            "}");
}

TEST(TextPrinter, ModuleLayout) {
  Module m("demo");
  m.dialects()["math"] = 1;
  m.dialects()["gpu"] = 1;
  m.attributes().set("zeta", Attribute(AttrArray{Attribute(1), Attribute(2.5), Attribute("s")}));
  m.attributes().set("alpha", Attribute(AttrDict{{"t", Attribute(Type::scalar(TypeKind::I32))}, {"n", Attribute(true)}}));
  m.globals()["counter"] = Global{"counter", Type::i64(), Visibility::Private, true, Attribute(0)};
  m.globals()["a"] = Global{"a", Type::f64(), Visibility::Public, false, std::nullopt};
  auto* twice = m.add_function(std::make_unique<Function>(
      "util_twice", std::vector<Param>{{Type::i64(), {}, ""}}, std::vector<Type>{Type::i64()}));
  twice->set_visibility(Visibility::Extern);
  twice->attributes().set("ppy.qualname", Attribute("util.twice"));
  twice->attributes().set("ppy.external", Attribute(true));
  auto* g = m.add_function(std::make_unique<Function>("g", std::vector<Param>{}, std::vector<Type>{}));
  g->create_entry_block()->append(Operation::create("core.ret", {}, {}));
  EXPECT_EQ(print_module(m),
            "ppyir 1\n"
            "module @demo\n"
            "dialect core 1\n"
            "dialect gpu 1\n"
            "dialect math 1\n"
            "attrs {alpha = {n = true, t = !i32}, zeta = [1, 2.5, \"s\"]}\n"
            "\n"
            "global @a : f64\n"
            "private mutable global @counter : i64 = 0\n"
            "\n"
            "extern func @util_twice(i64) -> i64 attrs {ppy.external = true, ppy.qualname = \"util.twice\"}\n"
            "\n"
            "func @g() -> () {\n"
            "^entry:\n"
            "    core.ret\n"
            "}\n");
}

TEST(TextPrinter, EmptyModuleEndsWithOneNewline) {
  EXPECT_EQ(print_module(Module("e")), "ppyir 1\nmodule @e\ndialect core 1\n");
}

TEST(TextPrinter, LocationsRepeatOnlyWhenTheyChange) {
  Module m("m");
  auto* f = m.add_function(std::make_unique<Function>("f", std::vector<Param>{}, std::vector<Type>{}));
  f->set_loc(Location("a.ppy", 1, 0));
  Block* b = f->create_entry_block();
  Location l1("a.ppy", 2, 4), l2("a.ppy", 3, 4);
  b->append(Operation::create("test.a", {}, {}, {}, l1));
  b->append(Operation::create("test.b", {}, {}, {}, l1));
  b->append(Operation::create("test.c", {}, {}, {}, std::nullopt));
  b->append(Operation::create("test.d", {}, {}, {}, l1));
  b->append(Operation::create("test.e", {}, {}, {}, l2));
  EXPECT_EQ(print_function(*f),
            "func @f() -> () loc(\"a.ppy\":1:0) {\n"
            "^entry:\n"
            "    test.a loc(\"a.ppy\":2:4)\n"
            "    test.b\n"
            "    test.c\n"
            "    test.d loc(\"a.ppy\":2:4)\n"
            "    test.e loc(\"a.ppy\":3:4)\n"
            "}");
  // Reading it back, an op without loc has the previous op's.
  auto back = parse_ok(print_module(m));
  ASSERT_TRUE(back);
  auto& ops = back->functions()[0]->body().entry()->operations();
  ASSERT_TRUE(ops[2]->loc());
  EXPECT_EQ(ops[2]->loc()->line, 2u);
  EXPECT_EQ(*ops[2]->loc()->file, "a.ppy");
}

TEST(TextPrinter, AttributeSpellings) {
  EXPECT_EQ(print_attribute(Attribute(true)), "true");
  EXPECT_EQ(print_attribute(Attribute(int64_t{-7})), "-7");
  EXPECT_EQ(print_attribute(Attribute(3.0)), "3.0");
  EXPECT_EQ(print_attribute(Attribute(std::nan(""))), "nan");
  EXPECT_EQ(print_attribute(Attribute("caf\xc3\xa9 \"q\" \x7f\x01")), "\"caf\\u00e9 \\\"q\\\" \x7f\\u0001\"");
  EXPECT_EQ(print_attribute(Attribute("\xf0\x9f\x98\x80")), "\"\\ud83d\\ude00\"");
  EXPECT_EQ(print_attribute(Attribute(SymbolRef{"main"})), "@main");
  EXPECT_EQ(print_attribute(Attribute(Type::ptr(Type::f64(), "generic", true))), "!ptr<f64, generic, const>");
  EXPECT_EQ(print_attribute(Attribute(AttrArray{})), "[]");
  EXPECT_EQ(print_attribute(Attribute(AttrDict{{"b", Attribute(1)}, {"a", Attribute(AttrArray{Attribute(2)})}})),
            "{a = [2], b = 1}");
}

TEST(TextPrinter, VariantAndInlineAttributes) {
  auto m = parse_ok(
      "ppyir 1\nmodule @m\nfunc @f(%a: i64, %b: i64) -> () {\n^entry:\n"
      "    %c = core.cmp %a, %b {predicate = \"not a word\"} : bool\n"
      "    %d = core.cmp %a, %b {predicate = \"ge\"} : bool\n"
      "    %t = gpu.thread_id {dim = \"z\"} : index\n"
      "    %k = core.const {value = 3} : i64\n"
      "    core.ret\n}\n");
  ASSERT_TRUE(m);
  EXPECT_THAT(print_module(*m), HasSubstr("    %c = core.cmp %a, %b {predicate = \"not a word\"} : bool\n"
                                          "    %d = core.cmp.ge %a, %b : bool\n"
                                          "    %t = gpu.thread_id.z : index\n"
                                          "    %k = core.const 3 : i64\n"));
}

TEST(TextPrinter, OddIRStillReadsBack) {
  // Shapes the reference cannot print back faithfully: a lone void result, a
  // core.const without a value, an entry block whose arguments are not the
  // parameters. Each prints to text that parses to the same text.
  const char* text =
      "ppyir 1\nmodule @m\nfunc @f(%p: i64) -> (void) {\n^entry(%q: f64):\n"
      "    core.const {}\n    core.ret %q\n}\n";
  auto m = parse_ok(text);
  ASSERT_TRUE(m);
  std::string once = print_module(*m);
  EXPECT_EQ(once,
            "ppyir 1\nmodule @m\ndialect core 1\n\nfunc @f(%q: i64) -> (void) {\n^entry(%q: f64):\n"
            "    core.const {}\n    core.ret %q\n}\n");
  auto again = parse_ok(once);
  ASSERT_TRUE(again);
  EXPECT_EQ(print_module(*again), once);
}

// ---- parser ------------------------------------------------------------------

TEST(TextParser, ReadsTheReferenceQuirks) {
  // `core.ret` ends at its line, so `^later:` is a block, not a successor.
  auto m = parse_ok(
      "ppyir 1\nmodule @m\nfunc @f(%x: i64) -> i64 {\n^entry:\n    core.ret %x\n^later:\n    core.ret %x\n}\n");
  ASSERT_TRUE(m);
  auto& blocks = m->functions()[0]->body().blocks();
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_TRUE(blocks[0]->terminator()->successors().empty());
  EXPECT_EQ(blocks[1]->label(), "later");
}

TEST(TextParser, ListsWrapAfterACommaAndCommentsAreSkipped) {
  // The codec refuses a first line that is not `ppyir N`, even a comment.
  EXPECT_EQ(parse_error("// a comment first\nppyir 1\nmodule @m\n"),
            "not a .ppyir file: the first line names the schema, `ppyir N`");
  auto m = parse_ok(
      "\n  ppyir 1\nmodule @m  // a comment\n\n"
      "func @f(%x: i64,\n        %y: i64) -> () {\n^entry:\n"
      "    %a, %b = test.op %x, %y : i64,\n        f64  // wrapped\n"
      "    test.op %x, %y {callee = @f,\n        extra = [1,\n 2]}\n"
      "    core.br ^next(%x,\n                  %y)\n"
      "^next(%p: i64, %q: i64):\n"
      "    core.ret\n}\n");
  ASSERT_TRUE(m);
  auto& ops = m->functions()[0]->body().entry()->operations();
  EXPECT_EQ(ops[0]->num_operands(), 2u);
  EXPECT_EQ(ops[0]->result(1)->type(), Type::f64());
  EXPECT_EQ(ops[1]->attr("extra")->as_array().size(), 2u);
  EXPECT_EQ(ops[2]->successors()[0].args.size(), 2u);
  // But operands, successors and `:` must start on the op's own line.
  EXPECT_EQ(parse_error("ppyir 1\nmodule @m\nfunc @f(%x: i64) -> () {\n^entry:\n"
                        "    %0 = core.add %x, %x\n        : i64\n}\n"),
            "line 5:10: core.add names 1 result(s) but gives 0 type(s)");
  EXPECT_EQ(parse_error("ppyir 1\nmodule @m\nfunc @f(%x: i64) -> () {\n^entry:\n"
                        "    test.op %x,\n        %x\n}\n"),
            "line 7:1: expected '=', found '}\\n'");
}

TEST(TextParser, ForwardReferencesResolveAtTheEndOfTheFunction) {
  auto m = parse_ok(
      "ppyir 1\nmodule @m\nfunc @f(%c: bool) -> i64 {\n^entry:\n"
      "    core.cond_br %c, ^b(%v), ^a\n^a:\n    %v = core.const 1 : i64\n    core.br ^b(%v)\n"
      "^b(%r: i64):\n    core.ret %r\n}\n");
  ASSERT_TRUE(m);
  auto& blocks = m->functions()[0]->body().blocks();
  Operation* br = blocks[0]->terminator();
  EXPECT_EQ(br->successors()[0].block, blocks[2].get());
  EXPECT_EQ(br->successors()[0].args[0], blocks[1]->operations()[0]->result());
}

TEST(TextParser, DeclarationsAndResults) {
  auto m = parse_ok(
      "ppyir 1\nmodule @m\nextern func @d(i64, %named: f64 {a = 1}) -> void\n"
      "func @e() -> (i64, f64)\n");
  ASSERT_TRUE(m);
  Function* d = m->function("d");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->is_declaration());
  EXPECT_TRUE(d->results().empty());  // `void` is no result
  EXPECT_EQ(d->params()[0].name, "arg0");
  EXPECT_EQ(d->params()[1].name, "named");
  EXPECT_EQ(d->params()[1].attrs.get("a")->as_int(), 1);
  EXPECT_EQ(m->function("e")->results().size(), 2u);
  EXPECT_EQ(print_module(*m),
            "ppyir 1\nmodule @m\ndialect core 1\n\nextern func @d(i64, f64 {a = 1}) -> ()\n\n"
            "func @e() -> (i64, f64)\n");
}

TEST(TextParser, InlineValueOnlyWhenTheNextTokenIsNotAnInput) {
  auto m = parse_ok(
      "ppyir 1\nmodule @m\nfunc @f(%x: i64) -> () {\n^entry:\n"
      "    %a = core.const -1.5e3 : f64\n    %b = core.const %x : i64\n    %c = core.const [1, \"two\"] : i64\n"
      "    core.ret\n}\n");
  ASSERT_TRUE(m);
  auto& ops = m->functions()[0]->body().entry()->operations();
  EXPECT_EQ(ops[0]->attr("value")->as_float(), -1500.0);
  EXPECT_FALSE(ops[1]->attr("value"));
  EXPECT_EQ(ops[1]->num_operands(), 1u);
  EXPECT_EQ(ops[2]->attr("value")->as_array()[1].as_string(), "two");
}

TEST(TextParser, SchemaAttributeIsDroppedAndCoreIsAlwaysRecorded) {
  auto m = parse_ok("ppyir 1\nmodule @m\ndialect gpu 0\nattrs {_schema = 7, keep = 1}\n");
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->attributes().has("_schema"));
  EXPECT_TRUE(m->attributes().has("keep"));
  EXPECT_EQ(m->dialects().at("core"), 1);
  EXPECT_EQ(m->dialects().at("gpu"), 0);  // an older dialect version is accepted
}

TEST(TextParser, Strings) {
  auto m = parse_ok(
      "ppyir 1\nmodule @m\nattrs {a = \"\\u00e9\\ud83d\\ude00\\n\\/\", b = \"\xc3\xa9\"}\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->attributes().get("a")->as_string(), "\xc3\xa9\xf0\x9f\x98\x80\n/");
  EXPECT_EQ(m->attributes().get("b")->as_string(), "\xc3\xa9");
}

// Names and strings reach backends through protobuf's string fields, which
// take UTF-8 only: text that is not, or a lone surrogate, is refused here.
TEST(TextParser, TextThatIsNotUtf8IsRefused) {
  EXPECT_EQ(parse_error("ppyir 1\nmodule @m\xe9\n"), "line 2:10: not UTF-8: byte 0xe9, invalid continuation byte");
  EXPECT_EQ(parse_error("ppyir 1\nmodule @m\nattrs {a = \"x\xff\"}\n"),
            "line 3:14: not UTF-8: byte 0xff, invalid start byte");
  EXPECT_EQ(parse_error("ppyir 1\nmodule @m\nfunc @f\xc3() -> ()\n"),
            "line 3:8: not UTF-8: byte 0xc3, invalid continuation byte");
  EXPECT_THAT(parse_error("ppyir 1\nmodule @m\nattrs {c = \"\\ud800\"}\n"), HasSubstr("bad string"));
}

// ---- refusals ------------------------------------------------------------------

struct Refusal {
  const char* text;
  const char* message;
};

class TextRefusal : public ::testing::TestWithParam<Refusal> {};

TEST_P(TextRefusal, SaysWhyAndWhere) { EXPECT_EQ(parse_error(GetParam().text), GetParam().message); }

#define HEAD "ppyir 1\nmodule @m\n"
#define FN "func @f(%x: i64) -> () {\n^entry:\n"

INSTANTIATE_TEST_SUITE_P(
    Codec, TextRefusal,
    ::testing::Values(
        Refusal{"", "not a .ppyir file: the first line names the schema, `ppyir N`"},
        Refusal{"hello world\n", "not a .ppyir file: the first line names the schema, `ppyir N`"},
        Refusal{"ppyir one\n", "not a .ppyir file: the first line names the schema, `ppyir N`"},
        Refusal{"ppyir 1 extra\nmodule @m\n", "not a .ppyir file: the first line names the schema, `ppyir N`"},
        Refusal{"\n\n  ppyir 2\nmodule @m\n",
                "the file is .ppyir schema 2; this compiler reads schema 1 -- emit it again with this compiler"},
        Refusal{HEAD "dialect tensor 1\n", "the module uses dialect 'tensor', which this compiler does not have"},
        Refusal{HEAD "dialect gpu 3\n", "the module uses dialect 'gpu' at version 3; this compiler has version 1"},
        Refusal{HEAD "dialect core 2\ndialect nope 1\n",
                "the module uses dialect 'core' at version 2; this compiler has version 1"}));

INSTANTIATE_TEST_SUITE_P(
    Parse, TextRefusal,
    ::testing::Values(
        Refusal{"ppyir 1\nmodul @m\n", "line 2:1: expected 'module', found 'modul @m\\n'"},
        Refusal{HEAD "junk here\n", "line 3:1: expected `func` or `global`, found 'junk here\\n'"},
        Refusal{HEAD "dialect gpu x\n", "line 3:13: expected an integer"},
        Refusal{HEAD "dialect gpu 99999999999999999999\n",
                "line 3:13: integer out of range: 99999999999999999999"},
        Refusal{HEAD FN "    %x = core.const 1 : i64\n    core.ret\n}\n", "line 5:5: %x is defined twice"},
        Refusal{HEAD FN "    core.ret %y\n}\n", "line 5:14: %y is not defined"},
        Refusal{HEAD FN "    core.br ^nowhere\n}\n", "line 5:13: branch to undefined block ^nowhere"},
        Refusal{HEAD FN "    core.br ^b(%z)\n^b(%a: i64):\n    core.ret\n}\n", "line 5:16: %z is not defined"},
        Refusal{HEAD FN "    core.ret\n^entry:\n    core.ret\n}\n", "line 6:1: ^entry is defined twice"},
        Refusal{HEAD FN "    %a, %b = core.add %x, %x : i64\n}\n",
                "line 5:14: core.add names 2 result(s) but gives 1 type(s)"},
        Refusal{HEAD FN "    %a = core.add %x, %x\n    core.ret\n}\n",
                "line 5:10: core.add names 1 result(s) but gives 0 type(s)"},
        Refusal{HEAD FN "    %a core.add %x\n}\n", "line 5:8: expected '=', found 'core.add %x\\n'"},
        Refusal{HEAD FN "    ret\n}\n", "line 5:5: an operation name is `dialect.name`, not 'ret'"},
        Refusal{HEAD FN "    core.ret\n", "line 6:1: expected '}', found ''"},
        Refusal{HEAD FN "    %a = core.const 1 : i7\n}\n", "line 5:25: bad type 'i7': unknown type 'i7'"},
        Refusal{HEAD FN "    %a = core.const 1 : ptr<i64\n}\n", "line 5:25: unterminated type 'ptr<i64'"},
        Refusal{HEAD FN "    %a = core.const 1 : \n}\n", "line 6:1: expected a type, found '}\\n'"},
        Refusal{HEAD FN "    %a = core.const 1.2.3 : f64\n}\n", "line 5:21: bad number '1.2.3'"},
        Refusal{HEAD FN "    %a = core.const 12345678901234567890 : i64\n}\n",
                "line 5:21: bad number '12345678901234567890'"},
        Refusal{HEAD FN "    %a = core.const\n    core.ret\n}\n",
                "line 6:5: expected an attribute value, found 'core.ret\\n}\\n'"},
        Refusal{HEAD FN "    test.op {s = \"open\n}\n", "line 5:18: bad string '\"open\\n}\\n'"},
        Refusal{HEAD FN "    test.op {s = \"\\q\"}\n}\n", "line 5:18: bad string '\"\\\\q\"'"},
        Refusal{HEAD FN "    test.op {s = \"\xff\"}\n}\n", "line 5:19: not UTF-8: byte 0xff, invalid start byte"},
        Refusal{HEAD FN "    core.ret loc(x:1:2)\n}\n", "line 5:18: expected a string"},
        Refusal{HEAD FN "    core.ret loc(\"x\":-1:2)\n}\n",
                "line 5:22: a location's line and column are numbers from 0 to 4294967295"},
        Refusal{HEAD "global @g : i64\nfunc @g() -> ()\n", "line 4:7: @g is already defined in module m"},
        Refusal{HEAD "func @f(%a: i64, %a: i64) -> () {\n^entry:\n    core.ret\n}\n",
                "line 3:18: %a is defined twice"},
        Refusal{HEAD "func @f() -> () {\n^entry:\n    %\xc3\xa9 = core.add %\xc3\xa9\xc3\xa9\n}\n",
                "line 5:10: core.add names 1 result(s) but gives 0 type(s)"},
        Refusal{HEAD "attrs [1]\n", "line 3:7: expected '{', found '[1]\\n'"},
        Refusal{HEAD "attrs {a = 1, b}\n", "line 3:16: expected '=', found '}\\n'"},
        Refusal{HEAD "func @f() -> () {\n^entry:\n    test.op {a = [1 2]}\n}\n",
                "line 5:21: expected ']', found '2]}\\n}\\n'"}));

TEST(TextParser, DeepNestingIsRefusedNotACrash) {
  std::string attrs = HEAD "attrs {a = ";
  for (int i = 0; i < 100000; ++i) attrs += "[";
  EXPECT_THAT(parse_error(attrs), HasSubstr("attribute values are nested too deeply"));

  std::string regions = HEAD "func @f() -> () {\n^entry:\n";
  for (int i = 0; i < 5000; ++i) regions += "test.op {\n^b" + std::to_string(i) + ":\n";
  EXPECT_THAT(parse_error(regions), HasSubstr("regions are nested too deeply"));

  std::string types = HEAD "global @g : ";
  for (int i = 0; i < 5000; ++i) types += "buffer<";
  types += "i64";
  for (int i = 0; i < 5000; ++i) types += ">";
  EXPECT_THAT(parse_error(types), HasSubstr("nested too deeply"));
}

TEST(TextParser, ManyKeysAndLastDuplicateWins) {
  std::string text = HEAD "attrs {";
  for (int i = 200000; i > 0; --i) text += "k" + std::to_string(i) + " = " + std::to_string(i) + ", ";
  text += "k7 = -7}\n";
  auto m = parse_ok(text);  // reverse order: must not be quadratic
  ASSERT_TRUE(m);
  EXPECT_EQ(m->attributes().size(), 200000u);
  EXPECT_EQ(m->attributes().get("k7")->as_int(), -7);
}

TEST(TextPrinter, LargeNumericHints) {
  auto m = parse_ok(HEAD "func @f() -> () {\n^entry:\n    %9999999 = core.const 1 : i64\n"
                    "    %1048576 = core.const 2 : i64\n    %0 = core.const 3 : i64\n    core.ret\n}\n");
  ASSERT_TRUE(m);
  auto& ops = m->functions()[0]->body().entry()->operations();
  ops[2]->result()->set_hint("1048576");  // taken: numbered instead
  EXPECT_THAT(print_module(*m), HasSubstr("    %9999999 = core.const 1 : i64\n    %1048576 = core.const 2 : i64\n"
                                          "    %0 = core.const 3 : i64\n"));
}

TEST(TextParser, NeverCrashesOnTruncatedInput) {
  // Every prefix of every corpus file either parses or fails with a message.
  for (auto& path : corpus()) {
    std::string text = read_file(path);
    for (size_t n = 0; n < text.size(); n += 7) {
      auto m = parse_module(std::string_view(text).substr(0, n));
      if (!m.ok()) EXPECT_FALSE(m.status().message().empty());
    }
  }
}

TEST(TextParser, MutatedCorpusNeverBreaksTheRoundTrip) {
  // A small deterministic cousin of tests/fuzz/parse_fuzz.cc: whatever parses
  // prints to text that parses and prints the same again.
  const std::string_view tokens[] = {"%", "^", "{", "}", "{\n", "(", ")", ",", ":", "=", "\n", " ", "\"",
                                     "loc(", "core.cmp.lt", "core.const", "void", "-inf", "1e400", "//",
                                     "\\u00e9", "[", "]", "@", "!", "ptr<", ">", "\xc3\xa9"};
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  int parsed = 0;
  for (auto& path : corpus()) {
    std::string original = read_file(path);
    for (int round = 0; round < 300; ++round) {
      std::string text = original;
      for (int edits = 1 + next() % 3; edits > 0; --edits) {
        size_t at = next() % (text.size() + 1);
        switch (next() % 3) {
          case 0: text.erase(at, 1 + next() % 8); break;
          case 1: text.insert(at, tokens[next() % std::size(tokens)]); break;
          case 2: if (at < text.size()) text[at] = static_cast<char>(next()); break;
        }
      }
      auto m = parse_module(text);
      if (!m.ok()) {
        EXPECT_FALSE(m.status().message().empty());
        continue;
      }
      ++parsed;
      std::string once = print_module(**m);
      auto again = parse_module(once);
      ASSERT_TRUE(again.ok()) << again.status() << "\n--- input ---\n" << text << "\n--- printed ---\n" << once;
      ASSERT_EQ(print_module(**again), once) << "--- input ---\n" << text;
    }
  }
  EXPECT_GT(parsed, 100);  // the mutations must not all be refusals
}

// ---- files ---------------------------------------------------------------------

TEST(TextFiles, WriteThenReadRoundTrips) {
  fs::path dir = fs::temp_directory_path() / ("ppy_text_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string text = read_file(fs::path(PPY_SOURCE_DIR) / "tests/ir/corpus/reference.ppyir");
  auto m = parse_ok(text);
  ASSERT_TRUE(m);
  std::string path = (dir / "out.ppyir").string();
  ASSERT_TRUE(write_module_file(*m, path).ok());
  EXPECT_EQ(read_file(path), text);
  auto back = read_module_file(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(print_module(**back), text);
  // Nothing is left beside the file.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);

  auto missing = read_module_file((dir / "missing.ppyir").string());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "cannot read " + (dir / "missing.ppyir").string() + ": No such file or directory");

  std::ofstream(dir / "bad.ppyir") << HEAD "func @f() -> () {\n^entry:\n    core.ret %q\n}\n";
  auto bad = read_module_file((dir / "bad.ppyir").string());
  EXPECT_EQ(bad.status().message(), (dir / "bad.ppyir").string() + ": line 5:14: %q is not defined");

  EXPECT_FALSE(write_module_file(*m, (dir / "no/such/dir/x.ppyir").string()).ok());
  fs::remove_all(dir);
}

// ---- format_float ----------------------------------------------------------------

TEST(FormatFloat, MatchesPythonRepr) {
  EXPECT_EQ(format_float(1e16), "1e+16");
  EXPECT_EQ(format_float(1e15), "1000000000000000.0");
  EXPECT_EQ(format_float(1e-05), "1e-05");
  EXPECT_EQ(format_float(0.0001), "0.0001");
  EXPECT_EQ(format_float(0.1), "0.1");
  EXPECT_EQ(format_float(2.5), "2.5");
  EXPECT_EQ(format_float(100.0), "100.0");
  EXPECT_EQ(format_float(0.0), "0.0");
  EXPECT_EQ(format_float(-0.0), "-0.0");
  EXPECT_EQ(format_float(-1.5), "-1.5");
  EXPECT_EQ(format_float(std::nan("")), "nan");
  EXPECT_EQ(format_float(-std::nan("")), "nan");
  EXPECT_EQ(format_float(INFINITY), "inf");
  EXPECT_EQ(format_float(-INFINITY), "-inf");
  EXPECT_EQ(format_float(1.7976931348623157e+308), "1.7976931348623157e+308");
  EXPECT_EQ(format_float(5e-324), "5e-324");
  EXPECT_EQ(format_float(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(format_float(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(format_float(1.5e-7), "1.5e-07");
  EXPECT_EQ(format_float(12345.678), "12345.678");
}

// ---- throughput (a rough figure; tools/bench has the real benchmark) ---------------

std::string big_module(int functions, int ops_per_function) {
  std::string t = "ppyir 1\nmodule @big\ndialect core 1\n\n";
  for (int f = 0; f < functions; ++f) {
    t += "func @f" + std::to_string(f) + "(%x: i64, %y: f64) -> i64 loc(\"big.ppy\":" + std::to_string(f + 1) +
         ":0) {\n^entry:\n";
    t += "    %0 = core.const 1 : i64 loc(\"big.ppy\":" + std::to_string(f + 1) + ":4)\n";
    for (int i = 1; i < ops_per_function; ++i) {
      std::string prev = "%" + std::to_string(i - 1);
      switch (i % 4) {
        case 0: t += "    %" + std::to_string(i) + " = core.add " + prev + ", %x {overflow = \"wrap\"} : i64\n"; break;
        case 1: t += "    %" + std::to_string(i) + " = core.mul " + prev + ", %x {overflow = \"wrap\"} : i64\n"; break;
        case 2: t += "    %" + std::to_string(i) + " = core.cmp.lt " + prev + ", %x : bool\n"; break;
        case 3: t += "    %" + std::to_string(i) + " = core.select " + prev + ", %x, %x : i64 loc(\"big.ppy\":" +
                     std::to_string(i) + ":8)\n"; break;
      }
    }
    t += "    core.ret %x\n}\n\n";
  }
  t.pop_back();
  return t;
}

/// CPU seconds of this process: the build machine is shared, wall time is noise.
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

TEST(TextPerf, LargeModuleRoundTrips) {
  std::string text = big_module(1000, 100);  // 100k ops
  double t0 = cpu_seconds();
  auto m = parse_module(text);
  double t1 = cpu_seconds();
  ASSERT_TRUE(m.ok()) << m.status();
  std::string printed = print_module(**m);
  double t2 = cpu_seconds();
  EXPECT_EQ(printed, text);
  double mb = text.size() / 1e6;
  std::cout << "[ perf ] " << mb << " MB, 100k ops: parse " << mb / (t1 - t0) << " MB/s, print "
            << mb / (t2 - t1) << " MB/s (CPU time)\n";
}

}  // namespace
}  // namespace ppy::ir
