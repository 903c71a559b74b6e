// Variadic macros: __VA_ARGS__, GNU `, ## __VA_ARGS__`, named variadic parameter.
#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)
#define ALL(...) f(__VA_ARGS__)
#define SHOW(...) #__VA_ARGS__
#define NAMED(fmt, rest...) printf(fmt, rest)
LOG("a");
LOG("b %d %d", 1, (2, 3));
ALL();
ALL(1, 2, 3);
const char *s = SHOW(x,  y , z);
NAMED("c", 4, 5);
