// common.wgsl: a few lines so the assembled line differs from bad.wgsl's own.
const ONE: u32 = 1u;
const TWO: u32 = 2u;
