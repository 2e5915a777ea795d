/* The renderer's enum names: one table each, round-tripping, refusing what it does not know, and
 * every name written in the render guide (the flags kiln-render documents come from it). */
#include <kiln/render.h>

#include "test.h"

TEST(every_tonemapper_and_debug_mode_round_trips_through_its_name) {
    for (int i = 0; i < KILN_TONEMAPPER_COUNT; i++) {
        kiln_tonemapper t = KILN_TONEMAPPER_COUNT;
        const char *name = kiln_tonemapper_name((kiln_tonemapper)i);
        CHECK_MSG(name && kiln_tonemapper_from_name(name, &t) && (int)t == i, "tone mapper %d", i);
    }
    for (int i = 0; i < KILN_DEBUG_COUNT; i++) {
        kiln_debug_mode m = KILN_DEBUG_COUNT;
        const char *name = kiln_debug_mode_name((kiln_debug_mode)i);
        CHECK_MSG(name && kiln_debug_mode_from_name(name, &m) && (int)m == i, "debug mode %d", i);
    }
}

TEST(unknown_names_and_values_are_refused) {
    kiln_tonemapper t = KILN_TONEMAP_ACES;
    kiln_debug_mode m = KILN_DEBUG_ALBEDO;
    CHECK(!kiln_tonemapper_from_name("filmic", &t));
    CHECK(!kiln_tonemapper_from_name(NULL, &t));
    CHECK(!kiln_debug_mode_from_name("AGX", &m));
    CHECK_EQ_INT(t, KILN_TONEMAP_ACES); /* left alone */
    CHECK_EQ_INT(m, KILN_DEBUG_ALBEDO);
    CHECK(kiln_tonemapper_name(KILN_TONEMAPPER_COUNT) == NULL);
    CHECK(kiln_debug_mode_name((kiln_debug_mode)-1) == NULL);
}

TEST(the_render_guide_names_every_one) {
    char *guide = NULL;
    size_t size = 0;
    kiln_error err = {0};
    CHECK_MSG(kiln_read_file(KILN_SOURCE_DIR "/docs/guides/render.md", &guide, &size, &err), "%s", err.message);
    char missing[512] = "";
    for (int i = 0; i < KILN_TONEMAPPER_COUNT; i++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", kiln_tonemapper_name((kiln_tonemapper)i));
        if (!strstr(guide, quoted)) strncat(missing, quoted, sizeof missing - strlen(missing) - 1);
    }
    for (int i = 0; i < KILN_DEBUG_COUNT; i++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", kiln_debug_mode_name((kiln_debug_mode)i));
        if (!strstr(guide, quoted)) strncat(missing, quoted, sizeof missing - strlen(missing) - 1);
    }
    free(guide);
    CHECK_MSG(missing[0] == '\0', "docs/guides/render.md does not name %s", missing);
}

TEST_MAIN(T(every_tonemapper_and_debug_mode_round_trips_through_its_name), T(unknown_names_and_values_are_refused),
          T(the_render_guide_names_every_one))
