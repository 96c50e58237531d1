class my_module::config { }
# Capitals after the first letter of a segment are accepted.
class my_module::sslVhost { }
