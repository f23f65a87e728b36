// Data-type codec: exact decode and class of every encoding.
#include "numeric/value_codec.hpp"

#include <gtest/gtest.h>

#include "numeric/error.hpp"

namespace ptovp::numeric {
namespace {

TEST(DataTypeCodes, ReservedCodesAreRejectedWithTheFieldNamed) {
  for (unsigned code : {15u, 21u, 22u, 23u, 29u, 30u, 31u}) {
    EXPECT_FALSE(data_type_from_code(code).has_value()) << code;
    try {
      require_data_type(code, "B.DATR.DataType");
      ADD_FAILURE() << "code " << code << " accepted";
    } catch (const IllegalFieldValue& error) {
      EXPECT_EQ(error.field(), "B.DATR.DataType");
      EXPECT_EQ(error.value(), code);
    }
  }
}

}  // namespace
}  // namespace ptovp::numeric
