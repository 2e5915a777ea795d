/* CPU images: creation, PNG round trips, decode errors, HDR decode, conversion and comparison. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif

#include <kiln/core/image.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <stb_image.h>

#include "test.h"

/* ---- helpers --------------------------------------------------------------------------------- */

/* A per-test scratch directory, removed (with the one file tests put in it) afterwards. It goes
 * under $KILN_TEST_TMP (set by CTest to the build tree), else $TMPDIR, else /tmp. */
typedef struct scratch { char dir[256]; char file[300]; } scratch;

static const char *temp_root(void) {
    const char *names[2] = {"KILN_TEST_TMP", "TMPDIR"};
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) return v;
    }
    return "/tmp";
}

static bool scratch_open(scratch *s, const char *file_name) {
    snprintf(s->dir, sizeof s->dir, "%s/kiln_test_image_XXXXXX", temp_root());
    if (!mkdtemp(s->dir)) return false;
    snprintf(s->file, sizeof s->file, "%s/%s", s->dir, file_name);
    return true;
}

static void scratch_close(scratch *s) {
    remove(s->file);
    rmdir(s->dir);
}

static uint8_t *rgba8_at(kiln_image *img, uint32_t x, uint32_t y) {
    return (uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4;
}

/* A test card with structure at several scales: gradients, a checkerboard and a disc. */
static bool make_test_card(kiln_image *img, uint32_t w, uint32_t h) {
    if (!kiln_image_create(img, w, h, KILN_IMAGE_RGBA8, NULL)) return false;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = rgba8_at(img, x, y);
            int dx = (int)x - (int)w / 2, dy = (int)y - (int)h / 2;
            bool disc = dx * dx + dy * dy < (int)(w * w / 9);
            bool check = ((x / 8) + (y / 8)) % 2 == 0;
            p[0] = (uint8_t)(x * 255 / (w - 1));
            p[1] = disc ? 230 : (check ? 60 : 180);
            p[2] = (uint8_t)(y * 255 / (h - 1));
            p[3] = 255;
        }
    }
    return true;
}

static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* A copy of src with uniform noise of +-amplitude added to R, G and B. */
static bool noisy_copy(const kiln_image *src, kiln_image *dst, int amplitude, uint32_t seed) {
    if (!kiln_image_to_rgba8(src, dst, NULL)) return false;
    uint8_t *p = dst->pixels;
    for (size_t i = 0; i < (size_t)dst->width * dst->height * 4; i++) {
        if (i % 4 == 3) continue;
        int noise = (int)(next_random(&seed) % (uint32_t)(2 * amplitude + 1)) - amplitude;
        int v = p[i] + noise;
        p[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    return true;
}

static bool read_whole_file(const char *path, uint8_t **out, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc((size_t)n);
    *size = *out ? fread(*out, 1, (size_t)n, f) : 0;
    fclose(f);
    return *out && *size == (size_t)n;
}

/* ---- creation and conversion ------------------------------------------------------------------ */

TEST(pixel_sizes_are_four_eight_and_sixteen) {
    CHECK_EQ_INT(kiln_image_pixel_size(KILN_IMAGE_RGBA8), 4);
    CHECK_EQ_INT(kiln_image_pixel_size(KILN_IMAGE_RGBA16F), 8);
    CHECK_EQ_INT(kiln_image_pixel_size(KILN_IMAGE_RGBA32F), 16);
    CHECK_EQ_INT(kiln_image_pixel_size((kiln_image_format)42), 0);
}

TEST(create_gives_a_zero_filled_image) {
    kiln_image img;
    CHECK(kiln_image_create(&img, 5, 3, KILN_IMAGE_RGBA32F, NULL));
    CHECK(img.width == 5 && img.height == 3 && img.format == KILN_IMAGE_RGBA32F);
    CHECK_EQ_INT(kiln_image_byte_size(&img), 5 * 3 * 16);
    const uint8_t *p = img.pixels;
    for (size_t i = 0; i < kiln_image_byte_size(&img); i++) CHECK_EQ_INT(p[i], 0);
    kiln_image_free(&img);
    CHECK(img.pixels == NULL);
}

TEST(create_rejects_empty_sizes_and_unknown_formats) {
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_create(&img, 0, 4, KILN_IMAGE_RGBA8, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(err.message, "0x4");
    CHECK(!kiln_image_create(&img, 4, 4, (kiln_image_format)9, &err));
    CHECK_STR_CONTAINS(err.message, "format");
    CHECK(img.pixels == NULL);
}

TEST(swap_rb_exchanges_red_and_blue) {
    kiln_image img;
    CHECK(kiln_image_create(&img, 2, 1, KILN_IMAGE_RGBA8, NULL));
    uint8_t bgra[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    memcpy(img.pixels, bgra, sizeof bgra);
    kiln_image_swap_rb(&img);
    uint8_t expect[8] = {3, 2, 1, 4, 7, 6, 5, 8};
    CHECK(memcmp(img.pixels, expect, sizeof expect) == 0);
    kiln_image_free(&img);
}

TEST(swap_rb_works_on_float_images) {
    kiln_image img;
    CHECK(kiln_image_create(&img, 1, 1, KILN_IMAGE_RGBA32F, NULL));
    float px[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    memcpy(img.pixels, px, sizeof px);
    kiln_image_swap_rb(&img);
    const float *p = img.pixels;
    CHECK(p[0] == 0.75f && p[1] == 0.5f && p[2] == 0.25f && p[3] == 1.0f);
    kiln_image_free(&img);
}

TEST(to_rgba8_clamps_and_rounds_float_channels) {
    kiln_image src, dst;
    CHECK(kiln_image_create(&src, 2, 1, KILN_IMAGE_RGBA32F, NULL));
    float px[8] = {-1.0f, 0.5f, 2.0f, 1.0f, NAN, 0.2f, 1.0f / 255.0f, 0.0f};
    memcpy(src.pixels, px, sizeof px);
    CHECK(kiln_image_to_rgba8(&src, &dst, NULL));
    uint8_t expect[8] = {0, 128, 255, 255, 0, 51, 1, 0};
    CHECK(memcmp(dst.pixels, expect, sizeof expect) == 0);
    kiln_image_free(&src);
    kiln_image_free(&dst);
}

TEST(to_rgba8_reads_half_float_images) {
    kiln_image src, dst;
    CHECK(kiln_image_create(&src, 1, 1, KILN_IMAGE_RGBA16F, NULL));
    uint16_t px[4] = {kiln_float_to_half(1.0f), kiln_float_to_half(0.5f), 0,
                      kiln_float_to_half(0.25f)};
    memcpy(src.pixels, px, sizeof px);
    CHECK(kiln_image_to_rgba8(&src, &dst, NULL));
    uint8_t expect[4] = {255, 128, 0, 64};
    CHECK(memcmp(dst.pixels, expect, sizeof expect) == 0);
    kiln_image_free(&src);
    kiln_image_free(&dst);
}

/* ---- files ------------------------------------------------------------------------------------ */

TEST(png_written_then_loaded_is_identical) {
    scratch s;
    CHECK(scratch_open(&s, "card.png"));
    kiln_image card, back = {0};
    CHECK(make_test_card(&card, 37, 21));
    rgba8_at(&card, 3, 4)[3] = 77; /* some transparency must survive too */
    kiln_error err = {0};
    bool wrote = kiln_image_write_png(&card, s.file, &err);
    bool loaded = wrote && kiln_image_load(&back, s.file, &err);
    scratch_close(&s);
    CHECK_MSG(wrote && loaded, "%s", err.message);
    CHECK(back.width == 37 && back.height == 21 && back.format == KILN_IMAGE_RGBA8);
    CHECK(memcmp(back.pixels, card.pixels, kiln_image_byte_size(&card)) == 0);
    kiln_image_free(&card);
    kiln_image_free(&back);
}

/* 16-bit values survive exactly, read back by an independent decoder (stb_image's 16-bit path). */
TEST(a_gray16_png_round_trips_every_value) {
    scratch s;
    CHECK(scratch_open(&s, "mask.png"));
    enum { MW = 300, MH = 7 };
    static uint16_t values[MW * MH];
    for (uint32_t i = 0; i < MW * MH; i++) values[i] = (uint16_t)(i * 31u + (i % 3 ? 0 : 65000u));
    kiln_error err = {0};
    bool wrote = kiln_image_write_png_gray16(s.file, values, MW, MH, &err);
    int w = 0, h = 0, channels = 0;
    uint16_t *back = wrote ? stbi_load_16(s.file, &w, &h, &channels, 0) : NULL;
    scratch_close(&s);
    CHECK_MSG(wrote, "%s", err.message);
    CHECK_MSG(back, "%s", stbi_failure_reason());
    CHECK(w == MW && h == MH && channels == 1);
    if (back) CHECK(!memcmp(back, values, sizeof values));
    stbi_image_free(back);
    CHECK(!kiln_image_write_png_gray16("/dev/full", values, MW, MH, &err));
    CHECK_STR_CONTAINS(err.message, "/dev/full: cannot write");
}

/* PFM: the header, then little-endian floats with the bottom row first. */
TEST(a_pfm_holds_the_floats_bottom_row_first) {
    scratch s;
    CHECK(scratch_open(&s, "depth.pfm"));
    const float values[2 * 3] = {1.5f, 2.5f, /* top */ 0.0f, -1.0f, 1e30f, 3.25f /* bottom */};
    kiln_error err = {0};
    bool wrote = kiln_image_write_pfm(s.file, values, 2, 3, &err);
    unsigned char bytes[64] = {0};
    FILE *f = wrote ? fopen(s.file, "rb") : NULL;
    size_t n = f ? fread(bytes, 1, sizeof bytes, f) : 0;
    if (f) fclose(f);
    scratch_close(&s);
    CHECK_MSG(wrote, "%s", err.message);
    const char header[] = "Pf\n2 3\n-1.0\n";
    size_t header_size = sizeof header - 1;
    CHECK_EQ_INT(n, header_size + sizeof values);
    CHECK(!memcmp(bytes, header, header_size));
    float stored[6];
    memcpy(stored, bytes + header_size, sizeof stored);
    const float expected[6] = {1e30f, 3.25f, 0.0f, -1.0f, 1.5f, 2.5f};
    CHECK(!memcmp(stored, expected, sizeof stored));
}

/* #12 class 7: stb's writer ignores fclose, so "-o /dev/full" used to report success. */
TEST(a_png_that_cannot_be_written_fails_naming_the_path) {
    kiln_image card;
    CHECK(make_test_card(&card, 64, 64));
    kiln_error err = {0};
    bool wrote = kiln_image_write_png(&card, "/dev/full", &err);
    kiln_image_free(&card);
    CHECK(!wrote);
    CHECK_STR_CONTAINS(err.message, "/dev/full: cannot write: No space left on device");
}

TEST(png_of_a_float_image_is_clamped_and_quantised) {
    scratch s;
    CHECK(scratch_open(&s, "float.png"));
    kiln_image img, back = {0};
    CHECK(kiln_image_create(&img, 1, 1, KILN_IMAGE_RGBA32F, NULL));
    float px[4] = {-0.5f, 0.5f, 3.0f, 1.0f};
    memcpy(img.pixels, px, sizeof px);
    kiln_error err = {0};
    bool ok = kiln_image_write_png(&img, s.file, &err) && kiln_image_load(&back, s.file, &err);
    scratch_close(&s);
    CHECK_MSG(ok, "%s", err.message);
    uint8_t expect[4] = {0, 128, 255, 255};
    CHECK(memcmp(back.pixels, expect, 4) == 0);
    kiln_image_free(&img);
    kiln_image_free(&back);
}

TEST(loading_a_missing_file_names_the_path) {
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_load(&img, "/nonexistent/kiln/missing.png", &err));
    CHECK_EQ_INT(err.code, KILN_ERR_IO);
    CHECK_STR_CONTAINS(err.message, "/nonexistent/kiln/missing.png");
    CHECK(img.pixels == NULL);
}

TEST(decoding_a_truncated_png_names_the_input_and_the_reason) {
    scratch s;
    CHECK(scratch_open(&s, "whole.png"));
    kiln_image card;
    CHECK(make_test_card(&card, 64, 64));
    uint8_t *bytes = NULL;
    size_t size = 0;
    bool ok = kiln_image_write_png(&card, s.file, NULL) && read_whole_file(s.file, &bytes, &size);
    scratch_close(&s);
    kiln_image_free(&card);
    CHECK(ok);

    kiln_image img;
    kiln_error err = {0};
    size_t cut = size / 2;
    bool decoded = kiln_image_decode(&img, bytes, cut, &err);
    free(bytes);
    CHECK(!decoded);
    CHECK_EQ_INT(err.code, KILN_ERR_FORMAT);
    char input[64];
    snprintf(input, sizeof input, "<memory, %zu bytes>", cut);
    CHECK_STR_CONTAINS(err.message, input);
    /* stb's reason follows the input name; it is never empty. */
    CHECK_STR_CONTAINS(err.message, "cannot decode image: ");
    CHECK(strlen(strstr(err.message, "cannot decode image: ")) > strlen("cannot decode image: "));
    CHECK(img.pixels == NULL);
}

TEST(loading_a_truncated_png_file_names_the_path) {
    scratch s;
    CHECK(scratch_open(&s, "cut.png"));
    FILE *f = fopen(s.file, "wb");
    static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    bool wrote = f && fwrite(png_signature, 1, sizeof png_signature, f) == sizeof png_signature;
    if (f) fclose(f);
    kiln_image img;
    kiln_error err = {0};
    bool loaded = wrote && kiln_image_load(&img, s.file, &err);
    char path[300];
    snprintf(path, sizeof path, "%s", s.file);
    scratch_close(&s);
    CHECK(wrote && !loaded);
    CHECK_STR_CONTAINS(err.message, path);
}

TEST(decoding_empty_input_fails_cleanly) {
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, NULL, 0, &err));
    CHECK_STR_CONTAINS(err.message, "<memory, 0 bytes>");
}

/* Fuzz regression (tests/fuzz/regressions/image/jpeg_huffman_table_over_256_codes.jpg): stb_image
 * 2.27 writes past its Huffman arrays for a DHT table whose sixteen code counts sum past 256, so
 * kiln refuses the table before stb reads the file. Here every count is 255: 4080 codes. */
TEST(a_jpeg_huffman_table_of_more_than_256_codes_is_refused) {
    uint8_t file[2 + 4 + 17 + 2] = {0xFF, 0xD8, 0xFF, 0xC4, 0x00, 2 + 17, 0x10};
    memset(file + 7, 255, 16);
    file[sizeof file - 2] = 0xFF;
    file[sizeof file - 1] = 0xD9;
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, file, sizeof file, &err));
    CHECK_MSG(strcmp(err.message, "<memory, 25 bytes>: cannot decode image: corrupt JPEG: a Huffman table of 4080 "
                                  "codes (at most 256)") == 0, "%s", err.message);
}

/* Fuzz regression (jpeg_huffman_table_over_256_codes_after_fill.jpg): stb skips 0xFF fill bytes
 * before SOI as well, so the guard does. */
TEST(a_jpeg_with_fill_bytes_before_its_start_is_guarded_too) {
    uint8_t file[3 + 4 + 17 + 2] = {0xFF, 0xFF, 0xD8, 0xFF, 0xC4, 0x00, 2 + 17, 0x10};
    memset(file + 8, 255, 16);
    file[sizeof file - 2] = 0xFF;
    file[sizeof file - 1] = 0xD9;
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, file, sizeof file, &err));
    CHECK_STR_CONTAINS(err.message, "a Huffman table of 4080 codes (at most 256)");
}

/* The guard reads every table of a segment, as stb does: a first table that fits does not hide a
 * second that does not. */
TEST(a_jpeg_huffman_table_past_the_first_of_a_segment_is_checked) {
    uint8_t file[2 + 4 + 17 + 1 + 17 + 2] = {0xFF, 0xD8, 0xFF, 0xC4, 0x00, 2 + 17 + 1 + 17, 0x00, 1};
    file[2 + 4 + 17] = 0x42;                /* table 0: one code, symbol 0x42 */
    file[2 + 4 + 17 + 1] = 0x11;            /* table 1: AC, id 1 */
    memset(file + 2 + 4 + 17 + 2, 17, 16);  /* 16 x 17 = 272 codes */
    file[sizeof file - 2] = 0xFF;
    file[sizeof file - 1] = 0xD9;
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, file, sizeof file, &err));
    CHECK_STR_CONTAINS(err.message, "a Huffman table of 272 codes (at most 256)");
}

/* Fuzz regression (tests/fuzz/regressions/image/jpeg_scan_using_undefined_huffman_table.jpg, the
 * 16-core run of docs/RELIABILITY.md): stb_image 2.27 decodes a scan with whichever Huffman tables
 * its header names, defined or not, and does not clear its decoder, so an undefined table is
 * uninitialised memory (UBSan: index -8553145 out of bounds in stbi__jpeg_huff_decode, found only
 * after other inputs had dirtied the heap). Here a 1x1 baseline JPEG defines DC table 0 and its
 * scan also names AC table 0, which nothing defines. */
TEST(a_jpeg_scan_using_an_undefined_huffman_table_is_refused) {
    static const uint8_t file[] = {
        0xFF, 0xD8,                                                             /* SOI */
        0xFF, 0xC0, 0x00, 0x0B, 8, 0x00, 0x01, 0x00, 0x01, 1, 1, 0x11, 0,       /* SOF0: 1x1, one component */
        0xFF, 0xC4, 0x00, 0x14, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, /* DHT: DC 0 */
        0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0,                           /* SOS: DC 0, AC 0 */
        0x00, 0xFF, 0xD9};
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, file, sizeof file, &err));
    CHECK_MSG(strcmp(err.message, "<memory, 50 bytes>: cannot decode image: corrupt JPEG: scan 1 uses AC Huffman "
                                  "table 0, which no table before it defines") == 0, "%s", err.message);
}

/* Fuzz regression (tests/fuzz/regressions/image/hdr_run_length_count_of_zero.hdr): stb_image 2.27
 * never returns from a run-length scanline holding a count of 0 (or ending with the file, which
 * reads as zeros), so kiln refuses it. A 9-pixel-wide file: scanline 1 is complete, scanline 2
 * stops after its header. */
TEST(a_radiance_hdr_run_length_count_of_zero_is_refused) {
    static const char header[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 9\n";
    uint8_t file[sizeof header - 1 + 4 + 4 * 2 + 4];
    size_t n = sizeof header - 1;
    memcpy(file, header, n);
    const uint8_t scanline_header[4] = {2, 2, 0, 9};
    memcpy(file + n, scanline_header, 4);
    n += 4;
    for (int k = 0; k < 4; k++) file[n++] = 128 + 9, file[n++] = 100; /* a run of 9 per channel */
    memcpy(file + n, scanline_header, 4);
    n += 4;
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, file, n, &err));
    CHECK_MSG(strstr(err.message, "cannot decode image: corrupt HDR: a run-length count of 0 in scanline 2"), "%s",
              err.message);
}

/* Fuzz regression (tests/fuzz/regressions/image/pnm_16_bit_samples.ppm): stb_image 2.27 reads two
 * bytes per sample of a 16-bit binary PNM from a buffer of one byte per sample, so kiln refuses
 * PNM files with a maximum value over 255. */
TEST(a_sixteen_bit_pnm_is_refused) {
    static const char file[] = "P6\n# a comment\n2 1\n65535\n\1\2\3\4\5\6\7\10\11\12\13\14";
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, file, sizeof file - 1, &err));
    CHECK_STR_CONTAINS(err.message, "cannot decode image: 16-bit PNM (maximum value 65535) is not supported");
    static const char eight_bit[] = "P6\n2 1\n255\n\1\2\3\4\5\6";
    CHECK_MSG(kiln_image_decode(&img, eight_bit, sizeof eight_bit - 1, &err), "%s", err.message);
    kiln_image_free(&img);
}

/* Fuzz regression (tests/fuzz/regressions/image/tga_header_claiming_17731x8970.tga): a header
 * alone can claim an image of gigabytes, which stb would allocate and fill with zeros; kiln
 * refuses it before decoding. An 18-byte uncompressed TGA header claiming 9000x9000. */
TEST(an_image_over_the_pixel_limit_is_refused_before_decoding) {
    uint8_t file[18] = {0, 0, 2};
    file[12] = 9000 & 0xFF, file[13] = 9000 >> 8; /* width, little-endian */
    file[14] = 9000 & 0xFF, file[15] = 9000 >> 8; /* height */
    file[16] = 24;                                /* bits per pixel */
    kiln_image img;
    kiln_error err = {0};
    CHECK(!kiln_image_decode(&img, file, sizeof file, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_CAPACITY);
    CHECK_MSG(strcmp(err.message, "<memory, 18 bytes>: 9000x9000 is more than the 67108864 pixels an image may have "
                                  "(8192x8192)") == 0, "%s", err.message);
}

TEST(radiance_hdr_decodes_to_rgba32f) {
    /* A 2x1 flat (uncompressed) Radiance file. RGBE (128, 64, 32, 129) is mantissa * 2^(e-136):
     * 1.0, 0.5, 0.25. */
    static const char header[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 2\n";
    uint8_t file[sizeof header - 1 + 8];
    memcpy(file, header, sizeof header - 1);
    const uint8_t pixels[8] = {128, 64, 32, 129, 128, 128, 128, 128};
    memcpy(file + sizeof header - 1, pixels, sizeof pixels);

    kiln_image img;
    kiln_error err = {0};
    CHECK_MSG(kiln_image_decode(&img, file, sizeof file, &err), "%s", err.message);
    CHECK(img.format == KILN_IMAGE_RGBA32F && img.width == 2 && img.height == 1);
    const float *p = img.pixels;
    CHECK_NEAR(p[0], 1.0, 1e-6);
    CHECK_NEAR(p[1], 0.5, 1e-6);
    CHECK_NEAR(p[2], 0.25, 1e-6);
    CHECK_NEAR(p[3], 1.0, 1e-6);
    CHECK_NEAR(p[4], 0.5, 1e-6); /* 128 * 2^-8 */
    kiln_image_free(&img);
}

/* A Radiance file of 3x1 texels: 1.0/0.5/0.25, then 2^16 (beyond half floats), then 0. */
static bool write_hdr_file(const char *path) {
    static const char header[] = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 3\n";
    const uint8_t pixels[12] = {128, 64, 32, 129, 128, 128, 128, 145, 0, 0, 0, 0};
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(header, 1, sizeof header - 1, f) == sizeof header - 1 && fwrite(pixels, 1, 12, f) == 12;
    return fclose(f) == 0 && ok;
}

TEST(load_hdr_gives_half_floats_clamped_to_the_half_range) {
    scratch s;
    CHECK(scratch_open(&s, "sky.hdr"));
    CHECK(write_hdr_file(s.file));
    kiln_image img;
    kiln_error err = {0};
    bool ok = kiln_image_load_hdr(&img, s.file, &err);
    scratch_close(&s);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(img.format == KILN_IMAGE_RGBA16F && img.width == 3 && img.height == 1);
    float px[4];
    kiln_image_read_pixel(&img, 0, 0, px);
    CHECK_NEAR(px[0], 1.0, 1e-6);
    CHECK_NEAR(px[1], 0.5, 1e-6);
    CHECK_NEAR(px[2], 0.25, 1e-6);
    CHECK_NEAR(px[3], 1.0, 1e-6);
    kiln_image_read_pixel(&img, 1, 0, px);
    CHECK_NEAR(px[0], 65504.0, 0.0); /* 2^16 = 65536 would be infinite as a half */
    kiln_image_read_pixel(&img, 2, 0, px);
    CHECK_NEAR(px[0], 0.0, 0.0);
    kiln_image_free(&img);
}

TEST(load_hdr_refuses_an_image_that_is_not_radiance_hdr) {
    scratch s;
    CHECK(scratch_open(&s, "sky.png"));
    kiln_image png = {0};
    kiln_error err = {0};
    CHECK(kiln_image_create(&png, 2, 2, KILN_IMAGE_RGBA8, &err));
    bool written = kiln_image_write_png(&png, s.file, &err);
    kiln_image_free(&png);
    kiln_image img;
    bool loaded = written && kiln_image_load_hdr(&img, s.file, &err);
    char want[400];
    snprintf(want, sizeof want, "%s: not a Radiance HDR image", s.file);
    scratch_close(&s);
    CHECK(written && !loaded);
    CHECK_MSG(!strcmp(err.message, want), "got '%s'", err.message);
    CHECK(img.pixels == NULL);
}

/* ---- comparison ------------------------------------------------------------------------------- */

TEST(ssim_of_identical_images_is_one) {
    kiln_image a, b;
    CHECK(make_test_card(&a, 67, 45)); /* not 8 + 4k: the edge windows are used */
    CHECK(kiln_image_to_rgba8(&a, &b, NULL));
    double ssim = 0;
    CHECK(kiln_image_ssim(&a, &b, &ssim, NULL));
    CHECK_NEAR(ssim, 1.0, 1e-12);
    kiln_image_free(&a);
    kiln_image_free(&b);
}

TEST(ssim_falls_as_noise_grows) {
    kiln_image card;
    CHECK(make_test_card(&card, 96, 64));
    double previous = 1.0;
    int amplitudes[3] = {4, 24, 80};
    for (int i = 0; i < 3; i++) {
        kiln_image noisy;
        CHECK(noisy_copy(&card, &noisy, amplitudes[i], 99));
        double ssim = 2;
        bool ok = kiln_image_ssim(&card, &noisy, &ssim, NULL);
        kiln_image_free(&noisy);
        CHECK(ok);
        CHECK_MSG(ssim < previous, "amplitude %d: ssim %f, previous %f", amplitudes[i], ssim,
                  previous);
        previous = ssim;
    }
    CHECK(previous < 0.8);
    kiln_image_free(&card);
}

/* A copy of src with noise of +-amplitude in one channel only. */
static bool channel_noise_copy(const kiln_image *src, kiln_image *dst, int channel, uint32_t seed) {
    if (!kiln_image_to_rgba8(src, dst, NULL)) return false;
    for (uint32_t y = 0; y < dst->height; y++) {
        for (uint32_t x = 0; x < dst->width; x++) {
            uint8_t *p = rgba8_at(dst, x, y);
            p[channel] = (uint8_t)(next_random(&seed) & 0xFF);
        }
    }
    return true;
}

TEST(ssim_weighs_channels_by_rec709_luma) {
    kiln_image card, blue, green, alpha;
    CHECK(make_test_card(&card, 32, 32));
    CHECK(channel_noise_copy(&card, &blue, 2, 5));
    CHECK(channel_noise_copy(&card, &green, 1, 5));
    CHECK(channel_noise_copy(&card, &alpha, 3, 5));
    double s_blue = 0, s_green = 0, s_alpha = 0;
    CHECK(kiln_image_ssim(&card, &blue, &s_blue, NULL));
    CHECK(kiln_image_ssim(&card, &green, &s_green, NULL));
    CHECK(kiln_image_ssim(&card, &alpha, &s_alpha, NULL));
    /* Green carries 0.7152 of luma, blue 0.0722, alpha nothing. */
    CHECK_MSG(s_green < s_blue && s_blue < 1.0, "green %f blue %f", s_green, s_blue);
    CHECK_NEAR(s_alpha, 1.0, 1e-12);
    kiln_image_free(&card);
    kiln_image_free(&blue);
    kiln_image_free(&green);
    kiln_image_free(&alpha);
}

TEST(ssim_sees_changes_in_the_last_column_and_row) {
    /* 67 = 8 + 4 * 14 + 3: the regular windows stop at column 63, the edge window covers 66. */
    kiln_image a, right, bottom;
    CHECK(make_test_card(&a, 67, 67));
    CHECK(kiln_image_to_rgba8(&a, &right, NULL));
    CHECK(kiln_image_to_rgba8(&a, &bottom, NULL));
    for (uint32_t i = 0; i < 67; i++) {
        memset(rgba8_at(&right, 66, i), i % 2 ? 0 : 255, 3);
        memset(rgba8_at(&bottom, i, 66), i % 2 ? 0 : 255, 3);
    }
    double s_right = 1, s_bottom = 1;
    CHECK(kiln_image_ssim(&a, &right, &s_right, NULL));
    CHECK(kiln_image_ssim(&a, &bottom, &s_bottom, NULL));
    CHECK(s_right < 1.0 - 1e-3 && s_bottom < 1.0 - 1e-3);
    kiln_image_free(&a);
    kiln_image_free(&right);
    kiln_image_free(&bottom);
}

TEST(ssim_works_on_images_smaller_than_a_window) {
    kiln_image a, b;
    CHECK(make_test_card(&a, 5, 3));
    CHECK(noisy_copy(&a, &b, 60, 7));
    double same = 0, different = 2;
    CHECK(kiln_image_ssim(&a, &a, &same, NULL));
    CHECK(kiln_image_ssim(&a, &b, &different, NULL));
    CHECK_NEAR(same, 1.0, 1e-12);
    CHECK(different < 1.0);
    kiln_image_free(&a);
    kiln_image_free(&b);
}

TEST(ssim_compares_across_formats) {
    kiln_image a, f;
    CHECK(make_test_card(&a, 16, 16));
    CHECK(kiln_image_create(&f, 16, 16, KILN_IMAGE_RGBA32F, NULL));
    float *p = f.pixels;
    const uint8_t *q = a.pixels;
    for (size_t i = 0; i < 16 * 16 * 4; i++) p[i] = q[i] / 255.0f;
    double ssim = 0;
    CHECK(kiln_image_ssim(&a, &f, &ssim, NULL));
    CHECK_NEAR(ssim, 1.0, 1e-6);
    kiln_image_free(&a);
    kiln_image_free(&f);
}

TEST(comparing_images_of_different_sizes_fails_naming_both) {
    kiln_image a, b;
    CHECK(kiln_image_create(&a, 8, 8, KILN_IMAGE_RGBA8, NULL));
    CHECK(kiln_image_create(&b, 8, 9, KILN_IMAGE_RGBA8, NULL));
    kiln_error err = {0};
    double v;
    CHECK(!kiln_image_ssim(&a, &b, &v, &err));
    CHECK_STR_CONTAINS(err.message, "8x8 vs 8x9");
    CHECK(!kiln_image_diff_fraction(&a, &b, 0, &v, &err));
    CHECK_STR_CONTAINS(err.message, "8x8 vs 8x9");
    kiln_image_free(&a);
    kiln_image_free(&b);
}

TEST(diff_fraction_counts_exactly_the_pixels_over_threshold) {
    kiln_image a, b;
    CHECK(make_test_card(&a, 10, 10));
    CHECK(kiln_image_to_rgba8(&a, &b, NULL));
    /* Seven pixels change by exactly 20 in one channel each (alpha included). */
    for (uint32_t i = 0; i < 7; i++) {
        uint8_t *p = rgba8_at(&b, i, i);
        int c = (int)(i % 4);
        p[c] = (uint8_t)(p[c] >= 20 ? p[c] - 20 : p[c] + 20);
    }
    double fraction = -1;
    CHECK(kiln_image_diff_fraction(&a, &b, 8, &fraction, NULL));
    CHECK_NEAR(fraction, 0.07, 1e-12);
    CHECK(kiln_image_diff_fraction(&a, &b, 19, &fraction, NULL));
    CHECK_NEAR(fraction, 0.07, 1e-12);
    CHECK(kiln_image_diff_fraction(&a, &b, 20, &fraction, NULL)); /* "more than", not "at least" */
    CHECK_NEAR(fraction, 0.0, 0);
    kiln_image_free(&a);
    kiln_image_free(&b);
}

TEST_MAIN(T(pixel_sizes_are_four_eight_and_sixteen), T(create_gives_a_zero_filled_image),
          T(create_rejects_empty_sizes_and_unknown_formats), T(swap_rb_exchanges_red_and_blue),
          T(swap_rb_works_on_float_images), T(to_rgba8_clamps_and_rounds_float_channels),
          T(to_rgba8_reads_half_float_images), T(png_written_then_loaded_is_identical), T(a_gray16_png_round_trips_every_value),
          T(a_pfm_holds_the_floats_bottom_row_first), T(a_png_that_cannot_be_written_fails_naming_the_path),
          T(png_of_a_float_image_is_clamped_and_quantised),
          T(loading_a_missing_file_names_the_path),
          T(decoding_a_truncated_png_names_the_input_and_the_reason),
          T(loading_a_truncated_png_file_names_the_path), T(decoding_empty_input_fails_cleanly),
          T(a_jpeg_huffman_table_of_more_than_256_codes_is_refused),
          T(a_jpeg_huffman_table_past_the_first_of_a_segment_is_checked),
          T(a_jpeg_with_fill_bytes_before_its_start_is_guarded_too),
          T(a_jpeg_scan_using_an_undefined_huffman_table_is_refused),
          T(a_radiance_hdr_run_length_count_of_zero_is_refused),
          T(an_image_over_the_pixel_limit_is_refused_before_decoding),
          T(a_sixteen_bit_pnm_is_refused),
          T(radiance_hdr_decodes_to_rgba32f), T(load_hdr_gives_half_floats_clamped_to_the_half_range),
          T(load_hdr_refuses_an_image_that_is_not_radiance_hdr), T(ssim_of_identical_images_is_one),
          T(ssim_falls_as_noise_grows), T(ssim_weighs_channels_by_rec709_luma),
          T(ssim_sees_changes_in_the_last_column_and_row), T(ssim_works_on_images_smaller_than_a_window),
          T(ssim_compares_across_formats),
          T(comparing_images_of_different_sizes_fails_naming_both),
          T(diff_fraction_counts_exactly_the_pixels_over_threshold))
