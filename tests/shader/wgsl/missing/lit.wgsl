// lit.wgsl: includes a file that does not exist (on line 4).
#include "present.wgsl"

#include "missing.wgsl"
