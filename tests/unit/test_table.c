/* lib/table.c: one declaration, two renderings. The text must be what a
 * printf of fixed widths gives (report.txt's tables are byte-for-byte what
 * they were before the table existed), the page an HTML table whose header
 * and cells hold the same texts.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sink.h"
#include "lib/table.h"

static const struct table_column columns[] = {
	{ "working set", NULL, 11, 0, 0 },
	{ "ns/load", "ns", 10, 0, 0 },
	{ "stopped by", NULL, 10, 1, 2 },
	{ "verdict", NULL, 0, 1, 3 },
};
static const struct table shape = { columns, 4, "  ", " *" };

static void test_text(void)
{
	static const char *const row[] = { "4 KiB", "2.011", "settled", "agrees" };
	static const char *const wide[] = { "a wider cell!", NULL, "x<y", "" };
	char line[256], expect[256];

	table_text_header(&shape, line, sizeof line);
	snprintf(expect, sizeof expect, "  %11s %10s  %-10s   %s\n  %11s %10s\n",
		 "working set", "ns/load", "stopped by", "verdict", "", "ns");
	CHECK(!strcmp(line, expect), "the header: names, then the units line, as printf "
	      "pads them, no line ending in blanks: [%s]", line);
	table_text_row(&shape, row, 0, line, sizeof line);
	snprintf(expect, sizeof expect, "  %11s %10s  %-10s   %s\n", "4 KiB", "2.011", "settled",
		 "agrees");
	CHECK(!strcmp(line, expect), "a row: figures right, words left, a column's gap where "
	      "declared (two, three blanks), the last words column unpadded: [%s]", line);
	table_text_row(&shape, wide, 1, line, sizeof line);
	CHECK(!strcmp(line, " *a wider cell!             x<y\n"),
	      "a marked row gets its indent; a wider cell pushes the line, a NULL cell is "
	      "empty: [%s]", line);
	CHECK(table_text_row(&shape, row, 0, line, 8) > 8 && strlen(line) == 7,
	      "a short buffer: cut and terminated, the length asked for returned");
}

static void test_html(void)
{
	static struct sink s;
	struct html_out o = { to_sink, &s };
	static const char *const row[] = { "   12/3  ", "2.011", "a<b", "agrees" };

	s.len = 0;
	s.buf[0] = '\0';
	table_html_begin(&o, &shape, "latency, 4 KiB pages");
	table_html_row(&o, &shape, row, 0);
	table_html_note_begin(&o, &shape);
	html_str(&o, "... measuring");
	table_html_note_end(&o);
	table_html_row(&o, &shape, row, 1);
	table_html_end(&o);
	CHECK(strstr(s.buf, "<div class=\"scroll\"><table>\n<caption>latency, 4 KiB pages"
		      "</caption>\n") != NULL, "the table opens in its scroll box, captioned");
	CHECK(strstr(s.buf, "<thead><tr><th>working set</th><th>ns/load</th>"
		      "<th class=\"text\">stopped by</th><th class=\"text\">verdict</th></tr>\n"
		      "<tr class=\"unit\"><th></th><th>ns</th><th class=\"text\"></th>"
		      "<th class=\"text\"></th></tr></thead>\n<tbody>\n") != NULL,
	      "the header: every name, words classed to the left, the units as a second row: %s",
	      s.buf);
	CHECK(strstr(s.buf, "<tr><td>12/3</td><td>2.011</td><td class=\"text\">a&lt;b</td>"
		      "<td class=\"text\">agrees</td></tr>\n") != NULL,
	      "a row: each cell escaped, the text's alignment blanks trimmed");
	CHECK(strstr(s.buf, "<tr class=\"note\"><td colspan=\"4\">... measuring</td></tr>\n") != NULL,
	      "a note between rows spans every column");
	CHECK(strstr(s.buf, "<tr class=\"only\"><td>12/3</td>") != NULL, "a marked row is highlighted");
	CHECK(strlen(s.buf) > 23 && !strcmp(s.buf + strlen(s.buf) - 23, "</tbody></table></div>\n"),
	      "the table closes");
}

int main(void)
{
	test_text();
	test_html();
	return check_summary();
}
