/*
 * builtins_vars.c - builtins about variables and options: declare/typeset,
 * local, export, readonly, unset, set, shopt, read, mapfile/readarray, getopts.
 *
 * declare -p prints in bash's exact format (declare -a a=([0]="x" [1]="y")),
 * which scripts and tests compare against. `read` takes one byte at a time
 * from pipes (so it never consumes what the next reader should see) and
 * chunks from seekable files, seeking back past the delimiter.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "sh/arith.h"
#include "sh/builtins.h"
#include "sh/expand.h"
#include "sh/io.h"
#include "sh/parse.h"
#include "sh/vars.h"


/* ---- declare -p ------------------------------------------------------------------------ */

/* Does s need $'...' (a control character)? bash's test before quoting a
 * value for declare -p and ${a[@]@K}. */
static bool needs_ansic(const char *s) {
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 32 || *p == 127) return true;
  return false;
}

void sh_quote_value(sh_buf *b, const char *s) {
  if (needs_ansic(s)) {
    char *q = sh_quote(s, true);
    sh_buf_adds(b, q);
    free(q);
    return;
  }
  sh_buf_addc(b, '"');
  for (const char *p = s; *p; p++) {
    if (*p == '"' || *p == '\\' || *p == '$' || *p == '`') sh_buf_addc(b, '\\');
    sh_buf_addc(b, *p);
  }
  sh_buf_addc(b, '"');
}

/* bash's sh_contains_shell_metas: a character that would mean something
 * unquoted (~ and # only where they would) */
static bool has_shell_metas(const char *k) {
  for (const char *p = k; *p; p++) {
    if (strchr(" \t\n'\"\\|&;()<>!{}*[?]^$`", *p)) return true;
    if (*p == '~' && (p == k || p[-1] == '=' || p[-1] == ':')) return true;
    if (*p == '#' && p == k) return true;
  }
  return false;
}

void sh_quote_key(sh_buf *b, const char *k) {
  bool quote = needs_ansic(k) || ((*k == '@' || *k == '*') && !k[1]) || has_shell_metas(k);
  if (quote) sh_quote_value(b, k);
  else sh_buf_adds(b, k);
}

char *sh_declare_print(sh_shell *sh, sh_var *v, bool for_A) {
  (void)sh;
  sh_buf b = {0};
  char fl[SH_VAR_ATTR_LETTERS_MAX];
  sh_var_attr_letters(v, fl);
  if (!fl[0]) strcpy(fl, "-"); /* declare -- name=value */
  if (for_A && !strcmp(fl, "-") && !(v->flags & (SH_V_ARRAY | SH_V_ASSOC))) {
    sh_buf_adds(&b, v->name);
  } else {
    sh_buf_addf(&b, "declare -%s %s", fl[0] == '-' ? "-" : fl, v->name);
  }
  if (v->flags & SH_V_UNSET) return sh_buf_steal(&b);
  if (v->flags & SH_V_ARRAY) {
    sh_buf_adds(&b, "=(");
    for (size_t i = 0; i < v->arr->n; i++) {
      if (i) sh_buf_addc(&b, ' ');
      sh_buf_addf(&b, "[%" PRId64 "]=", v->arr->idx[i]);
      sh_quote_value(&b, v->arr->val[i]);
    }
    sh_buf_addc(&b, ')');
  } else if (v->flags & SH_V_ASSOC) {
    sh_buf_adds(&b, "=(");
    for (sh_assoc_ent *e = sh_assoc_first(v->assoc); e; e = sh_assoc_next(v->assoc, e)) {
      sh_buf_addc(&b, '[');
      sh_quote_key(&b, e->key);
      sh_buf_adds(&b, "]=");
      sh_quote_value(&b, e->val);
      sh_buf_addc(&b, ' ');
    }
    sh_buf_addc(&b, ')');
  } else if (v->str) {
    sh_buf_addc(&b, '=');
    if (for_A) { /* ${x@A}: single quotes, whatever the attributes */
      char *q = sh_quote_single(v->str);
      sh_buf_adds(&b, q);
      free(q);
    } else {
      sh_quote_value(&b, v->str);
    }
  }
  return sh_buf_steal(&b);
}

/* ---- declare and friends --------------------------------------------------------------------- */

typedef struct decl_opts {
  uint32_t set, clear; /* attributes to add / remove */
  bool print, funcs, func_names, global;
  bool inherit; /* -I: a new local takes the outer variable's attributes and value */
} decl_opts;

static int parse_decl_opts(sh_shell *sh, const char *name, int argc, char **argv, decl_opts *o,
                           const char *allowed) {
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if ((a[0] != '-' && a[0] != '+') || !a[1]) break;
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    bool plus = a[0] == '+';
    for (const char *c = a + 1; *c; c++) {
      if (!strchr(allowed, *c)) {
        sh_error(sh, "%s: %c%c: invalid option", name, a[0], *c);
        sh_bi_usage(sh, name);
        return -1;
      }
      uint32_t bit = 0;
      switch (*c) {
      case 'a': bit = SH_V_ARRAY; break;
      case 'A': bit = SH_V_ASSOC; break;
      case 'i': bit = SH_V_INTEGER; break;
      case 'l': bit = SH_V_LOWER; break;
      case 'u': bit = SH_V_UPPER; break;
      case 'c': bit = SH_V_CAPITAL; break;
      case 'n': bit = SH_V_NAMEREF; break;
      case 'r': bit = SH_V_READONLY; break;
      case 't': bit = SH_V_TRACE; break;
      case 'x': bit = SH_V_EXPORT; break;
      case 'p': o->print = true; break;
      case 'f': o->funcs = true; break;
      case 'F': o->func_names = true; break;
      case 'g': o->global = true; break;
      case 'I': o->inherit = !plus; break;
      }
      if (bit) {
        if (plus) o->clear |= bit;
        else o->set |= bit;
      }
    }
  }
  return i;
}

static void print_var(sh_shell *sh, sh_var *v) {
  char *s = sh_declare_print(sh, v, false);
  sh_printf_fd(sh, 1, "%s\n", s);
  free(s);
}

/* Function attribute bits (sh_func.attrs) for declare attribute flags. */
static uint32_t func_attr_bits(uint32_t set) {
  return ((set & SH_V_EXPORT) ? 1u : 0) | ((set & SH_V_READONLY) ? 2u : 0) | ((set & SH_V_TRACE) ? 4u : 0);
}

/* bash's "declare -f<attrs> name" line for a function (rx: readonly, exported). */
static void print_func_decl(sh_shell *sh, const char *name, uint32_t attrs) {
  sh_printf_fd(sh, 1, "declare -f%s%s %s\n", (attrs & 2) ? "r" : "", (attrs & 1) ? "x" : "", name);
}

/* `need`: listing all, only the functions with all these attrs (declare -xf). */
static int print_funcs(sh_shell *sh, int argc, char **argv, int i, bool names_only, uint32_t need) {
  int st = 0;
  if (i >= argc) {
    size_t n;
    const char **keys = sh_map_keys(&sh->funcs, &n);
    for (size_t k = 0; k < n; k++) {
      sh_func *f = sh_func_get(sh, keys[k]);
      if ((f->attrs & need) != need) continue;
      if (names_only) {
        print_func_decl(sh, keys[k], f->attrs);
      } else {
        char *t = sh_func_text(sh, f);
        sh_printf_fd(sh, 1, "%s\n", t);
        free(t);
        if (f->attrs & 3) print_func_decl(sh, keys[k], f->attrs);
      }
    }
    free(keys);
    return 0;
  }
  for (; i < argc; i++) {
    sh_func *f = sh_func_get(sh, argv[i]);
    if (!f) {
      st = 1;
      continue;
    }
    if (names_only && sh->opt[SH_SHOPT_EXTDEBUG]) {
      /* shopt -s extdebug: where it was defined */
      const char *src = f->def->source && *f->def->source ? f->def->source : "main";
      sh_printf_fd(sh, 1, "%s %d %s\n", argv[i], f->def->base.line, src);
    } else if (names_only) {
      sh_printf_fd(sh, 1, "%s\n", argv[i]);
    } else {
      char *t = sh_func_text(sh, f);
      sh_printf_fd(sh, 1, "%s\n", t);
      free(t);
    }
  }
  return st;
}

/* Splits "name[sub]=value" / "name+=value" / "name". */
typedef struct decl_arg {
  char *name;
  char *sub;      /* NULL if no subscript */
  bool has_value;
  bool append;
  const char *value;
} decl_arg;

static bool split_decl_arg(const char *a, decl_arg *d) {
  memset(d, 0, sizeof *d);
  const char *p = a;
  while (sh_is_name_char((unsigned char)*p)) p++;
  d->name = sh_xstrndup(a, (size_t)(p - a));
  if (*p == '[') {
    /* the matching ']': a subscript may hold brackets (bash: `declare
     * b[a[0]=1]=x` assigns a[0] while computing b's index) */
    const char *e = p + 1;
    for (int depth = 0; *e && (*e != ']' || depth > 0); e++)
      depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
    if (!*e) return false;
    d->sub = sh_xstrndup(p + 1, (size_t)(e - p - 1));
    p = e + 1;
  }
  if (*p == '+' && p[1] == '=') {
    d->append = true;
    p++;
  }
  if (*p == '=') {
    d->has_value = true;
    d->value = p + 1;
    p = "";
  }
  return *p == 0 && sh_is_name(d->name);
}

static void free_decl_arg(decl_arg *d) {
  free(d->name);
  free(d->sub);
}

/* The common core of declare/typeset/local/export/readonly. */
/* declare -a "NAME=(...)" with a computed argument: bash parses the value as
 * an array literal (its words are expanded then, as in eval). Returns the
 * status, or -1 when the text is not exactly one NAME=(...) assignment (the
 * caller then assigns it as a string). */
static int assign_array_text(sh_shell *sh, const char *name, bool append, const char *value, int flags) {
  size_t vn = strlen(value);
  if (vn < 2 || value[0] != '(' || value[vn - 1] != ')') return -1;
  char *text = sh_xasprintf("%s%s=%s", name, append ? "+" : "", value);
  sh_parse_opts o = {.max_depth = (int)sh->sess->limits.nesting}; /* the session's nesting limit */
  sh_parser *p = sh_parser_new(text, strlen(text), &o);
  sh_node *node = NULL;
  sh_arena *arena = NULL;
  int st = -1;
  if (sh_parse_next(p, &node, &arena) == 1) {
    sh_node *c = sh_node_only_command(node);
    sh_simple *sc = c && c->kind == SH_N_SIMPLE ? (sh_simple *)c : NULL;
    sh_node *rest = NULL;
    sh_arena *rest_arena = NULL;
    if (sc && sc->assigns && !sc->assigns->next && !sc->nwords && !c->redirs && sc->assigns->value &&
        sc->assigns->value->parts && sc->assigns->value->parts->kind == SH_PART_ARRAY &&
        sh_parse_next(p, &rest, &rest_arena) == 0)
      st = sh_apply_assign(sh, sc->assigns, flags);
    if (rest_arena) sh_arena_unref(rest_arena);
    sh_arena_unref(arena);
  }
  sh_parser_free(p);
  free(text);
  return st;
}

static int declare_core(sh_shell *sh, const char *bname, int argc, char **argv, decl_opts *o, int i,
                        bool local) {
  int st = 0;
  sh_decl_args *da = sh_current_decl;
  for (; i < argc; i++) {
    struct sh_assign *as = da && i < da->n ? da->assign[i] : NULL;
    if (local && !strcmp(argv[i], "-")) {
      /* local -: the function's set -o options come back when it returns */
      for (int k = sh->nframes - 1; k >= 1; k--) {
        if (!strcmp(sh->frames[k].funcname, "source")) continue;
        if (!sh->frames[k].saved_opts) {
          sh->frames[k].saved_opts = sh_xmalloc(SH_SET_COUNT * sizeof *sh->opt);
          memcpy(sh->frames[k].saved_opts, sh->opt, SH_SET_COUNT * sizeof *sh->opt);
        }
        break;
      }
      continue;
    }
    decl_arg d;
    if (!split_decl_arg(argv[i], &d)) {
      if (as && as->name && !sh_is_name(as->name)) {
        free_decl_arg(&d);
      } else {
        free_decl_arg(&d);
      }
      sh_error(sh, "%s: `%s': not a valid identifier", bname, argv[i]);
      st = 1;
      continue;
    }
    if (d.sub && !o->funcs && (!strcmp(bname, "export") || !strcmp(bname, "readonly"))) {
      /* bash: export and readonly take names, not array elements */
      sh_error(sh, "%s: `%s[%s]': not a valid identifier", bname, d.name, d.sub);
      free_decl_arg(&d);
      st = 1;
      continue;
    }
    if (o->funcs) {
      /* export -f / readonly -f / declare -f +x name */
      sh_func *f = sh_func_get(sh, d.name);
      if (!f) {
        sh_error(sh, "%s: %s: not a function", bname, d.name);
        st = 1;
      } else {
        if (o->set & SH_V_READONLY) f->attrs |= 2;
        if (o->set & SH_V_EXPORT) f->attrs |= 1;
        if (o->clear & SH_V_EXPORT) f->attrs &= ~1u;
        if (o->set & SH_V_TRACE) f->attrs |= 4;
        if (o->clear & SH_V_TRACE) f->attrs &= ~4u;
      }
      free_decl_arg(&d);
      continue;
    }
    sh_var *v;
    int err = 0;
    bool make_local = local && !o->global;
    if (make_local) {
      sh_var *top = sh_var_find_noref(sh, d.name);
      if (top && top->level == sh->local_scope && sh->local_scope > 0) {
        /* (`v=1 eval 'local v'`: the temporary variable becomes a local of
         * the scope, so an unset there hides its value, as bash does) */
        v = top;
        v->flags &= ~SH_V_TEMP;
      } else if (top && (top->flags & SH_V_CALLTEMP) && top->level == sh->local_scope - 1) {
        /* `x=1 f` and `local x` in f: bash keeps the temporary variable in
         * f's own scope, so the local is that cell (exported, with its value
         * unless it becomes an array), and unsetting it from a function f
         * calls reveals the variable below the temporary one */
        v = top;
        v->level = sh->local_scope;
        v->flags &= ~(SH_V_TEMP | SH_V_CALLTEMP);
        if ((o->set & (SH_V_ARRAY | SH_V_ASSOC)) && !(v->flags & (SH_V_ARRAY | SH_V_ASSOC))) {
          free(v->str);
          v->str = NULL;
          v->flags |= SH_V_UNSET;
        }
      } else {
        if (top && (top->flags & SH_V_READONLY)) {
          /* a readonly variable cannot be shadowed by a local (bash) */
          if (sh->local_scope > 0) sh_error(sh, "%s: %s: readonly variable", bname, d.name);
          else sh_error(sh, "%s: readonly variable", d.name);
          free_decl_arg(&d);
          st = 1;
          continue;
        }
        v = sh_var_make_local(sh, d.name);
        /* bash: `local x` keeps x unset; declare -I and localvar_inherit copy
         * the outer variable's attributes and value */
        if (top && (o->inherit || sh->opt[SH_SHOPT_LOCALVAR_INHERIT]) && top != v &&
            !(top->flags & SH_V_NAMEREF)) {
          v->flags = top->flags & ~SH_V_READONLY;
          if (top->flags & SH_V_ARRAY) v->arr = sh_array_copy(top->arr);
          else if (top->flags & SH_V_ASSOC) v->assoc = sh_assoc_copy(top->assoc);
          else if (top->str) v->str = sh_xstrdup(top->str);
        } else if (top && (top->flags & SH_V_TEMP) && top != v && top->str &&
                   !(top->flags & (SH_V_NAMEREF | SH_V_ARRAY | SH_V_ASSOC))) {
          /* `x=1 f` and `local x` in f: the local starts as the temporary
           * variable, exported, with its value unless it becomes an array (bash) */
          v->flags |= SH_V_EXPORT;
          if (!(o->set & (SH_V_ARRAY | SH_V_ASSOC))) {
            v->str = sh_xstrdup(top->str);
            v->flags &= ~SH_V_UNSET;
          }
        }
      }
    } else if (o->global && sh->local_scope > 0) {
      /* declare -g: the global variable */
      v = sh_var_find_noref(sh, d.name);
      while (v && v->level > 0) v = v->shadow;
      if (!v) {
        int saved = sh->local_scope;
        sh->local_scope = 0;
        v = sh_var_get_for_write(sh, d.name, SH_SET_LOCAL, &err);
        sh->local_scope = saved;
      }
    } else {
      v = sh_var_find_noref(sh, d.name);
      if (v && (v->flags & SH_V_NAMEREF) && !(o->set & SH_V_NAMEREF) && !(o->clear & SH_V_NAMEREF))
        v = sh_var_find(sh, d.name);
      if (!v) v = sh_var_get_for_write(sh, d.name, 0, &err);
    }
    if (!v) {
      free_decl_arg(&d);
      st = 1;
      continue;
    }
    if ((v->flags & SH_V_READONLY) && (d.has_value || (o->clear & SH_V_READONLY))) {
      sh_error(sh, "%s: readonly variable", d.name);
      free_decl_arg(&d);
      st = 1;
      continue;
    }
    /* type changes */
    if ((o->clear & (SH_V_ARRAY | SH_V_ASSOC)) && (v->flags & (SH_V_ARRAY | SH_V_ASSOC))) {
      sh_error(sh, "%s: %s: cannot destroy array variables in this way", bname, d.name);
      free_decl_arg(&d);
      st = 1;
      continue;
    }
    if ((o->set & SH_V_ASSOC) && (v->flags & SH_V_ARRAY) && !(v->flags & SH_V_UNSET) && v->arr && v->arr->n) {
      sh_error(sh, "%s: %s: cannot convert indexed to associative array", bname, d.name);
      free_decl_arg(&d);
      st = 1;
      continue;
    }
    if ((o->set & SH_V_ARRAY) && (v->flags & SH_V_ASSOC)) {
      sh_error(sh, "%s: %s: cannot convert associative to indexed array", bname, d.name);
      free_decl_arg(&d);
      st = 1;
      continue;
    }
    /* readonly/export -a NAME without a value leave an unset NAME a scalar (bash) */
    bool untyped = (!strcmp(bname, "readonly") || !strcmp(bname, "export")) && !d.has_value && !as &&
                   (v->flags & SH_V_UNSET);
    if ((o->set & SH_V_ASSOC) && !untyped) sh_var_make_assoc(v);
    else if ((o->set & SH_V_ARRAY) && !untyped) sh_var_make_array(v);
    uint32_t keep_unset = v->flags & SH_V_UNSET;
    if (o->set & SH_V_NAMEREF) {
      if (d.has_value && !sh_is_name(d.value) && !strchr(d.value, '[')) {
        sh_error(sh, "%s: `%s': invalid variable name for name reference", bname, d.value);
        free_decl_arg(&d);
        st = 1;
        continue;
      }
      if (d.has_value && !strcmp(d.value, d.name)) {
        sh_error(sh, "%s: %s: nameref variable self references not allowed", bname, d.name);
        free_decl_arg(&d);
        st = 1;
        continue;
      }
    }
    v->flags |= o->set & ~(SH_V_READONLY | SH_V_ARRAY | SH_V_ASSOC);
    v->flags &= ~(o->clear & ~(SH_V_ARRAY | SH_V_ASSOC));
    if ((o->set | o->clear) & SH_V_EXPORT) /* export SHELLOPTS: a computed variable */
      sh_var_special_export(sh, d.name, (o->set & SH_V_EXPORT) != 0);
    if (o->set & SH_V_UPPER) v->flags &= ~SH_V_LOWER;
    if (o->set & SH_V_LOWER) v->flags &= ~SH_V_UPPER;
    v->flags = (v->flags & ~SH_V_UNSET) | keep_unset;
    if (as && as->value && as->value->parts && as->value->parts->kind == SH_PART_ARRAY) {
      int flags = make_local ? SH_SET_LOCAL : 0;
      if (o->global) flags = 0;
      if (sh_apply_assign(sh, as, flags)) st = 1;
    } else if (d.has_value) {
      int rc;
      if (v->flags & SH_V_NAMEREF) {
        free(v->str);
        v->str = sh_xstrdup(d.value);
        v->flags &= ~SH_V_UNSET;
        rc = 0;
      } else if (d.sub) {
        if (v->flags & SH_V_ASSOC) {
          rc = sh_var_set_key(sh, v, d.sub, d.value, d.append);
        } else {
          int64_t idx;
          rc = sh_arith_eval(sh, d.sub, &idx) ? 1 : sh_var_set_index(sh, v, idx, d.value, d.append);
        }
      } else if ((v->flags & (SH_V_ARRAY | SH_V_ASSOC)) &&
                 (rc = assign_array_text(sh, d.name, d.append, d.value,
                                         o->global ? 0 : make_local ? SH_SET_LOCAL : 0)) >= 0) {
        /* declare -a "a=(x y)": an array literal after all */
      } else {
        if ((v->flags & (SH_V_ARRAY | SH_V_ASSOC)) && !d.append) {
          /* declare -a a=x: element 0 */
          rc = (v->flags & SH_V_ASSOC) ? sh_var_set_key(sh, v, "0", d.value, false)
                                       : sh_var_set_index(sh, v, 0, d.value, false);
        } else {
          rc = sh_var_assign(sh, v, d.value, d.append);
        }
      }
      if (rc) st = 1;
    } else if ((v->flags & SH_V_INTEGER) && v->str && !(v->flags & SH_V_UNSET) && (o->set & SH_V_INTEGER)) {
      /* re-evaluate under the new attribute: bash keeps the string */
    }
    if ((v->flags & (SH_V_UPPER | SH_V_LOWER)) && v->str && (o->set & (SH_V_UPPER | SH_V_LOWER))) {
      for (char *c = v->str; *c; c++) {
        if ((v->flags & SH_V_UPPER) && *c >= 'a' && *c <= 'z') *c = (char)(*c - 32);
        if ((v->flags & SH_V_LOWER) && *c >= 'A' && *c <= 'Z') *c = (char)(*c + 32);
      }
    }
    if (o->set & SH_V_READONLY) v->flags |= SH_V_READONLY;
    free_decl_arg(&d);
  }
  return st;
}

static int print_vars_filtered(sh_shell *sh, uint32_t need, bool all_attrs) {
  size_t n;
  const char **names = sh_vars_names(sh, &n);
  for (size_t k = 0; k < n; k++) {
    sh_var *v = sh_var_find_noref(sh, names[k]);
    if (!v) continue;
    if (need && (v->flags & need) != need) continue;
    if (!all_attrs && !need && (v->flags & SH_V_UNSET) && !(v->flags & (SH_V_ARRAY | SH_V_ASSOC))) {
      /* declare -p shows declared-but-unset variables too */
    }
    print_var(sh, v);
  }
  free(names);
  return 0;
}

static void print_all_vars(sh_shell *sh);

static int declare_main(sh_shell *sh, int argc, char **argv, bool local) {
  decl_opts o = {0};
  const char *bname = argv[0];
  if (local && sh->fn_depth == 0) {
    sh_error(sh, "local: can only be used in a function");
    return 1;
  }
  int i = parse_decl_opts(sh, bname, argc, argv, &o, "aAfFgilnprtuxcI");
  if (i < 0) return 2;
  if (o.funcs || o.func_names) {
    if (o.print || i >= argc || !(o.set || o.clear)) return print_funcs(sh, argc, argv, i, o.func_names, func_attr_bits(o.set));
  }
  if (o.print || (i >= argc && !o.set && !o.clear)) {
    if (i >= argc) {
      if (!o.print && !local) {
        /* `declare` alone: all variables as name=value */
        print_all_vars(sh);
        return 0;
      }
      if (local) {
        size_t n;
        const char **names = sh_vars_names(sh, &n);
        for (size_t k = 0; k < n; k++) {
          sh_var *v = sh_var_find_noref(sh, names[k]);
          if (v && v->level == sh->local_scope && sh->local_scope > 0) print_var(sh, v);
        }
        free(names);
        return 0;
      }
      return print_vars_filtered(sh, o.set, true);
    }
    int st = 0;
    for (; i < argc; i++) {
      sh_var *v = sh_var_find_noref(sh, argv[i]);
      if (!v) {
        sh_error(sh, "%s: %s: not found", bname, argv[i]);
        st = 1;
        continue;
      }
      print_var(sh, v);
    }
    return st;
  }
  if (i >= argc && o.set && !o.clear && !local && (!strcmp(bname, "declare") || !strcmp(bname, "typeset")))
    return print_vars_filtered(sh, o.set, true); /* declare -a: the arrays, declare -x: the exported... */
  bool make_local = local || (!o.global && sh->fn_depth > 0 && strcmp(bname, "export") != 0);
  /* `E=x local v` or `IFS= eval 'local v=1'`: the locals belong to the function,
   * not to the temporary scope of the prefix assignments (bash). Only when no
   * name is bound in that temporary scope: a scope's variables stay on top. */
  int saved_scope = sh->local_scope;
  if (make_local && sh->func_scope > 0 && sh->local_scope > sh->func_scope) {
    bool clash = false;
    for (int k = i; k < argc && !clash; k++) {
      size_t n = strcspn(argv[k], "=[+");
      char name[256];
      if (n >= sizeof name) continue;
      memcpy(name, argv[k], n);
      name[n] = 0;
      sh_var *top = sh_var_find_noref(sh, name);
      clash = top && top->level > sh->func_scope;
    }
    if (!clash) sh->local_scope = sh->func_scope;
  }
  int st = declare_core(sh, bname, argc, argv, &o, i, make_local);
  sh->local_scope = saved_scope;
  return st;
}

int sh_bi_declare(sh_shell *sh, int argc, char **argv) { return declare_main(sh, argc, argv, false); }
int sh_bi_local(sh_shell *sh, int argc, char **argv) { return declare_main(sh, argc, argv, true); }

/* export and readonly with no names: every variable with the attribute,
 * as declare -p prints it. */
static void print_vars_with(sh_shell *sh, uint32_t attr) {
  size_t n;
  const char **names = sh_vars_names(sh, &n);
  for (size_t k = 0; k < n; k++) {
    sh_var *v = sh_var_find_noref(sh, names[k]);
    if (v && (v->flags & attr)) print_var(sh, v);
  }
  free(names);
}

int sh_bi_export(sh_shell *sh, int argc, char **argv) {
  decl_opts o = {0};
  int i = parse_decl_opts(sh, "export", argc, argv, &o, "aAfnp");
  if (i < 0) return 2;
  bool unexport = false;
  for (int k = 1; k < i; k++)
    if (strchr(argv[k], 'n')) unexport = true;
  if (i >= argc && o.funcs && !unexport) return print_funcs(sh, argc, argv, i, false, 1);
  if (i >= argc) {
    print_vars_with(sh, SH_V_EXPORT);
    return 0;
  }
  o.print = false;
  if (unexport) {
    o.set &= ~SH_V_NAMEREF; /* export -n: not declare's -n */
    o.clear |= SH_V_EXPORT;
  } else {
    o.set |= SH_V_EXPORT;
  }
  return declare_core(sh, "export", argc, argv, &o, i, false);
}

int sh_bi_readonly(sh_shell *sh, int argc, char **argv) {
  decl_opts o = {0};
  int i = parse_decl_opts(sh, "readonly", argc, argv, &o, "aAfnp");
  if (i < 0) return 2;
  if (i >= argc && o.funcs) return print_funcs(sh, argc, argv, i, false, 2);
  if (i >= argc) {
    print_vars_with(sh, SH_V_READONLY);
    return 0;
  }
  o.print = false;
  o.set |= SH_V_READONLY;
  return declare_core(sh, "readonly", argc, argv, &o, i, false);
}

int sh_bi_unset(sh_shell *sh, int argc, char **argv) {
  bool on[3] = {0};
  int i = sh_bi_options(sh, "unset", argc, argv, "fvn", on);
  if (i < 0) return 2;
  bool funcs = on[0], vars = on[1], ref = on[2];
  if (funcs && vars) {
    sh_error(sh, "unset: cannot simultaneously unset a function and a variable");
    return 1;
  }
  int st = 0;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (funcs) {
      sh_func_unset(sh, a);
      continue;
    }
    const char *br = strchr(a, '[');
    if (br && a[strlen(a) - 1] == ']') {
      char *name = sh_xstrndup(a, (size_t)(br - a));
      char *sub = sh_xstrndup(br + 1, strlen(br + 1) - 1);
      sh_var *v = sh_var_find(sh, name);
      if (!sh_is_name(name)) {
        sh_error(sh, "unset: `%s': not a valid identifier", a);
        st = 1;
      } else if (v) {
        if (!strcmp(sub, "@") || !strcmp(sub, "*")) {
          if (sh_var_unset(sh, name, false)) st = 1;
        } else if (v->flags & SH_V_ASSOC) {
          char *k = sh_expand_subscript(sh, sub);
          if (!k || sh_var_unset_key(sh, v, k)) st = 1;
          free(k);
        } else {
          int64_t idx;
          char *t = sh_expand_arith_text(sh, sub);
          if (!t || sh_arith_eval(sh, t, &idx)) {
            st = 1;
          } else if (!(v->flags & SH_V_ARRAY)) {
            /* a scalar is element 0: unset x[0] unsets x, x[1] is an error (bash) */
            if (idx == 0 && !(v->flags & SH_V_UNSET)) {
              if (sh_var_unset(sh, name, false)) st = 1;
            } else if (idx != 0) {
              sh_error(sh, "unset: %s: not an array variable", name);
              st = 1;
            }
          } else if (sh_var_unset_index(sh, v, idx)) {
            st = 1;
          }
          free(t);
        }
      }
      free(name);
      free(sub);
      continue;
    }
    if (!sh_is_name(a)) {
      sh_error(sh, "unset: `%s': not a valid identifier", a);
      st = 1;
      continue;
    }
    sh_var *v = sh_var_find_noref(sh, a);
    if (v || vars || ref) {
      if (sh_var_unset(sh, a, ref)) st = 1;
    } else if (sh_func_get(sh, a)) {
      sh_func_unset(sh, a);
    } else {
      sh_var_unset(sh, a, false);
    }
  }
  return st;
}

/* ---- set and shopt --------------------------------------------------------------------------------- */

static int set_option_letter(sh_shell *sh, char c, bool on) {
  for (int i = 0; i < SH_SET_COUNT; i++)
    if (sh_optinfo_table[i].letter == c) {
      sh->opt[i] = on;
      return 0;
    }
  return -1;
}

/* Every set variable as name=value (arrays as name=(...)), for `declare`
 * alone and `set` alone; `set` (`bare_when_plain`) leaves a value of only
 * name chars and -./:@%+, unquoted, `declare` quotes every one. */
static void print_all_vars(sh_shell *sh) {
  size_t n;
  const char **names = sh_vars_names(sh, &n);
  for (size_t k = 0; k < n; k++) {
    sh_var *v = sh_var_find_noref(sh, names[k]);
    if (!v || (v->flags & SH_V_UNSET)) continue;
    if (v->flags & (SH_V_ARRAY | SH_V_ASSOC)) {
      char *s = sh_declare_print(sh, v, false);
      const char *sp = strchr(s, ' ');
      sp = sp ? strchr(sp + 1, ' ') : NULL;
      sh_printf_fd(sh, 1, "%s\n", sp ? sp + 1 : s);
      free(s);
    } else if (v->str) {
      /* as bash 5.2's set and declare: bare unless it holds shell
       * metacharacters, then $'...' for control characters, else '...' */
      char *q = needs_ansic(v->str) ? sh_quote(v->str, true)
                : has_shell_metas(v->str) ? sh_quote_single(v->str) : NULL;
      sh_printf_fd(sh, 1, "%s=%s\n", v->name, q ? q : v->str);
      free(q);
    }
  }
  free(names);
}

int sh_bi_set(sh_shell *sh, int argc, char **argv) {
  if (argc == 1) {
    print_all_vars(sh);
    return 0;
  }
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      goto params;
    }
    if (!strcmp(a, "-")) {
      sh->opt[SH_OPT_XTRACE] = sh->opt[SH_OPT_VERBOSE] = false;
      i++;
      if (i < argc) goto params;
      return 0;
    }
    if (!strcmp(a, "+")) continue; /* a lone + is ignored */
    if ((a[0] != '-' && a[0] != '+') || !a[1]) break;
    bool on = a[0] == '-';
    for (const char *c = a + 1; *c; c++) {
      if (*c == 'o') {
        if (i + 1 >= argc || argv[i + 1][0] == '-' || argv[i + 1][0] == '+') {
          /* print options */
          for (int k = 0; k < SH_SET_COUNT; k++) {
            if (on) sh_printf_fd(sh, 1, "%-15s\t%s\n", sh_optinfo_table[k].name, sh->opt[k] ? "on" : "off");
            else sh_printf_fd(sh, 1, "set %co %s\n", sh->opt[k] ? '-' : '+', sh_optinfo_table[k].name);
          }
          continue;
        }
        const char *name = argv[++i];
        int k = sh_opt_find(name, false);
        if (k < 0) {
          sh_error(sh, "set: %s: invalid option name", name);
          return 2;
        }
        sh->opt[k] = on;
        if (k == SH_OPT_VI && on) sh->opt[SH_OPT_EMACS] = false;
        if (k == SH_OPT_EMACS && on) sh->opt[SH_OPT_VI] = false;
        continue;
      }
      if (*c == 'r') {
        /* restricted mode: on for good (bash) */
        if (on) {
          sh_set_restricted(sh);
        } else if (sh->opt[SH_SHOPT_RESTRICTED_SHELL]) {
          sh_error(sh, "set: +r: invalid option");
          sh_bi_usage(sh, "set");
          return 1;
        }
        continue;
      }
      if (set_option_letter(sh, *c, on) < 0) {
        if (*c == 'i' || *c == 's' || *c == 'c' || *c == 'l' || *c == 'r') {
          sh_error(sh, "set: %c%c: invalid option", a[0], *c);
          return 2;
        }
        sh_error(sh, "set: %c%c: invalid option", a[0], *c);
        sh_bi_usage(sh, "set");
        return 2;
      }
    }
  }
  if (i >= argc) return 0;
params:
  sh_strv_free(&sh->params);
  for (; i < argc; i++) sh_strv_pushdup(&sh->params, argv[i]);
  return 0;
}

int sh_bi_shopt(sh_shell *sh, int argc, char **argv) {
  int mode = 0; /* 's' 'u' or 0 */
  bool quiet = false, print = false, oflag = false;
  sh_bi_getopt g = SH_BI_GETOPT("shopt", "suqpo");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    switch (c) {
    case 's': case 'u': mode = c; break;
    case 'q': quiet = true; break;
    case 'p': print = true; break;
    case 'o': oflag = true; break;
    }
  }
  if (c < 0) return 2;
  int i = g.i;
  int lo = oflag ? 0 : SH_SHOPT_FIRST, hi = oflag ? SH_SET_COUNT : SH_OPT_COUNT;
  /* shopt's interactive_comments is set -o interactive-comments */
  sh->opt[SH_SHOPT_INTERACTIVE_COMMENTS] = sh->opt[SH_OPT_INTERACTIVE_COMMENTS];
  /* one line for option k in the requested format */
#define SHOPT_LINE(k)                                                                        \
  do {                                                                                       \
    if (print || mode) {                                                                     \
      if (oflag) sh_printf_fd(sh, 1, "set %co %s\n", sh->opt[k] ? '-' : '+', sh_optinfo_table[k].name); \
      else sh_printf_fd(sh, 1, "shopt -%c %s\n", sh->opt[k] ? 's' : 'u', sh_optinfo_table[k].name); \
    } else {                                                                                 \
      sh_printf_fd(sh, 1, "%-15s\t%s\n", sh_optinfo_table[k].name, sh->opt[k] ? "on" : "off"); \
    }                                                                                        \
  } while (0)
  if (i >= argc) {
    if (quiet) return 0;
    for (int k = lo; k < hi; k++) {
      if (!sh_optinfo_table[k].name) continue;
      if (mode == 's' && !sh->opt[k]) continue;
      if (mode == 'u' && sh->opt[k]) continue;
      SHOPT_LINE(k);
    }
    return 0;
  }
  int st = 0;
  for (; i < argc; i++) {
    int k = sh_opt_find(argv[i], !oflag);
    if (k < 0) {
      sh_error(sh, "shopt: %s: invalid %s name", argv[i], oflag ? "option" : "shell option");
      st = 1;
      continue;
    }
    if (k == SH_SHOPT_INTERACTIVE_COMMENTS && mode) sh->opt[SH_OPT_INTERACTIVE_COMMENTS] = mode == 's';
    if (mode == 's') sh->opt[k] = true;
    else if (mode == 'u') sh->opt[k] = false;
    else {
      if (!sh->opt[k]) st = st ? st : 1;
      if (!quiet) SHOPT_LINE(k);
    }
  }
#undef SHOPT_LINE
  return st;
}

/* ---- read ------------------------------------------------------------------------------------------- */

/* read_record's loop over `in`. */
static int read_record_in(sh_byte_in *in, int delim, long nchars, bool raw, bool exact, sh_buf *out,
                          sh_buf *quoted) {
  sh_shell *sh = in->sh;
  char c;
  long count = 0;
  for (;;) {
    if (nchars >= 0 && count >= nchars) return 1;
    ssize_t r = sh_byte_in_next(in, &c);
    if (r < 0) return (int)r;
    if (r == 0) return 0;
    if (sh_poll(sh)) return -EINTR;
    if (!exact && (unsigned char)c == (unsigned char)delim && delim != -1) return 1;
    if (!raw && !exact && c == '\\') {
      ssize_t r2 = sh_byte_in_next(in, &c);
      if (r2 <= 0) return 0;
      if (c == '\n') continue; /* backslash-newline is removed whatever the delimiter */
      sh_buf_addc(out, c);
      sh_buf_addc(quoted, 1);
      count++;
      continue;
    }
    if (c == 0 && delim != 0) continue; /* bash drops NUL bytes */
    sh_buf_addc(out, c);
    sh_buf_addc(quoted, 0);
    count++;
    if (out->len > sh->sess->limits.string_size) {
      sh_limit_hit(sh, SH_LIMIT_STRING, sh->sess->limits.string_size);
      return -EFBIG;
    }
  }
}

/* Reads up to the delimiter (not included). Returns 1 if the delimiter was
 * seen, 0 at EOF, -errno on error. nchars > 0: stop after that many chars. */
static int read_record(sh_shell *sh, int fd, int delim, long nchars, bool raw, bool exact, sh_buf *out,
                       sh_buf *quoted) {
  sh_byte_in *in = sh_byte_in_new(sh, fd);
  int rc = read_record_in(in, delim, nchars, raw, exact, out, quoted);
  free(in);
  return rc;
}

static bool in_ifs(const char *ifs, char c) { return c && strchr(ifs, c) != NULL; }
static bool ifs_ws(char c) { return c == ' ' || c == '\t' || c == '\n'; }

int sh_bi_read(sh_shell *sh, int argc, char **argv) {
  bool raw = false, silent = false;
  const char *arr = NULL, *prompt = NULL;
  int delim = '\n';
  long nchars = -1;
  bool exact = false, timeout_zero = false;
  int fd = 0;
  sh_bi_getopt g = SH_BI_GETOPT("read", "rsea:d:n:N:p:t:i:u:");
  int c;
  while ((c = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    const char *optarg = g.arg;
    switch (c) {
    case 'r': raw = true; break;
    case 's': silent = true; break;
    case 'e': break;
    case 'a': arr = optarg; break;
    case 'd': delim = optarg[0] ? (unsigned char)optarg[0] : 0; break;
    case 'n': case 'N': {
      char *end;
      nchars = strtol(optarg, &end, 10);
      if (*end || nchars < 0) {
        sh_error(sh, "read: %s: invalid number", optarg);
        return 1;
      }
      exact = c == 'N';
      break;
    }
    case 'p': prompt = optarg; break;
    case 't': {
      char *end;
      double t = strtod(optarg, &end);
      if (*end || t < 0) {
        sh_error(sh, "read: %s: invalid timeout specification", optarg);
        return 1;
      }
      timeout_zero = t == 0;
      break;
    }
    case 'i': break;
    case 'u': {
      char *end;
      long v = strtol(optarg, &end, 10);
      if (*end || v < 0) {
        sh_error(sh, "read: %s: invalid file descriptor specification", optarg);
        return 1;
      }
      fd = (int)v;
      if (!sh_fd_get(sh, fd)) {
        sh_error(sh, "read: %d: invalid file descriptor: Bad file descriptor", fd);
        return 1;
      }
      break;
    }
    }
  }
  if (c < 0) return 2;
  int i = g.i;
  (void)silent;
  for (int k = i; k < argc; k++) {
    if (!sh_is_name(argv[k])) {
      sh_error(sh, "read: `%s': not a valid identifier", argv[k]);
      return 1;
    }
  }
  /* -p shows the prompt only on a terminal, and the sandbox has none */
  (void)prompt;
  if (timeout_zero) {
    /* read -t 0: is input available? It is (or EOF is) on an open
     * descriptor; nothing is read. A closed one fails (bash) */
    return sh_fd_get(sh, fd) ? 0 : 1;
  }
  sh_buf line = {0}, q = {0};
  int r = read_record(sh, fd, delim, nchars, raw, exact, &line, &q);
  if (r < 0 && r != -EINTR) {
    if (r == -EBADF) sh_error(sh, "read: read error: %d: Bad file descriptor", fd);
    else if (r == -EISDIR) sh_error(sh, "read: read error: %d: Is a directory", fd);
    sh_buf_free(&line);
    sh_buf_free(&q);
    return 1;
  }
  int status = r == 1 ? 0 : 1;
  const char *s = sh_buf_str(&line);
  const char *qs = q.data ? q.data : "";
  size_t n = line.len;
  const char *ifs = sh_var_get(sh, "IFS");
  sh_var *ifsv = sh_var_find(sh, "IFS");
  if (!ifsv || !sh_var_isset(ifsv)) ifs = " \t\n";
  if (!ifs) ifs = "";
  sh_strv fields = {0};
  int nvars = arr ? -1 : (argc - i);
  if (exact && !arr && nvars > 0) {
    /* read -N: the characters go to the first variable unsplit */
    for (int k = 0; k < nvars; k++)
      if (sh_var_set(sh, argv[i + k], k ? "" : s, 0)) status = 1;
    goto done;
  }
  if (!arr && nvars == 0) {
    /* REPLY gets the line without IFS trimming */
    sh_var_set(sh, "REPLY", s, 0);
    goto done;
  }
  {
    size_t pos = 0;
    /* skip leading IFS whitespace */
    while (pos < n && !qs[pos] && in_ifs(ifs, s[pos]) && ifs_ws(s[pos])) pos++;
    for (;;) {
      if (pos >= n) break;
      if (nvars > 0 && (int)fields.n == nvars - 1) {
        /* the last variable: when exactly one field remains it gets that
         * field (its delimiter dropped), else the rest of the line minus
         * trailing IFS whitespace (bash's read) */
        size_t w = pos;
        while (w < n && !(in_ifs(ifs, s[w]) && !qs[w])) w++;
        size_t after = w;
        while (after < n && !qs[after] && in_ifs(ifs, s[after]) && ifs_ws(s[after])) after++;
        if (after < n && !qs[after] && in_ifs(ifs, s[after]) && !ifs_ws(s[after])) {
          after++;
          while (after < n && !qs[after] && in_ifs(ifs, s[after]) && ifs_ws(s[after])) after++;
        }
        if (after >= n) {
          sh_strv_push(&fields, sh_xstrndup(s + pos, w - pos));
          break;
        }
        size_t end = n;
        while (end > pos && !qs[end - 1] && in_ifs(ifs, s[end - 1]) && ifs_ws(s[end - 1])) end--;
        sh_strv_push(&fields, sh_xstrndup(s + pos, end - pos));
        break;
      }
      size_t start = pos;
      while (pos < n && !(in_ifs(ifs, s[pos]) && !qs[pos])) pos++;
      sh_strv_push(&fields, sh_xstrndup(s + start, pos - start));
      if (pos >= n) break;
      /* consume the delimiter: whitespace run, at most one non-ws char, whitespace run */
      while (pos < n && !qs[pos] && in_ifs(ifs, s[pos]) && ifs_ws(s[pos])) pos++;
      if (pos < n && !qs[pos] && in_ifs(ifs, s[pos]) && !ifs_ws(s[pos])) {
        pos++;
        while (pos < n && !qs[pos] && in_ifs(ifs, s[pos]) && ifs_ws(s[pos])) pos++;
        if (pos >= n && (nvars < 0 || (int)fields.n < nvars)) {
          /* "a," with IFS=, gives an empty last field only for arrays? no: nothing */
        }
      }
    }
  }
  if (arr) {
    int err;
    sh_var *v = sh_var_get_for_write(sh, arr, 0, &err);
    if (!v) {
      status = 1;
      goto done;
    }
    if (v->flags & SH_V_ASSOC) {
      sh_error(sh, "read: %s: cannot convert associative to indexed array", arr);
      status = 1;
      goto done;
    }
    sh_var_reset_indexed(v);
    v->flags &= ~SH_V_UNSET;
    for (size_t k = 0; k < fields.n; k++) sh_var_set_index(sh, v, (int64_t)k, fields.v[k], false);
  } else {
    for (int k = 0; k < nvars; k++) {
      const char *val = (size_t)k < fields.n ? fields.v[k] : "";
      if (sh_var_set(sh, argv[i + k], val, 0)) status = 1;
    }
  }
done:
  sh_strv_free(&fields);
  sh_buf_free(&line);
  sh_buf_free(&q);
  return status;
}

/* mapfile's -n -O -s -c arguments as bash takes them: a decimal number
 * (blanks around it allowed) from min to UINT_MAX, else false. */
static bool mapfile_number(const char *s, long min, long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  while (*end == ' ' || *end == '\t' || *end == '\n') end++;
  if (end == s || *end || errno == ERANGE || v < min || v > (long long)UINT32_MAX) return false;
  *out = (long)v;
  return true;
}

int sh_bi_mapfile(sh_shell *sh, int argc, char **argv) {
  int delim = '\n';
  long count = 0, origin = 0, skip = 0;
  bool trim = false, have_origin = false;
  int fd = 0;
  const char *name = "MAPFILE";
  const char *callback = NULL;
  long quantum = 5000;
  sh_bi_getopt g = SH_BI_GETOPT(argv[0], "d:n:O:s:u:tC:c:");
  int o;
  while ((o = sh_bi_getopt_next(sh, &g, argc, argv)) > 0) {
    const char *optarg = g.arg;
    switch (o) {
    case 'd': delim = optarg[0] ? (unsigned char)optarg[0] : 0; break;
    case 'n':
    case 's':
      if (!mapfile_number(optarg, 0, o == 'n' ? &count : &skip)) {
        sh_error(sh, "%s: %s: invalid line count", argv[0], optarg);
        return 1;
      }
      break;
    case 'O':
      if (!mapfile_number(optarg, 0, &origin)) {
        sh_error(sh, "%s: %s: invalid array origin", argv[0], optarg);
        return 1;
      }
      have_origin = true;
      break;
    case 'u': {
      long v;
      if (!mapfile_number(optarg, 0, &v) || v > INT_MAX) {
        sh_error(sh, "%s: %s: invalid file descriptor specification", argv[0], optarg);
        return 1;
      }
      fd = (int)v;
      break;
    }
    case 't': trim = true; break;
    case 'C': callback = optarg; break;
    case 'c':
      if (!mapfile_number(optarg, 1, &quantum)) {
        sh_error(sh, "%s: %s: invalid callback quantum", argv[0], optarg);
        return 1;
      }
      break;
    }
  }
  if (o < 0) return 2;
  if (g.i < argc) name = argv[g.i];
  if (!sh_is_name(name)) {
    sh_error(sh, "%s: `%s': not a valid identifier", argv[0], name);
    return 1;
  }
  if (!sh_fd_get(sh, fd)) {
    sh_error(sh, "%s: %d: invalid file descriptor: Bad file descriptor", argv[0], fd);
    return 1;
  }
  int err;
  sh_var *v = sh_var_get_for_write(sh, name, 0, &err);
  if (!v) return 1;
  if (!have_origin) sh_var_reset_indexed(v);
  sh_var_make_array(v);
  v->flags &= ~SH_V_UNSET;
  int64_t idx = origin;
  long got = 0, line_no = 0;
  sh_byte_in *in = sh_byte_in_new(sh, fd);
  int status = 0;
  for (;;) {
    if (count && got >= count) break;
    sh_buf line = {0};
    bool saw_delim = false;
    char c;
    ssize_t r;
    while ((r = sh_byte_in_next(in, &c)) == 1) {
      if ((unsigned char)c == (unsigned char)delim) {
        saw_delim = true;
        break;
      }
      sh_buf_addc(&line, c);
      if (line.len > sh->sess->limits.string_size) break;
    }
    if (!saw_delim && line.len == 0) {
      sh_buf_free(&line);
      break;
    }
    if (sh_poll(sh)) {
      sh_buf_free(&line);
      status = 126;
      break;
    }
    line_no++;
    if (line_no <= skip) {
      sh_buf_free(&line);
      continue;
    }
    if (saw_delim && !trim) sh_buf_addc(&line, (char)delim);
    if (callback && quantum > 0 && (got + 1) % quantum == 0) {
      /* -C: every quantum-th line, `callback INDEX LINE` before the assignment */
      char *q = sh_quote_single(sh_buf_str(&line));
      char *cmd = sh_xasprintf("%s %" PRId64 " %s", callback, idx, q);
      sh_eval_string(sh, cmd, strlen(cmd), "mapfile", 1);
      free(q);
      free(cmd);
      if (sh->flow != SH_FLOW_NONE) {
        sh_buf_free(&line);
        break;
      }
    }
    int set = sh_var_set_index(sh, v, idx, sh_buf_str(&line), false);
    idx = sh_index_add(idx, 1);
    if (set) {
      sh_buf_free(&line);
      status = 1;
      break;
    }
    sh_buf_free(&line);
    got++;
    if (!saw_delim) break;
  }
  free(in);
  return status;
}

/* ---- getopts ------------------------------------------------------------------------------------------ */

int sh_bi_getopts(sh_shell *sh, int argc, char **argv) {
  /* getopts takes no options of its own: -- is skipped, -x is an error */
  if (argc > 1 && argv[1][0] == '-' && argv[1][1]) {
    if (strcmp(argv[1], "--")) {
      sh_error(sh, "getopts: -%c: invalid option", argv[1][1]);
      sh_bi_usage(sh, "getopts");
      return 2;
    }
    argv++;
    argc--;
  }
  if (argc < 3) {
    sh_bi_usage(sh, "getopts");
    return 2;
  }
  const char *optstring = argv[1];
  const char *name = argv[2];
  bool silent = optstring[0] == ':';
  if (silent) optstring++;
  const char *opterr_v = sh_var_get(sh, "OPTERR");
  if (opterr_v && !strcmp(opterr_v, "0")) silent = true;
  char **args;
  int nargs;
  if (argc > 3) {
    args = argv + 3;
    nargs = argc - 3;
  } else {
    args = sh->params.v;
    nargs = (int)sh->params.n;
  }
  const char *oi = sh_var_get(sh, "OPTIND");
  int64_t optind = 1;
  if (oi) sh_arith_parse_int(oi, &optind);
  if (optind < 1) optind = 1;
  /* a reset of OPTIND resets the cluster position */
  static _Thread_local int64_t last_optind = -1;
  if (optind != last_optind) sh->getopts_pos = 0;
  int pos = sh->getopts_pos;
  char buf[32];
  if (optind > nargs) {
    /* past the arguments (a new list, OPTIND not reset): bash ends there */
    if (optind > nargs + 1) optind = nargs + 1;
    goto end;
  }
  const char *arg = args[optind - 1];
  if (pos == 0) {
    if (arg[0] != '-' || !arg[1]) goto end;
    if (!strcmp(arg, "--")) {
      optind++;
      goto end;
    }
    pos = 1;
  }
  {
    char c = arg[pos];
    const char letter[2] = {c, 0}; /* the option, as a string */
    const char *spec = c != ':' ? strchr(optstring, c) : NULL;
    pos++;
    bool last = arg[pos] == 0;
    if (!spec) {
      if (last) {
        optind++;
        pos = 0;
      }
      if (silent) {
        sh_var_set(sh, "OPTARG", letter, 0);
      } else {
        sh_errorf_raw(sh, "%s: illegal option -- %c\n", sh->arg0 ? sh->arg0 : "bash", c); /* bash: $0, no line */
        sh_var_unset(sh, "OPTARG", false);
      }
      sh_var_set(sh, name, "?", 0);
    } else if (spec[1] == ':') {
      if (!last) {
        sh_var_set(sh, "OPTARG", arg + pos, 0);
        optind++;
        pos = 0;
        sh_var_set(sh, name, letter, 0);
      } else if (optind < nargs) {
        sh_var_set(sh, "OPTARG", args[optind], 0);
        optind += 2;
        pos = 0;
        sh_var_set(sh, name, letter, 0);
      } else {
        optind++;
        pos = 0;
        if (silent) {
          sh_var_set(sh, "OPTARG", letter, 0);
          sh_var_set(sh, name, ":", 0);
        } else {
          sh_errorf_raw(sh, "%s: option requires an argument -- %c\n", sh->arg0 ? sh->arg0 : "bash", c);
          sh_var_unset(sh, "OPTARG", false);
          sh_var_set(sh, name, "?", 0);
        }
      }
    } else {
      if (last) {
        optind++;
        pos = 0;
      }
      sh_var_set(sh, name, letter, 0);
      sh_var_unset(sh, "OPTARG", false);
    }
  }
  sh->getopts_pos = pos;
  snprintf(buf, sizeof buf, "%" PRId64, optind);
  sh_var_set(sh, "OPTIND", buf, 0);
  last_optind = optind;
  if (!sh_is_name(name)) {
    sh_error(sh, "getopts: `%s': not a valid identifier", name);
    return 1;
  }
  return 0;
end:
  sh->getopts_pos = 0;
  snprintf(buf, sizeof buf, "%" PRId64, optind);
  sh_var_set(sh, "OPTIND", buf, 0);
  last_optind = optind;
  sh_var_unset(sh, "OPTARG", false);
  if (sh_is_name(name)) sh_var_set(sh, name, "?", 0);
  return 1;
}
