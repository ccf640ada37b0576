# Findvolk: the volk Vulkan meta-loader, which Debian's libvulkan-volk-dev ships as a source
# file (volk.c) and a header, with no CMake package of its own.
#   volk_SOURCE       volk.c, to compile into the library that loads Vulkan
#   volk_INCLUDE_DIR  the folder holding volk.h
# Set volk_ROOT (or CMAKE_PREFIX_PATH) to use a copy elsewhere.
find_path(volk_INCLUDE_DIR volk.h)
find_file(volk_SOURCE volk.c HINTS ${volk_INCLUDE_DIR} PATH_SUFFIXES include)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(volk REQUIRED_VARS volk_SOURCE volk_INCLUDE_DIR)
mark_as_advanced(volk_SOURCE volk_INCLUDE_DIR)
