/*
 * rg - ripgrep's command line for what coding agents use (ripgrep 13), over
 * the sandbox's regex engine.
 *
 *   rg [OPTIONS] PATTERN [PATH]...      rg [OPTIONS] -e PATTERN... [PATH]...
 *   rg --files [PATH]...                rg --type-list
 *
 * Patterns are Perl-style (PCRE2 through src/re, close to Rust's regex
 * syntax for what agents write); -F fixed strings, -i / -S (smart case) /
 * -s, -w, -x, -v. Output is ripgrep's without a terminal: "PATH:LINE" when
 * more than one file may match (-H / --no-filename / -I override), -n /
 * -N line numbers, --column, -o, -c, --count-matches, -l, --files-without-
 * match, -q, -m, -A / -B / -C with "-" context lines and "--" between
 * groups, -0. Directories are walked in sorted order (as --sort path: the
 * output is deterministic), skipping hidden names (--hidden shows them) and
 * what .gitignore (inside a git repository: a .git above or at the start),
 * .ignore and .rgignore say, unless --no-ignore; -u / -uu / -uuu as ripgrep.
 * -g GLOB / -g '!GLOB' filter by name or path, -t TYPE / -T TYPE by file
 * type (a table of common types; --type-list prints it), --max-depth, -L.
 * Files with a NUL byte are skipped in walks; one named on the command line
 * reports "binary file matches" as ripgrep does. Exit 0 match, 1 none,
 * 2 error. -r/--replace TEXT prints each match replaced ($1, ${1}, $name,
 * ${name}, $$), --json prints ripgrep's JSON Lines (begin, match, context,
 * end and summary messages; the elapsed times are measured), -U lets a match
 * span lines (each line it touches is printed once; -o prints the match).
 * --sort/--sortr path|modified|accessed|created order siblings as ripgrep's
 * walker does (files and directories together, each directory's contents
 * in turn). Not done: -U with -v, context, -r or --json (they search line
 * by line).
 *
 * Bounds: lines up to the sandbox's string limit, ignore files up to
 * RG_MAX_IGNORE patterns; walks and searches poll for cancel/timeout.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/lib/buf.h"
#include "cmd/lib/fs.h"
#include "re/re.h"

CMD_DEFINE("rg", cmd_rg_main);

#define RG_MAX_IGNORE 4096
#define RG_MAX_GLOBS 64
#define RG_MAX_PATTERNS 256
#define RG_MAX_CONTEXT 10000
#define RG_MAX_GROUPS 64 /* capture groups -r can name */
#define RG_MAX_SORT_DEPTH 256 /* directory depth a sorted walk orders */

static const struct {
  const char *name;
  const char *globs; /* comma-separated */
} rg_types[] = {
    {"c", "*.[chH],*.[chH].in,*.cats"},
    {"cpp",
     "*.[ChH],*.cc,*.[ch]pp,*.[ch]xx,*.hh,*.inl,*.[ChH].in,*.cc.in,*.[ch]pp.in,*.[ch]xx."
     "in,*.hh.in"},
    {"css", "*.css,*.scss"},
    {"go", "*.go"},
    {"h", "*.h,*.hh,*.hpp"},
    {"html", "*.htm,*.html,*.ejs"},
    {"java", "*.java,*.jsp,*.jspx,*.properties"},
    {"js", "*.js,*.jsx,*.vue,*.cjs,*.mjs"},
    {"json", "*.json,composer.lock"},
    {"make",
     "[Gg][Nn][Uu]makefile,[Mm]akefile,[Gg][Nn][Uu]makefile.am,[Gg][Nn][Uu]makefile.in,"
     "[Mm]akefile.am,[Mm]akefile.in,*.mk,*.mak"},
    {"markdown", "*.markdown,*.md,*.mdown,*.mdwn,*.mkd,*.mkdn,*.mdx"},
    {"md", "*.markdown,*.md,*.mdown,*.mdwn,*.mkd,*.mkdn,*.mdx"},
    {"py", "*.py,*.pyi"},
    {"ruby", "Gemfile,*.gemspec,.irbrc,Rakefile,*.rb"},
    {"rust", "*.rs"},
    {"sh", "*.bash,.bashrc,*.csh,.cshrc,*.ksh,.kshrc,*.sh,.zshrc,*.zsh"},
    {"sql", "*.sql,*.psql"},
    {"toml", "*.toml,Cargo.lock"},
    {"ts", "*.ts,*.tsx,*.cts,*.mts"},
    {"txt", "*.txt"},
    {"yaml", "*.yaml,*.yml"},
};
#define RG_NTYPES (sizeof rg_types / sizeof rg_types[0])

typedef struct rg_ignore {
  char *pat;       /* without !, leading / and trailing / */
  size_t base;     /* length of the directory prefix it applies under */
  const char *dir; /* that prefix (arena) */
  bool neg, dir_only, anchored;
} rg_ignore;

typedef struct rg {
  cmd_ctx *ctx;
  re *rx;
  bool multiline; /* -U */
  int sort_key;   /* --sort/--sortr: 0 path, 1 modified, 2 accessed, 3 created */
  bool sort_rev;  /* --sortr */
  struct rg_sorted *sorted; /* files of the walk, when a sort other than by path asks */
  size_t nsorted, capsorted;
  bool fixed, icase, smart, word, line, invert, count, count_matches, files_with,
      files_without, quiet, only, column, null, hidden, no_ignore, follow, list_files;
  int line_numbers; /* -1 default, 0 -N, 1 -n */
  int with_name;    /* -1 default, 0 -I, 1 -H */
  long max_count;   /* -1 none */
  long after, before;
  long max_depth; /* -1 none */
  const char *globs[RG_MAX_GLOBS];
  int nglobs;
  const char *types[32], *not_types[32];
  int ntypes, nnot_types;
  rg_ignore *ign;
  size_t nign, capign;
  bool any_match, error;
  bool printed_group; /* for "--" between context groups */
  bool strip_dot;     /* no path given: names without "./" */
  const char *replace;                 /* -r TEXT, or NULL */
  const char *group_names[RG_MAX_GROUPS]; /* the name of each capture group, or NULL */
  size_t ngroups;                      /* capture groups + 1 */
  bool json;
  /* --json totals over the files that matched (ripgrep's summary counts those) */
  uint64_t js_bytes_printed, js_bytes_searched, js_matched_lines, js_matches, js_searches;
  uint64_t jf_matches; /* submatches of the current file */
  int64_t js_elapsed_ns, js_start_ns;
  uint64_t js_file_printed; /* bytes printed for the current file */
} rg;

static int rg_poll(void *ud) {
  return cmd_poll(ud);
}

static int64_t rg_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- -r/--replace -------------------------------------------------------------------- */

/* The capture groups of a Perl pattern in order, with their names:
 * (?<name>...), (?P<name>...) and (?'name'...) are named; (...) is numbered;
 * other (?...) groups capture nothing. */
static void rg_scan_groups(rg *g, const char *p) {
  bool cls = false;
  for (; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
      continue;
    }
    if (cls) {
      if (*p == ']') cls = false;
      continue;
    }
    if (*p == '[') {
      cls = true;
      if (p[1] == '^') p++;
      if (p[1] == ']') p++;
      continue;
    }
    if (*p != '(') continue;
    const char *name = NULL;
    size_t nl = 0;
    if (p[1] == '?') {
      const char *q = p + 2;
      if (*q == 'P' && q[1] == '<') q++;
      if ((*q == '<' && q[1] != '=' && q[1] != '!') || *q == '\'') {
        char close = *q == '<' ? '>' : '\'';
        name = q + 1;
        while (name[nl] && name[nl] != close) nl++;
      } else {
        continue;
      }
    }
    if (g->ngroups >= RG_MAX_GROUPS) return;
    char *nm = NULL;
    if (name && (nm = cmd_alloc(g->ctx, nl + 1))) {
      memcpy(nm, name, nl);
      nm[nl] = 0;
    }
    g->group_names[g->ngroups] = nm;
    g->ngroups++;
  }
}

static long rg_group_index(const rg *g, const char *name, size_t n) {
  bool digits = n > 0;
  for (size_t i = 0; i < n; i++)
    if (name[i] < '0' || name[i] > '9') digits = false;
  if (digits) {
    long v = 0;
    for (size_t i = 0; i < n && v < 100000; i++) v = v * 10 + (name[i] - '0');
    return v;
  }
  for (size_t i = 1; i < g->ngroups; i++)
    if (g->group_names[i] && strlen(g->group_names[i]) == n && !strncmp(g->group_names[i], name, n))
      return (long)i;
  return -1;
}

/* The replacement of one match (m[0..nm-1] are its groups in s). */
static void rg_replacement(rg *g, const char *s, const re_span *m, size_t nm) {
  cmd_ctx *ctx = g->ctx;
  for (const char *r = g->replace; *r; r++) {
    if (*r != '$') {
      cmd_outc(ctx, *r);
      continue;
    }
    if (r[1] == '$') {
      cmd_outc(ctx, '$');
      r++;
      continue;
    }
    const char *name;
    size_t n = 0;
    if (r[1] == '{') {
      name = r + 2;
      while (name[n] && name[n] != '}') n++;
      if (!name[n]) { /* no closing brace: literal */
        cmd_outc(ctx, '$');
        continue;
      }
      r = name + n;
    } else {
      name = r + 1;
      while ((name[n] >= 'a' && name[n] <= 'z') || (name[n] >= 'A' && name[n] <= 'Z') ||
             (name[n] >= '0' && name[n] <= '9') || name[n] == '_')
        n++;
      if (!n) {
        cmd_outc(ctx, '$');
        continue;
      }
      r = name + n - 1;
    }
    long k = rg_group_index(g, name, n);
    if (k >= 0 && (size_t)k < nm && m[k].so >= 0)
      cmd_out(ctx, s + m[k].so, (size_t)(m[k].eo - m[k].so));
  }
}

/* ---- --json -------------------------------------------------------------------------- */
/* Each JSON message is built in a cmd_buf (lib/buf.h) and written whole. */

/* {"text":"..."} as serde_json escapes it, or {"bytes":"BASE64"} when s is
 * not UTF-8 (ripgrep's arbitrary data). */
static void jb_data(cmd_buf *b, const char *s, size_t n) {
  if (re_utf8_check(s, n) != n) {
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    cmd_buf_puts(b, "{\"bytes\":\"");
    for (size_t i = 0; i < n; i += 3) {
      unsigned v = (unsigned char)s[i] << 16;
      if (i + 1 < n) v |= (unsigned char)s[i + 1] << 8;
      if (i + 2 < n) v |= (unsigned char)s[i + 2];
      char q[4] = {b64[v >> 18 & 63], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=',
                   i + 2 < n ? b64[v & 63] : '='};
      cmd_buf_put(b, q, 4);
    }
    cmd_buf_puts(b, "\"}");
    return;
  }
  cmd_buf_puts(b, "{\"text\":\"");
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    const char *e = NULL;
    char u[8];
    if (c == '"') e = "\\\"";
    else if (c == '\\') e = "\\\\";
    else if (c == '\n') e = "\\n";
    else if (c == '\t') e = "\\t";
    else if (c == '\r') e = "\\r";
    else if (c == '\b') e = "\\b";
    else if (c == '\f') e = "\\f";
    else if (c < 0x20) {
      snprintf(u, sizeof u, "\\u%04x", c);
      e = u;
    }
    if (!e) continue;
    cmd_buf_put(b, s + run, i - run);
    cmd_buf_puts(b, e);
    run = i + 1;
  }
  cmd_buf_put(b, s + run, n - run);
  cmd_buf_puts(b, "\"}");
}

static void jb_elapsed(cmd_buf *b, int64_t ns) {
  cmd_buf_printf(b, "{\"secs\":%lld,\"nanos\":%lld,\"human\":\"%.6fs\"}", (long long)(ns / 1000000000),
         (long long)(ns % 1000000000), (double)ns / 1e9);
}

static void rg_json_emit(rg *g, cmd_buf *b) {
  cmd_buf_put(b, "\n", 1);
  cmd_out(g->ctx, b->p, b->len);
  g->js_file_printed += b->len;
  free(b->p);
}

/* A "match" or "context" message for the line ls[0..ll) (with its newline
 * when it has one) at lineno and byte offset off. */
static void rg_json_line(rg *g, const char *path, bool *begun, bool match, const char *ls,
                         size_t ll, bool has_nl, long lineno, size_t off) {
  cmd_buf b = {0};
  if (!*begun) {
    cmd_buf_puts(&b, "{\"type\":\"begin\",\"data\":{\"path\":");
    jb_data(&b, path, strlen(path));
    cmd_buf_puts(&b, "}}");
    rg_json_emit(g, &b);
    b = (cmd_buf){0};
    *begun = true;
  }
  cmd_buf_puts(&b, match ? "{\"type\":\"match\",\"data\":{\"path\":" : "{\"type\":\"context\",\"data\":{\"path\":");
  jb_data(&b, path, strlen(path));
  cmd_buf_puts(&b, ",\"lines\":");
  jb_data(&b, ls, ll + (has_nl ? 1 : 0));
  cmd_buf_printf(&b, ",\"line_number\":%ld,\"absolute_offset\":%zu,\"submatches\":[", lineno, off);
  if (match && !g->invert) {
    re_ctl ctl = {0, rg_poll, g->ctx};
    re_span m[1];
    size_t at = 0;
    bool first = true;
    while (at <= ll && re_exec(g->rx, ls, ll, at, 0, m, 1, &ctl) == RE_MATCH) {
      if (m[0].eo > m[0].so || first) {
        if (!first) cmd_buf_puts(&b, ",");
        cmd_buf_puts(&b, "{\"match\":");
        jb_data(&b, ls + m[0].so, (size_t)(m[0].eo - m[0].so));
        cmd_buf_printf(&b, ",\"start\":%ld,\"end\":%ld}", (long)m[0].so, (long)m[0].eo);
        first = false;
        g->jf_matches++;
      }
      at = (size_t)m[0].eo > at ? (size_t)m[0].eo : at + 1;
    }
  }
  cmd_buf_puts(&b, "]}}");
  rg_json_emit(g, &b);
}


/* ---- ignore rules ------------------------------------------------------------------ */

static void rg_load_ignore(rg *g, const char *dir, const char *file) {
  char *path = cmd_join_path(g->ctx, dir, file);
  cmd_in *in;
  if (cmd_in_open(g->ctx, path, &in) < 0) return;
  char *line;
  ssize_t n;
  while ((n = cmd_in_getdelim(in, &line, '\n')) > 0 && g->nign < RG_MAX_IGNORE) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
      n--;
    line[n] = '\0';
    if (!n || line[0] == '#') continue;
    rg_ignore r = {0};
    char *p = line;
    if (*p == '!') r.neg = true, p++;
    if (*p == '\\') p++;
    size_t len = strlen(p);
    if (len && p[len - 1] == '/') r.dir_only = true, p[--len] = '\0';
    if (*p == '/')
      r.anchored = true, p++;
    else if (strchr(p, '/'))
      r.anchored = true;
    if (!*p) continue;
    r.pat = cmd_strdup(g->ctx, p);
    r.dir = strcmp(dir, ".") == 0 ? "" : cmd_strdup(g->ctx, dir);
    r.base = strlen(r.dir);
    if (g->nign == g->capign) {
      size_t nc = g->capign ? g->capign * 2 : 64;
      rg_ignore *ni = realloc(g->ign, nc * sizeof *ni);
      if (!ni) break;
      g->ign = ni, g->capign = nc;
    }
    g->ign[g->nign++] = r;
  }
  cmd_in_close(in);
}

/* gitignore-style match of one rule against a path (relative to the walk). */
static bool rg_rule_matches(const rg_ignore *r, const char *path, bool is_dir) {
  if (r->dir_only && !is_dir) return false;
  const char *rel = path;
  if (r->base) {
    if (strncmp(path, r->dir, r->base) != 0 || path[r->base] != '/') return false;
    rel = path + r->base + 1;
  } else if (rel[0] == '.' && rel[1] == '/') {
    rel += 2;
  }
  if (r->anchored) {
    const char *pat = r->pat;
    if (strncmp(pat, "**/", 3) == 0) {
      for (const char *p = rel; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
        if (fnmatch(pat + 3, p, FNM_PATHNAME) == 0) return true;
      return false;
    }
    return fnmatch(pat, rel, strstr(pat, "**") ? 0 : FNM_PATHNAME) == 0;
  }
  const char *base = strrchr(rel, '/');
  return fnmatch(r->pat, base ? base + 1 : rel, 0) == 0;
}

static bool rg_ignored(rg *g, const char *path, bool is_dir) {
  bool ign = false;
  for (size_t i = 0; i < g->nign; i++)
    if (rg_rule_matches(&g->ign[i], path, is_dir)) ign = !g->ign[i].neg;
  return ign;
}

/* ---- globs and types --------------------------------------------------------------- */

static bool rg_glob_list(const char *list, const char *name) {
  char buf[512];
  for (const char *p = list; *p;) {
    size_t n = strcspn(p, ",");
    if (n < sizeof buf) {
      memcpy(buf, p, n);
      buf[n] = '\0';
      if (fnmatch(buf, name, 0) == 0) return true;
    }
    p += n + (p[n] == ',');
  }
  return false;
}

static const char *rg_type_globs(const char *t) {
  for (size_t i = 0; i < RG_NTYPES; i++)
    if (strcmp(rg_types[i].name, t) == 0) return rg_types[i].globs;
  return NULL;
}

/* -g / -t / -T for a file found in a walk. */
static bool rg_wanted(rg *g, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (g->ntypes) {
    bool ok = false;
    for (int i = 0; i < g->ntypes && !ok; i++)
      ok = rg_glob_list(rg_type_globs(g->types[i]), base);
    if (!ok) return false;
  }
  for (int i = 0; i < g->nnot_types; i++)
    if (rg_glob_list(rg_type_globs(g->not_types[i]), base)) return false;
  bool any_pos = false, pos_ok = false;
  const char *rel = path[0] == '.' && path[1] == '/' ? path + 2 : path;
  for (int i = 0; i < g->nglobs; i++) {
    const char *gl = g->globs[i];
    bool neg = gl[0] == '!';
    if (neg) gl++;
    bool m = strchr(gl, '/') ? fnmatch(gl, rel, 0) == 0 : fnmatch(gl, base, 0) == 0;
    if (neg && m) return false;
    if (!neg) any_pos = true, pos_ok |= m;
  }
  return !any_pos || pos_ok;
}

/* ---- searching ------------------------------------------------------------------- */


static void rg_prefix(rg *g, const char *name, long lineno, long col, char sep) {
  if (name) {
    cmd_outs(g->ctx, name);
    cmd_outc(g->ctx, g->null ? '\0' : sep);
  }
  if (lineno > 0) cmd_outf(g->ctx, "%ld%c", lineno, sep);
  if (col > 0) cmd_outf(g->ctx, "%ld%c", col, sep);
}

/* -U: matches over the whole buffer. Prints every line a match touches
 * once (-o: the match itself); returns the number of matches. */
static long rg_search_multi(rg *g, const char *data, size_t len, const char *name) {
  cmd_ctx *ctx = g->ctx;
  re_ctl ctl = {0, rg_poll, ctx};
  bool show_ln = g->line_numbers == 1;
  bool print = !g->quiet && !g->count && !g->count_matches && !g->files_with && !g->files_without;
  long matches = 0, line = 1, printed_to = 0; /* lines printed so far: 1..printed_to */
  size_t at = 0, line_start = 0, scan = 0;   /* line number of byte `scan` is `line` */
  re_span m[1];
  while (at <= len) {
    if (cmd_poll(ctx)) break;
    int r = re_exec(g->rx, data, len, at, 0, m, 1, &ctl);
    if (r != RE_MATCH) break;
    matches++;
    if (g->quiet || g->files_with) break;
    size_t so = (size_t)m[0].so, eo = (size_t)m[0].eo;
    size_t last = eo > so ? eo - 1 : so; /* the match's last byte */
    for (; scan < so; scan++)
      if (data[scan] == '\n') line++, line_start = scan + 1;
    long first_line = line;
    size_t first_start = line_start;
    if (print && g->only) {
      rg_prefix(g, name, show_ln ? first_line : 0, g->column ? (long)(so - first_start) + 1 : 0,
                ':');
      cmd_out(ctx, data + so, eo - so);
      cmd_outc(ctx, '\n');
    } else if (print) {
      /* the lines from the match's first to its last byte */
      size_t p = first_start;
      long ln = first_line;
      /* (a match at the very end of a file that ends with a newline touches no line) */
      while (p < len || (p == len && len && data[len - 1] != '\n')) {
        const char *nl = memchr(data + p, '\n', len - p);
        size_t e = nl ? (size_t)(nl - data) : len;
        if (ln > printed_to) {
          rg_prefix(g, name, show_ln ? ln : 0, g->column && ln == first_line ? (long)(so - first_start) + 1 : 0,
                    ':');
          cmd_out(ctx, data + p, e - p);
          cmd_outc(ctx, '\n');
          printed_to = ln;
        }
        if (e >= last || !nl) break;
        p = e + 1;
        ln++;
      }
    }
    if (g->max_count >= 0 && matches >= g->max_count) break;
    at = eo > at ? eo : at + 1;
  }
  return matches;
}

/* Searches one file; name is NULL when file names are not shown. */
static void rg_search(rg *g, const char *path, const char *name, bool explicit_file) {
  cmd_ctx *ctx = g->ctx;
  cmd_in *in;
  int rc = cmd_in_open(ctx, path, &in);
  if (rc < 0) {
    cmd_record_error(ctx, rc, path);
    cmd_err_raw(ctx, "%s: %s (os error %d)\n", path, cmd_strerror(rc), -rc);
    g->error = true;
    return;
  }
  char *data = NULL;
  size_t len = 0;
  rc = cmd_in_slurp(in, &data, &len);
  cmd_in_close(in);
  if (rc < 0) {
    cmd_err_raw(ctx, "%s: %s (os error %d)\n", path, cmd_strerror(rc), -rc);
    g->error = true;
    free(data);
    return;
  }
  const char *nul = memchr(data, 0, len);
  if (nul && !explicit_file) {
    free(data);
    return;
  }
  if (g->multiline && !g->json && !g->invert && !g->replace && !g->after && !g->before) {
    long count = rg_search_multi(g, data, len, name);
    free(data);
    if (count) g->any_match = true;
    if (g->quiet) return;
    const char *shown = name ? name : path;
    if ((g->files_with && count) || (g->files_without && !count)) {
      cmd_outs(ctx, shown);
      cmd_outc(ctx, g->null ? '\0' : '\n');
    } else if ((g->count || g->count_matches) && count && !g->files_with && !g->files_without) {
      if (name) {
        cmd_outs(ctx, name);
        cmd_outc(ctx, g->null ? '\0' : ':');
      }
      cmd_outf(ctx, "%ld\n", count);
    }
    return;
  }
  bool show_ln = g->line_numbers == 1 && !g->count && !g->files_with && !g->files_without;
  int64_t t0 = g->json ? rg_now_ns() : 0;
  bool begun = false;
  const char *jpath = name ? name : strcmp(path, "-") == 0 ? "<stdin>" : path;
  g->js_file_printed = 0;
  g->jf_matches = 0;
  size_t ngroups = g->ngroups < RG_MAX_GROUPS ? g->ngroups : RG_MAX_GROUPS;
  re_span groups[RG_MAX_GROUPS];
  re_ctl ctl = {0, rg_poll, ctx};
  long count = 0, matches = 0, last_printed = 0, lineno = 0, after_left = 0;
  /* line starts for -B */
  size_t *starts = g->before ? calloc((size_t)g->before + 1, sizeof *starts) : NULL;
  size_t pos = 0;
  bool stop = false;
  while (pos < len && !stop) {
    if (cmd_poll(ctx)) break;
    const char *ls = data + pos;
    const char *nl = memchr(ls, '\n', len - pos);
    size_t ll = nl ? (size_t)(nl - ls) : len - pos;
    lineno++;
    re_span m[1];
    int r = re_exec(g->rx, ls, ll, 0, 0, m, 1, &ctl);
    if (r < 0) {
      cmd_err_raw(ctx, "%s: %s\n", path, re_strerror(r));
      g->error = true;
      break;
    }
    bool hit = (r == RE_MATCH) != g->invert;
    if (hit && nul) {
      if (!g->quiet && !g->files_with && !g->count)
        cmd_outf(ctx, "%s%sbinary file matches (found \"\\0\" byte around offset %ld)\n",
                 name ? name : "", name ? ":" : "", (long)(nul - data));
      count++;
      g->any_match = true;
      break;
    }
    if (hit) {
      count++;
      g->any_match = true;
      if (g->quiet) break;
      if (g->count_matches && !g->invert) {
        size_t at = 0;
        while (at <= ll && re_exec(g->rx, ls, ll, at, 0, m, 1, &ctl) == RE_MATCH) {
          matches++;
          at = (size_t)m[0].eo > at ? (size_t)m[0].eo : at + 1;
        }
      }
      if (!g->count && !g->count_matches && !g->files_with && !g->files_without) {
        /* "--" between separate groups when context is on */
        if ((g->after || g->before) && g->printed_group && last_printed &&
            lineno - g->before > last_printed + 1)
          cmd_outs(ctx, "--\n");
        else if ((g->after || g->before) && g->printed_group && !last_printed)
          cmd_outs(ctx, "--\n");
        /* before-context */
        long from = lineno - g->before;
        if (from <= last_printed) from = last_printed + 1;
        if (from < 1) from = 1;
        for (long k = from; k < lineno; k++) {
          size_t s = starts[(k - 1) % (g->before + 1)];
          const char *cs = data + s;
          const char *ce = memchr(cs, '\n', len - s);
          if (g->json) {
            rg_json_line(g, jpath, &begun, false, cs, ce ? (size_t)(ce - cs) : len - s, ce != NULL,
                         k, s);
            continue;
          }
          rg_prefix(g, name, show_ln ? k : 0, 0, '-');
          cmd_out(ctx, cs, ce ? (size_t)(ce - cs) : len - s);
          cmd_outc(ctx, '\n');
        }
        if (g->json) {
          rg_json_line(g, jpath, &begun, true, ls, ll, nl != NULL, lineno, (size_t)(ls - data));
        } else if (g->only && !g->invert) {
          size_t at = 0;
          while (at <= ll &&
                 re_exec(g->rx, ls, ll, at, 0, groups, ngroups, &ctl) == RE_MATCH) {
            if (groups[0].eo > groups[0].so) {
              rg_prefix(g, name, show_ln ? lineno : 0,
                        g->column ? (long)groups[0].so + 1 : 0, ':');
              if (g->replace) rg_replacement(g, ls, groups, ngroups);
              else cmd_out(ctx, ls + groups[0].so, (size_t)(groups[0].eo - groups[0].so));
              cmd_outc(ctx, '\n');
            }
            at = (size_t)groups[0].eo > at ? (size_t)groups[0].eo : at + 1;
          }
        } else if (g->replace && !g->invert) {
          /* the line with every match replaced */
          long col = g->column ? (long)m[0].so + 1 : 0;
          rg_prefix(g, name, show_ln ? lineno : 0, col, ':');
          size_t at = 0, done = 0;
          while (at <= ll &&
                 re_exec(g->rx, ls, ll, at, 0, groups, ngroups, &ctl) == RE_MATCH) {
            cmd_out(ctx, ls + done, (size_t)groups[0].so - done);
            rg_replacement(g, ls, groups, ngroups);
            done = (size_t)groups[0].eo;
            at = (size_t)groups[0].eo > at ? (size_t)groups[0].eo : at + 1;
          }
          cmd_out(ctx, ls + done, ll - done);
          cmd_outc(ctx, '\n');
        } else {
          long col = 0;
          if (g->column) col = r == RE_MATCH && !g->invert ? (long)m[0].so + 1 : 1;
          rg_prefix(g, name, show_ln ? lineno : 0, col, ':');
          cmd_out(ctx, ls, ll);
          cmd_outc(ctx, '\n');
        }
        last_printed = lineno;
        g->printed_group = true;
        after_left = g->after;
      }
      if (g->files_with) break;
      if (g->max_count >= 0 && count >= g->max_count) stop = true;
    } else if (after_left > 0 && !g->count && !g->files_with && !g->files_without && g->json) {
      rg_json_line(g, jpath, &begun, false, ls, ll, nl != NULL, lineno, pos);
      last_printed = lineno;
      after_left--;
    } else if (after_left > 0 && !g->count && !g->files_with && !g->files_without) {
      rg_prefix(g, name, show_ln ? lineno : 0, 0, '-');
      cmd_out(ctx, ls, ll);
      cmd_outc(ctx, '\n');
      last_printed = lineno;
      after_left--;
    }
    if (starts) starts[(lineno - 1) % (g->before + 1)] = pos;
    pos += ll + 1;
  }
  /* after-context of the last match when -m stopped the search */
  while (stop && after_left > 0 && pos < len) {
    const char *ls = data + pos;
    const char *nl = memchr(ls, '\n', len - pos);
    size_t ll = nl ? (size_t)(nl - ls) : len - pos;
    lineno++;
    if (g->json) {
      rg_json_line(g, jpath, &begun, false, ls, ll, nl != NULL, lineno, pos);
    } else {
      rg_prefix(g, name, show_ln ? lineno : 0, 0, '-');
      cmd_out(ctx, ls, ll);
      cmd_outc(ctx, '\n');
    }
    after_left--;
    pos += ll + 1;
  }
  free(starts);
  free(data);
  if (g->json && count) {
    int64_t el = rg_now_ns() - t0;
    cmd_buf b = {0};
    cmd_buf_puts(&b, "{\"type\":\"end\",\"data\":{\"path\":");
    jb_data(&b, jpath, strlen(jpath));
    cmd_buf_puts(&b, ",\"binary_offset\":null,\"stats\":{\"elapsed\":");
    jb_elapsed(&b, el);
    cmd_buf_printf(&b, ",\"searches\":1,\"searches_with_match\":1,\"bytes_searched\":%zu,"
               "\"bytes_printed\":%llu,\"matched_lines\":%ld,\"matches\":%llu}}}",
           len, (unsigned long long)g->js_file_printed, count,
           (unsigned long long)g->jf_matches);
    g->js_bytes_printed += g->js_file_printed;
    g->js_bytes_searched += len;
    g->js_matched_lines += (uint64_t)count;
    g->js_matches += g->jf_matches;
    g->js_searches++;
    g->js_elapsed_ns += el;
    rg_json_emit(g, &b);
    return;
  }
  if (g->json) return;
  if (g->quiet) return;
  const char *shown = name ? name : path;
  if (g->files_with && count) {
    cmd_outs(ctx, shown);
    cmd_outc(ctx, g->null ? '\0' : '\n');
  } else if (g->files_without && !count) {
    cmd_outs(ctx, shown);
    cmd_outc(ctx, g->null ? '\0' : '\n');
  } else if ((g->count || g->count_matches) && count) {
    if (name) {
      cmd_outs(ctx, name);
      cmd_outc(ctx, g->null ? '\0' : ':');
    }
    cmd_outf(ctx, "%ld\n", g->count_matches && !g->invert ? matches : count);
  }
}

static void rg_file(rg *g, const char *path, bool show_name, bool explicit_file) {
  if (g->strip_dot && path[0] == '.' && path[1] == '/') path += 2;
  if (g->list_files) {
    cmd_outs(g->ctx, path);
    cmd_outc(g->ctx, g->null ? '\0' : '\n');
    g->any_match = true;
    return;
  }
  rg_search(g, path, show_name ? (strcmp(path, "-") == 0 ? "<stdin>" : path) : NULL,
            explicit_file);
}

/* ---- --sort by time / --sortr --------------------------------------------------------- */

#define RG_MAX_SORTED 1000000 /* files a sorted walk holds */

/* A file of a sorted walk: its path and the time of each of its components
 * below the root (the root's children first). */
typedef struct rg_sorted {
  char *path;
  int64_t *times;
  int depth; /* components below the root */
  bool show_name;
} rg_sorted;

static int64_t rg_sort_time(const rg *g, const store_stat *st) {
  return g->sort_key == 2 ? st->atime * 1000000000 + st->atime_nsec
       : g->sort_key == 3 ? st->ctime * 1000000000 + st->ctime_nsec
                          : st->mtime * 1000000000 + st->mtime_nsec;
}

static void rg_sort_add(rg *g, const char *path, const int64_t *dir_times, int depth,
                        int64_t own, bool show_name) {
  if (g->nsorted >= RG_MAX_SORTED) return;
  if (cmd_grow(&g->sorted, &g->capsorted, g->nsorted + 1, sizeof *g->sorted)) return;
  rg_sorted *f = &g->sorted[g->nsorted];
  f->path = strdup(path);
  f->times = malloc((size_t)(depth > 0 ? depth : 1) * sizeof *f->times);
  if (!f->path || !f->times) {
    free(f->path);
    free(f->times);
    return;
  }
  for (int i = 0; i + 1 < depth; i++) f->times[i] = dir_times[i + 1];
  if (depth > 0) f->times[depth - 1] = own;
  f->depth = depth;
  f->show_name = show_name;
  g->nsorted++;
}

/* The path's components below the root compared in turn: by time (or
 * name when sorting by path), then by name; --sortr reverses each. */
static int rg_sort_cmp(const void *pa, const void *pb, void *ud) {
  const rg *g = ud;
  const rg_sorted *a = pa, *b = pb;
  const char *ca = a->path, *cb = b->path;
  /* skip the common root: the first depth components from the end are ours */
  int skip_a = 0, skip_b = 0;
  for (const char *p = ca; *p; p++) skip_a += *p == '/';
  for (const char *p = cb; *p; p++) skip_b += *p == '/';
  skip_a -= a->depth - 1;
  skip_b -= b->depth - 1;
  while (skip_a-- > 0) ca = strchr(ca, '/') + 1;
  while (skip_b-- > 0) cb = strchr(cb, '/') + 1;
  for (int i = 0; i < a->depth && i < b->depth; i++) {
    size_t la = strcspn(ca, "/"), lb = strcspn(cb, "/");
    int r = 0;
    if (g->sort_key) r = (a->times[i] > b->times[i]) - (a->times[i] < b->times[i]);
    if (!r) {
      r = memcmp(ca, cb, la < lb ? la : lb);
      if (!r) r = (la > lb) - (la < lb);
    }
    if (r) return g->sort_rev ? -r : r;
    ca += la + (ca[la] == '/');
    cb += lb + (cb[lb] == '/');
  }
  return (a->depth > b->depth) - (a->depth < b->depth);
}

static void rg_file(rg *g, const char *path, bool show_name, bool explicit_file);

static void rg_sort_flush(rg *g) {
  qsort_r(g->sorted, g->nsorted, sizeof *g->sorted, rg_sort_cmp, g);
  for (size_t i = 0; i < g->nsorted; i++) {
    if (!cmd_poll(g->ctx) && !(g->quiet && g->any_match))
      rg_file(g, g->sorted[i].path, g->sorted[i].show_name, false);
    free(g->sorted[i].path);
    free(g->sorted[i].times);
  }
  g->nsorted = 0;
}

/* Is there a git repository at dir or above it (ripgrep reads .gitignore only then)? */
static bool rg_in_repo(cmd_ctx *ctx, const char *dir) {
  char *p = NULL;
  if (cmd_fs_canonicalize(ctx, dir, 0, &p) < 0 || !p) return false;
  for (int depth = 0; depth < 256; depth++) {
    store_stat st;
    char *git = cmd_join_path(ctx, p, ".git");
    if (cmd_fs_lstat(ctx, git, &st) == 0) return true;
    if (strcmp(p, "/") == 0) break;
    p = cmd_fs_dirname(ctx, p);
  }
  return false;
}

static void rg_walk(rg *g, const char *root, bool show_name) {
  cmd_ctx *ctx = g->ctx;
  bool repo = !g->no_ignore && rg_in_repo(ctx, root);
  size_t saved = g->nign;
  /* the ignore files of the directories above a relative root (up to the
   * working directory) apply too, as ripgrep reads its parents' */
  if (!g->no_ignore && root[0] != '/' && !strstr(root, "..")) {
    const char *r = root[0] == '.' && root[1] == '/' ? root + 2 : root;
    if (strcmp(r, ".") != 0 && *r) {
      char *prefix = cmd_strdup(ctx, r);
      for (char *p = prefix; p; p = strchr(p + 1, '/')) {
        char c0 = *p;
        const char *dir = prefix;
        if (p == prefix)
          dir = ".";
        else
          *p = '\0';
        if (repo) rg_load_ignore(g, dir, ".gitignore");
        rg_load_ignore(g, dir, ".ignore");
        rg_load_ignore(g, dir, ".rgignore");
        *p = c0;
        if (p == prefix && !strchr(prefix, '/')) break;
      }
    }
  }
  cmd_walk *w =
      cmd_walk_open(ctx, root, g->follow ? CMD_WALK_LOGICAL : CMD_WALK_COMFOLLOW);
  if (!w) {
    g->error = true;
    return;
  }
  cmd_walk_ent *e;
  bool sorting = g->sort_key || g->sort_rev;
  int64_t dir_times[RG_MAX_SORT_DEPTH];
  while ((e = cmd_walk_next(w))) {
    if (e->info == CMD_WALK_DNR || e->info == CMD_WALK_NS) {
      cmd_err_raw(ctx, "%s: %s (os error %d)\n", e->path, cmd_strerror(e->err), -e->err);
      g->error = true;
      continue;
    }
    bool is_dir = e->info == CMD_WALK_D;
    if (e->depth > 0) {
      if (!g->hidden && e->name[0] == '.') {
        if (is_dir) cmd_walk_skip(w);
        continue;
      }
      if (is_dir && strcmp(e->name, ".git") == 0 && !g->no_ignore && repo) {
        /* ripgrep 13 shows .git only with --hidden; it is not special otherwise */
      }
      if (!g->no_ignore && rg_ignored(g, e->path, is_dir)) {
        if (is_dir) cmd_walk_skip(w);
        continue;
      }
      if (g->max_depth >= 0 && e->depth > g->max_depth) {
        if (is_dir) cmd_walk_skip(w);
        continue;
      }
    }
    if (is_dir) {
      if (g->max_depth >= 0 && e->depth >= g->max_depth) {
        cmd_walk_skip(w);
        continue;
      }
      if (sorting && e->depth < RG_MAX_SORT_DEPTH) dir_times[e->depth] = rg_sort_time(g, &e->st);
      if (!g->no_ignore) {
        if (repo) rg_load_ignore(g, e->path, ".gitignore");
        rg_load_ignore(g, e->path, ".ignore");
        rg_load_ignore(g, e->path, ".rgignore");
      }
      continue;
    }
    if (e->info == CMD_WALK_DP || e->info == CMD_WALK_DC) continue;
    if (!S_ISREG(e->st.mode)) continue;
    if (!rg_wanted(g, e->path)) continue;
    if (sorting && e->depth < RG_MAX_SORT_DEPTH) {
      rg_sort_add(g, e->path, dir_times, e->depth, rg_sort_time(g, &e->st), show_name);
      continue;
    }
    rg_file(g, e->path, show_name, false);
    if (g->quiet && g->any_match) break;
  }
  if (sorting) rg_sort_flush(g);
  if (cmd_walk_stopped(w)) g->error = true;
  cmd_walk_close(w);
  g->nign = saved;
}

/* Smart case: the pattern has an uppercase letter (outside escapes). */
static bool has_upper(const char *p) {
  for (; *p; p++) {
    if (*p == '\\' && p[1]) {
      p++;
      continue;
    }
    if (*p >= 'A' && *p <= 'Z') return true;
  }
  return false;
}

enum {
  O_COUNTM = CMD_OPT_LONG,
  O_FWOUT,
  O_HIDDEN,
  O_NOHIDDEN,
  O_NOIGN,
  O_IGNORE,
  O_FILES,
  O_TYPELIST,
  O_MAXDEPTH,
  O_MAXDEPTH2, /* --maxdepth */
  O_COLUMN,
  O_SORT,
  O_SORTR,
  O_SORTFILES,
  O_HEADING,
  O_NOHEADING,
  O_COLOR,
  O_JSON,
  O_NOMULTI,
  O_NOMESSAGES
};
static const char rg_options[] =
    "(count-matches)(files-without-match)(hidden)(no-hidden)(no-ignore)(ignore)(files)"
    "(type-list)(max-depth):(maxdepth):(column)(sort):(sortr):(sort-files)(heading)"
    "(no-heading)(color):(json)(no-multiline)(no-messages)(help)(version)e:(regexp)"
    "f:(file)F(fixed-strings)i(ignore-case)S(smart-case)s(case-sensitive)w(word-regexp)"
    "x(line-regexp)v(invert-match)n(line-number)N(no-line-number)H(with-filename)"
    "I(no-filename)c(count)l(files-with-matches)q(quiet)o(only-matching)m:(max-count)"
    "A:(after-context)B:(before-context)C:(context)g:(glob)t:(type)T:(type-not)"
    "u(unrestricted)L(follow)0(null)r:(replace)U(multiline)P(pcre2)j:(threads)";

int cmd_rg_main(cmd_ctx *ctx, int argc, char **argv) {
  /* --colour names --color (an alias, which the option string cannot say) */
  static const cmd_longopt colour[] = {{"colour", 1, O_COLOR}, {0, 0, 0}};
  rg g = {
      .ctx = ctx, .line_numbers = -1, .with_name = -1, .max_count = -1, .max_depth = -1};
  const char *pats[RG_MAX_PATTERNS];
  int npats = 0, unrestricted = 0, status = 2;
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop: -e and -f add up, -g -t -T collect, -u counts, and several
   * options undo others (-i/-S/-s, -n/-N/--column, --hidden/--no-hidden...);
   * the plain flags are read after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, rg_options, colour)) != -1;) {
    switch (c) {
      case 'e':
        if (npats < RG_MAX_PATTERNS) pats[npats++] = st.arg;
        break;
      case 'f': {
        cmd_in *in;
        if (cmd_in_open(ctx, st.arg, &in) < 0) {
          cmd_err_raw(ctx, "%s: No such file or directory (os error 2)\n", st.arg);
          goto out;
        }
        char *line;
        ssize_t n;
        while ((n = cmd_in_getdelim(in, &line, '\n')) > 0 && npats < RG_MAX_PATTERNS) {
          if (line[n - 1] == '\n') line[--n] = '\0';
          pats[npats++] = cmd_strdup(ctx, line);
        }
        cmd_in_close(in);
        break;
      }
      case 'i':
        g.icase = true, g.smart = false;
        break;
      case 'S':
        g.smart = true, g.icase = false;
        break;
      case 's':
        g.icase = g.smart = false;
        break;
      case 'n':
        g.line_numbers = 1;
        break;
      case 'N':
        g.line_numbers = 0;
        break;
      case 'H':
        g.with_name = 1;
        break;
      case 'I':
        g.with_name = 0;
        break;
      case 'm':
      case 'A':
      case 'B':
      case 'C':
      case O_MAXDEPTH:
      case O_MAXDEPTH2: {
        char *end;
        long v = strtol(st.arg, &end, 10);
        if (*end || v < 0 || v > RG_MAX_CONTEXT * 1000L) {
          cmd_err_raw(ctx,
                      "error: Invalid value for '%s': invalid digit found in string\n",
                      c == 'm' ? "--max-count <NUM>" : "--context <NUM>");
          goto out;
        }
        if (c == 'm') g.max_count = v;
        if ((c == 'A' || c == 'B' || c == 'C') && v > RG_MAX_CONTEXT) v = RG_MAX_CONTEXT;
        if (c == 'A' || c == 'C') g.after = v;
        if (c == 'B' || c == 'C') g.before = v;
        if (c == O_MAXDEPTH || c == O_MAXDEPTH2) g.max_depth = v;
        break;
      }
      case 'g':
        if (g.nglobs < RG_MAX_GLOBS) g.globs[g.nglobs++] = st.arg;
        break;
      case 't':
      case 'T':
        if (!rg_type_globs(st.arg)) {
          cmd_err_raw(ctx, "unrecognized file type: %s\n", st.arg);
          goto out;
        }
        if (c == 't' && g.ntypes < 32) g.types[g.ntypes++] = st.arg;
        if (c == 'T' && g.nnot_types < 32) g.not_types[g.nnot_types++] = st.arg;
        break;
      case O_HIDDEN:
        g.hidden = true;
        break;
      case O_NOHIDDEN:
        g.hidden = false;
        break;
      case O_NOIGN:
        g.no_ignore = true;
        break;
      case O_IGNORE:
        g.no_ignore = false;
        break;
      case 'u':
        unrestricted++;
        if (unrestricted >= 1) g.no_ignore = true;
        if (unrestricted >= 2) g.hidden = true;
        break;
      case O_TYPELIST:
        for (size_t i = 0; i < RG_NTYPES; i++) {
          cmd_outf(ctx, "%s: ", rg_types[i].name);
          for (const char *p = rg_types[i].globs; *p; p++) {
            if (*p == ',')
              cmd_outs(ctx, ", ");
            else
              cmd_outc(ctx, *p);
          }
          cmd_outc(ctx, '\n');
        }
        status = 0;
        goto out;
      case O_COLUMN:
        g.column = true, g.line_numbers = g.line_numbers == 0 ? 0 : 1;
        break;
      case O_SORT:
      case O_SORTR: {
        static const char *const keys[] = {"path", "modified", "accessed", "created", "none"};
        int k = -1;
        for (int q = 0; q < 5; q++)
          if (!strcmp(st.arg, keys[q])) k = q;
        if (k < 0) {
          cmd_err_raw(ctx,
                      "error: '%s' isn't a valid value for '--%s <SORTBY>'\n"
                      "\t[possible values: accessed, created, modified, none, path]\n\n\n"
                      "USAGE:\n    \n    rg [OPTIONS] PATTERN [PATH ...]\n"
                      "    rg [OPTIONS] -e PATTERN ... [PATH ...]\n"
                      "    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]\n"
                      "    rg [OPTIONS] --files [PATH ...]\n    rg [OPTIONS] --type-list\n"
                      "    command | rg [OPTIONS] PATTERN\n    rg [OPTIONS] --help\n"
                      "    rg [OPTIONS] --version\n\nFor more information try --help\n\n",
                      st.arg, c == O_SORT ? "sort" : "sortr");
          goto out;
        }
        g.sort_key = k == 4 ? 0 : k;
        g.sort_rev = c == O_SORTR && k != 4;
        break;
      }
      case 'U':
        g.multiline = true;
        break;
      case O_NOMULTI:
        g.multiline = false;
        break;
      case CMD_OPT_HELP:
        cmd_outs(ctx,
                 "USAGE:\n    rg [OPTIONS] PATTERN [PATH ...]\n    rg [OPTIONS] -e "
                 "PATTERN ... "
                 "[PATH ...]\n    rg [OPTIONS] --files [PATH ...]\n    rg [OPTIONS] "
                 "--type-list\n");
        status = 0;
        goto out;
      case CMD_OPT_VERSION:
        cmd_outs(ctx, "ripgrep 13.0.0 (sbx)\n");
        status = 0;
        goto out;
      case '?':
        goto out;
    }
  }
  g.fixed = cmd_opt_on(&st, 'F');
  g.word = cmd_opt_on(&st, 'w');
  g.line = cmd_opt_on(&st, 'x');
  g.invert = cmd_opt_on(&st, 'v');
  g.count = cmd_opt_on(&st, 'c');
  g.count_matches = cmd_opt_on(&st, O_COUNTM);
  g.files_with = cmd_opt_on(&st, 'l');
  g.files_without = cmd_opt_on(&st, O_FWOUT);
  g.quiet = cmd_opt_on(&st, 'q');
  g.only = cmd_opt_on(&st, 'o');
  g.list_files = cmd_opt_on(&st, O_FILES);
  g.follow = cmd_opt_on(&st, 'L');
  g.null = cmd_opt_on(&st, '0');
  g.json = cmd_opt_on(&st, O_JSON);
  g.replace = cmd_opt_arg(&st, 'r');
  if (g.json) {
    /* ripgrep's JSON printer reports lines: the count and list modes give way */
    g.js_start_ns = rg_now_ns();
    g.count = g.count_matches = g.files_with = g.files_without = g.only = false;
  }
  int i = st.ind;
  if (!g.list_files && npats == 0) {
    if (i >= argc) {
      cmd_err_raw(
          ctx,
          "error: The following required arguments were not provided:\n"
          "    <PATTERN>\n\nUSAGE:\n\n    rg [OPTIONS] PATTERN [PATH ...]\n"
          "    rg [OPTIONS] [-e PATTERN ...] [-f PATTERNFILE ...] [PATH ...]\n"
          "    rg [OPTIONS] --files [PATH ...]\n    rg [OPTIONS] --type-list\n"
          "    command | rg [OPTIONS] PATTERN\n\nFor more information try --help\n");
      goto out;
    }
    pats[npats++] = argv[i++];
  }
  if (!g.list_files) {
    /* one expression: the patterns as alternatives */
    size_t total = 16;
    for (int k = 0; k < npats; k++) total += strlen(pats[k]) * 4 + 16;
    char *joined = cmd_alloc(ctx, total);
    if (!joined) goto out;
    size_t jl = 0;
    bool upper = false;
    for (int k = 0; k < npats; k++) {
      upper |= has_upper(pats[k]);
      if (k) joined[jl++] = g.fixed ? '\n' : '|';
      if (g.fixed) {
        jl += (size_t)sprintf(joined + jl, "%s", pats[k]);
      } else {
        /* -w / -x as ripgrep builds them around each pattern */
        jl += (size_t)sprintf(joined + jl, "%s(?:%s)%s",
                              g.line   ? "^"
                              : g.word ? "(?<!\\w)"
                                       : "",
                              pats[k],
                              g.line   ? "$"
                              : g.word ? "(?!\\w)"
                                       : "");
      }
    }
    joined[jl] = '\0';
    g.ngroups = 1;
    if (!g.fixed)
      for (int k = 0; k < npats; k++) rg_scan_groups(&g, pats[k]);
    unsigned flags = RE_UTF8;
    if (g.fixed)
      flags |= RE_LITERAL | RE_NLALT;
    else
      flags |= RE_PERL;
    if (g.icase || (g.smart && !upper)) flags |= RE_NOCASE;
    if (g.fixed && g.word) flags |= RE_WHOLE_WORD;
    if (g.fixed && g.line) flags |= RE_WHOLE_LINE;
    if (g.multiline) flags |= RE_MULTILINE; /* ^ and $ at every line */
    re_err err = {0};
    if (re_compile(&g.rx, joined, jl, flags, &err) != 0) {
      cmd_err_raw(ctx, "regex parse error:\n    %s\nerror: %s\n",
                  npats == 1 ? pats[0] : joined, err.msg);
      goto out;
    }
  }
  int nops = argc - i;
  /* no path: stdin when it is a pipe or a file (ripgrep's rule), else "." */
  store_stat in_st;
  bool stdin_search = nops == 0 && !g.list_files && ctx->io->fstat &&
                      ctx->io->fstat(ctx->io_ud, 0, &in_st) == 0 &&
                      (S_ISFIFO(in_st.mode) || S_ISREG(in_st.mode));
  if (stdin_search) {
    rg_file(&g, "-", g.with_name == 1, true);
  } else if (nops == 0) {
    g.strip_dot = true;
    /* no path: the current directory, names shown without "./" */
    bool show = g.with_name != 0;
    rg_walk(&g, ".", show);
  } else {
    bool single_file = false;
    if (nops == 1) {
      store_stat s;
      single_file = cmd_fs_stat(ctx, argv[i], &s) == 0 && !S_ISDIR(s.mode);
      if (strcmp(argv[i], "-") == 0) single_file = true;
    }
    bool show = g.with_name == 1 || (g.with_name == -1 && !single_file);
    for (; i < argc && !cmd_poll(ctx); i++) {
      store_stat s;
      const char *p = argv[i];
      if (strcmp(p, "-") == 0) {
        rg_file(&g, "-", show, true);
        continue;
      }
      int rc = cmd_fs_stat(ctx, p, &s);
      if (rc < 0) {
        cmd_record_error(ctx, rc, p);
        cmd_err_raw(ctx, "%s: %s (os error %d)\n", p, cmd_strerror(rc), -rc);
        g.error = true;
        continue;
      }
      if (S_ISDIR(s.mode))
        rg_walk(&g, p, g.with_name != 0);
      else
        rg_file(&g, p, show, true);
      if (g.quiet && g.any_match) break;
    }
  }
  if (g.json) {
    int64_t total = rg_now_ns() - g.js_start_ns;
    cmd_buf b = {0};
    cmd_buf_printf(&b, "{\"data\":{\"elapsed_total\":{\"human\":\"%.6fs\",\"nanos\":%lld,\"secs\":%lld},",
           (double)total / 1e9, (long long)(total % 1000000000), (long long)(total / 1000000000));
    cmd_buf_printf(&b, "\"stats\":{\"bytes_printed\":%llu,\"bytes_searched\":%llu,",
           (unsigned long long)g.js_bytes_printed, (unsigned long long)g.js_bytes_searched);
    int64_t el = g.js_elapsed_ns;
    cmd_buf_printf(&b, "\"elapsed\":{\"human\":\"%.6fs\",\"nanos\":%lld,\"secs\":%lld},", (double)el / 1e9,
           (long long)(el % 1000000000), (long long)(el / 1000000000));
    cmd_buf_printf(&b, "\"matched_lines\":%llu,\"matches\":%llu,\"searches\":%llu,"
               "\"searches_with_match\":%llu}},\"type\":\"summary\"}\n",
           (unsigned long long)g.js_matched_lines, (unsigned long long)g.js_matches,
           (unsigned long long)g.js_searches, (unsigned long long)g.js_searches);
    cmd_out(ctx, b.p, b.len);
    free(b.p);
  }
  status = g.error && !(g.quiet && g.any_match) ? 2 : g.any_match ? 0 : 1;
out:
  if (g.rx) re_free(g.rx);
  free(g.sorted);
  free(g.ign);
  return status;
}
