sibling_h __FILE__ __LINE__
