# cmake -DIN=ppy_helpers.py -DOUT=ppy_helpers_source.cc -P embed_helpers.cmake:
# the helpers' Python text as a C++ string (hex bytes, so no delimiter can clash
# with its text) behind ppy::backends::python::helpers_source() (python_helpers.h),
# and its digest behind helpers_digest().
file(READ ${IN} _hex HEX)
# Its digest is part of the backend's fingerprint: a changed helper is a new cache key.
string(SHA256 _digest "${_hex}")
string(SUBSTRING "${_digest}" 0 16 _digest)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," _bytes "${_hex}")
file(WRITE ${OUT} "// Generated from ppy_helpers.py by embed_helpers.cmake.\n#include \"python_helpers.h\"\n\nnamespace ppy::backends::python {\nnamespace {\nconstexpr char kText[] = {${_bytes} '\\0'};\n}  // namespace\n\nstd::string_view helpers_source() { return {kText, sizeof kText - 1}; }\n\nstd::string_view helpers_digest() { return \"${_digest}\"; }\n\n}  // namespace ppy::backends::python\n")
