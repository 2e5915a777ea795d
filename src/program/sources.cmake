# The program layer: authored render programs and the WGSL reflection that validates them at
# register. Every .c file in src/program is part of it (one idea per file). Pure C; no libraries
# beyond what core links.
file(GLOB KILN_PROGRAM_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/program/*.c)
set(KILN_PROGRAM_LIBS)
