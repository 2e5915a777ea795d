/* The frame blackboard without a GPU (src/render/blackboard.c): features publish graph resources
 * by name and find them again; a later publish replaces an earlier one; a need of a name no
 * feature published, or a publish past capacity, fails the frame naming the feature and the
 * name, and only the first failure is kept. */
#include "render/blackboard.h"

#include <stdio.h>
#include <string.h>

#include "test.h"

static kiln_fg_resource resource(uint32_t index) { return (kiln_fg_resource){.index = index}; }

TEST(a_published_name_is_found_and_an_unpublished_one_is_not) {
    render_blackboard b;
    render_blackboard_clear(&b);
    render_blackboard_put(&b, "depth", resource(3));
    CHECK_EQ_INT(render_blackboard_find(&b, "depth").index, 3);
    CHECK_EQ_INT(render_blackboard_find(&b, "ao").index, 0);
    kiln_error err = {0};
    CHECK(render_blackboard_check(&b, &err));
}

TEST(a_name_compares_by_text_not_by_pointer) {
    render_blackboard b;
    render_blackboard_clear(&b);
    char name[8];
    snprintf(name, sizeof name, "%s", "hdr");
    render_blackboard_put(&b, "hdr", resource(5));
    CHECK_EQ_INT(render_blackboard_find(&b, name).index, 5);
}

TEST(a_later_publish_replaces_the_earlier_one) {
    render_blackboard b;
    render_blackboard_clear(&b);
    render_blackboard_put(&b, "ldr", resource(1));
    render_blackboard_put(&b, "ldr", resource(7));
    CHECK_EQ_INT(render_blackboard_find(&b, "ldr").index, 7);
    CHECK_EQ_INT(b.count, 1);
}

TEST(a_need_of_an_unpublished_name_fails_the_frame_naming_the_feature) {
    render_blackboard b;
    render_blackboard_clear(&b);
    b.feature = "tonemap";
    CHECK_EQ_INT(render_blackboard_need(&b, "hdr resolved").index, 0);
    b.feature = "fxaa";
    render_blackboard_need(&b, "ldr"); /* the first failure is the one reported */
    kiln_error err = {0};
    CHECK(!render_blackboard_check(&b, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_INVALID_ARGUMENT);
    CHECK_MSG(!strcmp(err.message, "renderer: feature 'tonemap' needs 'hdr resolved', which no feature before it published"),
              "%s", err.message);
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
    render_blackboard_put(&b, "n3", resource(42)); /* replacing needs no room */
    CHECK_EQ_INT(render_blackboard_find(&b, "n3").index, 42);
    CHECK_EQ_INT(render_blackboard_find(&b, "one too many").index, 0);
    CHECK(!render_blackboard_check(&b, &err));
    CHECK_EQ_INT(err.code, KILN_ERR_CAPACITY);
    CHECK_MSG(!strcmp(err.message, "renderer: feature 'bloom' publishes 'one too many' on a full frame blackboard (32 names)"),
              "%s", err.message);
}

TEST(clearing_forgets_names_and_failures) {
    render_blackboard b;
    render_blackboard_clear(&b);
    render_blackboard_put(&b, "depth", resource(2));
    render_blackboard_need(&b, "missing");
    render_blackboard_clear(&b);
    kiln_error err = {0};
    CHECK(render_blackboard_check(&b, &err));
    CHECK_EQ_INT(render_blackboard_find(&b, "depth").index, 0);
}

TEST_MAIN(T(a_published_name_is_found_and_an_unpublished_one_is_not), T(a_name_compares_by_text_not_by_pointer),
          T(a_later_publish_replaces_the_earlier_one), T(a_need_of_an_unpublished_name_fails_the_frame_naming_the_feature),
          T(a_publish_past_capacity_fails_the_frame_and_keeps_what_was_there), T(clearing_forgets_names_and_failures))
