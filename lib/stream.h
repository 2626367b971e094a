/* Memory-streaming kernels as plain data: a set of four loops (read, write,
 * copy, non-temporal write) that use one vector width. An architecture
 * supplies its sets (arch/stream.h), a platform says which of them may run,
 * and the bandwidth probe times them; none of the three needs the others'
 * headers to agree on this shape, as with lib/machine.h's cache claims.
 */
#ifndef MEMPROBE_LIB_STREAM_H
#define MEMPROBE_LIB_STREAM_H

#include <stddef.h>
#include <stdint.h>

enum stream_op { STREAM_READ, STREAM_WRITE, STREAM_COPY, STREAM_WRITE_NT, STREAM_OPS };

/* Streams over `bytes` bytes `passes` times: READ loads [src, src + bytes),
   WRITE and WRITE_NT store to [dst, dst + bytes), COPY does both. bytes is a
   whole number of the set's block_bytes and both pointers are aligned to
   it; the passes run inside the kernel, so a call's own cost is not timed
   once per pass. */
typedef void stream_kernel_fn(void *dst, const void *src, size_t bytes, uint64_t passes);

struct stream_kernels {
	const char *name;             /* the instruction set: "sse2", "avx2", "avx512" */
	unsigned vector_bytes;        /* one load or store: 16, 32, 64 */
	unsigned block_bytes;         /* one unrolled loop iteration */
	stream_kernel_fn *op[STREAM_OPS];
};

#endif
