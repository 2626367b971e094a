/* Base-2 logarithms and powers without libm (see base2.h): the series
 * below converge fast on the reduced ranges, so no table is needed.
 */
#include <stdint.h>

#include "lib/base2.h"

/* ---- Public Functions ------------------------------------------------- */

double base2_log(double x)
{
	union { double d; uint64_t u; } v = { x };
	double m, z, z2, term, sum;
	int e;

	if (x != x || x < 0.0)
		return 0.0 / 0.0;
	if (x == 0.0)
		return -1.0 / 0.0;
	if (x > 1.7976931348623157e308)
		return x;
	e = 0;
	if (!(v.u >> 52)) {           /* subnormal: scale into the normal range */
		v.d *= 18446744073709551616.0;
		e = -64;
	}
	e += (int)(v.u >> 52) - 1023;
	v.u = (v.u & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
	m = v.d;                      /* in [1, 2) */
	if (m > 1.4142135623730951) { /* into [0.707, 1.414): the series converges faster */
		m /= 2.0;
		e++;
	}
	if (m == 1.0)
		return (double)e;
	/* ln m = 2 atanh(z), z = (m-1)/(m+1), |z| < 0.172 */
	z = (m - 1.0) / (m + 1.0);
	z2 = z * z;
	term = z;
	sum = 0.0;
	for (int k = 1; k < 60; k += 2) {
		double add = term / k;
		sum += add;
		if (add < 1e-18 && add > -1e-18)
			break;
		term *= z2;
	}
	return (double)e + 2.0 * sum * 1.44269504088896340736;
}

double base2_exp(double y)
{
	const double ln2 = 0.69314718055994530942;
	double whole = 1.0, term = 1.0, sum = 1.0, f;
	int k = 0;

	if (!(y > -1000.0 && y < 1000.0))      /* NaN or far out: not used here */
		return y > 0.0 ? 1e300 : 0.0;
	while (y >= 1.0) {
		y -= 1.0;
		whole *= 2.0;
	}
	while (y < 0.0) {
		y += 1.0;
		whole /= 2.0;
	}
	f = y * ln2;
	for (k = 1; k <= 20; k++) {
		term *= f / (double)k;
		sum += term;
	}
	return whole * sum;
}

int base2_is_power(uint64_t v)
{
	return v && !(v & (v - 1));
}
