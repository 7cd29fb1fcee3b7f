#pragma once
// Reading protobuf wire bytes in the one form writers produce (internal to
// ppy_ir: proto_read.cc reads functions with it).
//
// protobuf's parse takes much more than its own writer emits: a singular field
// given twice (the last wins, messages merge), repeated scalars unpacked or in
// several runs, unknown fields and groups. What is read here is only the
// canonical form, where each field appears as protobuf writes it; anything
// else is "not canonical" and left to protobuf, whose parse of it, written
// again, is canonical.

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "ppy/util/status_macros.h"

namespace ppy::ir::wire {

/// What a message's field is, for `scan`: the form it takes in canonical bytes.
enum class Kind : uint8_t {
  None,      ///< no such field: not canonical
  Varint,    ///< a singular integer, bool or enum
  Fixed64,   ///< a singular double
  String,    ///< a singular string or bytes
  Message,   ///< a singular message
  Packed,    ///< a repeated integer, in one packed run
  Repeated,  ///< a repeated message: any number of times
};

/// One field as `scan` found it.
struct Slot {
  uint64_t value = 0;      ///< Varint, Fixed64 (its bits)
  /// String, Message, Packed: the payload. Repeated: every occurrence, tags
  /// included, for `each` (canonical bytes keep them together).
  std::string_view bytes;
  uint32_t count = 0;  ///< how many times it appeared
};

/// A varint of at most `max` bytes starting at `p`, as protobuf reads one.
inline bool varint(const char*& p, const char* end, uint64_t& v, int max = 10) {
  if (p < end && static_cast<uint8_t>(*p) < 0x80) [[likely]] {
    v = static_cast<uint8_t>(*p++);
    return true;
  }
  v = 0;
  for (int i = 0; i < max && p < end; ++i) {
    uint8_t b = static_cast<uint8_t>(*p++);
    v |= uint64_t{b & 0x7fu} << (7 * i);
    if (!(b & 0x80)) return true;
  }
  return false;
}

/// Reads the fields of one message into `slots`, indexed by field number, in
/// one walk. False when the bytes are not canonical for `kinds`: malformed, a
/// field `kinds` does not name or in another wire form, fields out of number
/// order (protobuf writes them in order), a singular field twice, a repeated
/// one in two runs, or, with `oneof`, more than one field in all.
template <size_t N>
bool scan(std::string_view bytes, const std::array<Kind, N>& kinds, std::array<Slot, N>& slots, bool oneof = false) {
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  uint32_t last = 0;  // field numbers start at 1
  uint32_t seen = 0;
  while (p < end) {
    const char* at = p;
    // Every field of ir.proto is numbered below 16: its tag is one byte.
    uint8_t tag = static_cast<uint8_t>(*p++);
    uint32_t field = tag >> 3;
    if (tag >= 0x80 || field >= N || field < last) [[unlikely]]
      return false;
    Kind k = kinds[field];
    Slot& s = slots[field];
    if (k == Kind::None || (field == last && k != Kind::Repeated)) [[unlikely]]
      return false;
    last = field;
    ++s.count;
    ++seen;
    int wire_type = tag & 7;
    if (wire_type == 0 && k == Kind::Varint) {
      if (!varint(p, end, s.value)) return false;
    } else if (wire_type == 1 && k == Kind::Fixed64) {
      if (end - p < 8) return false;
      std::memcpy(&s.value, p, 8);
      p += 8;
    } else if (wire_type == 2 && k != Kind::Varint && k != Kind::Fixed64) {
      uint64_t n;
      if (!varint(p, end, n, 5) || n > static_cast<uint64_t>(end - p)) [[unlikely]]
        return false;
      if (k == Kind::Repeated)
        s.bytes = std::string_view(s.count == 1 ? at : s.bytes.data(), static_cast<size_t>(p + n - (s.count == 1 ? at : s.bytes.data())));
      else
        s.bytes = std::string_view(p, static_cast<size_t>(n));
      p += n;
    } else {
      return false;
    }
  }
  return !oneof || seen <= 1;
}

/// Calls `fn(payload)` for each occurrence of a Repeated field `scan` found
/// (`s.bytes`), in order, until one fails; returns that failure, or ok.
template <class Fn>
absl::Status each(const Slot& s, Fn&& fn) {
  const char* p = s.bytes.data();
  const char* const end = p + s.bytes.size();
  while (p < end) {
    ++p;  // the tag: one byte, the same each time
    uint64_t n;
    varint(p, end, n, 5);
    std::string_view payload(p, static_cast<size_t>(n));
    p += n;
    PPY_RETURN_IF_ERROR(fn(payload));
  }
  return absl::OkStatus();
}

/// How many values a packed run holds, if it is well formed: its bytes
/// without the continuation bit.
inline size_t packed_count(std::string_view run) {
  size_t n = 0;
  for (char c : run) n += static_cast<uint8_t>(c) < 0x80;
  return n;
}

/// The values of a packed run of uint32, each kept to its low 32 bits as
/// protobuf keeps them. False when the run is malformed.
inline bool unpack(std::string_view run, std::vector<uint32_t>& out) {
  out.clear();
  const char* p = run.data();
  const char* const end = p + run.size();
  while (p < end) {
    if (static_cast<uint8_t>(*p) < 0x80) [[likely]] {
      out.push_back(static_cast<uint8_t>(*p++));
      continue;
    }
    uint64_t v;
    if (!varint(p, end, v)) return false;
    out.push_back(static_cast<uint32_t>(v));
  }
  return true;
}

}  // namespace ppy::ir::wire
