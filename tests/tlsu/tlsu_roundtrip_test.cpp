// Layout round trips: TLOAD then TSTORE returns the same bytes for every
// layout, element width and odd shape; CUBE payloads are checked slot by slot
// against addresses computed here.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "isa/operand_names.hpp"
#include "tlsu/block_schema.hpp"

#include "tlsu_fixture.hpp"

namespace ptovp::tlsu::test {
namespace {

using arch::Layout;

struct Shape {
  unsigned capacity, cols, valid_rows, valid_cols;
};

unsigned bits_of(DataType t) {
  return arch::element_bits(t);
}

// Element (row, col) of a strided GM rectangle, read independently.
std::uint64_t gm_element(const memory::Memory& m, std::uint64_t base, std::uint64_t stride,
                         unsigned row, unsigned col, DataType type) {
  const unsigned bits = bits_of(type);
  if (bits == 4) {
    const std::uint8_t byte = m.direct(base + row * stride + col / 2, 1)[0];
    return (byte >> (4 * (col & 1))) & 0xF;
  }
  std::uint64_t v = 0;
  const std::uint8_t* p = m.direct(base + row * stride + col * (bits / 8), bits / 8);
  for (unsigned i = 0; i < bits / 8; ++i)
    v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

// The tile side of every B.DATR layout code, read from its name: the half
// after the "2" for the ordinary codes, the CUBE half for the CUBE ones; NORM,
// an omitted B.DATR and a code no name has are RowMajor.
TEST(TlsuLayouts, EveryLayoutCodeNamesItsTileLayout) {
  const auto from_name = [](const std::string& name) {
    if (name.find("M32") != std::string::npos) return Layout::CubeM32;
    if (name.find("M16") != std::string::npos) return Layout::CubeM16;
    if (name.find("N8") != std::string::npos) return Layout::CubeN8;
    const std::string tile = name.substr(name.find('2') + 1);
    if (tile == "DN") return Layout::ColumnMajor;
    if (tile == "ZN") return Layout::ZN;
    if (tile == "NZ") return Layout::NZ;
    return Layout::RowMajor;
  };
  BlockDescriptor b = block(TlsuFunction::TLoad, DataType::FP32);
  EXPECT_EQ(tile_layout(b), Layout::RowMajor);  // no B.DATR
  unsigned named = 0;
  for (unsigned code = 0; code < 32; ++code) {
    datr(b, code);
    const std::string name = isa::code_name(isa::NameTable::Layout, code);
    const bool has_name = name != std::to_string(code);
    named += has_name ? 1 : 0;
    EXPECT_EQ(tile_layout(b), has_name ? from_name(name) : Layout::RowMajor)
        << "code " << code << " " << name;
  }
  EXPECT_EQ(named, 19u);
}

// A TLOAD with ND2NZ and DN2ZN holds the converted layout, not the default.
TEST(TlsuLayouts, ALoadHoldsItsCodesTileLayout) {
  for (const auto& [code, layout] : {std::pair{4u, Layout::NZ}, std::pair{8u, Layout::ZN}}) {
    Core core;
    BlockDescriptor load = block(TlsuFunction::TLoad, DataType::FP32);
    datr(load, code);
    dims(load, 8, 16, 8);
    ior(load, 0x1000, 32);
    destination(load, 1, 3);
    const auto fault = core.run(load);
    ASSERT_FALSE(fault) << fault->describe();
    EXPECT_EQ(core.local.at(*core.tlsu.last_destination()).info().layout, layout) << code;
  }
}

// block/execution BSTART.TLOAD + BSTART.TSTORE (ordinary and packed forms).
TEST(TlsuRoundTrip, EveryOrdinaryLayoutTypeAndOddShape) {
  const DataType types[] = {DataType::FP64, DataType::FP32, DataType::FP16,
                            DataType::S8,   DataType::U4X2, DataType::E2M1X2};
  const unsigned layouts[] = {0, 1, 3, 4, 17, 27};  // NORM ND2DN ND2ZN ND2NZ ZN2ND NZ2ND
  for (DataType type : types) {
    const unsigned inner = 256 / bits_of(type);
    const unsigned cols = 2 * inner;
    const Shape shape{32 * cols * bits_of(type) / 8, cols, 29, cols - 3};
    unsigned size_code = 1;
    while ((64u << size_code) < shape.capacity)
      ++size_code;
    ASSERT_EQ(64u << size_code, shape.capacity);
    for (unsigned layout : layouts) {
      Core core;
      const std::uint64_t stride = arch::dense_row_stride(cols, type) + 24;
      core.fill(0x1000, 64 * 1024, static_cast<std::uint8_t>(layout));
      BlockDescriptor load = block(TlsuFunction::TLoad, type);
      datr(load, layout);
      dims(load, shape.valid_cols, shape.valid_rows, cols);
      ior(load, 0x1000, stride);
      destination(load, 1, size_code);
      auto fault = core.run(load);
      ASSERT_FALSE(fault) << fault->describe();
      ASSERT_EQ(core.tlsu.last_destination(), 16u);
      EXPECT_TRUE(core.local.at(16).contents_defined());

      BlockDescriptor store = block(TlsuFunction::TStore, type);
      ior(store, 0x40000, stride);
      source(store, 16);
      fault = core.run(store);
      ASSERT_FALSE(fault) << fault->describe();
      for (unsigned r = 0; r < shape.valid_rows; ++r) {
        for (unsigned c = 0; c < shape.valid_cols; ++c) {
          ASSERT_EQ(gm_element(core.memory, 0x40000, stride, r, c, type),
                    gm_element(core.memory, 0x1000, stride, r, c, type))
              << numeric::name(type) << " layout " << layout << " at " << r << "," << c;
        }
      }
      // Nothing outside the valid rectangle was written.
      if (bits_of(type) >= 8) {
        EXPECT_EQ(gm_element(core.memory, 0x40000, stride, 0, shape.valid_cols, type), 0u);
      }
    }
  }
}

// block/execution BSTART.TLOAD CUBE forms and BSTART.TSTORE CUBE drain.
TEST(TlsuRoundTrip, CubeLayoutsMatchIndependentStorageIndices) {
  const DataType types[] = {DataType::FP32, DataType::BF16, DataType::E4M3, DataType::S4X2,
                            DataType::HiF4X2};
  struct Code {
    unsigned load, store;
    arch::Layout layout;
    unsigned rows;
  };
  const Code codes[] = {{22, 25, arch::Layout::CubeM16, 13},
                        {21, 24, arch::Layout::CubeM32, 45},  // two row blocks
                        {23, 26, arch::Layout::CubeN8, 37}};
  // 19 columns: runs of a CELL row and a shorter tail; 1 column: one element
  // a row, as the MX scale tiles load.
  for (const unsigned valid_cols : {19u, 1u}) {
    for (DataType type : types) {
      for (const Code& code : codes) {
        SCOPED_TRACE(std::to_string(valid_cols) + " columns");
        Core core;
        core.fill(0x2000, 32 * 1024, 3);
        const std::uint64_t stride = 128;
        BlockDescriptor load = block(TlsuFunction::TLoad, type);
        datr(load, code.load, 1);  // PadValue Max
        load.datr.data_type = arch::kDataTypeNoneCode;
        dims(load, valid_cols, code.rows);
        ior(load, 0x2000, stride);
        destination(load, 2, 7);  // M hand, 8 KiB
        auto fault = core.run(load);
        ASSERT_FALSE(fault) << numeric::name(type) << " " << fault->describe();
        const arch::LocalTile& tile = core.local.at(32);
        const arch::TileInfo& info = tile.info();
        ASSERT_EQ(info.layout, code.layout);
        EXPECT_EQ(info.location, arch::Location::Matrix);
        const unsigned bits = bits_of(type);
        const unsigned cell_rows = arch::cube_cell_rows(code.layout, type);
        const unsigned cell_cols = arch::cube_cell_columns(code.layout, type);
        auto expect_loaded = [&](const arch::LocalTile& loaded, arch::PadValue pad) {
          // The valid region and its padding: every slot is defined.
          EXPECT_TRUE(loaded.contents_defined());
          for (std::uint32_t slot = 0; slot < info.elements(); ++slot)
            ASSERT_TRUE(loaded.slot_defined(slot)) << slot;
          for (unsigned pe = 0; pe < 4; ++pe) {
            for (unsigned r = 0; r < info.rows; ++r) {
              for (unsigned c = 0; c < info.columns; ++c) {
                // Independent slot: CELL order and inner order per docs/state-model.md "Tiles".
                unsigned slot = 0;
                if (code.layout == arch::Layout::CubeN8) {
                  slot = ((c / 8) * info.cube_k_repeat + r / cell_rows) * cell_rows * 8 +
                         (c % 8) * cell_rows + r % cell_rows;
                } else {
                  unsigned ic = c % cell_cols;
                  if (code.layout == arch::Layout::CubeM16 && bits == 4 && ic >= 4 && ic < 12) {
                    ic = ic < 8 ? ic + 4 : ic - 4;
                  }
                  // M32 row blocks follow all column CELLs of the block above.
                  const unsigned column_cells = (valid_cols + cell_cols - 1) / cell_cols;
                  slot = ((r / cell_rows) * column_cells + c / cell_cols) * cell_rows * cell_cols +
                         (r % cell_rows) * cell_cols + ic;
                }
                const std::uint64_t expected =
                    r < code.rows && c < valid_cols
                        ? gm_element(core.memory, 0x2000, stride, r, c, type)
                        : arch::pad_bits(pad, type);
                ASSERT_EQ(arch::read_slot(loaded.payload(pe), type, slot), expected)
                    << numeric::name(type) << " " << arch::name(code.layout) << " " << r << ","
                    << c;
              }
            }
          }
        };
        expect_loaded(tile, arch::PadValue::Max);
        BlockDescriptor store = block(TlsuFunction::TStore, type);
        datr(store, code.store, 3);
        store.datr.data_type = arch::kDataTypeNoneCode;
        dims(store, valid_cols, code.rows);
        ior(store, 0x80000, stride);
        source(store, 32);
        fault = core.run(store);
        ASSERT_FALSE(fault) << fault->describe();
        for (unsigned r = 0; r < code.rows; ++r) {
          for (unsigned c = 0; c < valid_cols; ++c) {
            ASSERT_EQ(gm_element(core.memory, 0x80000, stride, r, c, type),
                      gm_element(core.memory, 0x2000, stride, r, c, type));
          }
        }
        // The same shape with PadValue Zero into the next register of the hand,
        // whose recycled storage may hold the Max padding: every padding slot
        // (the TLSU keeps the slots of recent padded shapes) reads as zero.
        datr(load, code.load, 0);
        fault = core.run(load);
        ASSERT_FALSE(fault) << fault->describe();
        expect_loaded(core.local.at(33), arch::PadValue::Zero);
      }
    }
  }
}

// BSTART.TLOAD/block-exec ... dense default stride when B.IOR is omitted.
TEST(TlsuRoundTrip, OmittedIorUsesBaseZeroAndDenseStride) {
  Core core;
  core.fill(0, 256, 9);
  BlockDescriptor load = block(TlsuFunction::TLoad, DataType::U16);
  dims(load, 5, 3, 8);
  destination(load, 0, 1);
  ASSERT_FALSE(core.run(load));
  const arch::LocalTile& tile = core.local.at(0);
  EXPECT_EQ(arch::read_slot(tile.payload(2), DataType::U16, 2 * 8 + 4),
            gm_element(core.memory, 0, 16, 2, 4, DataType::U16));
}

// BSTART.TSTORE without B.IOR: base 0 and the dense stride of LB2 columns,
// or of the source tile's columns when LB2 is omitted; only the valid
// rectangle is written.
TEST(TlsuRoundTrip, OmittedIorStoresAtBaseZeroWithTheDenseStride) {
  for (unsigned lb2 : {0u, 12u}) {
    SCOPED_TRACE("LB2 " + std::to_string(lb2));
    Core core;
    core.fill(0x1000, 256, 7);
    BlockDescriptor load = block(TlsuFunction::TLoad, DataType::U16);
    dims(load, 8, 3, 8);
    ior(load, 0x1000, 16);
    destination(load, 0, 1);
    ASSERT_FALSE(core.run(load));
    const std::vector<std::uint8_t> before = core.bytes();
    BlockDescriptor store = block(TlsuFunction::TStore, DataType::U16);
    dims(store, 5, 3, lb2);
    ASSERT_TRUE(core.tlsu.last_destination());
    source(store, *core.tlsu.last_destination());
    ASSERT_FALSE(core.run(store));
    const std::uint64_t stride = 2 * (lb2 != 0 ? lb2 : 8);
    for (unsigned r = 0; r < 3; ++r) {
      for (unsigned c = 0; c < 5; ++c) {
        EXPECT_EQ(gm_element(core.memory, 0, stride, r, c, DataType::U16),
                  gm_element(core.memory, 0x1000, 16, r, c, DataType::U16))
            << r << "," << c;
      }
    }
    const std::vector<std::uint8_t> after = core.bytes();
    for (std::uint64_t address = 0; address < 3 * stride; ++address) {
      if (address % stride < 10) continue;  // the valid columns
      EXPECT_EQ(after[address], before[address]) << "address " << address;
    }
  }
}

// The per-PE base from each PE's GPRs: PE p loads its own rectangle.
TEST(TlsuRoundTrip, EachPeLoadsFromItsOwnBase) {
  Core core;
  core.fill(0, 0x10000, 1);
  BlockDescriptor load = block(TlsuFunction::TLoad, DataType::U8);
  dims(load, 16, 2, 16);
  const std::uint64_t bases[4] = {0x100, 0x2000, 0x3000, 0x4400};
  ior(load, bases, 16);
  destination(load, 3, 1);
  ASSERT_FALSE(core.run(load));
  for (unsigned pe = 0; pe < 4; ++pe) {
    EXPECT_EQ(core.local.at(48).payload(pe)[17],
              gm_element(core.memory, bases[pe], 16, 1, 1, DataType::U8));
  }
}

// BSTART.TMOV Local copy with DTYPE_NONE taking the source type.
TEST(TlsuRoundTrip, TmovCopiesEveryPePayload) {
  Core core;
  core.fill(0, 0x1000, 5);
  BlockDescriptor load = block(TlsuFunction::TLoad, DataType::FP16);
  dims(load, 8, 4, 8);
  const std::uint64_t bases[4] = {0, 0x100, 0x200, 0x300};
  ior(load, bases, 16);
  destination(load, 0, 1);
  ASSERT_FALSE(core.run(load));
  BlockDescriptor copy = block(TlsuFunction::TMov, DataType::FP16);
  copy.data_type = arch::kDataTypeNoneCode;
  source(copy, 0, arch::kAllPes, 1, 1);
  ASSERT_FALSE(core.run(copy));
  ASSERT_EQ(core.tlsu.last_destination(), 16u);
  EXPECT_EQ(core.local.at(16).info(), core.local.at(0).info());
  for (unsigned pe = 0; pe < 4; ++pe) {
    EXPECT_TRUE(std::equal(core.local.at(0).payload(pe), core.local.at(0).payload(pe) + 128,
                           core.local.at(16).payload(pe)));
  }
  EXPECT_TRUE(core.local.at(16).contents_defined());
}

// BSTART.TMOV takes an optional B.DATR Layout (docs/block/execution/
// BSTART.TMOV.md): an explicit NORM (code 0) is the omitted default, so the
// copy is the same as without B.DATR.
TEST(TlsuRoundTrip, TmovWithAnExplicitNormDatrCopiesAsWithout) {
  Core core;
  core.fill(0, 0x1000, 9);
  BlockDescriptor load = block(TlsuFunction::TLoad, DataType::FP16);
  dims(load, 8, 4, 8);
  destination(load, 0, 1);
  ASSERT_FALSE(core.run(load));
  BlockDescriptor copy = block(TlsuFunction::TMov, DataType::FP16);
  datr(copy, 0);
  source(copy, 0, arch::kAllPes, 1, 1);
  const auto fault = core.run(copy);
  ASSERT_FALSE(fault) << fault->reason;
  ASSERT_TRUE(core.tlsu.last_destination());
  const auto copied = *core.tlsu.last_destination();
  EXPECT_EQ(core.local.at(copied).info(), core.local.at(0).info());
  for (unsigned pe = 0; pe < 4; ++pe) {
    EXPECT_TRUE(std::equal(core.local.at(0).payload(pe), core.local.at(0).payload(pe) + 128,
                           core.local.at(copied).payload(pe)));
  }
}

}  // namespace
}  // namespace ptovp::tlsu::test
