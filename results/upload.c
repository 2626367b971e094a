/* Result files over the network (see upload.h). */

#include "results/upload.h"
#include "lib/fmt.h"
#include "lib/smbios.h"
#include "core/config.h"
#include "core/platform.h"
#include "results/results.h"
#include "core/identity.h"
#include "lib/url.h"

/* ---- Private Data ----------------------------------------------------- */

struct sent {
	char name[64];
	int ok;                   /* the last send got through */
	int gone;                 /* no longer in the run folder: not sent again */
	unsigned tries;           /* of the last send */
	char why[160];            /* of the last failure */
};

static int active;
static int started;             /* upload_start accepted the URL this run */
static char base[CONFIG_URL_MAX + 128];   /* URL/<id>/<run>/ */
static struct sent files[UPLOAD_FILES_MAX];
static unsigned nfiles, dropped;
static int server_gone;         /* the last send failed every try */
static int probes_stopped;      /* upload_probes_stopped was called this run */

/* ---- Private Functions ------------------------------------------------ */

static struct sent *file_entry(const char *name)
{
	for (unsigned i = 0; i < nfiles; i++)
		if (mp_strcmp(files[i].name, name) == 0)
			return &files[i];
	if (nfiles >= UPLOAD_FILES_MAX || mp_strlen(name) >= sizeof files[0].name) {
		dropped++;
		return 0;
	}
	mp_strlcpy(files[nfiles].name, name, sizeof files[nfiles].name);
	return &files[nfiles++];
}

static void send(struct sent *f)
{
	char url[sizeof base + 64];
	unsigned tries = server_gone ? 1 : UPLOAD_TRIES;

	mp_snprintf(url, sizeof url, "%s%s", base, f->name);
	if (f->gone)
		return;
	/* A file sent whole before the signal stays sent. */
	if (upload_cut_short()) {
		if (!f->ok)
			mp_snprintf(f->why, sizeof f->why, "not sent: %s asked the run to stop "
				    "during the upload", plat_stop_signal());
		f->tries = f->ok ? f->tries : 0;
		return;
	}
	f->ok = 0;
	for (f->tries = 1; f->tries <= tries; f->tries++) {
		int rc = plat_upload_put(url, f->name, f->why, sizeof f->why);
		if (rc == 0) {
			f->ok = 1;
			f->why[0] = '\0';
			server_gone = 0;
			return;
		}
		if (rc > 0) {
			f->gone = 1;
			return;
		}
		if (upload_cut_short()) {
			server_gone = 1;
			return;
		}
	}
	f->tries = tries;
	server_gone = 1;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	mp_vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	report_console(line);
}

/* upload.url as a place to send files to: the configuration takes an
   http:// or a tftp:// URL (tftp:// is a netboot's), but neither platform
   writes over TFTP, so anything but http:// is refused here, once for
   both: 0, or -1 with why. */
static int url_takes_put(const char *url, char *why, size_t why_size)
{
	struct url u;
	char text[160];

	if (url_parse(url, &u, text, sizeof text) != 0) {
		mp_snprintf(why, why_size, "upload.url %s: %s", url, text);
		return -1;
	}
	if (mp_strcmp(u.scheme, "http") != 0) {
		mp_snprintf(why, why_size, "upload.url %s: memprobe sends with HTTP PUT only "
			    "(tftp:// is for netbooting, not for results)", url);
		return -1;
	}
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

void upload_start(const struct config *c)
{
	char why[200], id[64], run[64];

	active = started = 0;
	probes_stopped = 0;
	nfiles = dropped = 0;
	server_gone = 0;
	if (!c->upload_url[0])
		return;
	if (url_takes_put(c->upload_url, why, sizeof why) != 0 ||
	    plat_upload_open(c->upload_url, why, sizeof why) != 0) {
		report_printf("upload: NOT AVAILABLE: %s; the results stay on the volume (if any) "
			      "and the console\n", why);
		return;
	}
	smbios_machine_id(identity_smbios(), identity_mac(), id, sizeof id);
	plat_upload_run_name(run, sizeof run);
	mp_snprintf(base, sizeof base, "%s%s%s/%s/", c->upload_url,
		    c->upload_url[mp_strlen(c->upload_url) - 1] == '/' ? "" : "/", id, run);
	active = started = 1;
	report_printf("upload: each result file to %s<file> (HTTP PUT) as it is closed, and "
		      "again at the end\n", base);
}

int upload_cut_short(void)
{
	return plat_stop_signal() && !probes_stopped;
}

void upload_probes_stopped(void)
{
	probes_stopped = 1;
}

int upload_active(void)
{
	return active;
}

int upload_delivered(void)
{
	if (!started || dropped)
		return 0;
	for (unsigned i = 0; i < nfiles; i++)
		if (!files[i].ok && !files[i].gone)
			return 0;
	return 1;
}

void upload_file_closed(const char *name)
{
	struct sent *f;

	if (!active || !name || !name[0])
		return;
	f = file_entry(name);
	if (!f)
		return;
	send(f);
	if (!f->ok && !f->gone && !f->tries)
		say("upload: %s: NOT SENT: %s (kept in the run folder, if any)\n", f->name, f->why);
	else if (!f->ok && !f->gone)
		say("upload: %s: not sent after %u tr%s: %s (kept in the run folder, if any; "
		    "tried again at the end)\n", f->name, f->tries, f->tries == 1 ? "y" : "ies",
		    f->why);
}

void upload_finish(void)
{
	unsigned ok = 0, gone = 0;

	if (!active)
		return;
	for (unsigned i = 0; i < nfiles; i++)
		send(&files[i]);
	for (unsigned i = 0; i < nfiles; i++) {
		if (files[i].gone) {
			continue;
		} else if (files[i].ok) {
			ok++;
			say("upload: %s: sent\n", files[i].name);
		} else if (!files[i].tries) {
			say("upload: %s: NOT SENT: %s (kept in the run folder, if any)\n",
			    files[i].name, files[i].why);
		} else {
			say("upload: %s: FAILED after %u tr%s: %s (kept in the run folder, if any)\n",
			    files[i].name, files[i].tries, files[i].tries == 1 ? "y" : "ies",
			    files[i].why);
		}
	}
	if (dropped)
		say("upload: %u more files were not sent (more than %d, or names too long)\n",
		    dropped, UPLOAD_FILES_MAX);
	for (unsigned i = 0; i < nfiles; i++)
		gone += files[i].gone;
	say("upload: %u of %u files sent to %s%s\n", ok, nfiles - gone + dropped, base,
	    ok == nfiles - gone && !dropped ? "" : "; the upload FAILED for the rest");
	active = 0;
}
