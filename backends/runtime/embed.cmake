# cmake "-DIN=ppy_runtime.h;...;ppy_dict.c" -DOUT=runtime_source.cc -P embed.cmake:
# the files' text, one after the other in the order given (every file after what it uses), as one C++ string (hex
# bytes, so no delimiter can clash with its text). Their includes of one another are dropped: the text holds them all,
# so a backend can paste it or compile it as it is.
set(_text "")
set(_sep "")
foreach(_in IN LISTS IN)
  file(READ ${_in} _one)
  string(REGEX REPLACE "\n#include \"ppy_[a-z_]+\\.h\"[^\n]*" "" _one "${_one}")
  string(APPEND _text "${_sep}${_one}")
  set(_sep "\n")
endforeach()
string(HEX "${_text}" _hex)
string(SHA256 _digest "${_hex}")
string(SUBSTRING "${_digest}" 0 16 _digest)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," _bytes "${_hex}")
file(WRITE ${OUT} "// Generated from the runtime's files by embed.cmake.\n#include \"ppy/runtime/runtime_source.h\"\n\nnamespace ppy::runtime {\nnamespace {\nconstexpr char kText[] = {${_bytes} '\\0'};\n}  // namespace\n\nstd::string_view source() { return {kText, sizeof kText - 1}; }\n\nstd::string_view digest() { return \"${_digest}\"; }\n\n}  // namespace ppy::runtime\n")
