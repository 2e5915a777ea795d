/* Wireframe: edges drawn where the triangles' edges project, nothing in the middle of a face, and
 * nothing at all with the setting off. The scene is one square of two triangles (kiln_mesh_plane,
 * one subdivision) turned 30 degrees under a camera looking straight down, so no edge follows a
 * pixel row or column; the test projects the mesh's own corners with the camera's matrices and
 * classifies every pixel centre by its distance to the projected edges:
 *   on an edge   inside the square and within EDGE_BAND px of an edge, away from the corners;
 *   on a face    inside the square and at least FACE_CLEARANCE px from every edge, the diagonal
 *                included.
 * Each row of the table renders the scene with wireframe off, on, and off again, with one
 * renderer, and requires: every edge pixel dark, every face pixel byte-identical to the frame
 * without wireframe, the third frame byte-identical to the first, one wireframe draw only with it
 * on, the pass in the graph only with it on, and zero Dawn errors. A second test stands the square
 * in front of ground seen edge-on and requires that none of the ground's edges show through it. */
#include <math.h>

#include <kiln/render.h>

#include "renderer_fixture.h"

#define W 96
#define H 96
/* Pixel centres this close to an edge's line are drawn at least half covered by a 1 px line. */
#define EDGE_BAND 0.45f
/* Beyond a line's half width and its one-pixel ramp, with a margin. */
#define FACE_CLEARANCE 2.5f

typedef struct wire_row {
    const char *name;
    kiln_render_settings settings;
    /* An edge pixel's red channel is at most this share of the same pixel without wireframe. */
    float edge_ratio;
    /* Checks the square's outline too, not only the diagonal: with the albedo view the sky is
     * black, so an outline pixel (partly sky under MSAA) still holds only the square's red. */
    bool outline;
} wire_row;

typedef struct projected_square {
    float x[4], y[4];       /* the corners in pixels */
    uint32_t indices[6];    /* two triangles */
} projected_square;

typedef struct wire_scene {
    renderer_fixture h;
    kiln_render_instance instances[2]; /* the square, and in the occlusion test the ground */
    kiln_render_scene scene;
    projected_square p;
} wire_scene;

/* The square's corners through the camera's view-projection, to pixels (y down). */
static void project_square(wire_scene *s, const kiln_mesh_data *md) {
    kiln_camera camera = s->scene.camera;
    kiln_camera_set_viewport(&camera, W, H);
    kiln_mat4 clip_from_model = kiln_mat4_mul(kiln_camera_view_projection(&camera), s->instances[0].transform);
    for (uint32_t i = 0; i < 4; i++) {
        kiln_vec3 q = md->positions[i];
        kiln_vec4 c = kiln_mat4_mul_vec4(clip_from_model, (kiln_vec4){q.x, q.y, q.z, 1.0f});
        s->p.x[i] = (c.x / c.w * 0.5f + 0.5f) * W;
        s->p.y[i] = (0.5f - c.y / c.w * 0.5f) * H;
    }
    memcpy(s->p.indices, md->indices, sizeof s->p.indices);
}

/* The square of two triangles (white) at `square`, seen by `camera`; with `ground`, behind it a
 * finely divided plane of 2.5 m at y 0 around z -3, which the occlusion test hides. */
static bool wire_scene_open(wire_scene *s, const kiln_render_settings *settings, kiln_mat4 square, kiln_camera camera,
                            bool ground, kiln_error *err) {
    *s = (wire_scene){0};
    if (!renderer_fixture_open(&s->h, settings, WGPUTextureFormat_RGBA8UnormSrgb, W, H, err)) return false;
    kiln_mesh_data md = {0};
    if (!kiln_mesh_plane(&md, 1.0f, 1, err)) return false;
    uint32_t plane = kiln_renderer_add_mesh(s->h.r, "square", &md, false, err);
    kiln_material white = kiln_material_default("white");
    white.base_color = (kiln_vec4){1, 1, 1, 1};
    white.metallic = 0.0f;
    uint32_t material = kiln_renderer_add_material(s->h.r, &white, err);
    bool ok = plane != KILN_INVALID_INDEX && material != KILN_INVALID_INDEX && md.vertex_count == 4 &&
              md.index_count == 6;
    s->instances[0] = (kiln_render_instance){.mesh = plane, .material = material, .transform = square};
    s->scene = (kiln_render_scene){.camera = camera, .instances = s->instances, .instance_count = 1};
    if (ok) project_square(s, &md);
    kiln_mesh_data_free(&md);
    if (ok && ground) {
        ok = kiln_mesh_plane(&md, 2.5f, 16, err);
        uint32_t mesh = ok ? kiln_renderer_add_mesh(s->h.r, "ground", &md, false, err) : KILN_INVALID_INDEX;
        kiln_mesh_data_free(&md);
        s->instances[1] = (kiln_render_instance){.mesh = mesh, .material = material,
                                                 .transform = kiln_mat4_translation((kiln_vec3){0, 0, -3})};
        s->scene.instance_count = 2;
        ok = mesh != KILN_INVALID_INDEX;
    }
    return ok;
}

/* Distance from (px, py) to the segment a-b's line, and where along the segment it projects (0 at
 * a, 1 at b). */
static float line_distance(float px, float py, float ax, float ay, float bx, float by, float *along) {
    float dx = bx - ax, dy = by - ay, len = sqrtf(dx * dx + dy * dy);
    *along = ((px - ax) * dx + (py - ay) * dy) / (len * len);
    return fabsf((px - ax) * dy - (py - ay) * dx) / len;
}

/* Twice the signed area of (a, b, p): its sign says the side of a-b that p is on. */
static float side(float ax, float ay, float bx, float by, float px, float py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

static bool in_triangle(const projected_square *p, uint32_t t, float px, float py) {
    const uint32_t *i = &p->indices[3 * t];
    float s0 = side(p->x[i[0]], p->y[i[0]], p->x[i[1]], p->y[i[1]], px, py);
    float s1 = side(p->x[i[1]], p->y[i[1]], p->x[i[2]], p->y[i[2]], px, py);
    float s2 = side(p->x[i[2]], p->y[i[2]], p->x[i[0]], p->y[i[0]], px, py);
    return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
}

static bool triangle_has_edge(const projected_square *p, uint32_t t, uint32_t a, uint32_t b) {
    for (uint32_t e = 0; e < 3; e++) {
        uint32_t c = p->indices[3 * t + e], d = p->indices[3 * t + (e + 1) % 3];
        if ((c == a && d == b) || (c == b && d == a)) return true;
    }
    return false;
}

typedef enum pixel_kind { PIXEL_OTHER, PIXEL_OUTLINE, PIXEL_DIAGONAL, PIXEL_FACE } pixel_kind;

static pixel_kind classify(const projected_square *p, uint32_t x, uint32_t y) {
    float px = (float)x + 0.5f, py = (float)y + 0.5f;
    if (!in_triangle(p, 0, px, py) && !in_triangle(p, 1, px, py)) return PIXEL_OTHER;
    float nearest = INFINITY;
    bool diagonal = false, outline = false;
    for (uint32_t t = 0; t < 2; t++)
        for (uint32_t e = 0; e < 3; e++) {
            uint32_t a = p->indices[3 * t + e], b = p->indices[3 * t + (e + 1) % 3];
            float along, d = line_distance(px, py, p->x[a], p->y[a], p->x[b], p->y[b], &along);
            if (d < nearest) nearest = d;
            if (d > EDGE_BAND || along < 0.05f || along > 0.95f) continue;
            /* The diagonal is the edge both triangles have. */
            if (triangle_has_edge(p, 0, a, b) && triangle_has_edge(p, 1, a, b)) diagonal = true;
            else outline = true;
        }
    if (diagonal) return PIXEL_DIAGONAL;
    if (outline) return PIXEL_OUTLINE;
    return nearest >= FACE_CLEARANCE ? PIXEL_FACE : PIXEL_OTHER;
}

static const uint8_t *pixel(const kiln_image *img, uint32_t x, uint32_t y) {
    return (const uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4;
}

typedef struct frame_facts {
    uint32_t wireframe_draws;
    bool pass_in_graph;
} frame_facts;

static bool render_frame(wire_scene *s, bool wireframe, kiln_image *out, frame_facts *facts, kiln_error *err) {
    kiln_renderer_settings(s->h.r)->wireframe = wireframe;
    if (!renderer_fixture_render(&s->h, &s->scene, out, err)) return false;
    static char dot[16384];
    kiln_renderer_graph_dot(s->h.r, dot, sizeof dot);
    facts->wireframe_draws = kiln_renderer_stats(s->h.r)->wireframe_draw_calls;
    facts->pass_in_graph = strstr(dot, "wireframe") != NULL;
    return true;
}

static const wire_row ROWS[] = {
    {"albedo, 1 sample", {.debug = KILN_DEBUG_ALBEDO}, 0.75f, true},
    {"albedo, msaa 4", {.debug = KILN_DEBUG_ALBEDO, .msaa = 4}, 0.75f, true},
    /* Lit, under the default tone curve; without bloom, which the lines' darkening would shift
     * by a level across the face. */
    {"lit, msaa 4", {.msaa = 4, .disable_bloom = true}, 0.8f, false},
    {"lit, msaa 4 and fxaa", {.msaa = 4, .fxaa = true, .disable_bloom = true}, 0.9f, false},
};

TEST(wireframe_draws_edges_where_the_triangle_edges_are_and_nothing_on_the_faces) {
    for (size_t row = 0; row < sizeof ROWS / sizeof ROWS[0]; row++) {
        const wire_row *w = &ROWS[row];
        wire_scene s;
        kiln_error err = {0};
        kiln_image off = {0}, on = {0}, off_again = {0};
        frame_facts f_off = {0}, f_on = {0}, f_again = {0};
        /* Turned 30 degrees under a camera looking straight down. */
        kiln_mat4 square = kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, 0.5236f));
        kiln_camera camera =
            kiln_camera_look_at((kiln_vec3){0, 3, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f);
        bool ok = wire_scene_open(&s, &w->settings, square, camera, false, &err) && render_frame(&s, false, &off, &f_off, &err) &&
                  render_frame(&s, true, &on, &f_on, &err) && render_frame(&s, false, &off_again, &f_again, &err);
        uint32_t counts[4] = {0}, dark[4] = {0}, face_changed = 0, off_dark_diagonal = 0;
        float worst_ratio = 0.0f;
        for (uint32_t y = 0; ok && y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                pixel_kind k = classify(&s.p, x, y);
                counts[k]++;
                const uint8_t *a = pixel(&off, x, y), *b = pixel(&on, x, y);
                if (k == PIXEL_FACE) {
                    face_changed += memcmp(a, b, 4) != 0;
                } else if (k == PIXEL_DIAGONAL || (k == PIXEL_OUTLINE && w->outline)) {
                    float ratio = a[0] ? (float)b[0] / (float)a[0] : 1.0f;
                    if (ratio > worst_ratio) worst_ratio = ratio;
                    dark[k] += ratio <= w->edge_ratio;
                    /* Without wireframe the diagonal is the face's colour: nothing marks it. */
                    if (k == PIXEL_DIAGONAL) {
                        const uint8_t *centre = pixel(&off, W / 2, H / 2);
                        off_dark_diagonal += abs((int)a[0] - (int)centre[0]) > 8;
                    }
                }
            }
        bool same_again = ok && memcmp(off.pixels, off_again.pixels, (size_t)W * H * 4) == 0;
        kiln_image_free(&off);
        kiln_image_free(&on);
        kiln_image_free(&off_again);
        uint64_t left = renderer_fixture_close(&s.h);
        printf("%s: diagonal %u of %u dark, outline %u of %u dark (checked: %s), worst edge ratio %.2f, face pixels %u "
               "(%u changed), wireframe draws off %u on %u\n",
               w->name, dark[PIXEL_DIAGONAL], counts[PIXEL_DIAGONAL], dark[PIXEL_OUTLINE], counts[PIXEL_OUTLINE],
               w->outline ? "yes" : "no", (double)worst_ratio, counts[PIXEL_FACE], face_changed, f_off.wireframe_draws,
               f_on.wireframe_draws);
        CHECK_MSG(ok, "%s: %s", w->name, err.message);
        CHECK_EQ_INT(left, 0);
        /* Enough of each kind that the checks below say something. */
        CHECK(counts[PIXEL_DIAGONAL] >= 60);
        CHECK(counts[PIXEL_OUTLINE] >= 80);
        CHECK(counts[PIXEL_FACE] >= 1500);
        CHECK_EQ_INT(dark[PIXEL_DIAGONAL], counts[PIXEL_DIAGONAL]);
        if (w->outline) CHECK_EQ_INT(dark[PIXEL_OUTLINE], counts[PIXEL_OUTLINE]);
        CHECK_EQ_INT(face_changed, 0);
        CHECK_EQ_INT(off_dark_diagonal, 0);
        CHECK(same_again);
        CHECK_EQ_INT(f_off.wireframe_draws, 0);
        CHECK_EQ_INT(f_on.wireframe_draws, 1);
        CHECK_EQ_INT(f_again.wireframe_draws, 0);
        CHECK(!f_off.pass_in_graph && f_on.pass_in_graph && !f_again.pass_in_graph);
    }
}

/* Edges hidden behind a surface stay hidden: the square stands upright 3 m from a camera 3 cm
 * over a finely divided ground that runs behind it, seen almost edge-on, whose triangles step in
 * depth by more per pixel than the gap to the square (a slope-scaled depth bias let their edges
 * through). Every face pixel of the square is the same with wireframe on and off. */
TEST(wireframe_shows_no_edge_through_a_surface_in_front) {
    static const kiln_render_settings settings[] = {{.debug = KILN_DEBUG_ALBEDO}, {.debug = KILN_DEBUG_ALBEDO, .msaa = 4}};
    for (size_t row = 0; row < sizeof settings / sizeof settings[0]; row++) {
        kiln_mat4 upright = kiln_mat4_mul(kiln_mat4_translation((kiln_vec3){0, 0, 1}),
                                          kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, 1.5708f)));
        kiln_camera camera =
            kiln_camera_look_at((kiln_vec3){0, 0.03f, 4}, (kiln_vec3){0, 0.03f, 0}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f);
        wire_scene s;
        kiln_error err = {0};
        kiln_image off = {0}, on = {0};
        frame_facts f_off = {0}, f_on = {0};
        bool ok = wire_scene_open(&s, &settings[row], upright, camera, true, &err) &&
                  render_frame(&s, false, &off, &f_off, &err) && render_frame(&s, true, &on, &f_on, &err);
        uint32_t faces = 0, changed = 0;
        for (uint32_t y = 0; ok && y < H; y++)
            for (uint32_t x = 0; x < W; x++)
                if (classify(&s.p, x, y) == PIXEL_FACE) {
                    faces++;
                    changed += memcmp(pixel(&off, x, y), pixel(&on, x, y), 4) != 0;
                }
        kiln_image_free(&off);
        kiln_image_free(&on);
        uint64_t left = renderer_fixture_close(&s.h);
        printf("msaa %u: square face pixels %u, changed %u, wireframe draws %u\n", settings[row].msaa ? 4 : 1, faces,
               changed, f_on.wireframe_draws);
        CHECK_MSG(ok, "%s", err.message);
        CHECK_EQ_INT(left, 0);
        CHECK(faces >= 1500);
        CHECK_EQ_INT(f_on.wireframe_draws, 2);
        CHECK_EQ_INT(changed, 0);
    }
}

TEST_MAIN(T(wireframe_draws_edges_where_the_triangle_edges_are_and_nothing_on_the_faces),
          T(wireframe_shows_no_edge_through_a_surface_in_front))
