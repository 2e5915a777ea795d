# The program layer: authored render programs and the WGSL reflection that validates them at
# register, and their JSON message surface (jansson). Every .c file in src/program is part of it
# (one idea per file).
file(GLOB KILN_PROGRAM_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/program/*.c)
set(KILN_PROGRAM_LIBS PkgConfig::JANSSON)
# The fullscreen triangle every fragment pass runs under (kiln_embed_wgsl: src/gfx/sources.cmake).
kiln_embed_wgsl(KILN_PROGRAM_SOURCES kiln_wgsl_program_fullscreen ${CMAKE_CURRENT_SOURCE_DIR}/src/program/shaders/fullscreen.wgsl)
