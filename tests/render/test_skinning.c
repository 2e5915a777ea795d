/* GPU skinning on lavapipe, read back from the image: a two-bone bar bends where its joint
 * matrices say (and the wireframe follows the bend), normals turn with their joint, a bent
 * plank's shadow follows the bent shape, and bad joint offsets are refused naming the instance
 * before anything of the frame is recorded. Every frame validation clean, nothing leaked.
 *
 * The bar: two quads 0.2 m wide facing +Z, y in [0, 1] on joint 0 and y in [1, 2] on joint 1.
 * The palette bends joint 1 by -90 degrees about Z around (0, 1, 0), so its quad lies along +X:
 * x in [0, 1], y in [0.9, 1.1]. The palette's first two matrices are zero, which would collapse
 * the bar if joint_offset (2) were not honoured. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "deform_scene.h"

#define W 96
#define H 96
#define QUARTER_TURN 1.57079632679f /* a quarter turn, radians */

/* Rotation by `radians` about `axis` through `pivot`. */
static kiln_mat4 turn_about(kiln_vec3 pivot, kiln_vec3 axis, float radians) {
    kiln_mat4 to = kiln_mat4_translation(pivot), back = kiln_mat4_translation((kiln_vec3){-pivot.x, -pivot.y, -pivot.z});
    return kiln_mat4_mul(to, kiln_mat4_mul(kiln_mat4_from_quat(kiln_quat_from_axis_angle(axis, radians)), back));
}

static uint32_t add_bar(deform_scene *s, kiln_error *err) {
    static const kiln_vec3 positions[8] = {
        {-0.1f, 0, 0}, {0.1f, 0, 0}, {0.1f, 1, 0}, {-0.1f, 1, 0},
        {-0.1f, 1, 0}, {0.1f, 1, 0}, {0.1f, 2, 0}, {-0.1f, 2, 0},
    };
    static const uint16_t joints[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    kiln_mesh_data md = {0};
    return deform_scene_add(s, "bar", &md, deform_quads(&md, positions, 2, (kiln_vec3){0, 0, 1}, joints, err), err);
}

/* The bar's palette at offset 2: joint 0 stays, joint 1 bends. */
static void bar_palette(kiln_mat4 joints[4]) {
    memset(joints, 0, 2 * sizeof *joints);
    joints[2] = kiln_mat4_identity();
    joints[3] = turn_about((kiln_vec3){0, 1, 0}, (kiln_vec3){0, 0, 1}, -QUARTER_TURN);
}

typedef struct bar_frame {
    kiln_image image;
    kiln_frame_stats stats;
} bar_frame;

/* The bar drawn at joint_offset `offset` (-1: the bind pose), with or without wireframe. */
static bool render_bar(deform_scene *s, uint32_t bar, int32_t offset, bool wireframe, bar_frame *out, kiln_error *err) {
    kiln_mat4 joints[4];
    bar_palette(joints);
    kiln_render_instance inst = {.mesh = bar, .material = s->red, .transform = kiln_mat4_identity(), .joint_offset = offset};
    s->scene.instances = &inst;
    s->scene.instance_count = 1;
    s->scene.joints = joints;
    s->scene.joint_count = 4;
    kiln_renderer_settings(s->h.r)->wireframe = wireframe;
    bool ok = renderer_fixture_render(&s->h, &s->scene, &out->image, err);
    out->stats = *kiln_renderer_stats(s->h.r);
    return ok;
}

TEST(a_two_bone_bar_bends_where_the_joint_matrices_say) {
    deform_scene s;
    kiln_error err = {0};
    bar_frame rest = {0}, bent = {0}, wired = {0};
    bool ok = deform_scene_open(&s, (kiln_render_settings){.debug = KILN_DEBUG_ALBEDO, .disable_shadows = true,
                                                           .disable_ao = true, .disable_bloom = true},
                                W, H, (kiln_vec3){0.5f, 1, 4}, (kiln_vec3){0.5f, 1, 0}, &err);
    uint32_t bar = ok ? add_bar(&s, &err) : KILN_INVALID_INDEX;
    ok = bar != KILN_INVALID_INDEX && render_bar(&s, bar, -1, false, &rest, &err) && render_bar(&s, bar, 2, false, &bent, &err) &&
         render_bar(&s, bar, 2, true, &wired, &err);
    if (!ok) fprintf(stderr, "bar: %s\n", err.message);
    struct { const char *where; kiln_vec3 p; bool rest, bent; } rows[] = {
        {"the lower bone", {0, 0.5f, 0}, true, true},
        {"the upper bone unbent", {0, 1.7f, 0}, true, false},
        {"the upper bone bent, near the joint", {0.3f, 1.0f, 0}, false, true},
        {"the upper bone bent, near its tip", {0.9f, 1.0f, 0}, false, true},
        {"beyond the bent tip", {1.2f, 1.0f, 0}, false, false},
    };
    bool rest_ok[5], bent_ok[5];
    for (int i = 0; i < 5 && ok; i++) {
        rest_ok[i] = deform_covered(&s, &rest.image, rows[i].p) == rows[i].rest;
        bent_ok[i] = deform_covered(&s, &bent.image, rows[i].p) == rows[i].bent;
    }
    /* The wireframe pulls the same skinned vertices: the bent quad's diagonal crosses its middle
     * line, and nothing is drawn where the unbent bone would be. */
    bool line_on_bent = false;
    for (float x = 0.15f; ok && x < 0.9f; x += 0.01f)
        line_on_bent |= deform_pixel(&s, &wired.image, (kiln_vec3){x, 1.0f, 0})[0] < 150;
    bool nothing_unbent = ok && !memcmp(deform_pixel(&s, &wired.image, (kiln_vec3){0, 1.7f, 0}),
                                        deform_pixel(&s, &bent.image, (kiln_vec3){0, 1.7f, 0}), 4);
    kiln_image_free(&rest.image);
    kiln_image_free(&bent.image);
    kiln_image_free(&wired.image);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK(ok);
    for (int i = 0; i < 5; i++) {
        CHECK_MSG(rest_ok[i], "bind pose: %s should%s be covered", rows[i].where, rows[i].rest ? "" : " not");
        CHECK_MSG(bent_ok[i], "bent: %s should%s be covered", rows[i].where, rows[i].bent ? "" : " not");
    }
    CHECK(line_on_bent);
    CHECK(nothing_unbent);
    CHECK_EQ_INT(bent.stats.draw_calls, 1);
    CHECK_EQ_INT(wired.stats.wireframe_draw_calls, 1);
}

/* A quad facing +Z on one joint turned a quarter about Y faces +X: the normals view shows +X. */
TEST(normals_turn_with_their_joint) {
    deform_scene s;
    kiln_error err = {0};
    kiln_image img = {0};
    bool ok = deform_scene_open(&s, (kiln_render_settings){.debug = KILN_DEBUG_NORMALS, .disable_shadows = true,
                                                           .disable_ao = true, .disable_bloom = true},
                                W, H, (kiln_vec3){3, 0, 0}, (kiln_vec3){0, 0, 0}, &err);
    static const kiln_vec3 positions[4] = {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {0.5f, 0.5f, 0}, {-0.5f, 0.5f, 0}};
    static const uint16_t joints[4] = {0, 0, 0, 0};
    kiln_mesh_data md = {0};
    uint32_t quad = ok ? deform_scene_add(&s, "quad", &md, deform_quads(&md, positions, 1, (kiln_vec3){0, 0, 1}, joints, &err), &err)
                       : KILN_INVALID_INDEX;
    kiln_mat4 turn = kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){0, 1, 0}, QUARTER_TURN));
    kiln_render_instance inst = {.mesh = quad, .material = s.red, .transform = kiln_mat4_identity(), .joint_offset = 0};
    s.scene.instances = &inst;
    s.scene.instance_count = 1;
    s.scene.joints = &turn;
    s.scene.joint_count = 1;
    ok = quad != KILN_INVALID_INDEX && renderer_fixture_render(&s.h, &s.scene, &img, &err);
    if (!ok) fprintf(stderr, "quad: %s\n", err.message);
    uint8_t px[4] = {0};
    if (ok) memcpy(px, deform_pixel(&s, &img, (kiln_vec3){0, 0, 0}), 4);
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK(ok);
    /* n * 0.5 + 0.5 of +X is (1, 0.5, 0.5); the unskinned +Z would be (0.5, 0.5, 1). */
    CHECK_MSG(px[0] > 240 && px[1] < 220 && px[2] < 220 && abs(px[1] - px[2]) < 4, "the normal reads (%u, %u, %u)", px[0],
              px[1], px[2]);
}

/* The plank: 2 m along X, 0.4 m deep, 1.5 m over an 8 m ground, x < 0 on joint 0 and x > 0 on
 * joint 1, under a sun along (0, -2, 1): a point at height y shadows the ground y / 2 further
 * along +Z, so the flat plank shades x in [-1, 1] at z in [0.55, 0.95]. Bent, joint 1 turns the
 * right half up about Z (around the plank's centre): it stands along x = 0, and the ground at
 * x = 0.5 is lit. The camera looks straight down from 6 m; nothing of the plank hides z = 0.75. */
TEST(a_bent_planks_shadow_follows_the_bent_shape) {
    deform_scene s;
    kiln_error err = {0};
    bool ok = deform_scene_open(&s, (kiln_render_settings){.cascade_resolution = 512, .disable_ao = true, .disable_bloom = true},
                                W, H, (kiln_vec3){0, 6, 0.75f}, (kiln_vec3){0, 0, 0.75f}, &err);
    kiln_material grey = kiln_material_default("grey");
    grey.base_color = (kiln_vec4){0.6f, 0.6f, 0.6f, 1};
    grey.metallic = 0.0f;
    grey.roughness = 1.0f;
    uint32_t ground_material = ok ? kiln_renderer_add_material(s.h.r, &grey, &err) : KILN_INVALID_INDEX;
    uint32_t ground = ground_material != KILN_INVALID_INDEX ? renderer_fixture_add_plane(&s.h, "ground", 4.0f, &err)
                                                            : KILN_INVALID_INDEX;
    static const kiln_vec3 positions[8] = {
        {-1, 0, 0.2f}, {0, 0, 0.2f}, {0, 0, -0.2f}, {-1, 0, -0.2f},
        {0, 0, 0.2f},  {1, 0, 0.2f}, {1, 0, -0.2f}, {0, 0, -0.2f},
    };
    static const uint16_t joints[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    kiln_mesh_data md = {0};
    uint32_t plank = ground != KILN_INVALID_INDEX
                         ? deform_scene_add(&s, "plank", &md, deform_quads(&md, positions, 2, (kiln_vec3){0, 1, 0}, joints, &err), &err)
                         : KILN_INVALID_INDEX;
    kiln_mat4 palette[2] = {kiln_mat4_identity(),
                            kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){0, 0, 1}, QUARTER_TURN))};
    kiln_render_instance inst[2] = {
        {.mesh = ground, .material = ground_material, .transform = kiln_mat4_identity(), .joint_offset = -1},
        {.mesh = plank, .material = s.red, .transform = kiln_mat4_translation((kiln_vec3){0, 1.5f, 0}), .joint_offset = -1},
    };
    kiln_light sun = kiln_light_sun((kiln_vec3){0, -2, 1}, (kiln_vec3){1, 1, 1}, 3.0f);
    s.scene.instances = inst;
    s.scene.instance_count = 2;
    s.scene.lights = &sun;
    s.scene.light_count = 1;
    s.scene.joints = palette;
    s.scene.joint_count = 2;
    kiln_image flat = {0}, bent = {0};
    ok = plank != KILN_INVALID_INDEX && renderer_fixture_render(&s.h, &s.scene, &flat, &err);
    inst[1].joint_offset = 0;
    ok = ok && renderer_fixture_render(&s.h, &s.scene, &bent, &err);
    if (!ok) fprintf(stderr, "plank: %s\n", err.message);
    kiln_frame_stats stats = *kiln_renderer_stats(s.h.r);
    int lit[2] = {0}, left[2] = {0}, right[2] = {0};
    const kiln_image *images[2] = {&flat, &bent};
    for (int i = 0; i < 2 && ok; i++) {
        lit[i] = deform_pixel(&s, images[i], (kiln_vec3){1.8f, 0, 0.75f})[1];
        left[i] = deform_pixel(&s, images[i], (kiln_vec3){-0.5f, 0, 0.75f})[1];
        right[i] = deform_pixel(&s, images[i], (kiln_vec3){0.5f, 0, 0.75f})[1];
    }
    kiln_image_free(&flat);
    kiln_image_free(&bent);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK(ok);
    CHECK_MSG(left[0] * 2 < lit[0] && right[0] * 2 < lit[0], "flat: the ground under both halves is shadowed (%d, %d of %d)",
              left[0], right[0], lit[0]);
    CHECK_MSG(left[1] * 2 < lit[1], "bent: the left half still shadows the ground (%d of %d)", left[1], lit[1]);
    CHECK_MSG(right[1] * 10 > lit[1] * 9, "bent: the ground under the raised half is lit (%d of %d)", right[1], lit[1]);
    CHECK(stats.shadow_draw_calls >= 2);
}

/* Each row renders a scene whose instance 1 is wrong; instance 0 is a plain bar in its bind
 * pose. The frame fails before the environment is baked or any instance is looked at. */
typedef struct bad_row {
    int32_t joint_offset;
    uint32_t joint_count;
    bool no_joints;
    bool morphed;               /* instance 1 is the morphed quad, with weight 1 below */
    float weight1;
    const char *message;
} bad_row;

static const bad_row BAD_ROWS[] = {
    {-2, 4, false, false, 0, "renderer: instance 1 has joint_offset -2; a skinned instance takes -1 (the bind pose) or an index into scene.joints"},
    {3, 4, false, false, 0, "renderer: instance 1: joint_offset 3 + the 2 joints of mesh 0 exceed scene.joint_count 4"},
    {0, 1, false, false, 0, "renderer: instance 1: joint_offset 0 + the 2 joints of mesh 0 exceed scene.joint_count 1"},
    {0, 0, false, false, 0, "renderer: instance 1: joint_offset 0 + the 2 joints of mesh 0 exceed scene.joint_count 0"},
    {0, 4, true, false, 0, "renderer: scene.joint_count is 4 but scene.joints is NULL"},
    {-1, 0, false, true, INFINITY, "renderer: instance 1: morph_weights[1] is inf, not a finite number"},
    {-1, 0, false, true, NAN, "renderer: instance 1: morph_weights[1] is nan, not a finite number"},
};

TEST(bad_joint_offsets_and_weights_are_refused_naming_the_instance) {
    deform_scene s;
    kiln_error err = {0};
    bool ok = deform_scene_open(&s, (kiln_render_settings){.debug = KILN_DEBUG_ALBEDO, .disable_shadows = true,
                                                           .disable_ao = true, .disable_bloom = true},
                                32, 32, (kiln_vec3){0.5f, 1, 4}, (kiln_vec3){0.5f, 1, 0}, &err);
    uint32_t bar = ok ? add_bar(&s, &err) : KILN_INVALID_INDEX;
    static const kiln_vec3 positions[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    kiln_mesh_data md = {0};
    bool built = bar != KILN_INVALID_INDEX && deform_quads(&md, positions, 1, (kiln_vec3){0, 0, 1}, NULL, &err) &&
                 kiln_mesh_data_add_morph_target(&md, &err) && kiln_mesh_data_add_morph_target(&md, &err);
    uint32_t quad = deform_scene_add(&s, "morphed quad", &md, built, &err);
    ok = quad != KILN_INVALID_INDEX;
    enum { ROWS = sizeof BAD_ROWS / sizeof BAD_ROWS[0] };
    char messages[ROWS][256] = {{0}};
    bool refused[ROWS] = {false}, untouched[ROWS] = {false};
    kiln_mat4 joints[4];
    bar_palette(joints);
    for (int i = 0; i < ROWS && ok; i++) {
        const bad_row *row = &BAD_ROWS[i];
        kiln_render_instance inst[2] = {
            {.mesh = bar, .material = s.red, .transform = kiln_mat4_identity(), .joint_offset = -1},
            {.mesh = row->morphed ? quad : bar, .material = s.red, .transform = kiln_mat4_identity(),
             .joint_offset = row->joint_offset, .morph_weights = {0.5f, row->weight1}},
        };
        s.scene.instances = inst;
        s.scene.instance_count = 2;
        s.scene.joints = row->no_joints ? NULL : joints;
        s.scene.joint_count = row->joint_count;
        kiln_error why = {0};
        refused[i] = !renderer_fixture_render(&s.h, &s.scene, NULL, &why);
        snprintf(messages[i], sizeof messages[i], "%s", why.message);
        const kiln_frame_stats *stats = kiln_renderer_stats(s.h.r);
        untouched[i] = stats->environment_bakes == 0 && stats->instances_submitted == 0;
    }
    /* The same scene with good offsets renders. */
    kiln_render_instance good = {.mesh = bar, .material = s.red, .transform = kiln_mat4_identity(), .joint_offset = 2};
    s.scene.instances = &good;
    s.scene.instance_count = 1;
    s.scene.joints = joints;
    s.scene.joint_count = 4;
    bool rendered = ok && renderer_fixture_render(&s.h, &s.scene, NULL, &err);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK_MSG(ok, "%s", err.message);
    for (int i = 0; i < ROWS; i++) {
        CHECK_MSG(refused[i], "row %d rendered", i);
        CHECK_MSG(!strcmp(messages[i], BAD_ROWS[i].message), "row %d: \"%s\", expected \"%s\"", i, messages[i],
                  BAD_ROWS[i].message);
        CHECK_MSG(untouched[i], "row %d: the frame baked or looked at instances before refusing", i);
    }
    CHECK_MSG(rendered, "%s", err.message);
}

TEST_MAIN(T(a_two_bone_bar_bends_where_the_joint_matrices_say), T(normals_turn_with_their_joint),
          T(a_bent_planks_shadow_follows_the_bent_shape), T(bad_joint_offsets_and_weights_are_refused_naming_the_instance))
