/*
 * vars.h - shell variables: scalars, indexed arrays (sparse), associative
 * arrays, attributes (export, readonly, integer, nameref, case), dynamic
 * scoping for `local`, and the special variables computed on access.
 *
 * Storage: a hash table from name to the innermost sh_var; a `local` pushes a
 * new sh_var whose `shadow` is the outer one, and returning from the function
 * pops every variable of its level. A copy of the table (subshells) is deep.
 *
 * Strings are NUL-terminated (a shell value cannot hold NUL, as in bash).
 */
#ifndef SBX_SH_VARS_H
#define SBX_SH_VARS_H

#include "sh/sh.h"

#define SH_V_EXPORT 0x001
#define SH_V_READONLY 0x002
#define SH_V_INTEGER 0x004
#define SH_V_ARRAY 0x008
#define SH_V_ASSOC 0x010
#define SH_V_NAMEREF 0x020
#define SH_V_LOWER 0x040
#define SH_V_UPPER 0x080
#define SH_V_CAPITAL 0x100
#define SH_V_TRACE 0x200
#define SH_V_UNSET 0x400   /* declared (or local) without a value */
#define SH_V_TEMP 0x800    /* a prefix assignment (x=1 cmd) */
#define SH_V_CALLTEMP 0x1000 /* a prefix assignment of a function call (x=1 f): `local x`
                              * in f takes the cell over, as bash merges it into f's scope */

typedef struct sh_array {
  int64_t *idx;  /* indices, ascending */
  char **val;    /* values (owned) */
  size_t n, cap;
} sh_array;

/* Associative arrays keep bash's hash layout (hashlib.c: FNV-1, 1024
 * buckets growing 4x at 2 entries per bucket, newest first in a bucket), so
 * ${!a[@]} lists keys in exactly bash's order. */
typedef struct sh_assoc_ent {
  char *key, *val;              /* owned */
  uint32_t hash;
  struct sh_assoc_ent *next;    /* next in the bucket */
} sh_assoc_ent;

typedef struct sh_assoc {
  sh_assoc_ent **b;  /* buckets */
  size_t nb;         /* bucket count (power of two) */
  size_t live;       /* entries */
} sh_assoc;

struct sh_var {
  char *name;       /* owned */
  uint32_t flags;   /* SH_V_* */
  int level;        /* scope: 0 global, n = function depth of the local */
  char *str;        /* scalar value (owned), NULL if unset or an array */
  sh_array *arr;    /* SH_V_ARRAY */
  sh_assoc *assoc;  /* SH_V_ASSOC */
  sh_var *shadow;   /* the variable this local hides */
  sh_var *hnext;    /* next in the hash bucket (top-level entries only) */
};

sh_vars *sh_vars_new(void);
sh_vars *sh_vars_copy(const sh_vars *v);
void sh_vars_free(sh_vars *v);

/* Lookups. `find` follows namerefs; NULL if no such variable. */
sh_var *sh_var_find(sh_shell *sh, const char *name);
sh_var *sh_var_find_noref(sh_shell *sh, const char *name);
/* The name a nameref chain ends at (static buffer in sh; may contain [sub]). */
const char *sh_var_resolve(sh_shell *sh, const char *name);
/* Scalar value (element 0 / key "0" of arrays), NULL when unset. */
const char *sh_var_get(sh_shell *sh, const char *name);
bool sh_var_isset(sh_var *v);

/* Flags for sh_var_set. */
#define SH_SET_APPEND 0x01  /* += */
#define SH_SET_LOCAL 0x02   /* create at the current scope */
#define SH_SET_NOATTR 0x04  /* do not apply integer/case attributes */
#define SH_SET_TEMP 0x08    /* prefix assignment scope */
#define SH_SET_FORCE 0x10   /* ignore readonly (internal) */

/* Assigns a scalar (element 0 for arrays). Prints the error and returns 1 if
 * readonly or invalid; 0 on success. */
int sh_var_set(sh_shell *sh, const char *name, const char *value, int flags);
/* Creates or returns the variable at the right scope for modification. */
sh_var *sh_var_get_for_write(sh_shell *sh, const char *name, int flags, int *err);
/* Assigns a value to an existing variable object (applies attributes). */
int sh_var_assign(sh_shell *sh, sh_var *v, const char *value, bool append);
/* Array element assignment; idx may be negative (counts from the end). */
int sh_var_set_index(sh_shell *sh, sh_var *v, int64_t idx, const char *value, bool append);
/* The same at idx as it is: the next element of a list after index
 * 9223372036854775807 is at -9223372036854775808 (bash), not counted from the end. */
int sh_var_store_index(sh_shell *sh, sh_var *v, int64_t idx, const char *value, bool append);
int sh_var_set_key(sh_shell *sh, sh_var *v, const char *key, const char *value, bool append);
/* Converts a scalar variable to an indexed / associative array. */
void sh_var_make_array(sh_var *v);
void sh_var_make_assoc(sh_var *v);
void sh_var_clear_value(sh_var *v);
/* The attribute letters of v in bash's order (a subset of "aAilnrtux"),
 * NUL-terminated in out, which holds SH_VAR_ATTR_LETTERS_MAX bytes; "" when
 * it has none. Shared by declare -p (which prints "-" for none) and ${v@a}. */
#define SH_VAR_ATTR_LETTERS_MAX 10
void sh_var_attr_letters(const sh_var *v, char *out);
/* Drops v's value and makes it an empty indexed array (other attributes
 * stay; an unset v stays marked unset). */
void sh_var_reset_indexed(sh_var *v);
/* Unset: returns 0, or 1 with a message if readonly. */
int sh_var_unset(sh_shell *sh, const char *name, bool noref);
/* export/export -n of a computed variable (SHELLOPTS, RANDOM...): it goes to
 * the environment with its value at that time; false if name is none. */
bool sh_var_special_export(sh_shell *sh, const char *name, bool on);
int sh_var_unset_index(sh_shell *sh, sh_var *v, int64_t idx);
int sh_var_unset_key(sh_shell *sh, sh_var *v, const char *key);

/* Scopes. */
void sh_vars_push_scope(sh_shell *sh);
void sh_vars_pop_scope(sh_shell *sh);
/* `local name`: a variable at the current function scope (created unset). */
sh_var *sh_var_make_local(sh_shell *sh, const char *name);

/* Arrays */
const char *sh_array_get(const sh_array *a, int64_t idx);
void sh_array_set(sh_array *a, int64_t idx, char *val); /* takes val */
bool sh_array_unset(sh_array *a, int64_t idx);
int64_t sh_array_max(const sh_array *a); /* largest index, -1 when empty */
/* Index arithmetic wraps in two's complement as bash's does (no signed
 * overflow): the element after index 9223372036854775807 is at
 * -9223372036854775808, and a negative subscript counts from max + 1, so
 * a[-1] after a[9223372036854775807]=x; a+=(y) is x. */
int64_t sh_index_add(int64_t a, int64_t b);
/* The index a negative subscript idx names (max + 1 + idx); still negative
 * means "bad array subscript". */
int64_t sh_array_from_end(const sh_array *a, int64_t idx);
void sh_array_free(sh_array *a);
sh_array *sh_array_copy(const sh_array *a);
const char *sh_assoc_get(const sh_assoc *a, const char *key);
void sh_assoc_set(sh_assoc *a, const char *key, char *val); /* takes val */
bool sh_assoc_unset(sh_assoc *a, const char *key);
void sh_assoc_free(sh_assoc *a);
sh_assoc *sh_assoc_copy(const sh_assoc *a);
/* Iteration in bash's order: for (e = first(a); e; e = next(a, e)). */
sh_assoc_ent *sh_assoc_first(const sh_assoc *a);
sh_assoc_ent *sh_assoc_next(const sh_assoc *a, const sh_assoc_ent *e);

/* All values of a variable as a vector (array elements in order, or the
 * scalar); `keys` instead gives indices/keys. Caller frees with sh_strv_free. */
void sh_var_values(sh_shell *sh, sh_var *v, sh_strv *out);
void sh_var_keys(sh_shell *sh, sh_var *v, sh_strv *out);
size_t sh_var_count(sh_var *v);

/* The exported environment "K=V" (malloc'd vector). */
void sh_vars_environ(sh_shell *sh, sh_strv *out);
/* Sorted names of all visible variables (borrowed strings; free the array). */
const char **sh_vars_names(sh_shell *sh, size_t *n);

/* Special variables */
void sh_vars_init_defaults(sh_shell *sh);
/* Called when certain variables change (SECONDS, RANDOM...). */
bool sh_var_special_set(sh_shell *sh, const char *name, const char *value);
/* The value of a dynamic special (RANDOM, SECONDS, LINENO...) or NULL. The
 * result is in a buffer owned by sh (valid until the next call). */
const char *sh_var_dynamic(sh_shell *sh, const char *name);
/* Arrays computed on access: FUNCNAME, BASH_SOURCE, BASH_LINENO, PIPESTATUS. */
bool sh_var_dynamic_array(sh_shell *sh, const char *name, sh_strv *out);

#endif
