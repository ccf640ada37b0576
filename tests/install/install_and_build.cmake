# Script mode: install, then configure, build and run each consumer.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${SPRIG_BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)

# The simulator-only consumer: its configure step fails if anything it links reaches the
# Vulkan backend.
run(${CMAKE_COMMAND} -S ${SIMULATOR_CONSUMER_SOURCE} -B ${WORK_DIR}/simulator_build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/simulator_build)
run(${WORK_DIR}/simulator_build/simulator_consumer)

# The installed sprig-plot: a K = 15 record plotted and verified on the simulator, whose
# summary must count valid proofs and no invalid ones; a bad K must exit with status 2.
if(TOOLS_INSTALLED)
  set(sprig_plot ${prefix}/${INSTALL_BINDIR}/sprig-plot)
  if(NOT EXISTS ${sprig_plot})
    message(FATAL_ERROR "cmake --install put no sprig-plot in ${prefix}/${INSTALL_BINDIR}")
  endif()
  set(plot_file ${WORK_DIR}/k15.plot)
  execute_process(
    COMMAND ${sprig_plot} plot --seed 0404040404040404040404040404040404040404040404040404040404040404 --k 15
            --device sim --output ${plot_file}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "wrote 1 records of K = 15 \\(Abundance rules\\)")
    message(FATAL_ERROR "installed sprig-plot plot failed (${rc}):\n${out}${err}")
  endif()
  execute_process(COMMAND ${sprig_plot} verify --input ${plot_file} --device sim
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "K = 15, Abundance rules, 1 records, ([1-9][0-9]*) proofs, ([0-9]+) valid, 0 invalid, 0 malformed records"
     OR NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
    message(FATAL_ERROR "installed sprig-plot verify failed (${rc}):\n${out}${err}")
  endif()
  message(STATUS "installed sprig-plot: ${out}")
  execute_process(COMMAND ${sprig_plot} plot --seed 00 --k 30 --output ${WORK_DIR}/bad.plot
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "K = 30 is out of range")
    message(FATAL_ERROR "installed sprig-plot accepted K = 30 (${rc}): ${err}")
  endif()
endif()
