# Runs one libFuzzer target over its seeds; fails when the fuzzer reports a finding.
#
#   cmake -DFUZZER=build-fuzz/fuzz/T -DWORK=dir "-DSEEDS=dir;file;glob..." "-DARGS=-runs=N;..."
#         [-DKEEP=ON] -P fuzz/run_fuzzer.cmake
#
# WORK/corpus is where the fuzzer adds the inputs it finds interesting (libFuzzer writes to its
# first corpus directory): emptied first unless KEEP, so that the source tree's seed
# directories, read after it, are never written to. Seed files and globs are copied into it.
# A finding is saved as WORK/artifacts/crash-... (or leak-, timeout-, oom-).
if(NOT KEEP)
  file(REMOVE_RECURSE ${WORK}/corpus)
endif()
file(REMOVE_RECURSE ${WORK}/artifacts)
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
set(directories "")
foreach(seed IN LISTS SEEDS)
  if(IS_DIRECTORY ${seed})
    list(APPEND directories ${seed})
  else()
    file(GLOB files ${seed})
    if(files)
      file(COPY ${files} DESTINATION ${WORK}/corpus)
    endif()
  endif()
endforeach()
execute_process(
  COMMAND ${FUZZER} ${ARGS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
          -artifact_prefix=${WORK}/artifacts/ ${WORK}/corpus ${directories}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  file(GLOB findings ${WORK}/artifacts/*)
  message(FATAL_ERROR "${FUZZER} found a problem (exit ${result}): ${findings}\n"
                      "Reproduce with: ${FUZZER} <file>; keep the input as a regression in "
                      "fuzz/corpus/<target>/ once it is fixed.")
endif()
