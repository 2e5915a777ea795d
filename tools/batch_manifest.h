/* A batch manifest of kiln-render --batch: JSON Lines, one render per line (docs/guides/batch.md).
 *
 * The manifest is read whole; every line that is not blank is an item, a malformed one included,
 * so that each line is rendered or reported by exactly one shard. batch_item_parse reads one
 * line into a batch_item with kiln-render's defaults for every field left out, and refuses a bad
 * line with one message "line N: reason" naming the field. Relative paths (model, out, env) are
 * taken from the manifest's directory, so a manifest and its models move together.
 *
 * A tool's file, not a library layer: the manifest is kiln-render's command line written as data
 * and names nothing a library user renders with (they hold a kiln_renderer and a scene). */
#ifndef KILN_BATCH_MANIFEST_H
#define KILN_BATCH_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/render.h>

/* The longest path a field may give, its terminating NUL included. */
#define BATCH_PATH_MAX 4096

/* What frames the model, in the order of precedence the manifest cannot mix (camera or view). */
typedef enum batch_camera_kind {
    BATCH_CAMERA_FRAMED,   /* neither "camera" nor "view": kiln-render's framing */
    BATCH_CAMERA_VIEW,     /* "view": an orbit about the bounds' centre */
    BATCH_CAMERA_LOOK_AT,  /* "camera": {"look_from", "look_at", "up", "fov_y"} */
    BATCH_CAMERA_FILE,     /* "camera": {"index": N}, the file's camera N */
} batch_camera_kind;

/* The files one item writes, beside each other (docs/guides/batch.md has their formats): OUT
 * (colour), STEM.normals.png, STEM.depth.pfm and STEM.mask.png. */
enum {
    BATCH_OUTPUT_COLOR = 1u << 0,
    BATCH_OUTPUT_NORMALS = 1u << 1,
    BATCH_OUTPUT_DEPTH = 1u << 2,    /* linear depth in metres, float32 */
    BATCH_OUTPUT_MASK = 1u << 3,     /* glTF node index + 1 per pixel, 16-bit; 0: no node */
};
#define BATCH_OUTPUT_KINDS 4
/* Every output bit, in the order an item writes them. */
extern const unsigned batch_outputs[BATCH_OUTPUT_KINDS];

/* One manifest line, parsed. Zeroes mean kiln-render's defaults where the comment says so. */
typedef struct batch_item {
    uint32_t line;                   /* 1-based line of the manifest */
    char model[BATCH_PATH_MAX];      /* the glTF file, resolved against the manifest's directory */
    char out[BATCH_PATH_MAX];        /* the colour image, ending in .png, resolved likewise */
    char env[BATCH_PATH_MAX];        /* the equirectangular .hdr; empty: the procedural sky */
    char lut[BATCH_PATH_MAX];        /* the .cube colour table the image is graded with; empty: none */
    uint32_t width, height;          /* default 1280x720 */
    batch_camera_kind camera;
    uint32_t camera_index;           /* BATCH_CAMERA_FILE */
    kiln_vec3 look_from, look_at, up; /* BATCH_CAMERA_LOOK_AT; up default (0, 1, 0) */
    float fov_y;                     /* framed, view and look-at cameras; 0: KILN_IMPORT_DEFAULT_FOV_Y */
    float azimuth, elevation;        /* BATCH_CAMERA_VIEW, radians; default the framing's */
    float distance_scale;            /* BATCH_CAMERA_VIEW: times the framing distance; default 1 */
    float time;                      /* seconds the model is posed at; default 0 */
    float env_rotation;              /* radians about +Y */
    kiln_render_settings settings;   /* tonemap, exposure and "settings" */
    bool sun_given, no_sun;          /* "sun": [x, y, z]; "no_sun": true */
    kiln_vec3 sun;
    float sun_lux;                   /* 0: the default sun's 3 lux */
    unsigned outputs;                /* BATCH_OUTPUT_* bits; default colour alone */
} batch_item;

/* One line of the manifest: where it is and its text (not NUL-terminated). */
typedef struct batch_line {
    uint32_t number;                 /* 1-based */
    const char *text;
    size_t length;
} batch_line;

/* The manifest file, read whole: the lines that are not blank, in file order. */
typedef struct batch_manifest {
    char *bytes;                     /* the file's contents, owned */
    batch_line *lines;               /* line_count entries, owned, pointing into bytes */
    uint32_t line_count;
    char dir[BATCH_PATH_MAX];        /* the manifest's directory, where relative paths start */
} batch_manifest;

/* Reads the manifest at path. False with the reason in why (naming the path) when it cannot be
 * read; a manifest without any item is not an error here. */
bool batch_manifest_load(batch_manifest *m, const char *path, char *why, size_t why_size);
void batch_manifest_free(batch_manifest *m);

/* Parses one line into *item (overwritten), paths resolved against dir. False with
 * "line N: reason" in why, naming the field at fault: the line is not JSON or not an object, a
 * required field is missing, a field is unknown, of the wrong type or out of range, or two fields
 * exclude each other. */
bool batch_item_parse(const batch_line *line, const char *dir, batch_item *item, char *why, size_t why_size);

/* For each item of the manifest (entry i for lines[i]), the line number of an earlier item whose
 * "out" is the same path, else 0: such a line would overwrite the earlier one's image, or, in
 * another shard running at the same time, write the same file. Lines that do not parse get 0
 * (they fail on their own). Every shard computes the same table, so the later line is refused
 * whichever shard has it. False, with why, when memory runs out. */
bool batch_manifest_find_repeated_outputs(const batch_manifest *m, uint32_t *earlier_line, char *why, size_t why_size);

/* The path of one output of an item: OUT itself for colour, STEM.NAME.EXT beside it otherwise
 * (STEM is OUT without its .png; EXT is pfm for depth, else png). False when the path would not
 * fit in size bytes. */
bool batch_item_output_path(const batch_item *item, unsigned output, char *path, size_t size);
/* "color", "normals", "depth", "mask": the name an output has in "outputs" and in its file name. */
const char *batch_output_name(unsigned output);

#endif
