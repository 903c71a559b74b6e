__kernel void k(__global int *a) {
    break;
    switch (a[0]) {
    case 1: a[1] = 1; break;
    case 1: a[1] = 2; break;
    }
    continue;
    int n = a[0];
    int arr[n];
}
