#include "tlsu/footprint.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>

#include "numeric/transpose.hpp"

namespace ptovp::tlsu {

namespace {

template <std::size_t N>
using Bytes = std::integral_constant<std::size_t, N>;

// The valid columns of a row as runs of consecutive payload slots: run i
// holds the row's GM bytes from i * run_bytes and starts offset[i] bytes
// after the row's first slot. All runs are run_bytes long but the last, which
// is tail_bytes long when that is not 0.
struct RowRuns {
  std::uint32_t run_bytes = 0;
  std::uint32_t tail_bytes = 0;
  std::vector<std::uint32_t> offset;
};

RowRuns row_runs(const arch::TileInfo& t) {
  const unsigned bytes = arch::memory_element_bytes(t.data_type);
  const std::uint32_t columns = t.valid_columns;
  std::vector<std::uint32_t> col_term;
  arch::storage_column_terms(t, columns, col_term);
  // The run length is the first break in the slots; every layout repeats
  // it, which the second loop confirms (one-column runs otherwise).
  std::uint32_t run = 1;
  while (run < columns && col_term[run] == col_term[run - 1] + 1)
    ++run;
  for (std::uint32_t col = run; col < columns; ++col) {
    if (col % run != 0 && col_term[col] != col_term[col - 1] + 1) {
      run = 1;
      break;
    }
  }
  RowRuns runs{run * bytes, columns % run * bytes, {}};
  for (std::uint32_t col = 0; col < columns; col += run)
    runs.offset.push_back(col_term[col] * bytes);
  return runs;
}

// Calls copy(slot_offset, gm_offset, length) for the runs of a row from run
// `first` on. The common run lengths are passed as constants, so each copy is
// one move.
template <typename Copy>
void for_each_run(const RowRuns& runs, std::size_t first, Copy&& copy) {
  const std::size_t full = runs.offset.size() - (runs.tail_bytes != 0 ? 1 : 0);
  auto full_runs = [&](auto length) {
    for (std::size_t i = first; i < full; ++i)
      copy(runs.offset[i], i * length, length);
  };
  switch (runs.run_bytes) {
    case 1: full_runs(Bytes<1>{}); break;
    case 2: full_runs(Bytes<2>{}); break;
    case 4: full_runs(Bytes<4>{}); break;
    case 8: full_runs(Bytes<8>{}); break;
    case 16: full_runs(Bytes<16>{}); break;
    default: full_runs(std::size_t{runs.run_bytes}); break;
  }
  if (runs.tail_bytes != 0)
    copy(runs.offset[full], full * runs.run_bytes, std::size_t{runs.tail_bytes});
}

// Runs of 1, 2 or 4 bytes (CUBE_N8 elements, CUBE_M32 CELL rows; also
// ColumnMajor and ZN elements) move as 8 x 8 blocks of units: 8 GM rows by 8
// runs, when the 8 runs sit at one payload stride (a CUBE_N8 CELL's columns,
// successive CUBE_M32 CELLs) and the 8 rows fill consecutive units of each
// (rows of one CELL). Then the block is a transpose between GM rows and
// payload lines. A CUBE_N8 CELL of a 32-bit type holds only 4 K rows: its
// blocks are two halves of 4 rows.
struct Blocks {
  numeric::Transpose8 transpose = nullptr;  // null: runs only
  std::size_t unit = 0;                     // bytes, = run_bytes
  std::size_t line_stride = 0;              // payload bytes between a block's lines
  std::size_t runs = 0;                     // leading runs of a row moved by blocks
  // Per group of 8 rows: 8 (one block), 4 (two halves) or 0 (runs only).
  std::vector<std::uint8_t> rows;
};

Blocks plan_blocks(const RowRuns& runs, const std::vector<std::size_t>& row_at) {
  Blocks b;
  b.unit = runs.run_bytes;
  const numeric::Transpose8 transpose = numeric::transpose8(runs.run_bytes);
  const std::size_t full = runs.offset.size() - (runs.tail_bytes != 0 ? 1 : 0);
  if (transpose == nullptr || full < 8 || runs.offset[1] <= runs.offset[0]) return b;
  b.line_stride = runs.offset[1] - runs.offset[0];
  b.runs = full / 8 * 8;
  for (std::size_t i = 1; i < b.runs; ++i) {
    if (i % 8 != 0 && runs.offset[i] != runs.offset[i - 1] + b.line_stride) return b;
  }
  auto consecutive = [&](std::size_t row, std::size_t count) {
    for (std::size_t i = 1; i < count; ++i) {
      if (row_at[row + i] != row_at[row] + i * b.unit) return false;
    }
    return true;
  };
  b.rows.resize(row_at.size() / 8);
  for (std::size_t g = 0; g < b.rows.size(); ++g) {
    const std::size_t row = 8 * g;
    if (consecutive(row, 8)) {
      b.rows[g] = 8;
    } else if (consecutive(row, 4) && consecutive(row + 4, 4)) {
      b.rows[g] = 4;
    }
  }
  b.transpose = transpose;
  return b;
}

// Host pointer to the first of 8 GM rows at `stride` when they all lie in
// memory at increasing addresses; a store also needs them disjoint, as the
// walk lets later rows overwrite earlier ones. Null otherwise.
template <typename Memory>
auto block_rows(Memory& memory, std::uint64_t address, std::uint64_t stride,
                std::uint64_t row_bytes, bool store) -> decltype(memory.direct(0, 0)) {
  if ((store && stride < row_bytes) ||
      stride > (std::numeric_limits<std::uint64_t>::max() - row_bytes) / 7) {
    return nullptr;
  }
  return memory.direct(address, 7 * stride + row_bytes);
}

// Calls visit(pe, row, address of the row's first element) for every row of
// every selected PE, in walk order; stops when visit returns false.
template <typename Visit>
void for_each_row(const Footprint& footprint, Visit&& visit) {
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(footprint.pe_mask, pe)) continue;
    for (std::uint32_t row = 0; row < footprint.tile->valid_rows; ++row) {
      if (!visit(pe, row, footprint.address(pe, row, 0))) return;
    }
  }
}

// The byte offset of each valid row's first slot.
std::vector<std::size_t> row_offsets(const arch::TileInfo& t) {
  std::vector<std::uint32_t> terms;
  arch::storage_row_terms(t, t.valid_rows, terms);
  const unsigned bytes = arch::memory_element_bytes(t.data_type);
  std::vector<std::size_t> at(terms.size());
  std::transform(terms.begin(), terms.end(), at.begin(),
                 [bytes](std::uint32_t term) { return std::size_t{term} * bytes; });
  return at;
}

// How the rows of a tile shape move.
struct RowPlan {
  bool valid = false;
  arch::TileInfo tile;
  RowRuns runs;
  std::vector<std::size_t> row_at;
  Blocks blocks;
};

// The same shapes come back block after block (each block's A, its scales,
// its D), and a plan costs a storage_index per column and per row: the last
// few are kept.
const RowPlan& row_plan(const arch::TileInfo& t) {
  thread_local std::array<RowPlan, 4> plans;
  thread_local std::size_t next = 0;
  for (const RowPlan& plan : plans) {
    if (plan.valid && plan.tile == t) return plan;
  }
  RowPlan& plan = plans[next];
  next = (next + 1) % plans.size();
  plan.valid = true;
  plan.tile = t;
  plan.runs = row_runs(t);
  plan.row_at = row_offsets(t);
  plan.blocks = plan_blocks(plan.runs, plan.row_at);
  return plan;
}

// The GM bytes from the start of a PE's first row to the end of its last
// (rows `stride` apart); none when the tile has no valid element or the span
// does not fit 64 bits.
std::optional<std::uint64_t> rows_span(const arch::TileInfo& t, std::uint64_t stride) {
  const std::uint64_t row_bytes =
      std::uint64_t{t.valid_columns} * arch::memory_element_bytes(t.data_type);
  std::uint64_t span = 0;
  if (t.valid_rows == 0 || row_bytes == 0 ||
      __builtin_mul_overflow(std::uint64_t{t.valid_rows - 1}, stride, &span) ||
      __builtin_add_overflow(span, row_bytes, &span)) {
    return std::nullopt;
  }
  return span;
}

// Loads PE `pe`'s rows from one host span when they all lie in memory at
// increasing addresses (the same bytes the per-row moves read); false, with
// nothing moved, otherwise.
bool load_span(const memory::MemoryPort& memory, const Footprint& footprint, unsigned pe,
               std::uint8_t* payload, const std::vector<std::size_t>& row_at, const RowRuns& runs) {
  const arch::TileInfo& t = *footprint.tile;
  const std::uint64_t stride = footprint.access[pe].row_stride;
  const std::optional<std::uint64_t> span = rows_span(t, stride);
  if (!span) return false;
  const std::uint8_t* gm = memory.direct(footprint.address(pe, 0, 0), *span);
  if (gm == nullptr) return false;
  // Locals, not members: the byte moves may alias anything the loop reads.
  const std::uint32_t rows_left = t.valid_rows;
  const std::size_t* at = row_at.data();
  const std::uint32_t* offset = runs.offset.data();
  const std::size_t count = runs.offset.size() - (runs.tail_bytes != 0 ? 1 : 0);
  const std::size_t tail = runs.tail_bytes;
  auto rows = [&](auto length) {
    if (count == 1 && tail == 0) {  // one run a row
      const std::uint32_t first = offset[0];
      for (std::uint32_t row = 0; row < rows_left; ++row, gm += stride)
        std::memcpy(payload + at[row] + first, gm, length);
      return;
    }
    for (std::uint32_t row = 0; row < rows_left; ++row, gm += stride) {
      std::uint8_t* slots = payload + at[row];
      for (std::size_t i = 0; i < count; ++i)
        std::memcpy(slots + offset[i], gm + i * length, length);
      if (tail != 0) std::memcpy(slots + offset[count], gm + count * length, tail);
    }
  };
  switch (runs.run_bytes) {
    case 1: rows(Bytes<1>{}); break;
    case 2: rows(Bytes<2>{}); break;
    case 4: rows(Bytes<4>{}); break;
    default: rows(std::size_t{runs.run_bytes}); break;
  }
  return true;
}

// The payload of an earlier PE of the footprint that loaded the same GM rows
// (every PE's copy of one B), which PE `pe`'s load would give byte for byte:
// the rows are the same bytes and the payloads' other bytes were zeroed alike
// or are written too. Null when there is none, or when the rows are not all
// in the port's direct memory (a transport read is never skipped).
const std::uint8_t* loaded_alike(const memory::MemoryPort& memory, const Footprint& footprint,
                                 const arch::LocalTile& tile, unsigned pe) {
  const PeAccess& a = footprint.access[pe];
  for (unsigned earlier = 0; earlier < pe; ++earlier) {
    const PeAccess& e = footprint.access[earlier];
    if (!arch::pe_selected(footprint.pe_mask, earlier) || e.base != a.base ||
        e.row_stride != a.row_stride) {
      continue;
    }
    const std::optional<std::uint64_t> span = rows_span(*footprint.tile, a.row_stride);
    return span && memory.direct(a.base, *span) != nullptr ? tile.payload(earlier) : nullptr;
  }
  return nullptr;
}

// load_rows (kLoad) and store_rows: per selected PE, the blocks of the groups
// of 8 rows, then every row's remaining runs (all of a row in no block).
template <bool kLoad, typename Memory, typename Tile>
void move_rows(Memory& memory, const Footprint& footprint, Tile& tile) {
  const arch::TileInfo& t = *footprint.tile;
  const RowPlan& plan = row_plan(t);
  const RowRuns& runs = plan.runs;
  const std::vector<std::size_t>& row_at = plan.row_at;
  const Blocks& blocks = plan.blocks;
  const std::size_t unit = blocks.unit;
  const std::uint64_t row_bytes =
      std::uint64_t{t.valid_columns} * arch::memory_element_bytes(t.data_type);
  auto move = [](auto* slots, auto* gm, auto length) {
    if constexpr (kLoad) {
      std::memcpy(slots, gm, length);
    } else {
      std::memcpy(gm, slots, length);
    }
  };
  // One block: GM rows from `gm` at `stride`, payload lines from `line`.
  auto move_block = [&](auto* line, auto* gm, std::uint64_t stride, std::uint8_t rows,
                        std::size_t half) {
    if (rows == 8) {
      if constexpr (kLoad) {
        blocks.transpose(gm, stride, line, blocks.line_stride);
      } else {
        blocks.transpose(line, blocks.line_stride, gm, stride);
      }
      return;
    }
    // Two halves of 4 rows, `half` payload bytes apart: transpose through
    // dense lines of 8 units.
    std::uint8_t dense[8 * 8 * 4];
    if constexpr (kLoad) blocks.transpose(gm, stride, dense, 8 * unit);
    for (std::size_t j = 0; j < 8; ++j) {
      move(line + j * blocks.line_stride, dense + j * 8 * unit, 4 * unit);
      move(line + half + j * blocks.line_stride, dense + j * 8 * unit + 4 * unit, 4 * unit);
    }
    if constexpr (!kLoad) blocks.transpose(dense, 8 * unit, gm, stride);
  };
  using GmRows = decltype(block_rows(memory, 0, 0, 0, false));
  arch::for_each_pe(footprint.pe_mask, [&](unsigned pe) {
    thread_local std::vector<GmRows> group_gm;  // null: the group moves by runs
    thread_local std::vector<std::uint8_t> staging;
    auto* payload = tile.payload(pe);
    if constexpr (kLoad) {
      if (const auto* same = loaded_alike(memory, footprint, tile, pe)) {
        std::memcpy(payload, same, t.capacity_bytes);
        return;
      }
    }
    const std::uint64_t stride = footprint.access[pe].row_stride;
    auto move_runs = [&](std::uint32_t row, std::size_t first) {
      auto* slots = payload + row_at[row];
      const std::uint64_t address = footprint.address(pe, row, 0);
      std::uint8_t* gm = memory.direct(address, row_bytes);
      // A row outside the port's grant moves whole (first is 0: its group
      // has no grant either) through a staging row and the port's transport.
      const bool staged = gm == nullptr;
      if (staged) {
        staging.resize(row_bytes);
        gm = staging.data();
        if constexpr (kLoad) std::ignore = memory.read(address, gm, row_bytes);
      }
      for_each_run(runs, first, [&](std::size_t slot, std::size_t at, auto length) {
        move(slots + slot, gm + at, length);
      });
      if constexpr (!kLoad) {
        if (staged) std::ignore = memory.write(address, gm, row_bytes);
      }
    };
    // A shape no block moves (a column of elements: the MX scale tiles)
    // loads every row from the one host span that holds the PE's rows, with
    // the run length a constant, instead of a look-up per row.
    if constexpr (kLoad) {
      if (blocks.transpose == nullptr && load_span(memory, footprint, pe, payload, row_at, runs))
        return;
    }
    // Each group's GM rows when it moves by blocks. The blocks walk the
    // groups' rows and the payload across: every line of both is asked for
    // up front, so that their misses overlap.
    const std::uint32_t groups = blocks.transpose != nullptr ? t.valid_rows / 8 : 0;
    group_gm.assign(groups, nullptr);
    bool any_block = false;
    for (std::uint32_t g = 0; g < groups; ++g) {
      if (blocks.rows[g] == 0) continue;
      group_gm[g] = block_rows(memory, footprint.address(pe, 8 * g, 0), stride, row_bytes, !kLoad);
      if (group_gm[g] == nullptr) continue;
      any_block = true;
      // The 8 rows' lines at each offset: a loop of constant length, unrolled
      // (rows of a 32-column 16-bit tile are one line each).
      const auto* rows = reinterpret_cast<const char*>(group_gm[g]);
      for (std::uint64_t at = 0; at < row_bytes; at += 64) {
        for (std::uint32_t i = 0; i < 8; ++i)
          __builtin_prefetch(rows + i * stride + at, kLoad ? 0 : 1);
      }
    }
    for (std::size_t at = 0; any_block && at < t.capacity_bytes; at += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(payload) + at, kLoad ? 1 : 0);
    // Blocks go down the groups before along the runs: the groups' blocks of
    // one run fill the same payload lines (a CUBE_M32 CELL's rows), which are
    // then written while they are in cache. Distinct rows (stores check
    // block_rows) make the order free.
    for (std::size_t j = 0; j < blocks.runs; j += 8) {
      for (std::uint32_t g = 0; g < groups; ++g) {
        if (group_gm[g] == nullptr) continue;
        const std::uint32_t row = 8 * g;
        move_block(payload + row_at[row] + runs.offset[j], group_gm[g] + j * unit, stride,
                   blocks.rows[g], row_at[row + 4] - row_at[row]);
      }
    }
    // The rows of the groups no block moved, and the runs past the blocks'
    // of those it did: a group at a time, as most groups have nothing left.
    const bool runs_left = blocks.runs < runs.offset.size();
    for (std::uint32_t first = 0; first < t.valid_rows; first += 8) {
      const bool blocked = first / 8 < groups && group_gm[first / 8] != nullptr;
      if (blocked && !runs_left) continue;
      for (std::uint32_t row = first; row < std::min(first + 8, t.valid_rows); ++row)
        move_runs(row, blocked ? blocks.runs : 0);
    }
  });
}

}  // namespace

std::uint64_t Footprint::address(unsigned pe, std::uint32_t row, std::uint32_t col) const {
  const std::uint64_t row_base = row_address(pe, row);
  if (arch::is_four_bit(tile->data_type)) return row_base + col / 2;
  return row_base + std::uint64_t{col} * arch::memory_element_bytes(tile->data_type);
}

arch::MaybeFault preflight_elements(const memory::MemoryPort& memory, const Footprint& footprint) {
  const unsigned bytes = arch::memory_element_bytes(footprint.tile->data_type);
  arch::MaybeFault fault;
  footprint.walk([&](unsigned, std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t address) {
    fault = memory.probe(address, bytes, bytes);
    return !fault;
  });
  return fault;
}

arch::MaybeFault preflight(const memory::MemoryPort& memory, const Footprint& footprint) {
  if (!footprint.by_rows()) return preflight_elements(memory, footprint);
  const arch::TileInfo& t = *footprint.tile;
  const unsigned bytes = arch::memory_element_bytes(t.data_type);
  const std::uint64_t row_bytes = std::uint64_t{t.valid_columns} * bytes;
  // A PE whose first row and stride are aligned and whose rows' whole span
  // lies in memory has no failing access: the rows are checked per PE at once.
  bool whole = t.valid_rows > 0;
  for (unsigned pe = 0; pe < arch::kPeCount && whole; ++pe) {
    if (!arch::pe_selected(footprint.pe_mask, pe)) continue;
    const PeAccess& a = footprint.access[pe];
    std::uint64_t last = 0;
    whole = a.base % bytes == 0 && a.row_stride % bytes == 0 &&
            !__builtin_mul_overflow(std::uint64_t{t.valid_rows - 1}, a.row_stride, &last) &&
            !__builtin_add_overflow(last, row_bytes, &last) && memory.contains(a.base, last);
  }
  if (whole) return std::nullopt;
  arch::MaybeFault fault;
  // Element addresses step by `bytes` from an aligned first one, so they are
  // all aligned, and they lie in memory when the row's range does.
  for_each_row(footprint, [&](unsigned pe, std::uint32_t row, std::uint64_t address) {
    if (address % bytes == 0 && memory.contains(address, row_bytes)) return true;
    for (std::uint32_t col = 0; col < t.valid_columns && !fault; ++col)
      fault = memory.probe(footprint.address(pe, row, col), bytes, bytes);
    return !fault;
  });
  return fault;
}

void load_rows(const memory::MemoryPort& memory, const Footprint& footprint,
               arch::LocalTile& tile) {
  move_rows<true>(memory, footprint, tile);
}

void store_rows(memory::MemoryPort& memory, const Footprint& footprint,
                const arch::LocalTile& tile) {
  move_rows<false>(memory, footprint, tile);
}

std::uint64_t load_element(const memory::MemoryPort& memory, std::uint64_t address,
                           arch::DataType type, bool high_nibble) {
  const unsigned bytes = arch::memory_element_bytes(type);
  std::uint64_t raw = 0;
  if (const std::uint8_t* p = memory.direct(address, bytes)) {
    for (unsigned i = 0; i < bytes; ++i)
      raw |= std::uint64_t{p[i]} << (8 * i);
  } else {
    raw = *memory.load(address, bytes);  // outside the port's grant
  }
  return arch::is_four_bit(type) ? (raw >> (high_nibble ? 4 : 0)) & 0xF : raw;
}

namespace {

void store_element_bytes(std::uint8_t* p, arch::DataType type, std::uint32_t col,
                         std::uint32_t row_lanes, bool zero_final_nibble, std::uint64_t raw) {
  if (arch::is_four_bit(type)) {
    const unsigned shift = (col & 1) != 0 ? 4 : 0;
    const bool final_odd_lane = zero_final_nibble && col + 1 == row_lanes && shift == 0;
    const unsigned kept = final_odd_lane ? 0u : p[0] & ~(0xFu << shift);
    p[0] = static_cast<std::uint8_t>(kept | ((raw & 0xF) << shift));
    return;
  }
  for (unsigned i = 0, bytes = arch::memory_element_bytes(type); i < bytes; ++i)
    p[i] = static_cast<std::uint8_t>(raw >> (8 * i));
}

}  // namespace

void store_element(memory::MemoryPort& memory, std::uint64_t address, arch::DataType type,
                   std::uint32_t col, std::uint32_t row_lanes, bool zero_final_nibble,
                   std::uint64_t raw) {
  const unsigned bytes = arch::memory_element_bytes(type);
  std::uint8_t* p = memory.direct(address, bytes);
  if (p == nullptr) {
    // Outside the port's grant: the element (or its byte) through the port.
    std::uint8_t staged[8];
    if (arch::is_four_bit(type)) std::ignore = memory.read(address, staged, 1);
    store_element_bytes(staged, type, col, row_lanes, zero_final_nibble, raw);
    std::ignore = memory.write(address, staged, bytes);
    return;
  }
  store_element_bytes(p, type, col, row_lanes, zero_final_nibble, raw);
}

}  // namespace ptovp::tlsu
