# ppy_add_corpus_tests(PREFIX SCRIPT TIMEOUT SECONDS LABELS L... [ARGS A...])
#
# One ctest `PREFIX.<name>` per entry of the corpus (tests/programs): each
# `<name>.ppy`, and each project folder `<name>/` (one with a pyproject.toml),
# run as `python3 SCRIPT --ppy <ppy> ARGS... <entry>`. Every harness that walks
# the corpus (differential, python, c, sanitize) registers through here, so all
# see the same entries. Exit 77 is a skip.
function(ppy_add_corpus_tests prefix script)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LABELS;ARGS" ${ARGN})
  file(GLOB _entries CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/programs/*.ppy
       ${PROJECT_SOURCE_DIR}/tests/programs/*/pyproject.toml)
  foreach(_entry ${_entries})
    if(_entry MATCHES "pyproject\\.toml$")
      get_filename_component(_program ${_entry} DIRECTORY)
    else()
      set(_program ${_entry})
    endif()
    get_filename_component(_name ${_program} NAME_WE)
    add_test(NAME ${prefix}.${_name} COMMAND ${Python3_EXECUTABLE} ${script} --ppy $<TARGET_FILE:ppy> ${ARG_ARGS}
                                             ${_program})
    set_tests_properties(${prefix}.${_name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} SKIP_RETURN_CODE 77 LABELS
                                                       "${ARG_LABELS}")
  endforeach()
endfunction()
