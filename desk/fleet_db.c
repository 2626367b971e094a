/* memprobe fleet --db: runs into an SQLite database (see fleet.h), through
 * Debian's libsqlite3; the Linux build only. The schema is docs/OUTPUT.md's
 * "The fleet database"; its version is kept in memprobe_schema, so a
 * later memprobe never writes rows of one shape into tables of another.
 */

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "desk/fleet.h"
#include "desk/run_folder.h"
#include "results/csvread.h"
#include "desk/desk.h"

/* ---- Constants -------------------------------------------------------- */

/* 2: results.csv's spread became spread_pct (the rows table's columns are
   its columns). */
#define SCHEMA_VERSION 2
#define TEXT_OF(x) #x
#define TEXT_OF_VALUE(x) TEXT_OF(x)
/* Another fleet (or an SQL tool) writing the same file: wait this long for
   its transaction before giving up with "database is locked". */
#define BUSY_WAIT_MS 10000

/* Every table but rows, whose columns are results.csv's (columns.h). */
static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS memprobe_schema (version INTEGER NOT NULL);\n"
	"CREATE TABLE IF NOT EXISTS machines (\n"
	"  id TEXT PRIMARY KEY, id_from TEXT, manufacturer TEXT, product TEXT,\n"
	"  serial TEXT, uuid TEXT);\n"
	"CREATE TABLE IF NOT EXISTS runs (\n"
	"  id INTEGER PRIMARY KEY, machine_id TEXT NOT NULL REFERENCES machines(id),\n"
	"  name TEXT NOT NULL, folder TEXT, date_time TEXT, platform TEXT, cpu TEXT,\n"
	"  memprobe TEXT, verdict TEXT, cpuid_verdicts TEXT, memory_slots INTEGER, memory_devices INTEGER,\n"
	"  memory_bytes INTEGER, memory_sizes TEXT, memory_speeds TEXT, row_count INTEGER,\n"
	"  skipped_rows INTEGER, system_json TEXT, added TEXT,\n"
	"  UNIQUE (machine_id, name));\n"
	"CREATE TABLE IF NOT EXISTS figures (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL,\n"
	"  value REAL NOT NULL, PRIMARY KEY (run_id, name));\n"
	"CREATE TABLE IF NOT EXISTS levels (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id), position INTEGER NOT NULL,\n"
	"  name TEXT, kind TEXT, page_size INTEGER, size_bytes INTEGER, entries INTEGER,\n"
	"  ns REAL, cycles REAL, increase_ns REAL, increase_cycles REAL, method TEXT,\n"
	"  range_lo_bytes INTEGER, range_hi_bytes INTEGER, smeared INTEGER,\n"
	"  PRIMARY KEY (run_id, position));\n";

/* ---- Private Types ---------------------------------------------------- */

struct fleet_db {
	sqlite3 *db;
	const char *path;
};

/* results_csv_read's callback context: the rows statement. */
struct row_sink {
	sqlite3_stmt *insert;
	sqlite3_int64 run_id;
	int failed;
};

/* ---- Private Functions ------------------------------------------------ */

/* why[] = "FILE: what: sqlite's message"; returns -1. */
static int db_error(const struct fleet_db *d, const char *what, char *why, size_t size)
{
	snprintf(why, size, "%s: %s: %s", d->path, what, sqlite3_errmsg(d->db));
	return -1;
}

/* SQL statements run one after another; 0 or -1 with why[] set. */
static int exec(struct fleet_db *d, const char *sql, const char *what, char *why, size_t size)
{
	return sqlite3_exec(d->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0
	       : db_error(d, what, why, size);
}

/* The SQL type of a results.csv column. */
static const char *sql_type(enum column_form form)
{
	switch (form) {
	case COLUMN_TEXT: case COLUMN_TEXT_ID: return "TEXT";
	case COLUMN_REAL: case COLUMN_OPTIONAL_REAL: case COLUMN_PERCENT: return "REAL";
	case COLUMN_PAGE_SIZE: case COLUMN_BYTES: case COLUMN_COUNT:
	case COLUMN_OPTIONAL_COUNT: break;
	}
	return "INTEGER";
}

/* "CREATE TABLE ... rows (run_id, <every column>)" or the matching
   INSERT, from columns.h's table, so a new results.csv column is a new
   column here with no edit. The INSERT names its columns: a database
   brought up to date (bring_up_to_date) has its added ones last. */
static void rows_sql(char *buf, size_t size, int insert)
{
	size_t n = (size_t)snprintf(buf, size, insert ? "INSERT INTO rows (run_id"
				    : "CREATE TABLE IF NOT EXISTS rows (\n  run_id INTEGER NOT "
				    "NULL REFERENCES runs(id)");
	for (unsigned c = 0; c < result_column_count && n < size; c++)
		n += (size_t)snprintf(buf + n, size - n, insert ? ", \"%s\"" : ",\n  \"%s\" %s",
				      result_columns[c].name, sql_type(result_columns[c].form));
	if (insert)
		for (unsigned c = 0; c <= result_column_count && n < size; c++)
			n += (size_t)snprintf(buf + n, size - n, c ? ", ?" : ") VALUES (?");
	if (n < size)
		snprintf(buf + n, size - n, ")");
}

/* Whether the rows table has a column of this name. */
static int has_column(struct fleet_db *d, const char *name)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT 1 FROM pragma_table_info('rows') WHERE name = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* One results.csv column into an older database's rows table: renamed
   from its older name (a percent column's fractions made percents), else
   added, empty for the runs already in; 0 or -1 with why[] set. */
static int column_up_to_date(struct fleet_db *d, const struct result_column *col, char *why,
			     size_t size)
{
	char sql[256];

	if (has_column(d, col->name))
		return 0;
	if (col->was && has_column(d, col->was)) {
		snprintf(sql, sizeof sql, "ALTER TABLE rows RENAME COLUMN \"%s\" TO \"%s\"",
			 col->was, col->name);
		if (exec(d, sql, "cannot rename an older column", why, size))
			return -1;
		if (col->form != COLUMN_PERCENT)
			return 0;
		snprintf(sql, sizeof sql, "UPDATE rows SET \"%s\" = \"%s\" * 100", col->name,
			 col->name);
		return exec(d, sql, "cannot make an older column's fractions percents", why, size);
	}
	snprintf(sql, sizeof sql, "ALTER TABLE rows ADD COLUMN \"%s\" %s", col->name,
		 sql_type(col->form));
	return exec(d, sql, "cannot add a column", why, size);
}

/* An earlier memprobe's database (a schema version below this one, or a
   column results.csv gained since) brought up to this one's in one
   transaction: every column of columns.h's table in its rows table, and
   the version recorded; 0 or -1 with why[] set and the file as it was. */
static int bring_up_to_date(struct fleet_db *d, int version, char *why, size_t size)
{
	char sql[96];

	if (exec(d, "BEGIN", "cannot begin a transaction", why, size))
		return -1;
	for (unsigned c = 0; c < result_column_count; c++)
		if (column_up_to_date(d, &result_columns[c], why, size)) {
			sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	snprintf(sql, sizeof sql, "UPDATE memprobe_schema SET version = %d", SCHEMA_VERSION);
	if ((version != SCHEMA_VERSION &&
	     exec(d, sql, "cannot record the schema version", why, size)) ||
	    exec(d, "COMMIT", "cannot commit the update", why, size)) {
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

/* 0 when the file is empty or memprobe's database of this schema or an
   earlier one (brought up to date); -1 with why[] set for any other
   database. */
static int check_schema(struct fleet_db *d, char *why, size_t size)
{
	sqlite3_stmt *st;
	int tables, version = -1;

	if (sqlite3_prepare_v2(d->db, "SELECT count(*), (SELECT count(*) FROM sqlite_schema "
			       "WHERE name = 'memprobe_schema') FROM sqlite_schema", -1, &st,
			       NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return db_error(d, "cannot be read as an SQLite database", why, size);
	}
	tables = sqlite3_column_int(st, 0);
	if (tables && !sqlite3_column_int(st, 1)) {
		sqlite3_finalize(st);
		snprintf(why, size, "%s: an SQLite database, but not memprobe fleet's (it has no "
			 "memprobe_schema table): give a new file or one fleet wrote", d->path);
		return -1;
	}
	sqlite3_finalize(st);
	if (!tables)
		return 0;
	if (sqlite3_prepare_v2(d->db, "SELECT version FROM memprobe_schema", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version < 1 || version > SCHEMA_VERSION) {
		snprintf(why, size, "%s: a memprobe fleet database of schema version %d; this "
			 "memprobe reads versions 1 to %d: give another file", d->path, version,
			 SCHEMA_VERSION);
		return -1;
	}
	return bring_up_to_date(d, version, why, size);
}

/* The tables, made when absent, and the schema version recorded. */
static int create_tables(struct fleet_db *d, char *why, size_t size)
{
	char rows[4096];

	rows_sql(rows, sizeof rows, 0);
	if (exec(d, "BEGIN", "cannot begin a transaction", why, size) ||
	    exec(d, schema_sql, "cannot create the tables", why, size) ||
	    exec(d, rows, "cannot create the rows table", why, size) ||
	    exec(d, "INSERT INTO memprobe_schema SELECT " TEXT_OF_VALUE(SCHEMA_VERSION)
		 " WHERE NOT EXISTS "
		 "(SELECT 1 FROM memprobe_schema)", "cannot record the schema", why, size) ||
	    exec(d, "COMMIT", "cannot commit the tables", why, size)) {
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

/* Binds text, or NULL for "". */
static void bind_text(sqlite3_stmt *st, int at, const char *text)
{
	if (text && text[0])
		sqlite3_bind_text(st, at, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, at);
}

/* Binds a real, or NULL for one that is not finite (JSON's and SQL's
   missing value alike). */
static void bind_real(sqlite3_stmt *st, int at, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, at, v);
	else
		sqlite3_bind_null(st, at);
}

/* Runs a statement whose values are bound, then resets it; 0 or -1. */
static int step(struct fleet_db *d, sqlite3_stmt *st, const char *what, char *why, size_t size)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : db_error(d, what, why, size);
}

/* A prepared statement, or NULL with why[] set. */
static sqlite3_stmt *prepare(struct fleet_db *d, const char *sql, char *why, size_t size)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_error(d, "cannot prepare a statement", why, size);
		return NULL;
	}
	return st;
}

/* The machine's identity, kept from the first run that named it. */
static int add_machine(struct fleet_db *d, const struct fleet_run *r, char *why, size_t size)
{
	sqlite3_stmt *st = prepare(d, "INSERT OR IGNORE INTO machines VALUES (?,?,?,?,?,?)",
				   why, size);
	const char *text[] = { r->machine_id, r->id_from, r->manufacturer, r->product,
			       r->serial, r->uuid };
	int rc;

	if (!st)
		return -1;
	for (int i = 0; i < 6; i++)
		bind_text(st, i + 1, text[i]);
	rc = step(d, st, "cannot add the machine", why, size);
	sqlite3_finalize(st);
	return rc;
}

/* The run's row; 1 added (*id its key), 0 when the machine already has a
   run of that name, -1. */
static int add_run(struct fleet_db *d, const struct fleet_run *r, const struct run_folder *f,
		   sqlite3_int64 *id, char *why, size_t size)
{
	sqlite3_stmt *st = prepare(d, "INSERT OR IGNORE INTO runs (machine_id, name, folder, "
				   "date_time, platform, cpu, memprobe, verdict, cpuid_verdicts, memory_slots, "
				   "memory_devices, memory_bytes, memory_sizes, memory_speeds, "
				   "row_count, skipped_rows, system_json, added) VALUES "
				   "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,datetime('now'))", why, size);
	const char *text[] = { r->machine_id, r->name, r->path, r->date_time, r->platform,
			       r->cpu, r->build, r->verdict, r->claims };
	int rc, at = 1;

	if (!st)
		return -1;
	for (size_t i = 0; i < sizeof text / sizeof *text; i++)
		bind_text(st, at++, text[i]);
	sqlite3_bind_int64(st, at++, r->memory.slots);
	sqlite3_bind_int64(st, at++, r->memory.installed);
	sqlite3_bind_int64(st, at++, (sqlite3_int64)r->memory.bytes);
	bind_text(st, at++, r->memory.sizes);
	bind_text(st, at++, r->memory.speeds);
	sqlite3_bind_int64(st, at++, (sqlite3_int64)f->nrows);
	sqlite3_bind_int64(st, at++, f->skipped_rows);
	bind_text(st, at, f->system_json);
	rc = step(d, st, "cannot add the run", why, size);
	sqlite3_finalize(st);
	if (rc)
		return -1;
	if (!sqlite3_changes(d->db))
		return 0;
	*id = sqlite3_last_insert_rowid(d->db);
	return 1;
}

/* The run's card figures. */
static int add_figures(struct fleet_db *d, const struct fleet_run *r, sqlite3_int64 id,
		       char *why, size_t size)
{
	sqlite3_stmt *st = prepare(d, "INSERT INTO figures VALUES (?,?,?)", why, size);
	int rc = st ? 0 : -1;

	for (size_t k = 0; st && !rc && k < r->nfig; k++) {
		sqlite3_bind_int64(st, 1, id);
		bind_text(st, 2, r->fig[k].name);
		bind_real(st, 3, r->fig[k].value);
		rc = step(d, st, "cannot add a figure", why, size);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The levels the analysis read from the run's latency and tlb rows. */
static int add_levels(struct fleet_db *d, const struct run_folder *f, sqlite3_int64 id,
		      char *why, size_t size)
{
	sqlite3_stmt *st = prepare(d, "INSERT INTO levels VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
				   why, size);
	const struct hierarchy *h = &f->analysis->h;
	int rc = st ? 0 : -1;

	for (size_t i = 0; st && !rc && i < h->nlevels; i++) {
		const struct level *l = &h->level[i];
		int top = l->kind == LEVEL_TOP;

		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
		bind_text(st, 3, l->name);
		bind_text(st, 4, level_kind_name(l->kind));
		sqlite3_bind_int64(st, 5, (sqlite3_int64)(1ull << l->page_shift));
		sqlite3_bind_int64(st, 6, (sqlite3_int64)l->size_bytes);
		if (l->kind == LEVEL_TLB)
			sqlite3_bind_int64(st, 7, (sqlite3_int64)l->entries);
		bind_real(st, 8, l->ns);
		bind_real(st, 9, l->cycles > 0 ? l->cycles : NAN);
		/* The first level has nothing below it to rise over. */
		bind_real(st, 10, i ? l->increase_ns : NAN);
		bind_real(st, 11, i && l->cycles > 0 ? l->increase_cycles : NAN);
		bind_text(st, 12, top ? "" : level_method_name(l->method));
		if (!top) {
			sqlite3_bind_int64(st, 13, (sqlite3_int64)l->range_lo);
			sqlite3_bind_int64(st, 14, (sqlite3_int64)l->range_hi);
		}
		sqlite3_bind_int64(st, 15, l->smeared);
		rc = step(d, st, "cannot add a level", why, size);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Binds one results.csv field as its column's SQL type; "" (an empty
   field: a count not given, a size of 0) and a real that is not finite
   are NULL. */
static void bind_column(sqlite3_stmt *st, int at, const struct result_column *col,
			const char *text)
{
	if (!text[0]) {
		sqlite3_bind_null(st, at);
	} else if (col->form == COLUMN_TEXT || col->form == COLUMN_TEXT_ID) {
		sqlite3_bind_text(st, at, text, -1, SQLITE_TRANSIENT);
	} else if (col->form == COLUMN_REAL || col->form == COLUMN_OPTIONAL_REAL ||
		   col->form == COLUMN_PERCENT) {
		bind_real(st, at, strtod(text, NULL));
	} else {
		sqlite3_bind_int64(st, at, (sqlite3_int64)strtoull(text, NULL, 10));
	}
}

/* results_csv_read's callback: one row into the rows table. */
static void add_row(const struct result_row *row, void *ctx)
{
	struct row_sink *s = ctx;
	char buf[64];

	if (s->failed)
		return;
	sqlite3_bind_int64(s->insert, 1, s->run_id);
	for (unsigned c = 0; c < result_column_count; c++)
		bind_column(s->insert, (int)c + 2, &result_columns[c],
			    result_column_format(&result_columns[c], row, buf, sizeof buf));
	s->failed = sqlite3_step(s->insert) != SQLITE_DONE;
	sqlite3_reset(s->insert);
	sqlite3_clear_bindings(s->insert);
}

/* Every row of the run's results.csv, read again by run_folder.c (the run
   folder keeps only the columns compare needs). */
static int add_rows(struct fleet_db *d, const struct fleet_run *r, sqlite3_int64 id,
		    char *why, size_t size)
{
	struct row_sink sink = { NULL, id, 0 };
	struct csv_summary sum;
	char sql[4096];
	int rc;

	rows_sql(sql, sizeof sql, 1);
	sink.insert = prepare(d, sql, why, size);
	if (!sink.insert)
		return -1;
	rc = run_folder_each_row(r->path, add_row, &sink, &sum, why, size);
	if (!rc && sink.failed)
		rc = db_error(d, "cannot add a results row", why, size);
	sqlite3_finalize(sink.insert);
	return rc;
}

/* ---- Public Functions ------------------------------------------------- */

struct fleet_db *fleet_db_open(const char *path, char *why, size_t size)
{
	struct fleet_db *d = desk_must(calloc(1, sizeof *d));
	struct stat st;

	d->path = path;
	/* SQLite would make its journal beside the name (/dev/null-journal):
	   anything but a regular file is refused before it is touched. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(why, size, "%s: not a regular file (a folder, a device, a FIFO): the "
			 "database must be one, or a name not yet there", path);
		free(d);
		return NULL;
	}
	if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		db_error(d, "cannot be opened", why, size);
	} else if (sqlite3_busy_timeout(d->db, BUSY_WAIT_MS) == SQLITE_OK &&
		   !exec(d, "PRAGMA foreign_keys = ON", "cannot be set up", why, size) &&
		   !check_schema(d, why, size) && !create_tables(d, why, size)) {
		return d;
	}
	sqlite3_close(d->db);
	free(d);
	return NULL;
}

int fleet_db_add(struct fleet_db *d, const struct fleet_run *run,
		 const struct run_folder *folder, char *why, size_t size)
{
	sqlite3_int64 id = 0;
	int added;

	if (exec(d, "BEGIN", "cannot begin a transaction", why, size))
		return -1;
	added = add_machine(d, run, why, size) ? -1 : add_run(d, run, folder, &id, why, size);
	if (added == 1 && (add_figures(d, run, id, why, size) ||
			   add_levels(d, folder, id, why, size) || add_rows(d, run, id, why, size)))
		added = -1;
	/* A run half written is worse than none: all of it, or nothing. */
	if (added < 0) {
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return exec(d, "COMMIT", "cannot commit the run", why, size) ? -1 : added;
}

int fleet_db_close(struct fleet_db *d, char *why, size_t size)
{
	int rc = sqlite3_close(d->db) == SQLITE_OK ? 0 : db_error(d, "cannot be closed", why, size);

	free(d);
	return rc;
}
