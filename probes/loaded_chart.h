/* loaded.svg: the loaded probe's latency against the bandwidth its loaders
 * achieved, one curve per page size, each point tagged with its loader
 * count (MLC's loaded-latency curve).
 */
#ifndef MEMPROBE_LOADED_CHART_H
#define MEMPROBE_LOADED_CHART_H

/* Forgets earlier points. */
void loaded_chart_begin(void);
/* One measured row: at `page_shift` (named page_name for the legend),
   `loaders` loaders drew gb_per_s while the chase read ns. */
void loaded_chart_add(unsigned page_shift, const char *page_name, unsigned loaders,
		      double gb_per_s, double ns);
/* Writes loaded.svg (or says why there is none). */
void loaded_chart_finish(void);

#endif
