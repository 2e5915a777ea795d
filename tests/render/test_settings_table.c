/* The render settings table (kiln/render/settings_table.h): every field of kiln_render_settings
 * has a row, every row's default and range agree with kiln_render_settings_resolve, each
 * refusal of a value from text has its exact message, and the kiln-render and batch guides list
 * what the table holds. No GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/render.h>

#include "test.h"

/* A field's bytes in kiln_render_settings. */
typedef struct span {
    size_t offset, size;
} span;

static int compare_spans(const void *a, const void *b) {
    const span *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* The rows, the three fields no row sets as its own (shader_dir: a directory an embedder passes;
 * background_color: the background row's R,G,B; color_lut: a texture id, which the tools' --lut
 * makes from a .cube file) tile the struct: sorted, no two overlap, and
 * what lies between two is padding, smaller than the struct's alignment. A field added without
 * a row leaves a gap, or changes the size pinned below. */
TEST(every_field_of_the_settings_is_a_row_of_the_table) {
    uint32_t count = kiln_render_setting_count();
    span spans[64];
    CHECK(count + 3 <= 64);
    for (uint32_t i = 0; i < count; i++)
        spans[i] = (span){kiln_render_setting_at(i)->offset, kiln_render_setting_at(i)->size};
    spans[count] = (span){offsetof(kiln_render_settings, shader_dir), sizeof(const char *)};
    spans[count + 1] = (span){offsetof(kiln_render_settings, background_color), sizeof(kiln_vec3)};
    spans[count + 2] = (span){offsetof(kiln_render_settings, color_lut), sizeof(uint32_t)};
    qsort(spans, count + 3, sizeof spans[0], compare_spans);
    size_t end = 0;
    for (uint32_t i = 0; i < count + 3; i++) {
        CHECK_MSG(spans[i].offset >= end, "two rows share the bytes at offset %zu", spans[i].offset);
        CHECK_MSG(spans[i].offset - end < _Alignof(kiln_render_settings),
                  "the bytes %zu..%zu of kiln_render_settings are no row's field", end, spans[i].offset);
        end = spans[i].offset + spans[i].size;
    }
    CHECK_MSG(sizeof(kiln_render_settings) - end < _Alignof(kiln_render_settings),
              "the bytes from %zu of kiln_render_settings are no row's field", end);
    /* A new field in the padding after a bool passes the tiling: its size moves this pin, and
     * whoever moves it adds the row. */
    CHECK_MSG(sizeof(kiln_render_settings) == 144,
              "kiln_render_settings is %zu bytes: a field was added: give it a row in src/render/settings_table.c",
              sizeof(kiln_render_settings));
}

/* The field of `row` in *s, as a double. */
static double field_value(const kiln_render_setting *row, const kiln_render_settings *s) {
    const char *field = (const char *)s + row->offset;
    switch (row->type) {
    case KILN_SETTING_SWITCH: return *(const bool *)field;
    case KILN_SETTING_UINT: return *(const uint32_t *)field;
    case KILN_SETTING_FLOAT: return *(const float *)field;
    case KILN_SETTING_VEC3: return ((const kiln_vec3 *)field)->x; /* resolved alike in every component */
    default: return *(const int *)field;
    }
}

TEST(every_default_is_what_the_resolver_makes_of_zero) {
    kiln_render_settings resolved;
    kiln_error err = {0};
    CHECK_MSG(kiln_render_settings_resolve(&(kiln_render_settings){0}, &resolved, &err), "%s", err.message);
    for (uint32_t i = 0; i < kiln_render_setting_count(); i++) {
        const kiln_render_setting *row = kiln_render_setting_at(i);
        double got = field_value(row, &resolved);
        double want = row->type == KILN_SETTING_FLOAT || row->type == KILN_SETTING_VEC3 ? (float)row->default_value
                                                                                        : row->default_value;
        CHECK_MSG(got == want, "%s: the table's default is %g, the resolver's %g", row->key, row->default_value, got);
    }
}

/* Writes `value` into row's field of *s. */
static void put(const kiln_render_setting *row, kiln_render_settings *s, double value) {
    char *field = (char *)s + row->offset;
    if (row->type == KILN_SETTING_UINT) *(uint32_t *)field = (uint32_t)value;
    else if (row->type == KILN_SETTING_VEC3) *(kiln_vec3 *)field = (kiln_vec3){(float)value, (float)value, (float)value};
    else *(float *)field = (float)value;
}

/* The ends of every range the table accepts, and every choice, resolve. The atlas fields start
 * where either end of the other's range still divides (8192 texels of 16-texel tiles). */
TEST(the_resolver_accepts_both_ends_of_every_range_and_every_choice) {
    for (uint32_t i = 0; i < kiln_render_setting_count(); i++) {
        const kiln_render_setting *row = kiln_render_setting_at(i);
        if (row->type != KILN_SETTING_UINT && row->type != KILN_SETTING_FLOAT && row->type != KILN_SETTING_VEC3)
            continue;
        double ends[2] = {row->min_exclusive ? nextafterf((float)row->min, 1.0f) : row->min,
                          isinf(row->max) ? 1e30 : row->max};
        for (uint32_t k = 0; k < (row->choices ? row->choice_count : 2); k++) {
            kiln_render_settings s = {.atlas_size = 8192, .atlas_tile = 16}, out;
            double value = row->choices ? row->choices[k] : ends[k];
            put(row, &s, value);
            kiln_error err = {0};
            CHECK_MSG(kiln_render_settings_resolve(&s, &out, &err), "%s = %g: %s", row->key, value, err.message);
        }
    }
}

/* What the table refuses from text the resolver refuses in the struct: a number past either
 * end, infinity included. */
TEST(the_resolver_refuses_what_the_table_refuses) {
    for (uint32_t i = 0; i < kiln_render_setting_count(); i++) {
        const kiln_render_setting *row = kiln_render_setting_at(i);
        if (row->type != KILN_SETTING_FLOAT && row->type != KILN_SETTING_VEC3) continue;
        double past[2] = {row->min - 1.0, isinf(row->max) ? INFINITY : row->max + 1.0};
        for (int k = 0; k < 2; k++) {
            if (past[k] == 0.0) continue; /* zero means the default */
            kiln_render_settings s = {0}, out;
            put(row, &s, past[k]);
            kiln_error err = {0};
            CHECK_MSG(!kiln_render_settings_resolve(&s, &out, &err), "%s = %g resolved", row->key, past[k]);
        }
    }
}

TEST(each_flag_is_its_key_with_dashes_and_both_find_the_row) {
    for (uint32_t i = 0; i < kiln_render_setting_count(); i++) {
        const kiln_render_setting *row = kiln_render_setting_at(i);
        char flag[64] = "--";
        for (size_t c = 0; row->key[c] && c + 3 < sizeof flag; c++) flag[c + 2] = row->key[c] == '_' ? '-' : row->key[c];
        CHECK_MSG(!strcmp(row->flag, flag), "%s: flag %s, want %s", row->key, row->flag, flag);
        CHECK(kiln_render_setting_find(row->key) == row && kiln_render_setting_find(row->flag) == row);
        CHECK_MSG(row->doc && row->doc[0], "%s has no doc line", row->key);
    }
    CHECK(kiln_render_setting_find("ao-radius") == NULL);
    CHECK(kiln_render_setting_find("--ao_radius") == NULL);
    CHECK(kiln_render_setting_find("shader_dir") == NULL);
}

TEST(values_from_text_reach_their_fields) {
    kiln_render_settings s = {0};
    kiln_error err = {0};
    static const char *const values[][2] = {
        {"--tonemap", "aces"}, {"exposure", "2.5"},  {"--msaa", "4"},      {"no_bloom", "true"},
        {"no_ao", "false"},    {"debug", "normals"}, {"atlas_tile", "64"}, {"--background", "0.25,0.5,1"},
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        CHECK_MSG(kiln_render_setting_set(kiln_render_setting_find(values[i][0]), &s, values[i][1], NULL, &err), "%s",
                  err.message);
    CHECK_EQ_INT(s.tonemapper, KILN_TONEMAP_ACES);
    CHECK(s.exposure == 2.5f && s.msaa == 4 && s.disable_bloom && !s.disable_ao && s.atlas_tile == 64);
    CHECK_EQ_INT(s.debug, KILN_DEBUG_NORMALS);
    CHECK_EQ_INT(s.background, KILN_BACKGROUND_COLOR);
    CHECK(s.background_color.x == 0.25f && s.background_color.y == 0.5f && s.background_color.z == 1.0f);
    CHECK(kiln_render_setting_set(kiln_render_setting_find("background"), &s, "transparent", NULL, &err));
    CHECK_EQ_INT(s.background, KILN_BACKGROUND_TRANSPARENT);
}

/* One row per refusal: the setting as spelled (NULL: the key), the text, the exact message. */
TEST(each_bad_value_is_refused_with_its_exact_message_and_changes_nothing) {
    static const char *const rows[][4] = {
        {"ao_radius", "--ao-radius", "x", "--ao-radius: \"x\" is not a finite number"},
        {"ao_radius", NULL, "-1", "ao_radius: -1 is not in (0, inf)"},
        {"exposure", NULL, "0", "exposure: 0 is not in (0, inf)"},
        {"exposure", "--exposure", "inf", "--exposure: \"inf\" is not a finite number"},
        {"exposure", NULL, "1e39", "exposure: \"1e39\" is not a finite number"},
        {"exposure", NULL, "2x", "exposure: \"2x\" is not a finite number"},
        {"msaa", "--msaa", "2", "--msaa: 2 is not one of 1|4"},
        {"msaa", NULL, "-4", "msaa: \"-4\" is not a whole number"},
        {"cascade_resolution", NULL, "8", "cascade_resolution: 8 is not in [16, 8192]"},
        {"worker_threads", NULL, "65", "worker_threads: 65 is not in [0, 64]"},
        {"atlas_size", NULL, "99999999999999999999", "atlas_size: \"99999999999999999999\" is not a whole number"},
        {"tonemap", NULL, "sepia", "tonemap: \"sepia\" is not one of agx|aces|aces-hill|aces-hill-boost|pbr-neutral|none"},
        {"debug", "--debug", "wireframe", "--debug: \"wireframe\" is not one of none|normals|clusters|overdraw|albedo|"
                                          "cascades|ao|lod"},
        {"fxaa", NULL, "1", "fxaa: \"1\" is not true or false"},
        {"background", NULL, "clear", "background: \"clear\" is not sky, transparent or R,G,B in [0, 1]"},
        {"background", NULL, "255,255,255", "background: \"255,255,255\" is not sky, transparent or R,G,B in [0, 1]"},
        {"background", NULL, "0.5,0.5", "background: \"0.5,0.5\" is not sky, transparent or R,G,B in [0, 1]"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_render_settings s = {.exposure = 3.0f}, before = s;
        kiln_error err = {0};
        CHECK_MSG(!kiln_render_setting_set(kiln_render_setting_find(rows[i][0]), &s, rows[i][2], rows[i][1], &err),
                  "%s %s was accepted", rows[i][0], rows[i][2]);
        CHECK_MSG(!strcmp(err.message, rows[i][3]), "got \"%s\", want \"%s\"", err.message, rows[i][3]);
        CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
        CHECK_MSG(!memcmp(&s, &before, sizeof s), "%s %s changed the settings", rows[i][0], rows[i][2]);
    }
}

/* The text of `path` under the source tree, malloc'd; NULL with the reason printed. */
static char *read_doc(const char *path) {
    char full[1024], *text = NULL;
    size_t size = 0;
    kiln_error err = {0};
    snprintf(full, sizeof full, "%s/%s", KILN_SOURCE_DIR, path);
    if (!kiln_read_file(full, &text, &size, &err)) fprintf(stderr, "%s\n", err.message);
    return text;
}

/* The kiln-render guide's "Render settings" table and the settings table list the same flags:
 * each row's flag starts a line of the guide's table, and each line's flag is a row. */
TEST(the_kiln_render_guide_lists_every_settings_flag_and_no_other) {
    char *guide = read_doc("docs/guides/kiln_render.md");
    CHECK(guide);
    char *section = strstr(guide, "\n## Render settings\n"), *end = section ? strstr(section + 1, "\n## ") : NULL;
    CHECK_MSG(section && end, "docs/guides/kiln_render.md has no \"Render settings\" section");
    *end = '\0';
    char missing[512] = "", unknown[512] = "";
    for (uint32_t i = 0; i < kiln_render_setting_count(); i++) {
        char start[64];
        snprintf(start, sizeof start, "\n| `%s", kiln_render_setting_at(i)->flag);
        const char *at = strstr(section, start);
        char after = at ? at[strlen(start)] : '\0';
        if (!at || (after != ' ' && after != '`'))
            strncat(missing, kiln_render_setting_at(i)->flag, sizeof missing - strlen(missing) - 2), strcat(missing, " ");
    }
    for (const char *line = strstr(section, "\n| `--"); line; line = strstr(line + 1, "\n| `--")) {
        char flag[64];
        size_t n = strcspn(line + 4, " `");
        snprintf(flag, sizeof flag, "%.*s", (int)n, line + 4);
        if (!kiln_render_setting_find(flag)) strncat(unknown, flag, sizeof unknown - strlen(unknown) - 2), strcat(unknown, " ");
    }
    free(guide);
    CHECK_MSG(!missing[0], "docs/guides/kiln_render.md's Render settings lack %s", missing);
    CHECK_MSG(!unknown[0], "docs/guides/kiln_render.md's Render settings list %s, which the table lacks", unknown);
}

/* The batch guide names every key the manifest's "settings" takes. */
TEST(the_batch_guide_names_every_settings_key) {
    char *guide = read_doc("docs/guides/batch.md");
    CHECK(guide);
    char missing[512] = "";
    for (uint32_t i = 0; i < kiln_render_setting_count(); i++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", kiln_render_setting_at(i)->key);
        if (!strstr(guide, quoted)) strncat(missing, quoted, sizeof missing - strlen(missing) - 1);
    }
    free(guide);
    CHECK_MSG(!missing[0], "docs/guides/batch.md does not name %s", missing);
}

TEST_MAIN(T(the_resolver_refuses_what_the_table_refuses), T(every_field_of_the_settings_is_a_row_of_the_table), T(every_default_is_what_the_resolver_makes_of_zero),
          T(the_resolver_accepts_both_ends_of_every_range_and_every_choice),
          T(each_flag_is_its_key_with_dashes_and_both_find_the_row), T(values_from_text_reach_their_fields),
          T(each_bad_value_is_refused_with_its_exact_message_and_changes_nothing),
          T(the_kiln_render_guide_lists_every_settings_flag_and_no_other), T(the_batch_guide_names_every_settings_key))
