/* Debug lines land on the expected pixels, and the vertex buffer stops growing in steady state. */
#include "gfx_fixture.h"

#define SIZE 64

/* NDC coordinate of the centre of pixel column / row i (lines through pixel centres rasterise
 * deterministically under the diamond-exit rule). */
static float ndc_x(int i) { return ((float)i + 0.5f) / SIZE * 2.0f - 1.0f; }
static float ndc_y(int i) { return 1.0f - ((float)i + 0.5f) / SIZE * 2.0f; }

static bool draw_frame(gfx_fixture *f, kiln_debug_draw *dd, kiln_texture_view view, kiln_error *err) {
    kiln_encoder enc;
    kiln_render_pass pass;
    kiln_color_attachment c = kiln_color_cleared(kiln_resources_texture_view_raw(f->res, view, NULL), 0, 0, 0, 1);
    if (!kiln_debug_draw_upload(dd, kiln_mat4_identity(), err)) return false;
    if (!kiln_encoder_begin(&enc, f->res, "debug lines", err)) return false;
    if (!kiln_encoder_begin_render_pass(&enc, "lines", &c, 1, NULL, &pass, err)) return false;
    bool ok = kiln_debug_draw_flush(dd, &pass, err);
    kiln_render_pass_end(&pass);
    return ok && kiln_encoder_finish_and_submit(&enc, err);
}

TEST(lines_land_on_the_expected_pixels_and_growth_stops) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_debug_draw *dd = kiln_debug_draw_create(f.res, WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_Undefined, &err);
    CHECK_MSG(dd, "%s", err.message);
    kiln_texture target = kiln_resources_create_texture(f.res, &(kiln_texture_desc){.width = SIZE, .height = SIZE,
        .format = WGPUTextureFormat_RGBA8Unorm, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    kiln_texture_view view = kiln_resources_create_texture_view(f.res, target, NULL, &err);

    kiln_color8 red = {255, 0, 0, 255}, green = {0, 255, 0, 255};
    kiln_debug_draw_line(dd, (kiln_vec3){-1.0f, ndc_y(20), 0}, (kiln_vec3){1.0f, ndc_y(20), 0}, red);
    kiln_debug_draw_line(dd, (kiln_vec3){ndc_x(40), -1.0f, 0}, (kiln_vec3){ndc_x(40), 1.0f, 0}, green);
    CHECK_EQ_INT(kiln_debug_draw_vertex_count(dd), 4);
    CHECK_MSG(draw_frame(&f, dd, view, &err), "%s", err.message);
    CHECK_EQ_INT(kiln_debug_draw_vertex_count(dd), 0); /* flush cleared the list */

    kiln_image img;
    CHECK_MSG(kiln_resources_read_texture(f.res, kiln_resources_texture_raw(f.res, target, NULL), &img, &err), "%s", err.message);
    const uint8_t *px = img.pixels;
    int red_on_row = 0, green_on_column = 0, lit_elsewhere = 0;
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            const uint8_t *p = px + (y * SIZE + x) * 4;
            bool lit = p[0] || p[1] || p[2];
            if (y == 20 && x != 40) red_on_row += p[0] == 255 && p[1] == 0;
            else if (x == 40 && y != 20) green_on_column += p[1] == 255 && p[0] == 0;
            else if (x != 40 && y != 20) lit_elsewhere += lit;
        }
    kiln_image_free(&img);
    CHECK_EQ_INT(red_on_row, SIZE - 1);
    CHECK_EQ_INT(green_on_column, SIZE - 1);
    CHECK_EQ_INT(lit_elsewhere, 0);

    /* Steady state: the same amount of lines every frame never grows the buffer again. */
    for (int frame = 0; frame < 3; frame++) {
        for (int i = 0; i < 400; i++) kiln_debug_draw_line(dd, (kiln_vec3){-1, 0, 0}, (kiln_vec3){1, 0, 0}, red);
        CHECK(draw_frame(&f, dd, view, &err));
    }
    uint32_t grows_after_warmup = kiln_debug_draw_grows(dd);
    for (int frame = 0; frame < 10; frame++) {
        kiln_debug_draw_grid(dd, 10, 0.1f, green);
        kiln_debug_draw_sphere(dd, (kiln_vec3){0, 0, 0}, 0.5f, red, 16);
        kiln_debug_draw_aabb(dd, (kiln_vec3){-0.5f, -0.5f, 0}, (kiln_vec3){0.5f, 0.5f, 0.5f}, red);
        kiln_debug_draw_axes(dd, (kiln_vec3){0, 0, 0}, 0.5f);
        for (int i = 0; i < 300; i++) kiln_debug_draw_line(dd, (kiln_vec3){-1, 0, 0}, (kiln_vec3){1, 0, 0}, red);
        CHECK(draw_frame(&f, dd, view, &err));
    }
    CHECK(kiln_gfx_wait_for_queue(f.gfx, &err));
    uint32_t grows_after_steady = kiln_debug_draw_grows(dd);
    kiln_debug_draw_destroy(dd);
    kiln_resources_destroy_texture_view(f.res, view, NULL);
    kiln_resources_destroy_texture(f.res, target, NULL);
    kiln_live_counts left = kiln_resources_live_counts(f.res);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(grows_after_warmup <= 1);
    CHECK_EQ_INT(grows_after_steady, grows_after_warmup);
    CHECK_EQ_INT(kiln_live_counts_total(&left), 0); /* destroy released everything it made */
}

TEST_MAIN(T(lines_land_on_the_expected_pixels_and_growth_stops))
