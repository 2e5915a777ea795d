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

/* As batch_output_write_png, for a depth map (kiln_image_write_pfm) and a mask
 * (kiln_image_write_png_gray16): width x height values, top row first. */
bool batch_output_write_pfm(const float *values, uint32_t width, uint32_t height, const char *path, kiln_error *err);
bool batch_output_write_gray16(const uint16_t *values, uint32_t width, uint32_t height, const char *path,
                               kiln_error *err);

/* Whether the file at path is a whole PNG of width x height: the signature, an IHDR of that size
 * first, and an IEND chunk at its very end. What --resume trusts as done. */
bool batch_png_is_complete(const char *path, uint32_t width, uint32_t height);
/* Whether the file at path is a whole PFM as batch_output_write_pfm writes it: its header for
 * width x height, then exactly width * height floats. */
bool batch_pfm_is_complete(const char *path, uint32_t width, uint32_t height);

#endif
