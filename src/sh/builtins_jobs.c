/*
 * builtins_jobs.c - background jobs and signals: the job table, wait, jobs,
 * kill, trap, fg/bg (no job control: they report it), disown.
 *
 * The job table follows bash's (jobs.c) without stopped jobs:
 *  - A job keeps the text bash would show, one string per pipeline stage
 *    (print.c, capped at SH_JOB_TEXT_MAX), a fake pid per stage ($! is the
 *    last, `jobs -p` the first) and the directory it started in.
 *  - %+ and %- are recomputed as bash does: when a job starts (the newest
 *    running job becomes %+) and when a marked job leaves the table.
 *  - A job that ended stays in the table until it is reported: sh_jobs_notify
 *    runs where bash's notify_and_cleanup runs - before each command line is
 *    read and after each command bash would run in a child (a table command,
 *    a subshell, a pipeline). A non-interactive shell reports only jobs killed
 *    by a signal other than INT, TERM or PIPE, on stderr; an interactive one
 *    reports every ended job ("[1]+  Done    cmd"). `jobs` prints an ended
 *    job once, then it goes too. A removed job's status stays known to
 *    `wait PID` (a ring of SH_BGSTATUS_MAX, bash's bgpids).
 *  - Process substitutions and disowned jobs are hidden entries: waited for
 *    at the end of the call, never numbered or listed.
 *
 * Signals never reach the host: `kill` marks the target shell (or the task of a
 * job, whose first shell to poll takes it), and the target acts on it at its
 * next poll - running its trap, or ending with status 128+N. A blocked target
 * is woken so it notices. `kill %N` also marks the job's pipeline stages, which
 * run on tasks of their own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sh/builtins.h"
#include "sh/expand.h"
#include "sh/sched.h"
#include "sh/vars.h"

static const char *const signames[] = {
    "EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
    "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
    "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"};
#define NSIGNAMES ((int)(sizeof signames / sizeof signames[0]))

/* Signal number for a name/number; -1 if unknown. Pseudo-signals DEBUG, ERR,
 * RETURN map to their trap slots when `traps` is set. */
static int sig_number(const char *s, bool traps) {
  if (*s >= '0' && *s <= '9') {
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || n < 0 || n >= SH_NSIG) return -1;
    return (int)n;
  }
  char up[32];
  size_t n = strlen(s);
  if (n >= sizeof up) return -1;
  for (size_t i = 0; i <= n; i++) up[i] = (char)((s[i] >= 'a' && s[i] <= 'z') ? s[i] - 32 : s[i]);
  const char *name = up;
  if (!strncmp(name, "SIG", 3)) name += 3;
  if (traps) {
    if (!strcmp(name, "DEBUG")) return SH_TRAP_DEBUG;
    if (!strcmp(name, "ERR")) return SH_TRAP_ERR;
    if (!strcmp(name, "RETURN")) return SH_TRAP_RETURN;
  }
  for (int i = 0; i < NSIGNAMES; i++)
    if (!strcmp(name, signames[i])) return i;
  /* the real-time signals: RTMIN, RTMIN+1..15 (34..49), RTMAX-14..1, RTMAX (50..64) */
  if (!strncmp(name, "RTMIN", 5) || !strncmp(name, "RTMAX", 5)) {
    bool min = name[4] == 'N';
    const char *r = name + 5;
    long k = 0;
    if (*r) {
      char *end;
      if ((min && *r != '+') || (!min && *r != '-') || !r[1]) return -1;
      k = strtol(r + 1, &end, 10);
      if (*end || k < 0 || k > 30) return -1;
    }
    int num = min ? 34 + (int)k : 64 - (int)k;
    return num >= 34 && num < SH_NSIG ? num : -1;
  }
  return -1;
}

/* The name of signal number sig without SIG ("INT", "RTMIN+3"), or NULL for
 * the numbers that have none (0, 32, 33). buf holds a real-time name. */
static const char *signal_name(int sig, char *buf, size_t bs) {
  if (sig > 0 && sig < NSIGNAMES) return signames[sig];
  if (sig < 34 || sig >= SH_NSIG) return NULL;
  if (sig == 34) return "RTMIN";
  if (sig == 64) return "RTMAX";
  if (sig < 50) snprintf(buf, bs, "RTMIN+%d", sig - 34);
  else snprintf(buf, bs, "RTMAX-%d", 64 - sig);
  return buf;
}

static const char *sig_name(int sig) {
  static _Thread_local char rt[16];
  if (sig == SH_TRAP_DEBUG) return "DEBUG";
  if (sig == SH_TRAP_ERR) return "ERR";
  if (sig == SH_TRAP_RETURN) return "RETURN";
  if (sig == 0) return "EXIT";
  const char *nm = signal_name(sig, rt, sizeof rt);
  return nm ? nm : "?";
}

/* ---- the job table ------------------------------------------------------------------------ */

/* A hidden entry (process substitution, disowned job) is waited for at the
 * end but is not a job: no number, never listed. */
static bool job_hidden(const sh_job *j) { return !j->texts; }

static bool job_dead(const sh_job *j) {
  if (j->done) return true;
  for (int i = 0; i < j->ntasks; i++)
    if (j->tasks[i]->state != SH_TASK_DONE) return false;
  return true;
}

/* Exit status and terminating signal of a finished job (its last task). */
static int job_exit_status(const sh_job *j) {
  if (j->done) return j->status;
  return j->ntasks ? j->tasks[j->ntasks - 1]->status : 0;
}

static int job_term_sig(const sh_job *j) { return j->ntasks ? j->tasks[j->ntasks - 1]->term_sig : 0; }

/* A listed job of this shell (not hidden): the ones numbering and marks see. */
static bool job_listed(const sh_job *j) { return !job_hidden(j); }

static int job_index(const sh_shell *sh, int id) {
  if (id <= 0) return -1;
  for (int i = 0; i < sh->njobs; i++)
    if (sh->jobs[i]->id == id && job_listed(sh->jobs[i])) return i;
  return -1;
}

/* The newest running job with an id below `below` (0: any), or 0. */
static int newest_running(const sh_shell *sh, int below) {
  int best = 0;
  for (int i = 0; i < sh->njobs; i++) {
    const sh_job *j = sh->jobs[i];
    if (!job_listed(j) || job_dead(j)) continue;
    if (below && j->id >= below) continue;
    if (j->id > best) best = j->id;
  }
  return best;
}

/* bash's set_current_job/reset_current without stopped jobs: %+ is the newest
 * running job, %- the next older running one (or %+ itself). Marks change only
 * when a job starts or a marked job leaves the table. */
static void set_current(sh_shell *sh, int id) {
  if (sh->job_cur != id) {
    sh->job_prev = sh->job_cur;
    sh->job_cur = id;
  }
  int k = job_index(sh, sh->job_cur);
  int cand = k >= 0 && !job_dead(sh->jobs[k]) ? newest_running(sh, sh->job_cur) : newest_running(sh, 0);
  sh->job_prev = cand ? cand : sh->job_cur;
}

static void reset_current(sh_shell *sh) {
  int cand = newest_running(sh, 0);
  if (cand) set_current(sh, cand);
  else sh->job_cur = sh->job_prev = 0;
}

static sh_job *job_new(sh_shell *sh, sh_task **tasks, int ntasks) {
  sh_job *j = sh_xcalloc(1, sizeof *j);
  j->tasks = sh_xcalloc((size_t)ntasks + 1, sizeof *j->tasks);
  for (int i = 0; i < ntasks; i++) {
    j->tasks[i] = tasks[i];
    tasks[i]->refs++;
  }
  j->ntasks = ntasks;
  j->pid = ntasks ? tasks[ntasks - 1]->pid : 0;
  j->started = time(NULL);
  sh->jobs = sh_xrealloc(sh->jobs, (size_t)(sh->njobs + 1) * sizeof *sh->jobs);
  sh->jobs[sh->njobs++] = j;
  return j;
}

int sh_job_add(sh_shell *sh, sh_task **tasks, int ntasks, const char *text) {
  sh_job *j = job_new(sh, tasks, ntasks);
  if (text) {
    j->texts = sh_xcalloc(2, sizeof *j->texts);
    j->texts[0] = sh_xstrdup(text);
    j->pids = sh_xcalloc(1, sizeof *j->pids);
    j->pids[0] = j->pid;
    j->ntexts = 1;
  }
  return j->id;
}

static void job_free(sh_job *j) {
  for (int i = 0; i < j->ntasks; i++) sh_task_unref(j->tasks[i]);
  free(j->tasks);
  for (int i = 0; i < j->ntexts; i++) free(j->texts[i]);
  free(j->texts);
  free(j->pids);
  free(j->wd);
  free(j);
}

static void cleanup_dead(sh_shell *sh);

int64_t sh_job_start(sh_shell *sh, sh_task *t, sh_node *n) {
  cleanup_dead(sh); /* bash frees the slots of reported jobs first */
  int maxid = 0;
  for (int i = 0; i < sh->njobs; i++)
    if (job_listed(sh->jobs[i]) && sh->jobs[i]->id > maxid) maxid = sh->jobs[i]->id;
  sh_job *j = job_new(sh, &t, 1);
  j->id = maxid + 1;
  j->texts = sh_job_texts(sh, n, SH_JOB_TEXT_MAX, &j->ntexts);
  /* a pipeline's later stages get pids of their own; $! is the last one */
  j->pids = sh_xcalloc((size_t)j->ntexts, sizeof *j->pids);
  j->pids[0] = t->pid;
  for (int i = 1; i < j->ntexts; i++) j->pids[i] = ++sh->sess->next_pid;
  j->pid = j->pids[j->ntexts - 1];
  j->wd = sh_xstrdup(sh->cwd);
  reset_current(sh);
  if (sh->interactive) {
    char line[64];
    snprintf(line, sizeof line, "[%d] %" PRId64 "\n", j->id, j->pid);
    sh_write_str(sh, 2, line);
  }
  return j->pid;
}

/* A wait for t that the call's limit ended, t still running (jobs outlive
 * their call only: else a wait ends when t does, or at a deadlock). */
static bool wait_cut_short(const sh_shell *sh, sh_task *t) {
  return sh->sess->jobs_outlive && sh->sess->limit_hit != SH_LIMIT_NONE &&
         t->state != SH_TASK_DONE;
}

static int job_wait(sh_shell *sh, sh_job *j) {
  int st = 0;
  for (int i = 0; i < j->ntasks; i++) {
    st = sh_task_wait(sh->task, j->tasks[i]);
    /* the call's deadline or cancel ended the wait, not the job: it runs on
     * (a job that outlives its call, session.c) */
    if (wait_cut_short(sh, j->tasks[i])) return st;
  }
  j->done = true;
  j->status = st;
  return st;
}

/* Remembers the status of a job leaving the table, for `wait PID`. */
static void save_status(sh_shell *sh, int64_t pid, int status) {
  if (!sh->bgstatus) sh->bgstatus = sh_xcalloc(SH_BGSTATUS_MAX, sizeof *sh->bgstatus);
  sh->bgstatus[sh->nbgstatus % SH_BGSTATUS_MAX] = (sh_bgstatus){pid, status};
  sh->nbgstatus = (sh->nbgstatus + 1) % (2 * SH_BGSTATUS_MAX);
}

static bool saved_status(const sh_shell *sh, int64_t pid, int *status) {
  if (!sh->bgstatus) return false;
  for (int i = 0; i < SH_BGSTATUS_MAX; i++)
    if (sh->bgstatus[i].pid == pid && pid) {
      *status = sh->bgstatus[i].status;
      return true;
    }
  return false;
}

/* Takes job idx out of the table (waiting for its tasks, which have ended or
 * end now); its status stays known to `wait PID`. */
static void job_remove(sh_shell *sh, int idx) {
  sh_job *j = sh->jobs[idx];
  if (!j->foreign) {
    int st = job_wait(sh, j);
    if (job_listed(j)) save_status(sh, j->pid, st);
  }
  bool marked = job_listed(j) && (j->id == sh->job_cur || j->id == sh->job_prev);
  job_free(j);
  memmove(sh->jobs + idx, sh->jobs + idx + 1, (size_t)(sh->njobs - idx - 1) * sizeof *sh->jobs);
  sh->njobs--;
  if (marked) reset_current(sh);
}

/* Removes the jobs that ended and were reported (bash's cleanup_dead_jobs),
 * and hidden entries that ended. More than SH_JOBS_DEAD_MAX ended jobs that
 * nothing reported yet (a loop that never reaches a report point) lose the
 * oldest ones silently, as bash keeps at most CHILD_MAX of them. */
static void cleanup_dead(sh_shell *sh) {
  int unreported = 0;
  for (int k = sh->njobs - 1; k >= 0; k--) {
    sh_job *j = sh->jobs[k];
    if (!job_listed(j) || j->foreign || j->notified || !job_dead(j)) continue;
    if (++unreported > SH_JOBS_DEAD_MAX) j->notified = true;
  }
  for (int k = 0; k < sh->njobs;) {
    sh_job *j = sh->jobs[k];
    if (!j->foreign && job_dead(j) && (!job_listed(j) || j->notified)) job_remove(sh, k);
    else k++;
  }
}

int sh_wait_all(sh_shell *sh) {
  int st = 0;
  if (sh->interactive) {
    /* the end of an interactive line: its jobs are waited for, and reported
     * as bash reports them before the next prompt */
    for (int k = 0; k < sh->njobs; k++)
      if (!sh->jobs[k]->foreign && job_listed(sh->jobs[k])) job_wait(sh, sh->jobs[k]);
    sh_jobs_notify(sh, 0);
  }
  for (int k = 0; k < sh->njobs;) {
    if (sh->jobs[k]->foreign) {
      k++;
      continue;
    }
    st = job_wait(sh, sh->jobs[k]);
    if (!job_dead(sh->jobs[k])) return st; /* cut short by the call's limit: they run on */
    job_remove(sh, k);
  }
  return st;
}

/* A subshell lists its parent's jobs (`jobs | wc -l`) but cannot wait for them. */
void sh_jobs_inherit(sh_shell *sh, const sh_shell *p) {
  for (int i = 0; i < p->njobs; i++) {
    const sh_job *pj = p->jobs[i];
    if (!job_listed(pj)) continue;
    sh_job *j = job_new(sh, pj->tasks, pj->ntasks);
    j->id = pj->id;
    j->pid = pj->pid;
    j->texts = sh_xcalloc((size_t)pj->ntexts + 1, sizeof *j->texts);
    j->pids = sh_xcalloc((size_t)pj->ntexts, sizeof *j->pids);
    for (int k = 0; k < pj->ntexts; k++) {
      j->texts[k] = sh_xstrdup(pj->texts[k]);
      j->pids[k] = pj->pids[k];
    }
    j->ntexts = pj->ntexts;
    j->wd = pj->wd ? sh_xstrdup(pj->wd) : NULL;
    j->done = pj->done;
    j->status = pj->status;
    j->notified = pj->notified;
    j->foreign = true;
    j->started = pj->started;
  }
  sh->job_cur = p->job_cur;
  sh->job_prev = p->job_prev;
}

/* ---- ps (cmd_io.procs) -------------------------------------------------------------------- */

static void proc_set(cmd_proc *p, int64_t pid, int64_t ppid, int64_t start, const char *stat,
                     const char *comm, const char *args, size_t argslen) {
  p->pid = pid;
  p->ppid = ppid;
  p->start = start;
  size_t n = strnlen(stat, sizeof p->stat - 1);
  memcpy(p->stat, stat, n);
  p->stat[n] = 0;
  n = strnlen(comm, sizeof p->comm - 1);
  memcpy(p->comm, comm, n);
  p->comm[n] = 0;
  if (argslen >= sizeof p->args) argslen = sizeof p->args - 1;
  memcpy(p->args, args, argslen);
  p->args[argslen] = 0;
}

static bool assignment_word(const char *w, size_t n) {
  size_t i = 0;
  while (i < n && (w[i] == '_' || (w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z') ||
                   (i && w[i] >= '0' && w[i] <= '9')))
    i++;
  return i && i < n && w[i] == '=';
}

/* One stage of a job as ps shows it: a table command or a program named by
 * its path runs as that program (its text, past leading assignments, is its
 * command line); anything else - a builtin, a function, a compound command -
 * runs in a copy of the shell, which ps shows as bash. */
static void stage_proc(cmd_proc *p, int64_t pid, int64_t ppid, int64_t start, const char *text) {
  const char *w = text;
  for (;;) {
    while (*w == ' ' || *w == '\t') w++;
    size_t n = strcspn(w, " \t");
    if (!n || !assignment_word(w, n)) break;
    w += n;
  }
  size_t n = strcspn(w, " \t;&|<>()'\"`$");
  char name[256];
  bool program = n && n < sizeof name && (!w[n] || w[n] == ' ' || w[n] == '\t');
  if (program) {
    memcpy(name, w, n);
    name[n] = 0;
    program = strchr(name, '/') || cmd_find(name);
  }
  if (!program) {
    proc_set(p, pid, ppid, start, "S", "bash", "bash", 4);
    return;
  }
  const char *base = strrchr(name, '/');
  proc_set(p, pid, ppid, start, "S", base ? base + 1 : name, w, strlen(w));
}

int sh_jobs_procs(sh_shell *sh, cmd_proc *out, int max) {
  sh_session *s = sh->sess;
  int n = 0;
#define PROC_ADD(...)                                                                          \
  do {                                                                                         \
    if (n < max) proc_set(&out[n], __VA_ARGS__);                                               \
    n++;                                                                                       \
  } while (0)
  PROC_ADD(s->shell_pid, 1, s->start_epoch, "Ss", "bash", "bash", 4);
  for (int i = 0; i < sh->njobs; i++) {
    const sh_job *j = sh->jobs[i];
    if (!job_listed(j) || job_dead(j)) continue;
    int64_t ppid = j->foreign ? (sh->parent_pid ? sh->parent_pid : s->shell_pid) : sh->pid;
    for (int k = 0; k < j->ntexts; k++) {
      if (n < max) stage_proc(&out[n], j->pids[k], ppid, j->started, j->texts[k]);
      n++;
    }
  }
  /* In a subshell or a pipeline stage, bash's child would exec ps: ps is that
   * process. Else the shell forks it a new one. */
  if (sh->pid != s->shell_pid)
    PROC_ADD(sh->pid, sh->parent_pid ? sh->parent_pid : s->shell_pid, time(NULL), "R", "ps", "ps", 2);
  else
    PROC_ADD(++s->next_pid, sh->pid, time(NULL), "R", "ps", "ps", 2);
#undef PROC_ADD
  return n;
}

void sh_jobs_release(sh_shell *sh) {
  for (int i = 0; i < sh->njobs; i++) job_free(sh->jobs[i]);
  free(sh->jobs);
  sh->jobs = NULL;
  sh->njobs = 0;
  free(sh->bgstatus);
  sh->bgstatus = NULL;
  sh->nbgstatus = 0;
}

#define NO_JOB (-1)
#define DUP_JOB (-2)

/* Does job j match %name (a prefix of a stage's text) or %?name (a substring,
 * any case)? bash counts each matching stage, so one job can be ambiguous. */
static int name_matches(const sh_job *j, const char *name, bool substring) {
  int m = 0;
  size_t n = strlen(name);
  for (int i = 0; i < j->ntexts; i++)
    if (substring ? strcasestr(j->texts[i], name) != NULL : strncmp(j->texts[i], name, n) == 0) m++;
  return m;
}

/* A job spec (%N %% %+ % %- %name %?name; the % is optional for `jobs`) to an
 * index into sh->jobs; NO_JOB, or DUP_JOB after an "ambiguous" message. */
static int job_spec(sh_shell *sh, const char *spec, const char *cmd) {
  const char *w = spec[0] == '%' ? spec + 1 : spec;
  if (*w && strspn(w, "0123456789") == strlen(w)) {
    char *end;
    errno = 0;
    long id = strtol(w, &end, 10);
    if (*end || errno || id > INT32_MAX) return NO_JOB;
    return job_index(sh, (int)id);
  }
  switch (*w) {
  case 0:
  case '%':
  case '+': return job_index(sh, sh->job_cur);
  case '-': return job_index(sh, sh->job_prev);
  default: break;
  }
  bool substring = *w == '?';
  const char *name = substring ? w + 1 : w;
  int found = NO_JOB, matches = 0;
  for (int i = sh->njobs - 1; i >= 0; i--) {
    if (!job_listed(sh->jobs[i])) continue;
    int m = name_matches(sh->jobs[i], name, substring);
    if (m) found = i;
    matches += m;
  }
  if (matches > 1) {
    sh_error(sh, "%s: %s: ambiguous job spec", cmd, name);
    return DUP_JOB;
  }
  return found;
}

/* The job with a stage of this pid, or NO_JOB. */
static int job_by_pid(const sh_shell *sh, int64_t pid) {
  for (int i = 0; i < sh->njobs; i++) {
    const sh_job *j = sh->jobs[i];
    if (j->pid == pid) return i;
    for (int k = 0; k < j->ntexts; k++)
      if (j->pids[k] == pid) return i;
  }
  return NO_JOB;
}

/* ---- reporting ---------------------------------------------------------------------------- */

/* bash's description of a signal (strsignal). */
static const char *sig_description(int sig) {
  static const char *const d[] = {
      [1] = "Hangup", [2] = "Interrupt", [3] = "Quit", [4] = "Illegal instruction",
      [5] = "Trace/breakpoint trap", [6] = "Aborted", [7] = "Bus error",
      [8] = "Floating point exception", [9] = "Killed", [10] = "User defined signal 1",
      [11] = "Segmentation fault", [12] = "User defined signal 2", [13] = "Broken pipe",
      [14] = "Alarm clock", [15] = "Terminated", [16] = "Stack fault", [17] = "Child exited",
      [18] = "Continued", [19] = "Stopped (signal)", [20] = "Stopped", [21] = "Stopped (tty input)",
      [22] = "Stopped (tty output)", [23] = "Urgent I/O condition", [24] = "CPU time limit exceeded",
      [25] = "File size limit exceeded", [26] = "Virtual timer expired",
      [27] = "Profiling timer expired", [28] = "Window changed", [29] = "I/O possible",
      [30] = "Power failure", [31] = "Bad system call"};
  if (sig <= 0 || sig >= (int)(sizeof d / sizeof d[0])) return NULL;
  return d[sig];
}

/* "Running", "Done", "Exit 3", "Terminated"... */
static void job_state_text(const sh_job *j, char *buf, size_t n) {
  if (!job_dead(j)) {
    snprintf(buf, n, "Running");
    return;
  }
  int sig = job_term_sig(j);
  if (sig) {
    const char *d = sig_description(sig);
    if (d) snprintf(buf, n, "%s", d);
    else snprintf(buf, n, "Signal %d", sig);
    return;
  }
  int st = job_exit_status(j);
  if (st) snprintf(buf, n, "Exit %d", st);
  else snprintf(buf, n, "Done");
}

enum { JOB_STANDARD, JOB_LONG, JOB_NONINTERACTIVE };

/* One job as bash's pretty_print_job prints it: "[1]+  Running   cmd &", the long
 * form with pids and a line per pipeline stage, or (a note on stderr) the long
 * form without the "[1]+". Every stage shows the job's state. */
static void job_format(sh_shell *sh, sh_buf *b, const sh_job *j, int form) {
  if (form != JOB_NONINTERACTIVE) {
    char mark = j->id == sh->job_cur ? '+' : j->id == sh->job_prev ? '-' : ' ';
    sh_buf_addf(b, "[%d]%c ", j->id, mark);
  }
  bool lng = form != JOB_STANDARD;
  char state[64];
  job_state_text(j, state, sizeof state);
  for (int i = 0; i < j->ntexts; i++) {
    if (i) sh_buf_adds(b, lng ? "     " : " |");
    if (lng) sh_buf_addf(b, "%5" PRId64, j->pids[i]);
    sh_buf_addc(b, ' ');
    if (i == 0) sh_buf_addf(b, "%-24s", state);
    else if (lng) sh_buf_addf(b, "%22s| ", "");
    sh_buf_adds(b, j->texts[i]);
    if (i == j->ntexts - 1) {
      if (!job_dead(j)) sh_buf_adds(b, " &");
      if (j->wd && strcmp(j->wd, sh->cwd) != 0) {
        /* bash's polite_directory_format: $HOME/x as ~/x */
        const char *home = sh_var_get(sh, "HOME");
        size_t hl = home ? strlen(home) : 0;
        if (hl > 1 && strncmp(j->wd, home, hl) == 0 && (!j->wd[hl] || j->wd[hl] == '/'))
          sh_buf_addf(b, "  (wd: ~%s)", j->wd + hl);
        else
          sh_buf_addf(b, "  (wd: %s)", j->wd);
      }
    }
    if (lng || i == j->ntexts - 1) sh_buf_addc(b, '\n');
  }
}

/* bash's notify_and_cleanup, called where bash calls it - before each command
 * line is read and after each command bash would run in a child process. An
 * interactive shell reports every job that ended ("[1]+  Done   cmd"); a
 * non-interactive one reports only a job killed by a signal other than INT,
 * TERM or PIPE (one the shell does not trap), and drops the others silently.
 * Reported jobs leave the table. `line`: the line a report names (0: the
 * current one). */
void sh_jobs_notify(sh_shell *sh, int line) {
  for (int k = 0; k < sh->njobs; k++) {
    sh_job *j = sh->jobs[k];
    if (!job_listed(j) || j->foreign || j->notified || !job_dead(j)) continue;
    int sig = job_term_sig(j);
    j->notified = true; /* before printing: j is not touched after it */
    sh_buf b = {0};
    if (sh->interactive) {
      job_format(sh, &b, j, JOB_STANDARD);
      sh_write_fd(sh, 2, b.data, b.len);
    } else if (sig && sig != 2 && sig != 13 && sig != 15 && sig < SH_NSIG && !sh->traps.action[sig]) {
      job_format(sh, &b, j, JOB_NONINTERACTIVE);
      if (b.len) b.data[--b.len] = 0; /* sh_error adds the newline */
      int saved = sh->lineno;
      if (line > 0) sh->lineno = line;
      sh_error(sh, "%s", b.data);
      sh->lineno = saved;
    }
    sh_buf_free(&b);
  }
  cleanup_dead(sh);
}

/* Jobs not yet finished (the prompt's \j). */
int sh_jobs_running(sh_shell *sh) {
  int n = 0;
  for (int i = 0; i < sh->njobs; i++)
    if (job_listed(sh->jobs[i]) && !job_dead(sh->jobs[i])) n++;
  return n;
}

/* ---- wait, jobs, disown ---------------------------------------------------------------------- */

/* Waits for job k; the report and removal follow as after any wait. */
static int wait_job(sh_shell *sh, int k) {
  sh_job *j = sh->jobs[k];
  int st = job_wait(sh, j);
  if (!job_dead(j)) return st; /* the wait was cut short (sh->flow says why) */
  if (job_listed(j)) sh_jobs_notify(sh, 0);
  else job_remove(sh, k);
  return st;
}

/* wait -p VAR: the id of the job whose status wait returns */
static void wait_set_pvar(sh_shell *sh, const char *pvar, int64_t pid) {
  if (!pvar) return;
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRId64, pid);
  sh_var_set(sh, pvar, buf, 0);
}

static int wait_builtin(sh_shell *sh, int argc, char **argv) {
  bool any = false;
  const char *pvar = NULL;
  sh_bi_getopt g = SH_BI_GETOPT("wait", "nfp:");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    if (c == 'n') any = true;
    else if (c == 'p') {
      pvar = g.arg;
      if (!sh_is_name(pvar)) {
        sh_error(sh, "wait: `%s': not a valid identifier", pvar);
        return 1;
      }
      sh_var_unset(sh, pvar, false); /* set again only when a job's status is returned */
    }
  }
  if (c < 0) return 2;
  int i = g.i;
  bool all = i >= argc;
  if (all && !any) {
    /* every job; then no status is kept, not even older ones (bash) */
    for (;;) {
      int k = 0;
      while (k < sh->njobs && sh->jobs[k]->foreign) k++;
      if (k >= sh->njobs) break;
      int st = wait_job(sh, k);
      if (sh->sess->limit_hit != SH_LIMIT_NONE) return st;
    }
    free(sh->bgstatus);
    sh->bgstatus = NULL;
    sh->nbgstatus = 0;
    return 0;
  }
  /* the jobs named (pids of jobs: their tasks), in order */
  sh_task **sel = sh_xcalloc((size_t)(all ? sh->njobs : argc - i) + 1, sizeof *sel);
  int nsel = 0, st = 0;
  if (all) {
    for (int k = 0; k < sh->njobs; k++)
      if (!sh->jobs[k]->foreign && job_listed(sh->jobs[k]))
        sel[nsel++] = sh->jobs[k]->tasks[sh->jobs[k]->ntasks - 1];
  }
  for (; i < argc; i++) {
    const char *a = argv[i];
    int k;
    if (a[0] == '%') {
      k = job_spec(sh, a, "wait");
      if (k == DUP_JOB) {
        st = 127;
        continue;
      }
    } else {
      char *end;
      errno = 0;
      long long pid = strtoll(a, &end, 10);
      if (!*a || *end || errno) {
        sh_error(sh, "wait: `%s': not a pid or valid job spec", a);
        st = 1;
        continue;
      }
      k = job_by_pid(sh, pid);
      int saved;
      if (k < 0 && saved_status(sh, pid, &saved)) {
        if (!any) {
          st = saved;
          wait_set_pvar(sh, pvar, pid);
        }
        continue;
      }
    }
    if (k < 0 || sh->jobs[k]->foreign) {
      if (a[0] == '%') sh_error(sh, "wait: %s: no such job", a);
      else sh_error(sh, "wait: pid %s is not a child of this shell", a);
      st = 127;
      continue;
    }
    if (any) {
      sel[nsel++] = sh->jobs[k]->tasks[sh->jobs[k]->ntasks - 1];
      continue;
    }
    /* in order: each one's status; the last one counts */
    int64_t jpid = sh->jobs[k]->pid;
    st = wait_job(sh, k);
    if (sh->sess->limit_hit != SH_LIMIT_NONE) break;
    wait_set_pvar(sh, pvar, jpid);
  }
  if (!any) {
    free(sel);
    return st;
  }
  /* wait -n: the first of them to finish */
  if (!nsel) {
    free(sel);
    return 127;
  }
  int w = sh_task_wait_any(sh->task, sel, nsel);
  st = 127;
  if (w >= 0)
    for (int k = 0; k < sh->njobs; k++)
      if (sh->jobs[k]->tasks[sh->jobs[k]->ntasks - 1] == sel[w]) {
        int64_t jpid = sh->jobs[k]->pid;
        st = wait_job(sh, k);
        wait_set_pvar(sh, pvar, jpid);
        break;
      }
  free(sel);
  return st;
}

/* jobs -x: the command with each job spec replaced by the job's first pid. */
static int jobs_execute(sh_shell *sh, int argc, char **argv) {
  if (argc <= 0) return 0;
  char **av = sh_xcalloc((size_t)argc + 1, sizeof *av);
  for (int i = 0; i < argc; i++) {
    int k = argv[i][0] == '%' ? job_spec(sh, argv[i], "jobs") : NO_JOB;
    av[i] = k >= 0 ? sh_xasprintf("%" PRId64, sh->jobs[k]->pids[0]) : sh_xstrdup(argv[i]);
  }
  int st = sh_run_argv(sh, argc, av, false);
  for (int i = 0; i < argc; i++) free(av[i]);
  free(av);
  return st;
}

enum { LIST_ANY, LIST_RUNNING, LIST_STOPPED };
enum { FORM_STANDARD, FORM_LONG, FORM_PIDS, FORM_CHANGED };

static void list_job(sh_shell *sh, sh_job *j, int form) {
  if (form == FORM_PIDS) {
    sh_printf_fd(sh, 1, "%" PRId64 "\n", j->pids[0]);
    return;
  }
  if (form == FORM_CHANGED && j->notified) return;
  sh_buf b = {0};
  job_format(sh, &b, j, form == FORM_LONG ? JOB_LONG : JOB_STANDARD);
  j->notified = true; /* before the write: j is not touched after it */
  sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
}

static int jobs_builtin(sh_shell *sh, int argc, char **argv) {
  int form = FORM_STANDARD, state = LIST_ANY;
  bool execute = false;
  sh_bi_getopt g = SH_BI_GETOPT("jobs", "lpnrsx");
  int o = 0;
  /* -x runs the rest of the line: the options end with its word */
  while (!(execute && !g.next) && (o = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    switch (o) {
    case 'l': form = FORM_LONG; break;
    case 'p': form = FORM_PIDS; break;
    case 'n': form = FORM_CHANGED; break;
    case 'r': state = LIST_RUNNING; break;
    case 's': state = LIST_STOPPED; break;
    case 'x':
      if (form != FORM_STANDARD) {
        sh_error(sh, "jobs: no other options allowed with `-x'");
        return 1;
      }
      execute = true;
      break;
    }
  }
  if (o < 0) return 2;
  int i = g.i;
  if (execute) return jobs_execute(sh, argc - i, argv + i);
  if (i >= argc) {
    cleanup_dead(sh);
    for (int k = 0; k < sh->njobs; k++) {
      sh_job *j = sh->jobs[k];
      if (!job_listed(j)) continue;
      if (state == LIST_STOPPED || (state == LIST_RUNNING && job_dead(j))) continue;
      list_job(sh, j, form);
    }
    return 0;
  }
  int st = 0;
  for (; i < argc; i++) {
    int k = job_spec(sh, argv[i], "jobs");
    if (k < 0) {
      sh_error(sh, "jobs: %s: no such job", argv[i]);
      st = 1;
      continue;
    }
    list_job(sh, sh->jobs[k], form);
    cleanup_dead(sh);
  }
  return st;
}

int sh_bi_fg(sh_shell *sh, int argc, char **argv) {
  (void)argc;
  sh_error(sh, "%s: no job control", argv[0]);
  return 1;
}

/* Hides job k: it is still waited for at the end, but no longer a job. */
static void disown_job(sh_shell *sh, int k) {
  sh_job *j = sh->jobs[k];
  bool marked = j->id == sh->job_cur || j->id == sh->job_prev;
  for (int i = 0; i < j->ntexts; i++) free(j->texts[i]);
  free(j->texts);
  j->texts = NULL;
  j->ntexts = 0;
  j->id = 0;
  if (marked) reset_current(sh);
}

int sh_bi_disown(sh_shell *sh, int argc, char **argv) {
  bool on[3] = {0};
  int i = sh_bi_options(sh, "disown", argc, argv, "arh", on);
  if (i < 0) return 2;
  bool all = on[0], running = on[1], nohup = on[2];
  if (i >= argc && (all || running)) {
    /* -h only marks jobs (no SIGHUP reaches them here anyway) */
    for (int k = 0; k < sh->njobs && !nohup; k++)
      if (job_listed(sh->jobs[k]) && !sh->jobs[k]->foreign && (!running || !job_dead(sh->jobs[k])))
        disown_job(sh, k);
    return 0;
  }
  if (i >= argc) {
    int k = job_index(sh, sh->job_cur);
    if (k < 0) {
      sh_error(sh, "disown: current: no such job");
      return 1;
    }
    if (!nohup) disown_job(sh, k);
    return 0;
  }
  int st = 0;
  for (; i < argc; i++) {
    const char *a = argv[i];
    int k = NO_JOB;
    if (a[0] == '%') {
      k = job_spec(sh, a, "disown");
    } else {
      char *end;
      errno = 0;
      long long pid = strtoll(a, &end, 10);
      if (*a && !*end && !errno) k = job_by_pid(sh, pid);
    }
    if (k < 0 || !job_listed(sh->jobs[k])) {
      if (k != DUP_JOB) sh_error(sh, "disown: %s: no such job", a);
      st = 1;
      continue;
    }
    if (!nohup) disown_job(sh, k);
  }
  return st;
}

/* ---- signals ----------------------------------------------------------------------------------------- */

/* Acts on a signal delivered to this shell now: its trap, or termination. */
static void deliver_self(sh_shell *sh, int sig) {
  if (sig < 64 && (sh->sig_ignored >> sig) & 1) return;
  const char *a = sh->traps.action[sig];
  if (a && !*a) return; /* ignored */
  if (a) {
    sh_run_trap(sh, sig);
    return;
  }
  if (sig == 17 || sig == 18 || sig == 28 || sig == 23) return; /* CHLD CONT WINCH URG: ignored */
  sh->flow = SH_FLOW_EXIT;
  sh->fatal = 0;
  sh->exit_status = 128 + sig;
  sh->killed_by = sig;
}

/* Is shell x the shell with pid `root` or one copied from it (its pipeline
 * stages, subshells, jobs)? */
static bool descends_from(sh_session *s, const sh_shell *x, int64_t root) {
  for (int n = 0; x && n < 4096; n++) {
    if (x->pid == root) return true;
    if (!x->parent_pid) return false;
    x = sh_shell_by_pid(s, x->parent_pid);
  }
  return false;
}

/* kill %N: the job's task gets the signal (the first of its shells to poll acts
 * on it, see sh_handle_pending_signal), and so do the shells of the job that
 * run on tasks of their own, its pipeline stages (bash signals each process of
 * the job). A blocked task is woken. */
static void signal_job(sh_shell *sh, sh_job *j, int sig) {
  if (job_dead(j) || !j->ntasks) return;
  sh_task *jt = j->tasks[0];
  jt->pending_sig = sig;
  sh_task_wake(jt);
  for (sh_shell *x = sh->sess->live; x; x = x->live_next) {
    if (x == sh || !x->task || x->task == jt || !descends_from(sh->sess, x, jt->pid)) continue;
    x->pending_sig = sig;
    if (x->task != sh->task) sh_task_wake(x->task);
  }
}

int sh_jobs_signal_pid(sh_shell *sh, int64_t pid, int sig) {
  int k = job_by_pid(sh, pid);
  if (k < 0) return -1;
  signal_job(sh, sh->jobs[k], sig);
  return 0;
}

sh_task *sh_jobs_task_of(sh_shell *sh, int64_t pid) {
  int k = job_by_pid(sh, pid);
  if (k < 0 || !sh->jobs[k]->ntasks) return NULL;
  return sh->jobs[k]->tasks[sh->jobs[k]->ntasks - 1];
}

/* kill -l and trap -l: every signal as " N) SIGNAME", five to a line. */
static void print_signal_table(sh_shell *sh) {
  sh_buf b = {0};
  int col = 0;
  for (int k = 1; k < SH_NSIG; k++) {
    char rt[16];
    const char *n = signal_name(k, rt, sizeof rt);
    if (!n) continue;
    sh_buf_addf(&b, "%2d) SIG%s", k, n);
    sh_buf_addc(&b, ++col % 5 == 0 ? '\n' : '\t');
  }
  if (col % 5) sh_buf_addc(&b, '\n');
  sh_write_fd(sh, 1, b.data, b.len);
  sh_buf_free(&b);
}

int sh_bi_kill(sh_shell *sh, int argc, char **argv) {
  int sig = 15;
  int i = 1;
  if (i < argc && (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-L"))) {
    if (i + 1 < argc) {
      int st = 0;
      for (int k = i + 1; k < argc; k++) {
        char *end;
        long n = strtol(argv[k], &end, 10);
        if (*argv[k] && !*end) {
          if (n > 128) n -= 128;
          char rt[16];
          const char *nm = n >= 0 && n < SH_NSIG ? signal_name((int)n, rt, sizeof rt) : NULL;
          if (n == 0) nm = "EXIT";
          if (nm) sh_printf_fd(sh, 1, "%s\n", nm);
          else {
            sh_error(sh, "kill: %s: invalid signal specification", argv[k]);
            st = 1;
          }
        } else {
          int s = sig_number(argv[k], false);
          if (s < 0) {
            sh_error(sh, "kill: %s: invalid signal specification", argv[k]);
            st = 1;
            continue;
          }
          sh_printf_fd(sh, 1, "%d\n", s);
        }
      }
      return st;
    }
    print_signal_table(sh);
    return 0;
  }
  if (i < argc && (!strcmp(argv[i], "-s") || !strcmp(argv[i], "-n"))) {
    if (i + 1 >= argc) {
      sh_error(sh, "kill: %s: option requires an argument", argv[i]);
      return 2;
    }
    sig = sig_number(argv[i + 1], false);
    if (sig < 0) {
      sh_error(sh, "kill: %s: invalid signal specification", argv[i + 1]);
      return 1;
    }
    i += 2;
  } else if (i < argc && argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--")) {
    sig = sig_number(argv[i] + 1, false);
    if (sig < 0) {
      sh_error(sh, "kill: %s: invalid signal specification", argv[i] + 1);
      return 1;
    }
    i++;
  }
  if (i < argc && !strcmp(argv[i], "--")) i++;
  if (i >= argc) {
    sh_bi_usage(sh, "kill");
    return 2;
  }
  int st = 0;
  for (; i < argc; i++) {
    const char *t = argv[i];
    char *end;
    long long pid = strtoll(t, &end, 10);
    if (t[0] != '%' && *end) {
      sh_error(sh, "kill: %s: arguments must be process or job IDs", t);
      st = 1;
      continue;
    }
    if (t[0] != '%' && pid == sh->pid) {
      if (sig) deliver_self(sh, sig);
      continue;
    }
    int k = t[0] == '%' ? job_spec(sh, t, "kill") : job_by_pid(sh, pid);
    if (k == DUP_JOB) {
      st = 1;
      continue;
    }
    sh_shell *target = t[0] != '%' && k < 0 ? sh_shell_by_pid(sh->sess, pid) : NULL;
    if (target) {
      /* another shell (an enclosing one, a subshell): it acts on the signal
       * at its next poll */
      if (sig) {
        target->pending_sig = sig;
        if (target->task && target->task != sh->task) sh_task_wake(target->task);
      }
      continue;
    }
    if (k < 0) {
      if (t[0] == '%') sh_error(sh, "kill: %s: no such job", t);
      else sh_error(sh, "kill: (%s) - No such process", t);
      st = 1;
      continue;
    }
    if (sig) signal_job(sh, sh->jobs[k], sig);
  }
  return st;
}

/* Called from sh_poll via the task: handles a pending signal. */
void sh_handle_pending_signal(sh_shell *sh);
void sh_handle_pending_signal(sh_shell *sh) {
  if (sh->pending_sig) {
    int sig = sh->pending_sig;
    sh->pending_sig = 0;
    deliver_self(sh, sig);
  }
  if (!sh->task || !sh->task->pending_sig) return;
  int sig = sh->task->pending_sig;
  sh->task->pending_sig = 0;
  deliver_self(sh, sig);
  /* a job's signal reaches the first of its shells to poll, often a subshell
   * inside it; when that one dies of it, the shells around it get it too, so
   * the job ends as the one process it is in bash */
  if (sh->killed_by == sig && sh->task->sh && sh->task->sh != sh) sh->task->pending_sig = sig;
}

/* ---- trap ---------------------------------------------------------------------------------------------- */

/* bash's sh_single_quote: 'text' with ' as '\'' (newlines stay as they are). */
static char *single_quote(const char *s) {
  sh_buf b = {0};
  sh_buf_addc(&b, '\'');
  for (; *s; s++) {
    if (*s == '\'') sh_buf_adds(&b, "'\\''");
    else sh_buf_addc(&b, *s);
  }
  sh_buf_addc(&b, '\'');
  return sh_buf_steal(&b);
}

static void print_trap(sh_shell *sh, int sig) {
  const char *a = sh->traps.action[sig];
  if (!a) a = sh->shown_traps.action[sig];
  if (!a) return;
  char *q = single_quote(a);
  if (sig == 0 || sig >= SH_NSIG)
    sh_printf_fd(sh, 1, "trap -- %s %s\n", q, sig == 0 ? "EXIT" : sig_name(sig));
  else
    sh_printf_fd(sh, 1, "trap -- %s SIG%s\n", q, sig_name(sig));
  free(q);
}

/* ---- traps hidden from function bodies and sourced files ----------------------------------- */

/* the slots of sh_trap_hide.saved */
static const int hidden_slots[3] = {SH_TRAP_DEBUG, SH_TRAP_ERR, SH_TRAP_RETURN};

void sh_traps_hide(sh_shell *sh, sh_trap_hide *h, bool function, bool traced) {
  bool functrace = sh->opt[SH_OPT_FUNCTRACE] || traced;
  bool hide[3] = {
      !functrace,
      function && !sh->opt[SH_OPT_ERRTRACE],
      /* a function called from the DEBUG trap never sees RETURN */
      function && (!functrace || (sh->trap_active & 1)),
  };
  for (int k = 0; k < 3; k++) {
    h->saved[k] = NULL;
    if (!hide[k] || !sh->traps.action[hidden_slots[k]]) continue;
    h->saved[k] = sh->traps.action[hidden_slots[k]];
    sh->traps.action[hidden_slots[k]] = NULL;
  }
}

void sh_traps_unhide(sh_shell *sh, sh_trap_hide *h) {
  for (int k = 0; k < 3; k++) {
    if (!h->saved[k]) continue;
    if (!sh->traps.action[hidden_slots[k]]) sh->traps.action[hidden_slots[k]] = h->saved[k];
    else free(h->saved[k]);
    h->saved[k] = NULL;
  }
}

/* ---- foreground deaths by signal ------------------------------------------------------------ */

void sh_report_signal_death(sh_shell *sh, int sig, int64_t pid, const char *text) {
  /* bash (built without reporting SIGTERM and SIGPIPE), for a foreground
   * subshell: killed by a signal that this shell does not trap, "PID
   * DESCRIPTION COMMAND"; by TERM or a trapped signal, the description
   * alone; by INT or PIPE, nothing */
  if (sig <= 0 || sig == 2 || sig == 13) return;
  bool trapped = sig < SH_NSIG && sh->traps.action[sig];
  const char *desc = sig_description(sig);
  if (desc && sig != 15 && !trapped && text)
    sh_error(sh, "%5" PRId64 " %-24s%s", pid, desc, text);
  else
    sh_errorf_raw(sh, "%s\n", desc ? desc : "Unknown signal");
}

int sh_bi_trap(sh_shell *sh, int argc, char **argv) {
  bool on[2] = {false, false};
  int i = sh_bi_options(sh, "trap", argc, argv, "lp", on);
  if (i < 0) return 2;
  if (on[0]) {
    print_signal_table(sh);
    return 0;
  }
  bool print = on[1];
  if (i >= argc) {
    for (int s = 0; s < SH_NSIG + 3; s++) print_trap(sh, s);
    return 0;
  }
  const char *action = NULL;
  bool reset = false;
  if (!print) {
    /* a subshell's inherited trap list is forgotten at the first change */
    for (int k = 0; k < SH_NSIG + 4; k++) {
      free(sh->shown_traps.action[k]);
      sh->shown_traps.action[k] = NULL;
    }
    action = argv[i];
    reset = !strcmp(action, "-");
    /* bash: an unsigned number that is a signal first means every argument is
     * a signal to reset; a lone signal argument is reset too */
    bool digits = *action != 0;
    for (const char *d = action; *d; d++)
      if (*d < '0' || *d > '9') digits = false;
    if (digits && sig_number(action, true) >= 0) {
      reset = true;
    } else if (argc - i == 1 && !reset && sig_number(action, true) >= 0) {
      reset = true;
    } else {
      i++;
      if (i >= argc) {
        sh_bi_usage(sh, "trap");
        return 2;
      }
    }
  }
  int st = 0;
  for (; i < argc; i++) {
    int s = sig_number(argv[i], true);
    if (s < 0) {
      sh_error(sh, "trap: %s: invalid signal specification", argv[i]);
      st = 1;
      continue;
    }
    if (print) {
      print_trap(sh, s);
      continue;
    }
    if (s < 64 && (sh->sig_ignored >> s) & 1) continue; /* ignored at entry */
    free(sh->traps.action[s]);
    sh->traps.action[s] = reset ? NULL : sh_xstrdup(action);
  }
  return st;
}

/* wait and jobs show what detached jobs wrote since the call began (their
 * pending output, session.c) before they return: after `wait` the job's
 * output is there, as on a terminal. */
int sh_bi_wait(sh_shell *sh, int argc, char **argv) {
  sh_session_flush_bg(sh);
  int st = wait_builtin(sh, argc, argv);
  sh_session_flush_bg(sh);
  return st;
}

int sh_bi_jobs(sh_shell *sh, int argc, char **argv) {
  sh_session_flush_bg(sh);
  return jobs_builtin(sh, argc, argv);
}
