# The gfx layer: everything that calls wgpu*.
set(KILN_GFX_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/device.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/resources.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/shaders.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/pipeline.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/commands.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/readback.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/timestamps.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/swapchain.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/debug_draw.c
)
set(KILN_GFX_LIBS)

# Built-in WGSL is embedded as C strings (generated into the build tree, never committed).
function(kiln_embed_wgsl out_var name file)
    set(out ${CMAKE_BINARY_DIR}/generated/${name}.c)
    add_custom_command(OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DNAME=${name} -P ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
        DEPENDS ${file} ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
        COMMENT "Embedding ${file}")
    set(${out_var} ${${out_var}} ${out} PARENT_SCOPE)
endfunction()
kiln_embed_wgsl(KILN_GFX_SOURCES kiln_wgsl_debug_lines ${CMAKE_CURRENT_SOURCE_DIR}/src/gfx/shaders/debug_lines.wgsl)
