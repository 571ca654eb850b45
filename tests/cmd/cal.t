# cal (Debian's ncal 12.1 in cal mode, C locale). Every case names its month or
# year (or -d): nothing depends on today.

test: one month
cmd: cal 2 2024
out:    February 2024      \n
out: Su Mo Tu We Th Fr Sa  \n
out:              1  2  3  \n
out:  4  5  6  7  8  9 10  \n
out: 11 12 13 14 15 16 17  \n
out: 18 19 20 21 22 23 24  \n
out: 25 26 27 28 29        \n
out:                       \n

test: the 1752 reform
cmd: cal 9 1752; cal sep 1752 | head -3
out:    September 1752     \n
out: Su Mo Tu We Th Fr Sa  \n
out:        1  2 14 15 16  \n
out: 17 18 19 20 21 22 23  \n
out: 24 25 26 27 28 29 30  \n
out:                       \n
out:                       \n
out:                       \n
out:    September 1752     \n
out: Su Mo Tu We Th Fr Sa  \n
out:        1  2 14 15 16  \n

test: first and last months
cmd: cal 1 1; cal 12 9999
out:      January 1        \n
out: Su Mo Tu We Th Fr Sa  \n
out:                    1  \n
out:  2  3  4  5  6  7  8  \n
out:  9 10 11 12 13 14 15  \n
out: 16 17 18 19 20 21 22  \n
out: 23 24 25 26 27 28 29  \n
out: 30 31                 \n
out:    December 9999      \n
out: Su Mo Tu We Th Fr Sa  \n
out:           1  2  3  4  \n
out:  5  6  7  8  9 10 11  \n
out: 12 13 14 15 16 17 18  \n
out: 19 20 21 22 23 24 25  \n
out: 26 27 28 29 30 31     \n
out:                       \n

test: a year
cmd: cal 2024
out:                             2024\n
out:       January               February               March          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6               1  2  3                  1  2  \n
out:  7  8  9 10 11 12 13   4  5  6  7  8  9 10   3  4  5  6  7  8  9  \n
out: 14 15 16 17 18 19 20  11 12 13 14 15 16 17  10 11 12 13 14 15 16  \n
out: 21 22 23 24 25 26 27  18 19 20 21 22 23 24  17 18 19 20 21 22 23  \n
out: 28 29 30 31           25 26 27 28 29        24 25 26 27 28 29 30  \n
out:                                             31                    \n
out: \n
out:        April                  May                   June          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6            1  2  3  4                     1  \n
out:  7  8  9 10 11 12 13   5  6  7  8  9 10 11   2  3  4  5  6  7  8  \n
out: 14 15 16 17 18 19 20  12 13 14 15 16 17 18   9 10 11 12 13 14 15  \n
out: 21 22 23 24 25 26 27  19 20 21 22 23 24 25  16 17 18 19 20 21 22  \n
out: 28 29 30              26 27 28 29 30 31     23 24 25 26 27 28 29  \n
out:                                             30                    \n
out: \n
out:         July                 August              September        \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6               1  2  3   1  2  3  4  5  6  7  \n
out:  7  8  9 10 11 12 13   4  5  6  7  8  9 10   8  9 10 11 12 13 14  \n
out: 14 15 16 17 18 19 20  11 12 13 14 15 16 17  15 16 17 18 19 20 21  \n
out: 21 22 23 24 25 26 27  18 19 20 21 22 23 24  22 23 24 25 26 27 28  \n
out: 28 29 30 31           25 26 27 28 29 30 31  29 30                 \n
out:                                                                   \n
out: \n
out:       October               November              December        \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:        1  2  3  4  5                  1  2   1  2  3  4  5  6  7  \n
out:  6  7  8  9 10 11 12   3  4  5  6  7  8  9   8  9 10 11 12 13 14  \n
out: 13 14 15 16 17 18 19  10 11 12 13 14 15 16  15 16 17 18 19 20 21  \n
out: 20 21 22 23 24 25 26  17 18 19 20 21 22 23  22 23 24 25 26 27 28  \n
out: 27 28 29 30 31        24 25 26 27 28 29 30  29 30 31              \n
out:                                                                   \n

test: a year before the reform
cmd: cal 1700
out:                             1700\n
out:       January               February               March          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6               1  2  3                  1  2  \n
out:  7  8  9 10 11 12 13   4  5  6  7  8  9 10   3  4  5  6  7  8  9  \n
out: 14 15 16 17 18 19 20  11 12 13 14 15 16 17  10 11 12 13 14 15 16  \n
out: 21 22 23 24 25 26 27  18 19 20 21 22 23 24  17 18 19 20 21 22 23  \n
out: 28 29 30 31           25 26 27 28 29        24 25 26 27 28 29 30  \n
out:                                             31                    \n
out: \n
out:        April                  May                   June          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6            1  2  3  4                     1  \n
out:  7  8  9 10 11 12 13   5  6  7  8  9 10 11   2  3  4  5  6  7  8  \n
out: 14 15 16 17 18 19 20  12 13 14 15 16 17 18   9 10 11 12 13 14 15  \n
out: 21 22 23 24 25 26 27  19 20 21 22 23 24 25  16 17 18 19 20 21 22  \n
out: 28 29 30              26 27 28 29 30 31     23 24 25 26 27 28 29  \n
out:                                             30                    \n
out: \n
out:         July                 August              September        \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6               1  2  3   1  2  3  4  5  6  7  \n
out:  7  8  9 10 11 12 13   4  5  6  7  8  9 10   8  9 10 11 12 13 14  \n
out: 14 15 16 17 18 19 20  11 12 13 14 15 16 17  15 16 17 18 19 20 21  \n
out: 21 22 23 24 25 26 27  18 19 20 21 22 23 24  22 23 24 25 26 27 28  \n
out: 28 29 30 31           25 26 27 28 29 30 31  29 30                 \n
out:                                                                   \n
out: \n
out:       October               November              December        \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:        1  2  3  4  5                  1  2   1  2  3  4  5  6  7  \n
out:  6  7  8  9 10 11 12   3  4  5  6  7  8  9   8  9 10 11 12 13 14  \n
out: 13 14 15 16 17 18 19  10 11 12 13 14 15 16  15 16 17 18 19 20 21  \n
out: 20 21 22 23 24 25 26  17 18 19 20 21 22 23  22 23 24 25 26 27 28  \n
out: 27 28 29 30 31        24 25 26 27 28 29 30  29 30 31              \n
out:                                                                   \n

test: julian days
cmd: cal -j 2 2024; cal -j 9 1752
out:        February 2024         \n
out:  Su  Mo  Tu  We  Th  Fr  Sa  \n
out:                  32  33  34  \n
out:  35  36  37  38  39  40  41  \n
out:  42  43  44  45  46  47  48  \n
out:  49  50  51  52  53  54  55  \n
out:  56  57  58  59  60          \n
out:                              \n
out:       September 1752         \n
out:  Su  Mo  Tu  We  Th  Fr  Sa  \n
out:         245 246 247 248 249  \n
out: 250 251 252 253 254 255 256  \n
out: 257 258 259 260 261 262 263  \n
out:                              \n
out:                              \n
out:                              \n

test: julian year
cmd: cal -j 2023
out:                          2023\n
out:           January                     February            \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:   1   2   3   4   5   6   7               32  33  34  35  \n
out:   8   9  10  11  12  13  14   36  37  38  39  40  41  42  \n
out:  15  16  17  18  19  20  21   43  44  45  46  47  48  49  \n
out:  22  23  24  25  26  27  28   50  51  52  53  54  55  56  \n
out:  29  30  31                   57  58  59                  \n
out:                                                           \n
out: \n
out:            March                        April             \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:              60  61  62  63                           91  \n
out:  64  65  66  67  68  69  70   92  93  94  95  96  97  98  \n
out:  71  72  73  74  75  76  77   99 100 101 102 103 104 105  \n
out:  78  79  80  81  82  83  84  106 107 108 109 110 111 112  \n
out:  85  86  87  88  89  90      113 114 115 116 117 118 119  \n
out:                              120                          \n
out: \n
out:             May                         June              \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:     121 122 123 124 125 126                  152 153 154  \n
out: 127 128 129 130 131 132 133  155 156 157 158 159 160 161  \n
out: 134 135 136 137 138 139 140  162 163 164 165 166 167 168  \n
out: 141 142 143 144 145 146 147  169 170 171 172 173 174 175  \n
out: 148 149 150 151              176 177 178 179 180 181      \n
out:                                                           \n
out: \n
out:            July                        August             \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:                         182          213 214 215 216 217  \n
out: 183 184 185 186 187 188 189  218 219 220 221 222 223 224  \n
out: 190 191 192 193 194 195 196  225 226 227 228 229 230 231  \n
out: 197 198 199 200 201 202 203  232 233 234 235 236 237 238  \n
out: 204 205 206 207 208 209 210  239 240 241 242 243          \n
out: 211 212                                                   \n
out: \n
out:          September                     October            \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:                     244 245  274 275 276 277 278 279 280  \n
out: 246 247 248 249 250 251 252  281 282 283 284 285 286 287  \n
out: 253 254 255 256 257 258 259  288 289 290 291 292 293 294  \n
out: 260 261 262 263 264 265 266  295 296 297 298 299 300 301  \n
out: 267 268 269 270 271 272 273  302 303 304                  \n
out:                                                           \n
out: \n
out:          November                     December            \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:             305 306 307 308                      335 336  \n
out: 309 310 311 312 313 314 315  337 338 339 340 341 342 343  \n
out: 316 317 318 319 320 321 322  344 345 346 347 348 349 350  \n
out: 323 324 325 326 327 328 329  351 352 353 354 355 356 357  \n
out: 330 331 332 333 334          358 359 360 361 362 363 364  \n
out:                              365                          \n

test: -3 inside a year
cmd: cal -3 5 2024
out:                             2024\n
out:        April                  May                   June          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6            1  2  3  4                     1  \n
out:  7  8  9 10 11 12 13   5  6  7  8  9 10 11   2  3  4  5  6  7  8  \n
out: 14 15 16 17 18 19 20  12 13 14 15 16 17 18   9 10 11 12 13 14 15  \n
out: 21 22 23 24 25 26 27  19 20 21 22 23 24 25  16 17 18 19 20 21 22  \n
out: 28 29 30              26 27 28 29 30 31     23 24 25 26 27 28 29  \n
out:                                             30                    \n

test: -3 across years
cmd: cal -3 1 2024; cal -3 12 2024
out:    December 2023          January 2024         February 2024      \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:                 1  2      1  2  3  4  5  6               1  2  3  \n
out:  3  4  5  6  7  8  9   7  8  9 10 11 12 13   4  5  6  7  8  9 10  \n
out: 10 11 12 13 14 15 16  14 15 16 17 18 19 20  11 12 13 14 15 16 17  \n
out: 17 18 19 20 21 22 23  21 22 23 24 25 26 27  18 19 20 21 22 23 24  \n
out: 24 25 26 27 28 29 30  28 29 30 31           25 26 27 28 29        \n
out: 31                                                                \n
out:    November 2024         December 2024          January 2025      \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:                 1  2   1  2  3  4  5  6  7            1  2  3  4  \n
out:  3  4  5  6  7  8  9   8  9 10 11 12 13 14   5  6  7  8  9 10 11  \n
out: 10 11 12 13 14 15 16  15 16 17 18 19 20 21  12 13 14 15 16 17 18  \n
out: 17 18 19 20 21 22 23  22 23 24 25 26 27 28  19 20 21 22 23 24 25  \n
out: 24 25 26 27 28 29 30  29 30 31              26 27 28 29 30 31     \n
out:                                                                   \n

test: -A and -B
cmd: cal -A 4 5 2024; cal -B 2 3 2024; cal -A 5 10 2024
out:       May 2024             June 2024             July 2024        \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:           1  2  3  4                     1      1  2  3  4  5  6  \n
out:  5  6  7  8  9 10 11   2  3  4  5  6  7  8   7  8  9 10 11 12 13  \n
out: 12 13 14 15 16 17 18   9 10 11 12 13 14 15  14 15 16 17 18 19 20  \n
out: 19 20 21 22 23 24 25  16 17 18 19 20 21 22  21 22 23 24 25 26 27  \n
out: 26 27 28 29 30 31     23 24 25 26 27 28 29  28 29 30 31           \n
out:                       30                                          \n
out: \n
out:     August 2024          September 2024     \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:              1  2  3   1  2  3  4  5  6  7  \n
out:  4  5  6  7  8  9 10   8  9 10 11 12 13 14  \n
out: 11 12 13 14 15 16 17  15 16 17 18 19 20 21  \n
out: 18 19 20 21 22 23 24  22 23 24 25 26 27 28  \n
out: 25 26 27 28 29 30 31  29 30                 \n
out:                                             \n
out:                             2024\n
out:       January               February               March          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6               1  2  3                  1  2  \n
out:  7  8  9 10 11 12 13   4  5  6  7  8  9 10   3  4  5  6  7  8  9  \n
out: 14 15 16 17 18 19 20  11 12 13 14 15 16 17  10 11 12 13 14 15 16  \n
out: 21 22 23 24 25 26 27  18 19 20 21 22 23 24  17 18 19 20 21 22 23  \n
out: 28 29 30 31           25 26 27 28 29        24 25 26 27 28 29 30  \n
out:                                             31                    \n
out:                             2024\n
out:       October               November              December        \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:        1  2  3  4  5                  1  2   1  2  3  4  5  6  7  \n
out:  6  7  8  9 10 11 12   3  4  5  6  7  8  9   8  9 10 11 12 13 14  \n
out: 13 14 15 16 17 18 19  10 11 12 13 14 15 16  15 16 17 18 19 20 21  \n
out: 20 21 22 23 24 25 26  17 18 19 20 21 22 23  22 23 24 25 26 27 28  \n
out: 27 28 29 30 31        24 25 26 27 28 29 30  29 30 31              \n
out:                                                                   \n
out: \n
out:                             2025\n
out:       January               February               March          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:           1  2  3  4                     1                     1  \n
out:  5  6  7  8  9 10 11   2  3  4  5  6  7  8   2  3  4  5  6  7  8  \n
out: 12 13 14 15 16 17 18   9 10 11 12 13 14 15   9 10 11 12 13 14 15  \n
out: 19 20 21 22 23 24 25  16 17 18 19 20 21 22  16 17 18 19 20 21 22  \n
out: 26 27 28 29 30 31     23 24 25 26 27 28     23 24 25 26 27 28 29  \n
out:                                             30 31                 \n

test: -A with julian days
cmd: cal -j -A 3 3 2024; cal -j -B 1 1 2021
out:                          2024\n
out:            March                        April             \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:                      61  62       92  93  94  95  96  97  \n
out:  63  64  65  66  67  68  69   98  99 100 101 102 103 104  \n
out:  70  71  72  73  74  75  76  105 106 107 108 109 110 111  \n
out:  77  78  79  80  81  82  83  112 113 114 115 116 117 118  \n
out:  84  85  86  87  88  89  90  119 120 121                  \n
out:  91                                                       \n
out: \n
out:             May                         June              \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:             122 123 124 125                          153  \n
out: 126 127 128 129 130 131 132  154 155 156 157 158 159 160  \n
out: 133 134 135 136 137 138 139  161 162 163 164 165 166 167  \n
out: 140 141 142 143 144 145 146  168 169 170 171 172 173 174  \n
out: 147 148 149 150 151 152      175 176 177 178 179 180 181  \n
out:                              182                          \n
out:        December 2020                January 2021          \n
out:  Su  Mo  Tu  We  Th  Fr  Sa   Su  Mo  Tu  We  Th  Fr  Sa  \n
out:         336 337 338 339 340                        1   2  \n
out: 341 342 343 344 345 346 347    3   4   5   6   7   8   9  \n
out: 348 349 350 351 352 353 354   10  11  12  13  14  15  16  \n
out: 355 356 357 358 359 360 361   17  18  19  20  21  22  23  \n
out: 362 363 364 365 366           24  25  26  27  28  29  30  \n
out:                               31                          \n

test: month names and -m
cmd: cal feb 2024; cal March 1999; cal -m 7 2023
out:    February 2024      \n
out: Su Mo Tu We Th Fr Sa  \n
out:              1  2  3  \n
out:  4  5  6  7  8  9 10  \n
out: 11 12 13 14 15 16 17  \n
out: 18 19 20 21 22 23 24  \n
out: 25 26 27 28 29        \n
out:                       \n
out:      March 1999       \n
out: Su Mo Tu We Th Fr Sa  \n
out:     1  2  3  4  5  6  \n
out:  7  8  9 10 11 12 13  \n
out: 14 15 16 17 18 19 20  \n
out: 21 22 23 24 25 26 27  \n
out: 28 29 30 31           \n
out:                       \n
out:      July 2023        \n
out: Su Mo Tu We Th Fr Sa  \n
out:                    1  \n
out:  2  3  4  5  6  7  8  \n
out:  9 10 11 12 13 14 15  \n
out: 16 17 18 19 20 21 22  \n
out: 23 24 25 26 27 28 29  \n
out: 30 31                 \n

test: -y and -d fix the date
cmd: cal -y 2023 | head -3; cal -d 2024-03; cal -d 2024-03 -3; cal -d 1999-12 -y | head -2
out:                             2023\n
out:       January               February               March          \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:      March 2024       \n
out: Su Mo Tu We Th Fr Sa  \n
out:                 1  2  \n
out:  3  4  5  6  7  8  9  \n
out: 10 11 12 13 14 15 16  \n
out: 17 18 19 20 21 22 23  \n
out: 24 25 26 27 28 29 30  \n
out: 31                    \n
out:    February 2024           March 2024            April 2024       \n
out: Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  Su Mo Tu We Th Fr Sa  \n
out:              1  2  3                  1  2      1  2  3  4  5  6  \n
out:  4  5  6  7  8  9 10   3  4  5  6  7  8  9   7  8  9 10 11 12 13  \n
out: 11 12 13 14 15 16 17  10 11 12 13 14 15 16  14 15 16 17 18 19 20  \n
out: 18 19 20 21 22 23 24  17 18 19 20 21 22 23  21 22 23 24 25 26 27  \n
out: 25 26 27 28 29        24 25 26 27 28 29 30  28 29 30              \n
out:                       31                                          \n
out:                             1999\n
out:       January               February               March          \n

test: errors
cmd: cal 13 2024; echo $?; cal 0 2024; cal 1 10000; cal -3 2024; echo $?
out: 64\n64\n
err: cal: 13 is neither a month number (1..12) nor a name\ncal: 0 is neither a month number (1..12) nor a name\n
err: cal: year `10000' not in range 1..9999\ncal: -3 together with a given year but no given month is not supported.\n

test: too many operands print the usage
cmd: cal 1 2 3
out:
status: 64

# sbx: -A and -B span at most 1200 months (CAL_MAX_MONTHS)
test: the month span limit
cmd: cal -A 1201 1 2000; echo $?; cal -B 1200 1 2000 | head -1
out: 64\n                            1900\n
err: cal: -A argument must be between 0 and 1200\n
host: skip

test: the last of -3 and -1 counts
cmd: cal -3 -1 5 2024 | head -2; cal -1 -3 5 2024 | head -1
out:       May 2024        \nSu Mo Tu We Th Fr Sa  \n                            2024\n
