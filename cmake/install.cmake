# cmake --install BUILD --prefix P: what a user needs to test primitives of their own against
# the installed package, as examples/my-primitive/ does.
#
#   P/bin/                           syncstress, syncstress-relacy
#   P/share/man/man1/syncstress.1    the man page, from the program's help (help2man)
#   P/share/syncstress/scenarios/    the presets: the installed syncstress finds them from its bin/,
#                                    a tool of syncstress_add_tool by the path it is compiled with
#                                    (scenarios/preset_files.cpp)
#   P/share/syncstress/tool/         the two registration units a tool compiles with its own
#                                    primitives' header (scenarios/extra/, src/relacy/extra/)
#   P/include/syncstress/            the headers those units include: platform, sim, util, relacy
#                                    (from src/), primitives, scenarios, schedules, and the
#                                    generated list of primitives/*.hpp, in one tree
#   P/lib/                           the layers' static libraries; the CLI's and syncstress-relacy's
#                                    object files under lib/syncstress/objects-CONFIG/
#   P/lib/cmake/syncstress/          syncstressConfig.cmake (+ version, targets), and
#                                    syncstress_add_tool.cmake, the same helper the tree uses
#
# Only a build that compiles its own syncstress-relacy (its objects are installed) and is not
# sanitized (a user's tool links the libraries without sanitizer runtimes) installs anything.
if(SYNCSTRESS_SANITIZE OR SYNCSTRESS_RELACY_PROGRAM)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SYNCSTRESS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/syncstress)
set(SYNCSTRESS_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/syncstress)
# Must match the INSTALL_INTERFACE include directory of syncstress_warnings (CMakeLists.txt).
set(SYNCSTRESS_INSTALL_INCLUDEDIR include/syncstress)

# --- Programs and presets ----------------------------------------------------------------------
install(TARGETS syncstress syncstress-relacy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The man page (P/share/man/man1/syncstress.1): help2man over the program's own help, with each
# subcommand's help in a section of its own (cmake/man_page.cmake), so `man syncstress` says
# what --help says. scripts/setup installs help2man.
find_program(SYNCSTRESS_HELP2MAN help2man)
if(SYNCSTRESS_HELP2MAN)
  set(man_page ${CMAKE_BINARY_DIR}/man/syncstress.1)
  add_custom_command(
    OUTPUT ${man_page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:syncstress> -DHELP2MAN=${SYNCSTRESS_HELP2MAN}
            -DOUT=${man_page} -P ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake
    DEPENDS syncstress ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake
    COMMENT "Writing the man page syncstress.1 (help2man)")
  add_custom_target(syncstress_man_page ALL DEPENDS ${man_page})
  install(FILES ${man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man page is built or installed (scripts/setup installs it)")
endif()
file(GLOB SYNCSTRESS_PRESET_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/scenarios/*.json)
install(FILES ${SYNCSTRESS_PRESET_FILES} DESTINATION ${SYNCSTRESS_INSTALL_DATADIR}/scenarios)

# --- Headers: the closure of the two registration units' includes, by directory ----------------
foreach(dir primitives scenarios schedules src/platform src/sim src/util src/backends)
  string(REGEX REPLACE "^src/" "" installed_dir ${dir})
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir}/
          DESTINATION ${SYNCSTRESS_INSTALL_INCLUDEDIR}/${installed_dir}
          FILES_MATCHING PATTERN "*.hpp"
          PATTERN "extra" EXCLUDE)
endforeach()
install(FILES ${CMAKE_BINARY_DIR}/generated/syncstress/primitive_headers.hpp
        DESTINATION ${SYNCSTRESS_INSTALL_INCLUDEDIR}/syncstress)
install(FILES ${CMAKE_SOURCE_DIR}/src/backends/extra/register_sim.cpp
              ${CMAKE_SOURCE_DIR}/src/backends/relacy/child/extra/register_relacy.cpp
        DESTINATION ${SYNCSTRESS_INSTALL_DATADIR}/tool)

# --- Libraries, as imported targets syncstress::NAME -------------------------------------------
# The layers keep their in-tree names; installed they are syncstress::util ... syncstress::cli.
# syncstress_cli and the Relacy objects stay object libraries (so the in-tree binaries are built
# as before): their object files are installed and linked into a user's tool as they are here.
set(SYNCSTRESS_EXPORTED_TARGETS syncstress_warnings syncstress_flags relacy syncstress_relacy_flags
    syncstress_relacy_common)
foreach(layer util platform primitives scenarios supervise backends run report cli)
  set_target_properties(syncstress_${layer} PROPERTIES EXPORT_NAME ${layer})
  list(APPEND SYNCSTRESS_EXPORTED_TARGETS syncstress_${layer})
endforeach()
foreach(kind mutex shared_mutex semaphore event work_queue)
  set_target_properties(syncstress_relacy_${kind} PROPERTIES EXPORT_NAME relacy_${kind})
  list(APPEND SYNCSTRESS_EXPORTED_TARGETS syncstress_relacy_${kind})
endforeach()
set_target_properties(syncstress_warnings PROPERTIES EXPORT_NAME warnings)
set_target_properties(syncstress_flags PROPERTIES EXPORT_NAME flags)
set_target_properties(syncstress_relacy_flags PROPERTIES EXPORT_NAME relacy_flags)
set_target_properties(syncstress_relacy_common PROPERTIES EXPORT_NAME relacy_common)
install(TARGETS ${SYNCSTRESS_EXPORTED_TARGETS} EXPORT syncstressTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/syncstress)
install(EXPORT syncstressTargets NAMESPACE syncstress:: DESTINATION ${SYNCSTRESS_INSTALL_CMAKEDIR})

# --- The package: find_package(syncstress CONFIG) ----------------------------------------------
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/syncstressConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/package/syncstressConfig.cmake
                              INSTALL_DESTINATION ${SYNCSTRESS_INSTALL_CMAKEDIR}
                              PATH_VARS SYNCSTRESS_INSTALL_DATADIR)
# 0.x: a minor version may change the registration header's format.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/syncstressConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/syncstressConfig.cmake
              ${CMAKE_BINARY_DIR}/package/syncstressConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/syncstress_add_tool.cmake
        DESTINATION ${SYNCSTRESS_INSTALL_CMAKEDIR})
