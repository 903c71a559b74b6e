// An example that shows data dependency
// choose(n, k) = n! / (k! * (n-k)!)

kernel void choose( unsigned n, unsigned k,
                    global unsigned* restrict result )
{
  unsigned product = 1;
  unsigned j = 1;

  for( unsigned i = k; i <= n; i++ ) {
    product *= i;
    if( j <= n-k ) {
      product /= j;
    }
    j++;
  }

  *result = product;
}
