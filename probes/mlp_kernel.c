/* The mlp probe's cycle and interleaved chases (see mlp_kernel.h). */

#include "probes/mlp_kernel.h"
#include "probes/chase.h"
#include "analysis/mlp_read.h"

/* ---- Constants -------------------------------------------------------- */

/* The first word of a slot is its link; this one, the slot at that
   position of the cycle (mlp_build). */
#define ORDER_WORD 1u

/* ---- Private Functions ------------------------------------------------ */

static void **link_of(void *base, size_t i, size_t page_bytes)
{
	return (void **)chase_slot(base, i, page_bytes);
}

static void **order_of(void *base, size_t i, size_t page_bytes)
{
	return (void **)chase_slot(base, i, page_bytes) + ORDER_WORD;
}

/* One step of chase i: p = *p, copied so it is one plain load. */
#define H(i) __builtin_memcpy(&c##i, c##i, sizeof c##i)
#define S1 H(0)
#define S2 S1; H(1)
#define S3 S2; H(2)
#define S4 S3; H(3)
#define S5 S4; H(4)
#define S6 S5; H(5)
#define S7 S6; H(6)
#define S8 S7; H(7)
#define S9 S8; H(8)
#define S10 S9; H(9)
#define S11 S10; H(10)
#define S12 S11; H(11)
#define V(i) *c##i = ptr[i]
#define D1 void V(0)
#define D2 D1, V(1)
#define D3 D2, V(2)
#define D4 D3, V(3)
#define D5 D4, V(4)
#define D6 D5, V(5)
#define D7 D6, V(6)
#define D8 D7, V(7)
#define D9 D8, V(8)
#define D10 D9, V(9)
#define D11 D10, V(10)
#define D12 D11, V(11)
#define W(i) ptr[i] = c##i
#define W1 W(0)
#define W2 W1; W(1)
#define W3 W2; W(2)
#define W4 W3; W(3)
#define W5 W4; W(4)
#define W6 W5; W(5)
#define W7 W6; W(6)
#define W8 W7; W(7)
#define W9 W8; W(8)
#define W10 W9; W(9)
#define W11 W10; W(10)
#define W12 W11; W(11)

/* k chases, each pointer a local the compiler keeps in a register: noinline,
   so the loop is exactly this and its pointers leave through ptr[]. */
#define FOLLOW(k)								\
	__attribute__((noinline)) static void follow_##k(void **ptr, uint64_t blocks) \
	{									\
		D##k;								\
		while (blocks--) {						\
			S##k; S##k; S##k; S##k;					\
		}								\
		W##k;								\
	}
FOLLOW(1) FOLLOW(2) FOLLOW(3) FOLLOW(4) FOLLOW(5) FOLLOW(6)
FOLLOW(7) FOLLOW(8) FOLLOW(9) FOLLOW(10) FOLLOW(11) FOLLOW(12)

_Static_assert(MLP_UNROLL == 4, "FOLLOW writes four steps per block");
_Static_assert(MLP_REGISTER_CHASES == 12, "FOLLOW is written for 1 .. 12 chases");

static void (*const in_registers[MLP_REGISTER_CHASES + 1])(void **, uint64_t) = {
	0, follow_1, follow_2, follow_3, follow_4, follow_5, follow_6,
	follow_7, follow_8, follow_9, follow_10, follow_11, follow_12,
};

/* Past the registers: each step loads the pointer from ptr[i], loads
   through it, and stores the result back. The store and the load through
   a pointer that may point anywhere keep the compiler from holding ptr[i]
   in a register, so the two extra memory operations are always there. */
__attribute__((noinline)) static void follow_in_memory(void **ptr, unsigned k, uint64_t blocks)
{
	while (blocks--)
		for (unsigned r = 0; r < MLP_UNROLL; r++)
			for (unsigned i = 0; i < k; i++)
				__builtin_memcpy(&ptr[i], ptr[i], sizeof ptr[i]);
}

/* ---- Public Functions ------------------------------------------------- */

/* Fisher-Yates over the order words, then each slot of the order linked to
   the next: one random cycle, as chase_build's, with its order kept. */
void mlp_build(void *base, size_t slots, size_t page_bytes, uint64_t seed)
{
	size_t i;

	for (i = 0; i < slots; i++) {
		/* Asked for ahead, as chase_build's stores are. */
		if (i + CHASE_PREFETCH_AHEAD < slots)
			__builtin_prefetch(order_of(base, i + CHASE_PREFETCH_AHEAD, page_bytes), 1);
		*order_of(base, i, page_bytes) = link_of(base, i, page_bytes);
	}
	chase_shuffle(base, slots, page_bytes, ORDER_WORD, 0, seed);
	for (i = 0; i < slots; i++) {
		void **from = *order_of(base, i, page_bytes);

		/* The links are written in the order's random places: each
		   prefetched CHASE_PREFETCH_AHEAD links early, so many misses
		   overlap. */
		if (i + CHASE_PREFETCH_AHEAD < slots)
			__builtin_prefetch(*order_of(base, i + CHASE_PREFETCH_AHEAD, page_bytes), 1);
		*from = *order_of(base, i + 1 < slots ? i + 1 : 0, page_bytes);
	}
}

void *mlp_start(void *base, size_t slots, size_t page_bytes, size_t turn, unsigned j,
		unsigned k)
{
	return *order_of(base, (turn + (size_t)((uint64_t)j * slots / k)) % slots, page_bytes);
}

int mlp_in_registers(unsigned k)
{
	return k >= 1 && k <= MLP_REGISTER_CHASES;
}

void mlp_follow(void **ptr, unsigned k, uint64_t steps)
{
	if (mlp_in_registers(k))
		in_registers[k](ptr, steps / MLP_UNROLL);
	else if (k <= MLP_CHASES_MAX)
		follow_in_memory(ptr, k, steps / MLP_UNROLL);
}
