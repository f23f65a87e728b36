// Host threads for the PEs' independent work inside one block (`--threads`,
// `host.threads`, docs/performance.md "Host threads"): the CUBE rows of each
// PE, their B.FPATR post-process when the backend allows it, their
// publication, and the TLSU's per-PE payload moves. Each PE's work writes only
// that PE's staging or payload, so the results, traces and statistics are the
// same for any thread count; everything ordered (allocation, flags, faults,
// logs) stays on the calling thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

namespace ptovp::arch {

// The least work per PE worth handing to another thread (host.pool_min_macs,
// host.pool_min_bytes): a hand-off costs about a microsecond (reaching or
// waking the other thread, and the results' cache lines crossing back), so
// smaller work runs faster on the caller alone. The defaults are measured
// with pe_threads_bench and the looped GEMM, docs/performance.md "Host
// threads".
struct PoolMinimum {
  std::uint64_t macs = std::uint64_t{1} << 18;
  std::uint64_t bytes = std::uint64_t{1} << 15;
};

class PeThreads {
 public:
  // `threads` host threads including the caller's; 0 is the host's cores.
  explicit PeThreads(unsigned threads, PoolMinimum minimum = {});
  ~PeThreads();
  PeThreads(const PeThreads&) = delete;
  PeThreads& operator=(const PeThreads&) = delete;

  unsigned threads() const { return threads_; }
  const PoolMinimum& minimum() const { return minimum_; }

  // Calls work(pe) once for every PE selected in `mask` (pe_selected), on the
  // pool's threads and the caller's, and returns when all are done. When
  // calls throw, the lowest PE's exception is rethrown here after all ended.
  void for_each_pe(std::uint8_t mask, const std::function<void(unsigned pe)>& work);

 private:
  struct Shared;  // the job the workers take PEs from
  unsigned threads_;
  PoolMinimum minimum_;
  std::unique_ptr<Shared> shared_;
};

// `threads` when a block's largest per-PE work, `macs` MACs or `bytes`
// bytes moved, reaches the pool's minimum; else nullptr (the PEs run in
// order on the calling thread).
PeThreads* pooled_macs(PeThreads* threads, std::uint64_t macs);
PeThreads* pooled_bytes(PeThreads* threads, std::uint64_t bytes);

// work(pe) for every PE of `mask`: on `threads` when given, else in PE order
// on the calling thread.
void for_each_pe(PeThreads* threads, std::uint8_t mask,
                 const std::function<void(unsigned pe)>& work);

}  // namespace ptovp::arch
