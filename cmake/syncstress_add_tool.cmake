# syncstress_add_tool(NAME PRIMITIVES_HEADER FILE [FAMILIES_HEADER FILE] [ONLY_THESE_PRIMITIVES]
#                     [EXCLUDE_FROM_ALL])
#
# Builds NAME, the syncstress command line, and NAME-relacy, its syncstress-relacy twin (NAME
# runs the twin beside it: src/backends/relacy/program.cpp), knowing the primitives FILE lists
# beside the built-in ones, or instead of them with ONLY_THESE_PRIMITIVES. FILE (relative to the
# calling CMakeLists.txt, or absolute; it may be the output of a custom command) defines the
# templates and SYNCSTRESS_EXTRA_PRIMITIVES(X), one X(template, kind, mode, source, claims,
# summary) per primitive, as SYNCSTRESS_PRIMITIVES in primitives/catalog.hpp; each template is
# visible from namespace syncstress and includes only platform/ headers.
#
# FAMILIES_HEADER FILE, if given, defines scenario families of the tool's own and
# SYNCSTRESS_EXTRA_FAMILIES(X), one X(type) per family (scenarios/tool_family.hpp says what the
# type holds); presets name them by their names, and they run on the tool's primitives they apply
# to, on sim, on real threads and on Relacy.
#
# Only FILE's primitives are compiled for the tool, in two translation units that register them
# before main (src/backends/extra/register_sim.cpp,
# src/backends/relacy/child/extra/register_relacy.cpp); everything else is the objects and libraries syncstress itself is built from.
#
# The same function serves this repository's build tree (scripts/mutate, the mutation bar) and
# the installed package (find_package(syncstress CONFIG), cmake/syncstressConfig.cmake.in, which
# sets the global property SYNCSTRESS_PACKAGE_DATA_DIR): there the targets are syncstress::NAME
# and the registration units are installed sources.
function(syncstress_add_tool name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXCLUDE_FROM_ALL;ONLY_THESE_PRIMITIVES"
                        "PRIMITIVES_HEADER;FAMILIES_HEADER" "")
  if(NOT arg_PRIMITIVES_HEADER)
    message(FATAL_ERROR "syncstress_add_tool(${name}): PRIMITIVES_HEADER names the header of "
                        "your primitives, which defines SYNCSTRESS_EXTRA_PRIMITIVES(X) (see "
                        "syncstress_add_tool.cmake)")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "syncstress_add_tool(${name}): unknown arguments "
                        "${arg_UNPARSED_ARGUMENTS} (it takes PRIMITIVES_HEADER FILE, "
                        "FAMILIES_HEADER FILE, ONLY_THESE_PRIMITIVES, EXCLUDE_FROM_ALL)")
  endif()
  get_filename_component(header "${arg_PRIMITIVES_HEADER}" ABSOLUTE
                         BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  get_source_file_property(generated "${header}" GENERATED)
  if(NOT generated AND NOT EXISTS "${header}")
    message(FATAL_ERROR "syncstress_add_tool(${name}): PRIMITIVES_HEADER ${header} does not exist")
  endif()
  set(exclude "")
  if(arg_EXCLUDE_FROM_ALL)
    set(exclude EXCLUDE_FROM_ALL)
  endif()

  get_property(package_dir GLOBAL PROPERTY SYNCSTRESS_PACKAGE_DATA_DIR)
  if(package_dir)
    # The installed package.
    set(register_sim ${package_dir}/tool/register_sim.cpp)
    set(register_relacy ${package_dir}/tool/register_relacy.cpp)
    set(prefix syncstress::)
    set(sim_definitions SYNCSTRESS_INSTALLED_SCENARIOS_DIR="${package_dir}/scenarios")
    # Traces name files as the tree's tools do: syncstress's headers as "scenarios/harness.hpp"
    # (so that replay --verbose folds the harness's steps), the user's relative to their project.
    get_target_property(include_dir syncstress::warnings INTERFACE_INCLUDE_DIRECTORIES)
    set(options "")
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      set(options -fmacro-prefix-map=${CMAKE_SOURCE_DIR}/= -fmacro-prefix-map=${include_dir}/=)
    endif()
  else()
    # This repository's build tree.
    set(register_sim ${syncstress_SOURCE_DIR}/src/backends/extra/register_sim.cpp)
    set(register_relacy
        ${syncstress_SOURCE_DIR}/src/backends/relacy/child/extra/register_relacy.cpp)
    set(prefix syncstress_)
    set(sim_definitions "")
    set(options "")
  endif()
  list(APPEND sim_definitions SYNCSTRESS_TOOL_NAME="${name}")
  if(arg_ONLY_THESE_PRIMITIVES)
    list(APPEND sim_definitions SYNCSTRESS_ONLY_EXTRA_PRIMITIVES)
  endif()
  set(header_definition SYNCSTRESS_EXTRA_PRIMITIVES_HEADER="${header}")
  set(families_header "")
  if(arg_FAMILIES_HEADER)
    get_filename_component(families_header "${arg_FAMILIES_HEADER}" ABSOLUTE
                           BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    get_source_file_property(generated "${families_header}" GENERATED)
    if(NOT generated AND NOT EXISTS "${families_header}")
      message(FATAL_ERROR "syncstress_add_tool(${name}): FAMILIES_HEADER ${families_header} "
                          "does not exist")
    endif()
    list(APPEND header_definition SYNCSTRESS_EXTRA_FAMILIES_HEADER="${families_header}")
  endif()

  # The headers are listed as sources so that generated ones are made before the compiles.
  add_executable(${name} ${exclude} ${register_sim} ${header} ${families_header})
  set_source_files_properties(${header} ${families_header} PROPERTIES HEADER_FILE_ONLY ON)
  target_compile_definitions(${name} PRIVATE ${header_definition} ${sim_definitions})
  target_compile_options(${name} PRIVATE ${options})
  target_link_libraries(${name} PRIVATE ${prefix}cli)
  target_compile_features(${name} PRIVATE cxx_std_20)

  set(relacy_kinds "")
  foreach(kind mutex shared_mutex semaphore event work_queue)
    list(APPEND relacy_kinds $<TARGET_OBJECTS:${prefix}relacy_${kind}>)
  endforeach()
  add_executable(${name}-relacy ${exclude} ${register_relacy} ${header} ${families_header}
                                 ${relacy_kinds})
  target_compile_definitions(${name}-relacy PRIVATE ${header_definition})
  target_compile_options(${name}-relacy PRIVATE ${options})
  target_link_libraries(${name}-relacy PRIVATE ${prefix}relacy_common)
  target_compile_features(${name}-relacy PRIVATE cxx_std_20)
endfunction()
