#include "conform/block_case.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "config/json_file.hpp"

namespace ptovp::conform {

using nlohmann::json;

namespace {

// Reads fields of one document; every error names the file and the field.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw CaseError(fmt::format("{}: {}: {}", path_, field, what));
  }

  const json& member(const json& object, const std::string& field, const char* key) const {
    const auto found = object.find(key);
    if (found == object.end()) fail(field, fmt::format("missing \"{}\"", key));
    return *found;
  }

  std::string string(const json& value, const std::string& field) const {
    if (!value.is_string())
      fail(field, fmt::format("expected a string, got {}", config::json_excerpt(value)));
    return value.get<std::string>();
  }

  // "0x..." text or a JSON unsigned integer.
  std::uint64_t number(const json& value, const std::string& field) const {
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
      return value.get<std::uint64_t>();
    if (value.is_string()) {
      const std::string text = value.get<std::string>();
      try {
        std::size_t used = 0;
        const std::uint64_t parsed = std::stoull(text, &used, 0);
        if (used == text.size() && !text.empty() && text[0] != '-') return parsed;
      } catch (const std::exception&) {
      }
    }
    fail(field, fmt::format("expected an unsigned number, got {}", config::json_excerpt(value)));
  }

  std::vector<std::uint8_t> hex(const json& value, const std::string& field) const {
    const std::string text = string(value, field);
    if (text.size() % 2 != 0)
      fail(field, fmt::format("odd number of hex digits ({})", text.size()));
    std::vector<std::uint8_t> bytes(text.size() / 2);
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      int digit = -1;
      if (c >= '0' && c <= '9') digit = c - '0';
      if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
      if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
      if (digit < 0) fail(field, fmt::format("'{}' at offset {} is not a hex digit", c, i));
      bytes[i / 2] = static_cast<std::uint8_t>(bytes[i / 2] << 4 | digit);
    }
    return bytes;
  }

  const json& array(const json& value, const std::string& field) const {
    if (!value.is_array())
      fail(field, fmt::format("expected an array, got {}", config::json_excerpt(value)));
    return value;
  }

  const json& object(const json& value, const std::string& field) const {
    if (!value.is_object())
      fail(field, fmt::format("expected an object, got {}", config::json_excerpt(value)));
    return value;
  }

  std::vector<MemoryBytes> memory(const json& value, const std::string& field) const {
    std::vector<MemoryBytes> regions;
    const json& list = array(value, field);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = fmt::format("{}[{}]", field, i);
      const json& entry = object(list[i], at);
      regions.push_back({number(member(entry, at, "addr"), at + ".addr"),
                         hex(member(entry, at, "hex"), at + ".hex")});
      if (regions.back().address + regions.back().bytes.size() < regions.back().address)
        fail(at, "the region wraps the address space");
    }
    return regions;
  }

 private:
  std::string path_;
};

std::optional<arch::FaultCode> fault_code_from_name(const std::string& text) {
  for (unsigned code = 0; code <= static_cast<unsigned>(arch::FaultCode::Assert); ++code) {
    const auto candidate = static_cast<arch::FaultCode>(code);
    if (arch::name(candidate) == "Fault_" + text) return candidate;
  }
  return std::nullopt;
}

}  // namespace

std::uint64_t BlockCase::word_address(std::size_t index) const {
  std::uint64_t address = 0;
  for (std::size_t i = 0; i < index && i < words.size(); ++i)
    address += words[i].length_bits / 8;
  return address;
}

const Region* BlockCase::region_at(std::uint64_t address) const {
  for (const Region& region : regions) {
    if (address >= region.address && address - region.address < region.bytes) return &region;
  }
  return nullptr;
}

BlockCase parse_block_case(const json& document, const std::string& path) {
  const Reader read(path);
  read.object(document, "the case");
  BlockCase result;
  result.path = path;
  result.id = read.string(read.member(document, "the case", "id"), "id");
  if (document.contains("summary")) result.summary = read.string(document["summary"], "summary");
  result.profile = read.string(read.member(document, "the case", "profile"), "profile");
  result.spec = read.string(read.member(document, "the case", "spec"), "spec");

  const json& words = read.array(read.member(document, "the case", "words"), "words");
  if (words.empty()) read.fail("words", "the program is empty");
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string at = fmt::format("words[{}]", i);
    const json& entry = read.object(words[i], at);
    CaseWord word;
    const std::uint64_t length = read.number(read.member(entry, at, "len"), at + ".len");
    if (length != 16 && length != 32 && length != 48 && length != 64)
      read.fail(at + ".len", fmt::format("{} is not 16, 32, 48 or 64", length));
    word.length_bits = static_cast<unsigned>(length);
    word.value = read.number(read.member(entry, at, "word"), at + ".word");
    if (length < 64 && (word.value >> length) != 0)
      read.fail(at + ".word", fmt::format("0x{:x} does not fit in {} bits", word.value, length));
    result.words.push_back(word);
  }
  const std::uint64_t end = result.word_address(result.words.size());
  if (end >= kDataWindowBegin) {
    read.fail("words",
              fmt::format("the program ends at 0x{:x}, not below the data window at 0x{:x}", end,
                          kDataWindowBegin));
  }

  if (document.contains("memory_init"))
    result.memory_init = read.memory(document["memory_init"], "memory_init");

  const json& expect = read.object(read.member(document, "the case", "expect"), "expect");
  const json& fault = read.member(expect, "expect", "fault");
  if (!fault.is_null()) {
    read.object(fault, "expect.fault");
    ExpectedFault expected;
    const std::string code =
        read.string(read.member(fault, "expect.fault", "code"), "expect.fault.code");
    const auto parsed = fault_code_from_name(code);
    if (!parsed || *parsed == arch::FaultCode::None)
      read.fail("expect.fault.code", fmt::format("'{}' is not a fault name", code));
    expected.code = *parsed;
    expected.trap = static_cast<unsigned>(
        read.number(read.member(fault, "expect.fault", "trap"), "expect.fault.trap"));
    if (expected.trap != arch::trap_number(expected.code)) {
      read.fail("expect.fault.trap",
                fmt::format("trap {} is not the trap of {} (trap {})", expected.trap, code,
                            arch::trap_number(expected.code)));
    }
    expected.pc = read.number(read.member(fault, "expect.fault", "pc"), "expect.fault.pc");
    expected.index = read.number(read.member(fault, "expect.fault", "index"), "expect.fault.index");
    if (expected.index >= result.words.size()) {
      read.fail("expect.fault.index",
                fmt::format("{} is past the last word ({})", expected.index, result.words.size()));
    }
    if (result.word_address(expected.index) != expected.pc) {
      read.fail("expect.fault",
                fmt::format("pc 0x{:x} is not the address of word {} (0x{:x})", expected.pc,
                            expected.index, result.word_address(expected.index)));
    }
    result.fault = expected;
  }
  result.expected_memory = read.memory(read.member(expect, "expect", "memory"), "expect.memory");
  if (result.expected_memory.empty()) read.fail("expect.memory", "no expected bytes");

  if (document.contains("regions")) {
    const json& regions = read.object(document["regions"], "regions");
    for (const auto& [name, value] : regions.items()) {
      const std::string at = "regions." + name;
      read.object(value, at);
      result.regions.push_back({name, read.number(read.member(value, at, "addr"), at + ".addr"),
                                read.number(read.member(value, at, "bytes"), at + ".bytes")});
    }
    std::sort(result.regions.begin(), result.regions.end(),
              [](const Region& a, const Region& b) { return a.address < b.address; });
  }
  if (document.contains("asm")) {
    const json& lines = read.array(document["asm"], "asm");
    for (std::size_t i = 0; i < lines.size(); ++i)
      result.assembly.push_back(read.string(lines[i], fmt::format("asm[{}]", i)));
  }
  return result;
}

BlockCase load_block_case(const std::string& path) {
  try {
    return parse_block_case(config::read_json_file(path), path);
  } catch (const config::JsonFileError& error) {
    throw CaseError(error.what());
  }
}

}  // namespace ptovp::conform
