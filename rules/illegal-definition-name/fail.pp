class my-module::config { }
#     ^ error[illegal-definition-name]: Unacceptable name. The name 'my-module::config' is unacceptable as the name of a Host Class Definition
class TEMPLATE (
#     ^ error[illegal-definition-name]: Unacceptable name. The name 'TEMPLATE' is unacceptable as the name of a Host Class Definition
  $x = 1,
) { }
define Site::Vhost { }
#      ^ error[illegal-definition-name]: Unacceptable name. The name 'Site::Vhost' is unacceptable as the name of a 'define' expression
