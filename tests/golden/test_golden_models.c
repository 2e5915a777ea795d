/* Golden images of the Khronos sample models (issue #10, Golden suite): `test_golden_models MODEL`
 * renders $KILN_ASSETS/gltf/MODEL with kiln-render, the way a user would, in two sets, and
 * compares each frame with its reviewed reference under tests/golden/references/linux-lavapipe/:
 *
 *   MODEL.png      512 x 512, default settings plus MSAA 4, a sun along (-0.5, -1.0, -0.4) of
 *                  3 lux, the procedural sky, the camera and shadow distance framed from the
 *                  bounds, animated models at t = 1 s;
 *   MODEL-env.png  the same lit by ../shared/assets/env/chinese_garden_1k.hdr, no sun, PBR
 *                  Neutral: how the glTF reference viewers show the models.
 *
 * A frame passes at luma SSIM >= 0.985 over 8x8 windows and at most 0.5% of pixels differing by
 * more than 8/255 in a channel (docs/RENDER_VALIDATION.md says why). kiln-render exits non-zero
 * on any Dawn validation error, so a pass is also a clean frame. Every frame is written to
 * $KILN_TEST_TMP/golden/; KILN_UPDATE_GOLDEN=1 copies it over the reference instead (then review
 * it beside the model's reference image and record the review). Skips, saying so, when the
 * assets are absent. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kiln/core.h>

#define MIN_SSIM 0.985
#define MAX_DIFF_FRACTION 0.005
#define DIFF_THRESHOLD 8

typedef struct golden_set {
    const char *suffix; /* of the reference's name */
    const char *flags;  /* kiln-render's, after the model and -o */
} golden_set;

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The model file of a sample's directory: MODEL.glb, else MODEL.gltf, else the first .glb or
 * .gltf in it. */
static bool find_model(const char *dir, const char *name, char *out, size_t size) {
    const char *exts[] = {".glb", ".gltf"};
    for (int i = 0; i < 2; i++) {
        snprintf(out, size, "%s/%s%s", dir, name, exts[i]);
        if (is_file(out)) return true;
    }
    DIR *d = opendir(dir);
    if (!d) return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if ((n > 4 && !strcmp(e->d_name + n - 4, ".glb")) || (n > 5 && !strcmp(e->d_name + n - 5, ".gltf"))) {
            snprintf(out, size, "%s/%s", dir, e->d_name);
            found = true;
        }
    }
    closedir(d);
    return found;
}

/* Runs kiln-render (beside this test's binary) on the model into `frame`; its stderr goes to
 * `log`. */
static bool render(const char *model, const char *frame, const char *flags, const char *log) {
    char self[PATH_MAX], command[4 * PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return false;
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(command, sizeof command, "'%s/kiln-render' '%s' -o '%s' %s 2>'%s'", self, model, frame, flags, log);
    int status = system(command);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void print_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) fprintf(stderr, "  %s", line);
    fclose(f);
}

/* One set of one model: 0 passed, 1 failed (with the reason on stderr). */
static int check_set(const char *name, const char *model, const char *assets, const golden_set *set) {
    char out_dir[PATH_MAX], frame[PATH_MAX + 128], log[PATH_MAX + 128], reference[PATH_MAX + 128], flags[PATH_MAX + 256];
    const char *tmp = getenv("KILN_TEST_TMP");
    snprintf(out_dir, sizeof out_dir, "%s/golden", tmp && *tmp ? tmp : "/tmp");
    mkdir(out_dir, 0755);
    snprintf(frame, sizeof frame, "%s/%s%s.png", out_dir, name, set->suffix);
    snprintf(log, sizeof log, "%s/%s%s.log", out_dir, name, set->suffix);
    snprintf(reference, sizeof reference, "%s/%s%s.png", KILN_GOLDEN_REFERENCES, name, set->suffix);
    snprintf(flags, sizeof flags, set->flags, assets);
    if (!render(model, frame, flags, log)) {
        fprintf(stderr, "%s%s: kiln-render failed:\n", name, set->suffix);
        print_file(log);
        return 1;
    }
    kiln_error err = {0};
    kiln_image img = {0}, ref = {0};
    if (!kiln_image_load(&img, frame, &err)) {
        fprintf(stderr, "%s%s: %s\n", name, set->suffix, err.message);
        return 1;
    }
    if (getenv("KILN_UPDATE_GOLDEN")) {
        bool wrote = kiln_image_write_png(&img, reference, &err);
        kiln_image_free(&img);
        if (!wrote) return fprintf(stderr, "%s%s: %s\n", name, set->suffix, err.message), 1;
        printf("rewrote %s: review it beside the model's reference image and update docs/RENDER_VALIDATION.md\n",
               reference);
        return 0;
    }
    if (!kiln_image_load(&ref, reference, &err)) {
        kiln_image_free(&img);
        fprintf(stderr, "%s%s: no reference (%s): make one with KILN_UPDATE_GOLDEN=1 and review it\n", name,
                set->suffix, err.message);
        return 1;
    }
    double ssim = 0.0, differing = 1.0;
    bool compared = kiln_image_ssim(&img, &ref, &ssim, &err) &&
                    kiln_image_diff_fraction(&img, &ref, DIFF_THRESHOLD, &differing, &err);
    kiln_image_free(&img);
    kiln_image_free(&ref);
    if (!compared) return fprintf(stderr, "%s%s: %s\n", name, set->suffix, err.message), 1;
    bool pass = ssim >= MIN_SSIM && differing <= MAX_DIFF_FRACTION;
    printf("%s %s%s: SSIM %.5f, %.3f%% of pixels over %d/255 (frame %s)\n", pass ? "ok  " : "FAIL", name, set->suffix,
           ssim, differing * 100.0, DIFF_THRESHOLD, frame);
    return pass ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_golden_models MODEL\n");
        return 2;
    }
    const char *assets = getenv("KILN_ASSETS");
    if (!assets || !*assets) assets = "../shared/assets";
    char dir[PATH_MAX], model[PATH_MAX + 300];
    snprintf(dir, sizeof dir, "%s/gltf/%s", assets, argv[1]);
    if (!find_model(dir, argv[1], model, sizeof model)) {
        printf("skipped: no glTF model in %s (KILN_ASSETS is '%s')\n", dir, assets);
        return 77;
    }
    static const golden_set sets[] = {
        {"", "--size 512x512 --msaa 4 --sun -0.5,-1,-0.4 --sun-lux 3 --time 1"},
        {"-env", "--size 512x512 --msaa 4 --env '%s/env/chinese_garden_1k.hdr' --no-sun --tonemap pbr-neutral --time 1"},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) failures += check_set(argv[1], model, assets, &sets[i]);
    return failures ? 1 : 0;
}
