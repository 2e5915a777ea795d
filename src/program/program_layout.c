/* The geometry layout vocabulary (program.h, "geometry"): the closed vertex-format set with each
 * format's width and the WGSL type it is read as, strides, layout equality, and the checks a
 * geometry's layout and bytes pass before it takes an id. Pure CPU: register validates geometry
 * slots with the same layout rules a create_geometry meets, so a slot no geometry could fill is
 * refused at register. */
#include "program_layout.h"

#include <string.h>

#include <kiln/core/utf8.h>

#include "program_refuse.h"


/* Width, components and the scalar the vertex stage reads; every width is a multiple of four so
 * any stride meets the vertex buffer alignment without padding. */
static const program_vertex_format FORMATS[] = {
    [KILN_VERTEX_FLOAT32] = {"Float32", 4, 1, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Float32},
    [KILN_VERTEX_FLOAT32X2] = {"Float32x2", 8, 2, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Float32x2},
    [KILN_VERTEX_FLOAT32X3] = {"Float32x3", 12, 3, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Float32x3},
    [KILN_VERTEX_FLOAT32X4] = {"Float32x4", 16, 4, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Float32x4},
    [KILN_VERTEX_UINT32] = {"Uint32", 4, 1, KILN_WGSL_SCALAR_U32, WGPUVertexFormat_Uint32},
    [KILN_VERTEX_UINT32X2] = {"Uint32x2", 8, 2, KILN_WGSL_SCALAR_U32, WGPUVertexFormat_Uint32x2},
    [KILN_VERTEX_UINT32X3] = {"Uint32x3", 12, 3, KILN_WGSL_SCALAR_U32, WGPUVertexFormat_Uint32x3},
    [KILN_VERTEX_UINT32X4] = {"Uint32x4", 16, 4, KILN_WGSL_SCALAR_U32, WGPUVertexFormat_Uint32x4},
    [KILN_VERTEX_SINT32] = {"Sint32", 4, 1, KILN_WGSL_SCALAR_I32, WGPUVertexFormat_Sint32},
    [KILN_VERTEX_SINT32X2] = {"Sint32x2", 8, 2, KILN_WGSL_SCALAR_I32, WGPUVertexFormat_Sint32x2},
    [KILN_VERTEX_SINT32X3] = {"Sint32x3", 12, 3, KILN_WGSL_SCALAR_I32, WGPUVertexFormat_Sint32x3},
    [KILN_VERTEX_SINT32X4] = {"Sint32x4", 16, 4, KILN_WGSL_SCALAR_I32, WGPUVertexFormat_Sint32x4},
    [KILN_VERTEX_UINT8X4] = {"Uint8x4", 4, 4, KILN_WGSL_SCALAR_U32, WGPUVertexFormat_Uint8x4},
    [KILN_VERTEX_UNORM8X4] = {"Unorm8x4", 4, 4, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Unorm8x4},
    [KILN_VERTEX_UINT16X2] = {"Uint16x2", 4, 2, KILN_WGSL_SCALAR_U32, WGPUVertexFormat_Uint16x2},
    [KILN_VERTEX_UINT16X4] = {"Uint16x4", 8, 4, KILN_WGSL_SCALAR_U32, WGPUVertexFormat_Uint16x4},
    [KILN_VERTEX_UNORM16X2] = {"Unorm16x2", 4, 2, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Unorm16x2},
    [KILN_VERTEX_UNORM16X4] = {"Unorm16x4", 8, 4, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Unorm16x4},
    [KILN_VERTEX_FLOAT16X2] = {"Float16x2", 4, 2, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Float16x2},
    [KILN_VERTEX_FLOAT16X4] = {"Float16x4", 8, 4, KILN_WGSL_SCALAR_F32, WGPUVertexFormat_Float16x4},
};
_Static_assert(KILN_ARRAY_COUNT(FORMATS) == KILN_VERTEX_FORMAT_COUNT, "a kiln_vertex_format without a table row");

const program_vertex_format *program_vertex_format_of(kiln_vertex_format f) {
    return (unsigned)f < KILN_ARRAY_COUNT(FORMATS) ? &FORMATS[f] : NULL;
}

bool program_vertex_format_find(const char *name, kiln_vertex_format *out) {
    for (uint32_t i = 0; name && i < KILN_ARRAY_COUNT(FORMATS); i++)
        if (strcmp(name, FORMATS[i].name) == 0) {
            *out = (kiln_vertex_format)i;
            return true;
        }
    return false;
}

uint32_t kiln_vertex_format_bytes(kiln_vertex_format f) {
    const program_vertex_format *row = program_vertex_format_of(f);
    return row ? row->bytes : 0;
}

const char *kiln_vertex_format_name(kiln_vertex_format f) {
    const program_vertex_format *row = program_vertex_format_of(f);
    return row ? row->name : "?";
}

uint32_t kiln_geometry_layout_stride(const kiln_geometry_layout *layout) {
    uint32_t stride = 0;
    uint32_t n = layout && layout->attribute_count <= KILN_PROGRAM_MAX_ATTRIBUTES ? layout->attribute_count : 0;
    for (uint32_t i = 0; i < n; i++) stride += kiln_vertex_format_bytes(layout->attributes[i].format);
    return stride;
}

bool kiln_geometry_layout_equal(const kiln_geometry_layout *a, const kiln_geometry_layout *b) {
    if (!a || !b || a->attribute_count != b->attribute_count || a->attribute_count > KILN_PROGRAM_MAX_ATTRIBUTES)
        return false;
    for (uint32_t i = 0; i < a->attribute_count; i++)
        if (a->attributes[i].location != b->attributes[i].location ||
            a->attributes[i].format != b->attributes[i].format)
            return false;
    return true;
}

const char *program_layout_text(const kiln_geometry_layout *layout, char *buf, size_t size) {
    size_t at = 0;
    buf[0] = '\0';
    uint32_t n = layout->attribute_count <= KILN_PROGRAM_MAX_ATTRIBUTES ? layout->attribute_count : 0;
    at += (size_t)kiln_utf8_format(buf, size, "[");
    for (uint32_t i = 0; i < n && at < size; i++)
        at += (size_t)kiln_utf8_format(buf + at, size - at, "%s%u %s", i ? ", " : "", layout->attributes[i].location,
                                       kiln_vertex_format_name(layout->attributes[i].format));
    if (at < size) kiln_utf8_format(buf + at, size - at, "]");
    return buf;
}

/* ---- validation --------------------------------------------------------------------------------- */

kiln_geometry_class program_layout_check(const kiln_geometry_layout *layout, kiln_geometry_error *err) {
    if (!layout || layout->attribute_count == 0)
        return REFUSE_CLASS(err, KILN_GEOMETRY_EMPTY_LAYOUT, "layout: declares no attribute");
    if (layout->attribute_count > KILN_PROGRAM_MAX_ATTRIBUTES)
        return REFUSE_CLASS(err, KILN_GEOMETRY_LAYOUT_TOO_LONG, "layout: %u attributes; a layout declares at most %d",
                            layout->attribute_count, KILN_PROGRAM_MAX_ATTRIBUTES);
    for (uint32_t i = 0; i < layout->attribute_count; i++)
        if (!program_vertex_format_of(layout->attributes[i].format))
            return REFUSE_CLASS(err, KILN_GEOMETRY_UNKNOWN_FORMAT, "layout[%u]: format %d is not a kiln_vertex_format",
                                i, (int)layout->attributes[i].format);
    for (uint32_t i = 0; i < layout->attribute_count; i++)
        if (layout->attributes[i].location > KILN_PROGRAM_MAX_LOCATION)
            return REFUSE_CLASS(err, KILN_GEOMETRY_BAD_LOCATION,
                                "layout[%u]: location %u is past the last location (%d)", i,
                                layout->attributes[i].location, KILN_PROGRAM_MAX_LOCATION);
    for (uint32_t i = 0; i < layout->attribute_count; i++)
        for (uint32_t j = 0; j < i; j++)
            if (layout->attributes[i].location == layout->attributes[j].location)
                return REFUSE_CLASS(err, KILN_GEOMETRY_DUPLICATE_LOCATION,
                                    "layout[%u]: location %u is declared already by layout[%u]", i,
                                    layout->attributes[i].location, j);
    if (err) *err = (kiln_geometry_error){0};
    return KILN_GEOMETRY_OK;
}

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

kiln_geometry_class kiln_geometry_validate(const kiln_geometry_layout *layout, const kiln_geometry_desc *desc,
                                           kiln_geometry_error *err) {
    kiln_geometry_class cls = program_layout_check(layout, err);
    if (cls != KILN_GEOMETRY_OK) return cls;
    if (!desc) return REFUSE_CLASS(err, KILN_GEOMETRY_VERTEX_BYTES, "vertices: no geometry given");
    size_t vertices = desc->vertices ? desc->vertices_size : 0;
    size_t indices = desc->indices ? desc->indices_size : 0;
    if (vertices > KILN_GEOMETRY_MAX_BYTES)
        return REFUSE_CLASS(err, KILN_GEOMETRY_TOO_LARGE, "vertices: %zu bytes; a geometry holds at most %u", vertices,
                            KILN_GEOMETRY_MAX_BYTES);
    if (indices > KILN_GEOMETRY_MAX_BYTES)
        return REFUSE_CLASS(err, KILN_GEOMETRY_TOO_LARGE, "indices: %zu bytes; a geometry holds at most %u", indices,
                            KILN_GEOMETRY_MAX_BYTES);
    uint32_t stride = kiln_geometry_layout_stride(layout);
    if (vertices == 0 || vertices % stride)
        return REFUSE_CLASS(err, KILN_GEOMETRY_VERTEX_BYTES,
                            "vertices: %zu bytes is not a whole, non-zero number of %u-byte vertices", vertices,
                            stride);
    if (indices % 4)
        return REFUSE_CLASS(err, KILN_GEOMETRY_INDEX_BYTES, "indices: %zu bytes is not a whole number of u32 indices",
                            indices);
    size_t index_count = indices / 4;
    if (index_count == 0 || index_count % 3)
        return REFUSE_CLASS(err, KILN_GEOMETRY_INDEX_COUNT,
                            "indices: %zu indices is not a whole, non-zero number of triangles (3 per triangle)",
                            index_count);
    size_t vertex_count = vertices / stride;
    const uint8_t *bytes = desc->indices;
    for (size_t i = 0; i < index_count; i++) {
        uint32_t v = read_u32(bytes + 4 * i);
        if (v >= vertex_count)
            return REFUSE_CLASS(err, KILN_GEOMETRY_INDEX_RANGE,
                                "indices[%zu]: %u is past the last vertex (%zu vertices)", i, v, vertex_count);
    }
    if (err) *err = (kiln_geometry_error){0};
    return KILN_GEOMETRY_OK;
}
