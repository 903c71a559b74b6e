struct point { float x; float y; };
__kernel void k(__global struct point *p) {
    p[0].z = 1.0f;
    int n = 3;
    n.x = 2;
}
