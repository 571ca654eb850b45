# getopts has no options of its own: a leading -- is skipped (scripts write
# it when the option string itself may start with a dash), anything else
# starting with a dash is an invalid option with the usage and status 2.
parse() {
  local OPTIND=1 opt
  while getopts -- ":vo:" opt "$@"; do
    case $opt in
      v) echo "verbose" ;;
      o) echo "output=$OPTARG" ;;
      :) echo "missing argument for -$OPTARG" ;;
      *) echo "unknown -$OPTARG" ;;
    esac
  done
  echo "rest: ${*:OPTIND}"
}
parse -v -o out.txt file1
parse -x -o
getopts -q opt; echo "status $?"
getopts -vx; echo "status $?"
getopts --; echo "status $?"
getopts - opt -a; echo "status $? opt=$opt"
