// main.wgsl: fine itself; the error is in inc/bad.wgsl, line 3, column 13.
#include "inc/common.wgsl"
#include "inc/bad.wgsl"

@compute @workgroup_size(1) fn cs_main() { let y = helper(); }
