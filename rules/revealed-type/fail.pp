$port = 8000 + 80
pupcheck::reveal($port)
#                ^ info[revealed-type]: 8080
class demo (Integer[0, 9] $level, $anything) {
  pupcheck::reveal($level)
  #                ^ info[revealed-type]: any Integer[0, 9]
  pupcheck::reveal($anything)
  #                ^ info[revealed-type]: unknown
}
