#include "engine/state_dump.hpp"

#include <fmt/format.h>

#include "engine/block_text.hpp"

namespace ptovp::engine {

using nlohmann::json;

namespace {

// 64-bit values are hex strings: JSON numbers lose precision above 2^53.
std::string hex(std::uint64_t value) {
  return fmt::format("0x{:x}", value);
}

std::string bytes_hex(const std::uint8_t* bytes, std::size_t length) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(length * 2, '0');
  for (std::size_t i = 0; i < length; ++i) {
    text[2 * i] = kDigits[bytes[i] >> 4];
    text[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return text;
}

json descriptor(const arch::TileInfo& info) {
  return {{"data_type", std::string(numeric::name(info.data_type))},
          {"layout", std::string(arch::name(info.layout))},
          {"location", std::string(arch::name(info.location))},
          {"capacity_bytes", info.capacity_bytes},
          {"rows", info.rows},
          {"columns", info.columns},
          {"valid_rows", info.valid_rows},
          {"valid_columns", info.valid_columns},
          {"cube_k_repeat", info.cube_k_repeat},
          {"cube_n_repeat", info.cube_n_repeat},
          {"cube_cell_count", info.cube_cell_count}};
}

json queue(const arch::ScalarQueue& q) {
  json entries = json::array();
  for (unsigned i = 0; i < arch::kQueueDepth; ++i)
    entries.push_back(q.valid[i] ? json(hex(q.value[i])) : json(nullptr));
  return entries;
}

json block_state(const arch::ArchState& state) {
  const arch::BlockDescriptor& h = state.header;
  return {{"active", state.block.active},
          {"body_active", state.block.body_active},
          {"kind", std::string(name(h.kind))},
          {"transfer", std::string(name(h.transfer))},
          {"taken", h.taken},
          {"bpc", hex(h.bpc)},
          {"bpcn", hex(h.bpcn)},
          {"condition_set", state.block.condition_set},
          {"commit_target_set", state.block.commit_target_set},
          {"system_terminal_pending", state.block.system_terminal_pending},
          {"header", state.block.active ? describe_header(h) : std::string()}};
}

json trap_state(const arch::ArchState& state) {
  json rings = json::array();
  for (unsigned ring = 0; ring < arch::kAcrCount; ++ring) {
    const arch::TrapStatus& status = state.trap_status[ring];
    const arch::TrapContext& context = state.trap_contexts[ring];
    const std::uint64_t evbase = state.context_register(ring, arch::acr::kEvbase);
    if (status.number == 0 && !context.valid && evbase == 0 && status.cause == 0) continue;
    rings.push_back({{"ring", ring},
                     {"trapno", hex(status.packed())},
                     {"number", status.number},
                     {"cause", status.cause},
                     {"traparg0", hex(status.argument0)},
                     {"evbase", hex(evbase)},
                     {"context_valid", context.valid},
                     {"context_tpc", hex(context.tpc)},
                     {"context_block_active", context.block.active}});
  }
  return {{"current_acr", state.current_acr()},
          {"last_fault", std::string(arch::name(state.last_fault))},
          {"fault_address", hex(state.fault_address)},
          {"rings", rings}};
}

}  // namespace

json state_dump(const StateView& view) {
  const arch::ArchState& state = view.state;
  json gprs = json::array();
  json queues = json::array();
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    json file = json::array();
    for (unsigned r = 0; r < arch::kGprCount; ++r)
      file.push_back(hex(state.gpr(pe, r)));
    gprs.push_back(file);
    queues.push_back({{"t", queue(state.queues[pe][0])}, {"u", queue(state.queues[pe][1])}});
  }

  json local = json::array();
  for (unsigned index = 0; index < arch::kLocalTileCount; ++index) {
    const arch::LocalTile& tile = view.local_tiles.at(index);
    if (!tile.allocated()) continue;
    json payload = json::object();
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (arch::pe_selected(tile.allocation_mask(), pe))
        payload[fmt::format("PE{}", pe)] = bytes_hex(tile.payload(pe), tile.info().capacity_bytes);
    }
    local.push_back(
        {{"index", index},
         {"name", fmt::format("{}{}", "TUMN"[index / arch::kHandSize], index % arch::kHandSize)},
         {"allocation_mask", arch::mask_string(tile.allocation_mask())},
         {"contents_defined", tile.contents_defined()},
         {"descriptor", descriptor(tile.info())},
         {"payload", payload}});
  }

  json shared = json::array();
  for (unsigned id = 0; id < arch::kSharedTileCount; ++id) {
    const arch::SharedTile& tile = view.shared_tiles.at(id);
    if (!tile.descriptor_valid) continue;
    shared.push_back({{"id", id},
                      {"allocation_mask", arch::mask_string(tile.allocation_mask)},
                      {"initialized_mask", arch::mask_string(tile.initialized_mask)},
                      {"published", tile.published},
                      {"contents_defined", tile.contents_defined},
                      {"descriptor", descriptor(tile.info)},
                      {"payload", bytes_hex(tile.payload.data(), tile.payload.size())}});
  }

  return {
      {"format", "ptovp-state-1"},
      {"pc", hex(state.pc)},
      {"instructions", view.instructions},
      {"gprs", gprs},
      {"queues", queues},
      {"block", block_state(state)},
      {"system",
       {{"core_state", hex(*state.read_ssr(0, static_cast<std::uint32_t>(arch::Ssr::CoreState)))},
        {"tile_capacity", state.tile_capacity()},
        {"return_address", hex(state.return_address)},
        {"commit_argument", hex(state.commit_argument)}}},
      {"trap", trap_state(state)},
      {"capacity_in_use", view.local_tiles.capacity_in_use() + view.shared_tiles.capacity_in_use()},
      {"local_tiles", local},
      {"shared_tiles", shared}};
}

}  // namespace ptovp::engine
