// Header given to clCompileProgram as an embedded input header named "link/common.h"
// (no file of that name exists on disk): the prototype of the helper defined in
// program_build_link_helper.cl and the bias it adds.
#define LINK_BIAS 100
int add_bias(int x);
