/* Shared set-up for the program runtime's GPU tests: a device with a texture registry and a
 * program runtime, texture helpers that read any format back as floats, and small constructors for
 * the pieces of a program descriptor. */
#ifndef KILN_PROGRAM_TEST_UTIL_H
#define KILN_PROGRAM_TEST_UTIL_H

#include <kiln/core/half.h>
#include <kiln/program.h>
#include <kiln/textures.h>

#include "gfx_fixture.h"

typedef struct program_fixture {
    gfx_fixture gfx;
    kiln_texture_registry *reg;
    kiln_programs *programs;
} program_fixture;

static inline bool program_fixture_open(program_fixture *f) {
    *f = (program_fixture){0};
    if (!fixture_open(&f->gfx)) return false;
    kiln_error err = {0};
    f->reg = kiln_texture_registry_create(f->gfx.res, &err);
    if (f->reg) f->programs = kiln_programs_create(f->gfx.gfx, f->gfx.res, f->reg, &err);
    if (!f->programs) fprintf(stderr, "program fixture: %s\n", err.message);
    return f->programs != NULL;
}

/* The same over resources whose pools all grow (kiln_resources_create's default, capacity 0), as
 * an application's are, where the plain fixture bounds buffers, textures, views and bind groups
 * at 256 to catch leaks early. */
static inline bool program_fixture_open_growing(program_fixture *f) {
    *f = (program_fixture){0};
    if (!fixture_open(&f->gfx)) return false;
    kiln_error err = {0};
    kiln_resources_destroy(f->gfx.res);
    f->gfx.res = kiln_resources_create(f->gfx.gfx, 0, &err);
    f->reg = f->gfx.res ? kiln_texture_registry_create(f->gfx.res, &err) : NULL;
    if (f->reg) f->programs = kiln_programs_create(f->gfx.gfx, f->gfx.res, f->reg, &err);
    if (!f->programs) fprintf(stderr, "program fixture: %s\n", err.message);
    return f->programs != NULL;
}

/* Returns the number of uncaptured Dawn errors seen over the fixture's life. */
static inline uint64_t program_fixture_close(program_fixture *f) {
    kiln_programs_destroy(f->programs);
    kiln_texture_registry_destroy(f->reg);
    return fixture_close(&f->gfx);
}

#define PROGRAM_FIXTURE_OPEN(f) CHECK_MSG(program_fixture_open(&(f)), "no GPU device")
#define PROGRAM_FIXTURE_CLOSE_CLEAN(f) CHECK_EQ_INT(program_fixture_close(&(f)), 0)

/* ---- textures ------------------------------------------------------------------------------------ */

static inline uint32_t make_texture(program_fixture *f, kiln_texture_format format, uint32_t w, uint32_t h,
                                    const void *pixels, bool writable) {
    kiln_error err = {0};
    kiln_texture_create_desc d = {
        .format = format, .width = w, .height = h, .pixels = pixels,
        .pixels_size = pixels ? (size_t)w * h * kiln_texture_format_bytes(format) : 0,
        .usage = writable ? KILN_USAGE_WRITABLE : KILN_USAGE_SAMPLED,
    };
    uint32_t id = kiln_texture_registry_add(f->reg, &d, &err);
    if (!id) fprintf(stderr, "make_texture: %s\n", err.message);
    return id;
}

static inline uint32_t format_channels(kiln_texture_format format) {
    return format == KILN_FORMAT_RGBA8 || format == KILN_FORMAT_RGBA16_FLOAT ? 4 : 1;
}

/* Reads every channel of every texel as a float (unorm formats in 0..1), rows top-down, into
 * `out`, which holds width * height * channels values. */
static inline bool read_texels(program_fixture *f, uint32_t id, float *out) {
    const kiln_texture_info *info = kiln_texture_registry_info(f->reg, id);
    void *pixels = NULL;
    size_t size = 0;
    kiln_error err = {0};
    if (!info || !kiln_texture_registry_read(f->reg, id, &pixels, &size, &err)) {
        fprintf(stderr, "read_texels: %s\n", info ? err.message : "unknown texture");
        return false;
    }
    size_t n = (size_t)info->width * info->height * format_channels(info->format);
    for (size_t i = 0; i < n; i++) {
        switch (info->format) {
        case KILN_FORMAT_RGBA8:
        case KILN_FORMAT_R8: out[i] = ((const uint8_t *)pixels)[i] / 255.0f; break;
        case KILN_FORMAT_R32_FLOAT: out[i] = ((const float *)pixels)[i]; break;
        default: out[i] = kiln_half_to_float(((const uint16_t *)pixels)[i]); break;
        }
    }
    free(pixels);
    return true;
}

/* The newest record of the program log, or "" when it is empty. */
static inline const char *last_log(program_fixture *f) {
    kiln_log *log = kiln_programs_log(f->programs);
    uint32_t n = kiln_log_count(log);
    return n ? kiln_log_at(log, n - 1)->message : "";
}

static inline bool run_frame(program_fixture *f) {
    kiln_error err = {0};
    if (kiln_programs_frame(f->programs, &err)) return true;
    fprintf(stderr, "kiln_programs_frame: %s\n", err.message);
    return false;
}

/* ---- descriptor pieces ------------------------------------------------------------------------------ */

static inline kiln_slot_spec target_slot(kiln_texture_format format) {
    return (kiln_slot_spec){.format = format, .shape = {.kind = KILN_SHAPE_TARGET}};
}

static inline kiln_slot_spec divided_target_slot(kiln_texture_format format, uint32_t divisor) {
    return (kiln_slot_spec){.format = format, .shape = {.kind = KILN_SHAPE_TARGET, .extent = {true, divisor}}};
}

static inline kiln_slot_spec texture_slot(kiln_texture_format format) {
    return (kiln_slot_spec){.format = format, .shape = {.kind = KILN_SHAPE_TEXTURE}};
}

static inline kiln_transient_spec full_transient(kiln_texture_format format, kiln_samples samples) {
    return (kiln_transient_spec){.format = format, .samples = samples};
}

static inline kiln_output_slot to_binding(uint32_t index) {
    return (kiln_output_slot){KILN_OUTPUT_BINDING, index};
}

static inline kiln_output_slot to_transient(uint32_t index) {
    return (kiln_output_slot){KILN_OUTPUT_TRANSIENT, index};
}

static inline kiln_input_slot from_binding(uint32_t index) {
    return (kiln_input_slot){.kind = KILN_INPUT_BINDING, .index = index};
}

static inline kiln_input_slot from_transient(uint32_t index) {
    return (kiln_input_slot){.kind = KILN_INPUT_TRANSIENT, .index = index};
}

static inline kiln_input_slot from_pass(uint32_t index) {
    return (kiln_input_slot){.kind = KILN_INPUT_PASS_OUTPUT, .index = index};
}

/* A fragment pass with no inputs and no uniform window. */
static inline kiln_pass_spec fragment_pass(const char *entry, kiln_output_slot out, kiln_program_blend blend) {
    return (kiln_pass_spec){.stage = KILN_STAGE_FRAGMENT, .entry_point = entry, .output = out, .blend = blend};
}

static inline kiln_pass_spec with_input(kiln_pass_spec pass, kiln_input_slot in) {
    pass.inputs[pass.input_count++] = in;
    return pass;
}

static inline kiln_pass_spec with_window(kiln_pass_spec pass, uint32_t offset, uint32_t length) {
    pass.uniform_offset = offset;
    pass.uniform_length = length;
    return pass;
}

static inline kiln_pass_spec with_repeat(kiln_pass_spec pass, uint32_t count, uint32_t stride) {
    pass.repeat_count = count;
    pass.repeat_uniform_stride = stride;
    return pass;
}

#define COUNT_OF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* A program descriptor over arrays declared next to it. */
#define PROGRAM_DESC(source, bindings_, transients_, passes_)                                     \
    ((kiln_program_desc){.wgsl = (source), .binding_count = COUNT_OF(bindings_), .bindings = (bindings_), \
                         .transient_count = COUNT_OF(transients_), .transients = (transients_),            \
                         .pass_count = COUNT_OF(passes_), .passes = (passes_)})
/* The same without transients. */
#define PROGRAM_DESC_PLAIN(source, bindings_, passes_)                                              \
    ((kiln_program_desc){.wgsl = (source), .binding_count = COUNT_OF(bindings_), .bindings = (bindings_), \
                         .pass_count = COUNT_OF(passes_), .passes = (passes_)})

#endif
