# syncstress_add_tool(NAME PRIMITIVES_HEADER FILE [EXCLUDE_FROM_ALL])
#
# Builds NAME, the syncstress command line, and NAME-relacy, its syncstress-relacy twin (NAME
# runs the twin beside it: src/supervise/relacy_program.cpp), knowing the built-in primitives
# and those FILE lists. FILE (an absolute path; it may be the output of a custom command)
# defines the templates and SYNCSTRESS_EXTRA_PRIMITIVES(X), one X(template, kind, mode, source,
# claims, summary) per primitive, as SYNCSTRESS_PRIMITIVES in primitives/catalog.hpp; each
# template is visible from namespace syncstress and includes only platform/ headers.
#
# Only FILE's primitives are compiled for the tool, in two translation units
# (scenarios/extra/register_sim.cpp, src/relacy/extra/register_relacy.cpp) that register them
# before main; everything else is the objects and libraries syncstress itself is built from.
function(syncstress_add_tool name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXCLUDE_FROM_ALL" "PRIMITIVES_HEADER" "")
  if(NOT arg_PRIMITIVES_HEADER)
    message(FATAL_ERROR "syncstress_add_tool(${name}): PRIMITIVES_HEADER names the header of "
                        "the extra primitives (see cmake/syncstress_add_tool.cmake)")
  endif()
  if(NOT IS_ABSOLUTE "${arg_PRIMITIVES_HEADER}")
    message(FATAL_ERROR "syncstress_add_tool(${name}): PRIMITIVES_HEADER ${arg_PRIMITIVES_HEADER} "
                        "must be an absolute path")
  endif()
  set(exclude "")
  if(arg_EXCLUDE_FROM_ALL)
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  set(header_definition SYNCSTRESS_EXTRA_PRIMITIVES_HEADER="${arg_PRIMITIVES_HEADER}")
  set(root ${syncstress_SOURCE_DIR})

  # The header is listed as a source so that a generated one is made before the compiles.
  add_executable(${name} ${exclude} ${root}/scenarios/extra/register_sim.cpp
                 ${arg_PRIMITIVES_HEADER})
  set_source_files_properties(${arg_PRIMITIVES_HEADER} PROPERTIES HEADER_FILE_ONLY ON)
  target_compile_definitions(${name} PRIVATE ${header_definition})
  target_link_libraries(${name} PRIVATE syncstress_cli)

  set(relacy_kinds "")
  foreach(kind mutex shared_mutex semaphore event work_queue)
    list(APPEND relacy_kinds $<TARGET_OBJECTS:syncstress_relacy_${kind}>)
  endforeach()
  add_executable(${name}-relacy ${exclude} ${root}/src/relacy/extra/register_relacy.cpp
                 ${arg_PRIMITIVES_HEADER} ${relacy_kinds})
  target_compile_definitions(${name}-relacy PRIVATE ${header_definition})
  target_link_libraries(${name}-relacy PRIVATE syncstress_relacy_common)
endfunction()
