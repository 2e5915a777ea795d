/* Error scopes: a scope catches what Dawn raises inside it, with Dawn's message. */
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

TEST_MAIN(T(a_scope_catches_a_validation_error_with_its_message), T(a_scope_that_catches_nothing_reports_nothing))
