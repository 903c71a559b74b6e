//! The emulated FPGA: board model, IR execution, timing model, per-site counters.
