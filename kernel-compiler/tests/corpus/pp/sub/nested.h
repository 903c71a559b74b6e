nested_h __FILE__
#include "sibling.h"
