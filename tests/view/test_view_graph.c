/* kiln-view's reading of the frame graph's Graphviz text (tools/kiln_view_graph.c): passes in
 * order with their names, culled ones marked, resources with their kind, physical texture and
 * lifetime, and aliasing as two resources in one physical texture. The sample is written as
 * src/graph/frame_graph_dot.c writes its text. */
#include "kiln_view_graph.h"
#include "test.h"

static const char *const sample =
    "digraph frame_graph {\n"
    "  rankdir=LR;\n"
    "  node [fontname=\"sans-serif\", fontsize=10];\n"
    "  p0 [shape=box, label=\"0: depth prepass\"];\n"
    "  p1 [shape=box, label=\"1: tone \\\"map\\\"\"];\n"
    "  p2 [shape=box, style=dashed, label=\"debug copy\\n(culled)\"];\n"
    "  r1 [shape=ellipse, peripheries=2, label=\"target\\nimported 64x64\\n[1, 1]\"];\n"
    "  r2 [shape=ellipse, label=\"depth\\nphysical 0 64x64\\n[0, 0]\"];\n"
    "  r3 [shape=ellipse, label=\"hdr\\nphysical 0 64x64\\n[1, 1]\"];\n"
    "  r4 [shape=ellipse, style=dashed, label=\"scratch\\ntransient 8x8\\nunused\"];\n"
    "  r5 [shape=ellipse, label=\"lists\\nbuffer\\n[0, 1]\"];\n"
    "  r2 -> p0 [label=\"clear\"];\n"
    "}\n";

TEST(passes_are_read_in_order_with_culled_ones_marked) {
    view_graph g;
    view_graph_parse(&g, sample);
    CHECK_EQ_INT(g.pass_count, 3);
    CHECK(!strcmp(g.passes[0].name, "depth prepass") && !g.passes[0].culled);
    CHECK_MSG(!strcmp(g.passes[1].name, "tone \"map\""), "%s", g.passes[1].name);
    CHECK(!strcmp(g.passes[2].name, "debug copy") && g.passes[2].culled);
}

TEST(resources_are_read_with_their_kind_physical_texture_and_lifetime) {
    view_graph g;
    view_graph_parse(&g, sample);
    CHECK_EQ_INT(g.resource_count, 5);
    CHECK(!strcmp(g.resources[0].name, "target") && !strcmp(g.resources[0].kind, "imported 64x64"));
    CHECK_EQ_INT(g.resources[0].physical, -1);
    CHECK_EQ_INT(g.resources[1].physical, 0);
    CHECK(g.resources[2].used && g.resources[2].first == 1 && g.resources[2].last == 1);
    CHECK(!g.resources[3].used);
    CHECK(!strcmp(g.resources[4].kind, "buffer") && g.resources[4].physical == -1);
}

TEST(two_transients_in_one_physical_texture_are_aliased) {
    view_graph g;
    view_graph_parse(&g, sample);
    CHECK(view_graph_aliased(&g, 1));
    CHECK(view_graph_aliased(&g, 2));
    CHECK(!view_graph_aliased(&g, 0));
    CHECK(!view_graph_aliased(&g, 3));
}

TEST(an_empty_text_holds_nothing) {
    view_graph g;
    view_graph_parse(&g, "");
    CHECK_EQ_INT(g.pass_count, 0);
    CHECK_EQ_INT(g.resource_count, 0);
}

TEST_MAIN(T(passes_are_read_in_order_with_culled_ones_marked), T(resources_are_read_with_their_kind_physical_texture_and_lifetime),
          T(two_transients_in_one_physical_texture_are_aliased), T(an_empty_text_holds_nothing))
