#include "tlsu/tlsu.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "isa/operand_names.hpp"
#include "tlsu/block_schema.hpp"
#include "tlsu/footprint.hpp"

namespace ptovp::tlsu {

using arch::BlockDescriptor;
using arch::Expected;
using arch::Fault;
using arch::FaultCode;
using arch::Layout;
using arch::LocalTile;
using arch::make_fault;
using arch::mask_string;
using arch::MaybeFault;
using arch::TileBinding;
using arch::TileInfo;
using arch::TlsuFunction;

namespace {

Fault illegal(std::string reason) {
  return make_fault(FaultCode::TileLegality, std::move(reason));
}

// The one B.IOT of a Local form. BundleOperationBindingsComplete first: the
// bindings carry the operation's destinations and sources and close the
// stream, or the dispatcher's schema fault `code` follows; then exactly one
// B.IOT and no B.IOS (TileLegality).
MaybeFault one_tile_binding(const BlockDescriptor& block, bool destination, unsigned sources,
                            FaultCode code) {
  if (block.tile_count == 0) return make_fault(code, "the block has no B.IOT binding");
  unsigned bound_destinations = 0;
  unsigned bound_sources = 0;
  for (unsigned i = 0; i < block.tile_count; ++i) {
    bound_destinations += block.tiles[i].has_destination ? 1 : 0;
    bound_sources += block.tiles[i].source_count;
  }
  const bool closed = block.tiles[block.tile_count - 1].last;
  const unsigned destinations = destination ? 1 : 0;
  if (bound_destinations != destinations || bound_sources != sources || !closed) {
    return make_fault(code, fmt::format("the B.IOT bindings carry {} destination(s) and {} "
                                        "source(s) with L={}; the operation needs {} "
                                        "destination(s) and {} source(s) with L=1",
                                        bound_destinations, bound_sources, closed ? 1 : 0,
                                        destinations, sources));
  }
  if (block.tile_count != 1 || block.shared_count != 0) {
    return illegal(fmt::format("expected one B.IOT and no B.IOS, got {} B.IOT and {} B.IOS",
                               block.tile_count, block.shared_count));
  }
  return std::nullopt;
}

// The schema fault of a Local TLOAD, TSTORE or TMOV: BundleControl on the
// ordinary path (asl/block/model/dispatch/tile-execution.asl), TileLegality
// in the CUBE layout conversion (tlsu-layout-conversion.asl).
FaultCode local_schema_fault(const BlockDescriptor& block) {
  return layout_conversion(block) ? FaultCode::TileLegality : FaultCode::BundleControl;
}

// Exactly one B.IOS and no B.IOT (Shared TLOAD/TSTORE).
MaybeFault one_shared_binding(const BlockDescriptor& block, bool destination) {
  if (block.shared_count != 1 || block.tile_count != 0) {
    return illegal(fmt::format("expected one B.IOS and no B.IOT, got {} B.IOS and {} B.IOT",
                               block.shared_count, block.tile_count));
  }
  if (block.shared[0].is_destination() != destination) {
    return illegal(fmt::format("B.IOS S{} is a {} but the operation needs a {}",
                               block.shared[0].shared_id,
                               block.shared[0].is_destination() ? "destination" : "source",
                               destination ? "destination" : "source"));
  }
  return std::nullopt;
}

Expected<std::uint32_t> local_size(const TileBinding& binding) {
  if (binding.size_code < 1 || binding.size_code > 10) {
    return illegal(
        fmt::format("Local destination SizeCode {} is outside 1..10", binding.size_code));
  }
  return arch::size_code_bytes(binding.size_code);
}

// A source tile that exists on every PE of `mask` and is fully defined.
Expected<unsigned> defined_source(const arch::LocalTileFile& local, unsigned code,
                                  std::uint8_t mask) {
  auto index = local.resolve_source(code);
  if (!index) return index.fault();
  const LocalTile& tile = local.at(*index);
  if ((tile.allocation_mask() & mask) != mask) {
    return illegal(fmt::format("source tile {} is allocated on PEs {}, the block mask is {}",
                               local.source_name(*index), mask_string(tile.allocation_mask()),
                               mask_string(mask)));
  }
  if (!tile.contents_defined()) {
    return illegal(fmt::format("source tile {} ({}) has undefined valid elements",
                               local.source_name(*index), tile.info().describe()));
  }
  return *index;
}

// TMOV.L2S (Local source -> Shared destination) or TMOV.S2L (Shared source ->
// Local destination): one B.IOT and one B.IOS with equal masks.
MaybeFault tmov_bindings(const BlockDescriptor& block, bool to_shared) {
  const char* form = to_shared ? "TMOV.L2S" : "TMOV.S2L";
  if (block.tile_count != 1 || block.shared_count != 1) {
    return illegal(fmt::format("{} needs one B.IOT and one B.IOS, got {} and {}", form,
                               block.tile_count, block.shared_count));
  }
  const TileBinding& tile = block.tiles[0];
  const arch::SharedBinding& shared = block.shared[0];
  const bool roles =
      to_shared ? !tile.has_destination && tile.source_count == 1 && shared.is_destination()
                : tile.has_destination && tile.source_count == 0 && !shared.is_destination();
  if (!roles || !tile.last || tile.pe_mask != shared.pe_mask) {
    return illegal(
        fmt::format("{} binding roles or masks differ (B.IOT mask {}, B.IOS S{} mask "
                    "{} SizeCode {})",
                    form, mask_string(tile.pe_mask), shared.shared_id, mask_string(shared.pe_mask),
                    shared.size_code));
  }
  return std::nullopt;
}

std::uint32_t value_or(const std::optional<std::uint32_t>& dim, std::uint32_t fallback) {
  return dim ? *dim : fallback;
}

std::uint64_t valid_bytes(const arch::TileInfo& info) {
  return (std::uint64_t{info.valid_rows} * info.valid_columns * arch::element_bits(info.data_type) +
          7) /
         8;
}

}  // namespace

#define PTOVP_TRY(expr)                      \
  do {                                       \
    if (auto fault_ = (expr)) return fault_; \
  } while (false)
// `name` is the variable the macro declares, so it cannot be parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PTOVP_TRY_VALUE(name, expr) \
  auto name = (expr);               \
  if (!name) return name.fault()
// NOLINTEND(bugprone-macro-parentheses)

namespace {

// ExecuteBundleSharedTLSUOperation's checks before a form's own schema, in
// its order (asl/block/model/dispatch/shared-tlsu.asl): one B.IOS, the
// transfer type of the forms that move data to or from GM (`transfers`), the
// unused B.IOR fields (BundleControl), then B.DATR.
MaybeFault shared_preamble(const BlockDescriptor& block, bool transfers, DatrUse use) {
  if (block.shared_count != 1)
    return illegal(fmt::format("expected one B.IOS, got {}", block.shared_count));
  if (transfers) {
    PTOVP_TRY_VALUE(type, transfer_type(block));
  }
  PTOVP_TRY(check_ior(block, transfers ? 2 : 0, FaultCode::BundleControl));
  return check_datr(block, use);
}

// TileIndexByteDisplacement: an index element sign- or zero-extended from
// its width.
std::uint64_t byte_displacement(std::uint64_t raw, arch::DataType index_type) {
  const unsigned bits = arch::element_bits(index_type);
  if (bits >= 64 || !numeric::is_signed_integer(index_type)) return raw;
  const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
  return (raw ^ sign) - sign;
}

// The indexed forms' shape (BundleMGATHERDimensionsLegal): explicit LB0
// (ValidCol), LB1 (ValidRow, default 1) and LB2 (Col, default LB0), Col a
// power of two holding ValidCol.
struct IndexedShape {
  std::uint32_t valid_rows;
  std::uint32_t valid_columns;
  std::uint32_t columns;
};

Expected<IndexedShape> indexed_shape(const BlockDescriptor& block, const char* form) {
  PTOVP_TRY_VALUE(lb0, arch::dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, arch::dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, arch::dimension(block, 2));
  if (!*lb0) return illegal(fmt::format("{} needs an explicit LB0 (ValidCol)", form));
  const IndexedShape shape{value_or(*lb1, 1), **lb0, value_or(*lb2, **lb0)};
  if ((shape.columns & (shape.columns - 1)) != 0 || shape.valid_columns > shape.columns) {
    return illegal(fmt::format("{} Col {} is not a power of two >= ValidCol {}", form,
                               shape.columns, shape.valid_columns));
  }
  return shape;
}

// An index tile of an indexed form: defined on every PE of `mask`, of an
// integer type (IndexedTLSUIndexDataTypeLegal), and of the block's valid
// shape.
Expected<unsigned> index_tile(const arch::LocalTileFile& local, unsigned code, std::uint8_t mask,
                              const IndexedShape& shape, const char* form) {
  PTOVP_TRY_VALUE(index, defined_source(local, code, mask));
  const TileInfo& held = local.at(*index).info();
  if (!numeric::is_integer(held.data_type)) {
    return illegal(fmt::format("{} index tile {} holds {}, not an integer type", form,
                               local.source_name(*index), numeric::name(held.data_type)));
  }
  if (held.valid_rows != shape.valid_rows || held.valid_columns != shape.valid_columns) {
    return illegal(fmt::format("{} index tile {} ({}) is not {}x{}", form,
                               local.source_name(*index), held.describe(), shape.valid_rows,
                               shape.valid_columns));
  }
  return *index;
}

// IndexedTLSUTransferDataTypeLegal: a byte displacement has no nibble
// selector, so no 4-bit transfer type.
Expected<arch::DataType> indexed_transfer_type(const BlockDescriptor& block, const char* form) {
  PTOVP_TRY_VALUE(type, transfer_type(block));
  if (arch::is_four_bit(*type)) {
    return illegal(
        fmt::format("{} cannot transfer the 4-bit type {}: a byte displacement has "
                    "no nibble selector",
                    form, numeric::name(*type)));
  }
  return *type;
}

// The address of every lane of every PE of `mask`, in PE order and then
// row-major: PE p's B.IOR base plus its index tile's element as a byte
// displacement. Each is probed (alignment to `bytes`, then DataPage) in that
// order, so the first failing lane is the fault.
Expected<std::vector<std::uint64_t>> lane_addresses(const memory::MemoryPort& memory,
                                                    const BlockDescriptor& block, std::uint8_t mask,
                                                    const LocalTile& indices,
                                                    const IndexedShape& shape, unsigned bytes) {
  const TileInfo& info = indices.info();
  std::vector<std::uint64_t> addresses;
  addresses.reserve(std::size_t{arch::pe_count(mask)} * shape.valid_rows * shape.valid_columns);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(mask, pe)) continue;
    for (std::uint32_t row = 0; row < shape.valid_rows; ++row) {
      for (std::uint32_t col = 0; col < shape.valid_columns; ++col) {
        const std::uint64_t raw = arch::read_slot(indices.payload(pe), info.data_type,
                                                  arch::storage_index(info, row, col));
        const std::uint64_t address =
            block.ior_values[pe][0] + byte_displacement(raw, info.data_type);
        if (auto bad = memory.probe(address, bytes, bytes)) return *bad;
        addresses.push_back(address);
      }
    }
  }
  return addresses;
}

// BundleMGATHERCASBindingsLegal: B.IOT IndexTile, ExpectedTile (not last),
// then B.IOT ReplacementTile, last, ->DstTile, with one mask.
MaybeFault cas_bindings(const BlockDescriptor& block) {
  const TileBinding& first = block.tiles[0];
  const TileBinding& second = block.tiles[1];
  if (block.tile_count != 2 || block.shared_count != 0 || first.has_destination ||
      first.source_count != 2 || first.last || !second.has_destination ||
      second.source_count != 1 || !second.last || first.pe_mask != second.pe_mask) {
    return illegal(
        "MGATHER.CAS needs B.IOT IndexTile, ExpectedTile and B.IOT ReplacementTile, last, "
        "->DstTile with one mask and no B.IOS");
  }
  return std::nullopt;
}

// The expected (B.IOT 1, SrcTile1) and replacement (B.IOT 2, SrcTile0)
// elements of every lane, in lane_addresses' order: both tiles defined, of
// the transfer type and the block's valid shape.
MaybeFault cas_operands(const arch::LocalTileFile& local, const BlockDescriptor& block,
                        const IndexedShape& shape, arch::DataType type,
                        std::vector<std::uint64_t>& expected,
                        std::vector<std::uint64_t>& replacement) {
  const std::uint8_t mask = block.tiles[1].pe_mask;
  const struct {
    unsigned code;
    const char* role;
    std::vector<std::uint64_t>* values;
  } operands[] = {{block.tiles[0].source[1], "expected", &expected},
                  {block.tiles[1].source[0], "replacement", &replacement}};
  for (const auto& operand : operands) {
    PTOVP_TRY_VALUE(index, defined_source(local, operand.code, mask));
    const LocalTile& tile = local.at(*index);
    const TileInfo& held = tile.info();
    if (held.data_type != type || held.valid_rows != shape.valid_rows ||
        held.valid_columns != shape.valid_columns) {
      return illegal(fmt::format("MGATHER.CAS {} tile {} ({}) is not {} {}x{}", operand.role,
                                 local.source_name(*index), held.describe(), numeric::name(type),
                                 shape.valid_rows, shape.valid_columns));
    }
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (!arch::pe_selected(mask, pe)) continue;
      for (std::uint32_t row = 0; row < shape.valid_rows; ++row) {
        for (std::uint32_t col = 0; col < shape.valid_columns; ++col)
          operand.values->push_back(
              arch::read_slot(tile.payload(pe), type, arch::storage_index(held, row, col)));
      }
    }
  }
  return std::nullopt;
}

// Calls visit(slot) for every CELL padding slot of a CUBE tile: valid rows
// pad their columns past the valid region, the other rows every column. The
// same padded shapes (MX scale tiles, edge tiles) come back block after
// block: the slots of the last few are kept, per thread.
template <typename Visit>
void for_each_padding_slot(const TileInfo& info, Visit&& visit) {
  struct Shape {
    bool valid = false;
    TileInfo tile;
    std::vector<std::uint32_t> slots;
  };
  thread_local std::array<Shape, 4> shapes;
  thread_local std::size_t next = 0;
  const auto kept = std::find_if(shapes.begin(), shapes.end(),
                                 [&](const Shape& s) { return s.valid && s.tile == info; });
  Shape& shape = kept != shapes.end() ? *kept : shapes[next];
  if (kept == shapes.end()) {
    next = (next + 1) % shapes.size();
    shape = {true, info, {}};
    // A slot is a row term plus a column term (arch::storage_index).
    thread_local std::vector<std::uint32_t> row_terms, column_terms;
    arch::storage_row_terms(info, info.rows, row_terms);
    arch::storage_column_terms(info, info.columns, column_terms);
    for (std::uint32_t row = 0; row < info.rows; ++row) {
      const std::uint32_t first = row < info.valid_rows ? info.valid_columns : 0;
      for (std::uint32_t col = first; col < info.columns; ++col)
        shape.slots.push_back(row_terms[row] + column_terms[col]);
    }
  }
  for (const std::uint32_t slot : shape.slots)
    visit(slot);
}

// The GM bytes a preflighted Local footprint covers, [begin, end): each PE's
// rows lie between its first and its last.
std::pair<std::uint64_t, std::uint64_t> footprint_range(const Footprint& footprint) {
  const TileInfo& tile = *footprint.tile;
  const std::uint64_t row_bytes =
      (std::uint64_t{tile.valid_columns} * arch::element_bits(tile.data_type) + 7) / 8;
  std::uint64_t begin = ~std::uint64_t{0}, end = 0;
  if (tile.valid_rows == 0 || row_bytes == 0) return {0, 0};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(footprint.pe_mask, pe)) continue;
    const std::uint64_t first = footprint.row_address(pe, 0);
    const std::uint64_t last = footprint.row_address(pe, tile.valid_rows - 1);
    begin = std::min({begin, first, last});
    end = std::max({end, first + row_bytes, last + row_bytes});
  }
  return {begin, end};
}

}  // namespace

MaybeFault Tlsu::execute(const BlockDescriptor& block, std::uint64_t tile_capacity) {
  last_destination_.reset();
  tile_capacity_ = tile_capacity;
  if (!block.operation_valid || block.operation_class != arch::OperationClass::Tlsu) {
    return make_fault(FaultCode::IllegalInstruction, "the block is not a TLSU operation");
  }
  if (block.zero_mask_noop()) return std::nullopt;
  const auto function = static_cast<TlsuFunction>(block.function);
  // BundleCubeTransportSelected comes first in the dispatch
  // (tile-execution.asl): a CUBE layout code makes the block a layout
  // conversion, which only a Local TLOAD or TSTORE is.
  if (layout_conversion(block) && (block.shared_count != 0 || (function != TlsuFunction::TLoad &&
                                                               function != TlsuFunction::TStore))) {
    return illegal(
        fmt::format("B.DATR Layout {} is a CUBE layout conversion, which only a Local TLOAD "
                    "or TSTORE takes",
                    isa::code_name(isa::NameTable::Layout, block.datr.layout)));
  }
  // Only Local TLOAD and TSTORE defer their values (defer()); every other
  // function reads or writes what queued work may still touch.
  const bool local_transfer = block.shared_count == 0 &&
                              (function == TlsuFunction::TLoad || function == TlsuFunction::TStore);
  if (queue_ != nullptr && !local_transfer) queue_->drain();
  switch (function) {
    case TlsuFunction::TLoad:
      return block.shared_count != 0 ? load_shared(block) : load_local(block);
    case TlsuFunction::TStore:
      return block.shared_count != 0 ? store_shared(block) : store_local(block);
    case TlsuFunction::TStoreSPart: return store_shared(block);
    case TlsuFunction::TMov: return copy_local(block);
    case TlsuFunction::TPrefetch: return prefetch(block);
    case TlsuFunction::TMovL2SInsert: return local_to_shared(block, false);
    case TlsuFunction::TMovL2SPublish: return local_to_shared(block, true);
    case TlsuFunction::TMovS2LBroadcast: return shared_to_local(block, true);
    case TlsuFunction::TMovS2LExtract: return shared_to_local(block, false);
    case TlsuFunction::GMov: return gmov(block);
    case TlsuFunction::MGather: return gather(block);
    case TlsuFunction::MScatter: return scatter(block);
    case TlsuFunction::MGatherMask:
    case TlsuFunction::MScatterMask: return masked_indexed(block);
    case TlsuFunction::MGatherCas: return gather(block);
  }
  return make_fault(
      FaultCode::IllegalInstruction,
      fmt::format("TLSU function {} is not implemented by this platform", block.function));
}

Transfer transfer_direction(const BlockDescriptor& block) {
  if (block.is_tlsu(TlsuFunction::TStore) || block.is_tlsu(TlsuFunction::TStoreSPart))
    return Transfer::Stored;
  if (block.is_tlsu(TlsuFunction::MScatter) || block.is_tlsu(TlsuFunction::MScatterMask))
    return Transfer::Stored;
  if (block.is_tlsu(TlsuFunction::TLoad) || block.is_tlsu(TlsuFunction::TPrefetch) ||
      block.is_tlsu(TlsuFunction::MGather) || block.is_tlsu(TlsuFunction::MGatherMask) ||
      block.is_tlsu(TlsuFunction::MGatherCas))
    return Transfer::Loaded;
  return Transfer::Moved;
}

const char* transfer_name(Transfer transfer) {
  switch (transfer) {
    case Transfer::Loaded: return "loaded";
    case Transfer::Stored: return "stored";
    case Transfer::Moved: return "moved";
  }
  return "";
}

std::uint64_t Tlsu::bytes_moved(const arch::BlockDescriptor& block) const {
  if (auto index = last_destination_) {
    const arch::LocalTile& tile = local_.at(*index);
    return valid_bytes(tile.info()) * arch::pe_count(tile.allocation_mask());
  }
  for (unsigned i = 0; i < block.tile_count; ++i) {
    const arch::TileBinding& binding = block.tiles[i];
    if (binding.source_count == 0) continue;
    if (auto index = local_.resolve_source(binding.source[0]))
      return valid_bytes(local_.at(*index).info()) * arch::pe_count(binding.pe_mask);
  }
  if (block.shared_count > 0)
    return valid_bytes(fabric_.tiles().at(block.shared[0].shared_id).info);
  // TPREFETCH: LB1 rows of LB0 elements (absent = 1).
  const auto dim = [&](unsigned i) { return block.dims[i].present ? block.dims[i].value : 1u; };
  const auto type = numeric::data_type_from_code(block.data_type);
  return dim(0) * dim(1) * (type ? arch::memory_element_bytes(*type) : 1u);
}

Expected<arch::AllocationPlan> Tlsu::plan_destination(const TileBinding& binding,
                                                      std::uint32_t capacity) const {
  return local_.plan(binding.destination_hand, binding.pe_mask, capacity, fabric_.tiles(),
                     tile_capacity_);
}

std::optional<LocalTile> Tlsu::take_if_retired(const arch::AllocationPlan& plan, unsigned source) {
  if (plan.retires != source) return std::nullopt;
  return std::move(local_.at(source));
}

LocalTile& Tlsu::commit_destination(const arch::AllocationPlan& plan, const TileInfo& info,
                                    std::uint8_t mask, bool overwritten) {
  last_destination_ = plan.index;
  return local_.commit(plan, info, mask, overwritten);
}

template <typename Work>
void Tlsu::defer(std::uint64_t tiles, std::uint8_t pes, GmRange read, GmRange written, Work work) {
  if (queue_ == nullptr) {
    work(pes);
    return;
  }
  // Queued work reaches GM only through the port's direct pointer: a
  // transport (no DMI grant, docs/platform.md "Memory port") is the unit's
  // own, its delay part of the block's time.
  const GmRange& gm = written.first < written.second ? written : read;
  if (gm.first < gm.second && memory_.direct(gm.first, gm.second - gm.first) == nullptr) {
    queue_->drain();
    work(pes);
    return;
  }
  // PEs may store to the same bytes, the last one winning: a store stays
  // whole, on the worker.
  const bool store = written.first < written.second;
  const std::uint8_t front = store ? 0 : queue_->front_pes(pes);
  const std::uint8_t back = pes & ~front;
  // The front end's part reads GM now, so after the queued stores to it.
  if (front != 0 && queue_->writes_pending(read.first, read.second - read.first)) queue_->drain();
  if (back != 0) {
    queue_->submit(
        [work, back]() mutable {
          work(back);
          return std::uint8_t{0};
        },
        tiles, back, store ? 0 : tiles, written.first, written.second);
  }
  if (front != 0) work(front);
}

void Tlsu::report(const Footprint& footprint, bool store) const {
  if (observer_ == nullptr) return;
  const arch::TileInfo& tile = *footprint.tile;
  const unsigned bytes = arch::memory_element_bytes(tile.data_type);
  if (footprint.by_rows()) {
    // A row's valid elements are one contiguous GM range.
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (!arch::pe_selected(footprint.pe_mask, pe)) continue;
      for (std::uint32_t row = 0; row < tile.valid_rows; ++row)
        observer_->accessed(footprint.address(pe, row, 0),
                            std::uint64_t{tile.valid_columns} * bytes, store);
    }
    return;
  }
  footprint.walk([&](unsigned, std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t address) {
    observer_->accessed(address, bytes, store);
    return true;
  });
}

MaybeFault Tlsu::load_local(const BlockDescriptor& block) {
  PTOVP_TRY(check_ior(block, 2, local_schema_fault(block)));
  PTOVP_TRY(one_tile_binding(block, true, 0, local_schema_fault(block)));
  const bool cube = block.datr.present && is_cube_load_code(block.datr.layout);
  PTOVP_TRY(check_datr(block, cube ? DatrUse::CubeLoad : DatrUse::OrdinaryLayout));
  PTOVP_TRY_VALUE(type, transfer_type(block));
  const TileBinding& binding = block.tiles[0];
  PTOVP_TRY_VALUE(capacity, local_size(binding));
  PTOVP_TRY_VALUE(lb0, dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, dimension(block, 2));
  const Layout layout = tile_layout(block);
  if (cube && (!*lb0 || !*lb1 || *lb2)) {
    return illegal("a CUBE TLOAD needs explicit LB0 (columns) and LB1 (rows) and no LB2");
  }
  // A CUBE tile's columns are LB0, its rows LB1.
  const std::uint32_t valid_cols = value_or(*lb0, 1);
  const std::uint32_t cols = cube ? valid_cols : value_or(*lb2, valid_cols);
  const Expected<TileInfo> info =
      cube ? arch::make_cube_tile(*capacity, **lb1, valid_cols, *type, layout)
           : arch::make_ordinary_tile(*capacity, cols, value_or(*lb1, 1), valid_cols, *type, layout,
                                      arch::Location::Any, arch::kMaxLocalCapacity);
  const std::uint64_t dense = arch::dense_row_stride(cols, *type);
  if (!info) return info.fault();
  PTOVP_TRY_VALUE(plan, plan_destination(binding, *capacity));
  Footprint footprint{&*info, accesses(block, dense), binding.pe_mask, Ownership::EveryPe};
  PTOVP_TRY(preflight(memory_, footprint));
  report(footprint, false);

  // The payloads are left as they are and zeroed with the values, on the
  // thread that writes them, unless rows of a whole tile write every byte.
  const bool overwritten = footprint.by_rows() && arch::valid_region_fills_payload(*info);
  LocalTile& tile = commit_destination(*plan, *info, binding.pe_mask, true);
  const auto pad = static_cast<arch::PadValue>(block.datr.pad);
  const bool padded = cube && pad != arch::PadValue::Null;
  if (padded) {
    // CELL padding takes the PadValue and becomes defined; it is never read
    // from GM. With the valid region, that is every slot.
    tile.define_every_slot();
  } else {
    tile.define_valid_region();
  }
  // The values: the footprint's rows into the payloads, then the padding.
  const std::uint64_t pad_bits = padded ? arch::pad_bits(pad, info->data_type) : 0;
  defer(std::uint64_t{1} << plan->index, binding.pe_mask, footprint_range(footprint), {},
        [this, &tile, held = *info, footprint = footprint, overwritten, padded,
         pad_bits](std::uint8_t pes) mutable {
          footprint.tile = &held;
          footprint.pe_mask &= pes;
          if (!overwritten) tile.zero_payloads(footprint.pe_mask);
          if (footprint.by_rows()) {
            load_rows(memory_, footprint, tile);
          } else {
            footprint.walk([&](unsigned pe, std::uint32_t, std::uint32_t col, std::uint32_t slot,
                               std::uint64_t address) {
              arch::write_slot(tile.payload(pe), held.data_type, slot,
                               load_element(memory_, address, held.data_type, col & 1));
              return true;
            });
          }
          // A tile with padding slots does not fill its payload, which was
          // zeroed above: zero padding is already in place.
          if (padded && pad_bits != 0) {
            for_each_padding_slot(held, [&](std::uint32_t slot) {
              for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
                if (arch::pe_selected(footprint.pe_mask, pe)) {
                  arch::write_slot(tile.payload(pe), held.data_type, slot, pad_bits);
                }
              }
            });
          }
        });
  return std::nullopt;
}

MaybeFault Tlsu::store_local(const BlockDescriptor& block) {
  PTOVP_TRY(check_ior(block, 2, local_schema_fault(block)));
  PTOVP_TRY(one_tile_binding(block, false, 1, local_schema_fault(block)));
  const bool cube = block.datr.present && is_cube_store_code(block.datr.layout);
  PTOVP_TRY(check_datr(block, cube ? DatrUse::CubeStore : DatrUse::OrdinaryLayout));
  PTOVP_TRY_VALUE(type, transfer_type(block));
  const TileBinding& binding = block.tiles[0];
  PTOVP_TRY_VALUE(index, defined_source(local_, binding.source[0], binding.pe_mask));
  const LocalTile& source = local_.at(*index);
  const TileInfo& held = source.info();
  if (held.data_type != *type) {
    return illegal(fmt::format("source tile {} holds {}, BSTART.TSTORE names {}",
                               local_.source_name(*index), numeric::name(held.data_type),
                               numeric::name(*type)));
  }
  PTOVP_TRY_VALUE(lb0, dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, dimension(block, 2));
  TileInfo view = held;
  std::uint64_t dense = 0;
  if (cube) {
    if (!*lb0 || !*lb1 || *lb2) {
      return illegal("a CUBE TSTORE needs explicit LB0 (columns) and LB1 (rows) and no LB2");
    }
    if (held.layout != tile_layout(block) || held.location != arch::Location::Matrix ||
        **lb0 != held.valid_columns || **lb1 != held.valid_rows) {
      return illegal(fmt::format("CUBE TSTORE of {} {}x{} does not match source tile {} ({})",
                                 arch::name(tile_layout(block)), **lb1, **lb0,
                                 local_.source_name(*index), held.describe()));
    }
    dense = arch::dense_row_stride(**lb0, *type);
  } else {
    if (arch::is_cube(held.layout)) {
      return illegal(fmt::format("source tile {} is {}; store it with a CUBE layout code",
                                 local_.source_name(*index), arch::name(held.layout)));
    }
    view.valid_columns = value_or(*lb0, held.valid_columns);
    view.valid_rows = value_or(*lb1, held.valid_rows);
    const std::uint32_t cols = value_or(*lb2, held.columns);
    if (view.valid_columns > held.valid_columns || view.valid_rows > held.valid_rows ||
        view.valid_columns > cols) {
      return illegal(fmt::format("TSTORE {}x{} (Col {}) does not fit source tile {} ({})",
                                 view.valid_rows, view.valid_columns, cols,
                                 local_.source_name(*index), held.describe()));
    }
    dense = arch::dense_row_stride(cols, *type);
  }
  const Footprint footprint{&view, accesses(block, dense), binding.pe_mask, Ownership::EveryPe};
  PTOVP_TRY(preflight(memory_, footprint));
  report(footprint, true);
  defer(std::uint64_t{1} << *index, binding.pe_mask, {}, footprint_range(footprint),
        [this, &source, view, footprint = footprint](std::uint8_t) mutable {
          footprint.tile = &view;
          if (footprint.by_rows()) {
            store_rows(memory_, footprint, source);
            return;
          }
          footprint.walk([&](unsigned pe, std::uint32_t, std::uint32_t col, std::uint32_t slot,
                             std::uint64_t address) {
            store_element(memory_, address, view.data_type, col, view.valid_columns,
                          final_nibble_ == PackedFinalNibble::Zero,
                          arch::read_slot(source.payload(pe), view.data_type, slot));
            return true;
          });
        });
  return std::nullopt;
}

MaybeFault Tlsu::load_shared(const BlockDescriptor& block) {
  PTOVP_TRY(shared_preamble(block, true, DatrUse::OrdinaryLayout));
  PTOVP_TRY(one_shared_binding(block, true));
  PTOVP_TRY_VALUE(type, transfer_type(block));
  const arch::SharedBinding& binding = block.shared[0];
  PTOVP_TRY_VALUE(lb0, dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, dimension(block, 2));
  if (!*lb0 || !*lb1 || !*lb2) return illegal("a Shared TLOAD needs explicit LB0, LB1 and LB2");
  PTOVP_TRY_VALUE(info, arch::make_ordinary_tile(arch::size_code_bytes(binding.size_code), **lb2,
                                                 **lb1, **lb0, *type, tile_layout(block),
                                                 arch::Location::Any, arch::kMaxSharedCapacity));
  PTOVP_TRY(fabric_.check_update(binding.shared_id, *info, binding.pe_mask,
                                 local_.capacity_in_use(), tile_capacity_));
  const Footprint footprint{&*info, accesses(block, arch::dense_row_stride(**lb2, *type)),
                            binding.pe_mask, Ownership::QuarterOwner};
  PTOVP_TRY(preflight(memory_, footprint));
  report(footprint, false);
  std::vector<std::uint8_t> staged(info->capacity_bytes, 0);
  footprint.walk(
      [&](unsigned, std::uint32_t, std::uint32_t col, std::uint32_t slot, std::uint64_t address) {
        arch::write_slot(staged.data(), info->data_type, slot,
                         load_element(memory_, address, info->data_type, col & 1));
        return true;
      });
  fabric_.update(binding.shared_id, *info, staged.data(), binding.pe_mask, true);
  return std::nullopt;
}

MaybeFault Tlsu::store_shared(const BlockDescriptor& block) {
  PTOVP_TRY(shared_preamble(block, true, DatrUse::OrdinaryLayout));
  PTOVP_TRY(one_shared_binding(block, false));
  const arch::SharedBinding& binding = block.shared[0];
  if (block.is_tlsu(TlsuFunction::TStore) && binding.pe_mask != arch::kAllPes) {
    return illegal(
        fmt::format("TSTORE of Shared S{} needs PE mask 1111, got {} (use "
                    "TSTORE.SPART)",
                    binding.shared_id, mask_string(binding.pe_mask)));
  }
  PTOVP_TRY_VALUE(type, transfer_type(block));
  PTOVP_TRY_VALUE(lb0, dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, dimension(block, 2));
  const arch::SharedTile& record = fabric_.tiles().at(binding.shared_id);
  const bool valid = record.descriptor_valid;
  const std::uint32_t valid_cols = value_or(*lb0, valid ? record.info.valid_columns : 1);
  const std::uint32_t valid_rows = value_or(*lb1, valid ? record.info.valid_rows : 1);
  const std::uint32_t cols = value_or(*lb2, valid ? record.info.columns : valid_cols);
  PTOVP_TRY_VALUE(view, fabric_.read_view(binding.shared_id, valid_rows, valid_cols, cols, *type,
                                          tile_layout(block), std::nullopt));
  const Footprint footprint{&*view, accesses(block, arch::dense_row_stride(cols, *type)),
                            binding.pe_mask, Ownership::QuarterOwner};
  PTOVP_TRY(preflight(memory_, footprint));
  report(footprint, true);
  footprint.walk(
      [&](unsigned, std::uint32_t, std::uint32_t col, std::uint32_t slot, std::uint64_t address) {
        store_element(memory_, address, view->data_type, col, view->valid_columns,
                      final_nibble_ == PackedFinalNibble::Zero,
                      fabric_.read_slot(binding.shared_id, *view, slot));
        return true;
      });
  return std::nullopt;
}

MaybeFault Tlsu::copy_local(const BlockDescriptor& block) {
  if (block.shared_count != 0) {
    // A B.IOS makes the block the Shared dispatcher's, which has no TMOV.
    PTOVP_TRY(shared_preamble(block, false, DatrUse::NoLayout));
    return illegal("TMOV takes no B.IOS");
  }
  PTOVP_TRY(check_ior(block, 0, FaultCode::BundleControl));
  PTOVP_TRY(one_tile_binding(block, true, 1, FaultCode::BundleControl));
  PTOVP_TRY(check_datr(block, DatrUse::NoLayout));
  const TileBinding& binding = block.tiles[0];
  PTOVP_TRY_VALUE(capacity, local_size(binding));
  PTOVP_TRY_VALUE(index, defined_source(local_, binding.source[0], binding.pe_mask));
  const LocalTile& source = local_.at(*index);
  const TileInfo& held = source.info();
  if (block.data_type != arch::kDataTypeNoneCode &&
      block.data_type != numeric::code(held.data_type)) {
    return illegal(fmt::format("TMOV DataType {} differs from source tile {} ({})",
                               isa::code_name(isa::NameTable::DataTypeOrNone, block.data_type),
                               local_.source_name(*index), held.describe()));
  }
  PTOVP_TRY_VALUE(lb0, dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, dimension(block, 2));
  if (value_or(*lb0, held.valid_columns) != held.valid_columns ||
      value_or(*lb1, held.valid_rows) != held.valid_rows ||
      value_or(*lb2, held.columns) != held.columns) {
    return illegal(fmt::format("TMOV dimensions differ from source tile {} ({})",
                               local_.source_name(*index), held.describe()));
  }
  TileInfo info = held;
  info.capacity_bytes = *capacity;
  if (!arch::is_cube(held.layout)) {
    PTOVP_TRY_VALUE(derived,
                    arch::make_ordinary_tile(*capacity, held.columns, held.valid_rows,
                                             held.valid_columns, held.data_type, held.layout,
                                             held.location, arch::kMaxLocalCapacity));
    info = *derived;
  } else if (held.cube_storage_bytes > *capacity) {
    return illegal(fmt::format("TMOV destination of {} B cannot hold source tile {} ({})",
                               *capacity, local_.source_name(*index), held.describe()));
  }
  if (info.rows != held.rows) {
    return illegal(fmt::format("TMOV destination of {} B has {} rows, source tile {} has {}",
                               *capacity, info.rows, local_.source_name(*index), held.rows));
  }
  PTOVP_TRY_VALUE(plan, plan_destination(binding, *capacity));
  const std::optional<LocalTile> retired = take_if_retired(*plan, *index);
  const LocalTile& src = retired ? *retired : local_.at(*index);
  LocalTile& tile = commit_destination(*plan, info, binding.pe_mask);
  const std::size_t bytes = std::min(info.capacity_bytes, held.capacity_bytes);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (arch::pe_selected(binding.pe_mask, pe)) {
      std::copy(src.payload(pe), src.payload(pe) + bytes, tile.payload(pe));
    }
  }
  tile.copy_definedness(src);
  return std::nullopt;
}

MaybeFault Tlsu::gmov(const BlockDescriptor& block) {
  PTOVP_TRY(one_tile_binding(block, true, 1, FaultCode::TileLegality));
  PTOVP_TRY(check_ior(block, 1, FaultCode::TileLegality));
  PTOVP_TRY(check_datr(block, DatrUse::OrdinaryLayout));
  for (unsigned i = 0; i < 3; ++i) {
    if (block.dims[i].present)
      return illegal(fmt::format("GMOV takes no dimensions, LB{} is set", i));
  }
  const TileBinding& binding = block.tiles[0];
  PTOVP_TRY_VALUE(capacity, local_size(binding));
  PTOVP_TRY_VALUE(index, defined_source(local_, binding.source[0], arch::kAllPes));
  const TileInfo& held = local_.at(*index).info();
  if (held.capacity_bytes != *capacity || held.layout != tile_layout(block) ||
      (block.data_type != arch::kDataTypeNoneCode &&
       block.data_type != numeric::code(held.data_type))) {
    return illegal(
        fmt::format("GMOV destination ({} B, {}, DataType {}) does not match source "
                    "tile {} ({})",
                    *capacity, arch::name(tile_layout(block)),
                    isa::code_name(isa::NameTable::DataTypeOrNone, block.data_type),
                    local_.source_name(*index), held.describe()));
  }
  std::array<unsigned, arch::kPeCount> peer{};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const std::uint64_t tid = block.ior.valid ? block.ior_values[pe][0] : 0;
    if (arch::pe_selected(binding.pe_mask, pe) && tid > 3) {
      return illegal(fmt::format("GMOV peer_tid {} of PE{} is not a PE index 0..3", tid, pe));
    }
    peer[pe] = static_cast<unsigned>(tid & 3);
  }
  PTOVP_TRY_VALUE(plan, plan_destination(binding, *capacity));
  const std::optional<LocalTile> retired = take_if_retired(*plan, *index);
  const LocalTile& src = retired ? *retired : local_.at(*index);
  LocalTile& tile = commit_destination(*plan, src.info(), binding.pe_mask);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (arch::pe_selected(binding.pe_mask, pe)) {
      std::copy(src.payload(peer[pe]), src.payload(peer[pe]) + held.capacity_bytes,
                tile.payload(pe));
    }
  }
  tile.copy_definedness(src);
  return std::nullopt;
}

MaybeFault Tlsu::prefetch(const BlockDescriptor& block) {
  if (block.tile_count != 0 || block.shared_count != 0) {
    return illegal("TPREFETCH takes no B.IOT or B.IOS binding");
  }
  PTOVP_TRY(check_ior(block, 2, FaultCode::TileLegality));
  PTOVP_TRY(check_datr(block, DatrUse::NoLayout));
  PTOVP_TRY_VALUE(type, transfer_type(block));
  PTOVP_TRY_VALUE(lb0, dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, dimension(block, 2));
  const std::uint32_t valid_cols = value_or(*lb0, 1);
  const std::uint32_t cols = value_or(*lb2, valid_cols);
  if ((cols & (cols - 1)) != 0 || valid_cols > cols) {
    return illegal(
        fmt::format("TPREFETCH Col {} is not a power of two >= ValidCol {}", cols, valid_cols));
  }
  TileInfo view;
  view.data_type = *type;
  view.valid_rows = view.rows = value_or(*lb1, 1);
  view.valid_columns = valid_cols;
  view.columns = cols;
  // RegSrc1 is a row stride in elements: base + (row * stride + col) * esize.
  PeAccesses access = accesses(block, cols);
  const unsigned bits = arch::element_bits(*type);
  for (PeAccess& a : access)
    a.row_stride = a.row_stride * bits / 8;
  const Footprint footprint{&view, access, arch::kAllPes, Ownership::EveryPe};
  return preflight(memory_, footprint);
}

MaybeFault Tlsu::local_to_shared(const BlockDescriptor& block, bool publish) {
  PTOVP_TRY(shared_preamble(block, false, DatrUse::NoLayout));
  PTOVP_TRY(tmov_bindings(block, true));
  const TileBinding& binding = block.tiles[0];
  const arch::SharedBinding& shared = block.shared[0];
  PTOVP_TRY_VALUE(index, defined_source(local_, binding.source[0], binding.pe_mask));
  const LocalTile& source = local_.at(*index);
  TileInfo candidate = source.info();
  candidate.location = arch::Location::Any;
  if (candidate.capacity_bytes != arch::size_code_bytes(shared.size_code)) {
    return illegal(fmt::format("source tile {} has {} B, B.IOS S{} SizeCode {} is {} B",
                               local_.source_name(*index), candidate.capacity_bytes,
                               shared.shared_id, shared.size_code,
                               arch::size_code_bytes(shared.size_code)));
  }
  PTOVP_TRY(fabric_.check_update(shared.shared_id, candidate, shared.pe_mask,
                                 local_.capacity_in_use(), tile_capacity_));
  if (publish) PTOVP_TRY(fabric_.check_publish(shared.shared_id, shared.pe_mask));
  // Quarter q comes from PE q's own payload at the same element indices.
  std::vector<std::uint8_t> staged(candidate.capacity_bytes, 0);
  for (std::uint32_t row = 0; row < candidate.valid_rows; ++row) {
    for (std::uint32_t col = 0; col < candidate.valid_columns; ++col) {
      const std::uint32_t slot = arch::storage_index(candidate, row, col);
      const unsigned q = fabric::Fabric::quarter(candidate, slot);
      if (arch::pe_selected(shared.pe_mask, q)) {
        arch::write_slot(staged.data(), candidate.data_type, slot,
                         arch::read_slot(source.payload(q), candidate.data_type, slot));
      }
    }
  }
  fabric_.update(shared.shared_id, candidate, staged.data(), shared.pe_mask, publish);
  return std::nullopt;
}

MaybeFault Tlsu::shared_to_local(const BlockDescriptor& block, bool broadcast) {
  PTOVP_TRY(shared_preamble(block, false, DatrUse::OrdinaryLayout));
  PTOVP_TRY(tmov_bindings(block, false));
  const TileBinding& binding = block.tiles[0];
  const arch::SharedBinding& shared = block.shared[0];
  PTOVP_TRY_VALUE(capacity, local_size(binding));
  const unsigned id = shared.shared_id;
  const arch::SharedTile& record = fabric_.tiles().at(id);
  const bool legal = fabric_.descriptor_legal(id);
  unsigned type_code = block.data_type;
  if (type_code == arch::kDataTypeNoneCode && legal)
    type_code = numeric::code(record.info.data_type);
  const auto type = numeric::data_type_from_code(type_code);
  if (!type)
    return illegal(fmt::format("TMOV.S2L DataType {} names no tile type",
                               isa::code_name(isa::NameTable::DataTypeOrNone, block.data_type)));
  PTOVP_TRY_VALUE(lb0, dimension(block, 0));
  PTOVP_TRY_VALUE(lb1, dimension(block, 1));
  PTOVP_TRY_VALUE(lb2, dimension(block, 2));
  const std::uint32_t valid_cols = value_or(*lb0, legal ? record.info.valid_columns : 1);
  const std::uint32_t valid_rows = value_or(*lb1, legal ? record.info.valid_rows : 1);
  const std::uint32_t cols = value_or(*lb2, legal ? record.info.columns : valid_cols);
  PTOVP_TRY_VALUE(view, fabric_.read_view(id, valid_rows, valid_cols, cols, *type,
                                          tile_layout(block), *capacity));
  if (broadcast && (shared.pe_mask != arch::kAllPes || record.allocation_mask != arch::kAllPes ||
                    !fabric_.published(id))) {
    return illegal(
        fmt::format("BROADCAST needs mask 1111 and a published S{} allocated on 1111: "
                    "mask={} allocation_mask={} published={}",
                    id, mask_string(shared.pe_mask), mask_string(record.allocation_mask),
                    fabric_.published(id) ? 1 : 0));
  }
  PTOVP_TRY_VALUE(plan, plan_destination(binding, *capacity));
  LocalTile& tile = commit_destination(*plan, *view, binding.pe_mask);
  // Each selected PE receives the selected quarters at the same element
  // indices; with mask 1111 that is the whole Sx (D3, docs/spec-choices.md).
  for (std::uint32_t row = 0; row < view->rows; ++row) {
    for (std::uint32_t col = 0; col < view->columns; ++col) {
      const std::uint32_t slot = arch::storage_index(*view, row, col);
      if (!arch::pe_selected(shared.pe_mask, fabric::Fabric::quarter(*view, slot))) continue;
      const std::uint64_t value = fabric_.read_slot(id, *view, slot);
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
        if (arch::pe_selected(binding.pe_mask, pe)) {
          arch::write_slot(tile.payload(pe), view->data_type, slot, value);
        }
      }
      tile.define_slot(slot, row < view->valid_rows && col < view->valid_columns);
    }
  }
  return std::nullopt;
}

// MGATHER and MGATHER.CAS (asl/block/model/dispatch/tlsu-mgather.asl,
// tlsu-mgather-cas.asl; asl/tile/model/memory/gather-scatter.asl,
// atomics.asl): each PE of the mask loads element (r, c) of its destination
// from its B.IOR base plus its index tile's element (r, c) as a byte
// displacement. Every PE's every access is checked (PE order, then
// row-major) once the destination is planned and before any effect; the
// destination is padded with PadValue and its valid elements loaded. The CAS
// form then stores the replacement element wherever the loaded value equals
// the expected one, lane by lane in that order, so a later lane to the same
// address sees the earlier one's store (docs/spec-choices.md).
MaybeFault Tlsu::gather(const BlockDescriptor& block) {
  const bool cas = block.is_tlsu(TlsuFunction::MGatherCas);
  const char* form = cas ? "MGATHER.CAS" : "MGATHER";
  PTOVP_TRY(cas ? cas_bindings(block) : one_tile_binding(block, true, 1, FaultCode::TileLegality));
  if (!block.ior.valid)
    return illegal(fmt::format("{} needs a B.IOR naming its base register", form));
  PTOVP_TRY(check_ior(block, 1, FaultCode::TileLegality));
  PTOVP_TRY_VALUE(shape, indexed_shape(block, form));
  PTOVP_TRY(check_datr(block, DatrUse::PaddedLayout));
  const TileBinding& binding = block.tiles[cas ? 1 : 0];  // the destination's
  PTOVP_TRY_VALUE(index,
                  index_tile(local_, block.tiles[0].source[0], binding.pe_mask, *shape, form));
  PTOVP_TRY_VALUE(type, indexed_transfer_type(block, form));
  PTOVP_TRY_VALUE(capacity, local_size(binding));
  PTOVP_TRY_VALUE(info, arch::make_ordinary_tile(*capacity, shape->columns, shape->valid_rows,
                                                 shape->valid_columns, *type, tile_layout(block),
                                                 arch::Location::Any, arch::kMaxLocalCapacity));
  // MGATHER.CAS: each lane's expected and replacement elements, read before
  // the destination may take over a source's register.
  std::vector<std::uint64_t> expected, replacement;
  if (cas) {
    PTOVP_TRY(cas_operands(local_, block, *shape, *type, expected, replacement));
  }
  PTOVP_TRY_VALUE(plan, plan_destination(binding, *capacity));
  const unsigned bytes = arch::memory_element_bytes(*type);
  PTOVP_TRY_VALUE(
      addresses, lane_addresses(memory_, block, binding.pe_mask, local_.at(*index), *shape, bytes));
  LocalTile& tile = commit_destination(*plan, *info, binding.pe_mask);
  const std::uint64_t pad = arch::pad_bits(static_cast<arch::PadValue>(block.datr.pad), *type);
  std::size_t next = 0;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(binding.pe_mask, pe)) continue;
    for (std::uint32_t row = 0; row < info->rows; ++row) {
      for (std::uint32_t col = 0; col < info->columns; ++col)
        arch::write_slot(tile.payload(pe), *type, arch::storage_index(*info, row, col), pad);
    }
    for (std::uint32_t row = 0; row < shape->valid_rows; ++row) {
      for (std::uint32_t col = 0; col < shape->valid_columns; ++col, ++next) {
        const std::uint64_t address = (*addresses)[next];
        const std::uint64_t old = load_element(memory_, address, *type, false);
        arch::write_slot(tile.payload(pe), *type, arch::storage_index(*info, row, col), old);
        const bool swaps = cas && old == expected[next];
        if (observer_ != nullptr) observer_->accessed(address, bytes, swaps);
        if (swaps) std::ignore = memory_.store(address, bytes, replacement[next]);
      }
    }
  }
  // MarkTilePhysicalRegionDefined: the padding is defined too.
  for (std::uint32_t row = 0; row < info->rows; ++row) {
    for (std::uint32_t col = 0; col < info->columns; ++col) {
      const bool valid = row < shape->valid_rows && col < shape->valid_columns;
      if (!valid) tile.define_slot(arch::storage_index(*info, row, col), false);
    }
  }
  tile.define_valid_region();
  return std::nullopt;
}

// MSCATTER (asl/block/model/dispatch/tlsu-mscatter.asl,
// asl/tile/model/memory/gather-scatter.asl): each PE of the mask stores
// element (r, c) of its data tile at its B.IOR base plus its index tile's
// element (r, c) as a byte displacement. Every access of every PE is checked
// first; the stores then run PE by PE in row-major lane order, so where lanes
// share an address the last one wins (docs/spec-choices.md).
MaybeFault Tlsu::scatter(const BlockDescriptor& block) {
  constexpr const char* kForm = "MSCATTER";
  PTOVP_TRY(one_tile_binding(block, false, 2, FaultCode::TileLegality));
  if (!block.ior.valid) return illegal("MSCATTER needs a B.IOR naming its base register");
  PTOVP_TRY(check_ior(block, 1, FaultCode::TileLegality));
  PTOVP_TRY_VALUE(shape, indexed_shape(block, kForm));
  PTOVP_TRY(check_datr(block, DatrUse::OrdinaryLayout));
  const TileBinding& binding = block.tiles[0];
  PTOVP_TRY_VALUE(type, indexed_transfer_type(block, kForm));
  PTOVP_TRY_VALUE(data, defined_source(local_, binding.source[0], binding.pe_mask));
  PTOVP_TRY_VALUE(index, index_tile(local_, binding.source[1], binding.pe_mask, *shape, kForm));
  const LocalTile& source = local_.at(*data);
  const LocalTile& indices = local_.at(*index);
  const TileInfo& held = source.info();
  const arch::Layout layout = tile_layout(block);
  if (held.data_type != *type || held.valid_rows != shape->valid_rows ||
      held.valid_columns != shape->valid_columns || held.columns != shape->columns ||
      held.layout != layout || indices.info().layout != layout) {
    return illegal(fmt::format(
        "MSCATTER of {} {}x{} (Col {}, {}) does not match data tile {} ({}) and index tile {} "
        "({})",
        numeric::name(*type), shape->valid_rows, shape->valid_columns, shape->columns,
        arch::name(layout), local_.source_name(*data), held.describe(), local_.source_name(*index),
        indices.info().describe()));
  }
  const unsigned bytes = arch::memory_element_bytes(*type);
  PTOVP_TRY_VALUE(addresses,
                  lane_addresses(memory_, block, binding.pe_mask, indices, *shape, bytes));
  std::size_t next = 0;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(binding.pe_mask, pe)) continue;
    for (std::uint32_t row = 0; row < shape->valid_rows; ++row) {
      for (std::uint32_t col = 0; col < shape->valid_columns; ++col) {
        const std::uint64_t address = (*addresses)[next++];
        if (observer_ != nullptr) observer_->accessed(address, bytes, true);
        std::ignore = memory_.store(
            address, bytes,
            arch::read_slot(source.payload(pe), *type, arch::storage_index(held, row, col)));
      }
    }
  }
  return std::nullopt;
}

// MGATHER.MASK and MSCATTER.MASK read their lane enables from a predicate
// tile (TilePredicateValuesLegal). Only VEC operations produce predicate
// tiles, and this platform models none, so every Local tile here is a data
// tile: once the binding is well formed the spec's TileLegality follows.
MaybeFault Tlsu::masked_indexed(const BlockDescriptor& block) {
  const bool gathers = block.is_tlsu(TlsuFunction::MGatherMask);
  const char* form = gathers ? "MGATHER.MASK" : "MSCATTER.MASK";
  if (gathers) {
    PTOVP_TRY(one_tile_binding(block, true, 2, FaultCode::TileLegality));
  } else if (block.tile_count != 2 || block.shared_count != 0 || block.tiles[0].source_count != 2 ||
             block.tiles[0].has_destination || block.tiles[1].source_count != 1 ||
             block.tiles[1].has_destination || !block.tiles[1].last) {
    return illegal("MSCATTER.MASK needs B.IOT DataTile, IndexTile and B.IOT MaskTile, last");
  }
  if (!block.ior.valid)
    return illegal(fmt::format("{} needs a B.IOR naming its base register", form));
  PTOVP_TRY(check_ior(block, 1, FaultCode::TileLegality));
  PTOVP_TRY_VALUE(shape, indexed_shape(block, form));
  const TileBinding& mask_binding = block.tiles[gathers ? 0 : 1];
  const unsigned mask_code = mask_binding.source[gathers ? 1 : 0];
  PTOVP_TRY_VALUE(mask, defined_source(local_, mask_code, mask_binding.pe_mask));
  return illegal(
      fmt::format("{} mask tile {} ({}) is not a predicate tile: predicate tiles come "
                  "from VEC operations, which this platform does not model",
                  form, local_.source_name(*mask), local_.at(*mask).info().describe()));
}

}  // namespace ptovp::tlsu
