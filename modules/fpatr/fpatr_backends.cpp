#include <stdexcept>

#include "fpatr/fpatr_backend.hpp"
#ifdef PTOVP_HAVE_RTL
#include "fpatr/rtl_backend.hpp"
#endif

namespace ptovp::fpatr {

bool rtl_available() {
#ifdef PTOVP_HAVE_RTL
  return true;
#else
  return false;
#endif
}

std::unique_ptr<Backend> make_backend(BackendKind kind) {
  if (kind == BackendKind::Cpp) return std::make_unique<CppBackend>();
#ifdef PTOVP_HAVE_RTL
  if (kind == BackendKind::Rtl) return std::make_unique<RtlBackend>();
  return std::make_unique<CheckedBackend>(std::make_unique<CppBackend>(),
                                          std::make_unique<RtlBackend>());
#else
  throw std::invalid_argument(
      "fpatr.backend: this build has no Verilated RTL (configure with -DPTOVP_RTL=ON and "
      "Verilator >= 5)");
#endif
}

}  // namespace ptovp::fpatr
