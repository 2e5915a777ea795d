/* Error scopes: a scope catches what Dawn raises inside it, and a deferred scope is pushed only at
 * the first call through kiln that can raise a device error, where it catches what a scope pushed
 * when it was armed would have. */
#include "gfx_fixture.h"

/* A texture with one mip, and a view of its fourth: Dawn raises a validation error at the view. */
static kiln_texture one_mip_texture(gfx_fixture *f) {
    kiln_error err = {0};
    return kiln_resources_create_texture(f->res, &(kiln_texture_desc){.label = "one mip", .width = 4, .height = 4,
                                                                      .format = WGPUTextureFormat_RGBA8Unorm,
                                                                      .usage = WGPUTextureUsage_TextureBinding}, &err);
}

static kiln_texture_view view_past_its_mips(gfx_fixture *f, kiln_texture t) {
    kiln_error err = {0};
    return kiln_resources_create_texture_view(f->res, t, &(kiln_texture_view_desc){.label = "mip 3", .base_mip = 3},
                                              &err);
}

/* What a raw pop of the scope on top finds: Success when a scope was there. */
typedef struct raw_pop {
    WGPUPopErrorScopeStatus status;
} raw_pop;

static void on_raw_pop(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void *ud1,
                       void *ud2) {
    (void)type;
    (void)message;
    (void)ud2;
    ((raw_pop *)ud1)->status = status;
}

static WGPUPopErrorScopeStatus pop_raw(kiln_gfx *gfx) {
    raw_pop r = {0};
    WGPUFuture f = wgpuDevicePopErrorScope(gfx->device, (WGPUPopErrorScopeCallbackInfo){
                                                            .mode = WGPUCallbackMode_WaitAnyOnly,
                                                            .callback = on_raw_pop, .userdata1 = &r});
    kiln_gfx_await(gfx, f, KILN_GFX_DEFAULT_TIMEOUT_NS, "a raw pop", NULL);
    return r.status;
}

TEST(a_scope_catches_a_validation_error_with_its_message) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_texture t = one_mip_texture(&f);
    kiln_gfx_push_scope(f.gfx);
    kiln_texture_view v = view_past_its_mips(&f, t);
    kiln_gfx_scope_result scope;
    kiln_error err = {0};
    bool popped = kiln_gfx_pop_scope(f.gfx, &scope, &err);
    kiln_resources_destroy_texture_view(f.res, v, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);
    FIXTURE_CLOSE_CLEAN(f); /* caught, so not uncaptured */
    CHECK_MSG(popped, "%s", err.message);
    CHECK(scope.failed);
    CHECK_EQ_INT(scope.type, WGPUErrorType_Validation);
    CHECK_STR_CONTAINS(scope.message, "mip 3");
}

TEST(a_scope_that_catches_nothing_reports_nothing) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_gfx_push_scope(f.gfx);
    kiln_texture t = one_mip_texture(&f);
    kiln_gfx_scope_result scope;
    bool popped = kiln_gfx_pop_scope(f.gfx, &scope, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(popped);
    CHECK(!scope.failed);
    CHECK_EQ_INT(scope.message[0], '\0');
}

TEST(a_deferred_scope_catches_an_error_raised_after_it_was_armed) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_texture t = one_mip_texture(&f);
    kiln_gfx_defer_scope(f.gfx);
    kiln_texture_view v = view_past_its_mips(&f, t);
    kiln_gfx_scope_result scope;
    kiln_error err = {0};
    bool popped = kiln_gfx_pop_deferred_scope(f.gfx, &scope, &err);
    WGPUPopErrorScopeStatus left = pop_raw(f.gfx); /* nothing of it stays on the stack */
    kiln_resources_destroy_texture_view(f.res, v, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(popped, "%s", err.message);
    CHECK(scope.failed);
    CHECK_EQ_INT(scope.type, WGPUErrorType_Validation);
    CHECK_STR_CONTAINS(scope.message, "mip 3");
    CHECK_EQ_INT(left, WGPUPopErrorScopeStatus_Error);
}

TEST(a_deferred_scope_over_pass_commands_alone_pushes_nothing) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_texture t = kiln_resources_create_texture(
        f.res, &(kiln_texture_desc){.label = "target", .width = 4, .height = 4, .format = WGPUTextureFormat_RGBA8Unorm,
                                    .usage = WGPUTextureUsage_RenderAttachment}, &err);
    kiln_texture_view v = kiln_resources_create_texture_view(f.res, t, NULL, &err);
    kiln_encoder enc;
    bool begun = kiln_encoder_begin(&enc, f.res, "scopes", &err);
    kiln_gfx_defer_scope(f.gfx);
    kiln_color_attachment color = kiln_color_cleared(kiln_resources_texture_view_raw(f.res, v, NULL), 0, 0, 0, 1);
    kiln_render_pass rp;
    bool pass = begun && kiln_encoder_begin_render_pass(&enc, "pass", &color, 1, NULL, &rp, &err);
    if (pass) kiln_render_pass_end(&rp);
    WGPUPopErrorScopeStatus top = pop_raw(f.gfx); /* an empty stack: the deferred scope was not pushed */
    kiln_gfx_scope_result scope;
    bool popped = kiln_gfx_pop_deferred_scope(f.gfx, &scope, NULL);
    bool submitted = begun && kiln_encoder_finish_and_submit(&enc, &err);
    kiln_resources_destroy_texture_view(f.res, v, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_MSG(pass && submitted, "%s", err.message);
    CHECK_EQ_INT(top, WGPUPopErrorScopeStatus_Error);
    CHECK(popped);
    CHECK(!scope.failed);
}

TEST(a_scope_pushed_while_a_deferred_one_is_armed_nests_inside_it) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_texture t = one_mip_texture(&f);
    kiln_gfx_defer_scope(f.gfx);
    kiln_gfx_push_scope(f.gfx); /* pushes the deferred one first, under it */
    kiln_texture_view v = view_past_its_mips(&f, t);
    kiln_gfx_scope_result inner, outer;
    bool inner_popped = kiln_gfx_pop_scope(f.gfx, &inner, NULL);
    kiln_texture_view v2 = view_past_its_mips(&f, t); /* after the inner pop: the deferred one's */
    bool outer_popped = kiln_gfx_pop_deferred_scope(f.gfx, &outer, NULL);
    WGPUPopErrorScopeStatus left = pop_raw(f.gfx);
    kiln_resources_destroy_texture_view(f.res, v, NULL);
    kiln_resources_destroy_texture_view(f.res, v2, NULL);
    kiln_resources_destroy_texture(f.res, t, NULL);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK(inner_popped && outer_popped);
    CHECK(inner.failed);
    CHECK(outer.failed);
    CHECK_EQ_INT(left, WGPUPopErrorScopeStatus_Error);
}

TEST_MAIN(T(a_scope_catches_a_validation_error_with_its_message), T(a_scope_that_catches_nothing_reports_nothing),
          T(a_deferred_scope_catches_an_error_raised_after_it_was_armed),
          T(a_deferred_scope_over_pass_commands_alone_pushes_nothing),
          T(a_scope_pushed_while_a_deferred_one_is_armed_nests_inside_it))
