/* Adobe / Resolve .cube colour lookup tables (kiln/assets/color_lut.h): a line-by-line parser
 * that names the file and line of the first thing it cannot take. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/assets/color_lut.h>
#include <kiln/core/containers.h>

typedef struct cube_parse {
    const char *name;
    uint32_t line;
    uint32_t size;                 /* LUT_3D_SIZE, 0 until seen */
    float domain_min[3], domain_max[3];
    char title[128];
    float *rgb;                    /* allocated at LUT_3D_SIZE */
    uint32_t entries;              /* data lines so far */
    kiln_error *err;
} cube_parse;

static bool fail(cube_parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(cube_parse *p, const char *fmt, ...) {
    char reason[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    return kiln_error_set(p->err, KILN_ERR_FORMAT, "%s:%u: %s", p->name, p->line, reason);
}

/* The line's words after the keyword (or all of it, for data) as `count` finite numbers. */
static bool numbers(cube_parse *p, const char *text, float *out, int count) {
    int n = 0;
    const char *at = text;
    char word[64];
    for (;;) {
        while (*at == ' ' || *at == '\t') at++;
        if (!*at) break;
        size_t len = strcspn(at, " \t");
        if (n == count) return fail(p, "expected %d numbers, got more", count);
        snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word - 1 ? len : sizeof word - 1), at);
        char *end;
        float v = strtof(word, &end);
        if (end == word || *end) return fail(p, "'%s' is not a number", word);
        if (!isfinite(v)) return fail(p, "'%s' is not a finite number", word);
        out[n++] = v;
        at += len;
    }
    if (n != count) return fail(p, "expected %d numbers, got %d", count, n);
    return true;
}

static bool keyword_size(cube_parse *p, const char *rest) {
    if (p->size) return fail(p, "a second LUT_3D_SIZE");
    float v;
    if (!numbers(p, rest, &v, 1)) return false;
    if (v != floorf(v) || v < 2 || v > KILN_COLOR_LUT_MAX_SIZE)
        return fail(p, "LUT_3D_SIZE %g is not a whole number in 2..%d", (double)v, KILN_COLOR_LUT_MAX_SIZE);
    p->size = (uint32_t)v;
    size_t floats = (size_t)p->size * p->size * p->size * 3;
    if (!(p->rgb = malloc(floats * sizeof *p->rgb)))
        return kiln_error_set(p->err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory for a %u^3 table", p->name, p->size);
    return true;
}

static bool keyword_title(cube_parse *p, const char *rest) {
    while (*rest == ' ' || *rest == '\t') rest++;
    size_t len = strlen(rest);
    if (len >= 2 && rest[0] == '"' && rest[len - 1] == '"') rest++, len -= 2;
    snprintf(p->title, sizeof p->title, "%.*s", (int)len, rest);
    return true;
}

/* One keyword line; false with the error set for an unknown or misplaced one. */
static bool keyword(cube_parse *p, const char *line) {
    size_t len = strcspn(line, " \t");
    char word[32];
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word - 1 ? len : sizeof word - 1), line);
    const char *rest = line + len;
    if (p->entries) return fail(p, "keyword '%s' after the table's first entry", word);
    if (!strcmp(word, "TITLE")) return keyword_title(p, rest);
    if (!strcmp(word, "LUT_3D_SIZE")) return keyword_size(p, rest);
    if (!strcmp(word, "DOMAIN_MIN")) return numbers(p, rest, p->domain_min, 3);
    if (!strcmp(word, "DOMAIN_MAX")) return numbers(p, rest, p->domain_max, 3);
    if (!strcmp(word, "LUT_3D_INPUT_RANGE")) {
        float range[2];
        if (!numbers(p, rest, range, 2)) return false;
        for (int c = 0; c < 3; c++) p->domain_min[c] = range[0], p->domain_max[c] = range[1];
        return true;
    }
    if (!strcmp(word, "LUT_1D_SIZE")) return fail(p, "1D tables (LUT_1D_SIZE) are not supported, only 3D");
    return fail(p, "unknown keyword '%s'", word);
}

static bool entry(cube_parse *p, const char *line) {
    if (!p->size) return fail(p, "a table entry before LUT_3D_SIZE");
    uint32_t capacity = p->size * p->size * p->size;
    if (p->entries == capacity) return fail(p, "more than the %u entries LUT_3D_SIZE %u has", capacity, p->size);
    if (!numbers(p, line, &p->rgb[(size_t)p->entries * 3], 3)) return false;
    p->entries++;
    return true;
}

static bool parse_line(cube_parse *p, char *line) {
    size_t len = strlen(line);
    while (len && isspace((unsigned char)line[len - 1])) line[--len] = '\0';
    while (*line == ' ' || *line == '\t') line++;
    if (!*line || *line == '#') return true;
    if (isalpha((unsigned char)*line)) return keyword(p, line);
    return entry(p, line);
}

static bool check_whole(cube_parse *p) {
    if (!p->size) return kiln_error_set(p->err, KILN_ERR_FORMAT, "%s: no LUT_3D_SIZE line", p->name);
    uint32_t need = p->size * p->size * p->size;
    if (p->entries != need)
        return kiln_error_set(p->err, KILN_ERR_FORMAT, "%s: the table has %u entries; LUT_3D_SIZE %u needs %u", p->name,
                              p->entries, p->size, need);
    for (int c = 0; c < 3; c++)
        if (!(p->domain_max[c] > p->domain_min[c]))
            return kiln_error_set(p->err, KILN_ERR_FORMAT,
                                  "%s: DOMAIN_MAX (%g %g %g) is not above DOMAIN_MIN (%g %g %g) in every channel",
                                  p->name, (double)p->domain_max[0], (double)p->domain_max[1],
                                  (double)p->domain_max[2], (double)p->domain_min[0], (double)p->domain_min[1],
                                  (double)p->domain_min[2]);
    return true;
}

bool kiln_color_lut_parse(const char *text, size_t length, const char *name, kiln_color_lut *out, kiln_error *err) {
    cube_parse p = {.name = name ? name : "(cube)", .domain_max = {1, 1, 1}, .err = err};
    char line[1024];
    bool ok = true;
    for (size_t at = 0; ok && at < length;) {
        size_t end = at;
        while (end < length && text[end] != '\n') end++;
        p.line++;
        if (end - at >= sizeof line) {
            ok = fail(&p, "a line longer than 1023 characters");
            break;
        }
        memcpy(line, text + at, end - at);
        line[end - at] = '\0';
        if (memchr(line, '\0', end - at)) ok = fail(&p, "a NUL byte: not a text file");
        else ok = parse_line(&p, line);
        at = end + 1;
    }
    if (ok) ok = check_whole(&p);
    if (!ok) {
        free(p.rgb);
        return false;
    }
    *out = (kiln_color_lut){
        .size = p.size,
        .domain_min = {p.domain_min[0], p.domain_min[1], p.domain_min[2]},
        .domain_max = {p.domain_max[0], p.domain_max[1], p.domain_max[2]},
        .rgb = p.rgb,
    };
    memcpy(out->title, p.title, sizeof out->title);
    return true;
}

bool kiln_color_lut_load(const char *path, kiln_color_lut *out, kiln_error *err) {
    char *text;
    size_t size;
    if (!kiln_read_file_limited(path, KILN_COLOR_LUT_MAX_FILE_BYTES, "a .cube colour table", &text, &size, NULL, err))
        return false;
    bool ok = kiln_color_lut_parse(text, size, path, out, err);
    free(text);
    return ok;
}

void kiln_color_lut_free(kiln_color_lut *lut) {
    if (!lut) return;
    free(lut->rgb);
    *lut = (kiln_color_lut){0};
}
