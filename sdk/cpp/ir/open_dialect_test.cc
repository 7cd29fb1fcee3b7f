// plugins: an open dialect (a plugin's) takes every op under its name, in the
// verifier, the text form and the wire form; a registry without it refuses.
#include "ppy/ir/open_dialect.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ppy/ir/proto.h"
#include "ppy/ir/text.h"
#include "ppy/ir/verifier.h"

namespace ppy::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

/// `@f(%n: i64) -> i64` whose body is `devicelib.fill %n {width = 4}`.
std::unique_ptr<Module> device_module() {
  auto m = std::make_unique<Module>("prog");
  m->dialects()["devicelib"] = 1;
  std::vector<Param> ps{{Type::i64(), {}, ""}};
  Function* f = m->add_function(std::make_unique<Function>("f", std::move(ps), std::vector<Type>{Type::i64()}));
  Block* b = f->create_entry_block("entry");
  AttrDict attrs;
  attrs.set("width", int64_t{4});
  Operation* fill = b->append(Operation::create("devicelib.fill", {b->argument(0)}, {Type::i64()}, std::move(attrs)));
  b->append(Operation::create("core.ret", {fill->result()}, {}, {}));
  return m;
}

std::vector<std::string> diags(const Module& m, const DialectRegistry& reg) {
  std::vector<std::string> out;
  for (const Diagnostic& d : verify(m, reg)) out.push_back(d.str());
  return out;
}

TEST(OpenDialect, TakesEveryOpUnderItsName) {
  DialectRegistry reg = with_open_dialects(DialectRegistry::builtin(), {"devicelib"});
  EXPECT_TRUE(is_open_dialect(reg, "devicelib"));
  EXPECT_FALSE(is_open_dialect(reg, "core"));
  ASSERT_NE(reg.op("devicelib.fill"), nullptr);
  EXPECT_FALSE(reg.op("devicelib.fill")->pure);
  EXPECT_FALSE(reg.op("devicelib.fill")->terminator);
  EXPECT_EQ(reg.op("core.frobnicate"), nullptr);  // a closed dialect stays closed
  EXPECT_THAT(diags(*device_module(), reg), IsEmpty());
}

TEST(OpenDialect, TheBuiltinRegistryRefusesIt) {
  EXPECT_THAT(diags(*device_module(), DialectRegistry::builtin()),
              ElementsAre("the module uses dialect 'devicelib', which the registry does not have",
                          "function @f, block ^entry, op devicelib.fill: op devicelib.fill belongs to dialect "
                          "'devicelib', which the registry does not have"));
}

TEST(OpenDialect, NeverReplacesADialectTheRegistryHas) {
  DialectRegistry reg = with_open_dialects(DialectRegistry::builtin(), {"core"});
  EXPECT_FALSE(is_open_dialect(reg, "core"));
  EXPECT_EQ(reg.op("core.frobnicate"), nullptr);
}

TEST(OpenDialect, RoundTripsThroughTextAndWire) {
  DialectRegistry reg = with_open_dialects(DialectRegistry::builtin(), {"devicelib"});
  std::unique_ptr<Module> m = device_module();
  std::string text = print_module(*m, reg);
  EXPECT_THAT(text, ::testing::HasSubstr("devicelib.fill"));
  auto parsed = parse_module(text, reg);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(print_module(**parsed, reg), text);
  EXPECT_FALSE(parse_module(text).ok());  // the builtin registry lacks the dialect
  auto wired = from_proto_bytes(to_proto_bytes(*m), reg);
  ASSERT_TRUE(wired.ok()) << wired.status();
  EXPECT_EQ(print_module(**wired, reg), text);
}

}  // namespace
}  // namespace ppy::ir
