const PRESENT: u32 = 1u;
