/*
 * builtins_jobs.c - background jobs and signals: the job table, wait, jobs,
 * kill, trap, fg/bg (no job control: they report it), disown.
 *
 * Signals never reach the host: `kill` marks the target task (or the shell
 * itself), and the target acts on it at its next poll - running its trap, or
 * ending with status 128+N. A blocked target is woken so it notices.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int job_wait(sh_shell *sh, sh_job *j);
static void job_remove(sh_shell *sh, int idx);

/* Keeps the status of a job leaving the table, for `wait PID' later. */
static void remember_status(sh_shell *sh, int64_t pid, int status) {
  if (!sh->reaped) sh->reaped = sh_xcalloc(SH_REAPED_MAX, sizeof *sh->reaped);
  if (sh->nreaped == SH_REAPED_MAX) {
    memmove(sh->reaped, sh->reaped + 1, (SH_REAPED_MAX - 1) * sizeof *sh->reaped);
    sh->nreaped--;
  }
  sh->reaped[sh->nreaped].pid = pid;
  sh->reaped[sh->nreaped].status = status;
  sh->nreaped++;
}

/* bash without job control drops finished jobs from the table when a new
 * job starts and when `jobs' lists them (so job numbers start again at 1),
 * keeping each one's status for `wait PID'. */
static void reap_done_jobs(sh_shell *sh) {
  for (int k = 0; k < sh->njobs;) {
    sh_job *j = sh->jobs[k];
    bool done = !j->foreign && j->text;
    for (int i = 0; done && i < j->ntasks; i++)
      if (j->tasks[i]->state != SH_TASK_DONE) done = false;
    if (!done) {
      k++;
      continue;
    }
    remember_status(sh, j->pid, job_wait(sh, j));
    job_remove(sh, k);
  }
}

/* The status of a job that reap_done_jobs dropped, or -1. */
static int reaped_status(const sh_shell *sh, int64_t pid) {
  for (int k = sh->nreaped; k-- > 0;)
    if (sh->reaped[k].pid == pid) return sh->reaped[k].status;
  return -1;
}

int sh_job_add(sh_shell *sh, sh_task **tasks, int ntasks, const char *text) {
  if (text) reap_done_jobs(sh);
  sh_job *j = sh_xcalloc(1, sizeof *j);
  int maxid = 0;
  for (int i = 0; i < sh->njobs; i++)
    if (sh->jobs[i]->id > maxid) maxid = sh->jobs[i]->id;
  j->id = maxid + 1;
  j->tasks = sh_xcalloc((size_t)ntasks, sizeof *j->tasks);
  for (int i = 0; i < ntasks; i++) {
    j->tasks[i] = tasks[i];
    tasks[i]->refs++;
  }
  j->ntasks = ntasks;
  j->pid = ntasks ? tasks[ntasks - 1]->pid : 0;
  j->text = text ? sh_xstrdup(text) : NULL;
  sh->jobs = sh_xrealloc(sh->jobs, (size_t)(sh->njobs + 1) * sizeof *sh->jobs);
  sh->jobs[sh->njobs++] = j;
  return j->id;
}

static void job_free(sh_job *j) {
  for (int i = 0; i < j->ntasks; i++) sh_task_unref(j->tasks[i]);
  free(j->tasks);
  free(j->text);
  free(j);
}

static int job_wait(sh_shell *sh, sh_job *j) {
  int st = 0;
  for (int i = 0; i < j->ntasks; i++) st = sh_task_wait(sh->task, j->tasks[i]);
  j->done = true;
  j->status = st;
  return st;
}

static void job_remove(sh_shell *sh, int idx) {
  job_free(sh->jobs[idx]);
  memmove(sh->jobs + idx, sh->jobs + idx + 1, (size_t)(sh->njobs - idx - 1) * sizeof *sh->jobs);
  sh->njobs--;
}

int sh_wait_all(sh_shell *sh) {
  int st = 0;
  for (int k = 0; k < sh->njobs;) {
    if (sh->jobs[k]->foreign) {
      k++;
      continue;
    }
    st = job_wait(sh, sh->jobs[k]);
    job_remove(sh, k);
  }
  return st;
}

/* A subshell lists its parent's jobs (`jobs | wc -l`) but cannot wait for them. */
void sh_jobs_inherit(sh_shell *sh, const sh_shell *p) {
  for (int i = 0; i < p->njobs; i++) {
    const sh_job *pj = p->jobs[i];
    if (!pj->text) continue;
    int id = sh_job_add(sh, pj->tasks, pj->ntasks, pj->text);
    sh_job *j = sh->jobs[sh->njobs - 1];
    j->id = pj->id;
    j->pid = pj->pid;
    j->foreign = true;
    (void)id;
  }
}

void sh_jobs_release(sh_shell *sh) {
  for (int i = 0; i < sh->njobs; i++) job_free(sh->jobs[i]);
  free(sh->jobs);
  sh->jobs = NULL;
  sh->njobs = 0;
  free(sh->reaped);
  sh->reaped = NULL;
  sh->nreaped = 0;
}

static int find_job(sh_shell *sh, const char *spec) {
  if (spec[0] == '%') {
    const char *s = spec + 1;
    if (!*s || !strcmp(s, "%") || !strcmp(s, "+")) return sh->njobs - 1;
    if (!strcmp(s, "-")) return sh->njobs - 2;
    char *end;
    long id = strtol(s, &end, 10);
    if (!*end) {
      for (int i = 0; i < sh->njobs; i++)
        if (sh->jobs[i]->id == id) return i;
    }
    return -1;
  }
  char *end;
  long long pid = strtoll(spec, &end, 10);
  if (*end) return -2;
  for (int i = 0; i < sh->njobs; i++)
    if (sh->jobs[i]->pid == pid) return i;
  return -1;
}

/* ---- wait, jobs ---------------------------------------------------------------------------------- */

/* bash's description of a signal that ended a job (strsignal). */
static const char *sig_description(int sig) {
  static const char *const d[] = {
      [1] = "Hangup", [3] = "Quit", [4] = "Illegal instruction", [5] = "Trace/breakpoint trap",
      [6] = "Aborted", [7] = "Bus error", [8] = "Floating point exception", [9] = "Killed",
      [10] = "User defined signal 1", [11] = "Segmentation fault", [12] = "User defined signal 2",
      [14] = "Alarm clock", [16] = "Stack fault", [24] = "CPU time limit exceeded",
      [25] = "File size limit exceeded", [26] = "Virtual timer expired", [27] = "Profiling timer expired",
      [29] = "I/O possible", [30] = "Power failure", [31] = "Bad system call"};
  if (sig <= 0 || sig >= (int)(sizeof d / sizeof d[0])) return NULL;
  return d[sig];
}

void sh_report_signal_death(sh_shell *sh, int sig, int64_t pid, const char *text, bool foreground) {
  /* bash (built without reporting SIGTERM and SIGPIPE): a job killed by
   * another signal that this shell does not trap gets "PID DESCRIPTION
   * COMMAND"; a foreground one killed by TERM or a trapped signal just the
   * description; INT and PIPE nothing */
  if (sig <= 0 || sig == 2 || sig == 13) return;
  bool trapped = sig < SH_NSIG && sh->traps.action[sig];
  const char *desc = sig_description(sig);
  if (desc && !trapped && text)
    sh_error(sh, "%5" PRId64 " %-24s%s", pid, desc, text);
  else if (foreground && (sig == 15 || trapped))
    sh_errorf_raw(sh, "%s\n", sig == 15 ? "Terminated" : desc ? desc : "Unknown signal");
}

/* Waits for job k, reports a death by signal as bash does, removes it. */
static int wait_job(sh_shell *sh, int k) {
  sh_job *j = sh->jobs[k];
  int st = job_wait(sh, j);
  int sig = j->ntasks ? j->tasks[j->ntasks - 1]->term_sig : 0;
  sh_report_signal_death(sh, sig, j->pid, j->text, false);
  if (j->text) remember_status(sh, j->pid, st);
  job_remove(sh, k);
  return st;
}

int sh_bi_wait(sh_shell *sh, int argc, char **argv) {
  int i = 1;
  bool any = false;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (!strcmp(argv[i], "-n")) any = true;
    else if (!strcmp(argv[i], "-f")) {
    } else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
      i++;
    } else {
      sh_error(sh, "wait: %s: invalid option", argv[i]);
      sh_bi_usage(sh, "wait");
      return 2;
    }
  }
  /* the jobs to wait for (indices into sh->jobs) */
  int *sel = sh_xcalloc((size_t)sh->njobs + 1, sizeof *sel);
  int nsel = 0, st = 0;
  bool all = i >= argc;
  if (all) {
    for (int k = 0; k < sh->njobs; k++)
      if (!sh->jobs[k]->foreign) sel[nsel++] = k;
  } else {
    for (; i < argc; i++) {
      int k = find_job(sh, argv[i]);
      if (k == -2) {
        sh_error(sh, "wait: `%s': not a pid or valid job spec", argv[i]);
        st = 1;
        continue;
      }
      if (k == -1 && argv[i][0] != '%' && reaped_status(sh, strtoll(argv[i], NULL, 10)) >= 0) {
        st = reaped_status(sh, strtoll(argv[i], NULL, 10));
        continue;
      }
      if (k < 0 || sh->jobs[k]->foreign) {
        if (argv[i][0] == '%') sh_error(sh, "wait: %s: no such job", argv[i]);
        else sh_error(sh, "wait: pid %s is not a child of this shell", argv[i]);
        st = 127;
        continue;
      }
      if (!any) {
        /* in order: each one's status; the last one counts */
        free(sel);
        sel = NULL;
        st = wait_job(sh, k);
        sel = sh_xcalloc((size_t)sh->njobs + 1, sizeof *sel);
        continue;
      }
      sel[nsel++] = k;
    }
  }
  if (!any) {
    if (all) {
      while (sh->njobs > 0) {
        int k = 0;
        while (k < sh->njobs && sh->jobs[k]->foreign) k++;
        if (k >= sh->njobs) break;
        wait_job(sh, k);
      }
      st = 0;
    }
    free(sel);
    return st;
  }
  /* wait -n: the first of them to finish */
  if (!nsel) {
    free(sel);
    return 127;
  }
  sh_task **ts = sh_xcalloc((size_t)nsel, sizeof *ts);
  for (int k = 0; k < nsel; k++) {
    sh_job *j = sh->jobs[sel[k]];
    ts[k] = j->tasks[j->ntasks - 1];
  }
  int w = sh_task_wait_any(sh->task, ts, nsel);
  free(ts);
  st = w < 0 ? 127 : wait_job(sh, sel[w]);
  free(sel);
  return st;
}

/* Jobs not yet finished (the prompt's \j). */
int sh_jobs_running(sh_shell *sh) {
  int n = 0;
  for (int i = 0; i < sh->njobs; i++) {
    sh_job *j = sh->jobs[i];
    if (!j->text) continue;
    for (int k = 0; k < j->ntasks; k++)
      if (j->tasks[k]->state != SH_TASK_DONE) {
        n++;
        break;
      }
  }
  return n;
}

int sh_bi_jobs(sh_shell *sh, int argc, char **argv) {
  bool pids = false, longf = false;
  if (!sh->interactive) reap_done_jobs(sh); /* interactive: listed as Done first */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-p")) pids = true;
    else if (!strcmp(argv[i], "-l")) longf = true;
  }
  for (int i = 0; i < sh->njobs; i++) {
    sh_job *j = sh->jobs[i];
    if (!j->text) continue; /* process substitutions are not jobs */
    bool done = true;
    for (int k = 0; k < j->ntasks; k++)
      if (j->tasks[k]->state != SH_TASK_DONE) done = false;
    char mark = i == sh->njobs - 1 ? '+' : i == sh->njobs - 2 ? '-' : ' ';
    if (pids) sh_printf_fd(sh, 1, "%" PRId64 "\n", j->pid);
    else if (longf)
      sh_printf_fd(sh, 1, "[%d]%c %" PRId64 " %-24s%s%s\n", j->id, mark, j->pid, done ? "Done" : "Running",
                   j->text, done ? "" : " &");
    else
      sh_printf_fd(sh, 1, "[%d]%c  %-24s%s%s\n", j->id, mark, done ? "Done" : "Running", j->text,
                   done ? "" : " &");
  }
  return 0;
}

int sh_bi_fg(sh_shell *sh, int argc, char **argv) {
  (void)argc;
  sh_error(sh, "%s: no job control", argv[0]);
  return 1;
}

int sh_bi_disown(sh_shell *sh, int argc, char **argv) {
  if (argc < 2) {
    if (sh->njobs) sh->jobs[sh->njobs - 1]->text = (free(sh->jobs[sh->njobs - 1]->text), NULL);
    return 0;
  }
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-') continue;
    int k = find_job(sh, argv[i]);
    if (k < 0) {
      sh_error(sh, "disown: %s: no such job", argv[i]);
      return 1;
    }
    free(sh->jobs[k]->text);
    sh->jobs[k]->text = NULL;
  }
  return 0;
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
    int k = find_job(sh, t);
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
    sh_job *j = sh->jobs[k];
    for (int m = 0; m < j->ntasks; m++) {
      sh_task *task = j->tasks[m];
      if (task->state == SH_TASK_DONE) continue;
      if (sig) {
        task->pending_sig = sig;
        sh_task_wake(task);
      }
    }
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

int sh_bi_trap(sh_shell *sh, int argc, char **argv) {
  int i = 1;
  bool print = false;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (!strcmp(argv[i], "-l")) {
      print_signal_table(sh);
      return 0;
    }
    if (!strcmp(argv[i], "-p")) {
      print = true;
      continue;
    }
    sh_error(sh, "trap: %s: invalid option", argv[i]);
    sh_bi_usage(sh, "trap");
    return 2;
  }
  if (i >= argc || print) {
    if (i >= argc) {
      for (int s = 0; s < SH_NSIG + 3; s++) print_trap(sh, s);
      return 0;
    }
    int st = 0;
    for (; i < argc; i++) {
      int s = sig_number(argv[i], true);
      if (s < 0) {
        sh_error(sh, "trap: %s: invalid signal specification", argv[i]);
        st = 1;
        continue;
      }
      print_trap(sh, s);
    }
    return st;
  }
  /* a subshell's inherited trap list is forgotten at the first change */
  for (int k = 0; k < SH_NSIG + 4; k++) {
    free(sh->shown_traps.action[k]);
    sh->shown_traps.action[k] = NULL;
  }
  const char *action = argv[i];
  bool reset = !strcmp(action, "-");
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
  int st = 0;
  for (; i < argc; i++) {
    int s = sig_number(argv[i], true);
    if (s < 0) {
      sh_error(sh, "trap: %s: invalid signal specification", argv[i]);
      st = 1;
      continue;
    }
    if (s < 64 && (sh->sig_ignored >> s) & 1) continue; /* ignored at entry */
    free(sh->traps.action[s]);
    sh->traps.action[s] = reset ? NULL : sh_xstrdup(action);
  }
  return st;
}
