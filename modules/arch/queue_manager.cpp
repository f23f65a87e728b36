#include "arch/queue_manager.hpp"

namespace ptovp::arch {

namespace {

// GQMResult: primary value in [12:0], status in [63:62].
std::uint64_t result(unsigned primary, QueueStatus status) {
  return (std::uint64_t{primary} & 0x1FFF) | (std::uint64_t{static_cast<unsigned>(status)} << 62);
}

}  // namespace

QueueManager::Queue* QueueManager::find(std::uint64_t address) {
  for (Queue& queue : queues_) {
    if (queue.address == address) return &queue;
  }
  return nullptr;
}

std::uint64_t QueueManager::move(std::uint64_t address, std::uint64_t capacity_source,
                                 const QueueFlags& flags) {
  Queue* queue = find(address);
  std::uint64_t value = 0;
  if (flags.initialize) {
    // InitializeGQMQueue: a new queue, or the old one emptied and resumed.
    if (queue == nullptr) queue = &queues_.emplace_back();
    *queue = Queue{};
    queue->address = address;
    queue->capacity = static_cast<unsigned>(capacity_source & 0x3FF);
    value = result(queue->capacity * 8, QueueStatus::Success);  // bytes allocated
  } else if (queue != nullptr) {
    value = result(queue->remaining(), QueueStatus::Success);
  } else {
    return result(0, QueueStatus::Unavailable);
  }
  // Suspension or restoration follows the primary operation.
  if (flags.suspend) queue->suspended = true;
  if (flags.restore) queue->suspended = false;
  return value;
}

std::uint64_t QueueManager::push(std::uint64_t address, std::uint64_t value,
                                 const QueueFlags& flags) {
  Queue* queue = find(address);
  if (queue == nullptr) return result(0, QueueStatus::Missing);
  if (queue->suspended || queue->remaining() == 0) {
    return result(queue->remaining(), QueueStatus::Unavailable);
  }
  if (flags.at_head) {
    queue->entries.push_front(value);
  } else {
    queue->entries.push_back(value);
  }
  return result(queue->remaining(), QueueStatus::Success);
}

QueueManager::Popped QueueManager::pop(std::uint64_t address) {
  Queue* queue = find(address);
  if (queue == nullptr) return {0, result(0, QueueStatus::Missing)};
  if (queue->entries.empty()) return {0, result(0, QueueStatus::Unavailable)};
  const std::uint64_t data = queue->entries.front();
  queue->entries.pop_front();
  return {data, result(static_cast<unsigned>(queue->entries.size()), QueueStatus::Success)};
}

}  // namespace ptovp::arch
