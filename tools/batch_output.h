/* The image files of kiln-render --batch: written so that a killed job never leaves a file that
 * looks done, and checked by --resume for being whole. */
#ifndef KILN_BATCH_OUTPUT_H
#define KILN_BATCH_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/core.h>

/* Writes img as a PNG at PATH.partial, then renames it over path (atomic within one file
 * system): path is either absent, an older whole file, or the new whole file. Missing parent
 * directories are made. On failure the partial file is removed and err names the path. */
bool batch_output_write_png(const kiln_image *img, const char *path, kiln_error *err);

/* Whether the file at path is a whole PNG of width x height: the signature, an IHDR of that size
 * first, and an IEND chunk at its very end. What --resume trusts as done. */
bool batch_png_is_complete(const char *path, uint32_t width, uint32_t height);

#endif
