/* HTML pages that open anywhere: escaped text, and a page head with its
 * whole style inline.
 *
 * The pages memprobe writes (report.html, compare.html) are read on a desk,
 * on a phone and on paper, from a stick with no network: so no script, no
 * external stylesheet, font or image, and every chart inline as SVG. Text
 * goes to a caller's write function, so the EFI app and the Linux build
 * write pages alike. Freestanding.
 */
#ifndef MEMPROBE_HTML_H
#define MEMPROBE_HTML_H

#include <stddef.h>

typedef void (*html_write_fn)(void *ctx, const char *data, size_t len);

struct html_out {
	html_write_fn write;
	void *ctx;
};

/* Raw markup, as given. */
void html_raw(const struct html_out *o, const char *markup);
/* Text with &, <, >, " and ' escaped, so any text (a CPU brand, a path, a
   configuration value) is shown as itself and can never open a tag or end
   an attribute. NUL-free text of len bytes. */
void html_text(const struct html_out *o, const char *text, size_t len);
/* The same for a NUL-terminated string. */
void html_str(const struct html_out *o, const char *text);
/* A whole element, <tag>escaped text</tag>, tag being a plain name. */
void html_element(const struct html_out *o, const char *tag, const char *text);

/* <!DOCTYPE html> up to and including <body>: charset, viewport (phones),
   the title, and the style sheet (tables scroll sideways on a narrow
   screen, charts shrink to the width, @media print drops colours and
   keeps a chart on one page). */
void html_page_begin(const struct html_out *o, const char *title);
/* </body></html>. Both end tags are optional in HTML, so a page cut short
   before this is still a whole document. */
void html_page_end(const struct html_out *o);

/* An SVG document (lib/svg.h's output) as an inline <svg> element: passes
   the document through, leaving out its XML declaration, which only a
   stand-alone file may hold. An svg_write_fn; ctx: the const struct
   html_out * to write to. */
void html_svg_write(void *ctx, const char *data, size_t len);

#endif
