/* The WGSL side of the renderer's enum-name tables (names.c): one generated include, so a shader
 * reads TONEMAP_ACES, DEBUG_NORMALS, BACKGROUND_SKY, LIGHT_KIND_SPOT, ALPHA_MASK, TEX_NORMAL or
 * INSTANCE_MORPHED as the value the C enum has, and no WGSL copy or hand-kept check can drift from it. */
#ifndef KILN_RENDER_NAMES_H
#define KILN_RENDER_NAMES_H

#include <kiln/shader/library.h>

/* The name shaders #include it by. */
#define RENDERER_ENUMS_WGSL "kiln_enums.wgsl"

/* The generated file: `const <PREFIX><NAME>: u32 = <value>u;` for every row of every table the
 * shaders read. Built once, on first call, from constant tables; static, so it outlives every
 * library given it as a kiln_wgsl_source's generated file. Thread-safe. */
const kiln_wgsl_embedded_file *renderer_enums_wgsl(void);

#endif
