// Diagnostics of macro definitions and uses.
#define F(a, b) a + b
#define P(a, b) a ## b
F(1)
F(1, 2, 3)
P(+, /)
#define 3X
#define G(a, a) a
#define H(a) #b
#define J ## x
#define K(a
#foo
#include "does_not_exist.h"
#include
#define F(a, b) a - b
#undef
@ `
F(1,
  2
