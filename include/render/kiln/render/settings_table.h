/* kiln/render/settings_table: the render settings a user sets, described once for every surface
 * that offers them (kiln-render's flags, the batch manifest's keys, the viewer's controls, the
 * docs' flag list, an embedder's keywords). One row per field of kiln_render_settings a user
 * sets: its key, its flag, its type, range and default, and a doc line.
 *
 * The default is what kiln_render_settings_resolve makes of a zero field; tests/render/
 * test_settings_table.c holds every row's default equal to the resolver's and every field of
 * the struct covered by a row (shader_dir aside: a directory an embedder passes at creation,
 * not a value).
 *
 * kiln_render_setting_set reads one value from text, as a flag's argument or a manifest value
 * written out, and refuses a bad one with an error naming the setting as the caller spells it
 * and the value:
 *   --ao-radius: "x" is not a finite number
 *   ao_radius: -1 is not in (0, inf)
 *   --msaa: 2 is not one of 1|4
 *   tonemap: "sepia" is not one of agx|aces|...|none
 * An unparseable value is quoted; a number out of range is shown as read. Cross-field rules
 * (atlas_tile divides atlas_size) stay the resolver's.
 *
 * The rows are the renderer's own, then those of each renderer feature that brings settings of
 * its own (colour grading), in the feature list's order: the resolver checks a feature's rows by
 * their ranges and fills their zeros with their defaults, so a feature adds a setting with one
 * row in its own file. */
#ifndef KILN_RENDER_SETTINGS_TABLE_H
#define KILN_RENDER_SETTINGS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core.h>
#include <kiln/render/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a row's value is written as text and stored in its field. */
typedef enum kiln_setting_type {
    KILN_SETTING_SWITCH,      /* a bool: as a flag it takes no value and sets true; as text "true" or "false" */
    KILN_SETTING_UINT,        /* a uint32_t: a whole number in [min, max], or one of choices */
    KILN_SETTING_FLOAT,       /* a float: a finite number in the range */
    KILN_SETTING_ENUM,        /* an enum: one of the names name() gives */
    KILN_SETTING_BACKGROUND,  /* background and background_color: "sky", "transparent" or R,G,B in [0, 1] */
    KILN_SETTING_VEC3,        /* a kiln_vec3: X,Y,Z or one number for all three, each finite and in the range */
} kiln_setting_type;

/* One setting: how it is named, read, bounded and shown. */
typedef struct kiln_render_setting {
    const char *key;                /* "ao_radius": the manifest's and an embedder's name */
    const char *flag;               /* "--ao-radius": the key with dashes */
    kiln_setting_type type;         /* how its text reads and its field is stored */
    /*@{*/
    size_t offset, size;            /* the field in kiln_render_settings */
    double min, max;                /* UINT, FLOAT and VEC3 (each component): the range, max INFINITY for none */
    /*@}*/
    bool min_exclusive;             /* FLOAT: above min, not at it (zero would mean the default) */
    const uint32_t *choices;        /* UINT: the only values allowed, choice_count of them; NULL: the range */
    uint32_t choice_count;          /* entries of choices */
    const char *(*name)(int value); /* ENUM: a value's name, NULL past the last */
    double default_value;           /* what resolve makes of zero (ENUM: the enum's value; VEC3: of each component) */
    /*@{*/
    double slider_min, slider_max;  /* UINT and FLOAT: the span a UI control offers, inside the range */
    /*@}*/
    const char *placeholder;        /* UINT and FLOAT: the value in a usage line ("M", "F", "N") */
    bool at_creation;               /* read only when the renderer is made (kiln_renderer_create) */
    const char *doc;                /* one line, no full stop */
} kiln_render_setting;

/* The rows, in the order a usage lists them. */
uint32_t kiln_render_setting_count(void);
/* Row `index`; NULL past the last. */
const kiln_render_setting *kiln_render_setting_at(uint32_t index);
/* The row of a key ("ao_radius") or, from "--", of a flag ("--ao-radius"); NULL when none. */
const kiln_render_setting *kiln_render_setting_find(const char *key_or_flag);

/* Parses `text` as `row`'s value and writes it into *s; false with err (KILN_ERR_INVALID_ARGUMENT,
 * the forms above, starting with `spelled` or, when NULL, the row's key) leaving *s as it was. */
bool kiln_render_setting_set_sized(const kiln_render_setting *row, kiln_render_settings *s, size_t size,
                                   const char *text, const char *spelled, kiln_error *err);
/* The stable entry point above takes the caller's sizeof(kiln_render_settings), `size`: a row
 * whose field lies past it (a setting newer than the caller's header) is refused, writing
 * nothing ("contrast: the caller's kiln_render_settings is 88 bytes and ends before this
 * setting's field at byte 100"), as is a size the library does not know. */
static inline bool kiln_render_setting_set(const kiln_render_setting *row, kiln_render_settings *s, const char *text,
                                           const char *spelled, kiln_error *err) {
    return kiln_render_setting_set_sized(row, s, sizeof *s, text, spelled, err);
}

#ifdef __cplusplus
}
#endif

#endif
