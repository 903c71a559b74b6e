lib_h __FILE__
