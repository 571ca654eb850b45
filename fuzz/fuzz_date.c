/*
 * fuzz_date.c - libFuzzer target for the date machinery of lib/datetime: GNU
 * date-string parsing, strftime formats and POSIX TZ strings.
 *
 * Input: up to three NUL-separated parts: a date string, a format and a TZ
 * value. The TZ is parsed, the date string is parsed relative to a fixed
 * "now", and the result (or "now") is formatted with the format under a
 * 64 KiB output bound. Crashes, sanitizer reports, leaks and hangs are bugs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/lib/datetime.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *copy = fuzz_strdup(data, size);
  if (!copy) return 0;
  char *parts[3] = {"", "", ""};
  fuzz_split_fields(copy, size, parts, 3, NULL);
  cmd_tz tz;
  cmd_tz_parse(parts[2], &tz);
  int64_t now = 1700000000, t = now;
  long ns = 123456789;
  if (cmd_parse_date(parts[0], now, ns, &tz, &t, &ns) < 0) t = now;
  struct tm tm;
  if (cmd_time_local(&tz, t, &tm)) {
    char *out = NULL;
    cmd_strftime(&out, 65536, parts[1], &tm, t, ns);
    free(out);
    int64_t back;
    cmd_time_mk(&tz, &tm, &back);
  }
  free(copy);
  return 0;
}
