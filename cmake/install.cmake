# What `cmake --install` puts under the prefix, and the Debian package CPack makes of it:
#   include/kiln/...          every public header: include/<layer>/kiln/ of each layer, merged
#                             (private headers live in src/), and the generated kiln/version.h
#   lib/libkiln.a, libkiln.so.MAJOR.MINOR.PATCH (SONAME libkiln.so.MAJOR.MINOR)
#   lib/kiln/libwebgpu_wrapper.so   the Dawn build kiln was compiled against
#   lib/cmake/kiln/           kilnConfig.cmake: kiln::kiln (shared) and kiln::kiln_static
#   lib/pkgconfig/kiln.pc
#   bin/kiln-render, bin/kiln-run
#   share/kiln/shaders/       the renderer's WGSL, only as a starting point for hot reload
#                             (settings.shader_dir): the library runs on its embedded copy
# Every path is relative to the prefix, so one build installs anywhere (and CPack packs it for /usr).
include(CMakePackageConfigHelpers)

foreach(dir ${KILN_INCLUDE_DIRS} ${KILN_GENERATED_INCLUDE_DIR})
    install(DIRECTORY ${dir}/kiln DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()

install(TARGETS kiln kiln_shared EXPORT kilnTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# Renamed so the file name always matches the -lwebgpu_wrapper that IMPORTED_NO_SONAME links by.
install(PROGRAMS ${KILN_WEBGPU_LIBRARY} DESTINATION ${KILN_INSTALL_DAWN_DIR} RENAME libwebgpu_wrapper.so)

file(RELATIVE_PATH tools_to_dawn /${CMAKE_INSTALL_BINDIR} /${KILN_INSTALL_DAWN_DIR})
set_target_properties(kiln-render kiln-run PROPERTIES INSTALL_RPATH "$ORIGIN/${tools_to_dawn}")
install(TARGETS kiln-render kiln-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY ${CMAKE_SOURCE_DIR}/src/render/shaders/ DESTINATION ${CMAKE_INSTALL_DATADIR}/kiln/shaders
    FILES_MATCHING PATTERN "*.wgsl")

# CMake package.
set(KILN_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
install(EXPORT kilnTargets NAMESPACE kiln:: DESTINATION ${KILN_INSTALL_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/kilnConfig.cmake.in ${CMAKE_BINARY_DIR}/kilnConfig.cmake
    INSTALL_DESTINATION ${KILN_INSTALL_CMAKE_DIR} PATH_VARS KILN_INSTALL_DAWN_DIR)
# The same rule as the SONAME: before 1.0 only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/kilnConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/kilnConfig.cmake ${CMAKE_BINARY_DIR}/kilnConfigVersion.cmake
    DESTINATION ${KILN_INSTALL_CMAKE_DIR})

# pkg-config, relocatable through ${pcfiledir}.
set(KILN_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH KILN_PC_TO_PREFIX /${KILN_PC_DIR} /)
string(REGEX REPLACE "/$" "" KILN_PC_TO_PREFIX "${KILN_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/kiln.pc.in ${CMAKE_BINARY_DIR}/kiln.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/kiln.pc DESTINATION ${KILN_PC_DIR})

# Debian package: `cpack -G DEB` in the build directory writes kiln_<version>_amd64.deb. Depends
# are the runtime packages of what libkiln and the bundled Dawn link (jansson, stb, meshoptimizer,
# libstdc++ and libgcc for Dawn) and the Vulkan loader Dawn opens; Mesa's drivers are recommended, as a machine
# with a vendor Vulkan driver needs none. Building against the package needs the -dev packages of
# kiln.pc's Requires.private and Libs.private (and of kiln::kiln_static's links), hence the Suggests.
set(CPACK_PACKAGE_NAME kiln)
set(CPACK_PACKAGE_VENDOR kiln)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "real-time renderer and GPU program runtime in C11 over WebGPU (Dawn)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "kiln developers")
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libgcc-s1, libstdc++6, libjansson4, libstb0, libmeshoptimizer2d, libvulkan1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pkg-config, libjansson-dev, libstb-dev, libmeshoptimizer-dev")
include(CPack)
