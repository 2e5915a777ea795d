/* kiln/assets/color_lut.h: a 3D colour lookup table from an Adobe / Resolve `.cube` file.
 *
 * The format (Adobe's Cube LUT Specification 1.0, as Resolve writes it): lines of text; `#`
 * starts a comment line; keywords first (`TITLE "..."`, `LUT_3D_SIZE N`, `DOMAIN_MIN r g b`,
 * `DOMAIN_MAX r g b`, Resolve's `LUT_3D_INPUT_RANGE min max`), then N^3 lines of three numbers,
 * the output colour for each input, red changing fastest, then green, then blue. A `.cube` file
 * is a grade made in a colour tool for display-encoded colour: the renderer applies it after the
 * tone map (docs/guides/render.md, Colour grading).
 *
 * Files are untrusted: the parser reads at most KILN_COLOR_LUT_MAX_FILE_BYTES, accepts sizes
 * 2..KILN_COLOR_LUT_MAX_SIZE, and refuses anything else with the path, the line and the reason
 * ("look.cube:7: expected 3 numbers, got 2"). 1D tables (`LUT_1D_SIZE`) are refused. */
#ifndef KILN_ASSETS_COLOR_LUT_H
#define KILN_ASSETS_COLOR_LUT_H

#include <stddef.h>
#include <stdint.h>

#include <kiln/core.h>

#define KILN_COLOR_LUT_MAX_SIZE 128                           /* entries per axis: 2M entries, 25 MB */
#define KILN_COLOR_LUT_MAX_FILE_BYTES ((size_t)128 << 20)     /* 128^3 lines of three numbers fit */

/* A parsed table: the caller owns `rgb` (kiln_color_lut_free). */
typedef struct kiln_color_lut {
    uint32_t size;                  /* entries per axis */
    kiln_vec3 domain_min;           /* the input value the table's first entry of each axis stands for: 0 unless the file says */
    kiln_vec3 domain_max;           /* and its last's: 1 unless the file says */
    float *rgb;                     /* size^3 entries of three floats, red fastest; malloc'd */
    char title[128];                /* TITLE, cut to fit; empty when none */
} kiln_color_lut;

/* Parses `.cube` text (`name` is the file named in errors). On failure *out is untouched. */
bool kiln_color_lut_parse(const char *text, size_t length, const char *name, kiln_color_lut *out, kiln_error *err);
/* Reads and parses the file at `path`. */
bool kiln_color_lut_load(const char *path, kiln_color_lut *out, kiln_error *err);
/* Frees the table; the struct is zeroed. NULL is ignored. */
void kiln_color_lut_free(kiln_color_lut *lut);

#endif
