# The link launcher of ppy_backend_helper (ppy.cmake):
#   cmake -DPPY_LINK_DIRS=dir:dir... -P ppy_static_link.cmake -- <link command>
# runs the link command with every library that has a static archive (lib*.so
# paths, -lNAME) replaced by the archives, in one group where the first of them
# was, and the C++ runtime linked in, not position-independent. All or nothing:
# if one has no archive, the command runs unchanged (a half-static helper could
# carry two copies of absl, or of libstdc++).

cmake_minimum_required(VERSION 3.25)

# glibc stays shared (a static glibc breaks getaddrinfo); the C++ runtime is
# linked in by the flags below, not by name.
set(_shared c m dl rt pthread util resolv stdc++ gcc gcc_s atomic)
string(REPLACE ":" ";" _dirs "${PPY_LINK_DIRS}")

set(_cmd)       # the command with archives
set(_original)  # and as it came
set(_archives)
set(_missing)
set(_at -1)
set(_past_separator OFF)
math(EXPR _last "${CMAKE_ARGC} - 1")
foreach(_i RANGE ${_last})
  set(_arg "${CMAKE_ARGV${_i}}")
  if(NOT _past_separator)
    if(_arg STREQUAL "--")
      set(_past_separator ON)
    endif()
    continue()
  endif()
  list(APPEND _original "${_arg}")
  set(_name)
  set(_archive)
  if(_arg MATCHES "^(.*/)lib([^/]+)\\.so(\\.[0-9.]+)?$")
    set(_name ${CMAKE_MATCH_2})
    set(_archive ${CMAKE_MATCH_1}lib${_name}.a)
  elseif(_arg MATCHES "^-l([^/]+)$")
    set(_name ${CMAKE_MATCH_1})
    foreach(_d ${_dirs})
      if(EXISTS ${_d}/lib${_name}.a)
        set(_archive ${_d}/lib${_name}.a)
        break()
      endif()
    endforeach()
  endif()
  if(NOT _name OR _name IN_LIST _shared)
    list(APPEND _cmd "${_arg}")
  elseif(_archive AND EXISTS ${_archive})
    if(_at LESS 0)
      list(LENGTH _cmd _at)
    endif()
    list(APPEND _archives ${_archive})
  else()
    list(APPEND _missing "${_arg}")
  endif()
endforeach()

set(_run ${_original})
if(_missing)
  message(STATUS "ppy: no static archive for ${_missing}; linking this helper dynamically")
elseif(_archives)
  list(REMOVE_DUPLICATES _archives)
  list(INSERT _cmd ${_at} -Wl,--start-group ${_archives} -Wl,--end-group)
  # Not a PIE: the relocations of gRPC's and protobuf's tables dirtied ~150
  # pages at every start (half its page faults); with the C++ runtime linked in
  # too, an exec takes half the time. Libraries, heap and stack stay randomised.
  list(APPEND _cmd -no-pie -static-libstdc++ -static-libgcc)
  set(_run ${_cmd})
endif()
execute_process(COMMAND ${_run} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "link failed (${_rc})")
endif()
