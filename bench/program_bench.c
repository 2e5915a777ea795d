/* program_bench: what registering and recording a program of many passes costs on the CPU.
 *
 *   build/bin/kiln-program-bench [--size WxH] [--frames N] [--passes N]
 *
 * For programs of 300, 1,000 and 4,096 passes (or only N with --passes, for a profile of one size) (the counting program of the scale tests: a source
 * pass, then passes that each load the one before and add 1, alternating between two R32Float
 * transients, the last writing the output), it registers the program, then records N dispatches,
 * each queued and recorded into a fresh encoder with kiln_programs_record, which is timed, then
 * submitted and waited for outside the timing. It prints one JSON line per size: the register
 * time, the first dispatch's record time (it creates the passes' bind groups), and the median and
 * best record time of the later ones, in wall time and in the recording thread's CPU time. The
 * output defaults to 1x1, so the GPU's share stays out of the way; the record time does not
 * depend on the size. The goal (#11): a 300-pass dispatch records in under 1 ms of CPU on the H200
 * host. Not a test: the figures go in docs/PERFORMANCE.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kiln/program.h>
#include <kiln/textures.h>

#include "bench_common.h"

#define MAX_FRAMES 1000

static const char *const COUNT_WGSL =
    "@group(1) @binding(0) var previous: texture_2d<f32>;\n"
    "@fragment fn fs_one() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }\n"
    "@fragment fn fs_inc(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {\n"
    "    return textureLoad(previous, vec2<i32>(position.xy), 0) + vec4<f32>(1.0, 0.0, 0.0, 0.0);\n"
    "}\n";

static double thread_cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static uint32_t register_counting(kiln_programs *programs, uint32_t count, kiln_program_error *err) {
    kiln_slot_spec binding = {.format = KILN_FORMAT_R32_FLOAT, .shape = {.kind = KILN_SHAPE_TARGET}};
    kiln_transient_spec transients[2] = {{.format = KILN_FORMAT_R32_FLOAT}, {.format = KILN_FORMAT_R32_FLOAT}};
    kiln_pass_spec *passes = calloc(count, sizeof *passes);
    if (!passes) return 0;
    passes[0] = (kiln_pass_spec){.stage = KILN_STAGE_FRAGMENT, .entry_point = "fs_one",
                                 .output = {KILN_OUTPUT_TRANSIENT, 0}};
    for (uint32_t i = 1; i < count; i++)
        passes[i] = (kiln_pass_spec){
            .stage = KILN_STAGE_FRAGMENT, .entry_point = "fs_inc", .input_count = 1,
            .inputs = {{.kind = KILN_INPUT_PASS_OUTPUT, .index = i - 1}},
            .output = i + 1 == count ? (kiln_output_slot){KILN_OUTPUT_BINDING, 0}
                                     : (kiln_output_slot){KILN_OUTPUT_TRANSIENT, i % 2}};
    kiln_program_desc desc = {.label = "bench", .wgsl = COUNT_WGSL, .binding_count = 1, .bindings = &binding,
                              .transient_count = 2, .transients = transients, .pass_count = count,
                              .passes = passes};
    uint32_t id = kiln_programs_register(programs, &desc, err);
    free(passes);
    return id;
}

/* One dispatch recorded into its own encoder: the record call's wall and thread CPU time. */
static bool record_one(kiln_gfx *gfx, kiln_resources *res, kiln_programs *programs, uint32_t prog, uint32_t out,
                       double *wall_ms, double *cpu_ms) {
    kiln_error err = {0};
    if (kiln_programs_dispatch(programs, prog, &out, 1, NULL, 0) != KILN_DISPATCH_OK) {
        fprintf(stderr, "kiln-program-bench: the dispatch was dropped\n");
        return false;
    }
    kiln_encoder enc;
    if (!kiln_encoder_begin(&enc, res, "bench", &err)) {
        fprintf(stderr, "kiln-program-bench: %s\n", err.message);
        return false;
    }
    double wall = bench_now_ms(), cpu = thread_cpu_ms();
    bool recorded = kiln_programs_record(programs, &enc, &err);
    *cpu_ms = thread_cpu_ms() - cpu;
    *wall_ms = bench_now_ms() - wall;
    if (!recorded || !kiln_encoder_finish_and_submit(&enc, &err) || !kiln_gfx_wait_for_queue(gfx, &err)) {
        fprintf(stderr, "kiln-program-bench: %s\n", err.message);
        return false;
    }
    kiln_gfx_pump(gfx, false);
    return true;
}

static bool bench_size(kiln_gfx *gfx, kiln_resources *res, kiln_texture_registry *reg, uint32_t passes,
                       uint32_t width, uint32_t height, uint32_t frames) {
    kiln_error err = {0};
    kiln_programs *programs = kiln_programs_create(gfx, res, reg, &err);
    if (!programs) {
        fprintf(stderr, "kiln-program-bench: %s\n", err.message);
        return false;
    }
    kiln_texture_create_desc td = {.format = KILN_FORMAT_R32_FLOAT, .width = width, .height = height,
                                   .usage = KILN_USAGE_WRITABLE};
    uint32_t out = kiln_texture_registry_add(reg, &td, &err);
    kiln_program_error perr = {0};
    double t0 = bench_now_ms();
    uint32_t prog = out ? register_counting(programs, passes, &perr) : 0;
    double register_ms = bench_now_ms() - t0;
    bool ok = prog != 0;
    if (!ok) fprintf(stderr, "kiln-program-bench: register: %s\n", out ? perr.message : err.message);
    double first_ms = 0, first_cpu = 0;
    static double wall[MAX_FRAMES], cpu[MAX_FRAMES];
    ok = ok && record_one(gfx, res, programs, prog, out, &first_ms, &first_cpu);
    for (uint32_t f = 0; ok && f < frames; f++) ok = record_one(gfx, res, programs, prog, out, &wall[f], &cpu[f]);
    float value = 0;
    void *pixels = NULL;
    size_t size = 0;
    if (ok && kiln_texture_registry_read(reg, out, &pixels, &size, &err)) memcpy(&value, pixels, sizeof value);
    free(pixels);
    if (ok) {
        double best = wall[0];
        for (uint32_t f = 1; f < frames; f++) best = wall[f] < best ? wall[f] : best;
        printf("{\"passes\": %u, \"size\": \"%ux%u\", \"frames\": %u, \"device\": \"%s\", \"register_ms\": %.2f, "
               "\"first_record_ms\": %.3f, \"record_ms_median\": %.3f, \"record_ms_best\": %.3f, "
               "\"record_cpu_ms_median\": %.3f, \"record_us_per_pass\": %.2f, \"counted\": %.0f}\n",
               passes, width, height, frames, gfx->adapter_name, register_ms, first_ms, bench_median(wall, frames),
               best, bench_median(cpu, frames), 1e3 * bench_median(wall, frames) / passes, value);
        fflush(stdout);
    }
    kiln_programs_destroy(programs);
    if (out) kiln_texture_registry_remove(reg, out, NULL);
    return ok;
}


int main(int argc, char **argv) {
    bench_frame_options o = {.width = 1, .height = 1, .frames = 20, .max_frames = MAX_FRAMES,
                             .extra_flag = {"--passes", "N", "only the program of N passes, in [2, 65536]"}, .extra_min = 2,
                             .extra_max = 65536};
    int status = bench_parse_frame_options("kiln-program-bench", "kiln-program-bench [--size WxH] [--frames N] [--passes N]",
                                           argc, argv, &o);
    if (status != TOOL_RUN) return status;
    uint32_t width = o.width, height = o.height, frames = o.frames, only = (uint32_t)o.extra;
    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-program-bench"}, &err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, &err) : NULL;
    kiln_texture_registry *reg = res ? kiln_texture_registry_create(res, &err) : NULL;
    if (!reg) {
        fprintf(stderr, "kiln-program-bench: %s\n", err.message);
        return 1;
    }
    static const uint32_t SIZES[] = {300, 1000, 4096};
    bool ok = true;
    if (only) ok = bench_size(gfx, res, reg, only, width, height, frames);
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0] && ok && !only; i++)
        ok = bench_size(gfx, res, reg, SIZES[i], width, height, frames);
    kiln_texture_registry_destroy(reg);
    kiln_resources_destroy(res);
    uint64_t errors = gfx->error_count;
    kiln_gfx_destroy(gfx);
    if (errors) fprintf(stderr, "kiln-program-bench: %llu uncaptured Dawn errors\n", (unsigned long long)errors);
    return ok && !errors ? 0 : 1;
}
