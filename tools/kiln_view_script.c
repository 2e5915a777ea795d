/* kiln-view's test scripts (kiln_view_script.h). */
#include "kiln_view_script.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_options.h"

static bool fail(kiln_error *err, const char *path, uint32_t line, const char *why, const char *what) {
    return kiln_error_set(err, KILN_ERR_FORMAT, "%s:%u: %s%s%s%s", path, line, why, what ? " '" : "", what ? what : "",
                          what ? "'" : "");
}

static char *skip_blanks(char *p) {
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* One non-blank word from *p, NUL-terminated in place. */
static char *word(char **p) {
    char *start = skip_blanks(*p), *end = start;
    while (*end && *end != ' ' && *end != '\t') end++;
    if (*end) *end++ = '\0';
    *p = end;
    return start;
}

static bool parse_line(char *text, const char *path, uint32_t line, view_action *a, kiln_error *err) {
    char *p = text;
    char *at = word(&p), *tick = word(&p), *verb = word(&p), *rest = skip_blanks(p);
    if (strcmp(at, "at")) return fail(err, path, line, "expected 'at TICK ACTION', got", at);
    char *end;
    errno = 0;
    unsigned long t = strtoul(tick, &end, 10);
    if (!*tick || *tick == '-' || *end || errno || t < 1 || t > 1000000) return fail(err, path, line, "bad tick", tick);
    *a = (view_action){.tick = (uint32_t)t, .line = line};
    bool wants_text = false;
    if (!strcmp(verb, "resize")) {
        a->kind = VIEW_ACTION_RESIZE;
        if (!tool_parse_size(rest, &a->width, &a->height)) return fail(err, path, line, "resize wants WxH, got", rest);
    } else if (!strcmp(verb, "minimise")) a->kind = VIEW_ACTION_MINIMISE;
    else if (!strcmp(verb, "restore")) a->kind = VIEW_ACTION_RESTORE;
    else if (!strcmp(verb, "lose-device")) a->kind = VIEW_ACTION_LOSE_DEVICE;
    else if (!strcmp(verb, "hide") || !strcmp(verb, "show")) {
        a->kind = !strcmp(verb, "hide") ? VIEW_ACTION_HIDE : VIEW_ACTION_SHOW;
        errno = 0;
        unsigned long node = strtoul(rest, &end, 10);
        if (!*rest || *rest == '-' || *end || errno || node > UINT32_MAX) return fail(err, path, line, a->kind == VIEW_ACTION_HIDE ? "hide wants a node index, got" : "show wants a node index, got", rest);
        a->node = (uint32_t)node;
    }
    else if (!strcmp(verb, "key")) {
        a->kind = VIEW_ACTION_KEY;
        if (!strcmp(rest, "SPACE")) a->key = ' ';
        else if (strlen(rest) == 1 && strchr("FCHPV", rest[0])) a->key = rest[0];
        else return fail(err, path, line, "key wants F, C, H, P, V or SPACE, got", rest);
    } else if (!strcmp(verb, "screenshot")) a->kind = VIEW_ACTION_SCREENSHOT, wants_text = true;
    else if (!strcmp(verb, "ui-screenshot")) a->kind = VIEW_ACTION_UI_SCREENSHOT, wants_text = true;
    else if (!strcmp(verb, "run")) a->kind = VIEW_ACTION_RUN, wants_text = true;
    else if (!strcmp(verb, "drop")) a->kind = VIEW_ACTION_DROP, wants_text = true;
    else return fail(err, path, line, "unknown action", verb);
    if (wants_text && !*rest) return fail(err, path, line, "an argument is missing after", verb);
    bool takes_argument = a->kind == VIEW_ACTION_RESIZE || a->kind == VIEW_ACTION_KEY || a->kind == VIEW_ACTION_HIDE ||
                          a->kind == VIEW_ACTION_SHOW;
    if (!wants_text && !takes_argument && *rest)
        return fail(err, path, line, "unexpected text after the action:", rest);
    if (wants_text && !(a->text = strdup(rest))) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    return true;
}

bool view_script_load(view_script *s, const char *path, kiln_error *err) {
    *s = (view_script){0};
    FILE *f = fopen(path, "r");
    if (!f) return kiln_error_set(err, KILN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char text[4096];
    uint32_t line = 0, capacity = 0;
    bool ok = true;
    while (ok && fgets(text, sizeof text, f)) {
        line++;
        text[strcspn(text, "\r\n")] = '\0';
        char *start = skip_blanks(text);
        if (!*start || *start == '#') continue;
        if (s->count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            view_action *grown = realloc(s->actions, capacity * sizeof *grown);
            if (!grown) {
                ok = kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
                break;
            }
            s->actions = grown;
        }
        view_action a;
        if (!(ok = parse_line(start, path, line, &a, err))) break;
        if (s->count && a.tick < s->actions[s->count - 1].tick) {
            ok = fail(err, path, line, "ticks must not go back", NULL);
            free(a.text);
            break;
        }
        s->actions[s->count++] = a;
        if (a.tick > s->last_tick) s->last_tick = a.tick;
    }
    fclose(f);
    if (!ok) view_script_free(s);
    return ok;
}

void view_script_free(view_script *s) {
    for (uint32_t i = 0; i < s->count; i++) free(s->actions[i].text);
    free(s->actions);
    *s = (view_script){0};
}

const view_action *view_script_next(view_script *s, uint32_t tick) {
    if (s->next < s->count && s->actions[s->next].tick <= tick) return &s->actions[s->next++];
    return NULL;
}
