# cmake -DTOOL=... -DHELP2MAN=... -DOUT=... -P man_page.cmake
#
# Writes syncstress's man page to OUT with help2man, from the program's own help: its
# description, usage, options and exit codes (`TOOL --help`, `TOOL --version`), then a section
# SUBCOMMANDS with each subcommand's `--help`, in the order `TOOL --help` lists them.

cmake_minimum_required(VERSION 3.20)

execute_process(COMMAND ${TOOL} --help OUTPUT_VARIABLE top RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TOOL} --help exited ${status}")
endif()

# The subcommands: the lines after "Subcommands:" that start with two spaces and a name.
string(FIND "${top}" "Subcommands:\n" at)
if(at LESS 0)
  message(FATAL_ERROR "${TOOL} --help lists no subcommands")
endif()
string(SUBSTRING "${top}" ${at} -1 rest)
string(REPLACE "\n" ";" lines "${rest}")
list(REMOVE_AT lines 0)
set(names "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^  ([a-z][a-z-]*) ")
    break()
  endif()
  list(APPEND names ${CMAKE_MATCH_1})
endforeach()
if(names STREQUAL "")
  message(FATAL_ERROR "${TOOL} --help lists no subcommands")
endif()

# Each subcommand's help as preformatted roff: backslashes escaped, and a line starting with a
# period or an apostrophe (a roff request) protected.
set(include "[SUBCOMMANDS]\n")
foreach(name IN LISTS names)
  execute_process(COMMAND ${TOOL} ${name} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${TOOL} ${name} --help exited ${status}")
  endif()
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND include ".SS \"syncstress ${name}\"\n.nf\n${help}.fi\n")
endforeach()
get_filename_component(dir "${OUT}" DIRECTORY)
file(WRITE ${dir}/subcommands.h2m "${include}")

execute_process(
  COMMAND ${HELP2MAN} --no-info --section 1
          --name "finds bugs in synchronization primitives"
          --include ${dir}/subcommands.h2m --output ${OUT} ${TOOL}
  RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help2man failed (${status}): ${err}")
endif()
