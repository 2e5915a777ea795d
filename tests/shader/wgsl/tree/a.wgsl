// a.wgsl line 1
#include "b.wgsl"
const A_VALUE: u32 = 2u; // a.wgsl line 3
