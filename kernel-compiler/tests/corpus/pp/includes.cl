// options: -I tests/corpus/pp/include
// Quoted includes look in the including file's folder first, then -I; <...> only -I.
#include "local.h"
#include "sub/nested.h"
#include <lib.h>
#include "lib.h"
#include "local.h"
#define HDR "local.h"
#include HDR
end_of_main __LINE__
