#include "test.h"
TEST(none) {}
TEST_MAIN(T(none))
