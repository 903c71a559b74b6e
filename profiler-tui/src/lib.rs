//! Terminal profiler for profile.mon.
