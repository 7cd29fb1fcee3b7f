#pragma once
// What the proto writer and reader of ppy_ir share (internal): ir.proto's
// schema number and the limits and spellings both sides keep to.

#include <cstdint>

#include "ppy/ir/v1/ir.pb.h"

namespace ppy::ir::proto_schema {

namespace pb = ppy::ir::v1;

/// The IR schema this library reads and writes (`Module.schema_version`).
inline constexpr uint32_t kSchemaVersion = 1;
/// Deepest nesting of regions in ops, of attributes, and of types the reader
/// accepts: deep enough for any real module, shallow enough for the stack.
inline constexpr int kMaxRegionDepth = 256;
inline constexpr int kMaxAttrDepth = 256;
inline constexpr int kMaxTypeDepth = 64;  // as the text reader's

/// Address spaces by their ir.proto number.
inline constexpr const char* kSpaces[] = {"generic", "stack", "global", "shared", "private", "constant"};

}  // namespace ppy::ir::proto_schema
