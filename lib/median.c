/* Medians and distances from them (see median.h). */

#include "lib/median.h"

/* ---- Private Functions ------------------------------------------------ */

static void swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/* Puts v's k-th smallest value at v[k], smaller ones before it, larger
   after (Hoare's selection, the middle element as pivot so sorted input
   stays linear on average). */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				swap(&v[i], &v[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* ---- Public Functions ------------------------------------------------- */

double median_of(double *v, size_t n)
{
	size_t mid = n / 2;
	double upper, lower;

	select_kth(v, n, mid);
	upper = v[mid];
	if (n % 2)
		return upper;
	/* The lower middle is the largest of what selection left before mid. */
	lower = v[0];
	for (size_t i = 1; i < mid; i++)
		if (v[i] > lower)
			lower = v[i];
	return (lower + upper) / 2;
}

double kth_smallest(double *v, size_t n, size_t k)
{
	select_kth(v, n, k);
	return v[k];
}

double median_off_percent(double value, double median)
{
	if (median == 0)
		return value == 0 ? 0 : value > 0 ? 1e9 : -1e9;
	return (value - median) / (median < 0 ? -median : median) * 100;
}

int median_differs(double value, double median, double limit_percent)
{
	double off = median_off_percent(value, median);

	return off > limit_percent || off < -limit_percent;
}
