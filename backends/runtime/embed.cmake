# cmake -DIN=ppy_runtime.h [-DIN2=ppy_str.h] [-DIN3=ppy_obj.h] [-DIN4=ppy_dict.h] -DOUT=runtime_source.cc -P embed.cmake:
# the headers' text (one after the other) as a C++ string (hex bytes, so no delimiter can clash with its text).
file(READ ${IN} _hex HEX)
foreach(_in IN2 IN3 IN4)
  if(DEFINED ${_in})
    file(READ ${${_in}} _more HEX)
    string(APPEND _hex "0a${_more}")
  endif()
endforeach()
string(SHA256 _digest "${_hex}")
string(SUBSTRING "${_digest}" 0 16 _digest)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," _bytes "${_hex}")
file(WRITE ${OUT} "// Generated from ppy_runtime.h by embed.cmake.\n#include \"ppy/runtime/runtime_source.h\"\n\nnamespace ppy::runtime {\nnamespace {\nconstexpr char kText[] = {${_bytes} '\\0'};\n}  // namespace\n\nstd::string_view source() { return {kText, sizeof kText - 1}; }\n\nstd::string_view digest() { return \"${_digest}\"; }\n\n}  // namespace ppy::runtime\n")
