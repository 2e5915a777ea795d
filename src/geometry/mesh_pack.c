/* Packing kiln_mesh_data into the vertex streams of kiln/geometry/mesh_data.h. The byte layout is
 * written field by field with memcpy so it never depends on C struct padding. CPU only: the upload
 * of these bytes is mesh_upload.c. */
#include <kiln/geometry/mesh_data.h>

#include <string.h>

_Static_assert(KILN_VERTEX_OFFSET_COLOR + 8 == KILN_VERTEX_STRIDE, "the vertex stream ends with the colour");

/* A colour channel in [0, 1] as unorm16, rounded; out of range and NaN clamp (NaN to 0). */
static uint16_t unorm16(float c) {
    if (!(c > 0.0f)) return 0;
    if (c >= 1.0f) return 65535;
    return (uint16_t)(c * 65535.0f + 0.5f);
}
_Static_assert(KILN_SKIN_OFFSET_WEIGHTS + 16 == KILN_SKIN_STRIDE, "the skin stream ends with the weights");
_Static_assert(sizeof(kiln_vec3) == 12 && sizeof(kiln_vec4) == 16 && sizeof(kiln_vec2) == 8 &&
                   sizeof(kiln_joints4) == 8,
               "vector types are tightly packed floats");

size_t kiln_mesh_pack_vertices(const kiln_mesh_data *md, void *out, size_t out_size) {
    if (!md || md->vertex_count == 0 || !md->positions || !md->normals || !md->uv0 || !out) return 0;
    size_t size = (size_t)md->vertex_count * KILN_VERTEX_STRIDE;
    if (out_size < size) return 0;
    /* Defaults for absent streams: a tangent along +X with right-handed bitangent (harmless under
     * a flat normal map), and uv1 repeating uv0 so a material that reads uv1 still lines up. */
    const kiln_vec4 default_tangent = {1.0f, 0.0f, 0.0f, 1.0f};
    uint8_t *p = out;
    for (uint32_t v = 0; v < md->vertex_count; v++, p += KILN_VERTEX_STRIDE) {
        memcpy(p + KILN_VERTEX_OFFSET_POSITION, &md->positions[v], 12);
        memcpy(p + KILN_VERTEX_OFFSET_NORMAL, &md->normals[v], 12);
        memcpy(p + KILN_VERTEX_OFFSET_TANGENT, md->tangents ? &md->tangents[v] : &default_tangent, 16);
        memcpy(p + KILN_VERTEX_OFFSET_UV0, &md->uv0[v], 8);
        memcpy(p + KILN_VERTEX_OFFSET_UV1, md->uv1 ? &md->uv1[v] : &md->uv0[v], 8);
        /* unorm16 rather than unorm8: COLOR_0 is linear, where 8 bits band in the darks. */
        kiln_vec4 c = md->colors ? md->colors[v] : (kiln_vec4){1, 1, 1, 1};
        const uint16_t color[4] = {unorm16(c.x), unorm16(c.y), unorm16(c.z), unorm16(c.w)};
        memcpy(p + KILN_VERTEX_OFFSET_COLOR, color, 8);
    }
    return size;
}

size_t kiln_mesh_pack_skin(const kiln_mesh_data *md, void *out, size_t out_size) {
    if (!kiln_mesh_data_has_skin(md) || !out) return 0;
    size_t size = (size_t)md->vertex_count * KILN_SKIN_STRIDE;
    if (out_size < size) return 0;
    uint8_t *p = out;
    for (uint32_t v = 0; v < md->vertex_count; v++, p += KILN_SKIN_STRIDE) {
        memcpy(p + KILN_SKIN_OFFSET_JOINTS, md->joints[v].j, 8);
        memcpy(p + KILN_SKIN_OFFSET_WEIGHTS, &md->weights[v], 16);
    }
    return size;
}

size_t kiln_mesh_pack_morph_deltas(const kiln_mesh_data *md, void *out, size_t out_size) {
    if (!md || md->vertex_count == 0 || md->morph_target_count == 0 ||
        md->morph_target_count > KILN_MAX_MORPH_TARGETS || !out)
        return 0;
    uint32_t targets = md->morph_target_count;
    size_t size = (size_t)md->vertex_count * targets * KILN_MORPH_DELTA_STRIDE;
    if (out_size < size) return 0;
    /* Vertex-major: one vertex's deltas for every target are adjacent, which is the order the
     * vertex shader reads them in. */
    uint8_t *p = out;
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        for (uint32_t t = 0; t < targets; t++, p += KILN_MORPH_DELTA_STRIDE) {
            const kiln_morph_target *mt = &md->morph_targets[t];
            kiln_vec3 dp = mt->position_deltas ? mt->position_deltas[v] : (kiln_vec3){0};
            kiln_vec3 dn = mt->normal_deltas ? mt->normal_deltas[v] : (kiln_vec3){0};
            kiln_vec3 dt = mt->tangent_deltas ? mt->tangent_deltas[v] : (kiln_vec3){0};
            const float row[12] = {dp.x, dp.y, dp.z, 0.0f, dn.x, dn.y, dn.z, 0.0f, dt.x, dt.y, dt.z, 0.0f};
            _Static_assert(sizeof row == KILN_MORPH_DELTA_STRIDE, "one target's deltas of one vertex");
            memcpy(p, row, sizeof row);
        }
    }
    return size;
}
