/* kiln-bench batch: the turntable of every sample model (8 views each, 256x256 by default)
 * rendered twice, once as one cold kiln-render process per image and once as one
 * kiln-render --batch over a manifest of the same images, and images per second printed for
 * both (docs/PERFORMANCE.md). Both ways draw the same cameras: each model's framing (read from an
 * untimed kiln-render run's "framing:" line) turned about the vertical through its centre, so
 * the two sets of files can be compared byte for byte, which the figure line reports.
 *
 * It drives the kiln-render binary rather than the library because the process is what is
 * measured: a cold image pays device creation, pipeline builds and the environment bake, which
 * --batch pays once. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_common.h"
#include "kiln_bench.h"

#define MAX_MODELS 256
#define PATH_SIZE 4096

typedef struct model_camera {
    char model[PATH_SIZE];
    double from[3], at[3], fov_y;
} model_camera;

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every ASSETS/gltf/NAME/FILE ending in .glb or .gltf, sorted; the count, or -1. */
static int find_models(const char *assets, char **models) {
    char dir[PATH_SIZE];
    snprintf(dir, sizeof dir, "%s/gltf", assets);
    DIR *top = opendir(dir);
    if (!top) return -1;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(top)) && count < MAX_MODELS) {
        if (e->d_name[0] == '.') continue;
        char sub[PATH_SIZE];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *d = opendir(sub);
        if (!d) continue;
        struct dirent *f;
        while ((f = readdir(d)) && count < MAX_MODELS) {
            size_t n = strlen(f->d_name);
            bool gltf = (n > 4 && !strcmp(f->d_name + n - 4, ".glb")) || (n > 5 && !strcmp(f->d_name + n - 5, ".gltf"));
            if (!gltf) continue;
            models[count] = malloc(PATH_SIZE);
            if (models[count]) snprintf(models[count++], PATH_SIZE, "%s/%s", sub, f->d_name);
        }
        closedir(d);
    }
    closedir(top);
    qsort(models, (size_t)count, sizeof *models, by_name);
    return count;
}

/* The model's framing from an untimed kiln-render run: false when it printed none. */
static bool read_framing(const char *render, const char *model, const char *tmp, uint32_t size, model_camera *out) {
    char command[3 * PATH_SIZE];
    snprintf(command, sizeof command, "'%s' '%s' -o '%s/framing.png' --size %ux%u 2>&1", render, model, tmp, size, size);
    FILE *p = popen(command, "r");
    if (!p) return false;
    char line[1024];
    bool found = false;
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "kiln-render: framing: --look-from %lf,%lf,%lf --look-at %lf,%lf,%lf --fov-y %lf", &out->from[0],
                   &out->from[1], &out->from[2], &out->at[0], &out->at[1], &out->at[2], &out->fov_y) == 7)
            found = true;
    pclose(p);
    snprintf(out->model, sizeof out->model, "%s", model);
    return found;
}

/* View k of n: the framing's eye turned k/n of a circle about the vertical through the centre. */
static void turn(const model_camera *c, uint32_t k, uint32_t n, double eye[3]) {
    double a = 2.0 * M_PI * k / n, dx = c->from[0] - c->at[0], dz = c->from[2] - c->at[2];
    eye[0] = c->at[0] + dx * cos(a) + dz * sin(a);
    eye[1] = c->from[1];
    eye[2] = c->at[2] - dx * sin(a) + dz * cos(a);
}

static bool same_bytes(const char *a, const char *b) {
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    bool same = x && y;
    int cx = 0, cy = 0;
    while (same && (cx = fgetc(x)) == (cy = fgetc(y)) && cx != EOF) {
    }
    same = same && cx == cy;
    if (x) fclose(x);
    if (y) fclose(y);
    return same;
}

static bool quotable(const char *s) { return !strchr(s, '\''); }

/* The command line: the turntable's views and image size, where the models and kiln-render are. */
typedef struct batch_bench_options {
    uint64_t views, size;
    const char *assets;
    char render[PATH_SIZE];
} batch_bench_options;

static bool read_flag(tool_args *a, void *user) {
    batch_bench_options *o = user;
    if (!a->flag) return tool_args_unexpected(a), false;
    if (tool_args_is(a, "--views")) return tool_args_uint(a, 1, 360, &o->views);
    if (tool_args_is(a, "--size")) return tool_args_uint(a, 16, 4096, &o->size);
    if (tool_args_is(a, "--assets")) return o->assets = a->value, true;
    snprintf(o->render, sizeof o->render, "%s", a->value); /* --render */
    return true;
}

int kiln_bench_batch(int argc, char **argv) {
    static const tool_flag flags[] = {
        {"--views", "N", "turntable views per model, in [1, 360] (default 8)"},
        {"--size", "S", "each image's width and height, in [16, 4096] (default 256)"},
        {"--assets", "DIR", "the sample assets (default $KILN_ASSETS, else ../shared/assets)"},
        {"--render", "PATH", "the kiln-render run (default: the one beside this binary)"},
        {NULL, NULL, NULL},
    };
    static const tool_cli cli = {.tool = "kiln-bench batch",
                                 .synopsis = "kiln-bench batch [--views N] [--size S] [--assets DIR] [--render PATH]",
                                 .flags = flags};
    static batch_bench_options o;
    o = (batch_bench_options){.views = 8, .size = 256,
                              .assets = getenv("KILN_ASSETS") ? getenv("KILN_ASSETS") : "../shared/assets"};
    int status = bench_parse(&cli, argc, argv, read_flag, &o);
    if (status != TOOL_RUN) return status;
    uint32_t views = (uint32_t)o.views, size = (uint32_t)o.size;
    const char *assets = o.assets;
    char *render = o.render;
    if (!render[0]) {
        /* kiln-render beside this binary, as the build and the install put them. */
        char self[PATH_SIZE] = "";
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        char *slash = n > 0 ? (self[n] = '\0', strrchr(self, '/')) : NULL;
        if (slash) *slash = '\0';
        snprintf(render, PATH_SIZE, "%s/kiln-render", slash ? self : ".");
    }
    if (access(render, X_OK) || !quotable(render)) {
        fprintf(stderr, "kiln-bench batch: no usable kiln-render at %s (give --render PATH)\n", render);
        return 2;
    }
    /* Absolute, since the manifest's relative paths are taken from the manifest's directory (a
     * temporary one), not from where the benchmark was started. */
    static char assets_dir[PATH_SIZE];
    if (!realpath(assets, assets_dir) || !quotable(assets_dir)) {
        fprintf(stderr, "kiln-bench batch: no usable assets directory at %s (set KILN_ASSETS or --assets)\n", assets);
        return 2;
    }
    assets = assets_dir;
    static char *models[MAX_MODELS];
    int model_count = find_models(assets, models);
    if (model_count <= 0) {
        fprintf(stderr, "kiln-bench batch: no models under %s/gltf (set KILN_ASSETS or --assets)\n", assets);
        return 2;
    }
    char tmp[] = "/tmp/kiln_batch_bench_XXXXXX";
    if (!mkdtemp(tmp)) return fprintf(stderr, "kiln-bench batch: cannot make a temporary directory: %s\n", strerror(errno)), 1;
    char path[PATH_SIZE], command[4 * PATH_SIZE];
    snprintf(command, sizeof command, "mkdir -p '%s/cold' '%s/batch'", tmp, tmp);
    int rc = system(command) ? 1 : 0;

    model_camera *cameras = calloc((size_t)model_count, sizeof *cameras);
    int framed = 0;
    for (int m = 0; !rc && cameras && m < model_count; m++) {
        if (!quotable(models[m]) || !read_framing(render, models[m], tmp, size, &cameras[framed]))
            fprintf(stderr, "kiln-bench batch: skipping %s (no framing)\n", models[m]);
        else framed++;
    }
    uint32_t images = (uint32_t)framed * views;

    /* Cold: one process per image. */
    double start = bench_now_ms();
    for (int m = 0; !rc && m < framed; m++)
        for (uint32_t k = 0; !rc && k < views; k++) {
            double eye[3];
            turn(&cameras[m], k, views, eye);
            const model_camera *c = &cameras[m];
            snprintf(command, sizeof command,
                     "'%s' '%s' -o '%s/cold/%u.png' --size %ux%u --look-from %.9g,%.9g,%.9g --look-at %.9g,%.9g,%.9g "
                     "--fov-y %.9g 2>'%s/cold.log'",
                     render, c->model, tmp, (uint32_t)m * views + k, size, size, eye[0], eye[1], eye[2], c->at[0], c->at[1],
                     c->at[2], c->fov_y, tmp);
            if (system(command)) fprintf(stderr, "kiln-bench batch: cold render of %s failed (%s/cold.log)\n", c->model, tmp), rc = 1;
        }
    double cold_ms = bench_now_ms() - start;

    /* Batch: one process for all of them, over a manifest of the same cameras. */
    snprintf(path, sizeof path, "%s/manifest.jsonl", tmp);
    FILE *manifest = rc ? NULL : fopen(path, "w");
    for (int m = 0; manifest && m < framed; m++)
        for (uint32_t k = 0; k < views; k++) {
            double eye[3];
            turn(&cameras[m], k, views, eye);
            const model_camera *c = &cameras[m];
            fprintf(manifest,
                    "{\"model\": \"%s\", \"out\": \"batch/%u.png\", \"size\": [%u, %u], \"camera\": {\"look_from\": "
                    "[%.9g, %.9g, %.9g], \"look_at\": [%.9g, %.9g, %.9g], \"fov_y\": %.9g}}\n",
                    c->model, (uint32_t)m * views + k, size, size, eye[0], eye[1], eye[2], c->at[0], c->at[1], c->at[2],
                    c->fov_y);
        }
    if (manifest && fclose(manifest)) rc = 1;
    snprintf(command, sizeof command, "'%s' --batch '%s/manifest.jsonl' 2>'%s/batch.log'", render, tmp, tmp);
    start = bench_now_ms();
    if (!rc && system(command)) fprintf(stderr, "kiln-bench batch: --batch failed (%s/batch.log)\n", tmp), rc = 1;
    double batch_ms = bench_now_ms() - start;

    uint32_t identical = 0;
    for (uint32_t i = 0; !rc && i < images; i++) {
        char a[PATH_SIZE + 32], b[PATH_SIZE + 32];
        snprintf(a, sizeof a, "%s/cold/%u.png", tmp, i);
        snprintf(b, sizeof b, "%s/batch/%u.png", tmp, i);
        identical += same_bytes(a, b);
    }
    if (!rc)
        printf("{\"bench\": \"batch\", \"models\": %d, \"views\": %u, \"size\": \"%ux%u\", \"images\": %u, \"cold_s\": %.2f, "
               "\"cold_images_per_s\": %.2f, \"batch_s\": %.2f, \"batch_images_per_s\": %.2f, \"speedup\": %.1f, "
               "\"identical_images\": %u}\n",
               framed, views, size, size, images, cold_ms / 1000.0, images / (cold_ms / 1000.0), batch_ms / 1000.0,
               images / (batch_ms / 1000.0), cold_ms / batch_ms, identical);
    if (!rc) {
        snprintf(command, sizeof command, "rm -rf '%s'", tmp);
        if (system(command)) fprintf(stderr, "kiln-bench batch: %s was not removed\n", tmp);
    }
    for (int m = 0; m < model_count; m++) free(models[m]);
    free(cameras);
    return rc;
}
