# The texture registry shared by programs and materials.
file(GLOB KILN_TEXTURES_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/textures/*.c)
