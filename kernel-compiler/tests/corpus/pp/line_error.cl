// #line renumbers lines (and renames the file); #error and #warning report there.
int a = __LINE__;
#warning this is a warning
#line 100
int b = __LINE__;
#error first error
#line 7 "generated.cl"
int c = __LINE__; const char *f = __FILE__;
  #  error second error
