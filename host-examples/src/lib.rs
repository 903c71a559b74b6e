//! C host programs and kernels used as examples and end-to-end tests.
