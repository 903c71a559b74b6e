// # and ## (C99 6.10.3.2, 6.10.3.3), placemarkers.
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a ## b
#define CAT3(a, b, c) a ## b ## c
#define VER 12
const char *s1 = STR(a  +   "q\n"   'c');
const char *s2 = XSTR(VER);
const char *s3 = STR();
int CAT(var, VER) = CAT(0x, 1F) + CAT3(1, , 2) + CAT3(, , 3);
float CAT(f, 4) = CAT(1.5, e3f);
int x = CAT(+, +);
