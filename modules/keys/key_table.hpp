// A unit's configuration keys, bound to the fields of its configuration
// struct (docs/platform.md "Configuration", "Adding a key"). A key has a name
// ("group.name"), what it accepts (an unsigned number in a range with its
// unit, one of named values, or text), a one-line description and its owner
// (the struct whose file registers it); its default is the field's value in a
// default-constructed struct. Each unit fills its own table next to its
// struct; the platform mounts the tables into one registry
// (config::PlatformConfig::keys()) and asks only that. Like a VCML property,
// a key reads and writes its field through its type: a choice stores the
// enum value itself, a flag the bool.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ptovp::keys {

enum class KeyKind : std::uint8_t { Number, Choice, Text };

// What a key is and accepts, the same wherever its table is mounted.
struct KeySpec {
  std::string name;
  std::string owner;
  std::string description;
  KeyKind kind = KeyKind::Number;
  std::uint64_t minimum = 0;  // Number: the range a run can use
  std::uint64_t maximum = 0;
  std::string unit;                  // Number: "cycles", "bytes", ...
  std::vector<std::string> choices;  // Choice: the value names; Text: what it holds
};

// A key's value: a number, or a choice's name or a text.
using KeyValue = std::variant<std::uint64_t, std::string>;
// A message naming the key, or nothing.
using KeyError = std::optional<std::string>;

// The messages and syntax every key shares. A number is decimal, 0x hex or
// 0 octal, with no sign and no blanks.
std::optional<std::uint64_t> parse_number(std::string_view text);
std::string not_a_number(std::string_view key, std::string_view text);
std::string unknown_choice(const KeySpec& spec, std::string_view value);
std::string unknown_key(std::string_view key);
KeyError check_range(const KeySpec& spec, std::uint64_t value);
// The accepted values as docs/platform.md writes them: "1 .. 2^40",
// "0 .. 10^6", "number" (every 64-bit value), "`off`, `on`", or a text's hint.
std::string values_text(const KeySpec& spec);
std::string value_text(const KeyValue& value);

template <typename Config>
struct Key {
  KeySpec spec;
  // Stores text in the field, or a message naming the key. A number's range is
  // checked by validate(), so that a file may set keys in any order.
  std::function<KeyError(Config&, std::string_view)> set;
  std::function<KeyValue(const Config&)> get;
};

template <typename Config>
class KeyTable {
 public:
  explicit KeyTable(std::string owner) : owner_(std::move(owner)) {}

  KeyTable& number(std::string name, std::uint64_t Config::*field, std::uint64_t minimum,
                   std::uint64_t maximum, std::string unit, std::string description) {
    KeySpec spec{std::move(name), owner_,  std::move(description), KeyKind::Number,
                 minimum,         maximum, std::move(unit),        {}};
    auto set = [key = spec.name, field](Config& config, std::string_view text) -> KeyError {
      const std::optional<std::uint64_t> value = parse_number(text);
      if (!value) return not_a_number(key, text);
      config.*field = *value;
      return std::nullopt;
    };
    auto get = [field](const Config& config) -> KeyValue { return config.*field; };
    keys_.push_back({std::move(spec), set, get});
    return *this;
  }

  // A bool spelled by two names, false's first.
  KeyTable& flag(std::string name, bool Config::*field, std::string if_false, std::string if_true,
                 std::string description) {
    return add_choice(std::move(name), field,
                      {{false, std::move(if_false)}, {true, std::move(if_true)}},
                      std::move(description));
  }

  // An enum: each value with its name, in the order error messages list them.
  template <typename Enum>
  KeyTable& choice(std::string name, Enum Config::*field,
                   std::vector<std::pair<Enum, std::string>> values, std::string description) {
    return add_choice(std::move(name), field, std::move(values), std::move(description));
  }

  // Text that may not be empty; `what` says what it holds.
  KeyTable& text(std::string name, std::string Config::*field, std::string what,
                 std::string description) {
    KeySpec spec{std::move(name),  owner_, std::move(description), KeyKind::Text, 0, 0, {},
                 {std::move(what)}};
    auto set = [key = spec.name, what = spec.choices.front(), field](
                   Config& config, std::string_view text) -> KeyError {
      if (text.empty()) return key + ": expected " + what;
      config.*field = std::string(text);
      return std::nullopt;
    };
    auto get = [field](const Config& config) -> KeyValue { return config.*field; };
    keys_.push_back({std::move(spec), set, get});
    return *this;
  }

  // A former key: setting it is an error that says why.
  KeyTable& retired(std::string name, std::string reason) {
    retired_.emplace_back(std::move(name), std::move(reason));
    return *this;
  }

  // A rule over several fields of the struct, checked by validate().
  KeyTable& rule(std::function<KeyError(const Config&)> check) {
    rules_.push_back(std::move(check));
    return *this;
  }

  // The keys, former keys and rules of a part's table, reached through the
  // member that holds the part.
  template <typename Part>
  KeyTable& mount(const KeyTable<Part>& table, Part Config::*part) {
    for (const Key<Part>& key : table.keys()) {
      keys_.push_back({key.spec,
                       [set = key.set, part](Config& config, std::string_view text) {
                         return set(config.*part, text);
                       },
                       [get = key.get, part](const Config& config) { return get(config.*part); }});
    }
    retired_.insert(retired_.end(), table.retired_keys().begin(), table.retired_keys().end());
    for (const auto& check : table.rules())
      rules_.push_back([check, part](const Config& config) { return check(config.*part); });
    return *this;
  }

  const Key<Config>* find(std::string_view name) const {
    for (const Key<Config>& key : keys_) {
      if (key.spec.name == name) return &key;
    }
    return nullptr;
  }

  KeyError set(Config& config, std::string_view name, std::string_view value) const {
    if (const Key<Config>* key = find(name)) return key->set(config, value);
    for (const auto& [former, reason] : retired_) {
      if (former == name) return former + ": removed; " + reason;
    }
    return unknown_key(name);
  }

  // Every number's range in key order, then the rules.
  KeyError validate(const Config& config) const {
    for (const Key<Config>& key : keys_) {
      if (key.spec.kind != KeyKind::Number) continue;
      if (auto error = check_range(key.spec, std::get<std::uint64_t>(key.get(config))))
        return error;
    }
    for (const auto& check : rules_) {
      if (auto error = check(config)) return error;
    }
    return std::nullopt;
  }

  const std::vector<Key<Config>>& keys() const { return keys_; }
  const std::vector<std::pair<std::string, std::string>>& retired_keys() const { return retired_; }
  const std::vector<std::function<KeyError(const Config&)>>& rules() const { return rules_; }

 private:
  template <typename Value>
  KeyTable& add_choice(std::string name, Value Config::*field,
                       std::vector<std::pair<Value, std::string>> values, std::string description) {
    KeySpec spec{std::move(name), owner_, std::move(description), KeyKind::Choice, 0, 0, {}, {}};
    for (const auto& value : values)
      spec.choices.push_back(value.second);
    auto set = [spec, values, field](Config& config, std::string_view text) -> KeyError {
      for (const auto& [value, value_name] : values) {
        if (value_name == text) {
          config.*field = value;
          return std::nullopt;
        }
      }
      return unknown_choice(spec, text);
    };
    auto get = [values, field](const Config& config) -> KeyValue {
      for (const auto& [value, value_name] : values) {
        if (value == config.*field) return value_name;
      }
      return std::string("?");  // a value the table does not name: never set by a key
    };
    keys_.push_back({std::move(spec), set, get});
    return *this;
  }

  std::string owner_;
  std::vector<Key<Config>> keys_;
  std::vector<std::pair<std::string, std::string>> retired_;
  std::vector<std::function<KeyError(const Config&)>> rules_;
};

}  // namespace ptovp::keys
