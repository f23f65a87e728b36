// The entry point of a SystemC test executable: the kernel's
// sc_elab_and_sim calls sc_main, which runs the GoogleTest cases. Each
// executable elaborates its harness once (SystemC cannot re-elaborate).
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

int main(int argc, char** argv) {
  // The banner would otherwise reach gtest_discover_tests' listing.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
