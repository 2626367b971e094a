/* Result files sent over the network as they are closed, and again at
 * the end (upload.url; docs/CONFIG.md, docs/OUTPUT.md "Upload").
 *
 * Each file goes to URL/<machine-id>/<run>/<file> with HTTP PUT, which a
 * stock WebDAV server takes (nginx's dav module, Apache mod_dav); the
 * platform sends it (plat_upload_*). A failed send is tried again a few
 * times, said by file, and never stops the run: the file stays on the
 * volume, when there is one.
 */
#ifndef MEMPROBE_UPLOAD_H
#define MEMPROBE_UPLOAD_H

struct config;

/* Tries per send (the first included); after a file failed them all, the
   next files get one try each until a send gets through again, so a
   server that is gone costs one timeout per file, not three. */
#define UPLOAD_TRIES 3
#define UPLOAD_FILES_MAX 48

/* At the run's start, once the run folder is made: says on the console and
   in the report where the files go, or plainly why they cannot. */
void upload_start(const struct config *c);

/* A result file of the run folder was closed (the platform calls this). */
void upload_file_closed(const char *name);

/* After the last file is closed: every file sent again, and the outcome
   by file on the console. */
void upload_finish(void);

/* 1 when a signal asked the run to stop that did not stop its probes (it
   came after the last one, during the closing and the upload, or while a
   file was being sent mid-run): the upload then ends at once, and what
   was not sent is said. A signal that stopped the probes does not stop
   the upload of the files it leaves: a second signal ends the process. */
int upload_cut_short(void);
/* The run driver's word that a signal stopped the probes (run/run.c):
   from then on that signal does not cut the upload short. */
void upload_probes_stopped(void);

/* 1 while uploads are on (upload_start accepted the URL). */
int upload_active(void);

/* 1 when upload_start accepted the URL and every file sent so far (after
   upload_finish: every file) reached the server; 0 otherwise. A run that
   keeps its files nowhere else (bare metal with no volume) has lost its
   results when this is 0, and says so in its verdict. */
int upload_delivered(void);

#endif
