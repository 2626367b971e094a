/* loaded.svg: the loaded probe's chase latency against the bandwidth its
 * loaders drew, one curve per mix and page size of the chase, each
 * starting at the idle point and each point tagged with its loader count
 * (MLC's loaded-latency curve, the Mess benchmark's family by mix).
 */
#ifndef MEMPROBE_LOADED_CHART_H
#define MEMPROBE_LOADED_CHART_H

/* Forgets earlier points. */
void loaded_chart_begin(void);
/* One measured point of the chase at page_name under the mix `variant`
   ("idle": no loader, put first in every curve drawn so far at that page
   size, as the probe gives it once that page size's mixes have run):
   `loaders` loaders drew gb_per_s while the chase read ns. */
void loaded_chart_add(const char *page_name, const char *variant, double gb_per_s, double ns,
		      unsigned loaders);
/* Writes loaded.svg (or says why there is none). */
void loaded_chart_finish(void);

#endif
