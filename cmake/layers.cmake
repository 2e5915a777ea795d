# kiln's layers, one CMake object library each (kiln_core, kiln_gfx, ...), linked only downwards.
#
# A layer sees the public headers of the layers it names in DEPENDS and nothing else: its include
# path holds include/<layer> and those of its dependencies, so `#include <kiln/render.h>` in a
# lower layer fails to compile ("No such file or directory"), and a call into a higher layer fails
# to link wherever the lower layer is linked on its own. libkiln (static and shared) is the union
# of every layer's objects.

# kiln_layer(NAME SOURCES a.c... [DEPENDS layer...] [LIBS target...] [WGSL name=file...]
#            [WGSL_SET name=directory...] [HEADERS directory])
# HEADERS names the include/<directory> the layer publishes (default: NAME), for a part of a layer
# built as its own library (geometry_cpu publishes include/geometry).
# WGSL embeds one file as `const char name[]`; WGSL_SET embeds every *.wgsl of a directory as a
# kiln_wgsl_embedded_file table `name[]` with `name_count` (for the shader library, so only layers
# that depend on shader may use it).
function(kiln_layer name)
    cmake_parse_arguments(L "" "HEADERS" "SOURCES;DEPENDS;LIBS;WGSL;WGSL_SET" ${ARGN})
    set(sources ${L_SOURCES})
    if(NOT L_HEADERS)
        set(L_HEADERS ${name})
    endif()
    # Built-in WGSL is embedded as C strings (generated into the build tree, never committed), so
    # an installed library reads nothing from the source tree.
    foreach(pair ${L_WGSL})
        string(REPLACE "=" ";" pair "${pair}")
        list(GET pair 0 symbol)
        list(GET pair 1 file)
        set(out ${CMAKE_BINARY_DIR}/generated/${symbol}.c)
        add_custom_command(OUTPUT ${out}
            COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DNAME=${symbol} -P ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
            DEPENDS ${file} ${CMAKE_SOURCE_DIR}/cmake/embed.cmake ${CMAKE_SOURCE_DIR}/cmake/embed_bytes.cmake
            COMMENT "Embedding ${file}")
        list(APPEND sources ${out})
    endforeach()
    foreach(pair ${L_WGSL_SET})
        string(REPLACE "=" ";" pair "${pair}")
        list(GET pair 0 symbol)
        list(GET pair 1 directory)
        file(GLOB files CONFIGURE_DEPENDS ${directory}/*.wgsl)
        list(SORT files)
        string(REPLACE ";" "|" file_arg "${files}")
        set(out ${CMAKE_BINARY_DIR}/generated/${symbol}.c)
        add_custom_command(OUTPUT ${out}
            COMMAND ${CMAKE_COMMAND} "-DFILES=${file_arg}" -DOUT=${out} -DNAME=${symbol} -P ${CMAKE_SOURCE_DIR}/cmake/embed_set.cmake
            DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_set.cmake ${CMAKE_SOURCE_DIR}/cmake/embed_bytes.cmake
            COMMENT "Embedding ${directory}/*.wgsl" VERBATIM)
        list(APPEND sources ${out})
    endforeach()
    add_library(kiln_${name} OBJECT ${sources})
    set_target_properties(kiln_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_include_directories(kiln_${name} PUBLIC ${CMAKE_SOURCE_DIR}/include/${L_HEADERS}
        PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    foreach(dep ${L_DEPENDS})
        target_link_libraries(kiln_${name} PUBLIC kiln_${dep})
    endforeach()
    target_link_libraries(kiln_${name} PUBLIC ${L_LIBS})
    set_property(GLOBAL APPEND PROPERTY KILN_LAYERS kiln_${name})
    # libkiln takes the layers' objects, not the layers themselves (so its exported interface is
    # one library); it restates their headers and libraries from these two lists.
    get_property(known GLOBAL PROPERTY KILN_INCLUDE_DIRS)
    if(NOT "${CMAKE_SOURCE_DIR}/include/${L_HEADERS}" IN_LIST known)
        set_property(GLOBAL APPEND PROPERTY KILN_INCLUDE_DIRS ${CMAKE_SOURCE_DIR}/include/${L_HEADERS})
    endif()
    set_property(GLOBAL APPEND PROPERTY KILN_LIBS ${L_LIBS})
endfunction()
