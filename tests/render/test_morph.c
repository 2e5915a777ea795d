/* Morph targets on lavapipe, read back through the albedo view: a target at weight 0, 0.5 and 1
 * moves the square by that share of its deltas, and the depth prepass moves with it; more
 * morphed instances than the 32 weight slots each keep their own weights in one frame; two
 * different morphed meshes draw in one frame with a group each, and a group no batch used is
 * released; morph and skin combine in glTF's order, morph first. Every frame validation clean,
 * nothing leaked. */
#include <stdio.h>
#include <string.h>

#include "deform_scene.h"
#include "render/renderer_internal.h"

#define QUARTER_TURN 1.57079632679f

static const kiln_render_settings ALBEDO = {.debug = KILN_DEBUG_ALBEDO, .disable_shadows = true, .disable_ao = true,
                                            .disable_bloom = true};

/* A square of half size `half` facing +Z around the origin, with one target moving every vertex
 * by `delta`; skinned to joint 0 when `skinned`. */
static uint32_t add_morphed_square(deform_scene *s, const char *label, float half, kiln_vec3 delta, bool skinned,
                                   kiln_error *err) {
    const kiln_vec3 positions[4] = {{-half, -half, 0}, {half, -half, 0}, {half, half, 0}, {-half, half, 0}};
    static const uint16_t joints[4] = {0, 0, 0, 0};
    kiln_mesh_data md = {0};
    bool built = deform_quads(&md, positions, 1, (kiln_vec3){0, 0, 1}, skinned ? joints : NULL, err);
    kiln_morph_target *t = built ? kiln_mesh_data_add_morph_target(&md, err) : NULL;
    for (uint32_t v = 0; t && v < 4; v++) t->position_deltas[v] = delta;
    return deform_scene_add(s, label, &md, t != NULL, err);
}

static bool is_green(const uint8_t *px) { return px[1] > 200 && px[0] < 40 && px[2] < 40; }

/* The square (half 0.2) moves by (0.5, 0, 0) at weight 1, in front of a green wall. Where the
 * square was before it moved, the wall shows: the prepass placed the square where the shading
 * pass did, or its depth would hide the wall there. */
TEST(a_morph_target_moves_the_vertices_by_its_weight) {
    deform_scene s;
    kiln_error err = {0};
    bool ok = deform_scene_open(&s, ALBEDO, 96, 96, (kiln_vec3){0.25f, 0, 3}, (kiln_vec3){0.25f, 0, 0}, &err);
    kiln_material green = kiln_material_default("green");
    green.base_color = (kiln_vec4){0, 1, 0, 1};
    uint32_t wall_material = ok ? kiln_renderer_add_material(s.h.r, &green, &err) : KILN_INVALID_INDEX;
    const kiln_vec3 wall_corners[4] = {{-3, -3, 0}, {3, -3, 0}, {3, 3, 0}, {-3, 3, 0}};
    kiln_mesh_data md = {0};
    uint32_t wall = wall_material != KILN_INVALID_INDEX
                        ? deform_scene_add(&s, "wall", &md, deform_quads(&md, wall_corners, 1, (kiln_vec3){0, 0, 1}, NULL, &err), &err)
                        : KILN_INVALID_INDEX;
    uint32_t square = wall != KILN_INVALID_INDEX ? add_morphed_square(&s, "square", 0.2f, (kiln_vec3){0.5f, 0, 0}, false, &err)
                                                 : KILN_INVALID_INDEX;
    ok = square != KILN_INVALID_INDEX;
    static const float weights[3] = {0.0f, 0.5f, 1.0f};
    bool centre[3], inside[3], outside[3], wall_at_rest = false;
    for (int i = 0; i < 3 && ok; i++) {
        kiln_render_instance inst[2] = {
            {.mesh = wall, .material = wall_material, .transform = kiln_mat4_translation((kiln_vec3){0, 0, -0.5f})},
            {.mesh = square, .material = s.red, .transform = kiln_mat4_identity(), .morph_weights = {weights[i]}},
        };
        s.scene.instances = inst;
        s.scene.instance_count = 2;
        kiln_image img = {0};
        ok = renderer_fixture_render(&s.h, &s.scene, &img, &err);
        float x = 0.5f * weights[i];
        centre[i] = ok && deform_covered(&s, &img, (kiln_vec3){x, 0, 0});
        inside[i] = ok && deform_covered(&s, &img, (kiln_vec3){x - 0.15f, 0, 0}) &&
                    deform_covered(&s, &img, (kiln_vec3){x + 0.15f, 0.15f, 0});
        outside[i] = ok && !deform_covered(&s, &img, (kiln_vec3){x - 0.27f, 0, 0}) &&
                     !deform_covered(&s, &img, (kiln_vec3){x + 0.27f, 0, 0});
        if (i == 2) wall_at_rest = ok && is_green(deform_pixel(&s, &img, (kiln_vec3){-0.1f, 0, -0.5f}));
        kiln_image_free(&img);
    }
    if (!ok) fprintf(stderr, "morph: %s\n", err.message);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK(ok);
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(centre[i] && inside[i], "weight %g: the square is not around x = %g", (double)weights[i],
                  (double)(0.5f * weights[i]));
        CHECK_MSG(outside[i], "weight %g: the square reaches beyond x = %g +- 0.27", (double)weights[i],
                  (double)(0.5f * weights[i]));
    }
    CHECK(wall_at_rest);
}

/* 40 small squares in a grid, 8 by 5, each lifted by 0, 0.15 or 0.3 m (weight 0, 0.5, 1 of a
 * 0.3 m target) in a pattern no two neighbours share: every square is where its own weight puts
 * it, not at either other height. 40 slots outgrow the first 32, so the weight buffer doubled
 * once, and the object group was built once; a second frame rebuilds nothing. */
#define GRID_W 8
#define GRID_H 5
#define GRID_N (GRID_W * GRID_H)

static kiln_vec3 grid_base(int i) {
    return (kiln_vec3){((float)(i % GRID_W) - 3.5f) * 0.6f, ((float)(i / GRID_W) - 2.0f) * 0.8f - 0.15f, 0};
}

static float grid_weight(int i) { return (float)((i * 5 + i / GRID_W) % 3) * 0.5f; }

TEST(more_morphed_instances_than_weight_slots_keep_their_own_weights) {
    deform_scene s;
    kiln_error err = {0};
    bool ok = deform_scene_open(&s, ALBEDO, 192, 160, (kiln_vec3){0, 0, 5.5f}, (kiln_vec3){0, 0, 0}, &err);
    uint32_t square = ok ? add_morphed_square(&s, "square", 0.06f, (kiln_vec3){0, 0.3f, 0}, false, &err) : KILN_INVALID_INDEX;
    ok = square != KILN_INVALID_INDEX;
    kiln_render_instance inst[GRID_N];
    for (int i = 0; i < GRID_N; i++)
        inst[i] = (kiln_render_instance){.mesh = square, .material = s.red, .transform = kiln_mat4_translation(grid_base(i)),
                                         .morph_weights = {grid_weight(i)}};
    s.scene.instances = inst;
    s.scene.instance_count = GRID_N;
    kiln_image img = {0};
    ok = ok && renderer_fixture_render(&s.h, &s.scene, &img, &err);
    kiln_frame_stats stats = *kiln_renderer_stats(s.h.r);
    uint32_t slot_capacity = s.h.r->deform.weight_slot_capacity;
    uint64_t builds_first = s.h.r->deform.object_group_builds;
    int misplaced = -1;
    for (int i = 0; i < GRID_N && ok && misplaced < 0; i++) {
        kiln_vec3 base = grid_base(i);
        for (int level = 0; level < 3; level++) {
            kiln_vec3 p = {base.x, base.y + 0.15f * (float)level, 0};
            bool here = level * 0.5f == grid_weight(i);
            if (deform_covered(&s, &img, p) != here) misplaced = i;
        }
    }
    kiln_image_free(&img);
    ok = ok && renderer_fixture_render(&s.h, &s.scene, NULL, &err);
    uint64_t builds_second = s.h.r->deform.object_group_builds;
    if (!ok) fprintf(stderr, "grid: %s\n", err.message);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK(ok);
    CHECK_MSG(misplaced < 0, "square %d is not where its weight %g puts it", misplaced,
              (double)(misplaced < 0 ? 0 : grid_weight(misplaced)));
    CHECK_EQ_INT(stats.draw_calls, GRID_N); /* a morphed instance is its own batch */
    CHECK_EQ_INT(slot_capacity, 64);
    CHECK_EQ_INT(builds_first, 1);
    CHECK_EQ_INT(builds_second, 1);
}

/* A square moving right and a smaller one moving up, each its own mesh, in one frame beside an
 * unmorphed one: both move, and each morphed mesh has its group. Drawn without the second for
 * two frames, its group is released after the first of them. */
TEST(two_different_morphed_meshes_draw_in_one_frame) {
    deform_scene s;
    kiln_error err = {0};
    bool ok = deform_scene_open(&s, ALBEDO, 128, 96, (kiln_vec3){0, 0.25f, 4}, (kiln_vec3){0, 0.25f, 0}, &err);
    uint32_t right = ok ? add_morphed_square(&s, "right", 0.2f, (kiln_vec3){0.5f, 0, 0}, false, &err) : KILN_INVALID_INDEX;
    uint32_t up = right != KILN_INVALID_INDEX ? add_morphed_square(&s, "up", 0.15f, (kiln_vec3){0, 0.5f, 0}, false, &err)
                                              : KILN_INVALID_INDEX;
    uint32_t still = up != KILN_INVALID_INDEX ? renderer_fixture_add_cube(&s.h, "still", 0.1f, &err) : KILN_INVALID_INDEX;
    ok = still != KILN_INVALID_INDEX;
    kiln_render_instance inst[3] = {
        {.mesh = right, .material = s.red, .transform = kiln_mat4_translation((kiln_vec3){-1.5f, 0, 0}), .morph_weights = {1}},
        {.mesh = up, .material = s.red, .transform = kiln_mat4_translation((kiln_vec3){1, 0, 0}), .morph_weights = {1}},
        {.mesh = still, .material = s.red, .transform = kiln_mat4_translation((kiln_vec3){0, -0.5f, 0})},
    };
    s.scene.instances = inst;
    s.scene.instance_count = 3;
    kiln_image img = {0};
    ok = ok && renderer_fixture_render(&s.h, &s.scene, &img, &err);
    uint32_t groups_both = s.h.r->deform.morph_group_count;
    bool moved_right = ok && deform_covered(&s, &img, (kiln_vec3){-1.0f, 0, 0}) && !deform_covered(&s, &img, (kiln_vec3){-1.5f, 0, 0});
    bool moved_up = ok && deform_covered(&s, &img, (kiln_vec3){1, 0.5f, 0}) && !deform_covered(&s, &img, (kiln_vec3){1, 0, 0});
    bool still_there = ok && deform_covered(&s, &img, (kiln_vec3){0, -0.5f, 0.1f});
    kiln_image_free(&img);
    s.scene.instance_count = 1; /* the right-moving square alone */
    ok = ok && renderer_fixture_render(&s.h, &s.scene, NULL, &err);
    uint32_t groups_after_one = s.h.r->deform.morph_group_count;
    ok = ok && renderer_fixture_render(&s.h, &s.scene, NULL, &err);
    uint32_t groups_after_two = s.h.r->deform.morph_group_count;
    if (!ok) fprintf(stderr, "two meshes: %s\n", err.message);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK(ok);
    CHECK(moved_right);
    CHECK(moved_up);
    CHECK(still_there);
    CHECK_EQ_INT(groups_both, 2);
    CHECK_EQ_INT(groups_after_one, 2); /* released at the start of the frame after the unused one */
    CHECK_EQ_INT(groups_after_two, 1);
}

/* A square of half 0.2 whose target moves it 0.5 along +X, skinned to one joint turning a
 * quarter about Z. Morph first, then skin (glTF): (x + 0.5, y) turns to (-y, x + 0.5), a square
 * around (0, 0.5). Skinned first it would sit around (0.5, 0). At weight 0 it turns in place. */
TEST(morph_and_skin_combine_morph_first) {
    deform_scene s;
    kiln_error err = {0};
    bool ok = deform_scene_open(&s, ALBEDO, 96, 96, (kiln_vec3){0.25f, 0.25f, 3}, (kiln_vec3){0.25f, 0.25f, 0}, &err);
    uint32_t square = ok ? add_morphed_square(&s, "square", 0.2f, (kiln_vec3){0.5f, 0, 0}, true, &err) : KILN_INVALID_INDEX;
    ok = square != KILN_INVALID_INDEX;
    kiln_mat4 turn = kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){0, 0, 1}, QUARTER_TURN));
    kiln_render_instance inst = {.mesh = square, .material = s.red, .transform = kiln_mat4_identity(), .joint_offset = 0,
                                 .morph_weights = {1}};
    s.scene.instances = &inst;
    s.scene.instance_count = 1;
    s.scene.joints = &turn;
    s.scene.joint_count = 1;
    kiln_image both = {0}, skin_only = {0};
    ok = ok && renderer_fixture_render(&s.h, &s.scene, &both, &err);
    inst.morph_weights[0] = 0;
    ok = ok && renderer_fixture_render(&s.h, &s.scene, &skin_only, &err);
    if (!ok) fprintf(stderr, "morph and skin: %s\n", err.message);
    bool morph_first = ok && deform_covered(&s, &both, (kiln_vec3){0, 0.5f, 0}) &&
                       deform_covered(&s, &both, (kiln_vec3){0.15f, 0.65f, 0}) &&
                       !deform_covered(&s, &both, (kiln_vec3){0.5f, 0, 0}) && !deform_covered(&s, &both, (kiln_vec3){0, 0, 0});
    bool in_place = ok && deform_covered(&s, &skin_only, (kiln_vec3){0, 0, 0}) &&
                    !deform_covered(&s, &skin_only, (kiln_vec3){0, 0.5f, 0});
    kiln_image_free(&both);
    kiln_image_free(&skin_only);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK(ok);
    CHECK(morph_first);
    CHECK(in_place);
}

/* Tangent deltas turn the tangent frame a normal map is read in: a square facing +Z with a
 * constant normal map leaning along the tangent shades with a normal leaning +X at weight 0; a
 * target turning the tangent to +Y leans it +Y at weight 1 (the normals view, n * 0.5 + 0.5). */
TEST(tangent_deltas_turn_the_normal_map_with_the_weight) {
    deform_scene s;
    kiln_error err = {0};
    kiln_render_settings normals = ALBEDO;
    normals.debug = KILN_DEBUG_NORMALS;
    bool ok = deform_scene_open(&s, normals, 64, 64, (kiln_vec3){0, 0, 3}, (kiln_vec3){0, 0, 0}, &err);
    /* Tangent-space normal (0.707, 0, 0.707): half way between the tangent and the normal. */
    static const uint8_t lean[4] = {218, 128, 218, 255};
    uint32_t map = ok ? kiln_texture_registry_add(kiln_renderer_texture_registry(s.h.r), &(kiln_texture_create_desc){
                            .format = KILN_FORMAT_RGBA8, .width = 1, .height = 1, .pixels = lean, .pixels_size = 4}, &err)
                      : 0;
    kiln_material m = kiln_material_default("leaning");
    m.textures[KILN_TEX_NORMAL] = map;
    uint32_t material = map ? kiln_renderer_add_material(s.h.r, &m, &err) : KILN_INVALID_INDEX;
    const kiln_vec3 corners[4] = {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {0.5f, 0.5f, 0}, {-0.5f, 0.5f, 0}};
    kiln_mesh_data md = {0};
    bool built = material != KILN_INVALID_INDEX && deform_quads(&md, corners, 1, (kiln_vec3){0, 0, 1}, NULL, &err);
    kiln_morph_target *t = built ? kiln_mesh_data_add_morph_target(&md, &err) : NULL;
    if (t && (t->tangent_deltas = calloc(4, sizeof(kiln_vec3))) != NULL)
        for (int v = 0; v < 4; v++) t->tangent_deltas[v] = (kiln_vec3){-1, 1, 0}; /* +X becomes +Y */
    uint32_t square = deform_scene_add(&s, "tangent square", &md, t && t->tangent_deltas, &err);
    ok = square != KILN_INVALID_INDEX;
    kiln_render_instance inst = {.mesh = square, .material = material, .transform = kiln_mat4_identity()};
    s.scene.instances = &inst;
    s.scene.instance_count = 1;
    uint8_t rest[4] = {0}, turned[4] = {0};
    kiln_image img = {0};
    if (ok && (ok = renderer_fixture_render(&s.h, &s.scene, &img, &err))) memcpy(rest, deform_pixel(&s, &img, (kiln_vec3){0, 0, 0}), 4);
    kiln_image_free(&img);
    inst.morph_weights[0] = 1.0f;
    if (ok && (ok = renderer_fixture_render(&s.h, &s.scene, &img, &err))) memcpy(turned, deform_pixel(&s, &img, (kiln_vec3){0, 0, 0}), 4);
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&s.h), 0);
    CHECK_MSG(ok, "%s", err.message);
    /* 0.5 + 0.5 * 0.707 = 0.854 along the leaning axis and z, 0.5 across it; the unorm target gets
     * them sRGB-encoded: 238 and 188. */
    CHECK_MSG(rest[0] > 228 && rest[1] > 178 && rest[1] < 198 && rest[2] > 228, "weight 0: %u %u %u", rest[0], rest[1],
              rest[2]);
    CHECK_MSG(turned[1] > 228 && turned[0] > 178 && turned[0] < 198 && turned[2] > 228, "weight 1: %u %u %u", turned[0],
              turned[1], turned[2]);
}

TEST_MAIN(T(a_morph_target_moves_the_vertices_by_its_weight), T(more_morphed_instances_than_weight_slots_keep_their_own_weights),
          T(two_different_morphed_meshes_draw_in_one_frame), T(morph_and_skin_combine_morph_first),
          T(tangent_deltas_turn_the_normal_map_with_the_weight))
