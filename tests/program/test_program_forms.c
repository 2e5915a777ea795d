/* The form tables (src/program/program_forms.c) that name the program enums for the JSON decoder,
 * the schema, the validator's and dispatch's messages: each table is well formed, the schema lists
 * exactly its forms, and docs/guides/programs.md names every form, texture format and failure
 * class, so the guide cannot drift from the code. Pure CPU. */
#include <jansson.h>

#include <kiln/core/containers.h>
#include <kiln/program.h>
#include <kiln/program_json.h>

#include "program/program_forms.h"
#include "test.h"

#define FORMS "### Forms"
#define KINDS "### Kinds"

/* The row of the guide's table that lists each enum's forms: the section holding the table, and
 * the row's first cell. */
static const struct {
    const program_enum *e;
    const char *section;
    const char *row;
} DOC_ROWS[] = {
    {&PROGRAM_STAGES, FORMS, "| stage |"},
    {&PROGRAM_SHAPES, FORMS, "| shape |"},
    {&PROGRAM_EXTENTS, FORMS, "| extent |"},
    {&PROGRAM_SAMPLINGS, FORMS, "| sampling |"},
    {&PROGRAM_WRAPS, FORMS, "| sampling |"},
    {&PROGRAM_MIPS, FORMS, "| sampling |"},
    {&PROGRAM_SAMPLES, FORMS, "| samples |"},
    {&PROGRAM_INPUTS, FORMS, "| input |"},
    {&PROGRAM_DEPTH_READS, FORMS, "| input |"},
    {&PROGRAM_OUTPUTS, FORMS, "| output |"},
    {&PROGRAM_BLENDS, FORMS, "| blend |"},
    {&PROGRAM_TEXTURE_USAGES, KINDS, "| `create_texture` |"},
    {&PROGRAM_TEXTURE_SAMPLINGS, KINDS, "| `create_texture` |"},
    {&PROGRAM_LOADS, FORMS, "| stage |"},
    {&PROGRAM_DEPTH_EXTENTS, FORMS, "| depth transient |"},
    {&PROGRAM_CULLS, FORMS, "| draw-sets stage |"},
    {&PROGRAM_DEPTH_WRITES, FORMS, "| draw-sets stage |"},
};

static char *read_guide(void) {
    char *text = NULL;
    size_t size = 0;
    kiln_error err = {0};
    if (!kiln_read_file(KILN_SOURCE_DIR "/docs/guides/programs.md", &text, &size, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return NULL;
    }
    return text;
}

/* The first line after `section` starting with `row`, copied into out; false when there is none. */
static bool guide_row(const char *guide, const char *section, const char *row, char *out, size_t size) {
    size_t n = strlen(row);
    const char *line = strstr(guide, section);
    while (line && strncmp(line, row, n) != 0) {
        line = strchr(line, '\n');
        if (line) line++;
    }
    if (!line) return false;
    snprintf(out, size, "%.*s", (int)strcspn(line, "\n"), line);
    return true;
}

/* Appends "type.name " (or "name " without a type) to a list of what is missing, cut short when
 * the list is full. */
static void note(char *list, size_t size, const char *type, const char *name) {
    size_t used = strlen(list);
    snprintf(list + used, size - used, "%s%s%s ", type, type[0] ? "." : "", name);
}

/* `"Name"` in the row, as the guide writes a form. */
static bool row_names(const char *row, const char *name) {
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", name);
    return strstr(row, quoted) != NULL;
}

TEST(every_table_is_well_formed) {
    for (uint32_t t = 0; t < PROGRAM_ENUM_COUNT; t++) {
        const program_enum *e = PROGRAM_ENUMS[t];
        CHECK(e->what && e->what[0] && e->type && e->type[0] && e->count > 0);
        for (uint32_t i = 0; i < e->count; i++) {
            const program_form *f = &e->forms[i];
            CHECK_MSG(f->name && f->name[0], "%s: form %u has no name", e->type, i);
            CHECK_MSG(!f->payload_type || f->payload, "%s: %s names a payload type but takes none", e->type, f->name);
            CHECK_MSG(program_form_find(e, f->name) == (int)i, "%s: %s is not found at its own value", e->type,
                      f->name);
            CHECK(strcmp(program_form_name(e, (int)i), f->name) == 0);
        }
        CHECK(program_form_find(e, "Bindng") == -1);
        CHECK(strcmp(program_form_name(e, (int)e->count), "?") == 0);
        CHECK(strcmp(program_form_name(e, -1), "?") == 0);
    }
}

TEST(the_schema_lists_exactly_each_table_s_forms) {
    json_t *schema = kiln_json_describe_kinds(NULL);
    CHECK(schema);
    json_t *types = json_object_get(schema, "types");
    char missing[256] = "";
    for (uint32_t t = 0; t < PROGRAM_ENUM_COUNT; t++) {
        const program_enum *e = PROGRAM_ENUMS[t];
        json_t *forms = json_object_get(json_object_get(types, e->type), "forms");
        bool same = json_array_size(forms) == e->count;
        for (uint32_t i = 0; same && i < e->count; i++) {
            json_t *form = json_array_get(forms, i);
            same = strcmp(json_string_value(json_object_get(form, "name")), e->forms[i].name) == 0 &&
                   (json_object_get(form, "payload") || json_object_get(form, "fields")) == e->forms[i].payload;
        }
        if (!same) note(missing, sizeof missing, e->type, "(forms differ)");
    }
    json_decref(schema);
    CHECK_MSG(missing[0] == '\0', "schema differs from the tables: %s", missing);
}

TEST(the_guide_names_every_form) {
    char *guide = read_guide();
    CHECK(guide);
    char missing[512] = "";
    char row[1024];
    for (uint32_t t = 0; t < PROGRAM_ENUM_COUNT; t++) {
        const program_enum *e = PROGRAM_ENUMS[t];
        size_t r = 0;
        while (r < sizeof DOC_ROWS / sizeof DOC_ROWS[0] && DOC_ROWS[r].e != e) r++;
        if (r == sizeof DOC_ROWS / sizeof DOC_ROWS[0] ||
            !guide_row(guide, DOC_ROWS[r].section, DOC_ROWS[r].row, row, sizeof row)) {
            note(missing, sizeof missing, e->type, "(no row)");
            continue;
        }
        for (uint32_t i = 0; i < e->count; i++)
            if (!row_names(row, e->forms[i].name))
                note(missing, sizeof missing, e->type, e->forms[i].name);
    }
    bool formats = guide_row(guide, FORMS, "| format |", row, sizeof row);
    for (int f = 0; formats && f < KILN_FORMAT_COUNT; f++)
        if (!row_names(row, kiln_texture_format_name((kiln_texture_format)f)))
            note(missing, sizeof missing, "TextureFormat", kiln_texture_format_name((kiln_texture_format)f));
    free(guide);
    CHECK_MSG(formats, "the guide's Forms table has no format row");
    CHECK_MSG(missing[0] == '\0', "docs/guides/programs.md does not name: %s", missing);
}

/* Every class identifier appears in backticks: the register, dispatch and geometry classes'
 * tables. */
TEST(the_guide_names_every_failure_class) {
    char *guide = read_guide();
    CHECK(guide);
    char missing[512] = "";
    char quoted[64];
    for (int c = KILN_PROGRAM_OK + 1; c < KILN_PROGRAM_CLASS_COUNT; c++) {
        snprintf(quoted, sizeof quoted, "`%s`", kiln_program_class_name((kiln_program_class)c));
        if (!strstr(guide, quoted)) note(missing, sizeof missing, "", quoted);
    }
    for (int c = KILN_DISPATCH_OK + 1; c < KILN_DISPATCH_CLASS_COUNT; c++) {
        snprintf(quoted, sizeof quoted, "`%s`", kiln_dispatch_class_name((kiln_dispatch_class)c));
        if (!strstr(guide, quoted)) note(missing, sizeof missing, "", quoted);
    }
    for (int c = KILN_GEOMETRY_OK + 1; c < KILN_GEOMETRY_CLASS_COUNT; c++) {
        snprintf(quoted, sizeof quoted, "`%s`", kiln_geometry_class_name((kiln_geometry_class)c));
        if (!strstr(guide, quoted)) note(missing, sizeof missing, "", quoted);
    }
    for (int c = KILN_INSTANCES_OK + 1; c < KILN_INSTANCES_CLASS_COUNT; c++) {
        snprintf(quoted, sizeof quoted, "`%s`", kiln_instances_class_name((kiln_instances_class)c));
        if (!strstr(guide, quoted)) note(missing, sizeof missing, "", quoted);
    }
    for (int c = KILN_DRAW_SET_OK + 1; c < KILN_DRAW_SET_CLASS_COUNT; c++) {
        snprintf(quoted, sizeof quoted, "`%s`", kiln_draw_set_class_name((kiln_draw_set_class)c));
        if (!strstr(guide, quoted)) note(missing, sizeof missing, "", quoted);
    }
    free(guide);
    CHECK_MSG(missing[0] == '\0', "docs/guides/programs.md does not name: %s", missing);
}

TEST_MAIN(T(every_table_is_well_formed), T(the_schema_lists_exactly_each_table_s_forms), T(the_guide_names_every_form),
          T(the_guide_names_every_failure_class))
