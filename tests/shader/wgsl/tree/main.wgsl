// main.wgsl line 1
#include "a.wgsl"
const MAIN_VALUE: u32 = 3u; // main.wgsl line 3
  #include "a.wgsl"
fn total() -> u32 { return MAIN_VALUE + A_VALUE + B_VALUE; } // main.wgsl line 5
