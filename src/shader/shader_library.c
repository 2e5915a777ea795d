/* The shader library: programs assembled from WGSL files (shader_assemble.c), compiled with
 * errors mapped back to the file at fault, hot reloaded as a whole when any of their files
 * changes, and the pipelines built from them rebuilt in place under their handles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wgsl_source.h"

#define LOG_CATEGORY "render.shaders"

/* A file a program was assembled from, with the stat it had when last read or checked. */
typedef struct program_file {
    char *path;                  /* NULL for an embedded file: nothing to stat */
    int64_t mtime_ns;
    uint64_t size;
} program_file;

typedef struct program {
    char *entry;                 /* a name in the library's source */
    kiln_shader handle;
    program_file *files;         /* the entry first, then its includes */
    uint32_t file_count;
} program;

/* A pipeline to rebuild when its program reloads. desc's strings point at the watch's own copies
 * (separate allocations, so they stay put when the watch array grows). */
typedef struct render_watch {
    kiln_render_pipeline pipeline;
    kiln_render_pipeline_desc desc;
    char *label, *vertex_entry, *fragment_entry;
} render_watch;

typedef struct compute_watch {
    kiln_compute_pipeline pipeline;
    kiln_compute_pipeline_desc desc;
    char *label, *entry;
} compute_watch;

struct kiln_shader_library {
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_wgsl_source source;     /* source.directory points at `directory` */
    char *directory;             /* the library's copy of the directory name; NULL for a set */
    program *programs;
    uint32_t program_count, program_capacity;
    render_watch *render_watches;
    uint32_t render_watch_count, render_watch_capacity;
    compute_watch *compute_watches;
    uint32_t compute_watch_count, compute_watch_capacity;
    uint32_t reload_failures;
    kiln_shader_validator validator; /* run on each assembled program before it compiles */
    void *validator_user;
};

/* strdup that keeps NULL as NULL; *failed is set when a non-NULL string could not be copied. */
static char *copy_optional(const char *s, bool *failed) {
    if (!s) return NULL;
    char *copy = strdup(s);
    if (!copy) *failed = true;
    return copy;
}

kiln_shader_library *kiln_shader_library_create(kiln_gfx *gfx, kiln_resources *res, const kiln_wgsl_source *source,
                                                kiln_error *err) {
    if (!gfx || !res) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_shader_library_create needs a gfx and resources");
        return NULL;
    }
    kiln_wgsl_source given = source ? *source : (kiln_wgsl_source){0};
    if (!wgsl_source_check(&given, err)) return NULL;
    kiln_shader_library *lib = calloc(1, sizeof *lib);
    char *directory = lib && given.directory ? strdup(given.directory) : NULL;
    if (!lib || (given.directory && !directory)) {
        free(lib);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating the shader library for %s",
                       given.directory ? given.directory : "an embedded set");
        return NULL;
    }
    lib->gfx = gfx;
    lib->res = res;
    lib->source = given;
    lib->directory = directory;
    lib->source.directory = directory;
    return lib;
}

static void free_program_files(program *p) {
    for (uint32_t i = 0; i < p->file_count; i++) free(p->files[i].path);
    free(p->files);
    p->files = NULL;
    p->file_count = 0;
}

static void free_render_watch(render_watch *w) {
    free(w->label);
    free(w->vertex_entry);
    free(w->fragment_entry);
}

static void free_compute_watch(compute_watch *w) {
    free(w->label);
    free(w->entry);
}

void kiln_shader_library_destroy(kiln_shader_library *lib) {
    if (!lib) return;
    for (uint32_t i = 0; i < lib->program_count; i++) {
        program *p = &lib->programs[i];
        kiln_resources_destroy_shader(lib->res, p->handle, NULL); /* already gone when the user destroyed it */
        free_program_files(p);
        free(p->entry);
    }
    for (uint32_t i = 0; i < lib->render_watch_count; i++) free_render_watch(&lib->render_watches[i]);
    for (uint32_t i = 0; i < lib->compute_watch_count; i++) free_compute_watch(&lib->compute_watches[i]);
    free(lib->programs);
    free(lib->render_watches);
    free(lib->compute_watches);
    free(lib->directory);
    free(lib);
}

uint32_t kiln_shader_library_reload_failures(const kiln_shader_library *lib) { return lib->reload_failures; }

void kiln_shader_library_set_validator(kiln_shader_library *lib, kiln_shader_validator validator, void *user) {
    lib->validator = validator;
    lib->validator_user = user;
}

/* Compiles an assembled program (its messages mapped to their files), then lets the validator
 * (if any) refuse it. The compiler goes first because its positions are mapped through the
 * chunk map: a validator that parses the assembled text (the renderer's reflection) would report
 * a syntax error at an assembled line, "post.wgsl:236:1" for the file's line 38. */
static WGPUShaderModule compile_assembled(kiln_shader_library *lib, const char *entry, const kiln_assembled_wgsl *a,
                                          kiln_error *err) {
    WGPUShaderModule module = wgsl_compile_assembled(lib->gfx, a, err);
    if (module && lib->validator && !lib->validator(lib->validator_user, entry, a->text, a->length, err)) {
        wgpuShaderModuleRelease(module);
        return NULL;
    }
    return module;
}

/* Takes the file list of a fresh assembly as the program's files (what reload watches). */
static bool adopt_files(program *p, const kiln_assembled_wgsl *a) {
    program_file *files = calloc(a->file_count ? a->file_count : 1, sizeof *files);
    if (!files) return false;
    for (uint32_t i = 0; i < a->file_count; i++) {
        const kiln_wgsl_file *from = &a->files[i];
        files[i] = (program_file){.path = from->path ? strdup(from->path) : NULL, .mtime_ns = from->mtime_ns,
                                  .size = from->size};
        if (from->path && !files[i].path) {
            for (uint32_t j = 0; j < i; j++) free(files[j].path);
            free(files);
            return false;
        }
    }
    free_program_files(p);
    p->files = files;
    p->file_count = a->file_count;
    return true;
}

static program *find_program(kiln_shader_library *lib, kiln_shader handle) {
    for (uint32_t i = 0; i < lib->program_count; i++)
        if (lib->programs[i].handle.id == handle.id) return &lib->programs[i];
    return NULL;
}

static program *find_program_by_entry(kiln_shader_library *lib, const char *entry) {
    for (uint32_t i = 0; i < lib->program_count; i++)
        if (strcmp(lib->programs[i].entry, entry) == 0) return &lib->programs[i];
    return NULL;
}

static void forget_watches_of(kiln_shader_library *lib, kiln_shader program_handle);

/* Removes programs[index] (its module is already gone) and the watches built from it. */
static void forget_program(kiln_shader_library *lib, uint32_t index) {
    program *p = &lib->programs[index];
    forget_watches_of(lib, p->handle);
    free_program_files(p);
    free(p->entry);
    lib->programs[index] = lib->programs[--lib->program_count];
}

kiln_shader kiln_shader_library_load(kiln_shader_library *lib, const char *entry, kiln_error *err) {
    if (!lib || !entry || !*entry) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_shader_library_load needs a library and an entry file");
        return (kiln_shader){0};
    }
    program *known = find_program_by_entry(lib, entry);
    if (known && kiln_resources_shader_raw(lib->res, known->handle, NULL)) return known->handle;
    if (known) forget_program(lib, (uint32_t)(known - lib->programs)); /* destroyed by the user: load anew */

    program *programs = kiln_array_reserve(lib->programs, &lib->program_capacity, lib->program_count + 1, sizeof *programs);
    if (!programs) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory registering %s", entry);
        return (kiln_shader){0};
    }
    lib->programs = programs;

    kiln_assembled_wgsl a;
    if (!kiln_wgsl_assemble(&lib->source, entry, &a, err)) return (kiln_shader){0};
    WGPUShaderModule module = compile_assembled(lib, entry, &a, err);
    program p = {.entry = strdup(entry)};
    kiln_shader handle = {0};
    if (module && (!p.entry || !adopt_files(&p, &a))) {
        wgpuShaderModuleRelease(module);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory registering %s", entry);
    } else if (module) {
        handle = kiln_resources_adopt_shader(lib->res, module, entry, err);
    }
    kiln_assembled_wgsl_free(&a);
    if (!handle.id) {
        free_program_files(&p);
        free(p.entry);
        return handle;
    }
    p.handle = handle;
    lib->programs[lib->program_count++] = p;
    return handle;
}

/* ---------------------------------------------------------------------------------------------
 * Pipeline watches
 * ------------------------------------------------------------------------------------------- */

static void forget_watches_of(kiln_shader_library *lib, kiln_shader program_handle) {
    for (uint32_t i = lib->render_watch_count; i-- > 0;) {
        if (lib->render_watches[i].desc.shader.id != program_handle.id) continue;
        free_render_watch(&lib->render_watches[i]);
        lib->render_watches[i] = lib->render_watches[--lib->render_watch_count];
    }
    for (uint32_t i = lib->compute_watch_count; i-- > 0;) {
        if (lib->compute_watches[i].desc.shader.id != program_handle.id) continue;
        free_compute_watch(&lib->compute_watches[i]);
        lib->compute_watches[i] = lib->compute_watches[--lib->compute_watch_count];
    }
}

/* The checks both watch kinds share: the program is ours and the descriptor builds from it. */
static bool check_watch(kiln_shader_library *lib, kiln_shader program_handle, kiln_shader desc_shader,
                        const void *desc, const char *kind, kiln_error *err) {
    if (!lib || !desc)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "watching a %s pipeline needs a library and a descriptor", kind);
    if (!find_program(lib, program_handle))
        return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "shader %u is not a program loaded by this library",
                              program_handle.id);
    if (desc_shader.id && desc_shader.id != program_handle.id)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "%s pipeline descriptor names shader %u, not the watched program %u", kind, desc_shader.id,
                              program_handle.id);
    return true;
}

static render_watch *find_render_watch(kiln_shader_library *lib, kiln_render_pipeline pipeline) {
    for (uint32_t i = 0; i < lib->render_watch_count; i++)
        if (lib->render_watches[i].pipeline.id == pipeline.id) return &lib->render_watches[i];
    return NULL;
}

static compute_watch *find_compute_watch(kiln_shader_library *lib, kiln_compute_pipeline pipeline) {
    for (uint32_t i = 0; i < lib->compute_watch_count; i++)
        if (lib->compute_watches[i].pipeline.id == pipeline.id) return &lib->compute_watches[i];
    return NULL;
}

bool kiln_shader_library_watch_render_pipeline(kiln_shader_library *lib, kiln_shader program_handle,
                                               kiln_render_pipeline pipeline, const kiln_render_pipeline_desc *desc,
                                               kiln_error *err) {
    if (!check_watch(lib, program_handle, desc ? desc->shader : (kiln_shader){0}, desc, "render", err)) return false;
    if (!kiln_resources_render_pipeline_raw(lib->res, pipeline, err)) return false;
    bool failed = false;
    render_watch w = {.pipeline = pipeline, .desc = *desc};
    w.desc.shader = program_handle;
    w.desc.label = w.label = copy_optional(desc->label, &failed);
    w.desc.vertex_entry = w.vertex_entry = copy_optional(desc->vertex_entry, &failed);
    w.desc.fragment_entry = w.fragment_entry = copy_optional(desc->fragment_entry, &failed);
    render_watch *existing = find_render_watch(lib, pipeline);
    if (!existing) {
        render_watch *watches = kiln_array_reserve(lib->render_watches, &lib->render_watch_capacity, lib->render_watch_count + 1,
                                         sizeof *watches);
        if (watches) lib->render_watches = watches;
        else failed = true;
    }
    if (failed) {
        free_render_watch(&w);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory watching render pipeline %u", pipeline.id);
    }
    if (existing) free_render_watch(existing);
    else existing = &lib->render_watches[lib->render_watch_count++];
    *existing = w;
    return true;
}

bool kiln_shader_library_watch_compute_pipeline(kiln_shader_library *lib, kiln_shader program_handle,
                                                kiln_compute_pipeline pipeline,
                                                const kiln_compute_pipeline_desc *desc, kiln_error *err) {
    if (!check_watch(lib, program_handle, desc ? desc->shader : (kiln_shader){0}, desc, "compute", err)) return false;
    if (!kiln_resources_compute_pipeline_raw(lib->res, pipeline, err)) return false;
    bool failed = false;
    compute_watch w = {.pipeline = pipeline, .desc = *desc};
    w.desc.shader = program_handle;
    w.desc.label = w.label = copy_optional(desc->label, &failed);
    w.desc.entry = w.entry = copy_optional(desc->entry, &failed);
    compute_watch *existing = find_compute_watch(lib, pipeline);
    if (!existing) {
        compute_watch *watches = kiln_array_reserve(lib->compute_watches, &lib->compute_watch_capacity, lib->compute_watch_count + 1,
                                          sizeof *watches);
        if (watches) lib->compute_watches = watches;
        else failed = true;
    }
    if (failed) {
        free_compute_watch(&w);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory watching compute pipeline %u", pipeline.id);
    }
    if (existing) free_compute_watch(existing);
    else existing = &lib->compute_watches[lib->compute_watch_count++];
    *existing = w;
    return true;
}

bool kiln_shader_library_unwatch_render_pipeline(kiln_shader_library *lib, kiln_render_pipeline pipeline,
                                                 kiln_error *err) {
    render_watch *w = lib ? find_render_watch(lib, pipeline) : NULL;
    if (!w) return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "render pipeline %u is not watched", pipeline.id);
    free_render_watch(w);
    *w = lib->render_watches[--lib->render_watch_count];
    return true;
}

bool kiln_shader_library_unwatch_compute_pipeline(kiln_shader_library *lib, kiln_compute_pipeline pipeline,
                                                  kiln_error *err) {
    compute_watch *w = lib ? find_compute_watch(lib, pipeline) : NULL;
    if (!w) return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "compute pipeline %u is not watched", pipeline.id);
    free_compute_watch(w);
    *w = lib->compute_watches[--lib->compute_watch_count];
    return true;
}

/* The pipelines a renderer feature keeps for its life are built and watched as one step, and
 * unwatched and destroyed as one, so no caller repeats the pairing or its undo on failure. */
kiln_render_pipeline kiln_shader_library_create_watched_render_pipeline(kiln_shader_library *lib,
                                                               const kiln_render_pipeline_desc *desc, kiln_error *err) {
    kiln_render_pipeline p = kiln_resources_create_render_pipeline(lib->res, desc, err);
    if (p.id && !kiln_shader_library_watch_render_pipeline(lib, desc->shader, p, desc, err)) {
        kiln_resources_destroy_render_pipeline(lib->res, p, NULL);
        return (kiln_render_pipeline){0};
    }
    return p;
}

kiln_compute_pipeline kiln_shader_library_create_watched_compute_pipeline(kiln_shader_library *lib,
                                                                 const kiln_compute_pipeline_desc *desc,
                                                                 kiln_error *err) {
    kiln_compute_pipeline p = kiln_resources_create_compute_pipeline(lib->res, desc, err);
    if (p.id && !kiln_shader_library_watch_compute_pipeline(lib, desc->shader, p, desc, err)) {
        kiln_resources_destroy_compute_pipeline(lib->res, p, NULL);
        return (kiln_compute_pipeline){0};
    }
    return p;
}

void kiln_shader_library_destroy_watched_render_pipeline(kiln_shader_library *lib, kiln_render_pipeline pipeline) {
    if (!pipeline.id) return;
    kiln_shader_library_unwatch_render_pipeline(lib, pipeline, NULL);
    kiln_resources_destroy_render_pipeline(lib->res, pipeline, NULL);
}

void kiln_shader_library_destroy_watched_compute_pipeline(kiln_shader_library *lib, kiln_compute_pipeline pipeline) {
    if (!pipeline.id) return;
    kiln_shader_library_unwatch_compute_pipeline(lib, pipeline, NULL);
    kiln_resources_destroy_compute_pipeline(lib->res, pipeline, NULL);
}

/* After `p` reloaded: rebuilds each of its watched pipelines from the new module. A pipeline the
 * user destroyed without unwatching is dropped; one Dawn rejects keeps its old object. */
static void rebuild_watched_pipelines(kiln_shader_library *lib, const program *p) {
    for (uint32_t i = lib->render_watch_count; i-- > 0;) {
        render_watch *w = &lib->render_watches[i];
        if (w->desc.shader.id != p->handle.id) continue;
        if (!kiln_resources_render_pipeline_raw(lib->res, w->pipeline, NULL)) {
            free_render_watch(w);
            *w = lib->render_watches[--lib->render_watch_count];
            continue;
        }
        kiln_error err = {0};
        WGPURenderPipeline raw = kiln_resources_build_render_pipeline(lib->res, &w->desc, &err);
        if (!raw || !kiln_resources_replace_render_pipeline(lib->res, w->pipeline, raw, &err))
            kiln_log_add(&lib->gfx->diagnostics, KILN_LOG_ERROR, LOG_CATEGORY,
                         "render pipeline '%s' not rebuilt after reloading %s, keeping the old one: %s",
                         w->label ? w->label : "", p->entry, err.message);
    }
    for (uint32_t i = lib->compute_watch_count; i-- > 0;) {
        compute_watch *w = &lib->compute_watches[i];
        if (w->desc.shader.id != p->handle.id) continue;
        if (!kiln_resources_compute_pipeline_raw(lib->res, w->pipeline, NULL)) {
            free_compute_watch(w);
            *w = lib->compute_watches[--lib->compute_watch_count];
            continue;
        }
        kiln_error err = {0};
        WGPUComputePipeline raw = kiln_resources_build_compute_pipeline(lib->res, &w->desc, &err);
        if (!raw || !kiln_resources_replace_compute_pipeline(lib->res, w->pipeline, raw, &err))
            kiln_log_add(&lib->gfx->diagnostics, KILN_LOG_ERROR, LOG_CATEGORY,
                         "compute pipeline '%s' not rebuilt after reloading %s, keeping the old one: %s",
                         w->label ? w->label : "", p->entry, err.message);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Hot reload
 * ------------------------------------------------------------------------------------------- */

/* Stats every file on disk of `p` and records what changed; true when any file did. A file that
 * cannot be stat'ed (mid-save, or removed) is left for the next check: its includer changes too if it was
 * really removed. */
static bool restat_program(program *p) {
    bool changed = false;
    for (uint32_t i = 0; i < p->file_count; i++) {
        program_file *f = &p->files[i];
        struct stat st;
        if (!f->path || stat(f->path, &st) != 0) continue;
        int64_t mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        if (mtime_ns == f->mtime_ns && (uint64_t)st.st_size == f->size) continue;
        f->mtime_ns = mtime_ns;
        f->size = (uint64_t)st.st_size;
        changed = true;
    }
    return changed;
}

/* Re-assembles and recompiles `p`, swapping its module in place. */
static bool reload_program(kiln_shader_library *lib, program *p, kiln_error *err) {
    kiln_assembled_wgsl a;
    if (!kiln_wgsl_assemble(&lib->source, p->entry, &a, err)) return false;
    WGPUShaderModule module = compile_assembled(lib, p->entry, &a, err);
    bool ok = module && kiln_resources_replace_shader(lib->res, p->handle, module, err);
    /* The program is now made of these files, compiled or not: an include added with an error in
     * it must be watched so that fixing it alone triggers the next reload. Keeping the old list
     * when memory is short only means a missed reload, never a wrong module. */
    adopt_files(p, &a);
    kiln_assembled_wgsl_free(&a);
    return ok;
}

uint32_t kiln_shader_library_check_for_changes(kiln_shader_library *lib, kiln_shader *reloaded, uint32_t max) {
    if (!lib) return 0;
    uint32_t succeeded = 0;
    for (uint32_t i = 0; i < lib->program_count;) {
        program *p = &lib->programs[i];
        if (!kiln_resources_shader_raw(lib->res, p->handle, NULL)) {
            forget_program(lib, i); /* moves the last program into slot i */
            continue;
        }
        i++;
        /* The new stats are kept even when the reload fails, so a broken file is reported once
         * per save rather than at every check. */
        if (!restat_program(p)) continue;
        kiln_error err = {0};
        if (!reload_program(lib, p, &err)) {
            lib->reload_failures++;
            kiln_log_add(&lib->gfx->diagnostics, KILN_LOG_ERROR, LOG_CATEGORY,
                         "reload of %s failed, keeping the last good module: %s", p->entry, err.message);
            continue;
        }
        kiln_log_add(&lib->gfx->diagnostics, KILN_LOG_INFO, LOG_CATEGORY, "reloaded %s", p->entry);
        rebuild_watched_pipelines(lib, p);
        if (reloaded && succeeded < max) reloaded[succeeded] = p->handle;
        succeeded++;
    }
    return succeeded;
}
