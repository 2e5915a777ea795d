/* WGSL assembly: splices `#include "file.wgsl"` lines into one text and keeps a map from assembled
 * lines back to each file's own lines. Pure CPU; the library (shader_library.c) compiles the
 * result and uses the map to name the file at fault in compile errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl_source.h"

typedef struct assembler {
    const kiln_wgsl_source *source;
    kiln_assembled_wgsl *out;
    size_t text_capacity;
    uint32_t file_capacity;
    uint32_t identity_capacity;
    uint32_t chunk_capacity;
    wgsl_file_identity *identities; /* parallel to out->files */
    kiln_error *err;
} assembler;

typedef enum open_result {
    OPEN_NEW,                    /* read and appended to out->files */
    OPEN_ALREADY_INCLUDED,       /* the same file is already part of the program */
    OPEN_FAILED,                 /* *error_number says why */
} open_result;

static bool out_of_memory(assembler *as, const char *what) {
    return kiln_error_set(as->err, KILN_ERR_OUT_OF_MEMORY, "out of memory assembling WGSL (%s)", what);
}

/* Resolves `name` (wgsl_source.c). A new file is appended to out->files (with its stat) and its
 * text returned in *text (the caller frees it). */
static open_result open_file(assembler *as, const char *name, char **text, size_t *length, int *error_number) {
    wgsl_found_file found;
    if ((*error_number = wgsl_source_find(as->source, name, &found))) return OPEN_FAILED;
    kiln_assembled_wgsl *out = as->out;
    for (uint32_t i = 0; i < out->file_count; i++) {
        if (wgsl_same_file(as->identities[i], found.identity)) {
            free(found.text);
            free(found.path);
            return OPEN_ALREADY_INCLUDED;
        }
    }
    char *copy = strdup(name);
    kiln_wgsl_file *files = NULL;
    wgsl_file_identity *identities = NULL;
    if (copy && (files = kiln_array_reserve(out->files, &as->file_capacity, out->file_count + 1, sizeof *files)))
        out->files = files;
    if (files && (identities = kiln_array_reserve(as->identities, &as->identity_capacity, out->file_count + 1, sizeof *identities)))
        as->identities = identities;
    if (!identities) {
        free(found.text);
        free(found.path);
        free(copy);
        *error_number = ENOMEM;
        return OPEN_FAILED;
    }
    as->identities[out->file_count] = found.identity;
    out->files[out->file_count++] = (kiln_wgsl_file){
        .name = copy,
        .path = found.path,
        .mtime_ns = found.mtime_ns,
        .size = found.length,
    };
    *text = found.text;
    *length = found.length;
    return OPEN_NEW;
}

/* Appends one source line (without its '\n') to the assembled text and extends the chunk map. */
static bool append_line(assembler *as, const char *line, size_t length, uint32_t file_index, uint32_t file_line) {
    kiln_assembled_wgsl *out = as->out;
    size_t need = out->length + length + 2;
    if (need > as->text_capacity) {
        size_t cap = as->text_capacity ? as->text_capacity * 2 : 4096;
        while (cap < need) cap *= 2;
        char *grown = realloc(out->text, cap);
        if (!grown) return out_of_memory(as, "text");
        out->text = grown;
        as->text_capacity = cap;
    }
    memcpy(out->text + out->length, line, length);
    out->length += length;
    out->text[out->length++] = '\n';
    out->text[out->length] = '\0';
    uint32_t assembled_line = ++out->line_count;

    if (out->chunk_count) {
        kiln_wgsl_chunk *last = &out->chunks[out->chunk_count - 1];
        if (last->file_index == file_index && last->first_line + last->line_count == assembled_line &&
            last->file_line + last->line_count == file_line) {
            last->line_count++;
            return true;
        }
    }
    kiln_wgsl_chunk *chunks = kiln_array_reserve(out->chunks, &as->chunk_capacity, out->chunk_count + 1, sizeof *chunks);
    if (!chunks) return out_of_memory(as, "chunk map");
    out->chunks = chunks;
    out->chunks[out->chunk_count++] = (kiln_wgsl_chunk){
        .first_line = assembled_line, .line_count = 1, .file_index = file_index, .file_line = file_line};
    return true;
}

typedef enum include_parse {
    LINE_PLAIN,
    LINE_INCLUDE,
    LINE_MALFORMED_INCLUDE,
} include_parse;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Recognises `#include "name"` with blanks around it. WGSL has no `#` at all, so a line that starts
 * with `#include` but is not exactly that shape is an error rather than text passed to Dawn. */
static include_parse parse_include(const char *line, size_t length, const char **name, size_t *name_length) {
    static const char directive[] = "#include";
    size_t i = 0;
    while (i < length && is_blank(line[i])) i++;
    if (length - i < sizeof directive - 1 || memcmp(line + i, directive, sizeof directive - 1) != 0) return LINE_PLAIN;
    i += sizeof directive - 1;
    while (i < length && is_blank(line[i])) i++;
    if (i == length || line[i] != '"') return LINE_MALFORMED_INCLUDE;
    size_t start = ++i;
    while (i < length && line[i] != '"') i++;
    if (i == length || i == start) return LINE_MALFORMED_INCLUDE;
    size_t end = i++;
    while (i < length && is_blank(line[i])) i++;
    if (i != length) return LINE_MALFORMED_INCLUDE;
    *name = line + start;
    *name_length = end - start;
    return LINE_INCLUDE;
}

static bool splice(assembler *as, uint32_t file_index, const char *text, size_t length, uint32_t depth);

/* Handles one #include line of files[file_index] (at its line `line_no`). */
static bool splice_include(assembler *as, uint32_t file_index, uint32_t line_no, const char *name_start,
                           size_t name_length, uint32_t depth) {
    char *name = malloc(name_length + 1);
    if (!name) return out_of_memory(as, "include name");
    memcpy(name, name_start, name_length);
    name[name_length] = '\0';

    char *text = NULL;
    size_t length = 0;
    int error_number = 0;
    open_result r = open_file(as, name, &text, &length, &error_number);
    bool ok = true;
    const char *includer = as->out->files[file_index].name;
    if (r == OPEN_FAILED) {
        ok = kiln_error_set(as->err, KILN_ERR_IO, "%s:%u: cannot include \"%s\": %s", includer, line_no, name,
                            wgsl_source_error_text(error_number));
    } else if (r == OPEN_NEW && depth + 1 > KILN_WGSL_MAX_INCLUDE_DEPTH) {
        ok = kiln_error_set(as->err, KILN_ERR_FORMAT, "%s:%u: cannot include \"%s\": includes nest deeper than %d",
                            includer, line_no, name, KILN_WGSL_MAX_INCLUDE_DEPTH);
    } else if (r == OPEN_NEW) {
        ok = splice(as, as->out->file_count - 1, text, length, depth + 1);
    }
    free(text);
    free(name);
    return ok;
}

/* Copies files[file_index]'s lines into the assembled text, replacing include lines by the text
 * of the file they name. */
static bool splice(assembler *as, uint32_t file_index, const char *text, size_t length, uint32_t depth) {
    size_t pos = 0;
    uint32_t line_no = 0;
    while (pos < length) {
        const char *line = text + pos;
        const char *newline = memchr(line, '\n', length - pos);
        size_t line_length = newline ? (size_t)(newline - line) : length - pos;
        pos += line_length + (newline ? 1 : 0);
        line_no++;

        const char *name = NULL;
        size_t name_length = 0;
        include_parse kind = parse_include(line, line_length, &name, &name_length);
        if (kind == LINE_MALFORMED_INCLUDE)
            return kiln_error_set(as->err, KILN_ERR_FORMAT, "%s:%u: malformed #include (expected #include \"file.wgsl\")",
                                  as->out->files[file_index].name, line_no);
        bool ok = kind == LINE_INCLUDE ? splice_include(as, file_index, line_no, name, name_length, depth)
                                       : append_line(as, line, line_length, file_index, line_no);
        if (!ok) return false;
    }
    return true;
}

bool kiln_wgsl_assemble(const kiln_wgsl_source *source, const char *entry, kiln_assembled_wgsl *out,
                        kiln_error *err) {
    if (!out) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_wgsl_assemble: no output given");
    *out = (kiln_assembled_wgsl){0};
    if (!entry || !*entry) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "kiln_wgsl_assemble: no entry file given");
    static const kiln_wgsl_source builtins_only = {0};
    if (!source) source = &builtins_only;
    if (!wgsl_source_check(source, err)) return false;
    assembler as = {.source = source, .out = out, .err = err};

    char *text = NULL;
    size_t length = 0;
    int error_number = 0;
    bool ok;
    if (open_file(&as, entry, &text, &length, &error_number) != OPEN_NEW) {
        char *path = source->directory ? wgsl_join_path(source->directory, entry) : NULL;
        ok = kiln_error_set(err, KILN_ERR_IO, "%s: cannot open: %s", path ? path : entry,
                            wgsl_source_error_text(error_number));
        free(path);
    } else {
        ok = splice(&as, 0, text, length, 0);
    }
    /* An empty program still gets a text to hand to Dawn. */
    if (ok && !out->text && !(out->text = calloc(1, 1))) ok = out_of_memory(&as, "text");
    free(text);
    free(as.identities);
    if (!ok) kiln_assembled_wgsl_free(out);
    return ok;
}

void kiln_assembled_wgsl_free(kiln_assembled_wgsl *a) {
    if (!a) return;
    for (uint32_t i = 0; i < a->file_count; i++) {
        free(a->files[i].name);
        free(a->files[i].path);
    }
    free(a->files);
    free(a->chunks);
    free(a->text);
    *a = (kiln_assembled_wgsl){0};
}

bool kiln_assembled_wgsl_locate(const kiln_assembled_wgsl *a, uint32_t assembled_line, uint32_t *file_index,
                                uint32_t *file_line) {
    if (!a || assembled_line == 0 || assembled_line > a->line_count) return false;
    /* The last chunk starting at or before the line holds it: chunks cover every line in order. */
    uint32_t lo = 0, hi = a->chunk_count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->chunks[mid].first_line <= assembled_line) lo = mid;
        else hi = mid;
    }
    const kiln_wgsl_chunk *c = &a->chunks[lo];
    if (assembled_line < c->first_line || assembled_line >= c->first_line + c->line_count) return false;
    if (file_index) *file_index = c->file_index;
    if (file_line) *file_line = c->file_line + (assembled_line - c->first_line);
    return true;
}

void kiln_assembled_wgsl_format_message(const kiln_assembled_wgsl *a, const kiln_shader_report *report, uint32_t i,
                                        char *out, size_t out_size) {
    const char *entry = a && a->file_count ? a->files[0].name : report->path;
    if (i >= report->count) {
        snprintf(out, out_size, "%s: error: shader compilation failed", entry);
        return;
    }
    const kiln_shader_message *m = &report->messages[i];
    const char *severity = m->is_error ? "error" : "warning";
    uint32_t file_index = 0, file_line = 0;
    if (m->line == 0)
        snprintf(out, out_size, "%s: %s: %s", entry, severity, m->text);
    else if (kiln_assembled_wgsl_locate(a, m->line, &file_index, &file_line))
        snprintf(out, out_size, "%s:%u:%u: %s: %s", a->files[file_index].name, file_line, m->column, severity, m->text);
    else /* past the text Dawn was given: keep the assembled position rather than invent one */
        snprintf(out, out_size, "%s (assembled):%u:%u: %s: %s", entry, m->line, m->column, severity, m->text);
}
