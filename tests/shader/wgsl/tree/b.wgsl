// b.wgsl line 1
const B_VALUE: u32 = 1u; // b.wgsl line 2
