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

/// One field as `scan` found it. Left uninitialised until `scan` fills it:
/// clearing a message's slots up front cost more than reading the message.
struct Slot {
  uint64_t value;  ///< Varint, Fixed64 (its bits); 0 when absent
  /// String, Message, Packed: the payload. Repeated: every occurrence, tags
  /// included, for `each` (canonical bytes keep them together). Empty when absent.
  const char* data;
  uint32_t size;
  uint32_t count;  ///< how many times it appeared
  std::string_view bytes() const { return {data, size}; }
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
  for (Slot& s : slots) s.count = 0;
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
    if (!s.count) s.value = 0, s.data = nullptr, s.size = 0;
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
      if (k != Kind::Repeated) {
        s.data = p;
      } else if (s.count == 1) {
        s.data = at;
      }
      p += n;
      s.size = static_cast<uint32_t>(k != Kind::Repeated ? n : static_cast<size_t>(p - s.data));

    } else {
      return false;
    }
  }
  for (Slot& s : slots)
    if (!s.count) s.value = 0, s.data = nullptr, s.size = 0;
  return !oneof || seen <= 1;
}

/// Calls `fn(payload)` for each occurrence of a Repeated field `scan` found
/// (`s.bytes`), in order, until one fails; returns that failure, or ok.
template <class Fn>
absl::Status each(const Slot& s, Fn&& fn) {
  const char* p = s.data;
  const char* const end = p + s.size;
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

/// Reads a message whose fields are all singular varints numbered 1 to N-1
/// (Location) into `out`, 0 for those absent. False when it is not canonical.
template <size_t N>
bool varints(std::string_view bytes, std::array<uint64_t, N>& out) {
  out.fill(0);
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  uint32_t last = 0;
  while (p < end) {
    uint8_t tag = static_cast<uint8_t>(*p++);
    uint32_t field = tag >> 3;
    if ((tag & 7) != 0 || field <= last || field >= N || !varint(p, end, out[field])) [[unlikely]]
      return false;
    last = field;
  }
  return true;
}

/// The fields of an Operation (ir.proto), read in one walk. Filled by
/// `scan_op` alone: zeroing it as a whole made GCC clear it with `rep stos`,
/// which cost more than the walk.
struct OpFields {
  uint64_t name;
  std::string_view operands, result_types, result_hints, loc;
  Slot successors, attrs, regions;
  bool has_loc;
};

/// Reads an Operation's fields; false when they are not canonical (see `scan`).
inline bool scan_op(std::string_view bytes, OpFields& f) {
  f.name = 0;
  f.operands = f.result_types = f.result_hints = f.loc = std::string_view();
  for (Slot* s : {&f.successors, &f.attrs, &f.regions}) s->count = s->size = 0;
  f.has_loc = false;
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  uint32_t last = 0;
  while (p < end) {
    const char* at = p;
    uint8_t tag = static_cast<uint8_t>(*p++);
    uint32_t field = tag >> 3;
    if (field < last || (field == last && (field < 5 || field > 7))) [[unlikely]]
      return false;
    last = field;
    if (tag == (1 << 3)) {
      if (!varint(p, end, f.name)) return false;
      continue;
    }
    uint64_t n;
    if ((tag & 7) != 2 || field < 2 || field > 8 || !varint(p, end, n, 5) || n > static_cast<uint64_t>(end - p))
        [[unlikely]]
      return false;
    std::string_view payload(p, static_cast<size_t>(n));
    p += n;
    auto add = [&](Slot& s) {
      if (!s.count++) s.data = at;
      s.size = static_cast<uint32_t>(p - s.data);
    };
    switch (field) {
      case 2: f.operands = payload; break;
      case 3: f.result_types = payload; break;
      case 4: f.result_hints = payload; break;
      case 5: add(f.successors); break;
      case 6: add(f.attrs); break;
      case 7: add(f.regions); break;
      default:
        f.loc = payload;
        f.has_loc = true;
        break;
    }
  }
  return true;
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
