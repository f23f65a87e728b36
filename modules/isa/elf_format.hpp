// ELF64 little-endian constants shared by the image reader and writer.
#pragma once

#include <cstdint>

namespace ptovp::isa::elf {

inline constexpr std::uint8_t kMagic[4] = {0x7F, 'E', 'L', 'F'};
inline constexpr std::uint8_t kClass64 = 2;
inline constexpr std::uint8_t kDataLittleEndian = 1;
inline constexpr std::uint16_t kTypeRelocatable = 1, kTypeExecutable = 2;
// EM_LINXISA, the machine of the LinxISA toolchain's images (docs/toolchain.md).
inline constexpr std::uint16_t kMachine = 233;
inline constexpr std::size_t kHeaderSize = 64;
inline constexpr std::size_t kProgramHeaderSize = 56;
inline constexpr std::size_t kSectionHeaderSize = 64;
inline constexpr std::size_t kSymbolSize = 24;
inline constexpr std::size_t kRelaSize = 24;

inline constexpr std::uint32_t kPtLoad = 1;
inline constexpr std::uint32_t kPfExecute = 1, kPfWrite = 2, kPfRead = 4;
inline constexpr std::uint32_t kShtProgbits = 1, kShtSymtab = 2, kShtStrtab = 3, kShtRela = 4,
                               kShtNobits = 8;
inline constexpr std::uint64_t kShfWrite = 1, kShfAlloc = 2, kShfExecInstr = 4;
inline constexpr std::uint16_t kShnUndefined = 0, kShnAbsolute = 0xFFF1, kShnCommon = 0xFFF2;
inline constexpr std::uint8_t kStbLocal = 0, kStbGlobal = 1;
inline constexpr std::uint8_t kSttNoType = 0;

}  // namespace ptovp::isa::elf
