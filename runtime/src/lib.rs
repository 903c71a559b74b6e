//! OpenCL semantics: platform, device, context, queues, events, memory objects, programs, kernels, profiling session.
