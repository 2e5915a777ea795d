/* kiln-view's program (kiln_view_program.h): a script run into a fresh runtime, kept when good. */
#include "kiln_view_program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "program_script.h"

static void run_free(view_program_run *r) {
    for (uint32_t i = 0; i < r->program_count; i++) free(r->programs[i].passes);
    for (uint32_t i = 0; i < r->repeat_count; i++) kiln_json_dispatch_free(&r->repeats[i].dispatch);
    free(r->programs);
    free(r->repeats);
    kiln_json_runtime_destroy(r->rt);
    *r = (view_program_run){0};
}

/* Adds `path` to the list unless it holds it. */
static void add_path(char ***list, uint32_t *count, const char *path) {
    for (uint32_t i = 0; i < *count; i++)
        if (!strcmp((*list)[i], path)) return;
    char **grown = realloc(*list, (*count + 1) * sizeof *grown);
    if (!grown) return;
    *list = grown;
    if (((*list)[*count] = strdup(path))) ++*count;
}

static void free_paths(char ***list, uint32_t *count) {
    for (uint32_t i = 0; i < *count; i++) free((*list)[i]);
    free(*list);
    *list = NULL, *count = 0;
}

/* The form's name of a pass's "stage": the string, or the one key of its object. */
static const char *stage_form(const json_t *stage) {
    if (json_is_string(stage)) return json_string_value(stage);
    void *iter = json_is_object(stage) ? json_object_iter((json_t *)stage) : NULL;
    return iter ? json_object_iter_key(iter) : "?";
}

/* What a Ok program.register message declared: its label and each pass's stage and entry. */
static bool note_program(view_program_run *r, const json_t *sent, uint32_t id) {
    view_program_info *grown = realloc(r->programs, (r->program_count + 1) * sizeof *grown);
    if (!grown) return false;
    r->programs = grown;
    view_program_info *p = &r->programs[r->program_count++];
    *p = (view_program_info){.id = id};
    const char *label = json_string_value(json_object_get(sent, "label"));
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    const json_t *passes = json_object_get(sent, "passes");
    p->pass_count = (uint32_t)json_array_size(passes);
    if (p->pass_count && !(p->passes = calloc(p->pass_count, sizeof *p->passes))) return false;
    for (uint32_t i = 0; i < p->pass_count; i++) {
        const json_t *pass = json_array_get(passes, i);
        snprintf(p->passes[i].stage, sizeof p->passes[i].stage, "%s", stage_form(json_object_get(pass, "stage")));
        const char *entry = json_string_value(json_object_get(pass, "entry_point"));
        snprintf(p->passes[i].entry, sizeof p->passes[i].entry, "%s", entry ? entry : "");
    }
    return true;
}

/* A dispatch marked "every_frame": true, or {"time_offset": B} with B + 4 within its uniforms. */
static bool note_repeat(view_program_run *r, const json_t *sent, const json_t *mark, char *why, size_t n) {
    view_program_repeat rep = {0};
    const json_t *offset = json_object_get(mark, "time_offset");
    if (!json_is_true(mark) && !(json_is_object(mark) && json_is_integer(offset) && json_object_size(mark) == 1))
        return snprintf(why, n, "every_frame: expected true or {\"time_offset\": BYTES}"), false;
    kiln_json_error jerr = {0};
    if (!kiln_json_decode_dispatch(sent, &rep.dispatch, &jerr)) return snprintf(why, n, "%s", jerr.message), false;
    size_t size = rep.dispatch.uniforms.size;
    json_int_t at = json_is_integer(offset) ? json_integer_value(offset) : 0;
    rep.timed = json_is_object(mark);
    bool fits = at >= 0 && (size_t)at + 4 <= size;
    if (rep.timed && !fits) {
        kiln_json_dispatch_free(&rep.dispatch);
        return snprintf(why, n, "every_frame.time_offset: %lld + 4 bytes pass the %zu-byte uniforms", (long long)at, size),
               false;
    }
    rep.time_offset = (uint32_t)at;
    view_program_repeat *grown = realloc(r->repeats, (r->repeat_count + 1) * sizeof *grown);
    if (!grown) {
        kiln_json_dispatch_free(&rep.dispatch);
        return snprintf(why, n, "out of memory"), false;
    }
    r->repeats = grown;
    r->repeats[r->repeat_count++] = rep;
    return true;
}

/* "blur.json: script[3] (program.register): invalid_wgsl: blur.wgsl:4:39: ..." from an Err reply's text. */
static void describe_err(const char *reply_text, const char *path, size_t index, const char *kind, char *why, size_t n) {
    json_t *reply = json_loads(reply_text, 0, NULL);
    json_t *e = json_object_get(reply, "Err");
    const char *cls = json_string_value(json_object_get(e, "class")), *error = json_string_value(json_object_get(e, "error"));
    snprintf(why, n, "%s: script[%zu] (%s): %s: %s", path, index, kind[0] ? kind : "no kind", cls ? cls : "?",
             error ? error : reply_text);
    json_decref(reply);
}

/* The texture `name` names: an "as" name (a leading '$' allowed) or a decimal id. */
static bool named_texture(const program_script *s, const char *name, uint32_t *id) {
    if (name[0] == '$') name++;
    char *end;
    unsigned long n = strtoul(name, &end, 10);
    if (name[0] >= '0' && name[0] <= '9' && !*end) return (*id = (uint32_t)n), n == *id;
    return program_script_lookup(s, name, id);
}

/* Runs every message of the script into a new runtime; on success *out is the run. The
 * wgsl_path files it read or tried to are added to `files` either way. */
static bool attempt(const view_program *vp, kiln_gfx *gfx, kiln_resources *res, const char *path, const char *texture_name,
                    view_program_run *out, char ***files, uint32_t *file_count, char *why, size_t n) {
    *out = (view_program_run){0};
    json_t *script = program_script_load(path, why, n);
    if (!script) return false;
    kiln_error kerr = {0};
    out->rt = kiln_json_runtime_create(gfx, res, &kerr);
    if (!out->rt) {
        snprintf(why, n, "%s: no runtime: %s", path, kerr.message);
        json_decref(script);
        return false;
    }
    program_script s;
    program_script_init(&s, out->rt, path, "kiln-view", NULL, vp->allow_outside_paths);
    out->message_count = (uint32_t)json_array_size(script);
    bool ok = true;
    size_t saved_at = 0;
    uint32_t saved = 0;
    for (size_t i = 0; ok && i < json_array_size(script); i++) {
        program_script_reply reply;
        if (!program_script_step(&s, json_array_get(script, i), i, &reply)) {
            snprintf(why, n, "%s: %s", path, s.fatal);
            ok = false;
            break;
        }
        const char *kind = json_string_value(json_object_get(json_array_get(script, i), "kind"));
        if (!kind) kind = "";
        const json_t *mark = json_object_get(reply.sent, "every_frame");
        char reason[1024];
        if (!reply.ok) {
            describe_err(reply.text, path, i, kind, why, n);
            ok = false;
        } else if (mark && strcmp(kind, "program.dispatch") != 0) {
            snprintf(why, n, "%s: script[%zu] (%s): every_frame: only a program.dispatch is repeated every frame", path, i,
                     kind);
            ok = false;
        } else if (mark && !note_repeat(out, reply.sent, mark, reason, sizeof reason)) {
            snprintf(why, n, "%s: script[%zu] (%s): %s", path, i, kind, reason);
            ok = false;
        } else if (!strcmp(kind, "program.register") && !note_program(out, reply.sent, reply.assigned)) {
            snprintf(why, n, "out of memory");
            ok = false;
        } else if (!strcmp(kind, "save_texture")) {
            kiln_json_error jerr = {0};
            ok = kiln_json_decode_u32_field(reply.sent, "texture_id", &saved, &jerr);
            saved_at = i;
        }
        program_script_reply_free(&reply);
    }
    for (size_t i = 0; i < s.file_count; i++) add_path(files, file_count, s.files[i]);
    if (ok && texture_name) {
        ok = named_texture(&s, texture_name, &out->texture);
        if (!ok) snprintf(why, n, "%s: --program-texture %s names no texture of the script", path, texture_name);
        snprintf(out->shown_by, sizeof out->shown_by, "--program-texture %s", texture_name);
    } else if (ok) {
        ok = saved != 0;
        if (!ok)
            snprintf(why, n, "%s: the script saves no texture to show: add a save_texture, or name one with --program-texture",
                     path);
        out->texture = saved;
        snprintf(out->shown_by, sizeof out->shown_by, "save_texture at script[%zu]", saved_at);
    }
    const kiln_texture_info *info = ok ? kiln_texture_registry_info(kiln_json_runtime_textures(out->rt), out->texture) : NULL;
    if (ok && !info) snprintf(why, n, "%s: %s: no texture %u", path, out->shown_by, out->texture), ok = false;
    if (ok && info->kind != KILN_TEXTURE_PLAIN)
        snprintf(why, n, "%s: %s: texture %u is not a plain texture, which is what kiln-view shows", path, out->shown_by,
                 out->texture), ok = false;
    if (ok) out->info = *info;
    program_script_free(&s);
    json_decref(script);
    if (!ok) run_free(out);
    return ok;
}

static bool run_script(view_program *vp, kiln_gfx *gfx, kiln_resources *res, const char *path, const char *texture_name,
                       kiln_error *err) {
    char why[2048];
    view_program_run run;
    char **files = NULL;
    uint32_t file_count = 0;
    add_path(&files, &file_count, path);
    bool ok = attempt(vp, gfx, res, path, texture_name, &run, &files, &file_count, why, sizeof why);
    bool same_script = vp->script_path && !strcmp(vp->script_path, path);
    if (!ok && !same_script) {
        free_paths(&files, &file_count);
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s", why);
    }
    /* The same script: its new files are watched as well as those of the good run. A new one
     * that ran: only its own. */
    if (ok && !same_script) free_paths(&vp->watched, &vp->watched_count);
    for (uint32_t i = 0; i < file_count; i++) add_path(&vp->watched, &vp->watched_count, files[i]);
    free_paths(&files, &file_count);
    if (!ok) {
        snprintf(vp->error, sizeof vp->error, "%s", why);
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s", why);
    }
    /* Copied before the old strings go: `path` and `texture_name` may be them. */
    char *copy = strdup(path), *name = texture_name ? strdup(texture_name) : NULL;
    if (!copy || (texture_name && !name)) {
        free(copy), free(name), run_free(&run);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    }
    free(vp->script_path), free(vp->texture_name);
    vp->script_path = copy, vp->texture_name = name;
    if (!same_script) vp->time = 0.0; /* a new script's clock starts again; a reload's runs on */
    run_free(&vp->run);
    vp->run = run;
    vp->error[0] = '\0';
    return true;
}

bool view_program_load(view_program *vp, kiln_gfx *gfx, kiln_resources *res, const char *path, const char *texture_name,
                       kiln_error *err) {
    return run_script(vp, gfx, res, path, texture_name, err);
}

bool view_program_rerun(view_program *vp, kiln_gfx *gfx, kiln_resources *res, kiln_error *err) {
    if (!vp->script_path) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "no program script is loaded");
    return run_script(vp, gfx, res, vp->script_path, vp->texture_name, err);
}

bool view_program_record(view_program *vp, double seconds, kiln_encoder *enc, kiln_error *err) {
    if (!vp->run.rt) return true;
    if (vp->playing) vp->time += seconds;
    kiln_programs *programs = kiln_json_runtime_programs(vp->run.rt);
    for (uint32_t i = 0; i < vp->run.repeat_count; i++) {
        view_program_repeat *r = &vp->run.repeats[i];
        if (r->timed) {
            float t = (float)vp->time;
            memcpy(r->dispatch.uniforms.bytes + r->time_offset, &t, sizeof t);
        }
        kiln_dispatch_desc d = {.program_id = r->dispatch.program_id, .texture_ids = r->dispatch.bindings,
                                .texture_count = r->dispatch.binding_count, .geometry_ids = r->dispatch.geometries,
                                .geometry_count = r->dispatch.geometry_count,
                                .draw_set_list_count = r->dispatch.draw_set_list_count,
                                .draw_set_list_lengths = r->dispatch.draw_set_list_lengths,
                                .draw_set_ids = r->dispatch.draw_set_ids, .uniforms = r->dispatch.uniforms.bytes,
                                .uniforms_size = r->dispatch.uniforms.size};
        kiln_programs_dispatch_with(programs, &d); /* a drop is logged in the program log */
    }
    return kiln_programs_record(programs, enc, err);
}

kiln_texture_view view_program_texture_view(view_program *vp, kiln_error *err) {
    if (!vp->run.rt) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "no program has run");
        return (kiln_texture_view){0};
    }
    return kiln_texture_registry_view_handle(kiln_json_runtime_textures(vp->run.rt), vp->run.texture, err);
}

uint32_t view_program_timings(const view_program *vp, uint32_t index, kiln_pass_timing *rows, uint32_t max) {
    if (!vp->run.rt || index >= vp->run.program_count) return 0;
    return kiln_programs_timings(kiln_json_runtime_programs(vp->run.rt), vp->run.programs[index].id, rows, max);
}

kiln_log *view_program_log(view_program *vp) {
    return vp->run.rt ? kiln_programs_log(kiln_json_runtime_programs(vp->run.rt)) : NULL;
}

void view_program_release(view_program *vp) {
    run_free(&vp->run);
}

void view_program_close(view_program *vp) {
    run_free(&vp->run);
    free_paths(&vp->watched, &vp->watched_count);
    free(vp->script_path);
    free(vp->texture_name);
    *vp = (view_program){0};
}
