/* Per-vertex tangents, computed the way MikkTSpace (Morten Mikkelsen, 2008) defines them, so that
 * normal maps baked against MikkTSpace tangents (Blender, Substance, xNormal, every glTF exporter)
 * shade without seams.
 *
 * The recipe (two departures, forced by indexed output or harmless, are noted at 3 and 5):
 *   1. Vertices equal in position, normal and uv0 are welded: they share one tangent space even
 *      when the index buffer duplicates them.
 *   2. Each triangle gets the direction of dP/du (its tangent) from its uv derivatives, and an
 *      orientation: whether the uv triangle winds the same way as the triangle in space (a
 *      mirrored uv island does not).
 *   3. Around each welded vertex, its triangle corners form groups: two corners join when their
 *      triangles share an edge through the vertex (with opposite directions, as consistently
 *      wound neighbours do) and have the same orientation. A mirrored seam or a hard break in
 *      connectivity thus keeps two tangent spaces apart. (MikkTSpace pairs each edge with one
 *      neighbour; on a non-manifold edge shared by more than two triangles, this joins all.)
 *   4. Each group averages its triangles' tangents: each is projected into the plane
 *      perpendicular to the vertex normal, normalised, and weighted by its triangle's angle at
 *      that corner (measured in the same plane).
 *   5. MikkTSpace writes one tangent per corner; an indexed mesh has one per vertex, so each
 *      vertex takes the group holding most (by angle) of its own corners. A mesh whose
 *      tangents came from MikkTSpace was already split where corners disagree.
 *   6. The tangent is made perpendicular to the normal (Gram-Schmidt) and the handedness w is
 *      +1 for a preserving orientation, -1 for a mirrored one, so that the bitangent
 *      b = cross(n, t) * w points along dP/d(-v) as glTF reads it. This is the sign of
 *      dot(cross(n, t), dP/d(-v)) wherever the normal lies on the front side of its triangles;
 *      where a normal points against the winding, MikkTSpace (and so every exporter) keeps the
 *      orientation's sign, and so does this.
 *   A vertex whose triangles all have degenerate uvs (or no area) gets a unit vector
 *   perpendicular to its normal instead, with w = +1.
 *
 * On the triangles of the glTF sample models, this agrees with the reference implementation
 * (mikktspace.c run on (u, 1 - v)) to 0.1 degree and in handedness on more than 99.9% of vertices
 * (docs/guides/meshes.md lists the measurements).
 *
 * kiln's uvs follow glTF (v grows downwards in the image) while a normal map's green channel
 * points up in the image, so the bitangent here is dP/d(-v): the uvs are read as (u, -v), which
 * is MikkTSpace on (u, 1 - v). Checked against tangents shipped in glTF sample models
 * (tests/geometry/test_mesh_tangents.c, docs/guides/meshes.md). */
#include <kiln/geometry/mesh_data.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MIRRORED = 0, PRESERVING = 1 };

/* --- step 1: welding ------------------------------------------------------------------------------- */

typedef struct weld_key {
    uint32_t bits[8]; /* position, normal, uv0 as bit patterns */
    uint32_t vertex;
} weld_key;

static uint32_t float_bits(float f) {
    /* Adding +0 turns -0 into +0, so the two zeros weld as they compare equal. */
    f += 0.0f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static int compare_keys(const void *pa, const void *pb) {
    const weld_key *a = pa, *b = pb;
    for (int i = 0; i < 8; i++)
        if (a->bits[i] != b->bits[i]) return a->bits[i] < b->bits[i] ? -1 : 1;
    return a->vertex < b->vertex ? -1 : a->vertex > b->vertex;
}

/* rep[v] becomes the lowest-numbered vertex equal to v in position, normal and uv0. Sorting
 * keeps this O(n log n) without a hash table. */
static bool weld_vertices(const kiln_mesh_data *md, uint32_t *rep) {
    uint32_t n = md->vertex_count;
    weld_key *keys = malloc(n * sizeof *keys);
    if (!keys) return false;
    for (uint32_t v = 0; v < n; v++) {
        const float f[8] = {md->positions[v].x, md->positions[v].y, md->positions[v].z, md->normals[v].x,
                            md->normals[v].y,   md->normals[v].z,   md->uv0[v].x,       md->uv0[v].y};
        for (int i = 0; i < 8; i++) keys[v].bits[i] = float_bits(f[i]);
        keys[v].vertex = v;
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (uint32_t i = 0, first = 0; i < n; i++) {
        if (i > 0 && memcmp(keys[i].bits, keys[i - 1].bits, sizeof keys[i].bits) != 0) first = i;
        rep[keys[i].vertex] = keys[first].vertex; /* the run is sorted by vertex, so first is lowest */
    }
    free(keys);
    return true;
}

/* --- step 2: per-triangle tangent and orientation ----------------------------------------------------------------- */

typedef struct triangle_frame {
    kiln_vec3 tangent; /* unit dP/du */
    int orientation;   /* PRESERVING or MIRRORED */
    bool usable;       /* false when the uvs or the positions are degenerate */
} triangle_frame;

static triangle_frame frame_of(const kiln_mesh_data *md, const uint32_t *tri) {
    triangle_frame f = {0};
    kiln_vec3 p0 = md->positions[tri[0]];
    kiln_vec3 d1 = kiln_vec3_sub(md->positions[tri[1]], p0), d2 = kiln_vec3_sub(md->positions[tri[2]], p0);
    kiln_vec2 w0 = md->uv0[tri[0]], w1 = md->uv0[tri[1]], w2 = md->uv0[tri[2]];
    /* uv deltas with v negated (see the top of the file). */
    float s1 = w1.x - w0.x, t1 = -(w1.y - w0.y), s2 = w2.x - w0.x, t2 = -(w2.y - w0.y);
    float area2 = s1 * t2 - s2 * t1; /* twice the signed uv area */
    float space_area2 = kiln_vec3_length(kiln_vec3_cross(d1, d2));
    if (!(area2 != 0.0f) || !isfinite(area2) || !(space_area2 > 0.0f)) return f;
    /* Solving [d1 d2] = [T B] [s1 s2; t1 t2] for T gives T times area2; the sign of area2 is the
     * orientation and is kept apart, so the tangent points along increasing u either way. */
    kiln_vec3 t = kiln_vec3_sub(kiln_vec3_scale(d1, t2), kiln_vec3_scale(d2, t1));
    f.tangent = kiln_vec3_normalize(kiln_vec3_scale(t, area2 > 0.0f ? 1.0f : -1.0f));
    f.orientation = area2 > 0.0f ? PRESERVING : MIRRORED;
    f.usable = isfinite(f.tangent.x + f.tangent.y + f.tangent.z);
    return f;
}

/* --- steps 3 to 6 ------------------------------------------------------------------------------------ */

static kiln_vec3 unit_in_plane(kiln_vec3 v, kiln_vec3 n) {
    return kiln_vec3_normalize(kiln_vec3_sub(v, kiln_vec3_scale(n, kiln_vec3_dot(n, v))));
}

/* A unit vector perpendicular to n: the axis least aligned with n, made perpendicular. For a
 * normal along +Z or +Y this is +X. */
static kiln_vec3 any_perpendicular(kiln_vec3 n) {
    float ax = fabsf(n.x), ay = fabsf(n.y), az = fabsf(n.z);
    kiln_vec3 axis = ax <= ay && ax <= az ? kiln_vec3_make(1, 0, 0)
                   : ay <= az            ? kiln_vec3_make(0, 1, 0)
                                         : kiln_vec3_make(0, 0, 1);
    kiln_vec3 t = unit_in_plane(axis, n);
    return kiln_vec3_length(t) > 0.5f ? t : kiln_vec3_make(1, 0, 0);
}

#define NO_GROUP UINT32_MAX

/* Scratch for one computation. A corner is index i of md->indices (triangle i / 3); a group is
 * named by its root corner. */
typedef struct tangent_work {
    const kiln_mesh_data *md;
    uint32_t *rep;           /* per vertex: welded representative */
    triangle_frame *frames;  /* per triangle */
    uint32_t *parent;        /* per corner: union-find parent */
    float *angle;            /* per corner: its weight, 0 when it adds nothing */
    kiln_vec3 *sum;          /* per corner, used at roots: the group's weighted tangent sum */
    uint32_t *choice;        /* per vertex: the group it takes, or NO_GROUP */
    float *choice_weight;    /* per vertex: how much of that group is its own */
} tangent_work;

static uint32_t next_corner(uint32_t c) { return c - c % 3 + (c + 1) % 3; }

static uint32_t find_root(uint32_t *parent, uint32_t c) {
    while (parent[c] != c) {
        parent[c] = parent[parent[c]]; /* path halving keeps the trees flat */
        c = parent[c];
    }
    return c;
}

static void join(uint32_t *parent, uint32_t a, uint32_t b) {
    a = find_root(parent, a), b = find_root(parent, b);
    /* The lower corner becomes the root, so the result never depends on visiting order. */
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
}

typedef struct directed_edge { uint32_t from, to, corner; } directed_edge;

static int compare_edges(const void *pa, const void *pb) {
    const directed_edge *a = pa, *b = pb;
    if (a->from != b->from) return a->from < b->from ? -1 : 1;
    if (a->to != b->to) return a->to < b->to ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

/* Step 3. Each usable triangle contributes its three edges between welded vertices; an edge
 * a->b meets its neighbour's b->a, and the corners at a and at b of the two triangles join. */
static bool group_corners(tangent_work *w) {
    const kiln_mesh_data *md = w->md;
    uint32_t corners = md->index_count, count = 0;
    for (uint32_t c = 0; c < corners; c++) w->parent[c] = c;
    directed_edge *edges = malloc(corners * sizeof *edges);
    if (!edges) return false;
    for (uint32_t c = 0; c < corners; c++)
        if (w->frames[c / 3].usable)
            edges[count++] = (directed_edge){w->rep[md->indices[c]], w->rep[md->indices[next_corner(c)]], c};
    qsort(edges, count, sizeof *edges, compare_edges);
    for (uint32_t i = 0; i < count; i++) {
        /* Binary search for the first edge running the other way. */
        directed_edge key = {edges[i].to, edges[i].from, 0};
        uint32_t lo = 0, hi = count;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (compare_edges(&edges[mid], &key) < 0) lo = mid + 1;
            else hi = mid;
        }
        for (uint32_t j = lo; j < count && edges[j].from == key.from && edges[j].to == key.to; j++) {
            uint32_t c = edges[i].corner, d = edges[j].corner;
            if (w->frames[c / 3].orientation != w->frames[d / 3].orientation) continue;
            join(w->parent, c, next_corner(d));   /* both corners at edges[i].from */
            join(w->parent, next_corner(c), d);   /* both corners at edges[i].to */
        }
    }
    free(edges);
    return true;
}

/* Step 4: each corner's weighted, projected tangent goes to its group's root. */
static void sum_groups(tangent_work *w) {
    const kiln_mesh_data *md = w->md;
    for (uint32_t c = 0; c < md->index_count; c++) {
        w->angle[c] = 0.0f;
        w->sum[c] = kiln_vec3_make(0, 0, 0);
    }
    for (uint32_t c = 0; c < md->index_count; c++) {
        const triangle_frame *f = &w->frames[c / 3];
        if (!f->usable) continue;
        uint32_t here = md->indices[c], next = md->indices[next_corner(c)], prev = md->indices[next_corner(next_corner(c))];
        kiln_vec3 n = kiln_vec3_normalize(md->normals[here]), p = md->positions[here];
        kiln_vec3 e1 = unit_in_plane(kiln_vec3_sub(md->positions[next], p), n);
        kiln_vec3 e2 = unit_in_plane(kiln_vec3_sub(md->positions[prev], p), n);
        /* An edge along the normal has no direction in the plane: the corner gets no weight. */
        if (kiln_vec3_length(e1) < 0.5f || kiln_vec3_length(e2) < 0.5f) continue;
        float cosine = kiln_vec3_dot(e1, e2);
        float angle = acosf(cosine < -1.0f ? -1.0f : cosine > 1.0f ? 1.0f : cosine);
        uint32_t root = find_root(w->parent, c);
        w->angle[c] = angle;
        w->sum[root] = kiln_vec3_add(w->sum[root], kiln_vec3_scale(unit_in_plane(f->tangent, n), angle));
    }
}

typedef struct corner_vote { uint32_t vertex, group; float angle; } corner_vote;

static int compare_votes(const void *pa, const void *pb) {
    const corner_vote *a = pa, *b = pb;
    if (a->vertex != b->vertex) return a->vertex < b->vertex ? -1 : 1;
    return a->group < b->group ? -1 : a->group > b->group;
}

/* Step 5: per vertex, the group with the most of its own corner angle; a vertex whose own
 * corners add nothing (degenerate uvs) takes the best choice among its welded twins. */
static bool choose_groups(tangent_work *w) {
    const kiln_mesh_data *md = w->md;
    corner_vote *votes = malloc(md->index_count * sizeof *votes);
    if (!votes) return false;
    uint32_t count = 0;
    for (uint32_t c = 0; c < md->index_count; c++)
        if (w->angle[c] > 0.0f) votes[count++] = (corner_vote){md->indices[c], find_root(w->parent, c), w->angle[c]};
    qsort(votes, count, sizeof *votes, compare_votes);
    for (uint32_t v = 0; v < md->vertex_count; v++) w->choice[v] = NO_GROUP, w->choice_weight[v] = 0.0f;
    for (uint32_t i = 0; i < count;) {
        uint32_t j = i;
        float total = 0.0f;
        for (; j < count && votes[j].vertex == votes[i].vertex && votes[j].group == votes[i].group; j++) total += votes[j].angle;
        if (total > w->choice_weight[votes[i].vertex]) {
            w->choice[votes[i].vertex] = votes[i].group;
            w->choice_weight[votes[i].vertex] = total;
        }
        i = j;
    }
    free(votes);
    /* A representative without a choice of its own takes its heaviest twin's; a borrowed weight
     * is stored negated so it is never lent on, nor mistaken for the representative's own. */
    for (uint32_t v = 0; v < md->vertex_count; v++) {
        uint32_t r = w->rep[v];
        float own = w->choice_weight[v];
        if (r == v || !(own > 0.0f)) continue;
        if (w->choice[r] == NO_GROUP || (w->choice_weight[r] < 0.0f && own > -w->choice_weight[r])) {
            w->choice[r] = w->choice[v];
            w->choice_weight[r] = -own;
        }
    }
    for (uint32_t v = 0; v < md->vertex_count; v++)
        if (w->choice[v] == NO_GROUP) w->choice[v] = w->choice[w->rep[v]];
    return true;
}

/* Step 6. */
static kiln_vec4 resolve_vertex(const tangent_work *w, uint32_t v) {
    kiln_vec3 n = kiln_vec3_normalize(w->md->normals[v]);
    uint32_t g = w->choice[v];
    kiln_vec3 t = g == NO_GROUP ? kiln_vec3_make(0, 0, 0) : unit_in_plane(w->sum[g], n);
    if (!(kiln_vec3_length(t) > 0.5f)) {
        /* Only degenerate uvs here: any tangent is as good as another, a unit one is required. */
        kiln_vec3 p = any_perpendicular(n);
        return kiln_vec4_make(p.x, p.y, p.z, 1.0f);
    }
    return kiln_vec4_make(t.x, t.y, t.z, w->frames[g / 3].orientation == PRESERVING ? 1.0f : -1.0f);
}

static void free_work(tangent_work *w) {
    free(w->rep);
    free(w->frames);
    free(w->parent);
    free(w->angle);
    free(w->sum);
    free(w->choice);
    free(w->choice_weight);
}

bool kiln_mesh_data_compute_tangents(kiln_mesh_data *md, kiln_error *err) {
    if (!kiln_mesh_data_validate(md, err)) return false;
    size_t n = md->vertex_count, corners = md->index_count;
    tangent_work w = {
        .md = md,
        .rep = malloc(n * sizeof *w.rep),
        .frames = malloc(corners / 3 * sizeof *w.frames),
        .parent = malloc(corners * sizeof *w.parent),
        .angle = malloc(corners * sizeof *w.angle),
        .sum = malloc(corners * sizeof *w.sum),
        .choice = malloc(n * sizeof *w.choice),
        .choice_weight = malloc(n * sizeof *w.choice_weight),
    };
    kiln_vec4 *out = md->tangents ? md->tangents : malloc(n * sizeof *out);
    bool ok = w.rep && w.frames && w.parent && w.angle && w.sum && w.choice && w.choice_weight && out &&
              weld_vertices(md, w.rep);
    if (ok) {
        for (uint32_t t = 0; t < corners / 3; t++) w.frames[t] = frame_of(md, &md->indices[t * 3]);
        ok = group_corners(&w);
    }
    if (ok) {
        sum_groups(&w);
        ok = choose_groups(&w);
    }
    if (ok) {
        for (uint32_t v = 0; v < n; v++) out[v] = resolve_vertex(&w, v);
        md->tangents = out;
    } else if (out != md->tangents) {
        free(out);
    }
    free_work(&w);
    if (!ok) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "mesh: out of memory computing tangents for %zu vertices", n);
    return true;
}
