# The renderer. Every .c file in src/render is part of it (one idea per file).
file(GLOB KILN_RENDER_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/render/*.c)
set(KILN_RENDER_LIBS)
# Where the renderer finds its WGSL programs (hot reload reads them from disk); settings may
# point elsewhere at run time.
set(KILN_RENDER_SHADER_DIR "${CMAKE_CURRENT_SOURCE_DIR}/src/render/shaders")
