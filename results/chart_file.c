/* Writing charts through the platform's file API, and inline into
   report.html. */

#include "results/chart_file.h"
#include "core/platform.h"
#include "results/results.h"

/* A failed write removes the file and turns the rest of the document into
   no-ops: the chart is then reported missing, never left half-written. */
static void write_to_handle(void *ctx, const char *data, size_t len)
{
	int *handle = ctx;

	if (*handle >= 0 && plat_file_write(*handle, data, len) != 0) {
		plat_file_delete(*handle);
		*handle = -1;
	}
}

void chart_file(const char *name, chart_produce_fn produce, const void *arg)
{
	int handle = plat_file_open(name);

	if (handle < 0) {
		report_printf("  %s: not written: the file could not be created (files: %s)\n", name,
			      plat_run_folder());
		return;
	}
	if (produce(write_to_handle, &handle, arg) != 0) {
		/* The document says so itself; the report says it too. */
		if (handle >= 0)
			plat_file_close(handle);
		report_printf("  %s: nothing to draw\n", name);
		return;
	}
	results_chart_inline(name, produce, arg);
	if (handle >= 0 && plat_file_flush(handle) == 0) {
		plat_file_close(handle);
		report_printf("  chart: %s\n", name);
		return;
	}
	if (handle >= 0)
		plat_file_delete(handle);
	report_printf("  %s: writing failed (volume full or read-only?)\n", name);
}

int chart_produce_plain(svg_write_fn write, void *write_ctx, const void *arg)
{
	return svg_write_chart(arg, write, write_ctx);
}
