// The B.FPATR post-process unit of a CUBE block (docs/numerics.md,
// docs/state-model.md): it turns the raw accumulator tile into D, RowMaxOut
// and GroupMaxOut. Configured once per block from B.FPATR, B.DATR and the
// accumulator type; it routes the parameters (scalar quant word, then the
// LReLU word, through B.IOR; RowMaxIn, the vector quant tile and the vector
// PReLU tile through B.IOT in that order), checks every parameter word before
// any effect, and runs the element pipeline and the reductions of
// numeric/postprocess.hpp. Faults are Fault_TileLegality (schema, words) or
// Fault_TileAllocation (auxiliary destination shapes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"
#include "arch/local_tile_file.hpp"
#include "arch/tile_info.hpp"
#include "numeric/postprocess.hpp"

namespace ptovp::fpatr {

using numeric::DataType;

// One PE's decoded parameters.
struct Parameters {
  numeric::QuantParameter quant;                       // the scalar word (or the mode's unit)
  numeric::Dyadic alpha;                               // ReluMode 2
  std::vector<numeric::QuantParameter> quant_columns;  // vector quant tile, one per column
  std::vector<numeric::Dyadic> alpha_columns;          // vector PReLU tile, one per column
  std::vector<std::uint32_t> row_max_in;               // RowMaxIn, one per row
};

// Where one PE's results go: D as raw output encodings, row-major M x N; the
// reductions as raw accumulator words (null when disabled). The flags of
// each output are asked for only when an element-by-element comparison
// needs them (null otherwise), one byte per output.
struct Outputs {
  std::uint64_t* d = nullptr;
  std::uint32_t* row_max = nullptr;    // M
  std::uint32_t* group_max = nullptr;  // M x groups()
  std::uint8_t* d_flags = nullptr;
  std::uint8_t* row_max_flags = nullptr;
  std::uint8_t* group_max_flags = nullptr;
};

class Fpatr {
 public:
  // The mode table row, ReluMode, the accumulator class and B.DATR RMode/Sat
  // against the mode (BundleFPATRDATRFieldsLegal: the contract requires it
  // even though the ASL's CUBE dispatch does not call it).
  static arch::Expected<Fpatr> configure(const arch::FpAttributes& fpatr,
                                         const arch::DataAttributes& datr, DataType accumulator);

  DataType accumulator_type() const { return post_.accumulator_type(); }
  const arch::FpAttributes& attributes() const { return fpatr_; }
  const numeric::PostProcess& element_pipeline() const { return post_; }
  bool vector_quant() const { return post_.mode().vector_parameter; }
  DataType output_type() const { return post_.output_type(); }
  bool row_max() const { return fpatr_.row_max_en(); }
  bool group_max() const { return fpatr_.group_max_en(); }
  // Nothing to run: D is the raw accumulator and no maximum is asked for.
  bool identity() const { return post_.identity() && !row_max() && !group_max(); }
  // GroupMaxOut columns for N output columns.
  std::uint32_t groups(std::uint32_t n) const;

  // B.IOR slots consumed: the scalar quant word, then the LReLU word.
  unsigned scalar_count() const;
  // Local B.IOT sources after the mathematical ones: RowMaxIn, vector quant, vector PReLU.
  unsigned source_count() const;
  // D, then RowMaxOut, then GroupMaxOut.
  unsigned destination_count() const { return 1u + row_max() + group_max(); }

  // The consumed B.IOR words of every PE in `mask` are legal (skipped when
  // B.IOR is omitted: the slots read 0).
  arch::MaybeFault check_scalar_words(const arch::BlockDescriptor& block, std::uint8_t mask) const;
  // The post-process source tiles (`indices`, source_count() of them) have
  // the schema of an auxiliary source (defined, RowMajor, location Any, the
  // shape and type below) and every vector word is legal on every PE of `mask`.
  // RowMaxIn is rows x 1 of the accumulator type; the vectors 1 x n U64.
  arch::MaybeFault check_sources(const arch::LocalTileFile& tiles, const unsigned* indices,
                                 std::uint32_t rows, std::uint32_t n, std::uint8_t mask) const;

  // Auxiliary destination descriptors of `capacity` bytes: RowMaxOut rows x 1
  // and GroupMaxOut rows x groups(n), row-major, location Any, accumulator
  // type. Fault_TileAllocation when the shape does not fit.
  arch::Expected<arch::TileInfo> row_max_info(std::uint32_t capacity, std::uint32_t rows) const;
  arch::Expected<arch::TileInfo> group_max_info(std::uint32_t capacity, std::uint32_t rows,
                                                std::uint32_t n) const;

  // PE `pe`'s parameters after the checks passed; RowMaxIn rows [0, rows).
  Parameters parameters(const arch::BlockDescriptor& block, unsigned pe,
                        const arch::LocalTileFile& tiles, const unsigned* indices,
                        std::uint32_t rows, std::uint32_t n) const;

  // Post-processes a rows x n raw accumulator (row-major words); returns the
  // OR of the status flags (and each output's own when `out` asks for them).
  std::uint8_t run(const std::uint32_t* accumulator, std::uint32_t rows, std::uint32_t n,
                   const Parameters& parameters, const Outputs& out) const;

 private:
  Fpatr(const arch::FpAttributes& fpatr, numeric::PostProcess post) : fpatr_(fpatr), post_(post) {}

  bool scalar_quant() const;
  // The B.IOR slot of the scalar quant word and of the LReLU word.
  unsigned relu_slot() const { return scalar_quant() ? 1u : 0u; }
  // The quant parameter an omitted B.IOR gives (all-zero word, unchecked).
  numeric::QuantParameter zero_quant() const;

  arch::FpAttributes fpatr_;
  numeric::PostProcess post_;
};

}  // namespace ptovp::fpatr
