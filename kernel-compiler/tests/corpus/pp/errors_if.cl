// Diagnostics of conditional directives.
#if
#endif
#if 1 +
#endif
#if (2
#endif
#if 1 / 0
#endif
#if 1.5
#endif
#if 1 2
#endif
#ifdef
#endif
#else
#endif
#if 1
#else
#else
#endif
#if 1
#elif
#endif
int x = 'unterminated;
#ifdef UNCLOSED
