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
