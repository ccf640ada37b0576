# Installs the libraries and headers and exports the CMake package `sprig`, so that users
# write find_package(sprig) and link sprig::sprig (everything), or sprig::simulator (with
# sprig::stdlib) alone, which needs no Vulkan headers or loader.
include(CMakePackageConfigHelpers)

install(TARGETS sprig sprig_dsl sprig_compiler sprig_runtime sprig_vulkan sprig_simulator sprig_stdlib
        EXPORT sprigTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir include dsl/include compiler/include runtime/include runtime/vulkan/include simulator/include stdlib/include)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(EXPORT sprigTargets NAMESPACE sprig:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sprig)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sprigConfig.cmake.in
  ${PROJECT_BINARY_DIR}/sprigConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sprig)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sprigConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sprigConfig.cmake ${PROJECT_BINARY_DIR}/sprigConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sprig)
