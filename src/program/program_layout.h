/* The vertex-format table and geometry layout checks (internal to src/program; the public part is
 * in program.h). Pure CPU. */
#ifndef KILN_PROGRAM_LAYOUT_H
#define KILN_PROGRAM_LAYOUT_H

#include <kiln/program.h>
#include <kiln/shader/wgsl_reflect.h>

/* One row of the closed vertex-format set: how JSON names it, its width, and the WGSL type the
 * vertex stage reads it as (components of scalar). */
typedef struct program_vertex_format {
    const char *name;
    uint32_t bytes;
    uint32_t components;
    kiln_wgsl_scalar scalar;
    WGPUVertexFormat wgpu;
} program_vertex_format;

/* The row of a format; NULL outside the enum. */
const program_vertex_format *program_vertex_format_of(kiln_vertex_format f);
/* The format JSON names `name` ("Float32x3"); false for none. */
bool program_vertex_format_find(const char *name, kiln_vertex_format *out);
/* The layout rules alone (no bytes): what a geometry slot at register must meet. */
kiln_geometry_class program_layout_check(const kiln_geometry_layout *layout, kiln_geometry_error *err);
/* "[0 Float32x3, 1 Unorm8x4]", for messages. */
const char *program_layout_text(const kiln_geometry_layout *layout, char *buf, size_t size);

#endif
