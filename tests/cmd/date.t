# date: formats, -d date strings, -u, -I, -R, --rfc-3339, -r, errors.
# Fixed instants (@N or explicit dates) keep the output reproducible.

test: default format
cmd: date -d @0
out: Thu Jan  1 00:00:00 UTC 1970\n

test: -u
cmd: date -u -d '2024-03-05 07:08:09'
out: Tue Mar  5 07:08:09 UTC 2024\n

test: +FORMAT basics
cmd: date -d '2024-03-05 07:08:09' '+%Y-%m-%d %H:%M:%S %j %a %A %b %B %u %w'
out: 2024-03-05 07:08:09 065 Tue Tuesday Mar March 2 2\n

test: padding flags
cmd: date -d '2024-03-05 07:08:09' '+[%-d] [%_d] [%05d] [%e] [%-m] [%_H] [%10A] [%-10A]'
out: [5] [ 5] [00005] [ 5] [3] [ 7] [   Tuesday] [Tuesday]\n

test: case flags
cmd: date -d '2024-03-05 07:08:09' '+%^a %^B %#p %P %#Z'
out: TUE MARCH am am utc\n

test: nanoseconds
cmd: date -d '@1.123456789' '+%N %3N %-N %6N'
out: 123456789 123 123456789 123456\n

test: nanoseconds trailing zeros
cmd: date -d '@1.5' '+%N|%-N|%_3N'; date -d @1.5 '+%-3N|%_N|%12N|%-12N'; date -d @1.000000007 '+%_3N|%-12N|%_12N|'
out: 500000000|500000000|5  \n5|5        |500000000000|5\n0  |000000007|000000007   |\n

test: zone offsets
cmd: date -d @0 '+%z %:z %::z %:::z'
out: +0000 +00:00 +00:00:00 +00\n

test: seconds since the epoch
cmd: date -d '1970-01-02' +%s
out: 86400\n

test: negative epoch
cmd: date -d @-1 '+%F %T %s'
out: 1969-12-31 23:59:59 -1\n

test: composite conversions
cmd: date -d '2024-03-05 07:08:09' '+%c|%D|%F|%r|%R|%T|%x|%X|%h|%C|%y|%g|%G|%V|%U|%W|%q'
out: Tue Mar  5 07:08:09 2024|03/05/24|2024-03-05|07:08:09 AM|07:08|07:08:09|03/05/24|07:08:09|Mar|20|24|24|2024|10|09|10|1\n

test: hour conversions and their default pads (%k %l blanks, %H %I zeros)
cmd: date -d '2024-03-05 07:08:09' '+%H|%k|%I|%l|%_I|%-l|%0l|%3k|%j|%e'
cmd: date -d '2024-03-05 00:08:09' '+%H|%k|%I|%l'; date -d '2024-03-05 13:08:09' '+%H|%k|%I|%l'
out: 07| 7|07| 7| 7|7|07|  7|065| 5\n00| 0|12|12\n13|13|01| 1\n

test: %n %t %%
cmd: date -d @0 '+a%nb%tc%%'
out: a\nb\tc%\n

test: unknown conversion is copied
cmd: date -d @0 '+%Q %5 %Ey %OY'
out: %Q   %5 70 %OY\n

test: ISO week at a year boundary
cmd: date -d 2021-01-03 '+%G-W%V-%u'; date -d 2020-12-31 '+%G-W%V-%u'
out: 2020-W53-7\n2020-W53-4\n

test: -I
cmd: date -d @0 -I; date -d @0 -Ihours; date -d @0 -Iminutes; date -d @0 -Iseconds; date -d @1.5 -Ins
out: 1970-01-01\n1970-01-01T00+00:00\n1970-01-01T00:00+00:00\n1970-01-01T00:00:00+00:00\n1970-01-01T00:00:01,500000000+00:00\n

test: -R
cmd: date -R -d @0
out: Thu, 01 Jan 1970 00:00:00 +0000\n

test: --rfc-3339
cmd: date --rfc-3339=date -d @0; date --rfc-3339=seconds -d @0; date --rfc-3339=ns -d @1.5
out: 1970-01-01\n1970-01-01 00:00:00+00:00\n1970-01-01 00:00:01.500000000+00:00\n

test: ISO 8601 input forms
cmd: for d in 2024-01-02 2024-01-02T03:04:05 2024-01-02T03:04:05Z '2024-01-02 03:04:05.5+05:30' 20240102 '2024-01-02T03:04:05,123'; do date -d "$d" '+%F %T.%N %z'; done
out: 2024-01-02 00:00:00.000000000 +0000\n2024-01-02 03:04:05.000000000 +0000\n2024-01-02 03:04:05.000000000 +0000\n
out: 2024-01-01 21:34:05.500000000 +0000\n2024-01-02 00:00:00.000000000 +0000\n2024-01-02 03:04:05.123000000 +0000\n

test: other absolute forms
cmd: for d in 01/02/2024 1/2/24 'Jan 2 2024' '2 January 2024' 'January 2, 2024' 'Tue, 02 Jan 2024 03:04:05 +0000' 'Tue Jan  2 03:04:05 UTC 2024' 17-JUN-1992 '10 Jan 2020 5pm' '2024-01-02 EST' '2024-01-02 10:00 PST'; do date -d "$d" '+%F %T'; done
out: 2024-01-02 00:00:00\n2024-01-02 00:00:00\n2024-01-02 00:00:00\n2024-01-02 00:00:00\n2024-01-02 00:00:00\n
out: 2024-01-02 03:04:05\n2024-01-02 03:04:05\n1992-06-17 00:00:00\n2020-01-10 17:00:00\n2024-01-02 05:00:00\n2024-01-02 18:00:00\n

test: relative items from a fixed date
cmd: for d in '2024-01-02 +1 day' '2024-01-31 +1 month' '1 hour ago 2024-01-01' '2024-01-02 12:00 3 days ago' '2024-01-02 12:00 next week' '2024-01-02 -2 weeks' '2024-01-02 1 year 2 months ago' '2024-01-02 fortnight'; do date -d "$d" '+%F %T'; done
out: 2024-01-03 00:00:00\n2024-03-02 00:00:00\n2023-12-31 23:00:00\n2023-12-30 12:00:00\n2024-01-09 12:00:00\n
out: 2023-12-19 00:00:00\n2024-11-02 00:00:00\n2024-01-16 00:00:00\n

test: a signed number after a time is a zone
cmd: date -d '2024-01-02 10:00 +1 day' '+%F %T'
out: 2024-01-03 09:00:00\n

test: relative to now
cmd: a=$(date +%s); b=$(date -d '+1 hour' +%s); c=$(date -d yesterday +%s); echo $(( (b - a + 5) / 60 )) $(( (a - c + 5) / 3600 ))
out: 60 24\n

test: invalid dates
cmd: date -d 2024-02-30
out:
err: date: invalid date \xe2\x80\x982024-02-30\xe2\x80\x99\n
status: 1

test: junk
cmd: date -d junk
out:
err: date: invalid date \xe2\x80\x98junk\xe2\x80\x99\n
status: 1

test: time out of range
cmd: date -d 25:00
out:
err: date: invalid date \xe2\x80\x9825:00\xe2\x80\x99\n
status: 1

test: TZ from the environment
cmd: TZ=America/New_York date -d '2024-01-15 12:00' '+%F %T %z %Z'; TZ=America/New_York date -d '2024-07-15 12:00' '+%F %T %z %Z'
out: 2024-01-15 12:00:00 -0500 EST\n2024-07-15 12:00:00 -0400 EDT\n

test: POSIX TZ strings
cmd: TZ='<+0530>-5:30' date -d @0 '+%F %T %z %Z'; TZ=UTC+5 date -d @0 '+%T %z'
out: 1970-01-01 05:30:00 +0530 +0530\n19:00:00 -0500\n

test: a date in another zone
cmd: date -d 'TZ="Europe/Berlin" 2024-06-01 12:00' '+%F %T %Z'
out: 2024-06-01 10:00:00 UTC\n

test: DST gap is invalid
cmd: TZ=America/New_York date -d '2024-03-10 02:30'
out:
err: date: invalid date \xe2\x80\x982024-03-10 02:30\xe2\x80\x99\n
status: 1

test: -r file time
cmd: touch -d @12345 f; date -r f +%s
out: 12345\n

test: -r missing
cmd: date -r nope
out:
err: date: nope: No such file or directory\n
status: 1

test: -f file of dates
cmd: printf '@0\njunk\n@1\n' > dates; date -f dates +%s
out: 0\n1\n
err: date: invalid date \xe2\x80\x98junk\xe2\x80\x99\n
status: 1

test: two formats
cmd: date -I -R
out:
err: date: multiple output formats specified\n
status: 1

test: extra operand
cmd: date +%s +%s
out:
err: date: extra operand \xe2\x80\x98+%s\xe2\x80\x99\nTry 'date --help' for more information.\n
status: 1

test: operand without + and with -d
cmd: date -d @0 x
out:
err: date: the argument \xe2\x80\x98x\xe2\x80\x99 lacks a leading '+';\nwhen using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'\nTry 'date --help' for more information.\n
status: 1

test: bad -I argument
cmd: date --iso-8601=foo
out:
status: 1

test: empty format
cmd: date -d @0 +
out: \n

test: format with a lone percent
cmd: date -d @0 '+%'
out: %\n

# --debug: gnulib parse-datetime's trace (fixed dates only: the trace of a
# relative-only input shows the current time)
test: debug iso date
cmd: date --debug -d 2024-01-02
out: Tue Jan  2 00:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 00:00:00'\n
err: date: '(Y-M-D) 2024-01-02 00:00:00' = 1704153600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704153600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug date and time
cmd: date --debug -d '2024-01-02 03:04:05'
out: Tue Jan  2 03:04:05 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 03:04:05\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '03:04:05'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 03:04:05'\n
err: date: '(Y-M-D) 2024-01-02 03:04:05' = 1704164645 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704164645.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 03:04:05 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 03:04:05 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug epoch seconds
cmd: date --debug -d @1700000000
out: Tue Nov 14 22:13:20 UTC 2023\n
err: date: parsed number of seconds part: number of seconds: 1700000000\n
err: date: input timezone: '@timespec' - always UTC\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1700000000.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2023-11-14 22:13:20 (UTC)\n
err: date: final: (Y-M-D) 2023-11-14 22:13:20 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug epoch fraction negative
cmd: date --debug -d @-1.5
out: Wed Dec 31 23:59:58 UTC 1969\n
err: date: parsed number of seconds part: number of seconds: -2\n
err: date: input timezone: '@timespec' - always UTC\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: -2.500000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 1969-12-31 23:59:58 (UTC)\n
err: date: final: (Y-M-D) 1969-12-31 23:59:58 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug tomorrow
cmd: date --debug -d '2024-01-02 tomorrow'
out: Wed Jan  3 00:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed relative part: +1 day(s)\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 00:00:00'\n
err: date: warning: when adding relative days, it is recommended to specify noon\n
err: date: after date adjustment (+0 years, +0 months, +1 days),\n
err: date:     new date/time = '(Y-M-D) 2024-01-03 00:00:00'\n
err: date: '(Y-M-D) 2024-01-03 00:00:00' = 1704240000 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704240000.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-03 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-03 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug utc with zone offset and day
cmd: date --debug -u -d '2024-01-02 12:00 +3 days'
out: Wed Jan  3 09:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 12:00:00 UTC+03\n
err: date: parsed relative part: +1 day(s)\n
err: date: input timezone: parsed date/time string (+03)\n
err: date: using specified time as starting value: '12:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 12:00:00 TZ=+03'\n
err: date: after date adjustment (+0 years, +0 months, +1 days),\n
err: date:     new date/time = '(Y-M-D) 2024-01-03 12:00:00 TZ=+03'\n
err: date: '(Y-M-D) 2024-01-03 12:00:00 TZ=+03' = 1704272400 epoch-seconds\n
err: date: timezone: Universal Time\n
err: date: final: 1704272400.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-03 09:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-03 09:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug hours ago
cmd: date --debug -d '2024-01-02 10:00 2 hours ago'
out: Tue Jan  2 08:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 10:00:00\n
err: date: parsed relative part: -2 hour(s)\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '10:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 10:00:00'\n
err: date: '(Y-M-D) 2024-01-02 10:00:00' = 1704189600 epoch-seconds\n
err: date: after time adjustment (-2 hours, +0 minutes, +0 seconds, +0 ns),\n
err: date:     new time = 1704182400 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704182400.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 08:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 08:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug month shifted dates
cmd: date --debug -d '2024-01-31 +1 month'
out: Sat Mar  2 00:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-31\n
err: date: parsed relative part: +1 month(s)\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-31 00:00:00'\n
err: date: warning: when adding relative months/years, it is recommended to specify the 15th of the months\n
err: date: after date adjustment (+0 years, +1 months, +0 days),\n
err: date:     new date/time = '(Y-M-D) 2024-03-02 00:00:00'\n
err: date: warning: month/year adjustment resulted in shifted dates:\n
err: date:      adjusted Y M D: 2024 02 31\n
err: date:    normalized Y M D: 2024 03 02\n
err: date: '(Y-M-D) 2024-03-02 00:00:00' = 1709337600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1709337600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-03-02 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-03-02 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug tz env and fraction
cmd: TZ=America/New_York date --debug -d '2024-07-04 12:30:15.25'
out: Thu Jul  4 12:30:15 EDT 2024\n
err: date: parsed date part: (Y-M-D) 2024-07-04\n
err: date: parsed time part: 12:30:15.250000000\n
err: date: input timezone: TZ="America/New_York" environment value\n
err: date: using specified time as starting value: '12:30:15'\n
err: date: starting date/time: '(Y-M-D) 2024-07-04 12:30:15'\n
err: date: '(Y-M-D) 2024-07-04 12:30:15' = 1720110615 epoch-seconds\n
err: date: timezone: TZ="America/New_York" environment value\n
err: date: final: 1720110615.250000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-07-04 16:30:15 (UTC)\n
err: date: final: (Y-M-D) 2024-07-04 12:30:15 (UTC-04)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug tz in string
cmd: date --debug -d 'TZ="Europe/Paris" 2024-01-02 10:00'
out: Tue Jan  2 09:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 10:00:00\n
err: date: input timezone: TZ="Europe/Paris" in date string\n
err: date: using specified time as starting value: '10:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 10:00:00'\n
err: date: '(Y-M-D) 2024-01-02 10:00:00' = 1704186000 epoch-seconds\n
err: date: timezone: TZ="Europe/Paris" environment value\n
err: date: final: 1704186000.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 09:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 10:00:00 (UTC+01)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug unset tz
cmd: env -u TZ date --debug -d @1.5
out: Thu Jan  1 00:00:01 UTC 1970\n
err: date: parsed number of seconds part: number of seconds: 1\n
err: date: input timezone: '@timespec' - always UTC\n
err: date: timezone: system default\n
err: date: final: 1.500000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:01 (UTC)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:01 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug invalid day
cmd: date --debug -d 2024-02-30
out:
err: date: parsed date part: (Y-M-D) 2024-02-30\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: error: invalid date/time value:\n
err: date:     user provided time: '(Y-M-D) 2024-02-30 00:00:00'\n
err: date:        normalized time: '(Y-M-D) 2024-03-01 00:00:00'\n
err: date:                                       -- --\n
err: date:      possible reasons:\n
err: date:        invalid day/month combination;\n
err: date:        numeric values overflow;\n
err: date:        missing timezone\n
err: date: invalid date \xe2\x80\x982024-02-30\xe2\x80\x99\n
status: 1

test: debug invalid month
cmd: date --debug -d 2024-13-02
out:
err: date: parsed date part: (Y-M-D) 2024-13-02\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: error: invalid date/time value:\n
err: date:     user provided time: '(Y-M-D) 2024-13-02 00:00:00'\n
err: date:        normalized time: '(Y-M-D) 2025-01-02 00:00:00'\n
err: date:                                  ---- --\n
err: date:      possible reasons:\n
err: date:        numeric values overflow;\n
err: date:        missing timezone\n
err: date: invalid date \xe2\x80\x982024-13-02\xe2\x80\x99\n
status: 1

test: debug invalid minutes
cmd: date --debug -d '2024-01-02 10:75'
out:
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 10:75:00\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '10:75:00'\n
err: date: error: invalid date/time value:\n
err: date:     user provided time: '(Y-M-D) 2024-01-02 10:75:00'\n
err: date:        normalized time: '(Y-M-D) 2024-01-02 11:15:00'\n
err: date:                                             -- --\n
err: date:      possible reasons:\n
err: date:        numeric values overflow;\n
err: date:        missing timezone\n
err: date: invalid date \xe2\x80\x982024-01-02 10:75\xe2\x80\x99\n
status: 1

test: debug invalid hour pm
cmd: date --debug -d '2024-01-02 13pm'
out:
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 13:00:00pm\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: error: invalid hour 13pm\n
err: date: invalid date \xe2\x80\x982024-01-02 13pm\xe2\x80\x99\n
status: 1

test: debug unknown word
cmd: date --debug -d foo
out:
err: date: error: unknown word 'FOO'\n
err: date: error: parsing failed\n
err: date: invalid date \xe2\x80\x98foo\xe2\x80\x99\n
status: 1

test: debug unknown word stopped
cmd: date --debug -d 'foo bar'
out:
err: date: error: unknown word 'FOO'\n
err: date: error: parsing failed, stopped at ' bar'\n
err: date: invalid date \xe2\x80\x98foo bar\xe2\x80\x99\n
status: 1

test: debug two digit year
cmd: date --debug -d 24-01-02
out: Tue Jan  2 00:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 0024-01-02\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: adjusting year value 24 to 2024\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 00:00:00'\n
err: date: '(Y-M-D) 2024-01-02 00:00:00' = 1704153600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704153600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug several relative items
cmd: date --debug -d '2024-01-02 3 days 4 hours 5 minutes 6 seconds ago'
out: Fri Jan  5 04:04:54 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed relative part: +3 day(s)\n
err: date: parsed relative part: +3 day(s) +4 hour(s)\n
err: date: parsed relative part: +3 day(s) +4 hour(s) +5 minutes\n
err: date: parsed relative part: +3 day(s) +4 hour(s) +5 minutes -6 seconds\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 00:00:00'\n
err: date: warning: when adding relative days, it is recommended to specify noon\n
err: date: after date adjustment (+0 years, +0 months, +3 days),\n
err: date:     new date/time = '(Y-M-D) 2024-01-05 00:00:00'\n
err: date: '(Y-M-D) 2024-01-05 00:00:00' = 1704412800 epoch-seconds\n
err: date: after time adjustment (+4 hours, +5 minutes, -6 seconds, +0 ns),\n
err: date:     new time = 1704427494 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704427494.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-05 04:04:54 (UTC)\n
err: date: final: (Y-M-D) 2024-01-05 04:04:54 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug day ignored
cmd: date --debug -d '2024-01-02 next monday'
out: Tue Jan  2 00:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed day part: next/first Mon (day ordinal=1 number=1)\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: warning: day (next/first Mon) ignored when explicit dates are given\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 00:00:00'\n
err: date: '(Y-M-D) 2024-01-02 00:00:00' = 1704153600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704153600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug time pm and zone word
cmd: date --debug -d '2024-01-02 3pm EST' +%s
out: 1704225600\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 03:00:00pm\n
err: date: parsed zone part: UTC-05\n
err: date: input timezone: parsed date/time string (-05)\n
err: date: using specified time as starting value: '15:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 15:00:00 TZ=-05'\n
err: date: '(Y-M-D) 2024-01-02 15:00:00 TZ=-05' = 1704225600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704225600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 20:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 20:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%s\xe2\x80\x99\n

test: debug hybrid
cmd: date --debug -d '20240102 +3 days'
out: Fri Jan  5 00:00:00 UTC 2024\n
err: date: parsed hybrid part: +3 day(s)\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 00:00:00'\n
err: date: warning: when adding relative days, it is recommended to specify noon\n
err: date: after date adjustment (+0 years, +0 months, +3 days),\n
err: date:     new date/time = '(Y-M-D) 2024-01-05 00:00:00'\n
err: date: '(Y-M-D) 2024-01-05 00:00:00' = 1704412800 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704412800.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-05 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-05 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug multiple times
cmd: date --debug -d '2024-01-02 10:00 11:00'
out:
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 10:00:00\n
err: date: parsed time part: \n
err: date: input timezone: TZ="UTC" environment value\n
err: date: error: seen multiple time parts\n
err: date: invalid date \xe2\x80\x982024-01-02 10:00 11:00\xe2\x80\x99\n
status: 1

test: debug datetime with offset
cmd: date --debug -d '2024-01-02T10:00:00+05:30'
out: Tue Jan  2 04:30:00 UTC 2024\n
err: date: parsed datetime part: (Y-M-D) 2024-01-02 10:00:00 UTC+05:30\n
err: date: input timezone: parsed date/time string (+05:30)\n
err: date: using specified time as starting value: '10:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 10:00:00 TZ=+05:30'\n
err: date: '(Y-M-D) 2024-01-02 10:00:00 TZ=+05:30' = 1704169800 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704169800.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 04:30:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 04:30:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug datetime z
cmd: date --debug -d '2024-01-02T03:04:05Z'
out: Tue Jan  2 03:04:05 UTC 2024\n
err: date: parsed datetime part: (Y-M-D) 2024-01-02 03:04:05\n
err: date: parsed zone part: UTC+00\n
err: date: input timezone: parsed date/time string (+00)\n
err: date: using specified time as starting value: '03:04:05'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 03:04:05 TZ=+00'\n
err: date: '(Y-M-D) 2024-01-02 03:04:05 TZ=+00' = 1704164645 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704164645.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 03:04:05 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 03:04:05 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug rfc 5322 with weekday
cmd: date --debug -d 'Tue, 02 Jan 2024 03:04:05 +0000'
out: Tue Jan  2 03:04:05 UTC 2024\n
err: date: parsed day part: Tue (day ordinal=0 number=2)\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 03:04:05 UTC+00\n
err: date: input timezone: parsed date/time string (+00)\n
err: date: using specified time as starting value: '03:04:05'\n
err: date: warning: day (Tue) ignored when explicit dates are given\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 03:04:05 TZ=+00'\n
err: date: '(Y-M-D) 2024-01-02 03:04:05 TZ=+00' = 1704164645 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704164645.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 03:04:05 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 03:04:05 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug this day
cmd: date --debug -d '1 Jan 2024 this day'
out: Mon Jan  1 00:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-01\n
err: date: parsed relative part: today/this/now\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-01 00:00:00'\n
err: date: '(Y-M-D) 2024-01-01 00:00:00' = 1704067200 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704067200.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-01 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-01 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug local zone word
cmd: TZ=America/New_York date --debug -d '2024-01-02 10:00 EST'
out: Tue Jan  2 10:00:00 EST 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 10:00:00\n
err: date: parsed local_zone part: isdst=0\n
err: date: input timezone: TZ="America/New_York" environment value\n
err: date: using specified time as starting value: '10:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 10:00:00'\n
err: date: '(Y-M-D) 2024-01-02 10:00:00' = 1704207600 epoch-seconds\n
err: date: timezone: TZ="America/New_York" environment value\n
err: date: final: 1704207600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 15:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 10:00:00 (UTC-05)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug local zone word dst
cmd: TZ=America/New_York date --debug -d '2024-07-02 10:00 EDT'
out: Tue Jul  2 10:00:00 EDT 2024\n
err: date: parsed date part: (Y-M-D) 2024-07-02\n
err: date: parsed time part: 10:00:00\n
err: date: parsed local_zone part: isdst=1\n
err: date: input timezone: TZ="America/New_York" environment value, dst\n
err: date: using specified time as starting value: '10:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-07-02 10:00:00'\n
err: date: '(Y-M-D) 2024-07-02 10:00:00' = 1719928800 epoch-seconds\n
err: date: timezone: TZ="America/New_York" environment value\n
err: date: final: 1719928800.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-07-02 14:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-07-02 10:00:00 (UTC-04)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug dst change after time adjustment
cmd: TZ=America/New_York date --debug -d '2024-11-03 00:30 +2 hours'
out: Sat Nov  2 19:30:00 EDT 2024\n
err: date: parsed date part: (Y-M-D) 2024-11-03\n
err: date: parsed time part: 00:30:00 UTC+02\n
err: date: parsed relative part: +1 hour(s)\n
err: date: input timezone: parsed date/time string (+02)\n
err: date: using specified time as starting value: '00:30:00'\n
err: date: starting date/time: '(Y-M-D) 2024-11-03 00:30:00 TZ=+02'\n
err: date: '(Y-M-D) 2024-11-03 00:30:00 TZ=+02' = 1730586600 epoch-seconds\n
err: date: after time adjustment (+1 hours, +0 minutes, +0 seconds, +0 ns),\n
err: date:     new time = 1730590200 epoch-seconds\n
err: date: timezone: TZ="America/New_York" environment value\n
err: date: final: 1730590200.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-11-02 23:30:00 (UTC)\n
err: date: final: (Y-M-D) 2024-11-02 19:30:00 (UTC-04)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug last friday with time
cmd: date --debug -d '2024-01-05 12:00 last friday'
out: Fri Jan  5 12:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-05\n
err: date: parsed time part: 12:00:00\n
err: date: parsed day part: last Fri (day ordinal=-1 number=5)\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '12:00:00'\n
err: date: warning: day (last Fri) ignored when explicit dates are given\n
err: date: starting date/time: '(Y-M-D) 2024-01-05 12:00:00'\n
err: date: '(Y-M-D) 2024-01-05 12:00:00' = 1704456000 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704456000.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-05 12:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-05 12:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug slash date warning
cmd: date --debug -d '12/25/2023 08:00'
out: Mon Dec 25 08:00:00 UTC 2023\n
err: date: warning: value 12 has less than 4 digits. Assuming MM/DD/YY[YY]\n
err: date: parsed date part: (Y-M-D) 2023-12-25\n
err: date: parsed time part: 08:00:00\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '08:00:00'\n
err: date: starting date/time: '(Y-M-D) 2023-12-25 08:00:00'\n
err: date: '(Y-M-D) 2023-12-25 08:00:00' = 1703491200 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1703491200.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2023-12-25 08:00:00 (UTC)\n
err: date: final: (Y-M-D) 2023-12-25 08:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug slash date year first
cmd: date --debug -d '2023/12/25'
out: Mon Dec 25 00:00:00 UTC 2023\n
err: date: warning: value 2023 has 4 digits. Assuming YYYY/MM/DD\n
err: date: parsed date part: (Y-M-D) 2023-12-25\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2023-12-25 00:00:00'\n
err: date: '(Y-M-D) 2023-12-25 00:00:00' = 1703462400 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1703462400.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2023-12-25 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2023-12-25 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug month comma year
cmd: date --debug -d 'Jan 2, 2024 10:00'
out: Tue Jan  2 10:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 10:00:00\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '10:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 10:00:00'\n
err: date: '(Y-M-D) 2024-01-02 10:00:00' = 1704189600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704189600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 10:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 10:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug day month year
cmd: date --debug -d '2 January 2024 5:06pm'
out: Tue Jan  2 17:06:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 05:06:00pm\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '17:06:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 17:06:00'\n
err: date: '(Y-M-D) 2024-01-02 17:06:00' = 1704215160 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704215160.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 17:06:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 17:06:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug output format only
cmd: date --debug -u -d @0 +%s
out: 0\n
err: date: parsed number of seconds part: number of seconds: 0\n
err: date: input timezone: '@timespec' - always UTC\n
err: date: timezone: Universal Time\n
err: date: final: 0.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%s\xe2\x80\x99\n

test: debug iso output
cmd: date --debug -u -d @0 -I
out: 1970-01-01\n
err: date: parsed number of seconds part: number of seconds: 0\n
err: date: input timezone: '@timespec' - always UTC\n
err: date: timezone: Universal Time\n
err: date: final: 0.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%Y-%m-%d\xe2\x80\x99\n

test: debug reference file
cmd: touch -d @0 f; date --debug -u -r f
out: Thu Jan  1 00:00:00 UTC 1970\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n

test: debug file
cmd: date --debug -f input
file: input=2024-01-02\nbad\n@5\n
out: Tue Jan  2 00:00:00 UTC 2024\nThu Jan  1 00:00:05 UTC 1970\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: warning: using midnight as starting time: 00:00:00\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 00:00:00'\n
err: date: '(Y-M-D) 2024-01-02 00:00:00' = 1704153600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704153600.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 00:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n
err: date: error: unknown word 'BAD'\n
err: date: error: parsing failed, stopped at '\n
err: '\n
err: date: invalid date \xe2\x80\x98bad\xe2\x80\x99\n
err: date: parsed number of seconds part: number of seconds: 5\n
err: date: input timezone: '@timespec' - always UTC\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 5.000000000 (epoch-seconds)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:05 (UTC)\n
err: date: final: (Y-M-D) 1970-01-01 00:00:05 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n
status: 1

test: debug nanoseconds
cmd: date --debug -d '2024-01-02 10:00:00.123456789'
out: Tue Jan  2 10:00:00 UTC 2024\n
err: date: parsed date part: (Y-M-D) 2024-01-02\n
err: date: parsed time part: 10:00:00.123456789\n
err: date: input timezone: TZ="UTC" environment value\n
err: date: using specified time as starting value: '10:00:00'\n
err: date: starting date/time: '(Y-M-D) 2024-01-02 10:00:00'\n
err: date: '(Y-M-D) 2024-01-02 10:00:00' = 1704189600 epoch-seconds\n
err: date: timezone: TZ="UTC" environment value\n
err: date: final: 1704189600.123456789 (epoch-seconds)\n
err: date: final: (Y-M-D) 2024-01-02 10:00:00 (UTC)\n
err: date: final: (Y-M-D) 2024-01-02 10:00:00 (UTC+00)\n
err: date: output format: \xe2\x80\x98%a %b %e %H:%M:%S %Z %Y\xe2\x80\x99\n


test: abbreviated long options, optional and required arguments
cmd: date --rfc-3=date -d @0; date --iso=h --uni -d @0
out: 1970-01-01\n1970-01-01T00+00:00\n

test: a bad --iso-8601 argument is reported before a later bad option
cmd: date --iso=x --bogus
out:
err: date: invalid argument ‘x’ for ‘--iso-8601’\nValid arguments are:\n  - ‘hours’\n  - ‘minutes’\n  - ‘date’\n  - ‘seconds’\n  - ‘ns’\nTry 'date --help' for more information.\n
status: 1
