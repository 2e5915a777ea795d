/* The renderer's enum names: one table each, round-tripping, refusing what it does not know, and
 * every name written in the render guide (the flags kiln-render documents come from it). */
#include <stddef.h>

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

/* The settings table's row for a field: the line that starts with "| `field` |". */
static const char *guide_row(const char *guide, const char *field, char *out, size_t size) {
    char start[64];
    snprintf(start, sizeof start, "| `%s` |", field);
    const char *row = strstr(guide, start);
    if (!row) return NULL;
    const char *end = strchr(row, '\n');
    snprintf(out, size, "%.*s", (int)(end ? end - row : (ptrdiff_t)strlen(row)), row);
    return out;
}

/* Each enum's names in its own row of the render guide's settings table. */
TEST(the_render_guide_names_every_one_in_its_row) {
    char *guide = NULL;
    size_t size = 0;
    kiln_error err = {0};
    CHECK_MSG(kiln_read_file(KILN_SOURCE_DIR "/docs/guides/render.md", &guide, &size, &err), "%s", err.message);
    char tonemap_row[1024], debug_row[1024], missing[512] = "";
    bool rows = guide_row(guide, "tonemapper", tonemap_row, sizeof tonemap_row) &&
                guide_row(guide, "debug", debug_row, sizeof debug_row);
    free(guide);
    CHECK_MSG(rows, "docs/guides/render.md has no settings rows for tonemapper and debug");
    for (int i = 0; i < KILN_TONEMAPPER_COUNT; i++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", kiln_tonemapper_name((kiln_tonemapper)i));
        if (!strstr(tonemap_row, quoted)) strncat(missing, quoted, sizeof missing - strlen(missing) - 1);
    }
    for (int i = 0; i < KILN_DEBUG_COUNT; i++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", kiln_debug_mode_name((kiln_debug_mode)i));
        if (!strstr(debug_row, quoted)) strncat(missing, quoted, sizeof missing - strlen(missing) - 1);
    }
    CHECK_MSG(missing[0] == '\0', "docs/guides/render.md's settings rows do not name %s", missing);
}

TEST(every_frame_timings_status_has_a_name) {
    CHECK(!strcmp(kiln_frame_timings_status_name(KILN_FRAME_TIMINGS_UNAVAILABLE), "unavailable"));
    CHECK(!strcmp(kiln_frame_timings_status_name(KILN_FRAME_TIMINGS_PENDING), "pending"));
    CHECK(!strcmp(kiln_frame_timings_status_name(KILN_FRAME_TIMINGS_READY), "ready"));
    CHECK(kiln_frame_timings_status_name((kiln_frame_timings_status)3) == NULL);
}

TEST_MAIN(T(every_tonemapper_and_debug_mode_round_trips_through_its_name), T(unknown_names_and_values_are_refused),
          T(the_render_guide_names_every_one_in_its_row), T(every_frame_timings_status_has_a_name))
