// platform/config: every key reaches its field, by text (--set) and by JSON
// (nested or flat); bad keys and values are errors that name the key; the
// printed configuration reads back to the same values.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config/platform_config.hpp"

namespace ptovp::config {
namespace {

using nlohmann::json;

TEST(PlatformConfig, DefaultsAreTheDocumentedOnes) {
  const PlatformConfig config;
  EXPECT_EQ(config.model.memory_base, 0u);
  EXPECT_EQ(config.model.memory_size, memory::kDefaultSize);
  EXPECT_EQ(config.model.profile, numeric::NumericProfile::Hardware);
  EXPECT_EQ(config.model.tile_naming, arch::TileNaming::Asl);
  EXPECT_EQ(config.timing.quantum_ns, 1000u);
  EXPECT_FALSE(config.validate());
}

TEST(PlatformConfig, SetReachesNumbersChoicesAndTheCubeKnobs) {
  PlatformConfig config;
  EXPECT_FALSE(config.set("memory.size", "0x100000"));
  EXPECT_FALSE(config.set("tile.naming", "queue"));
  EXPECT_FALSE(config.set("numeric.profile", "pto-v0"));
  EXPECT_FALSE(config.set("quantum.ns", "250"));
  EXPECT_EQ(config.model.memory_size, 0x100000u);
  EXPECT_EQ(config.model.tile_naming, arch::TileNaming::Queue);
  EXPECT_EQ(config.model.profile, numeric::NumericProfile::PtoV0);
  EXPECT_EQ(config.cube.profile, numeric::NumericProfile::PtoV0);
  EXPECT_EQ(config.timing.quantum_ns, 250u);
}

TEST(PlatformConfig, BadKeysAndValuesNameTheKey) {
  PlatformConfig config;
  EXPECT_EQ(config.set("memory.sise", "1"), "unknown configuration key 'memory.sise'");
  EXPECT_EQ(config.set("memory.size", "-1"), "memory.size: '-1' is not an unsigned number");
  EXPECT_EQ(config.set("memory.size", " 5"), "memory.size: ' 5' is not an unsigned number");
  EXPECT_EQ(config.set("tile.naming", "fifo"),
            "tile.naming: unknown value 'fifo' (one of: asl, queue)");
  EXPECT_EQ(config.set("numeric.profile", "fast"),
            "numeric.profile: unknown value 'fast' (one of: hardware, pto-v0)");
  EXPECT_EQ(config.model.memory_size, memory::kDefaultSize);  // nothing changed
}

TEST(PlatformConfig, JsonNestedAndFlatAgree) {
  PlatformConfig nested;
  PlatformConfig flat;
  EXPECT_FALSE(nested.apply(
      json::parse(R"({"tlsu": {"bytes_per_cycle": 32}, "host": {"services": true}})")));
  EXPECT_FALSE(flat.apply(json::parse(R"({"tlsu.bytes_per_cycle": 32, "host.services": "on"})")));
  EXPECT_EQ(nested.to_json(), flat.to_json());
  EXPECT_EQ(nested.to_json()["tlsu"]["bytes_per_cycle"], 32u);
  EXPECT_EQ(PlatformConfig().apply(json::array()), "the configuration must be a JSON object");
  EXPECT_EQ(PlatformConfig().apply(json::parse(R"({"memory": {"size": -4}})")),
            "memory.size: expected a string or an unsigned number, got -4");
}

TEST(PlatformConfig, ValidateRejectsWhatNoRunCanUse) {
  PlatformConfig config;
  ASSERT_FALSE(config.set("quantum.ns", "0"));
  EXPECT_EQ(config.validate(), "quantum.ns: 0 is below the minimum 1");
  config = PlatformConfig();
  ASSERT_FALSE(config.set("memory.base", "0xFFFFFFFFFFFFF000"));
  ASSERT_FALSE(config.set("memory.size", "0x2000"));
  EXPECT_EQ(config.validate(), "memory.size: the window at 0xfffffffffffff000 wraps");
}

TEST(PlatformConfig, ThePrintedConfigurationReadsBack) {
  PlatformConfig changed;
  ASSERT_FALSE(changed.set("cube.base_cycles", "7"));
  ASSERT_FALSE(changed.set("pe.thread_id", "zero"));
  ASSERT_FALSE(changed.set("numeric.profile", "pto-v0"));
  PlatformConfig read_back;
  ASSERT_FALSE(read_back.apply(changed.to_json()));
  EXPECT_EQ(read_back.to_json(), changed.to_json());
  EXPECT_EQ(read_back.model.arch.thread_id, arch::ThreadIdMode::Zero);
  EXPECT_EQ(read_back.model.profile, numeric::NumericProfile::PtoV0);
  EXPECT_NE(read_back.to_json(), PlatformConfig().to_json());
}

}  // namespace
}  // namespace ptovp::config
