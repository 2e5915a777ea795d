/* The frame blackboard without a GPU (src/render/blackboard.c): features publish graph resources
 * by name, or publish a name as absent this frame, and find them again; only a chain replaces.
 * Each mistake fails the frame naming the feature and the name, and only the first is kept: a
 * find or need of a name never published, a need of an absent one, a second publish, a publish
 * past capacity. */
#include "render/blackboard.h"

#include <stdio.h>
#include <string.h>

#include "test.h"

static kiln_fg_resource resource(uint32_t index) { return (kiln_fg_resource){.index = index}; }

static void check_failure(const render_blackboard *b, int code, const char *message) {
    kiln_error err = {0};
    CHECK(!render_blackboard_check(b, &err));
    CHECK_EQ_INT(err.code, code);
    CHECK_MSG(!strcmp(err.message, message), "got '%s', want '%s'", err.message, message);
}

TEST(a_published_name_is_found_and_an_absent_one_finds_index_0) {
    render_blackboard b;
    render_blackboard_clear(&b);
    render_blackboard_put(&b, "depth", resource(3));
    render_blackboard_put(&b, "ao", resource(0)); /* off this frame */
    CHECK_EQ_INT(render_blackboard_find(&b, "depth").index, 3);
    CHECK_EQ_INT(render_blackboard_need(&b, "depth").index, 3);
    CHECK_EQ_INT(render_blackboard_find(&b, "ao").index, 0);
    kiln_error err = {0};
    CHECK_MSG(render_blackboard_check(&b, &err), "%s", err.message);
}

TEST(a_name_compares_by_text_not_by_pointer) {
    render_blackboard b;
    render_blackboard_clear(&b);
    char name[8];
    snprintf(name, sizeof name, "%s", "hdr");
    render_blackboard_put(&b, "hdr", resource(5));
    CHECK_EQ_INT(render_blackboard_find(&b, name).index, 5);
}

TEST(a_chain_replaces_its_link) {
    render_blackboard b;
    render_blackboard_clear(&b);
    render_blackboard_put(&b, "display", resource(1));
    render_blackboard_replace(&b, "display", resource(7));
    CHECK_EQ_INT(render_blackboard_find(&b, "display").index, 7);
    CHECK_EQ_INT(b.count, 1);
    kiln_error err = {0};
    CHECK(render_blackboard_check(&b, &err));
}

TEST(a_find_of_a_name_never_published_fails_the_frame_naming_the_feature) {
    render_blackboard b;
    render_blackboard_clear(&b);
    b.feature = "tonemap";
    CHECK_EQ_INT(render_blackboard_find(&b, "blooom").index, 0);
    b.feature = "fxaa";
    render_blackboard_need(&b, "ldr"); /* the first failure is the one reported */
    check_failure(&b, KILN_ERR_INVALID_ARGUMENT,
                  "renderer: feature 'tonemap' asks for 'blooom', which no feature before it published");
}

TEST(a_replace_of_a_name_never_published_fails_the_frame) {
    render_blackboard b;
    render_blackboard_clear(&b);
    b.feature = "fxaa";
    render_blackboard_replace(&b, "display", resource(2));
    check_failure(&b, KILN_ERR_INVALID_ARGUMENT,
                  "renderer: feature 'fxaa' asks for 'display', which no feature before it published");
}

TEST(a_need_of_an_absent_name_fails_the_frame) {
    render_blackboard b;
    render_blackboard_clear(&b);
    b.feature = "bloom";
    render_blackboard_put(&b, "hdr resolved", resource(0));
    b.feature = "tonemap";
    render_blackboard_need(&b, "hdr resolved");
    check_failure(&b, KILN_ERR_INVALID_ARGUMENT, "renderer: feature 'tonemap' needs 'hdr resolved', which is absent this frame");
}

TEST(a_second_publish_of_a_name_fails_the_frame_naming_both_owners) {
    render_blackboard b;
    render_blackboard_clear(&b);
    b.feature = "prepass";
    render_blackboard_put(&b, "depth", resource(1));
    b.feature = "data_outputs";
    render_blackboard_put(&b, "depth", resource(2));
    CHECK_EQ_INT(render_blackboard_find(&b, "depth").index, 1); /* the first owner's stays */
    check_failure(&b, KILN_ERR_INVALID_ARGUMENT, "renderer: feature 'data_outputs' publishes 'depth', which 'prepass' published");
}

TEST(a_publish_past_capacity_fails_the_frame_and_keeps_what_was_there) {
    static const char *const names[RENDER_BLACKBOARD_CAPACITY] = {
        "n0",  "n1",  "n2",  "n3",  "n4",  "n5",  "n6",  "n7",  "n8",  "n9",  "n10", "n11", "n12", "n13", "n14", "n15",
        "n16", "n17", "n18", "n19", "n20", "n21", "n22", "n23", "n24", "n25", "n26", "n27", "n28", "n29", "n30", "n31",
    };
    render_blackboard b;
    render_blackboard_clear(&b);
    b.feature = "bloom";
    for (uint32_t i = 0; i < RENDER_BLACKBOARD_CAPACITY; i++) render_blackboard_put(&b, names[i], resource(i + 1));
    kiln_error err = {0};
    CHECK(render_blackboard_check(&b, &err));
    render_blackboard_put(&b, "one too many", resource(99));
    render_blackboard_replace(&b, "n3", resource(42)); /* a link of a chain needs no room */
    CHECK_EQ_INT(render_blackboard_find(&b, "n3").index, 42);
    check_failure(&b, KILN_ERR_CAPACITY, "renderer: feature 'bloom' publishes 'one too many' on a full frame blackboard (32 names)");
}

TEST(clearing_forgets_names_and_failures) {
    render_blackboard b;
    render_blackboard_clear(&b);
    render_blackboard_put(&b, "depth", resource(2));
    render_blackboard_need(&b, "missing");
    render_blackboard_clear(&b);
    kiln_error err = {0};
    CHECK(render_blackboard_check(&b, &err));
    render_blackboard_put(&b, "depth", resource(4)); /* a new frame publishes it again */
    CHECK(render_blackboard_check(&b, &err));
}

TEST_MAIN(T(a_published_name_is_found_and_an_absent_one_finds_index_0), T(a_name_compares_by_text_not_by_pointer),
          T(a_chain_replaces_its_link), T(a_find_of_a_name_never_published_fails_the_frame_naming_the_feature),
          T(a_replace_of_a_name_never_published_fails_the_frame), T(a_need_of_an_absent_name_fails_the_frame),
          T(a_second_publish_of_a_name_fails_the_frame_naming_both_owners),
          T(a_publish_past_capacity_fails_the_frame_and_keeps_what_was_there), T(clearing_forgets_names_and_failures))
