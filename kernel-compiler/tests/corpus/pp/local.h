#pragma once
local_h __FILE__ __LINE__
