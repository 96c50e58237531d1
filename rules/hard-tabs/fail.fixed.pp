class demo {
  include demo::install
# <- warning[hard-tabs]: tab character found
  $a = 1   # spaces then a tab
#       ^^ warning[hard-tabs]: tab character found
}
