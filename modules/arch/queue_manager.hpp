// General queue management (asl/arch/programming-model/general-queue-management.asl):
// hardware FIFO queues of 64-bit entries, each named by an address, that
// HL.QMT creates and queries and HL.QPUSH / HL.QPOP fill and drain. There is
// no memory backing; a queue holds at most 1023 entries. Results pack a
// primary value in bits [12:0] and a status in [63:62].
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace ptovp::arch {

inline constexpr unsigned kQueueMaxCapacity = 1023;

// GQMResult status codes (bits [63:62]).
enum class QueueStatus : std::uint8_t { Success = 0, Unavailable = 1, Missing = 2 };

// The HL.QMT and HL.QPUSH flags with an effect. The event flag (e) has no
// observer in the model, and the release/acquire ordering that r relaxes is
// already met by the one in-order agent.
struct QueueFlags {
  bool initialize = false;  // QMT i
  bool suspend = false;     // QMT s
  bool restore = false;     // QMT r
  bool at_head = false;     // QPUSH h
};

class QueueManager {
 public:
  struct Popped {
    std::uint64_t data = 0;
    std::uint64_t result = 0;
  };

  // ExecuteQueueManagerMove: create (i) or query a queue, then suspend (s) or
  // restore (r) it. s and r together are illegal and checked by the caller.
  std::uint64_t move(std::uint64_t address, std::uint64_t capacity_source, const QueueFlags& flags);
  // PushGQMQueueEntry: at the tail, or at the head with h.
  std::uint64_t push(std::uint64_t address, std::uint64_t value, const QueueFlags& flags);
  // PopGQMQueueEntry: the head entry, even from a suspended queue.
  Popped pop(std::uint64_t address);

  void reset() { queues_.clear(); }

 private:
  struct Queue {
    std::uint64_t address = 0;
    unsigned capacity = 0;
    bool suspended = false;
    std::deque<std::uint64_t> entries;
    unsigned remaining() const { return capacity - static_cast<unsigned>(entries.size()); }
  };
  Queue* find(std::uint64_t address);

  // Initialized queues in creation order; the number is not limited.
  std::vector<Queue> queues_;
};

}  // namespace ptovp::arch
