// Conditional groups with full constant expressions.
#define A 1
#define B 0
#define VERSION 120
#if A && !B
ok1
#elif 1
bad
#else
bad
#endif
#if VERSION >= 200
bad
#elif VERSION == 120 && defined(A) && defined B && !defined C
ok2
#else
bad
#endif
#ifdef A
#  ifndef B
bad
#  else
ok3
#  endif
#endif
#if 0
#error not reached
#if 1
bad
#endif
don't mind the apostrophe here
#else
ok4
#endif
#if (1 << 4) == 16 && -1 < 0 && -1 > 0u && 10 / 3 == 3 && 10 % 3 == 1 && ~0 == -1
ok5
#endif
#if (0 && 1 / 0) || (1 ? 1 : 1 / 0)
ok6
#endif
#if 'A' == 65 && '\n' == 10 && 0xffffffffffffffff == -1 && (0x7fffffffffffffff < 0) == 0
ok7
#endif
#if UNDEFINED || UNDEFINED_FN(1) && 0
bad
#endif
