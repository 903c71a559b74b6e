// switch with fall-through, default in the middle, nested switch inside loops.
__kernel void cf_switch(__global const int *a, __global int *o)
{
    size_t i = get_global_id(0);
    int v = a[i];
    int acc = 0;
    for (int k = 0; k < 6; k++) {
        switch ((v + k) % 7) {
        case 0:
            acc += 1;
        case 1:                       // fall-through from 0
            acc += 10;
            break;
        default:
            acc -= 3;
            if (acc < -10)
                break;
            acc *= 2;
            break;
        case 4:
            switch (k & 1) {
            case 0: acc ^= 0x55; break;
            case 1: continue;        // continue the for loop from a nested switch
            }
            acc += 100;
        case -3:                     // negative remainder of negative v
            acc += 1000;
            break;
        case -1:
        case -2:
            acc = -acc;
            break;
        }
        acc += k;
    }
    o[i] = acc;
}
