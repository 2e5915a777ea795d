# Turns a text file into a C source defining `const char <NAME>[]` (NUL-terminated), so kiln's
# built-in WGSL ships inside the library. Run as: cmake -DIN=... -DOUT=... -DNAME=... -P embed.cmake
include(${CMAKE_CURRENT_LIST_DIR}/embed_bytes.cmake)
kiln_embed_bytes("${IN}" bytes)
file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by cmake/embed.cmake. */\nconst char ${NAME}[] = {\n${bytes}0x00};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
