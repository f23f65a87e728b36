// keys::KeyTable: each kind of key reads and writes its field through the
// field's own type, reports errors naming the key, checks ranges and rules at
// validate(), and keeps all of that when mounted into an enclosing struct.
#include <gtest/gtest.h>

#include "keys/key_table.hpp"

namespace ptovp::keys {
namespace {

enum class Colour : std::uint8_t { Red, Green, Blue };

struct Part {
  std::uint64_t count = 4;
  Colour colour = Colour::Green;
  bool enabled = true;
  std::string path = "stdout";
};

struct Whole {
  std::uint64_t base = 0;
  Part part;
};

KeyTable<Part> part_keys() {
  KeyTable<Part> table("Part");
  table.number("part.count", &Part::count, 1, 1'000'000, "cycles", "how many")
      .choice("part.colour", &Part::colour,
              {{Colour::Blue, "blue"}, {Colour::Red, "red"}, {Colour::Green, "green"}}, "which")
      .flag("part.enabled", &Part::enabled, "off", "on", "whether")
      .text("part.path", &Part::path, "stdout or a file path", "where")
      .retired("part.old", "use part.count")
      .rule([](const Part& part) -> KeyError {
        if (part.colour == Colour::Red && part.count > 10) return std::string("red is at most 10");
        return std::nullopt;
      });
  return table;
}

KeyTable<Whole> whole_keys() {
  KeyTable<Whole> table("Whole");
  table.number("whole.base", &Whole::base, 0, ~std::uint64_t{0}, "address", "where")
      .mount(part_keys(), &Whole::part);
  return table;
}

TEST(KeyTable, EachKindReachesItsFieldThroughItsType) {
  const KeyTable<Part> table = part_keys();
  Part part;
  EXPECT_FALSE(table.set(part, "part.count", "0x20"));
  EXPECT_FALSE(table.set(part, "part.colour", "blue"));
  EXPECT_FALSE(table.set(part, "part.enabled", "off"));
  EXPECT_FALSE(table.set(part, "part.path", "out.txt"));
  EXPECT_EQ(part.count, 32u);
  EXPECT_EQ(part.colour, Colour::Blue);
  EXPECT_FALSE(part.enabled);
  EXPECT_EQ(part.path, "out.txt");
  // Names follow the listed order, not the enum's.
  EXPECT_EQ(table.find("part.colour")->get(Part{}), KeyValue(std::string("green")));
  EXPECT_EQ(table.find("part.colour")->spec.choices,
            (std::vector<std::string>{"blue", "red", "green"}));
  EXPECT_EQ(table.find("part.enabled")->get(part), KeyValue(std::string("off")));
  EXPECT_EQ(table.find("part.count")->get(part), KeyValue(std::uint64_t{32}));
}

TEST(KeyTable, ErrorsNameTheKeyAndLeaveTheFieldAlone) {
  const KeyTable<Part> table = part_keys();
  Part part;
  EXPECT_EQ(table.set(part, "part.count", "-1"), "part.count: '-1' is not an unsigned number");
  EXPECT_EQ(table.set(part, "part.count", "18446744073709551616"),
            "part.count: '18446744073709551616' is not an unsigned number");
  EXPECT_EQ(table.set(part, "part.colour", "pink"),
            "part.colour: unknown value 'pink' (one of: blue, red, green)");
  EXPECT_EQ(table.set(part, "part.enabled", "true"),
            "part.enabled: unknown value 'true' (one of: off, on)");
  EXPECT_EQ(table.set(part, "part.path", ""), "part.path: expected stdout or a file path");
  EXPECT_EQ(table.set(part, "part.old", "1"), "part.old: removed; use part.count");
  EXPECT_EQ(table.set(part, "part.cont", "1"), "unknown configuration key 'part.cont'");
  EXPECT_EQ(part.count, 4u);
  EXPECT_EQ(part.colour, Colour::Green);
  EXPECT_TRUE(part.enabled);
  EXPECT_EQ(part.path, "stdout");
}

TEST(KeyTable, ValidateChecksRangesThenRules) {
  const KeyTable<Part> table = part_keys();
  Part part;
  EXPECT_FALSE(table.validate(part));
  ASSERT_FALSE(table.set(part, "part.count", "0"));  // set takes it; validate does not
  EXPECT_EQ(table.validate(part), "part.count: 0 is below the minimum 1");
  ASSERT_FALSE(table.set(part, "part.count", "1000001"));
  EXPECT_EQ(table.validate(part), "part.count: 1000001 is above the maximum 1000000");
  ASSERT_FALSE(table.set(part, "part.count", "11"));
  ASSERT_FALSE(table.set(part, "part.colour", "red"));
  EXPECT_EQ(table.validate(part), "red is at most 10");
}

TEST(KeyTable, AMountedTableKeepsItsKeysFormerKeysAndRules) {
  const KeyTable<Whole> table = whole_keys();
  ASSERT_EQ(table.keys().size(), 5u);
  EXPECT_EQ(table.keys()[1].spec.name, "part.count");
  EXPECT_EQ(table.keys()[1].spec.owner, "Part");
  EXPECT_EQ(table.keys()[0].spec.owner, "Whole");
  Whole whole;
  EXPECT_FALSE(table.set(whole, "part.colour", "red"));
  EXPECT_FALSE(table.set(whole, "part.count", "12"));
  EXPECT_FALSE(table.set(whole, "whole.base", "0xFFFFFFFFFFFFFFFF"));
  EXPECT_EQ(whole.part.colour, Colour::Red);
  EXPECT_EQ(whole.base, ~std::uint64_t{0});
  EXPECT_EQ(table.validate(whole), "red is at most 10");
  EXPECT_EQ(table.set(whole, "part.old", "1"), "part.old: removed; use part.count");
  EXPECT_EQ(table.find("part.path")->get(whole), KeyValue(std::string("stdout")));
}

TEST(KeyTable, ValuesAreWrittenAsTheDocsWriteThem) {
  const KeyTable<Whole> table = whole_keys();
  EXPECT_EQ(values_text(table.find("whole.base")->spec), "number");
  EXPECT_EQ(values_text(table.find("part.count")->spec), "1 .. 10^6");
  EXPECT_EQ(values_text(table.find("part.colour")->spec), "`blue`, `red`, `green`");
  EXPECT_EQ(values_text(table.find("part.path")->spec), "stdout or a file path");
  KeySpec spec{"x.y", "X", "", KeyKind::Number, 8, std::uint64_t{1} << 40, "bytes", {}};
  EXPECT_EQ(values_text(spec), "8 .. 2^40");
  spec.maximum = 4096;
  EXPECT_EQ(values_text(spec), "8 .. 4096");
  spec.maximum = 10'000;
  EXPECT_EQ(values_text(spec), "8 .. 10^4");
}

}  // namespace
}  // namespace ptovp::keys
