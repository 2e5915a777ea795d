# kiln core: sources and link dependencies, included by the root CMakeLists.txt.
#
# stb: Debian's libstb-dev ships the stb_image / stb_image_write implementations in libstb.so, so
# kiln links it rather than compiling the implementation itself. pkg-config gives its include
# directory (/usr/include/stb, which image_io.c relies on for <stb_image.h>) and -lstb.
find_package(PkgConfig REQUIRED)
pkg_check_modules(KILN_STB REQUIRED IMPORTED_TARGET stb)

set(KILN_CORE_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/bytes.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/containers.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/error.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/frustum.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/half.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/image.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/image_compare.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/image_io.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/log.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/mat4.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/pool.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/projection.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/core/quat.c
)

set(KILN_CORE_LIBS PkgConfig::KILN_STB m)
