/* Procedural meshes: cube, uv sphere, plane. Right-handed, Y up, counter-clockwise seen from
 * outside, uvs in the glTF convention (v grows downwards in the image), so a texture appears
 * upright and unmirrored on the side facing the viewer. Tangents come from
 * kiln_mesh_data_compute_tangents like any other mesh's. */
#include <kiln/geometry/mesh_data.h>

#include <math.h>

/* Subdivision counts above this would not fit a mesh anyone wants on a GPU; it also keeps every
 * vertex and index count well inside uint32_t. */
#define PRIMITIVE_MAX_DIVISIONS 4096u

static bool size_ok(float size, const char *what, const char *name, kiln_error *err) {
    if (size > 0.0f && isfinite(size)) return true;
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: %s must be positive and finite, got %g", what, name,
                          (double)size);
}

static bool divisions_ok(uint32_t count, uint32_t least, const char *what, const char *name, kiln_error *err) {
    if (count >= least && count <= PRIMITIVE_MAX_DIVISIONS) return true;
    return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: %s is %u, must be %u to %u", what, name, count, least,
                          PRIMITIVE_MAX_DIVISIONS);
}

/* Two triangles for the quad a (top left), b (bottom left), c (bottom right), d (top right) as
 * seen from the front: both wind counter-clockwise. */
static uint32_t *emit_quad(uint32_t *out, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    out[0] = a, out[1] = b, out[2] = c;
    out[3] = a, out[4] = c, out[5] = d;
    return out + 6;
}

static bool finish(kiln_mesh_data *md, kiln_error *err) {
    if (kiln_mesh_data_compute_tangents(md, err)) return true;
    kiln_mesh_data_free(md);
    return false;
}

bool kiln_mesh_cube(kiln_mesh_data *md, float half_extent, kiln_error *err) {
    if (!size_ok(half_extent, "cube", "half_extent", err)) return false;
    /* Per face: the outward normal and the directions of +u (right) and -v (up) as seen from
     * outside; right x up = normal, so the corners in order bottom-left, bottom-right,
     * top-right, top-left wind counter-clockwise. */
    static const struct { kiln_vec3 normal, right, up; } faces[6] = {
        {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},  {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},   {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
    };
    static const float corner_u[4] = {0, 1, 1, 0}, corner_v[4] = {1, 1, 0, 0};
    if (!kiln_mesh_data_init(md, 24, 36, KILN_MESH_TANGENTS, err)) return false;
    uint32_t *idx = md->indices;
    for (uint32_t f = 0; f < 6; f++) {
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t v = f * 4 + k;
            float r = corner_u[k] * 2.0f - 1.0f, up = 1.0f - corner_v[k] * 2.0f;
            kiln_vec3 p = kiln_vec3_add(faces[f].normal,
                                        kiln_vec3_add(kiln_vec3_scale(faces[f].right, r), kiln_vec3_scale(faces[f].up, up)));
            md->positions[v] = kiln_vec3_scale(p, half_extent);
            md->normals[v] = faces[f].normal;
            md->uv0[v] = (kiln_vec2){corner_u[k], corner_v[k]};
        }
        /* corners: 0 bottom-left, 1 bottom-right, 2 top-right, 3 top-left */
        idx = emit_quad(idx, f * 4 + 3, f * 4 + 0, f * 4 + 1, f * 4 + 2);
    }
    return finish(md, err);
}

/* Vertex numbering of the sphere: the north pole row (one vertex per segment), then rings - 1
 * latitude rows of segments + 1 vertices (the seam column is duplicated so u can run 0 to 1),
 * then the south pole row. Each pole vertex serves one triangle, so it gets that triangle's u. */
typedef struct sphere_grid { uint32_t rings, segments; } sphere_grid;

static uint32_t sphere_vertex(sphere_grid g, uint32_t ring, uint32_t segment) {
    if (ring == 0) return segment;
    if (ring == g.rings) return g.segments + (g.rings - 1) * (g.segments + 1) + segment;
    return g.segments + (ring - 1) * (g.segments + 1) + segment;
}

bool kiln_mesh_uv_sphere(kiln_mesh_data *md, float radius, uint32_t rings, uint32_t segments, kiln_error *err) {
    if (!size_ok(radius, "uv_sphere", "radius", err) || !divisions_ok(rings, 2, "uv_sphere", "rings", err) ||
        !divisions_ok(segments, 3, "uv_sphere", "segments", err))
        return false;
    sphere_grid g = {rings, segments};
    uint32_t vertex_count = 2 * segments + (rings - 1) * (segments + 1);
    uint32_t index_count = 6 * segments * (rings - 1); /* the pole bands have one triangle per quad */
    if (!kiln_mesh_data_init(md, vertex_count, index_count, KILN_MESH_TANGENTS, err)) return false;
    for (uint32_t r = 0; r <= rings; r++) {
        bool pole = r == 0 || r == rings;
        float v = (float)r / (float)rings;
        float polar = v * KILN_PI; /* from +Y */
        for (uint32_t s = 0; s < (pole ? segments : segments + 1); s++) {
            float u = ((float)s + (pole ? 0.5f : 0.0f)) / (float)segments;
            float azimuth = u * 2.0f * KILN_PI;
            /* u = 0 at -Z, 0.5 at +Z, moving towards +X at +Z: seen from +Z the texture runs left to
             * right. */
            kiln_vec3 n = kiln_vec3_make(-sinf(polar) * sinf(azimuth), cosf(polar), -sinf(polar) * cosf(azimuth));
            uint32_t i = sphere_vertex(g, r, s);
            md->positions[i] = kiln_vec3_scale(n, radius);
            md->normals[i] = n;
            md->uv0[i] = (kiln_vec2){u, v};
        }
    }
    uint32_t *idx = md->indices;
    for (uint32_t r = 0; r < rings; r++) {
        for (uint32_t s = 0; s < segments; s++) {
            uint32_t a = sphere_vertex(g, r, s), b = sphere_vertex(g, r + 1, s);
            if (r == 0) {
                /* the pole a, then the two below it */
                idx[0] = a, idx[1] = b, idx[2] = b + 1;
                idx += 3;
            } else if (r == rings - 1) {
                /* the two above, the pole b between them */
                idx[0] = a, idx[1] = b, idx[2] = a + 1;
                idx += 3;
            } else {
                idx = emit_quad(idx, a, b, b + 1, a + 1);
            }
        }
    }
    return finish(md, err);
}

bool kiln_mesh_plane(kiln_mesh_data *md, float half_extent, uint32_t subdivisions, kiln_error *err) {
    if (!size_ok(half_extent, "plane", "half_extent", err) ||
        !divisions_ok(subdivisions, 1, "plane", "subdivisions", err))
        return false;
    uint32_t side = subdivisions + 1;
    if (!kiln_mesh_data_init(md, side * side, 6 * subdivisions * subdivisions, KILN_MESH_TANGENTS, err)) return false;
    /* Row j runs along +X at z = -h + 2h j / n; looking down from +Y with -Z at the top of the
     * screen, row 0 is the top edge of the texture. */
    for (uint32_t j = 0; j < side; j++) {
        for (uint32_t i = 0; i < side; i++) {
            float u = (float)i / (float)subdivisions, v = (float)j / (float)subdivisions;
            uint32_t k = j * side + i;
            md->positions[k] = kiln_vec3_make((u * 2.0f - 1.0f) * half_extent, 0.0f, (v * 2.0f - 1.0f) * half_extent);
            md->normals[k] = kiln_vec3_make(0.0f, 1.0f, 0.0f);
            md->uv0[k] = (kiln_vec2){u, v};
        }
    }
    uint32_t *idx = md->indices;
    for (uint32_t j = 0; j < subdivisions; j++)
        for (uint32_t i = 0; i < subdivisions; i++) {
            uint32_t a = j * side + i;
            idx = emit_quad(idx, a, a + side, a + side + 1, a + 1);
        }
    return finish(md, err);
}
